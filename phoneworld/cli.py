"""The `phoneworld` command: each subcommand parses its arguments, makes one library call,
and returns an exit code. Heavy imports live inside the command that needs them."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from phoneworld import __version__
from phoneworld.errors import PhoneworldError

Command = Callable[[argparse.Namespace], int]
COMMANDS = "phoneworld.commands"
"""The entry-point group of commands other packages add (`register(subparsers)`)."""


def _cmd_inspect(args: argparse.Namespace) -> int:
    from phoneworld.traces import read_traces
    from phoneworld.traces.report import format_table, summarize

    skipped: list[str] = []
    rows = [summarize(t) for t in read_traces(args.path, skipped)]
    for note in skipped:
        print(f"warning: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps({"traces": rows}, ensure_ascii=False, indent=None))
    else:
        print(format_table(rows))
    return 0


def _cmd_compile(args: argparse.Namespace) -> int:
    from pathlib import Path

    from phoneworld.compiler import compile_traces, format_summary

    def progress(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    def warn(msg: str) -> None:
        print(f"warning: {msg}", file=sys.stderr, flush=True)

    apps = compile_traces(Path(args.path), Path(args.out),
                          specs=Path(args.specs) if args.specs else None, progress=progress,
                          warn=warn)
    print(format_summary(apps, Path(args.out)))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from phoneworld.spec.check import load

    spec = load(args.spec)
    print(f"{args.spec}: ok — app {spec.name} ({spec.package}), {len(spec.screens)} screens, "
          f"{len(spec.transitions)} transitions, {len(spec.tables)} tables, "
          f"{len(spec.flags)} flags, {len(spec.tasks)} tasks")
    return 0


def _cmd_build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from phoneworld.build import build_app
    from phoneworld.codegen.files import check_app_folder, clean_leftovers, write_tree
    from phoneworld.spec.check import load

    check_app_folder(Path(args.out), [Path(args.spec)])
    clean_leftovers(Path(args.out).parent)  # of killed runs
    spec = load(args.spec)
    out = Path(args.out)
    files = build_app(spec, previous=out)
    write_tree(out, files, inputs=[Path(args.spec)])
    print(f"built {spec.name} into {args.out} ({len(files)} files)")
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from phoneworld.apps import find_apps, load_app
    from phoneworld.replay import format_replay, replay
    from phoneworld.traces import read_traces

    traces = read_traces(args.traces)
    results = [replay(traces, load_app(p)) for p in find_apps(args.app)]
    result = results[0] if len(results) == 1 else _merge_replays(results)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, sort_keys=True))
    else:
        print(format_replay(result))
    return 0


def _merge_replays(results: list[dict]) -> dict:
    steps = sum(r["steps"] for r in results)
    reproduced = sum(r["reproduced"] for r in results)
    return {
        "steps": steps, "reproduced": reproduced,
        "skipped": sum(r["skipped"] for r in results),
        "other_era": sum(r.get("other_era", 0) for r in results),
        "fidelity": round(reproduced / steps, 4) if steps else None,
        "screen_similarity": _weighted(results, "screen_similarity"),
        "text_recall": _weighted(results, "text_recall"),
        "apps": results,
        "traces": [row for r in results for row in r["traces"]],
    }


def _weighted(results: list[dict], key: str) -> float | None:
    """The mean of the apps' `key`, each weighted by its steps."""
    got = [(r[key], r["steps"]) for r in results if r.get(key) is not None]
    return round(sum(v * n for v, n in got) / max(1, sum(n for _, n in got)), 4) \
        if got else None


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

    p = sub.add_parser("compile", help="compile traces into runnable mock apps")
    p.add_argument("path", help="a folder of traces (one sub-folder per app) or one trace")
    p.add_argument("-o", "--out", required=True, help="where the generated apps go")
    p.add_argument("--specs", help="also write each app's spec as SPECS/<app>.pw")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=_cmd_compile)

    p = sub.add_parser("check", help="validate a .pw spec")
    p.add_argument("spec")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("build", help="build a generated app from a (hand-edited) .pw spec")
    p.add_argument("spec")
    p.add_argument("-o", "--out", required=True, help="the app folder to write")
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("replay", help="replay recorded traces on a generated app (fidelity)")
    p.add_argument("traces", help="the traces to replay")
    p.add_argument("app", help="a generated app folder, or a folder of them")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_replay)

    # Commands of the other stages register themselves (their modules import only argparse).
    from phoneworld.serve.commands import register as register_serve

    register_serve(sub)
    from phoneworld.tasks.commands import register as register_tasks

    register_tasks(sub)
    from phoneworld.device.commands import register as register_record

    register_record(sub)
    # Commands of other packages (the trainer's train and eval) come by entry point.
    for entry in sorted(entry_points(group=COMMANDS), key=lambda e: e.name):
        entry.load()(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Command | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        code = func(args)
        sys.stdout.flush()  # here, so that a closed pipe is met inside the `try`
        return code
    except PhoneworldError as err:
        print(err.show(), file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader left (`phoneworld inspect traces/ | head -1`): end quietly, as a
        # command killed by SIGPIPE does, and keep the exit-time flush from failing too.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
