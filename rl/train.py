"""`train(cfg)`: the whole run — model, SFT on demos and traces, then online RL.

    runs/NAME/config.json        the config the run started with
    runs/NAME/tasks.json         the ids of its training and held-out task instances
                                 (`phoneworld eval` leaves the training ones out)
    runs/NAME/base/              the model it started from (built when --model is not given)
    runs/NAME/demos.json.gz      its SFT examples (a resumed run reads them, not replans)
    runs/NAME/sft/               SFT checkpoints; sft/final is the SFT model (RL's start)
    runs/NAME/rl/state/          the RL checkpoint: policy, optimizer, scheduler, iteration
    runs/NAME/rl/log.jsonl       one line per RL iteration: success per source, valid rate
    runs/NAME/final/             the trained policy (a plain HF model folder)
    runs/NAME/eval.json, .png    its success on held-out task instances (--eval-tasks)
    runs/NAME/curve.json, .png   held-out success before training, after SFT and RL
                                 iterations; rollout success per RL iteration and source
    runs/NAME/result.json        what `train` returned, with the wall and CPU seconds of
                                 each phase: the run finished

`--resume` continues from whatever is there: a finished stage is skipped, SFT resumes
from its latest checkpoint, RL from its state after the last saved iteration.
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from phoneworld.errors import PhoneworldError
from rl.config import RUN_RESULT, RUN_TASKS, TrainConfig
from rl.report import Phases, say


class TrainError(PhoneworldError):
    """A run that cannot start or go on, with what to do about it."""

    exit_code = 7


NO_DEVICE = ("--mix {mix} sends {pct}% of the RL groups to real devices, but no device is "
             "attached: connect a phone with USB debugging on, check `adb devices`, and pass "
             "its serial with --device SERIAL (repeatable); or train on mock apps only with "
             "--mix 1")


def check_sources(cfg: TrainConfig) -> None:
    """Fail at once when the run needs devices it does not have."""
    if not 0.0 <= cfg.mix <= 1.0:
        raise TrainError(f"--mix must be between 0 and 1, not {cfg.mix}")
    if cfg.rl_steps > 0 and cfg.mix < 1.0 and not cfg.device:
        raise TrainError(NO_DEVICE.format(mix=cfg.mix, pct=round(100 * (1 - cfg.mix))))
    if cfg.mix < 1.0 and cfg.device and not cfg.predicates:
        raise TrainError("device groups need tasks with a success predicate: pass "
                         "--predicates FILE (a JSON list of {id, instruction, app, "
                         "predicate})")


def sft_ranks(cfg: TrainConfig) -> int:
    """The processes the run's SFT is spread over (`rl.spread.ranks`); a `TrainError`
    where its batch does not split among them (at the start, not after the demos)."""
    from rl.spread import ranks

    spread = ranks(cfg.sft_processes)
    if cfg.sft_batch % spread:
        raise TrainError(f"--sft-batch {cfg.sft_batch} does not split among "
                         f"--sft-processes {spread}")
    return spread


def run_folder(cfg: TrainConfig) -> Path:
    """`cfg.out`, ready for the run: a finished run there is kept (and refused, unless
    `--resume`), an unfinished one (no `RUN_RESULT`: it failed or was stopped) is
    cleared so it does not block the next, and a folder that holds no run is refused."""
    out = Path(cfg.out)
    if cfg.resume or not out.exists() or not any(out.iterdir()):
        out.mkdir(parents=True, exist_ok=True)
        return out
    if (out / RUN_RESULT).is_file():
        raise TrainError(f"{out} already holds a finished run: choose another --out, or "
                         f"remove it first")
    if not (out / "config.json").is_file():
        raise TrainError(f"{out} is not empty and holds no run: choose another --out")
    say(f"{out} holds an unfinished run: starting it over (--resume continues it instead)")
    shutil.rmtree(out)
    out.mkdir(parents=True)
    return out


DRAW = ("apps", "holdout_apps", "seed", "tasks", "kinds", "eval_tasks")
"""The settings that draw a run's training and held-out instances."""


