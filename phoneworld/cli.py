"""The `phoneworld` command: each subcommand parses its arguments, makes one library call,
and returns an exit code. Heavy imports live inside the command that needs them."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from phoneworld import __version__
from phoneworld.errors import PhoneworldError

Command = Callable[[argparse.Namespace], int]


def _cmd_inspect(args: argparse.Namespace) -> int:
    from phoneworld.traces import read_traces
    from phoneworld.traces.report import format_table, summarize

    rows = [summarize(t) for t in read_traces(args.path)]
    if args.json:
        print(json.dumps({"traces": rows}, ensure_ascii=False, indent=None))
    else:
        print(format_table(rows))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phoneworld",
        description="Compile recorded GUI traces of real phone apps into runnable mock apps "
                    "with checkers, and train phone-use agents on them.",
    )
    parser.add_argument("--version", action="version", version=f"phoneworld {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("inspect", help="read traces and report what they hold")
    p.add_argument("path", help="a trace folder, a dump, or a folder of traces")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_inspect)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        return func(args)
    except PhoneworldError as err:
        print(err.show(), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
