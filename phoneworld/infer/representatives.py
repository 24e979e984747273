"""Which observation each screen's layout is drawn from: its representative.

    screen(obs 0:1, 0:5)  ->  ScreenFacts(rep=0:5, keys, names={(0, 2): "add"})
    dialog(Theme x6, Language x1; rep Language)  ->  rep: a Theme one (`by_opened_row`)

Two passes. `choose_representatives` picks, among a screen's observations, the one whose
widgets cover most of its recorded transitions, then (a dialog) the fullest, then one
listing from its top, then one a step from elsewhere arrived on, then the most typical.
Once the rows are known, `by_opened_row` makes the representative of a screen shown with
a row one of the observations of the row it was opened with most often: the preview shows
the representative's row (`param T opened K`), so its layout and its row always agree,
and are those most recordings show (activitylauncher's settings dialog, opened six times
on Theme and once on Language, is drawn as the Theme dialog, not the fuller Language one).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Sequence

from phoneworld.infer import content as C
from phoneworld.infer.facts import Facts, ScreenFacts
from phoneworld.infer.keys import resolve_key, texts_by_key, widget_keys
from phoneworld.infer.layout import Namer, interactive
from phoneworld.ir.model import AbstractScreen, ObsRef


def choose_representatives(f: Facts) -> Facts:
    """Each screen's layout comes from one observation: the one whose widgets cover most
    of the screen's recorded transitions, then, for a dialog, whose lists show the most
    items, then whose lists show items from their top, then the most typical
    (`_typicality`; ties: the earliest); its widgets get names.

        screen(obs 0:1, 0:5)  ->  ScreenFacts(rep=0:5, keys, names={(0, 2): "add"})
    """
    score = _Scoring(f)
    return f.with_(screens={s.name: score.represent(s, s.observations)
                            for s in f.graph.screens})


def by_opened_row(f: Facts) -> Facts:
    """A parameterised screen whose representative shows a row (`ctx_of`), and whose
    observations show another row more often, is represented by an observation of that
    row, chosen among them as `choose_representatives` chooses; ties: the row the
    representative already shows, else the lowest. So the screen is drawn as most of its
    recordings opened on a row show it, with their row. Observations that show none
    (a list with no group expanded, a folder dialog at its root) do not count, and a
    representative that shows none stays: it was chosen for its layout, and the runtime
    opens such a screen with the lowest row a transition admits (`runtime.opened`).

        dialog{0:3 Theme, 0:7 Theme, 0:9 Language; rep 0:9}  ->  rep 0:3 or 0:7
    """
    score: _Scoring | None = None
    out = dict(f.screens)
    for name in sorted(f.params):
        info = f.screens.get(name)
        if info is None or info.rep is None:
            continue
        own = f.ctx_of.get(info.rep)
        refs = [r for r in info.screen.observations if f.obs[r].root is not None]
        row = most_opened([c for r in refs if (c := f.ctx_of.get(r)) is not None], own)
        if own is None or row == own:
            continue
        score = score or _Scoring(f)
        out[name] = score.represent(info.screen, [r for r in refs
                                                   if f.ctx_of.get(r) == row])
    return f.with_(screens=out)


def most_opened(rows: Sequence[int], own: int | None) -> int | None:
    """The row shown most often in `rows`; ties: `own` where it is one of them, else the
    lowest; `own` where there are none."""
    seen = Counter(rows)
    if not seen:
        return own
    best = max(seen.values())
    tied = [r for r, n in seen.items() if n == best]
    return own if own in tied else min(tied)


class _Scoring:
    """What ranks a screen's observations (see `choose_representatives`), read once."""

    def __init__(self, f: Facts) -> None:
        self.f = f
        self.wanted: dict[str, set[str]] = defaultdict(set)
        for t in f.graph.transitions:
            self.wanted[t.source].add(t.widget)
        self.visits = Counter(sf.after for sf in f.steps if sf.after is not None)
        # Observations a step on their own screen led to (a form after a failed submit).
        left = {sf.after for sf in f.steps if sf.after is not None
                and f.where.get(sf.after) is not None
                and f.where.get(sf.after) == f.where.get(sf.before)}
        self.entered = {sf.after for sf in f.steps if sf.after is not None} - left

    def represent(self, s: AbstractScreen, refs: Collection[ObsRef]) -> ScreenFacts:
        """The screen's facts with its representative chosen among `refs`."""
        f, want = self.f, self.wanted[s.name]
        typical = _typicality(f, refs, self.visits)
        best, best_score, best_keys = None, (-1, -1, False, False, -1.0), {}
        for ref in refs:
            root = f.obs[ref].root
            if root is None:
                continue
            keys = widget_keys(root)
            # Then, for a dialog (a window smaller than the screen), the one whose lists
            # show the most items: a dialog that grows with the folder it lists is laid
            # out at its fullest.
            fullest = sum(len(root.at(p).children) for p, _ in C.find_lists(root)) \
                if _is_dialog(f.obs[ref]) else 0
            score = (sum(1 for w in want if resolve_key(w, keys) is not None), fullest,
                     _lists_from_start(root), ref in self.entered, typical[ref])
            if best is None or score > best_score:
                best, best_score, best_keys = ref, score, keys
        root = f.obs[best].root if best is not None else None
        named = sorted({p for k, p in best_keys.items() if k in want
                        or interactive(root.at(p))}
                       | {p for w in want if (p := resolve_key(w, best_keys)) is not None})
        namer = Namer()
        names = {p: namer.name(root.at(p)) for p in named}
        return ScreenFacts(screen=s, rep=best, root=root, keys=best_keys, names=names)


def _typicality(f: Facts, refs, visits: Counter) -> dict[ObsRef, float]:
    """How alike each observation's texts outside lists are to what the screen's visits
    showed: the mean Jaccard similarity of their texts, over the screen's observations
    weighted by how often the steps arrived on them. A screen's static texts come from
    one observation: the most typical shows the page as most visits saw it, not as one
    tap left it (an error message, a panel opened once)."""
    texts = {r: frozenset(texts_by_key(f.obs[r].root).values()) for r in refs
             if f.obs[r].root is not None}
    out: dict[ObsRef, float] = {}
    for r, mine in texts.items():
        total = weight = 0.0
        for o, theirs in texts.items():
            w = visits[o] + 1
            weight += w
            union = len(mine | theirs)
            total += w * (len(mine & theirs) / union if union else 1.0)
        out[r] = round(total / weight, 6) if weight else 0.0
    return out


def _lists_from_start(root) -> bool:
    """Whether every list of a recorded tree shows items from its top: a chat of three
    messages stacked at the bottom would place the template's first row there."""
    for path, _ in C.find_lists(root):
        node = root.at(path)
        kids = [c for c in node.children if c.visible]
        height = node.bounds[3] - node.bounds[1]
        if kids and kids[0].bounds[1] - node.bounds[1] > height // 4:
            return False
    return True


def _is_dialog(o) -> bool:
    """Whether the observation's app window is smaller than the screen on both axes."""
    b = o.root.bounds
    return 0 < b[2] - b[0] < o.width and 0 < b[3] - b[1] < o.height
