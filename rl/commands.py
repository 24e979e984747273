"""`phoneworld train` and `phoneworld eval`: parse arguments, make one library call.

    phoneworld train --mix 1 --out runs/demo          # SFT then RL on the example apps
    phoneworld train --mix 0.5 --device SERIAL --predicates tasks.json
    phoneworld eval --model runs/demo --apps generated --tasks 40 --json
                                           # its final model; leaves out what it trained on

`register(subparsers)` adds both to the `phoneworld` command. torch, transformers and trl
are imported only when a command runs, so `phoneworld --help` stays fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rl.config import TrainConfig, add_arguments

DEFAULT_MAX_STEPS = TrainConfig.max_steps


def register(subparsers: Any) -> None:
    """Add `train` and `eval` to an `add_subparsers()` object."""
    p = subparsers.add_parser(
        "train", help="train a phone-use policy: SFT on demos, then RL on mock apps/phones",
        description="SFT (trl) on verified demos of sampled tasks and on recorded traces "
                    "with instructions, then online RL with group-relative advantages. "
                    "--mix is the fraction of RL groups run on mock apps; the rest run "
                    "on the phones given with --device.")
    add_arguments(p)
    p.set_defaults(func=run_train)
    p = subparsers.add_parser("eval", help="success rates of a policy on task instances")
    p.add_argument("--model", required=True,
                   help="a run folder (runs/NAME: its final model) or a local model folder")
    p.add_argument("--apps", nargs="+", default=["generated"],
                   help="generated app folders (default: generated)")
    p.add_argument("--tasks", type=int, default=40, help="task instances (default 40)")
    p.add_argument("--seed", type=int, default=1, help="seed of the instances (default 1)")
    p.add_argument("--format", default=None, choices=["androidworld", "phonebuddy"],
                   help="action format the policy speaks (default: the run's, else "
                        "androidworld)")
    p.add_argument("--max-steps", type=int, default=None,
                   help=f"steps per episode (default: the run's, else {DEFAULT_MAX_STEPS})")
    p.add_argument("--plot", default=None,
                   help="PNG of the rates (default: eval.png in the model's folder)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--grounded", default=None, action=argparse.BooleanOptionalAction,
                   help="ground replies in what the agent saw: reasons, actions, "
                        "typed and noted text (rl.ground; default: as the run did, else on)")
    p.add_argument("--include-trained", action="store_true",
                   help="also play instances the model's run trained on (by default those "
                        "listed in the run's tasks.json are left out)")
    p.set_defaults(func=run_eval)


TRAIN_EXTRA = ("torch", "transformers", "tokenizers", "trl", "datasets", "accelerate",
               "matplotlib")
"""The modules of the `train` extra that `phoneworld train` and `eval` need."""


def need_train_extra(command: str) -> None:
    """Fail with one line naming the `train` extra when a module of it is missing (not a
    raw `No module named 'torch'` traceback halfway through)."""
    from importlib.util import find_spec

    from rl.train import TrainError

    missing = [m for m in TRAIN_EXTRA if find_spec(m) is None]
    if missing:
        raise TrainError(f"phoneworld {command} needs the train extra (missing: "
                         f"{', '.join(missing)}): pip install torch==2.13.0, then pip "
                         f"install 'phoneworld[train]'")


def _quiet(threads: int = 1) -> None:
    """The environment of a run, set before torch loads: its threads (`OMP_NUM_THREADS`
    wins when set), which sleep rather than spin while they wait (spinning threads make a
    busy machine several times slower), no hub, no warnings about trl's experiments."""
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, threads)))
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def run_train(args: argparse.Namespace) -> int:
    cfg = TrainConfig.from_args(args)
    from rl.train import check_sources, train

    check_sources(cfg)  # before any heavy import: a missing device fails in well under 1 s
    need_train_extra("train")
    _quiet(cfg.threads)
    if cfg.dry_run:
        from rl.dryrun import dry_run

        print(json.dumps(dry_run(cfg), sort_keys=True))
        return 0
    result = train(cfg)
    if result.get("eval"):
        from rl.report import table

        print(table(result["eval"], f"held-out success after training ({cfg.out})"))
        for app, r in result.get("eval_apps", {}).items():
            print(table(r, f"success on {app}, an app it never trained on"))
        print(f"plot: {result['curve']} (before training, after SFT, per RL iteration)")
    print(json.dumps({"final": result["final"], "sft_model": result["sft_model"],
                      "rl_iterations": len(result.get("rl_log", [])),
                      "success_rate": result.get("eval", {}).get("success_rate"),
                      "seconds": result["seconds"], "cpu_seconds": result["cpu_seconds"]}))
    return 0


def run_eval(args: argparse.Namespace) -> int:
    need_train_extra("eval")
    _quiet()

    from rl.evaluate import evaluate, model_folder, played_as, trained_on

    model = model_folder(args.model)
    kw = played_as(model)  # as the run that made it played, when there was one
    kw["fmt"] = args.format or kw["fmt"]
    kw["max_steps"] = args.max_steps or kw["max_steps"]
    kw["grounded"] = kw["grounded"] if args.grounded is None else args.grounded
    plot_to = args.plot or str(model / "eval.png")
    exclude = set() if args.include_trained else trained_on(model)
    result = evaluate(model, args.apps, args.tasks, args.seed, plot_to=plot_to,
                      progress=not args.json, exclude=exclude, **kw)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"success {result['success_rate']:.1%} over {result['episodes']} episodes "
              f"(valid actions {result['valid_rate']:.1%}); plot: {plot_to}")
        if result["left_out"]:
            print(f"  left out {result['left_out']} instances the model's run trained on")
        for key in ("per_app", "per_kind"):
            for name, r in result[key].items():
                print(f"  {key[4:]} {name}: {r['success_rate']:.1%} of {r['episodes']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m rl.commands train ...` until `phoneworld` registers these commands."""
    from phoneworld.errors import PhoneworldError

    parser = argparse.ArgumentParser(prog="phoneworld")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except PhoneworldError as err:
        print(err.show(), file=sys.stderr)
        return err.exit_code


if __name__ == "__main__":
    sys.exit(main())
