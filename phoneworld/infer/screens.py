"""Group observations into abstract screens and rank them P0/P1/P2.

    [obs(trace 0, 0..9), obs(trace 1, 0..5)]  ->  [home{0:0,0:4,1:0}, detail{0:1,...}, ...]

Grouping: observations of one package whose activities agree (when both are known),
whose selected tabs are the same (see `selected_tabs`) and whose skeletons are similar
(`skeleton.similarity` >= `SAME_SCREEN`) share a screen. Similarity weighs the app's
chrome (paths most of an activity's distinct skeletons share: decor, toolbar, drawer
frame, bottom bar) at half, and is nil where the content under that chrome was swapped
for other content (a fragment, a tab page, a web page), so single-activity apps do not
collapse into one screen; so is it where each observation has a body of its own that the
other lacks (`ui.bodies`: a view outside the chrome covering two fifths of the screen, as
uber's "Profile Photo" page, a picture in a scroll view, against the day picker under the
same toolbar), however few views either body holds; texts, list items and system bars
are never in a skeleton, so a clock, a list's length or its scroll position split
nothing. Each observation
joins the first existing group it matches, in trace order, so the result is
deterministic.
Observations without a hierarchy (Rico's gaps, DroidBot states with no file) belong to
no screen.

Priority, from how often real usage visits a screen (PhoneWorld's rule: P0 must be
built, P1 should, P2 only if a task needs it): screens sorted by visits; those holding
the first 60% of the app's visits are P0 (the start screen is always P0), up to 90% P1,
the rest P2. Foreign screens (other packages) are always P2.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from phoneworld.infer.layout import unique
from phoneworld.ir.model import AbstractScreen, ObsRef, Priority
from phoneworld.traces.model import Observation, Trace
from phoneworld.ui.bodies import bodies, other_pages
from phoneworld.ui.dialogs import layer_and_window, top_layer
from phoneworld.ui.node import Bounds
from phoneworld.ui.skeleton import (
    SAME_SCREEN,
    chrome,
    content_texts,
    same_texts,
    selected_tabs,
    short_id,
    signature,
    similarity,
    skeleton,
)

P0_SHARE, P1_SHARE = 0.6, 0.9


class _Group:
    __slots__ = ("package", "activity", "foreign", "skel", "tabs", "texts", "bodies",
                 "dialog", "members")

    def __init__(self, obs: Observation, skel: frozenset[str], ref: ObsRef,
                 tabs: frozenset[str] = frozenset(), texts: frozenset[str] = frozenset(),
                 bodies: frozenset[str] = frozenset(), dialog: bool = False) -> None:
        self.package = obs.package
        self.activity = obs.activity
        self.foreign = obs.foreign
        self.skel = skel
        self.tabs = tabs
        self.texts = texts
        self.bodies = bodies
        self.dialog = dialog
        self.members = [ref]

    def accepts(self, obs: Observation, skel: frozenset[str], tabs: frozenset[str],
                chrome: frozenset[str] = frozenset(),
                texts: frozenset[str] = frozenset(),
                bodies: frozenset[str] = frozenset(), dialog: bool = False) -> bool:
        if obs.package != self.package or obs.foreign != self.foreign:
            return False
        if dialog != self.dialog:
            return False  # a dialog is a screen of its own, never the page under it
        if tabs != self.tabs:
            return False
        if not self.foreign and not same_texts(texts, self.texts):
            return False
        if not self.foreign and other_pages(skel, bodies, self.skel, self.bodies, chrome):
            return False  # each shows a body the other lacks: other pages in one frame
        if obs.activity and self.activity and _activity(obs.activity) != _activity(
                self.activity):
            return False
        # Other apps (a browser, a file picker) are not told apart by their content.
        return similarity(skel, self.skel, frozenset() if self.foreign else chrome) >= \
            SAME_SCREEN


def _activity(a: str) -> str:
    return a.rsplit("/", 1)[-1]


def group_observations(traces: Sequence[Trace], chrome: frozenset[str] | None = None
                       ) -> tuple[list[AbstractScreen], dict[ObsRef, str]]:
    """Abstract screens (unranked, named) and the screen of every observation; `chrome`
    is the app's (see `app_chrome`), worked out from `traces` when not given."""
    if chrome is None:
        chrome = app_chrome(traces)
    groups: list[_Group] = []
    shows: dict[ObsRef, Bounds | None] = {}  # the dialog window each observation shows
    for t, trace in enumerate(traces):
        for i, obs in enumerate(trace.observations):
            if obs.root is None:
                continue  # nothing to abstract; steps touching it are not transitions
            ref = ObsRef(trace=t, index=i)
            # a dialog's own layer, not the page under it, and its window
            layer, shows[ref] = layer_and_window(obs.root, obs.width, obs.height)
            skel = skeleton(layer)
            tabs = selected_tabs(layer)  # once per observation, not per group it meets
            texts = content_texts(layer)
            big = bodies(layer, obs.width, obs.height)
            dialog = shows[ref] is not None
            for g in groups:
                if g.accepts(obs, skel, tabs, chrome, texts, big, dialog):
                    g.members.append(ref)
                    break
            else:
                groups.append(_Group(obs, skel, ref, tabs, texts, big, dialog))
    names = _names(groups, traces)
    screens = [AbstractScreen(name=n, package=g.package, activity=g.activity,
                              foreign=g.foreign, signature=signature(g.skel),
                              observations=tuple(g.members))
               for n, g in zip(names, groups, strict=True)]
    where = {ref: s.name for s in screens for ref in s.observations}
    return _dialogs(screens, where, shows, traces), where


