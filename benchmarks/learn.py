"""Does the trainer learn? `phoneworld train`'s recipe on the example apps, on a CPU.

    python benchmarks/learn.py [--seeds 0 1 2] [--holdout-apps settings] [--mix 0.5] ...

For each seed, one run of `rl.train.train` with the defaults of `phoneworld train`
(flags here override them), then the figures the issue asks for:

- held-out success (instances of the training apps that no seed trains on,
  `rl.data.held_out_ids`) before training, after SFT, every `--eval-every` RL
  iterations and after RL: RL's gain over SFT is the last minus the SFT figure;
- the RL rollouts' success per iteration, mock apps and devices apart (`--mix 0.5` plays
  the device groups on a `ReplayDevice`, a recorded shopping trace standing in for a
  phone: the path `--device SERIAL` takes with a real one);
- `phoneworld eval`'s figure: 50 held-out instances of Shopping played alone (seed
  987654), the model's training instances left out;
- with `--holdout-apps`, the success on apps training never saw; with `--leave-one-out`,
  one run per app that has task instances, trained on the others and judged on it.

Prints a line per figure and one JSON line per seed, then the mean over seeds; the CPU
seconds of each run beside its wall seconds (the machine's load changes the second, not
the first). Not a test.
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
ROOT = Path(__file__).resolve().parents[1]


def device_double(tasks_file: Path) -> tuple[list, str]:
    """A `ReplayDevice` on a recorded shopping trace, and the file of its screen tasks."""
    from phoneworld.device.double import ReplayDevice
    from phoneworld.env.backends.device import DeviceBackend
    from phoneworld.traces import read_traces
    from rl.online import device_tasks

    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    tasks_file.write_text(json.dumps([
        {"id": "search", "instruction": "Open Search products.", "app": "shopping",
         "predicate": 'exists(node where text ~ "Recent searches")'},
        {"id": "snacks", "instruction": "Search for snacks.", "app": "shopping",
         "predicate": 'exists(node where text ~ "results for")'}]))
    backend = DeviceBackend(ReplayDevice(trace), package=trace.app,
                            tasks=device_tasks(str(tasks_file)))
    return [backend], str(tasks_file)


def shop_alone(model: Path, trained: set[str]) -> dict:
    """`phoneworld eval --model RUN --apps generated/shopping --tasks 50 --seed 987654`."""
    from rl.evaluate import evaluate, played_as

    return evaluate(model, [str(ROOT / "generated" / "shopping")], 50, 987654,
                    progress=False, exclude=trained, **played_as(model))


def one_run(cfg, args: argparse.Namespace) -> dict:  # noqa: ANN001
    from rl import data
    from rl.train import train

    devices = None
    if cfg.mix < 1.0:
        devices, cfg.predicates = device_double(Path(cfg.out).parent / "device_tasks.json")
    t0, c0 = time.time(), time.process_time()
    result = train(cfg, devices=devices)
    trained = set(json.loads((Path(cfg.out) / "tasks.json").read_text())["train"])
    shopping = any(s.name == "shopping" for s in data.load_specs(cfg.apps))
    empty = {"success_rate": 0.0, "episodes": 0, "per_kind": {}}
    shop = shop_alone(Path(result["final"]), trained) if shopping else empty
    sft_shop = (shop_alone(Path(result["sft_model"]), trained)
                if args.shop_after_sft and shopping else None)
    curve = json.loads((Path(cfg.out) / "curve.json").read_text())
    held = {s["stage"]: s["success_rate"] for s in curve["held_out"]}
    out = {"seed": cfg.seed, "held_out": held,
           "rl_gain": (round(held[f"rl {cfg.rl_steps}"] - held.get("sft", 0), 4)
                       if f"rl {cfg.rl_steps}" in held else 0.0),
           "per_kind": {k: v["success_rate"] for k, v in result["eval"]["per_kind"].items()},
           "shop_alone": shop["success_rate"], "shop_alone_episodes": shop["episodes"],
           "shop_alone_per_kind": {k: v["success_rate"] for k, v in shop["per_kind"].items()},
           "rollouts": [{"iteration": r["iteration"], **r["success"]} for r in curve["rl"]],
           "probe": _probe(Path(cfg.out)),
           "holdout_apps": {a: r["success_rate"] for a, r in result["eval_apps"].items()},
           "seconds": result["seconds"], "cpu_seconds": result["cpu_seconds"],
           "wall": round(time.time() - t0, 1),
           "cpu": round(time.process_time() - c0, 1), "load": os.getloadavg()[0]}
    if sft_shop is not None:
        out["shop_alone_after_sft"] = sft_shop["success_rate"]
    return out


def _probe(run: Path) -> dict:
    """What the probe before RL found: tasks probed, their mean success, half-solved."""
    path = run / "rl" / "probe.json"
    if not path.is_file():
        return {}
    p = json.loads(path.read_text())["success"]
    return {"tasks": len(p), "success": round(sum(p.values()) / max(1, len(p)), 3),
            "half_solved": sum(0 < v < 1 for v in p.values())}


def rollout_line(r: dict) -> str:
    """The RL rollouts' success per iteration, mock apps and devices apart."""
    srcs = sorted({k for x in r["rollouts"] for k in x if k != "iteration"})
    return "  ".join(f"{src}: " + " ".join(f"{x[src]:.0%}" if src in x else "-"
                                          for x in r["rollouts"]) for src in srcs)


