"""Typed text: what the recordings typed into each field, and what a submit keeps.

    search: type "chips" into search_input, press enter -> search_snacks (and "snacks")
      ->  content search_search_input_typed(id int, ctx int, text text)
              { (1, null, "chips") (2, null, "snacks") }
          flag search_search_input: text = ""
          on search.search_input submit -> search_snacks {
            set search_search_input = input.search_input
          }

A field's typed texts are content like any other the app showed (tasks draw what to type
from them); an enter that leaves a screen after something was typed there submits it, as
does a tap after which what was typed shows up (not a "Cancel" or a link away), and so does
typing itself where it leads on to a screen that shows what was typed (uber's place search
lists places as they are typed), as does a tap that confirms what a field holds into a
text shown afterwards (a picked time: `picked`); the state keeps what was submitted (a
query, a form's fields, a pick), so that a task can check what was entered, not only
where it ended up.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from phoneworld.infer.keys import name_in
from phoneworld.infer.layout import identifier
from phoneworld.infer.picked import recorded_picks
from phoneworld.infer.transitions import classify_step, focused_editable, touch_target
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import PICKED, TYPED, Column, Effect, Flag, Ref, Table, Transition
from phoneworld.traces.model import Trace
from phoneworld.ui.widgets import widget_ref

SUFFIX = TYPED
"""A typed-texts table is named after its field: `<screen>_<field>_typed`."""
_CANCEL = re.compile(r"^(cancel|close|back|navigate up|dismiss|no|discard|not now)$", re.I)


@dataclass(frozen=True)
class Typed:
    """The texts typed into one field, and the flag that keeps what it submitted."""

    screen: str
    field: str
    """The field's widget name."""
    texts: tuple[str, ...]
    table: str
    flag: str
    submits: tuple[tuple[str, str], ...]
    """(widget name, action) of the transitions that submit it."""
    sent: tuple[tuple[int, int, str], ...] = ()
    """(trace, step, text) of every recorded submit of it."""
    shows: tuple = ()
    """The views that showed what it held once a tap confirmed it (`picked.Shown`)."""
    picks: tuple[str, ...] = ()
    """What it held at those taps (the picked values, which tasks draw from)."""


def typed_fields(traces: Sequence[Trace], where, infos, obs, taken: set[str]) -> list[Typed]:
    """Every field something was typed into, in a fixed order; `taken` holds the table
    and flag names already used (new ones are added to it)."""
    texts: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
    submits: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    sent: dict[tuple[str, str], list[tuple[int, int, str]]] = defaultdict(list)
    for t, trace in enumerate(traces):
        pending: dict[str, dict[str, str]] = defaultdict(dict)  # screen -> field -> text
        for k, step in enumerate(trace.steps):
            a = ObsRef(trace=t, index=step.before)
            src = where.get(a)
            root = obs[a].root if src is not None else None
            if root is None:
                continue
            info = infos[src]
            if step.action.kind == "type" and step.action.text:
                target = step.action.target if step.action.target is not None else \
                    focused_editable(root)
                name = name_in(info, widget_ref(root, target).key) if target is not None else ""
                if name:
                    texts[(src, name)][step.action.text] = None
                    pending[src][name] = step.action.text
                    if _leads_on(where, obs, t, step, src):
                        # Typing alone took it on (a search that lists places as they
                        # are typed): the typing submits it.
                        submits[(src, name)].add((name, "type"))
                        sent[(src, name)].append((t, k, step.action.text))
                        pending.pop(src, None)
                continue
            if pending.get(src):
                # A field that is gone (a picker's dialog closed, its typing never taken)
                # submits nothing later.
                there = _field_names(root, info)
                pending[src] = {k: v for k, v in pending[src].items() if k in there}
            b = ObsRef(trace=t, index=step.after) if step.after is not None else None
            if b is None or where.get(b) in (None, src) or not pending.get(src):
                continue
            widget, action, _, _ = classify_step(root, step)
            name = name_in(info, widget)
            target = touch_target(root, step.action)
            if target is not None and _CANCEL.match(root.at(target).label.strip()):
                pending.pop(src, None)
                continue  # what was typed is dropped, not submitted
            after = obs[b].root
            shown = " ".join(n.text for _, n in after.walk() if n.text) if after else ""
            # An enter submits; a tap only where what was typed shows up next (a query
            # in the results' field, an address on the confirmation), not a cancel or a
            # link that leaves the form behind.
            if name and (action == "submit" or (action == "tap" and any(
                    text.strip() and text.strip() in shown for text in pending[src].values()))):
                for field, text in pending[src].items():
                    submits[(src, field)].add((name, action))
                    sent[(src, field)].append((t, k, text))
            pending.pop(src, None)
    shows: dict[tuple[str, str], set] = defaultdict(set)
    picks: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
    for p in recorded_picks(traces, where, infos, obs, _CANCEL):
        texts[(p.screen, p.field)][p.value] = None
        picks[(p.screen, p.field)][p.value] = None
        submits[(p.screen, p.field)].add((p.widget, "tap"))
        sent[(p.screen, p.field)].append((p.trace, p.step, p.value))
        shows[(p.screen, p.field)].add((p.on, p.shows))
    out = []
    for (screen, field), found in sorted(texts.items()):
        flag = typed_name(screen, field, taken)
        taken |= {flag, flag + SUFFIX, flag + PICKED + SUFFIX}
        out.append(Typed(screen, field, tuple(found), flag + SUFFIX, flag,
                         tuple(sorted(submits.get((screen, field), ()))),
                         tuple(sent.get((screen, field), ())),
                         tuple(sorted(shows.get((screen, field), ()))),
                         tuple(picks.get((screen, field), ()))))
    return out