def _dialogs(screens: list[AbstractScreen], where: dict[ObsRef, str],
             shows: dict[ObsRef, Bounds | None], traces: Sequence[Trace]
             ) -> list[AbstractScreen]:
    """Each dialog screen with its window (the bounds most of its observations show:
    `shows`, each observation's `ui.dialogs.dialog_window`) and the screen it opens
    over. Over each run of a dialog's observations, in the order the steps went through
    them (`visited`, not the observations' order: a DroidBot state file is written once
    per state, so the file before a dialog's may be a page seen long before: qqmusic's
    下载微信 dialog, opened from the share sheet, follows the feedback form's file), the
    screen it was opened from gets two votes and the one it closed to one (a menu's item
    leads on to another page: aeondroid's overflow menu closes to Settings 70 times and
    opens over its home each time); another dialog gets none (a popup menu that gave way
    to a dialog is not under it), nor does a page of another app or activity
    (`_same_window`). The most voted is the one under it (the first in trace order on a
    tie); none where no side qualifies (wikipedia's theme sheet over its own fitting
    room's article, opened from Settings, another activity). A recording may skip states
    (DroidBot), so neither side alone says it.
    """
    windows: dict[str, Counter] = {}
    under: dict[str, Counter] = {}
    by_name = {s.name: s for s in screens}
    for ref, window in shows.items():  # (in trace order, as they were grouped)
        if window is not None and where.get(ref) is not None:
            windows.setdefault(where[ref], Counter())[window] += 1
    for t, trace in enumerate(traces):
        path = visited(trace)
        shown = [where.get(ObsRef(trace=t, index=i)) if i is not None else None
                 for i in path]
        wins = [shows.get(ObsRef(trace=t, index=i)) if name is not None else None
                for i, name in zip(path, shown, strict=True)]
        for i, name in enumerate(shown):
            if name is None or wins[i] is None:
                continue
            if i and shown[i - 1] == name:
                continue  # the same dialog still open: one run, one vote
            end = i
            while end + 1 < len(shown) and shown[end + 1] == name:
                end += 1
            for j, weight in ((i - 1, 2), (end + 1, 1)):
                side = shown[j] if 0 <= j < len(shown) else None
                if side is not None and wins[j] is None and _same_window(
                        by_name[name], by_name[side]):
                    under.setdefault(name, Counter())[side] += weight
    return [s.model_copy(update={"window": windows[s.name].most_common(1)[0][0],
                                 "over": under[s.name].most_common(1)[0][0]
                                 if s.name in under else None})
            if s.name in windows else s for s in screens]