def leave_one_out(a: argparse.Namespace, root: Path) -> int:
    """One run per app with task instances, trained on the others, judged on it."""
    from rl import data
    from rl.config import TrainConfig

    specs = data.load_specs(a.apps)
    apps = [s.name for s in specs if data.sample([s], 1, 0)]
    print(f"apps with task instances: {', '.join(apps) or 'none'} (of "
          f"{', '.join(s.name for s in specs)})", flush=True)
    found = {}
    for name in apps if len(apps) > 1 else []:
        cfg = TrainConfig.from_args(a)
        cfg.seed, cfg.out, cfg.holdout_apps = a.seeds[0], str(root / f"without-{name}"), [name]
        r = one_run(cfg, a)
        found[name] = r["holdout_apps"][name]
        print(f"left out {name}: {found[name]:.1%} (held-out instances of the others: "
              f"{r['held_out'].get(f'rl {cfg.rl_steps}', r['held_out'].get('sft', 0)):.1%})",
              flush=True)
        print(json.dumps(r, sort_keys=True), flush=True)
    print(json.dumps({"leave_one_out": found}), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    from rl.config import TrainConfig, add_arguments

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--root", default=None, help="folder for the runs (default: temporary)")
    p.add_argument("--shop-after-sft", action="store_true",
                   help="also play the Shopping-alone instances with the SFT model")
    p.add_argument("--leave-one-out", action="store_true",
                   help="instead: one run (first seed) per app of --apps that has task "
                        "instances, that app left out (--holdout-apps); its success on it")
    add_arguments(p)
    p.set_defaults(eval_tasks=60, eval_every=5)
    a = p.parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(a.threads)  # as `phoneworld train` does
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch

    torch.set_num_threads(a.threads)
    root = Path(a.root or tempfile.mkdtemp(prefix="pw-learn-"))
    root.mkdir(parents=True, exist_ok=True)
    if a.leave_one_out:
        return leave_one_out(a, root)
    runs = []
    for seed in a.seeds:
        cfg = TrainConfig.from_args(a)
        cfg.seed, cfg.out = seed, str(root / f"seed{seed}")
        r = one_run(cfg, a)
        runs.append(r)
        print(f"seed {seed}: held-out " + "  ".join(f"{k} {v:.1%}" for k, v in
                                                      r["held_out"].items()) +
              f"  | RL gain {r['rl_gain']:+.1%} | shopping alone {r['shop_alone']:.1%} of "
              f"{r['shop_alone_episodes']}" +
              "".join(f" | app {k} (never seen) {v:.1%}" for k, v in
                      r["holdout_apps"].items()) +
              f" | {r['wall']:.0f} s wall, {r['cpu']:.0f} s CPU, load {r['load']:.1f}",
              flush=True)
        print(f"seed {seed}: RL rollout success per iteration  {rollout_line(r)}"
              + (f"  (probe: {r['probe']['half_solved']} of {r['probe']['tasks']} tasks "
                 f"half-solved, mean {r['probe']['success']:.0%})" if r["probe"] else ""),
              flush=True)
        print(json.dumps(r, sort_keys=True), flush=True)
    mean = {k: round(sum(r[k] for r in runs) / len(runs), 4)
            for k in ("rl_gain", "shop_alone", "wall", "cpu")}
    print(json.dumps({"seeds": a.seeds, "mean": mean}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
