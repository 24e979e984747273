"""Write the bundled example traces: `traces/<app>/<trace>/` in phoneworld's own format.

    python tools/make_example_traces.py [--out traces]

Each example app is a small scripted model of state (`tools/example_apps/`), played by
a trace script as a user would use it; every screen is recorded as a full uiautomator
dump of a 1080x2400 phone (the app's window, a dialog window when one is up, the status
bar and the navigation bar). The output depends only on `SEED`: running this twice
writes byte-identical files. The compiler never imports these tools.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from example_apps import messages_traces, settings_traces, shopping_traces
from example_apps.recorder import Session

from phoneworld.traces import native

SEED = 20240611
APPS = {"shopping": shopping_traces, "messages": messages_traces, "settings": settings_traces}
ROOT = Path(__file__).resolve().parent.parent


def make(out: Path, apps: dict = APPS) -> list[Path]:
    """Record every trace script of `apps` into `out/<app>/<trace>/`; return the folders."""
    written = []
    for app_name, module in apps.items():
        app_dir = out / app_name
        names = set()
        for name, instruction, script in module.TRACES:
            session = Session(module.APP, name, instruction, SEED)
            script(session)
            native.write(session.trace(), app_dir / name)
            names.add(name)
            written.append(app_dir / name)
        # Traces this script no longer makes would otherwise linger.
        for old in sorted(app_dir.iterdir()):
            if old.is_dir() and old.name not in names and (old / native.MANIFEST).exists():
                shutil.rmtree(old)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "traces",
                        help="folder to write <app>/<trace>/ into (default: traces/)")
    args = parser.parse_args(argv)
    folders = make(args.out)
    print(f"wrote {len(folders)} traces under {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
