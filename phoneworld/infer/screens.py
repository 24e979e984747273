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
from phoneworld.ui.dialogs import dialog_window, top_layer
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
            layer = top_layer(obs.root)  # a dialog's own layer, not the page under it
            skel = skeleton(layer)
            tabs = selected_tabs(layer)  # once per observation, not per group it meets
            texts = content_texts(layer)
            big = bodies(layer, obs.width, obs.height)
            shows[ref] = dialog_window(obs.root, obs.width, obs.height)
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
    over. Over each run of a dialog's observations, the screen shown
    just before it (opened from) and the one just after it (closed back to) each get a
    vote, two where they are one screen (another dialog none: a popup menu that gave way
    to a dialog is not under it); the most voted is the one under it (the first
    in trace order on a tie). A recording may skip states (DroidBot: activitylauncher's
    Theme dialog follows an app page and closes back to Settings, where it opens from),
    so neither side alone says it."""
    windows: dict[str, Counter] = {}
    under: dict[str, Counter] = {}
    for t, trace in enumerate(traces):
        shown = [where.get(ObsRef(trace=t, index=i)) for i in range(len(trace.observations))]
        wins = [shows.get(ObsRef(trace=t, index=i)) if name is not None else None
                for i, name in enumerate(shown)]
        for i, name in enumerate(shown):
            if name is None or wins[i] is None:
                continue
            windows.setdefault(name, Counter())[wins[i]] += 1
            if i and shown[i - 1] == name:
                continue  # the same dialog still open: one run, one vote
            end = i
            while end + 1 < len(shown) and shown[end + 1] == name:
                end += 1
            sides = [shown[j] for j in (i - 1, end + 1)
                     if 0 <= j < len(shown) and shown[j] is not None and wins[j] is None]
            for side in sides:
                under.setdefault(name, Counter())[side] += 1
    return [s.model_copy(update={"window": windows[s.name].most_common(1)[0][0],
                                 "over": under[s.name].most_common(1)[0][0]
                                 if s.name in under else None})
            if s.name in windows else s for s in screens]


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
