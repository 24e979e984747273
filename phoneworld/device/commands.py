"""`phoneworld record`: record a session on a phone in phoneworld's own trace format.

    phoneworld record --serial emulator-5554 -o traces/shop/ --app com.example.shop \
        --name add_milk --instruction "Add milk to the cart"           # a prompt
    phoneworld record -o traces/shop/ --script actions.jsonl           # scripted
    phoneworld record -o traces/shop/ --agent my_agent:act             # an agent
    phoneworld record -o traces/shop/ --touches                        # your own touches

Wired into the CLI by `register(subparsers)`. With no adb or no device it fails within
seconds with one message, and stops any adb server it started.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from phoneworld.argtypes import count, seconds


def register(subparsers: Any) -> None:
    """Add `record` to the CLI's subcommands."""
    p = subparsers.add_parser(
        "record", help="record a session on a phone as a phoneworld trace",
        description="Record a session on an Android phone or emulator (adb) into "
                    "OUT/NAME/ in phoneworld's trace format; `phoneworld compile OUT` "
                    "turns the sessions into an app.")
    p.add_argument("--serial", help="the device (default: the only one adb lists)")
    p.add_argument("-o", "--out", required=True,
                   help="the app's trace folder; the session is written to OUT/NAME/")
    p.add_argument("--name", help="the session's folder (default: session-<date>-<time>)")
    p.add_argument("--app", help="the app's package: started first and named in the trace")
    p.add_argument("--activity", help="the activity to start (default: the launcher's)")
    p.add_argument("--restart", action="store_true", help="stop the app before starting it")
    p.add_argument("--instruction", help="what the session does, kept in the trace")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--script", help="actions to issue: one per line (JSON, a tool call or "
                                      "model text) or a JSON list")
    src.add_argument("--agent", metavar="MODULE:FUNCTION",
                     help="a function(observation, instruction) -> action to record")
    src.add_argument("--touches", action="store_true",
                     help="record your own touches on the phone (adb shell getevent)")
    p.add_argument("--max-steps", type=count(1), default=50,
                   help="stop after this many steps")
    p.add_argument("--screenshots", action="store_true", help="keep a PNG of every screen")
    p.add_argument("--timeout", type=seconds, default=10.0,
                   help="seconds to wait for a still screen after each action")
    p.add_argument("--force", action="store_true", help="replace an existing session folder")
    p.set_defaults(func=_cmd_record)


def _cmd_record(args: argparse.Namespace) -> int:
    import time
    from pathlib import Path

    from phoneworld.errors import PhoneworldError

    name = args.name or time.strftime("session-%Y%m%d-%H%M%S")
    folder = Path(args.out) / name
    if folder.exists() and not args.force:
        raise PhoneworldError(f"{folder} exists: choose another --name, or --force")
    agent = _load_agent(args.agent) if args.agent else None

    from phoneworld.device.adb import AdbDevice
    from phoneworld.device.recorder import record_session, script_actions
    from phoneworld.device.stable import Polling

    device = AdbDevice.connect(args.serial)
    try:
        actions = None
        if args.script:
            width, height = device.window_size()
            actions = script_actions(args.script, width, height)
        trace = record_session(
            device, folder, app=args.app, activity=args.activity, restart=args.restart,
            instruction=args.instruction, actions=actions, agent=agent, touches=args.touches,
            say=_say, max_steps=args.max_steps, screenshots=args.screenshots,
            polling=Polling(timeout=args.timeout), idle_refresh=1.0)
    finally:
        device.close()
    print(f"recorded {len(trace.steps)} steps, {len(trace.observations)} screens of "
          f"{trace.app or 'the phone'} into {folder}")
    return 0


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _load_agent(spec: str) -> Any:
    import importlib

    from phoneworld.errors import PhoneworldError

    module, _, func = spec.partition(":")
    if not module or not func:
        raise PhoneworldError(f"--agent {spec!r}: write MODULE:FUNCTION (my_agent:act)")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        fn = getattr(importlib.import_module(module), func)
    except (ImportError, AttributeError) as err:
        raise PhoneworldError(f"--agent {spec!r}: {err}") from err
    if not callable(fn):
        raise PhoneworldError(f"--agent {spec!r} is not a function")
    return fn
