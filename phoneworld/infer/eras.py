"""Eras of a recording: the app before and after a step that changed its texts everywhere.

    main (Menu, Icon, Downloads) ... Language -> Afrikaans ... main (Opsies, Ikoon, Aflaaie)
      ->  the first era kept; the observations after the switch are no part of the mock

A recording that switches the app's language (or anything else that rewrites its texts
at once: the same widgets and layout, other words on every screen) shows two apps, and
a table that takes rows from both lists "Downloads" beside "Aflaaie". A real app shows
one language at a time, so the mock takes one era: the passes see only the observations
of the eras of one app, those that show the most visits of the trace (ties: the first),
where they list rows, choose layouts and read texts. Steps and transitions stay as
recorded (the widgets are the same in every era); an observation of another era is simply
one with no screen (`where`). What was left out is said, not hidden: the compile
report's `other_eras` names per trace the observations of the other eras and says in one
line where and why, and replay leaves out the steps taken on them (they are no steps of
the mock's app).

A cut between two visits of a trace is an era's end when, of the app's own screens visited
at least twice on each side, at least three, and at least two thirds of them, changed at
once: a text (digits masked, so a clock or a counter is no change) shown at two visits or
more, and at the screen's last visit before the cut, shows at none of its next two
visits (`_WINDOW`), and one shown at two visits or more after it, and at the screen's
first visit after the cut, showed at none of its two visits before. New content on one
screen, a web page that loads, a row deleted change a screen or two, not the whole app.
Each era is cut again the same way.

A switch back (English -> Afrikaans -> English) cuts three eras, two of them one app: an
era joins an earlier one (`_alike`) when, set beside it, it changed fewer than two thirds
of the screens both show (`_like`: a screen the earlier one visits twice or more; a text
of the earlier one's stable texts gone, and one never shown by it new); the English eras
together are then the app kept. An era with no screen to compare (no screen the other
visits twice) is not known to be alike: it stays apart. Each trace is cut on its own: a
trace recorded wholly in another language is kept.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict

from phoneworld.infer.facts import Facts
from phoneworld.ir.model import ObsRef
from phoneworld.ui.node import Node

_DIGITS = re.compile(r"\d+")
_MIN_SCREENS = 3
"""Screens that must change at one step for it to end an era."""
_WINDOW = 2
"""Visits of a screen on each side of a cut that a changed text must be absent from (an
era's texts may come back later: a switch back)."""


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
        groups = _alike(f, [r for r, _ in visits], eras)
        ranges = max(groups, key=lambda g: (sum(b - a for a, b in g), -g[0][0]))
        kept = {r for a, b in ranges for r, _ in visits[a:b]}
        left = {r for r, _ in visits if r not in kept}
        if left:
            other |= left
            notes[f.traces[t].source] = _note(f, t, visits, eras, ranges, left,
                                              len(groups) - 1)
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
          eras: list[tuple[int, int, int]], kept: list[tuple[int, int]],
          left: set[ObsRef], others: int) -> dict:
    """What a trace's other eras left out: the observations (their sources, in order)
    and one line that says where and why ("... 31 observations after step 164 left out:
    another era of the app (texts changed on 5 screens at once)"; "between steps 20 and
    41" for an era between two kept ones): steps count from 1, and the step named is the
    one that went from one era to the other (the texts it was taken on are the earlier
    era's, those it led to the later one's); `others`: how many apps (groups of alike
    eras) were left out."""
    inside = {i for a, b in kept for i in range(a, b)}
    gaps: list[tuple[int, int]] = []  # the runs of visits left out, [a, b)
    for i in range(len(visits)):
        if i in inside:
            continue
        if gaps and gaps[-1][1] == i:
            gaps[-1] = (gaps[-1][0], i + 1)
        else:
            gaps.append((i, i + 1))
    where, screens = [], []
    for a, b in gaps:
        if a == 0:
            where.append(f"before step {visits[b][1] + 1}")
        elif b == len(visits):
            where.append(f"after step {visits[a][1] + 1}")
        else:
            where.append(f"between steps {visits[a][1] + 1} and {visits[b][1] + 1}")
        edge = a if a > 0 else b  # the cut the left-out run begins at, or ends at
        screens.append(next(e[2] for e in eras if e[0] == edge))
    trace = f.traces[t]
    sources = [f.obs[r].source for r in sorted(left, key=lambda r: r.index)]
    many = "other eras" if others > 1 else "another era"
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
        both = [s for s, p in pos.items()
                if bisect_left(p, c) >= 2 and len(p) - bisect_left(p, c) >= 2]
        changed, moved = 0, 0
        for s in both:
            p = pos[s]
            k = bisect_left(p, c)
            last, first = p[k - 1], p[k]
            before, after = set(p[max(0, k - _WINDOW):k]), set(p[k:k + _WINDOW])
            gone = [x for x in texts[last] if bisect_left(q := seen[(s, x)], c) >= 2 and
                    not after & set(q)]
            new = [x for x in texts[first]
                   if len(q := seen[(s, x)]) - bisect_left(q, c) >= 2 and not before & set(q)]
            if gone and new:
                changed += 1
                moved += len(gone) + len(new)
        if changed >= _MIN_SCREENS and 3 * changed >= 2 * len(both) and \
                (best is None or (moved, -c) > best[:2]):
            best = (moved, -c, changed)
    return (-best[1], best[2]) if best is not None else None


def _alike(f: Facts, visits: list[ObsRef],
           eras: list[tuple[int, int, int]]) -> list[list[tuple[int, int]]]:
    """The eras grouped by the app they show, in order: an era joins the first group
    whose visits it is `_like` (English, Afrikaans, English again: two groups)."""
    groups: list[list[tuple[int, int]]] = []
    for a, b, _ in eras:
        era = visits[a:b]
        home = next((g for g in groups
                     if _like(f, [r for x, y in g for r in visits[x:y]], era)), None)
        if home is None:
            groups.append([(a, b)])
        else:
            home.append((a, b))
    return groups


def _like(f: Facts, main: list[ObsRef], era: list[ObsRef]) -> bool:
    """Whether `era` shows the app as `main` does (a switch back: English again after
    Afrikaans): of the app's screens `main` visits twice or more that `era` visits too,
    fewer than two thirds changed (a text `main` shows at two visits, and at its last,
    shown nowhere in `era`; a text at `era`'s first visit shown nowhere in `main`: `era`
    may visit a screen once); False where no screen is shown by both (nothing says they
    are alike)."""
    def shown(visits: list[ObsRef]) -> dict[str, list[set[str]]]:
        out: dict[str, list[set[str]]] = defaultdict(list)
        for r in visits:
            if not f.graph.screen(f.where[r]).foreign:
                out[f.where[r]].append(_texts(f.obs[r].root))
        return out

    before, after = shown(main), shown(era)
    both = [s for s in before if len(before[s]) >= 2 and s in after]
    changed = 0
    for s in both:
        seen: dict[str, int] = defaultdict(int)
        for texts in before[s]:
            for x in texts:
                seen[x] += 1
        later = set().union(*after[s])
        gone = [x for x in before[s][-1] if seen[x] >= 2 and x not in later]
        new = [x for x in after[s][0] if x not in seen]
        changed += bool(gone and new)
    return bool(both) and 3 * changed < 2 * len(both)


def _texts(root: Node | None) -> set[str]:
    """Every text and description an observation shows, digits masked."""
    if root is None:
        return set()
    return {_DIGITS.sub("#", t.strip()) for _, n in root.walk()
            for t in (n.text, n.content_desc) if t and t.strip()}