def same_draw(cfg: TrainConfig, out: Path, drawn: dict[str, list[str]]) -> None:
    """Refuse to resume the run in `out` on other task instances than it started with (its
    demos, SFT and held-out figures are of those): nothing in `out` is changed."""
    path = out / RUN_TASKS
    if not path.is_file() or json.loads(path.read_text()) == drawn:
        return
    started = out / "config.json"
    before = TrainConfig.load(started) if started.is_file() else None
    changed = [f"--{k.replace('_', '-')} {_shown(getattr(cfg, k))} (the run's: "
               f"{_shown(getattr(before, k))})" for k in DRAW
               if before is not None and getattr(cfg, k) != getattr(before, k)]
    raise TrainError(f"--resume: {out} was started on other task instances than these "
                     f"settings draw ({'; '.join(changed) or 'the apps changed since'}): "
                     f"resume it with its own settings ({started}), or train into another --out")


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value)) or "none"
    return str(value)


DEMOS = "demos.json.gz"
"""A run's SFT examples with what they were made from: `{"made_of": ..., "examples": [...]}`."""


def sft_examples(cfg: TrainConfig, specs: Sequence[Any], tasks: Sequence[Any], out: Path
                 ) -> list[dict[str, Any]]:
    """The run's SFT examples: verified demos of `tasks` and `cfg.traces`' steps. Planned
    once and kept in `out/DEMOS`; a resumed run made of the same reads them back."""
    from rl import data

    made_of = {"tasks": [t.id for t in tasks], "traces": cfg.traces, "format": cfg.format,
               **{k: getattr(cfg, k) for k in ("history", "reason", "alone", "task_last",
                                               "anchored")}}
    path = out / DEMOS
    if cfg.resume and path.is_file():
        kept = json.loads(gzip.decompress(path.read_bytes()))
        if kept.get("made_of") == made_of:
            say(f"{len(kept['examples'])} SFT examples, as planned before ({path})")
            return kept["examples"]
    say(f"demos for {len(tasks)} task instances ...")
    examples = data.demo_examples(specs, tasks, cfg.format, cfg.history, cfg.reason,
                                  workers=cfg.demo_workers, alone=cfg.alone,
                                  task_last=cfg.task_last, anchored=cfg.anchored)
    examples += data.trace_examples(cfg.traces, cfg.format, cfg.history, cfg.reason,
                                    cfg.task_last)
    path.write_bytes(gzip.compress(json.dumps({"made_of": made_of, "examples": examples})
                                   .encode(), compresslevel=1, mtime=0))
    say(f"{len(examples)} SFT examples")
    return examples