def _same_window(dialog: AbstractScreen, page: AbstractScreen) -> bool:
    """Whether `page` can be under `dialog`: a dialog belongs to the activity that shows
    it, so the page is of its package and (where both are known) its activity; a
    dialog of another app (a permission prompt) may be over any page."""
    if dialog.foreign:
        return True
    if page.package != dialog.package:
        return False  # aeondroid's About, left by its link for the browser
    return not (page.activity and dialog.activity and
                _activity(page.activity) != _activity(dialog.activity))


def visited(trace: Trace) -> list[int | None]:
    """The observations of `trace` in the order its steps went through them (a step's
    before, then its after; None where a step does not start where the last one ended:
    no transition is known there); its observations in order where it has no steps."""
    if not trace.steps:
        return list(range(len(trace.observations)))
    path: list[int | None] = []
    for s in trace.steps:
        if not path or path[-1] != s.before:
            if path:
                path.append(None)
            path.append(s.before)
        if s.after is not None and s.after != s.before:
            path.append(s.after)
    return path


def app_chrome(traces: Sequence[Trace]) -> frozenset[str]:
    """The skeleton paths most of each activity's own observations share (see
    `skeleton.chrome`), for all the app's activities together."""
    by_activity: dict[str, list[frozenset[str]]] = {}
    for t in traces:
        for o in t.observations:
            if o.root is not None and not o.foreign:
                by_activity.setdefault(_activity(o.activity), []).append(skeleton(o.root))
    return frozenset().union(*(chrome(s) for s in by_activity.values()))


_WORD = re.compile(r"[a-z0-9]+")


def _slug(text: str, limit: int = 3) -> str:
    words = _WORD.findall(re.sub(r"([a-z])([A-Z])", r"\1_\2", text).lower())
    return "_".join(words[:limit])


def _names(groups: list[_Group], traces: Sequence[Trace]) -> list[str]:
    """Readable unique identifiers: the activity's name, else the most telling id."""
    taken: set[str] = set()
    out = []
    for g in groups:
        base = ""
        if g.foreign:
            base = _slug(g.package.rsplit(".", 1)[-1]) or "other"
            base = f"ext_{base}"
        elif g.activity:
            act = _activity(g.activity).rsplit(".", 1)[-1]
            base = _slug(re.sub(r"Activity$", "", act))
        if not base or base in taken:
            hint = _title_hint(traces, g.members[0])
            base = f"{base}_{hint}" if base and hint else (base or hint or "screen")
        base = base if base[0].isalpha() else f"s_{base}"
        out.append(unique(base, taken))
    return out


def _title_hint(traces: Sequence[Trace], ref: ObsRef) -> str:
    """A name from the first titled node (toolbar title, heading) of an observation (of
    its dialog where it shows one over a page)."""
    root = top_layer(traces[ref.trace].observations[ref.index].root)
    if root is None:
        return ""
    for _, node in root.walk():
        rid = short_id(node.resource_id)
        if node.text and ("title" in rid or node.class_name.endswith("Toolbar")):
            return _slug(node.text, 2)
    for _, node in root.walk():
        rid = short_id(node.resource_id)
        if rid and not node.text:
            continue
        if node.text and len(node.text) < 30:
            return _slug(node.text, 2)
    return ""


def rank(screens: Sequence[AbstractScreen], start: str) -> list[AbstractScreen]:
    """Give every screen its priority from its share of the app's visits."""
    own = sorted((s for s in screens if not s.foreign),
                 key=lambda s: (-len(s.observations), s.name))
    total = sum(len(s.observations) for s in own) or 1
    prio: dict[str, Priority] = {}
    covered = 0
    for s in own:
        share_before = covered / total
        prio[s.name] = "P0" if share_before < P0_SHARE else (
            "P1" if share_before < P1_SHARE else "P2")
        covered += len(s.observations)
    if start in prio:
        prio[start] = "P0"
    return [s.model_copy(update={"priority": prio.get(s.name, "P2")}) for s in screens]
