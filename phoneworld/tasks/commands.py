"""The `tasks` and `demos` subcommands.

    phoneworld tasks generated/shopping --n 20 --seed 0 [--json]
    phoneworld demos generated --n 50 --seed 0 -o demos.jsonl [--sft phonebuddy --sft-out sft.jsonl]

PATH is one generated app or a folder of them (several apps: a phone, with cross-app
tasks). `register(subparsers)` adds both; each parses its arguments, makes one library
call and returns an exit code; the task machinery is imported only when one runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from phoneworld.argtypes import count


def register(subparsers: Any) -> None:
    """Add `tasks` and `demos` to an `add_subparsers()` object."""
    p = subparsers.add_parser(
        "tasks", help="draw task instances for generated apps",
        description="Draw task instances (state, information, navigation, composite and, "
                    "for several apps, cross-app) with a seed; the same seed gives the "
                    "same tasks.")
    _common(p)
    p.add_argument("--json", action="store_true",
                   help="one JSON object per line: id, kind, instruction, apps, template, "
                        "params, and checks (the state checks as SQL with bound values)")
    p.set_defaults(func=run_tasks)

    p = subparsers.add_parser(
        "demos", help="plan and verify expert demos, one JSON line each",
        description="Draw task instances, plan a shortest action sequence for each, "
                    "replay it on a fresh app and write it with verified: true|false.")
    _common(p)
    p.add_argument("-o", "--out", required=True, help="the JSONL file to write")
    p.add_argument("--sft", choices=("androidworld", "phonebuddy"),
                   help="also write chat-format SFT examples in this action format")
    p.add_argument("--sft-out", help="where the SFT examples go (default: OUT with .sft.jsonl)")
    p.set_defaults(func=run_demos)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="a generated app folder, or a folder of them")
    p.add_argument("--n", type=count(0, 1_000_000), default=20,
                   help="how many instances (default 20)")
    p.add_argument("--seed", type=count(0), default=0, help="the seed (default 0)")


def _specs(path: str) -> list:
    from phoneworld.apps import find_apps, load_app

    return [load_app(p).spec for p in find_apps(path)]


def run_tasks(args: argparse.Namespace) -> int:
    """Print `--n` instances drawn with `--seed`."""
    from phoneworld.tasks import sample_tasks

    specs = _specs(args.path)
    tasks = sample_tasks(specs, args.n, args.seed)
    for t in tasks:
        if args.json:
            row = t.as_dict()
            row["checks"] = t.queries(specs)  # the state checks in SQL, values bound
            print(json.dumps(row, ensure_ascii=False, sort_keys=True))
        else:
            print(f"{t.kind:<12} {t.id}\n             {t.instruction}")
    kinds = Counter(t.kind for t in tasks)
    print(f"{len(tasks)} tasks: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())),
          file=sys.stderr)
    return 0


def run_demos(args: argparse.Namespace) -> int:
    """Plan, verify and write demos of `--n` instances."""
    from phoneworld.tasks import export_sft, make_demo, sample_tasks

    specs = _specs(args.path)
    tasks = sample_tasks(specs, args.n, args.seed)
    demos, missing = [], 0
    for t in tasks:
        d = make_demo(specs, t)
        if d is None:
            missing += 1
            continue
        demos.append(d)
    _write_lines(args.out, [d.as_dict() for d in demos])
    verified = sum(d.verified for d in demos)
    print(f"{len(tasks)} tasks: {verified} verified demos, {len(demos) - verified} not "
          f"verified, {missing} without a plan; wrote {args.out}", file=sys.stderr)
    if args.sft:
        out = args.sft_out or args.out.removesuffix(".jsonl") + ".sft.jsonl"
        rows = export_sft(demos, args.sft)
        _write_lines(out, rows)
        print(f"{len(rows)} {args.sft} SFT examples in {out}", file=sys.stderr)
    return 0


def _write_lines(path: str, rows: list[dict]) -> None:
    """JSON lines, written whole or not at all (never a half-written file)."""
    from pathlib import Path

    from phoneworld.codegen.files import write_file

    data = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in rows)
    write_file(Path(path), data.encode())
