"""`train(cfg)`: the whole run — model, SFT on demos and traces, then online RL.

    runs/NAME/config.json        the config the run started with
    runs/NAME/tasks.json         the ids of its training and held-out task instances
                                 (`phoneworld eval` leaves the training ones out)
    runs/NAME/base/              the model it started from (built when --model is not given)
    runs/NAME/sft/               SFT checkpoints; sft/final is the SFT model (RL's start)
    runs/NAME/rl/state/          the RL checkpoint: policy, optimizer, scheduler, iteration
    runs/NAME/rl/log.jsonl       one line per RL iteration: success per source, valid rate
    runs/NAME/final/             the trained policy (a plain HF model folder)
    runs/NAME/eval.json, .png    its success on held-out task instances (--eval-tasks)

`--resume` continues from whatever is there: a finished stage is skipped, SFT resumes
from its latest checkpoint, RL from its state after the last saved iteration.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from phoneworld.errors import PhoneworldError
from rl.config import RUN_RESULT, RUN_TASKS, TrainConfig
from rl.report import bar as progress
from rl.report import say


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


def device_tasks(path: str | None) -> list[Any]:
    """`ScreenTask`s from a JSON file of {id, instruction, app, predicate} objects."""
    if not path:
        return []
    from phoneworld.device.predicates import ScreenTask

    rows = json.loads(Path(path).read_text())
    return [ScreenTask(str(r["id"]), r["instruction"], r["predicate"],
                       tuple([r["app"]] if r.get("app") else [])) for r in rows]


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


def train(cfg: TrainConfig, *, devices: list[Any] | None = None,
          judge: Any = None, hold_out: int | None = None) -> dict[str, Any]:
    """Run SFT then RL as `cfg` says; returns the final folder and the figures.

    `devices` overrides `cfg.device` with ready backends (a device double in tests);
    `judge(task, target)` decides device episodes instead of the screen predicates.
    `hold_out` instances (default: `cfg.eval_tasks`) are kept out of training
    (`data.split`); the evaluation after training plays `cfg.eval_tasks` of them.
    """
    if devices is None:
        check_sources(cfg)
    from rl import data

    out = run_folder(cfg)
    (out / "config.json").write_text(cfg.to_json())
    specs = data.load_specs(cfg.apps)
    tasks, held = data.split(specs, cfg.tasks, max(cfg.eval_tasks, hold_out or 0), cfg.seed,
                             cfg.kinds)
    (out / RUN_TASKS).write_text(json.dumps({"train": [t.id for t in tasks],
                                             "held_out": [t.id for t in held]}, indent=1))
    examples = []
    clock = time.monotonic()
    seconds: dict[str, float] = {}
    if cfg.sft_steps > 0 or cfg.model is None:
        say(f"demos for {len(tasks)} task instances ...")
        examples = data.demo_examples(specs, tasks, cfg.format, cfg.history, cfg.reason,
                                      workers=cfg.demo_workers)
        examples += data.trace_examples(cfg.traces, cfg.format, cfg.history, cfg.reason)
        say(f"{len(examples)} SFT examples")
        seconds["demos"] = time.monotonic() - clock
    base = Path(cfg.model) if cfg.model else out / "base"
    if cfg.model is None and not (base / "config.json").is_file():
        from rl.model import build_tiny

        build_tiny(data.corpus(specs, examples), base, size=cfg.tiny_size, seed=cfg.seed)
    start, losses = base, []
    if cfg.sft_steps > 0:
        from rl.sft import train_sft

        start, losses = train_sft(base, examples, out / "sft", steps=cfg.sft_steps,
                                  lr=cfg.sft_lr, batch=cfg.sft_batch,
                                  weight_decay=cfg.sft_weight_decay,
                                  max_length=cfg.max_length, seed=cfg.seed,
                                  save_steps=max(20 * cfg.save_every, cfg.sft_steps // 10),
                                  resume=cfg.resume)
        seconds["sft"] = time.monotonic() - clock - sum(seconds.values())
    result: dict[str, Any] = {"sft_losses": losses, "sft_model": str(start)}
    final = start
    if cfg.rl_steps > 0:
        final, log = train_rl(cfg, start, specs, tasks, devices=devices, judge=judge)
        result["rl_log"] = log
        seconds["rl"] = time.monotonic() - clock - sum(seconds.values())
    result["seconds"] = {k: round(v, 1) for k, v in seconds.items()}
    dest = out / "final"
    if final != dest:
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(final, dest)
    result["final"] = str(dest)
    if cfg.eval_tasks > 0:
        from rl.evaluate import evaluate_tasks
        from rl.model import load_policy
        from rl.report import plot_rates

        model, tok = load_policy(dest)
        model.eval()
        result["eval"] = evaluate_tasks(model, tok, specs, held[:cfg.eval_tasks],
                                        fmt=cfg.format,
                                        k=cfg.history, max_steps=cfg.max_steps,
                                        max_new_tokens=cfg.max_new_tokens, progress=True,
                                        grounded=cfg.grounded)
        (out / "eval.json").write_text(json.dumps(result["eval"], indent=1, sort_keys=True))
        plot_rates(result["eval"], out / "eval.png")
    (out / RUN_RESULT).write_text(json.dumps(result, indent=1, sort_keys=True))
    return result


def train_rl(cfg: TrainConfig, start: Path, specs: list[Any], tasks: list[Any], *,
             devices: list[Any] | None = None,
             judge: Any = None) -> tuple[Path, list[dict[str, Any]]]:
    """The group-relative loop from the model in `start` (see `rl.grpo`)."""
    import time

    import torch
    from transformers import set_seed

    from rl.grpo import log_line, plan_groups, summarize, update
    from rl.model import load_policy
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
    if cfg.beta > 0:
        ref, _ = load_policy(start)
        ref.to(where).eval().requires_grad_(False)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.rl_lr, weight_decay=0.0)
    warm = max(1, cfg.warmup)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: min(1.0, (i + 1) / warm))
    first = 0
    log_path = rl_dir / "log.jsonl"
    if resumed:
        st = torch.load(state_dir / "trainer.pt", weights_only=False)
        opt.load_state_dict(st["optimizer"])
        sched.load_state_dict(st["scheduler"])
        first = st["iteration"] + 1
        lines = log_path.read_text().splitlines() if log_path.exists() else []
        log_path.write_text("".join(ln + "\n" for ln in lines[:first]))  # drop unsaved ones
    elif log_path.exists():
        log_path.unlink()
    settings = {"fmt": cfg.format, "k": cfg.history, "max_steps": cfg.max_steps,
                "max_new_tokens": cfg.max_new_tokens, "temperature": cfg.temperature,
                "grounded": cfg.grounded}
    pol = policy_dir(rl_dir)
    log: list[dict[str, Any]] = []
    bar = progress(range(first, cfg.rl_steps), "RL")
    for it in bar:
        t0 = time.time()
        torch.manual_seed(cfg.seed * 1_000_003 + it)
        plan = plan_groups(tasks, dev_tasks if devices else [], cfg.groups, cfg.mix,
                           cfg.seed, it)
        mock = [(t, g) for g, (t, s) in enumerate(plan.groups) if s == "mock"]
        episodes = []
        if mock:
            model.save_pretrained(pol)
            tok.save_pretrained(pol)
            parts = split(mock, max(1, cfg.workers))
            jobs = [Job(str(pol), cfg.apps, part, cfg.group, cfg.seed * 1_000_003 + it * 101 + j,
                        settings) for j, part in enumerate(parts)]
            episodes += run_groups(jobs, workers=cfg.workers, ray=cfg.ray)
        for n, (g, (t, _)) in enumerate((g, x) for g, x in enumerate(plan.groups)
                                        if x[1] == "device"):
            dev = devices[n % len(devices)]
            for _ in range(cfg.group):  # one phone: G episodes back to back
                episodes += play(model, tok, [Slot(dev, t, "device", g)], **settings)
        episodes.sort(key=lambda e: e.group)
        stats = update(model, ref, opt, sched, episodes, pad=tok.pad_token_id, beta=cfg.beta,
                       clip=cfg.clip)
        rec = {"iteration": it, **summarize(episodes), **stats,
               "groups": {"mock": plan.count("mock"), "device": plan.count("device")},
               "seconds": round(time.time() - t0, 2)}
        log.append(rec)
        log_line(log_path, rec)
        if hasattr(bar, "set_postfix"):
            bar.set_postfix(success=rec["success"], valid=round(rec["valid_rate"], 2))
        if (it + 1) % max(1, cfg.save_every) == 0 or it + 1 == cfg.rl_steps:
            _save(state_dir, model, tok, opt, sched, it)
    return state_dir, log


def _save(state_dir: Path, model: Any, tok: Any, opt: Any, sched: Any, it: int) -> None:
    import torch

    tmp = state_dir.with_name(state_dir.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    model.save_pretrained(tmp)
    tok.save_pretrained(tmp)
    torch.save({"optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
                "iteration": it}, tmp / "trainer.pt")
    if state_dir.exists():
        shutil.rmtree(state_dir)
    tmp.rename(state_dir)  # a crash mid-save leaves the previous state whole
