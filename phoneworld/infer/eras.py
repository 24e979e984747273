"""Eras of a recording: the app before and after a step that changed its texts everywhere.

    main (Menu, Icon, Downloads) ... Language -> Afrikaans ... main (Opsies, Ikoon, Aflaaie)
      ->  the first era kept; the observations after the switch are no part of the mock

A recording that switches the app's language (or anything else that rewrites its texts
at once: the same widgets and layout, other words on every screen) shows two apps, and
a table that takes rows from both lists "Downloads" beside "Aflaaie". A real app shows
one language at a time, so the mock takes one era: the passes see only the observations
of the era most visits of the trace show (ties: the first), where they list rows, choose
layouts and read texts. Steps and transitions stay as recorded (the widgets are the same
in every era); an observation of another era is simply one with no screen (`where`).
What was left out is said, not hidden: the compile report's `other_eras` names per trace
the observations of the other eras and says in one line where and why, and replay leaves
out the steps taken on them (they are no steps of the mock's app).

A cut between two visits of a trace is an era's end when, of the app's own screens visited
at least twice on each side, at least three, and at least two thirds of them, changed at
once: a text (digits masked, so a clock or a counter is no change) shown at two visits or
more, and at the screen's last visit before the cut, never shows again after it, and one
shown at two visits or more after it, and at the screen's first visit after the cut,
never showed before it. New content on one screen, a web page that loads, a row deleted
change a screen or two, not the whole app. Each era is cut again the same way (a switch
back and forth: three eras, the longest kept; the two of one language are not joined).
Each trace is cut on its own: a trace recorded wholly in another language is kept.
"""

from __future__ import annotations

import re
from collections import defaultdict

from phoneworld.infer.facts import Facts
from phoneworld.ir.model import ObsRef
from phoneworld.ui.node import Node

_DIGITS = re.compile(r"\d+")
_MIN_SCREENS = 3
"""Screens that must change at one step for it to end an era."""


def main_era(f: Facts) -> Facts:
    """Observations of other eras than each trace's main one lose their screen (`where`,
    the graph's screens' observations, and the recordings the look is drawn from); a
    screen seen in no other era keeps its own. What was left out is noted per trace
    (`Provenance.eras`, the compile report's `other_eras`)."""
    other: set[ObsRef] = set()
    notes: dict[str, dict] = {}
    for t in range(len(f.traces)):
        visits = _visits(f, t)
        eras = _eras(f, [r for r, _ in visits], 0, len(visits))
        if len(eras) < 2:
            continue
        lo, hi, _ = max(eras, key=lambda e: (e[1] - e[0], -e[0]))
        kept = {r for r, _ in visits[lo:hi]}
        left = {r for r, _ in visits if r not in kept}
        if left:
            other |= left
            notes[f.traces[t].source] = _note(f, t, visits, eras, (lo, hi), left)
    if not other:
        return f.with_()
    screens = []
    for s in f.graph.screens:
        own = tuple(r for r in s.observations if r not in other)
        screens.append(s.model_copy(update={"observations": own}) if own else s)
    f = f.with_(where={r: s.name for s in screens for r in s.observations},
                graph=f.graph.model_copy(update={"screens": tuple(screens)}))
    return f.noted(screens={s.name: tuple(f"{f.traces[r.trace].source}/{f.obs[r].source}"
                                          for r in s.observations) for s in screens},
                   eras=notes)


