"""`phoneworld train` and `phoneworld eval`: parse arguments, make one library call.

    phoneworld train --mix 1 --out runs/demo          # SFT then RL on the example apps
    phoneworld train --mix 0.5 --device SERIAL --predicates tasks.json
    phoneworld eval --model runs/demo/final --apps generated --tasks 40 --json
                                           # leaves out what runs/demo trained on

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
    p.add_argument("--model", required=True, help="a local model folder (e.g. runs/NAME/final)")
    p.add_argument("--apps", nargs="+", default=["generated"],
                   help="generated app folders (default: generated)")
    p.add_argument("--tasks", type=int, default=40, help="task instances (default 40)")
    p.add_argument("--seed", type=int, default=1, help="seed of the instances (default 1)")
    p.add_argument("--format", default="androidworld", choices=["androidworld", "phonebuddy"],
                   help="action format the policy speaks (default androidworld)")
    p.add_argument("--max-steps", type=int, default=6, help="steps per episode (default 6)")
    p.add_argument("--plot", default=None,
                   help="PNG of the rates (default: eval.png in the model's folder)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--grounded", default=True, action=argparse.BooleanOptionalAction,
                   help="ground replies in what the agent saw: reasons, actions, "
                        "typed and noted text (rl.ground; default: on)")
    p.add_argument("--include-trained", action="store_true",
                   help="also play instances the model's run trained on (by default those "
                        "listed in the run's tasks.json are left out)")
    p.set_defaults(func=run_eval)


def _quiet() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def run_train(args: argparse.Namespace) -> int:
    cfg = TrainConfig.from_args(args)
    from rl.train import check_sources, train

    check_sources(cfg)  # before any heavy import: a missing device fails in well under 1 s
    _quiet()
    result = train(cfg)
    print(json.dumps({"final": result["final"], "sft_model": result["sft_model"],
                      "rl_iterations": len(result.get("rl_log", [])),
                      "success_rate": result.get("eval", {}).get("success_rate"),
                      "seconds": result["seconds"]}))
    return 0


def run_eval(args: argparse.Namespace) -> int:
    _quiet()
    from pathlib import Path

    from rl.evaluate import evaluate, trained_on

    plot_to = args.plot or str(Path(args.model) / "eval.png")
    exclude = set() if args.include_trained else trained_on(args.model)
    result = evaluate(args.model, args.apps, args.tasks, args.seed, fmt=args.format,
                      max_steps=args.max_steps, plot_to=plot_to, progress=not args.json,
                      grounded=args.grounded, exclude=exclude)
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
