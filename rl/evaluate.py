"""`evaluate(model_dir, apps, n, seed)`: success rates of a policy on task instances.

    {"success_rate": 0.62, "episodes": 40, "valid_rate": 0.97,
     "per_app": {"shopping": {"success_rate": 0.7, "episodes": 14}, ...},
     "per_kind": {"navigation": {...}, "state": {...}}}

One greedy episode per instance, played in lock-step batches; `rl.report.plot_rates`
draws the rates as a bar chart.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from rl.config import RUN_TASKS, TrainConfig
from rl.policy import HISTORY
from rl.rollout import Episode


def rates(episodes: Sequence[Episode]) -> dict[str, Any]:
    """Success rate overall, per app and per task kind, and the valid-action rate."""
    def rate(eps: Sequence[Episode]) -> dict[str, Any]:
        return {"success_rate": sum(e.reward for e in eps) / len(eps) if eps else 0.0,
                "episodes": len(eps)}

    steps = sum(e.n for e in episodes)
    out = {**rate(episodes), "valid_rate": sum(e.valid for e in episodes) / steps if steps
           else 0.0, "per_app": {}, "per_kind": {}}
    for key, attr in (("per_app", "app"), ("per_kind", "kind")):
        for v in sorted({getattr(e, attr) for e in episodes}):
            out[key][v or "?"] = rate([e for e in episodes if getattr(e, attr) == v])
    return out


def evaluate_tasks(model: Any, tok: Any, specs: Sequence[Any], tasks: Sequence[Any], *,
                   fmt: str = "androidworld", k: int = HISTORY, max_steps: int = 6,
                   max_new_tokens: int = 64, batch: int = 16, progress: bool = False,
                   grounded: bool = True, task_last: bool = False, anchored: bool = False
                   ) -> dict[str, Any]:
    """Rates of one greedy episode per task (see `rates`)."""
    from rl.data import target
    from rl.rollout import Slot, play

    backends = [target(specs) for _ in range(min(batch, len(tasks)))]
    chunks = range(0, len(tasks), batch)
    if progress:
        from rl.report import bar

        chunks = bar(chunks, "eval")
    eps: list[Episode] = []
    for i in chunks:
        part = tasks[i:i + batch]
        slots = [Slot(b, t) for b, t in zip(backends, part, strict=False)]
        eps += play(model, tok, slots, fmt=fmt, k=k, max_steps=max_steps,
                    max_new_tokens=max_new_tokens, greedy=True, grounded=grounded,
                    task_last=task_last, anchored=anchored)
    return rates(eps)


class HeldOut:
    """A run's held-out evaluations: the same instances, played greedily at every stage.

    `stage("sft", folder)` evaluates a model folder once (a resumed run keeps what its
    `curve.json` holds, unless `again`), `probe(iteration, model, tok)` a live policy
    during RL (`rl N`); `plot` draws them with the RL rollouts' success per source
    (`rl.report.plot_curve`). Nothing happens without instances.
    """

    def __init__(self, cfg: Any, specs: Sequence[Any], tasks: Sequence[Any],
                 path: str | Path | None = None) -> None:
        self.cfg, self.specs, self.tasks = cfg, list(specs), list(tasks)
        self.path = Path(path) if path else None
        self.stages: list[dict[str, Any]] = []
        if self.path is not None and self.path.is_file() and cfg.resume:
            self.stages = json.loads(self.path.read_text())["held_out"]

    def rates(self, folder: str | Path) -> dict[str, Any]:
        """Rates of the policy in `folder` on the instances."""
        from rl.model import load_policy

        model, tok = load_policy(folder)
        model.eval()
        return self.play(model, tok)

    def play(self, model: Any, tok: Any) -> dict[str, Any]:
        c = self.cfg
        return evaluate_tasks(model, tok, self.specs, self.tasks, fmt=c.format, k=c.history,
                              max_steps=c.max_steps, max_new_tokens=c.max_new_tokens,
                              progress=True, grounded=c.grounded,
                              task_last=getattr(c, "task_last", False),
                              anchored=getattr(c, "anchored", False))

    def stage(self, name: str, folder: str | Path, again: bool = False
              ) -> dict[str, Any] | None:
        """Evaluate the model in `folder` as stage `name` (see the class docstring)."""
        if not self.tasks:
            return None
        done = [s for s in self.stages if s["stage"] == name]
        if done and not again:
            return done[-1]["rates"]
        return self._keep(name, self.rates(folder))

    def probe(self, iteration: int, model: Any, tok: Any) -> None:
        if self.tasks:
            self._keep(f"rl {iteration + 1}", self.play(model, tok))

    def _keep(self, name: str, rates: dict[str, Any]) -> dict[str, Any]:
        from rl.report import say, table

        self.stages = [s for s in self.stages if s["stage"] != name]
        self.stages.append({"stage": name, "success_rate": rates["success_rate"],
                            "rates": rates})
        say(table(rates, f"held-out success ({name})").splitlines()[0])
        if self.path is not None:
            self.path.write_text(json.dumps({"held_out": self.stages}, indent=1,
                                            sort_keys=True))
        return rates

    def plot(self, path: str | Path, rl_log: Sequence[dict[str, Any]]) -> Path:
        from rl.report import per_source, plot_curve

        curve = {"held_out": self.stages, "rl": per_source(rl_log)}
        if self.path is not None:
            self.path.write_text(json.dumps(curve, indent=1, sort_keys=True))
        return plot_curve(curve, path)


def evaluate(model_dir: str | Path, apps: Sequence[str], n: int = 40, seed: int = 1, *,
             fmt: str = "androidworld", k: int = HISTORY, max_steps: int = 6,
             plot_to: str | Path | None = None, progress: bool = True,
             grounded: bool = True, exclude: Collection[str] = (),
             task_last: bool = False, anchored: bool = False) -> dict[str, Any]:
    """Load a policy folder, play `n` task instances drawn with `seed` whose ids are not
    in `exclude` (see `trained_on`), and report; `left_out` counts those passed over."""
    import torch

    from rl.data import load_specs, sample
    from rl.model import load_policy

    torch.manual_seed(seed)
    model, tok = load_policy(model_dir)
    model.eval()
    specs = load_specs(apps)
    tasks, left_out = [], 0
    for t in sample(specs, n + len(exclude), seed):
        if len(tasks) == n:
            break
        if t.id in exclude:
            left_out += 1
        else:
            tasks.append(t)
    result = evaluate_tasks(model, tok, specs, tasks, fmt=fmt, k=k,
                            max_steps=max_steps, progress=progress, grounded=grounded,
                            task_last=task_last, anchored=anchored)
    result["model"] = str(model_dir)
    result["left_out"] = left_out
    if plot_to is not None:
        from rl.report import plot_rates

        plot_rates(result, plot_to)
        result["plot"] = str(plot_to)
    return result


def model_folder(path: str | Path) -> Path:
    """The model a path names: a model folder as it is, a run folder's final model (the
    SFT model while the run has not finished RL)."""
    from rl.train import TrainError

    path = Path(path)
    for folder in (path, path / "final", path / "sft" / "final"):
        if (folder / "config.json").is_file() and (folder / "tokenizer_config.json").is_file():
            return folder
    if (path / RUN_TASKS).is_file():
        raise TrainError(f"{path}: this run has no model yet (no final/ or sft/final/): "
                         f"let it finish, or continue it with phoneworld train --resume")
    raise TrainError(f"{path}: not a model folder (no config.json and tokenizer) nor a run "
                     f"folder of phoneworld train")


def run_config(model_dir: str | Path) -> dict[str, Any]:
    """The config of the run that made `model_dir` (its `config.json` as `phoneworld
    train` wrote it, found as `trained_on` finds the task list), or {}."""
    here = Path(model_dir).resolve()
    for folder in (here, *here.parents[:3]):
        if (folder / RUN_TASKS).is_file():
            try:
                cfg = json.loads((folder / "config.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}
            return cfg if isinstance(cfg, dict) else {}
    return {}


def played_as(model_dir: str | Path) -> dict[str, Any]:
    """How the run that made `model_dir` played (`run_config`), as `evaluate`'s keywords:
    format, step limit, grounding, the task's place and anchored notes; the defaults
    of a run that recorded none (a model from elsewhere, an older run: task first)."""
    ran = run_config(model_dir)
    return {"fmt": ran.get("format", "androidworld"),
            "max_steps": ran.get("max_steps", TrainConfig.max_steps),
            "grounded": ran.get("grounded", True), "task_last": ran.get("task_last", False),
            "anchored": ran.get("anchored", False)}


def trained_on(model_dir: str | Path) -> set[str]:
    """The ids of the task instances that the run which made `model_dir` trained on: the
    `tasks.json` that `phoneworld train` writes in its run folder, found in `model_dir` or
    up to three folders above it (`runs/NAME/sft/final`); none for a model from elsewhere."""
    from rl.train import TrainError

    here = Path(model_dir).resolve()
    for folder in (here, *here.parents[:3]):
        path = folder / RUN_TASKS
        if not path.is_file():
            continue
        try:
            ids = json.loads(path.read_text(encoding="utf-8"))["train"]
        except (ValueError, KeyError, TypeError) as err:
            raise TrainError(f"{path}: not a run's task list ({err}); remove it or pass "
                             f"--include-trained") from err
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise TrainError(f"{path}: \"train\" is not a list of task ids")
        return set(ids)
    return set()
