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

import dataclasses
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
    """Add `on <screen> wait -> <next>` for every timed screen, and make each late tap
    open its screen (see the module docstring).

        ad: left only by a gap to home (x1)  ->  on ad wait -> home x1
    """
    foreign = frozenset(s.name for s in f.graph.screens if s.foreign)
    transitions, notes = _with_late(f, foreign)
    timed = timed_targets(f.steps, f.where, foreign)
    have = {(t.screen, t.action) for t in transitions}
    added = tuple(Transition(screen=src, widget="", action="wait", target=dst, count=count)
                  for src, (dst, count) in timed.items() if (src, "wait") not in have)
    notes.update({f"{t.screen} wait": (f"left by itself for {t.target} ({t.count} times, no "
                                       "event between the observations)",) for t in added})
    if not added and not notes:
        return f.with_()
    return f.with_(transitions=transitions + added).noted(effects=notes)


def late_targets(steps: Sequence[StepFacts], where: Mapping[ObsRef, str],
                 foreign: frozenset[str] = frozenset()) -> dict[tuple[str, str], tuple[str, int]]:
    """(screen, widget key) of each late tap -> (the screen it opened, how many times the
    next tap was credited with it); see the module docstring."""
    taps: Counter = Counter()
    moved: set[tuple[str, str]] = set()
    late: Counter = Counter()  # (screen, late widget, next widget, target)
    after_late: Counter = Counter()  # (screen, next widget): taps right after a stay
    reached: Counter = Counter()  # (screen, widget, target) by a tap of its own
    prev: StepFacts | None = None
    for sf in steps:
        src = where.get(sf.before)
        dst = where.get(sf.after) if sf.after is not None else None
        if sf.action == "tap" and src is not None:
            taps[(src, sf.widget)] += 1
            if dst is not None and dst != src:
                moved.add((src, sf.widget))
            stay_before = prev is not None and prev.trace == sf.trace and \
                prev.action == "tap" and prev.after == sf.before and \
                prev.widget != sf.widget and where.get(prev.before) == src
            if stay_before:
                after_late[(src, sf.widget)] += 1
            if dst is not None and dst != src and dst not in foreign:
                if stay_before:
                    late[(src, prev.widget, sf.widget, dst)] += 1  # type: ignore[union-attr]
                else:
                    reached[(src, sf.widget, dst)] += 1
        prev = sf
    out: dict[tuple[str, str], tuple[str, int]] = {}
    for (src, a, b, dst), n in sorted(late.items()):
        if (src, a) in moved or n < 2 or 2 * n < taps[(src, a)] or \
                reached[(src, b, dst)] or taps[(src, b)] <= after_late[(src, b)]:
            continue
        if (src, a) not in out or out[(src, a)][1] < n:
            out[(src, a)] = (dst, n)
    return out


def _with_late(f: Facts, foreign: frozenset[str]) -> tuple[tuple[Transition, ...], dict]:
    """`f`'s transitions with each late tap's `-> stay` made to open its screen."""
    late = late_targets(f.steps, f.where, foreign)
    named = {}
    for (src, key), target in late.items():
        info = f.screens.get(src)
        name = info.name_of(key) if info is not None else ""
        if name:
            named[(src, name)] = target
    out, notes = [], {}
    for t in f.transitions:
        hit = named.get((t.screen, t.widget)) if t.action == "tap" else None
        if hit is not None and t.target == "stay" and t.when is None and not t.effects and \
                t.with_param is None:
            out.append(dataclasses.replace(t, target=hit[0], count=hit[1]))
            notes[f"{t.screen}.{t.widget} tap"] = (
                f"opened {hit[0]} too late for the recorder ({hit[1]} times the next tap "
                "was credited with it)",)
        else:
            out.append(t)
    return tuple(out), notes