def _field_names(root, info) -> set[str]:
    """The names of the editable views of an observation."""
    return {name_in(info, widget_ref(root, p).key) for p, n in root.walk() if n.editable}


def _leads_on(where, obs, t: int, step, src: str) -> bool:
    """Whether a typing step itself left `src` for a screen of the app that shows what was
    typed (the results of a search as it is typed), not a screen it merely went by."""
    b = ObsRef(trace=t, index=step.after) if step.after is not None else None
    if b is None or where.get(b) in (None, src) or obs[b].root is None:
        return False
    text = (step.action.text or "").strip()
    return bool(text) and any(n.text and text in n.text for _, n in obs[b].root.walk())


def typed_name(screen: str, field: str, taken: set[str] | frozenset[str]) -> str:
    """The flag of a field (its table of typed texts adds `SUFFIX`): `<screen>_<field>`,
    made unique against `taken`."""
    base = identifier(f"{screen}_{field}")
    while base in taken or base + SUFFIX in taken or base + PICKED + SUFFIX in taken:
        base += "_2"
    return base


def typed_tables(fields: list[Typed]) -> list[Table]:
    """One content table of typed texts per field, and one of its picked values where a
    tap confirmed what it held (`picked`)."""
    columns = (Column("id", "int"), Column("ctx", "int"), Column("text"))
    out = []
    for f in fields:
        out.append(Table(name=f.table, kind="content", columns=columns,
                         rows=tuple((i, None, text) for i, text in enumerate(f.texts, 1))))
        if f.picks and f.shows:
            out.append(Table(name=f.flag + PICKED + SUFFIX, kind="content", columns=columns,
                             rows=tuple((i, None, v) for i, v in enumerate(f.picks, 1))))
    return out


def submit_flags(fields: list[Typed]) -> list[Flag]:
    """A text flag per field that was submitted, empty after a reset."""
    return [Flag(name=f.flag, type="text", initial="") for f in fields if f.submits]


def with_submits(transitions: list[Transition], fields: list[Typed]) -> list[Transition]:
    """Each submitting transition keeps its screen's typed fields in their flags."""
    keeps: dict[tuple[str, str, str], list[Effect]] = defaultdict(list)
    for f in fields:
        for widget, action in f.submits:
            keeps[(f.screen, widget, action)].append(Effect(
                op="set", target=f.flag, values=((f.flag, Ref(("input", f.field))),)))
    out = []
    for t in transitions:
        more = keeps.get((t.screen, t.widget, t.action))
        out.append(replace(t, effects=(*more, *t.effects)) if more else t)
    return out
