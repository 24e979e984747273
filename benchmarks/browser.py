"""Screenshot latency in Debian's Chromium (through Playwright): fresh pages of a real app.

    python benchmarks/browser.py [--app generated/shopping] [--shots 15]

Renders the app's first screen as `phoneworld serve` does and screenshots it (at the
size `GET .../screenshot` gives by default), each time as a page the PNG cache has not
seen (a comment makes it new), so every shot is a real browser round trip. Prints the
median and the maximum (the first shot, which starts the browser, is left out). The
target is 40 ms a shot on an idle core. Needs the serve and browser extras and Chromium.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from phoneworld.serve.app import create_app  # noqa: E402
from phoneworld.serve.screenshots import browser_missing, chromium_path  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", default=str(ROOT / "generated" / "shopping"))
    ap.add_argument("--shots", type=int, default=15)
    args = ap.parse_args()
    chromium = chromium_path()
    missing = browser_missing(chromium)
    if missing:
        print(f"cannot run: {missing}", file=sys.stderr)
        return 1
    app = create_app(args.app, chromium=chromium)
    try:
        client = app.test_client()
        sid = client.post("/api/sessions", json={}).json["session"]
        html = client.get(f"/api/sessions/{sid}/observation?format=html").json["html"]
        shots = app.extensions["phoneworld"].shots
        times = []
        for i in range(args.shots + 1):
            t0 = time.perf_counter()
            png = shots.shot(f"{html}<!-- {i} -->", width=1080, height=2400)
            times.append(time.perf_counter() - t0)
            assert png[:4] == b"\x89PNG"
    finally:
        app.extensions["phoneworld"].close()
    fresh = times[1:]
    size = "x".join(str(int.from_bytes(png[i:i + 4], "big")) for i in (16, 20))
    print(f"screenshot ({size} PNG, fresh page): median {statistics.median(fresh) * 1e3:.1f} ms, "
          f"max {max(fresh) * 1e3:.1f} ms over {len(fresh)} shots "
          f"(first, with the browser's start: {times[0] * 1e3:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
