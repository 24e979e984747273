"""Runtime speed on the test suite's shop app: steps per second, reset and snapshot times.

    python benchmarks/runtime.py

The script of actions cycles through taps by index and by coordinates, typing, submit,
scrolling, back, a switch and add-to-cart, so effects, navigation and list rendering
all take part. Three loops: outcomes dropped (rendering stays lazy), outcomes held the
way an RL loop holds them, and the element list read after every step (a text agent).
The machine keeps the screens it renders (`phoneworld.runtime.cache`), so these loops
mostly meet screens rendered before; the last lines make every step render afresh.
The target is >= 10,000 steps/s in-process and a reset under 1 ms. Single process.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from phoneworld.runtime import Machine  # noqa: E402
from tests.shop import shop_spec  # noqa: E402

SCRIPT = [
    {"action_type": "click", "index": 6},                     # a product row -> detail
    {"action_type": "click", "x": 300, "y": 560},             # add to cart
    {"action_type": "navigate_back"},                         # back transition, pop
    {"action_type": "scroll", "direction": "down"},
    {"action_type": "click", "x": 500, "y": 1000},            # a row further down
    {"action_type": "navigate_back"},
    {"action_type": "scroll", "direction": "up"},
    {"action_type": "input_text", "text": "oat milk", "index": 3},
    {"action_type": "keyboard_enter"},                        # -> results
    {"action_type": "navigate_back"},
    {"action_type": "click", "x": 970, "y": 100},             # settings
    {"action_type": "click", "x": 500, "y": 250},             # toggle the switch
    {"action_type": "navigate_back"},
    {"action_type": "click", "x": 500, "y": 100},             # a label: nothing happens
    {"action_type": "wait"},
]


def _rate(fn, min_seconds: float = 1.0) -> tuple[float, int]:
    """Call fn until min_seconds have passed; (seconds per call, calls)."""
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls, calls


def main() -> int:
    spec = shop_spec()
    m = Machine(spec)
    m.reset()
    n = len(SCRIPT)

    def dropped() -> None:
        for a in SCRIPT:
            m.step(a)
        m.reset()

    def held() -> None:
        out = None
        for a in SCRIPT:
            out = m.step(a)
        del out
        m.reset()

    def agent() -> None:
        for a in SCRIPT:
            m.step(a).elements  # noqa: B018
        m.reset()

    for name, fn in (("outcomes dropped", dropped), ("outcomes held", held),
                     ("elements read", agent)):
        per, _ = _rate(fn)
        print(f"steps/s, {name:17s} {n / per:10,.0f}   (a reset every {n} steps)")

    for a in SCRIPT[:3]:
        m.step(a)
    per, _ = _rate(m.reset, 0.5)
    print(f"reset                         {per * 1e3:10.4f} ms")
    snap = m.snapshot()
    per, _ = _rate(m.snapshot, 0.5)
    print(f"snapshot                      {per * 1e3:10.4f} ms")
    per, _ = _rate(lambda: m.restore(snap), 0.5)
    print(f"restore                       {per * 1e3:10.4f} ms")
    answers = itertools.count()
    for fmt in ("elements", "node", "xml", "html"):
        def render(fmt: str = fmt) -> None:
            # A new answer each time: a screen never seen, rendered afresh.
            m.step({"action_type": "answer", "text": str(next(answers))})
            m.observe(fmt)
        per, _ = _rate(render, 0.5)
        print(f"step + observe({fmt + ')':10s}     {per * 1e3:10.4f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