def _note(f: Facts, t: int, visits: list[tuple[ObsRef, int]],
          eras: list[tuple[int, int, int]], kept: tuple[int, int], left: set[ObsRef]) -> dict:
    """What a trace's other eras left out: the observations (their sources, in order)
    and one line that says where and why ("... 31 observations after step 164 left out:
    another era of the app (texts changed on 5 screens at once)"): steps count from 1,
    and the step named is the one that went from one era to the other (the texts it was
    taken on are the earlier era's, those it led to the later one's)."""
    lo, hi = kept
    where, screens = [], []
    if lo > 0:
        where.append(f"before step {visits[lo][1] + 1}")
        screens.append(next(e[2] for e in eras if e[0] == lo))
    if hi < len(visits):
        where.append(f"after step {visits[hi][1] + 1}")
        screens.append(next(e[2] for e in eras if e[0] == hi))
    trace = f.traces[t]
    sources = [f.obs[r].source for r in sorted(left, key=lambda r: r.index)]
    many = "other eras" if len(eras) > 2 else "another era"
    note = (f"{trace.name}: {len(sources)} observations {' and '.join(where)} left out: "
            f"{many} of the app (texts changed on "
            f"{' and '.join(str(n) for n in screens)} screens at once)")
    return {"name": trace.name, "observations": tuple(sources), "note": note}


def _visits(f: Facts, trace: int) -> list[tuple[ObsRef, int]]:
    """The observations a trace visits, in order, each time it visits them (screens
    only), each with the index of the step that reached it (the first: the first step)."""
    out: list[tuple[ObsRef, int]] = []
    for sf in f.steps:
        if sf.trace != trace:
            continue
        if not out:
            out.append((sf.before, sf.index))
        if sf.after is not None:
            out.append((sf.after, sf.index))
    return [(r, i) for r, i in out if r in f.where]


def _eras(f: Facts, visits: list[ObsRef], lo: int, hi: int) -> list[tuple[int, int, int]]:
    """The eras of visits[lo:hi], as (start, end, screens changed at start) ranges, cut
    where `_cut` finds a cut (the first era: 0 screens changed)."""
    c = _cut(f, visits[lo:hi])
    if c is None:
        return [(lo, hi, 0)]
    first, rest = _eras(f, visits, lo, lo + c[0]), _eras(f, visits, lo + c[0], hi)
    return first + [(rest[0][0], rest[0][1], c[1]), *rest[1:]]


def _cut(f: Facts, visits: list[ObsRef]) -> tuple[int, int] | None:
    """The cut (an index into `visits`) that ends an era and how many screens changed
    there, or None; of several, the one the most texts changed at (then the first)."""
    pos: dict[str, list[int]] = defaultdict(list)  # screen -> its visits' positions
    seen: dict[tuple[str, str], list[int]] = defaultdict(list)  # (screen, text) -> positions
    texts: dict[int, set[str]] = {}
    for i, r in enumerate(visits):
        s = f.where[r]
        if f.graph.screen(s).foreign:
            continue
        pos[s].append(i)
        texts[i] = _texts(f.obs[r].root)
        for x in texts[i]:
            seen[(s, x)].append(i)
    best: tuple[int, int, int] | None = None  # (texts changed, -cut, screens changed)
    for c in range(1, len(visits)):
        both = [s for s, p in pos.items() if _count(p, c) >= 2 and len(p) - _count(p, c) >= 2]
        changed, moved = 0, 0
        for s in both:
            p = pos[s]
            last, first = p[_count(p, c) - 1], p[_count(p, c)]
            gone = [x for x in texts[last] if len(q := seen[(s, x)]) >= 2 and q[-1] < c]
            new = [x for x in texts[first] if len(q := seen[(s, x)]) >= 2 and q[0] >= c]
            if gone and new:
                changed += 1
                moved += len(gone) + len(new)
        if changed >= _MIN_SCREENS and 3 * changed >= 2 * len(both) and \
                (best is None or (moved, -c) > best[:2]):
            best = (moved, -c, changed)
    return (-best[1], best[2]) if best is not None else None


def _count(positions: list[int], c: int) -> int:
    """How many of the sorted `positions` lie before `c`."""
    n = 0
    while n < len(positions) and positions[n] < c:
        n += 1
    return n


def _texts(root: Node | None) -> set[str]:
    """Every text and description an observation shows, digits masked."""
    if root is None:
        return set()
    return {_DIGITS.sub("#", t.strip()) for _, n in root.walk()
            for t in (n.text, n.content_desc) if t and t.strip()}
