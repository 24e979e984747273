"""The passes that keep the mock's state coherent (#21): cross-screen effects, numbers
derived from state, typed values and searches, as entries of `app.PASSES`.

    toggles -> "cross adds"      a tap on a product after which the cart shows it:
                                 rows created, switches that are memberships
    transitions -> "cross effects"  the insert (or count step / removal) on that tap
                -> "derived"        "Subtotal $7.47" = "$" + fixed(sum(cart, ...), 2)
                -> "typed"          what was typed into each field, what a submit keeps
    typed -> "unopened"          a screen no tap opens with a row shows no row: its
                                 lists show their rows unfiltered (one row's recording)
    layouts -> "search lists"    a results list shows the rows recorded for its query
            -> "counters"        "0 / 200" beside a field counts what is typed there

The inference itself lives in `effects`, `derived`, `play`, `typed` and `search`, whose
functions read a screen's facts as `_Info` (its representative, widget keys and names,
lists and parameter list).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from phoneworld.infer.derived import derive_texts, row_totals, seen_numbers, with_row_totals
from phoneworld.infer.effects import (
    cross_screen_adds,
    memberships,
    with_cross_adds,
    without_flags,
)
from phoneworld.infer.facts import Facts
from phoneworld.infer.picked import show_picked
from phoneworld.infer.play import states_at, steps_of
from phoneworld.infer.search import query_filters, with_queries, with_query_lists
from phoneworld.infer.typed import submit_flags, typed_fields, typed_tables, with_submits
from phoneworld.ir.model import AbstractScreen
from phoneworld.spec.ast import AppSpec, BinOp, Call, Const, Ref, Screen, View
from phoneworld.spec.emit import emit_expr
from phoneworld.spec.walk import views
from phoneworld.ui.node import Node, NodePath


@dataclass(frozen=True)
class _Info:
    """One screen's facts as the state inferences read them."""

    screen: AbstractScreen
    root: Node | None
    keys: Mapping[str, NodePath]
    names: Mapping[NodePath, str]
    lists: Mapping[str, Any]
    param_list: tuple[str, str] | None
    name_of: Callable[[str], str]
    """The name of a widget key (`facts.ScreenFacts.name_of`)."""


def _infos(f: Facts) -> dict[str, _Info]:
    return {name: _Info(screen=s.screen, root=s.root, keys=s.keys, names=s.names,
                        lists=f.lists.get(name, {}), param_list=f.params.get(name),
                        name_of=s.name_of)
            for name, s in f.screens.items()}


def find_cross_adds(f: Facts) -> Facts:
    """Taps on a screen that shows a row of its own after which a list elsewhere shows a
    new row named after it; their rows are left out of the initial state, and a switch
    whose tap also adds the row shows that row's membership instead of a flag."""
    adds = cross_screen_adds(f.traces, f.where, _infos(f), f.obs, f.row_ids, f.ctx_of,
                             set(f.toggles), f.shown)
    if not adds:
        return f.with_()
    created = dict(f.created)
    for add in adds.values():
        created[add.table] = created.get(add.table, frozenset()) | add.rows
    member = memberships(adds, {k: list(v) for k, v in f.toggles.items()})
    return f.with_(adds=adds, member=member, created=created,
                   flags=tuple(x for x in f.flags if x.name not in member))


def cross_effects(f: Facts) -> Facts:
    """The transitions of the taps found by `find_cross_adds`, with their inserts."""
    if not f.adds:
        return f.with_()
    named = {k: (k[0], f.screens[k[0]].name_of(k[1])) for k in f.adds}
    transitions = without_flags(with_cross_adds(list(f.transitions), dict(f.adds), named),
                                set(f.member))
    notes = {f"{k[0]}.{named[k][1]}": (add.source,) for k, add in f.adds.items()}
    return f.with_(transitions=tuple(transitions)).noted(effects=notes)


