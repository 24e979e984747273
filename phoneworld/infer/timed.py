"""Timed transitions: screens that give way by themselves (a splash, an ad).

    step 3: tap on ad (obs 2, stays on ad) | step 4 starts on home (obs 3): nothing was done
      ->  on ad wait -> home x1

A recorder writes what it saw after each event and before the next one; where the next
event starts on another observation than the last one ended on, the app moved with no
event (a timer, a redirect); so did it across a recorded `wait`, and where a back key on
the first screen of the app showed a new one (back there leaves the app). A screen is
*timed* when every recorded departure from it is such a gap, always to the same screen
of the app: it is then left by waiting, and the mock's `wait` action fires `on <screen>
wait -> <next>`. A screen that is also left by an action (a feed whose tap opened
something a moment late) is not timed: one late screen in a run is no timer. Foreign
screens (the launcher, a browser) neither time out nor are the target.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence

from phoneworld.infer.facts import Facts, StepFacts
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import Transition


def departures(steps: Sequence[StepFacts], where: Mapping[ObsRef, str],
               foreign: frozenset[str] = frozenset()) -> Iterator[tuple[str, str, bool]]:
    """(screen, next screen, by itself) for each recorded move from one screen to another:
    a step that changed the screen (False), or a gap between two steps (True)."""
    prev: StepFacts | None = None
    opened: list[str] = []  # the trace's back stack, as far as its screens tell
    for sf in steps:
        if prev is None or prev.trace != sf.trace:
            opened = []
        if prev is not None and prev.trace == sf.trace and prev.after is not None \
                and prev.after != sf.before:
            src, dst = where.get(prev.after), where.get(sf.before)
            if src is not None and dst is not None and src != dst:
                yield src, dst, True
        _open(opened, where.get(sf.before), foreign)
        if sf.after is not None:
            src, dst = where.get(sf.before), where.get(sf.after)
            if src is not None and dst is not None and src != dst:
                # A recorded `wait` (phoneworld's recorder, AndroidWorld) is a gap too, and
                # so is a back key on the first screen that showed a new one: back there
                # leaves the app, so the app had moved on by itself.
                alone = sf.step.action.kind == "key" and (sf.step.action.key or "").lower() \
                    == "back" and opened == [src] and dst not in foreign
                yield src, dst, sf.step.action.kind == "wait" or alone
            _open(opened, dst, foreign)
        prev = sf


def _open(opened: list[str], screen: str | None, foreign: frozenset[str]) -> None:
    if screen is None or screen in foreign:
        opened.clear()
    elif screen in opened:
        del opened[opened.index(screen) + 1:]
    else:
        opened.append(screen)


def timed_targets(steps: Sequence[StepFacts], where: Mapping[ObsRef, str],
                  foreign: frozenset[str] = frozenset()) -> dict[str, tuple[str, int]]:
    """Timed screen -> (the screen it gives way to, how many gaps show it)."""
    gaps: dict[str, Counter] = defaultdict(Counter)
    acted: set[str] = set()
    for src, dst, gap in departures(steps, where, foreign):
        if gap:
            gaps[src][dst] += 1
        else:
            acted.add(src)
    out = {}
    for src, dsts in sorted(gaps.items()):
        if src in acted or src in foreign or len(dsts) != 1:
            continue
        ((dst, count),) = dsts.items()
        if dst not in foreign:
            out[src] = (dst, count)
    return out


def find_timed(f: Facts) -> Facts:
    """Add `on <screen> wait -> <next>` for every timed screen (see the module docstring).

        ad: left only by a gap to home (x1)  ->  on ad wait -> home x1
    """
    foreign = frozenset(s.name for s in f.graph.screens if s.foreign)
    timed = timed_targets(f.steps, f.where, foreign)
    if not timed:
        return f.with_()
    have = {(t.screen, t.action) for t in f.transitions}
    added = tuple(Transition(screen=src, widget="", action="wait", target=dst, count=count)
                  for src, (dst, count) in timed.items() if (src, "wait") not in have)
    notes = {f"{t.screen} wait": (f"left by itself for {t.target} ({t.count} times, no "
                                  "event between the observations)",) for t in added}
    return f.with_(transitions=f.transitions + added).noted(effects=notes)