def train(cfg: TrainConfig, *, devices: list[Any] | None = None,
          judge: Any = None, hold_out: int | None = None) -> dict[str, Any]:
    """Run SFT then RL as `cfg` says; returns the final folder and the figures.

    `devices` overrides `cfg.device` with ready backends (a device double in tests);
    `judge(task, target)` decides device episodes instead of the screen predicates.
    `hold_out` instances (default: `cfg.eval_tasks`) are kept out of training
    (`data.split`); the evaluations play `cfg.eval_tasks` of them before training, after
    SFT, every `cfg.eval_every` RL iterations and at the end (`curve.json`, `curve.png`),
    and `cfg.eval_tasks` instances of each app of `cfg.holdout_apps`, which training
    never sees, at the end.
    """
    from rl import data
    from rl.evaluate import HeldOut

    sft_ranks(cfg)
    if devices is None:
        check_sources(cfg)
        if cfg.rl_steps > 0 and cfg.mix < 1.0:  # connect now: a wrong serial fails at once
            from rl.online import device_tasks
            from rl.rollout import device_backends

            devices = device_backends(cfg.device, device_tasks(cfg.predicates), judge)

    every = data.load_specs(cfg.apps)
    specs = [s for s in every if s.name not in cfg.holdout_apps]
    unknown = sorted(set(cfg.holdout_apps) - {s.name for s in every})
    if unknown or not specs:
        raise TrainError(f"--holdout-apps {' '.join(cfg.holdout_apps)}: "
                         + (f"no app {', '.join(unknown)} in --apps (there: "
                            f"{', '.join(s.name for s in every)})" if unknown else
                            "leaves no app to train on"))
    out = run_folder(cfg)
    phases = Phases()
    with phases("tasks"):
        tasks, held = data.split(specs, cfg.tasks, max(cfg.eval_tasks, hold_out or 0),
                                 cfg.seed, cfg.kinds)
    drawn = {"train": [t.id for t in tasks], "held_out": [t.id for t in held]}
    if cfg.resume:
        same_draw(cfg, out, drawn)
    (out / "config.json").write_text(cfg.to_json())
    (out / RUN_TASKS).write_text(json.dumps(drawn, indent=1))
    held_out = HeldOut(cfg, specs, held[:cfg.eval_tasks], out / "curve.json")
    examples = []
    sft_done = cfg.resume and (out / "sft" / "final" / "config.json").is_file()
    if (cfg.sft_steps > 0 or cfg.model is None) and not sft_done:
        with phases("demos"):
            examples = sft_examples(cfg, specs, tasks, out)
    base = Path(cfg.model) if cfg.model else out / "base"
    if cfg.model is None and not (base / "config.json").is_file():
        from rl.model import build_tiny

        with phases("sft"):
            build_tiny(data.corpus(specs, examples), base, size=cfg.tiny_size, seed=cfg.seed)
    with phases("eval"):
        held_out.stage("before", base)
    start, losses = base, []
    if cfg.sft_steps > 0:
        from rl.sft import train_sft

        rows = examples
        with phases("sft"):
            if cfg.rename > 0 and examples:  # fresh renamings, each seen a few times
                from rl.augment import MAX_PASSES, name_pool, renamed_epochs

                passes = min(MAX_PASSES, -(-cfg.sft_steps * cfg.sft_batch // len(examples)))
                rows = renamed_epochs(examples, name_pool(specs), copies=passes,
                                      p=cfg.rename, seed=cfg.seed)
            start, losses = train_sft(base, rows, out / "sft", steps=cfg.sft_steps,
                                      lr=cfg.sft_lr, batch=cfg.sft_batch,
                                      weight_decay=cfg.sft_weight_decay,
                                      prompt_weight=cfg.sft_prompt_loss,
                                      max_length=cfg.max_length, seed=cfg.seed,
                                      cut_tokens=cfg.cut_tokens,
                                      processes=cfg.sft_processes, threads=cfg.threads,
                                      save_steps=max(20 * cfg.save_every,
                                                     cfg.sft_steps // 10),
                                      resume=cfg.resume)
        with phases("eval"):
            held_out.stage("sft", start)
    result: dict[str, Any] = {"sft_losses": losses, "sft_model": str(start)}
    final = start
    if cfg.rl_steps > 0:
        from rl.online import train_rl

        with phases("rl"):  # the probe and --eval-every evaluations included
            final, log = train_rl(cfg, start, specs, tasks, devices=devices, judge=judge,
                                  probe=held_out.probe)
        result["rl_log"] = log
    dest = out / "final"
    if final != dest:
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(final, dest)
    result["final"] = str(dest)
    with phases("eval"):
        _last_evals(cfg, held_out, every, dest, out, result)
    result.update(phases.report())
    (out / RUN_RESULT).write_text(json.dumps(result, indent=1, sort_keys=True))
    return result


def _last_evals(cfg: TrainConfig, held_out: Any, every: Sequence[Any], dest: Path, out: Path,
                result: dict[str, Any]) -> None:
    """The final model's held-out success (`eval.json`, `eval.png`), on the apps left out
    (`cfg.holdout_apps`), and the run's curve (`curve.png`), into `result`."""
    from rl import data
    from rl.evaluate import HeldOut

    if cfg.eval_tasks > 0:
        from rl.report import plot_rates

        stage = f"rl {cfg.rl_steps}" if cfg.rl_steps > 0 else ("sft" if cfg.sft_steps > 0
                                                                 else "before")
        result["eval"] = held_out.stage(stage, dest, again=True)
        (out / "eval.json").write_text(json.dumps(result["eval"], indent=1, sort_keys=True))
        plot_rates(result["eval"], out / "eval.png")
        result["eval_apps"] = {}
        for name in cfg.holdout_apps:
            app = [s for s in every if s.name == name]
            result["eval_apps"][name] = HeldOut(cfg, app, data.sample(app, cfg.eval_tasks,
                                                                    cfg.seed)).rates(dest)
        log = out / "rl" / "log.jsonl"  # every iteration's, a resumed run's too
        held_out.plot(out / "curve.png", [json.loads(x) for x in log.read_text().splitlines()]
                      if log.is_file() else [])
        result["curve"] = str(out / "curve.png")