def derive_numbers(f: Facts) -> Facts:
    """Numbers that follow the state (a badge, "(4 items)", a subtotal), found by playing
    the traces on the inferred state, bound as the screens' texts; a row's total that is
    its unit price times its count is kept so by every effect that changes the count."""
    infos = _infos(f)
    data = AppSpec(name=f.name, package=f.graph.package, start=f.graph.start,
                   tables=f.tables, flags=f.flags, transitions=f.transitions)
    recorded = {lc.table: [dict(zip(["id", "ctx", *lc.columns], r, strict=False))
                           for r in lc.rows]
                for lists in f.lists.values() for lc in lists.values()}
    transitions = tuple(with_row_totals(list(f.transitions), row_totals(data, recorded)))
    data = dataclasses.replace(data, transitions=transitions)
    seen, numbers = seen_numbers(f.where, infos, f.obs)
    states = states_at(data, steps_of(f.traces, f.where, infos, f.obs, f.tapped, f.ctx_of))
    details = {k: dict(v) for k, v in f.details.items()}
    notes = {}
    for (sname, key), e in derive_texts(data, seen, states, numbers).items():
        details.setdefault(sname, {})[key] = e
        notes[f"{sname}: {key}"] = ("a number that follows the state: " + emit_expr(e),)
    return f.with_(transitions=transitions, details=details).noted(effects=notes)


def keep_typed(f: Facts) -> Facts:
    """What was typed into each field (content tables), what a submit keeps (text
    flags), and the searches whose results lists show the rows recorded per query."""
    infos = _infos(f)
    typed = typed_fields(f.traces, f.where, infos, f.obs,
                         {t.name for t in f.tables} | {x.name for x in f.flags})
    searched = query_filters(f.traces, f.where, infos, f.row_ids, typed)
    tables = with_queries([*f.tables, *typed_tables(typed)], searched)
    return f.with_(tables=tuple(tables), flags=f.flags + tuple(submit_flags(typed)),
                   transitions=tuple(with_submits(list(f.transitions), typed)),
                   searches=tuple(searched),
                   picked={shown: t.flag for t in typed if t.submits for shown in t.shows})


def picked_texts(f: Facts) -> Facts:
    """Texts that show what a field held when a tap confirmed it (`picked`) show its flag
    once set, what was recorded until then."""
    return f.with_(views=show_picked(f.views, dict(f.picked))) if f.picked else f.with_()


def unopened_params(f: Facts) -> Facts:
    """Screens inferred to show a row that no transition opens with one, and that show
    nothing of it but their lists, all recorded under one row: no parameter (onelist's
    Settings, entered once by a tap that landed on a list's row, then by its menu arrow:
    opened without a row, its lists showed none). Its lists show their rows."""
    opened = {t.target for t in f.transitions if t.with_param is not None}
    drop = set()
    for screen in f.params:
        if screen in opened or f.details.get(screen):
            continue
        groups = {r[1] for lc in f.lists.get(screen, {}).values() for r in lc.rows}
        if len(groups) <= 1:
            drop.add(screen)
    if not drop:
        return f.with_()
    return f.with_(params={k: v for k, v in f.params.items() if k not in drop})


_COUNTER = re.compile(r"^0(\s*/\s*\d+)$")  # the rest as recorded: "0/200" stays unspaced


def typed_counters(f: Facts) -> Facts:
    """A fixed "0 / 200" right by an empty field (qqmusic's feedback box) counts the
    characters typed there: `fixed(len(input.w), 0) + " / 200"`, so typing moves it. The field is
    the screen's one named editable view within a field's height of the counter."""
    return f.with_(views=tuple(_counted(s) for s in f.views))


def _counted(s: Screen) -> Screen:
    fields = [v for v in views(s.root) if "editable" in v.flags and v.name]
    if not fields:
        return s

    def near(field: View, v: View) -> bool:
        h = field.bounds[3] - field.bounds[1]
        return field.bounds[1] - h <= v.bounds[1] <= field.bounds[3] + h

    def swap(v: View) -> View:
        kids = tuple(swap(c) for c in v.children)
        text = v.text.value if isinstance(v.text, Const) else None
        m = _COUNTER.match(text.strip()) if isinstance(text, str) else None
        close = [x for x in fields if near(x, v)] if m else []
        if len(close) == 1:
            typed = Call("len", args=(Ref(("input", close[0].name)),))
            counted = BinOp("+", Call("fixed", args=(typed, Const(0))),
                            Const(m.group(1)))  # type: ignore[union-attr]
            return dataclasses.replace(v, text=counted, children=kids)
        return v if kids == v.children else dataclasses.replace(v, children=kids)
    return dataclasses.replace(s, root=swap(s.root))


def search_lists(f: Facts) -> Facts:
    """Results lists filtered by the submitted query (see `keep_typed`)."""
    if not f.searches:
        return f.with_()
    return f.with_(views=tuple(with_query_lists(list(f.views), list(f.searches))))
