"""Online RL: the group-relative loop from the SFT model, with its checkpoint and log.

    final, log = train_rl(cfg, Path("runs/x/sft/final"), specs, tasks)

Each iteration: `rl.grpo.plan_groups` picks the groups' tasks and sources (mock apps with
probability `--mix`, else devices; tasks the policy half-solves first, `Curriculum`),
`rl.rollout` plays them (mock groups here, in worker processes or on Ray; device groups
here, G episodes back to back on one phone), `rl.grpo.update` makes one step, and a line
goes to `rl/log.jsonl` (success per source, valid rate, loss). Every `--save-every`
iterations the policy, optimizer, scheduler and curriculum are saved to `rl/state/`, from
which `--resume` plays exactly what an uninterrupted run would.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rl.config import TrainConfig
from rl.report import bar as progress


def device_tasks(path: str | None) -> list[Any]:
    """`ScreenTask`s from a JSON file of {id, instruction, app, predicate} objects."""
    if not path:
        return []
    from phoneworld.device.predicates import ScreenTask

    rows = json.loads(Path(path).read_text())
    return [ScreenTask(str(r["id"]), r["instruction"], r["predicate"],
                       tuple([r["app"]] if r.get("app") else [])) for r in rows]


def train_rl(cfg: TrainConfig, start: Path, specs: list[Any], tasks: list[Any], *,
             devices: list[Any] | None = None, judge: Any = None,
             probe: Callable[[int, Any, Any], None] | None = None
             ) -> tuple[Path, list[dict[str, Any]]]:
    """The group-relative loop from the model in `start` (see the module docstring);
    (the folder of the final policy, one log record per iteration). `probe(iteration,
    model, tok)` runs after every `cfg.eval_every`-th iteration (the held-out curve)."""
    import torch
    from transformers import set_seed

    from rl.grpo import Curriculum, log_line, plan_groups, summarize, update
    from rl.imitate import imitate
    from rl.model import load_policy
    from rl.probe import balanced
    from rl.rollout import Job, Slot, play, policy_dir, run_groups, split

    rl_dir = Path(cfg.out) / "rl"
    state_dir = rl_dir / "state"
    rl_dir.mkdir(parents=True, exist_ok=True)
    dev_tasks = device_tasks(cfg.predicates)
    if devices is None and cfg.mix < 1.0 and cfg.device:
        from rl.rollout import device_backends

        devices = device_backends(cfg.device, dev_tasks, judge)
    devices = devices or []
    if devices and not dev_tasks:
        dev_tasks = [t for d in devices for t in getattr(d, "tasks", [])]
    set_seed(cfg.seed)
    resumed = cfg.resume and (state_dir / "trainer.pt").is_file()
    model, tok = load_policy(state_dir if resumed else start)
    where = "cuda" if torch.cuda.is_available() else "cpu"  # the update runs on one device
    model.to(where)
    ref = None
    if cfg.beta > 0 and cfg.rl_loss == "group":
        ref, _ = load_policy(start)
        ref.to(where).eval().requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.rl_lr, weight_decay=0.0)
    warm = max(1, cfg.warmup) if cfg.rl_loss == "group" else 1  # imitation: constant
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: min(1.0, (i + 1) / warm))
    first = 0
    log_path = rl_dir / "log.jsonl"
    curriculum = Curriculum()
    if resumed:
        st = torch.load(state_dir / "trainer.pt", weights_only=False)
        opt.load_state_dict(st["optimizer"])
        sched.load_state_dict(st["scheduler"])
        curriculum = Curriculum(**st.get("curriculum", {}))
        first = st["iteration"] + 1
        lines = log_path.read_text().splitlines() if log_path.exists() else []
        log_path.write_text("".join(ln + "\n" for ln in lines[:first]))  # drop unsaved ones
    elif log_path.exists():
        log_path.unlink()
    settings = {"fmt": cfg.format, "k": cfg.history, "max_steps": cfg.max_steps,
                "max_new_tokens": cfg.max_new_tokens, "temperature": cfg.temperature,
                "grounded": cfg.grounded, "task_last": cfg.task_last,
                "anchored": cfg.anchored}
    pol = policy_dir(rl_dir)
    pool = _pool(cfg, tasks, rl_dir, resumed, model, tok, pol, settings, curriculum)
    weight = balanced(curriculum.weight, pool) if cfg.curriculum else None  # off: uniform
    log: list[dict[str, Any]] = []
    bar = progress(range(first, cfg.rl_steps), "RL")
    for it in bar:
        t0 = time.time()
        torch.manual_seed(cfg.seed * 1_000_003 + it)
        plan = plan_groups(pool, dev_tasks if devices else [], cfg.groups, cfg.mix,
                           cfg.seed, it, weight=weight)
        mock = [(t, g) for g, (t, s) in enumerate(plan.groups) if s == "mock"]
        episodes = []
        if mock:
            model.save_pretrained(pol)
            tok.save_pretrained(pol)
            parts = split(mock, max(1, cfg.workers))
            jobs = [Job(str(pol), cfg.apps, part, cfg.group, cfg.seed * 1_000_003 + it * 101 + j,
                        settings, cfg.alone) for j, part in enumerate(parts)]
            episodes += run_groups(jobs, workers=cfg.workers, ray=cfg.ray)
        for n, (g, (t, _)) in enumerate((g, x) for g, x in enumerate(plan.groups)
                                        if x[1] == "device"):
            dev = devices[n % len(devices)]
            for _ in range(cfg.group):  # one phone: G episodes back to back
                episodes += play(model, tok, [Slot(dev, t, "device", g)], **settings)
        episodes.sort(key=lambda e: e.group)
        curriculum.record([t for t, _ in plan.groups], episodes)
        if cfg.rl_loss == "wins":  # SFT steps on the solved episodes (rl.imitate)
            stats = imitate(model, opt, episodes, pad=tok.pad_token_id, clip=cfg.clip,
                            seed=cfg.seed * 1_000_003 + it)
        else:
            stats = update(model, ref, opt, sched, episodes, pad=tok.pad_token_id,
                           beta=cfg.beta, clip=cfg.clip, epochs=cfg.rl_epochs)
        rec = {"iteration": it, **summarize(episodes), **stats,
               "groups": {"mock": plan.count("mock"), "device": plan.count("device")},
               "seconds": round(time.time() - t0, 2)}
        log.append(rec)
        log_line(log_path, rec)
        if hasattr(bar, "set_postfix"):
            bar.set_postfix(success=rec["success"], valid=round(rec["valid_rate"], 2))
        if (it + 1) % max(1, cfg.save_every) == 0 or it + 1 == cfg.rl_steps:
            _save(state_dir, model, tok, opt, sched, it, curriculum)
        if probe is not None and cfg.eval_every > 0 and (it + 1) % cfg.eval_every == 0 \
                and it + 1 < cfg.rl_steps:  # the last one is the final evaluation
            probe(it, model, tok)
    return state_dir, log


def _pool(cfg: TrainConfig, tasks: list[Any], rl_dir: Path, resumed: bool, model: Any,
          tok: Any, pol: Path, settings: dict[str, Any], curriculum: Any) -> list[Any]:
    """The training tasks RL's mock groups come from: with `--probe N`, those of N probed
    tasks the SFT policy half-solves (`rl.probe`; a resumed run reads `rl/probe.json`)."""
    from rl import probe
    from rl.rollout import Job, run_groups, split

    path = rl_dir / "probe.json"
    if cfg.probe <= 0 or cfg.probe_samples <= 0 or not tasks or cfg.mix <= 0:
        return tasks
    if resumed:
        return probe.load(path, tasks) or tasks
    model.save_pretrained(pol)
    tok.save_pretrained(pol)

    def play(groups: list[tuple[Any, int]], size: int, seed: int) -> list[Any]:
        jobs = [Job(str(pol), cfg.apps, part, size, seed * 1_000_003 + 7 * j, settings,
                    cfg.alone) for j, part in enumerate(split(groups, max(1, cfg.workers)))]
        return run_groups(jobs, workers=cfg.workers, ray=cfg.ray)

    t0 = time.time()
    found = probe.probe(tasks, n=cfg.probe, samples=cfg.probe_samples, seed=cfg.seed,
                        play=play, least=max(1, cfg.groups))
    if cfg.curriculum:  # the measured templates start where the probe found them
        curriculum.record(found.chosen, found.episodes)
    probe.save(path, found.pool, found.success)
    from rl.report import say

    p = found.success
    half = sum(0 < v < 1 for v in p.values())
    say(f"probe: {len(p)} tasks x {cfg.probe_samples}: {sum(p.values()) / max(1, len(p)):.0%} "
        f"solved, {half} half-solved; RL draws from {len(found.pool)} "
        f"({time.time() - t0:.0f} s)")
    return found.pool


def _save(state_dir: Path, model: Any, tok: Any, opt: Any, sched: Any, it: int,
          curriculum: Any) -> None:
    import torch

    tmp = state_dir.with_name(state_dir.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    model.save_pretrained(tmp)
    tok.save_pretrained(tmp)
    torch.save({"optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                "iteration": it, "curriculum": asdict(curriculum)}, tmp / "trainer.pt")
    if state_dir.exists():
        shutil.rmtree(state_dir)
    tmp.rename(state_dir)  # a crash mid-save leaves the previous state whole
