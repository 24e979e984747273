"""Does the trainer learn? The tiny default model on the example apps, on a CPU.

    python benchmarks/learn.py [--tasks 2400] [--sft-steps 10000] [--sft-batch 16] ...

Trains (SFT on verified demos of training task instances, then group-relative RL from the
SFT model) and evaluates greedy success on *held-out* task instances before training,
after SFT and after RL. The held-out instances are split off one draw with the training
ones (`rl.data.split`: every kind's share, no id in both), so they follow the training
mix of kinds. Prints the figures, the same with the training instances (how well the
demos were learnt) and one JSON line, with the seconds of each phase. Target on a CPU
within 15 minutes: >= 50% after SFT, RL no worse (measured on 2 cores: 60% / 60% in 11
minutes; seeds 1 and 2: 60% / 57% and 77% / 78%; with 7,000 steps, 42%, 38% and 37% after
SFT). Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--apps", nargs="+", default=["generated"])
    p.add_argument("--tasks", type=int, default=2400, help="training task instances")
    p.add_argument("--eval-tasks", type=int, default=60, help="held-out instances")
    p.add_argument("--seen", type=int, default=20,
                   help="training instances also played after SFT and after RL")
    p.add_argument("--sft-steps", type=int, default=10000)
    p.add_argument("--sft-batch", type=int, default=16)
    p.add_argument("--sft-lr", type=float, default=3e-3)
    p.add_argument("--sft-weight-decay", type=float, default=0.0)
    p.add_argument("--rl-steps", type=int, default=6)
    p.add_argument("--group", type=int, default=6)
    p.add_argument("--groups", type=int, default=4)
    p.add_argument("--max-steps", type=int, default=12)
    p.add_argument("--size", default="micro", choices=["micro", "tiny", "small"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reason", default=True, action=argparse.BooleanOptionalAction,
                   help="train replies as `Reason: <target>` then the action (default: on)")
    p.add_argument("--grounded", default=True, action=argparse.BooleanOptionalAction,
                   help="ground replies in what the agent saw: reasons, actions, typed "
                        "and noted text (rl.ground; default: on)")
    p.add_argument("--kinds", nargs="*", default=[],
                   help="task kinds to train and evaluate on (default: all)")
    p.add_argument("--out", default=None, help="run folder (default: a temporary one)")
    p.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                   help="torch threads (default: every core)")
    p.add_argument("--demo-workers", type=int, default=os.cpu_count() or 1,
                   help="processes that plan the demos (default: one per core)")
    a = p.parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(a.threads)

    import torch

    from rl import data
    from rl.config import TrainConfig
    from rl.evaluate import evaluate_tasks
    from rl.model import load_policy
    from rl.train import train

    torch.set_num_threads(a.threads)
    out = Path(a.out or tempfile.mkdtemp(prefix="pw-learn-"))
    t0 = time.time()
    cfg = TrainConfig(apps=a.apps, out=str(out), seed=a.seed, tasks=a.tasks,
                      sft_steps=a.sft_steps, sft_batch=a.sft_batch, sft_lr=a.sft_lr,
                      sft_weight_decay=a.sft_weight_decay,
                      rl_steps=a.rl_steps,
                      group=a.group, groups=a.groups, mix=1.0, max_steps=a.max_steps,
                      tiny_size=a.size, kinds=a.kinds, eval_tasks=0, resume=a.out is not None,
                      reason=a.reason, grounded=a.grounded, demo_workers=a.demo_workers)
    result = train(cfg, hold_out=a.eval_tasks)
    t_train = time.time() - t0
    specs = data.load_specs(a.apps)
    seen, held = data.split(specs, a.tasks, a.eval_tasks, a.seed, a.kinds)
    if not held:
        print("no held-out task instances of these kinds", flush=True)
        return 1
    figures = {}
    for name, folder in (("before", out / "base"), ("after_sft", Path(result["sft_model"])),
                         ("after_rl", Path(result["final"]))):
        model, tok = load_policy(folder)
        model.eval()
        for part, tasks in (("", held), ("seen_", seen[:a.seen] if name != "before" else [])):
            if not tasks:
                continue
            r = evaluate_tasks(model, tok, specs, tasks, max_steps=a.max_steps,
                               grounded=a.grounded)
            figures[part + name] = r
            print(f"{name:>10} {'training' if part else 'held-out'}: success "
                  f"{r['success_rate']:.1%}  valid actions {r['valid_rate']:.1%}  " +
                  "  ".join(f"{k}={v['success_rate']:.0%}" for k, v in r["per_kind"].items()),
                  flush=True)
    print(json.dumps({"held_out": len(held), "train_seconds": round(t_train, 1),
                      "total_seconds": round(time.time() - t0, 1),
                      "phase_seconds": result["seconds"],
                      "sft_loss_first_last": [result["sft_losses"][:1],
                                              result["sft_losses"][-1:]],
                      **{k: v["success_rate"] for k, v in figures.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
