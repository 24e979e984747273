"""Effects across screens: a tap on one screen after which a row shows up in a list that
another screen shows later in the trace.

    product(Greek Yogurt): tap add_to_cart, tap add_to_cart; later the cart shows a row
    "Greek Yogurt" ... 2 that no earlier look at the cart showed
      ->  on product.add_to_cart_button tap -> stay
              when exists(cart where cart_item_name == param.product_name)
              { update cart set quantity = quantity + 1 where cart_item_name == param.product_name }
          on product.add_to_cart_button tap -> stay
              { insert cart(cart_item_name = param.product_name, quantity = 1, ...) }

A row is new when no look at its list before any such tap (in any trace) showed it, and
none earlier in the same trace; it belongs to the last tap before it, on a screen that
shows a row of its own (the parameter), whose row shares a text with the new one (the
product's name). Each column of the new row is copied from the parameter row where they
agree, with fixed words around it ("$1.49" -> "$1.49 each"); a whole number that counts
the taps is a quantity (1 at first, one more for each further tap); a switch that was
flipped makes the tap a toggle (a second one removes the row), and that switch then shows
whether the screen's row is in the list (`memberships`) instead of one flag for every
row. Rows that only exist after such a tap are not part of the initial state.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from phoneworld.infer.transitions import classify_step, touch_target
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import BinOp, Call, Compare, Const, Effect, Expr, Ref, Transition
from phoneworld.traces.model import Trace
from phoneworld.ui.widgets import widget_ref

_WORDY = re.compile(r"[^\W\d_]{2}")


@dataclass(frozen=True)
class CrossAdd:
    """A tap that adds its screen's row to a list shown elsewhere."""

    table: str
    """The list's table."""
    key: tuple[str, str]
    """(column of the list, column of the parameter row) that names the row."""
    copies: tuple[tuple[str, Expr], ...]
    """Every column of the new row and its value."""
    counter: str | None
    """The whole-number column that counts the taps, if any."""
    rows: frozenset[int]
    """Ids of the list's rows that only exist after such taps."""
    source: str
    """Where it was seen, for the compile report."""


def cross_screen_adds(traces: Sequence[Trace], where, infos, obs, row_ids, ctx_of,
                      toggled: set[tuple[str, str, str]],
                      shown: Mapping | None = None) -> dict[tuple, CrossAdd]:
    """(screen, widget, action) -> the row it adds to a list on another screen (see the
    module docstring). `toggled` holds the (screen, widget, action)s that flip a switch;
    `shown` the texts each observation's items showed (`Facts.shown`): a row seen in
    another state (a cart line whose count went up) reads as it showed then."""
    params = {name: infos[info.param_list[0]].lists[info.param_list[1]]
              for name, info in infos.items() if info.param_list is not None}
    taps = _taps(traces, where, obs, ctx_of, params)
    texts = _texts(infos, where, row_ids, shown or {})
    baseline, before = _baseline(traces, where, infos, row_ids, taps, texts)
    evidence: dict[tuple, list[_Seen]] = defaultdict(list)
    for t, trace in enumerate(traces):
        seen: dict[str, dict[tuple, None]] = defaultdict(dict)  # in the order first seen
        done: list[_Tap] = []
        refs = [ObsRef(trace=t, index=s.before) for s in trace.steps]
        if trace.steps and trace.steps[-1].after is not None:
            refs.append(ObsRef(trace=t, index=trace.steps[-1].after))
        for k, ref in enumerate(refs):
            screen = where.get(ref)
            for lkey, rids in sorted(row_ids.get(ref, {}).items()) if screen else ():
                lc = infos[screen].lists[lkey]
                for rid, values in zip(rids, texts(ref, lkey, rids), strict=True):
                    if done and values not in baseline[lc.table] and \
                            values not in seen[lc.table]:
                        earlier = [*baseline[lc.table], *seen[lc.table]]
                        hit = _owner(done, lc, rid, values, screen, earlier)
                        if hit is not None:
                            evidence[hit.tap.key].append(hit)
                    seen[lc.table][values] = None
            if (t, k) in taps:
                done.append(taps[(t, k)])
    out: dict[tuple, CrossAdd] = {}
    for key, found in sorted(evidence.items()):
        add = _effect(key, found, key in toggled, before)
        if add is not None:
            out[key] = add
    return out


@dataclass(frozen=True)
class _Tap:
    key: tuple[str, str, str]
    row: dict[str, object]
    """The screen's parameter row, by column ({} where it is not known)."""
    shown: frozenset[str]
    """The texts on the screen when it was tapped."""


@dataclass(frozen=True)
class _Seen:
    tap: _Tap
    lc: object
    rid: int
    values: tuple
    column: str
    """The list's column that names the row (a text the tapped screen showed)."""
    times: int
    """How often that tap was made on a screen showing that name, before the row was seen."""
    prior: tuple | None
    """The row of that name seen last before it (the same thing before it changed)."""


def _taps(traces, where, obs, ctx_of, params) -> dict[tuple[int, int], _Tap]:
    """(trace, step) -> the tap, for every tap that stays on a screen that shows a row of
    its own (a detail screen), not on a list item."""
    out = {}
    for t, trace in enumerate(traces):
        for k, step in enumerate(trace.steps):
            a = ObsRef(trace=t, index=step.before)
            b = ObsRef(trace=t, index=step.after) if step.after is not None else None
            src = where.get(a)
            if src not in params or step.action.kind != "tap" or b is None or \
                    where.get(b) != src:
                continue
            target = touch_target(obs[a].root, step.action)
            if target is None or widget_ref(obs[a].root, target).item is not None or \
                    not obs[a].root.at(target).clickable or obs[a].root.at(target).editable:
                continue  # a list row, a label that does nothing, or a field to type in
            plc = params[src]
            ctx = ctx_of.get(a)
            row = dict(zip(plc.columns, plc.rows[ctx - 1][2:], strict=False)) if ctx else {}
            widget, action, _, _ = classify_step(obs[a].root, step)
            shown = frozenset(n.text.strip() for _, n in obs[a].root.walk() if n.text)
            out[(t, k)] = _Tap((src, widget, action), row, shown)
    return out


def _texts(infos, where, row_ids, shown):
    """`texts(ref, list key, rids)`: each item's texts as observation `ref` showed them
    (columns that are no field of the item, a description's, from its row), else its
    row's."""
    def texts(ref, lkey, rids) -> list[tuple]:
        lc = infos[where[ref]].lists[lkey]
        said = shown.get(ref, {}).get(lkey)
        if said is None or len(said) != len(rids):
            return [tuple(lc.rows[r - 1][2:]) for r in rids]
        return [tuple(v) + tuple(lc.rows[r - 1][2 + len(v):]) for r, v in zip(rids, said,
                                                                          strict=True)]
    return texts


def _baseline(traces, where, infos, row_ids, taps, texts
              ) -> tuple[dict[str, set[tuple]], dict[str, set[int]]]:
    """Per list table: the rows seen before any candidate tap in their trace, as they
    showed then, and their ids."""
    out: dict[str, set[tuple]] = defaultdict(set)
    ids: dict[str, set[int]] = defaultdict(set)
    for t, trace in enumerate(traces):
        for k, step in enumerate(trace.steps):
            if (t, k) in taps:
                break
            ref = ObsRef(trace=t, index=step.before)
            for lkey, rids in row_ids.get(ref, {}).items():
                lc = infos[where[ref]].lists[lkey]
                out[lc.table].update(texts(ref, lkey, rids))
                ids[lc.table].update(rids)
    return out, ids


def _owner(done: list[_Tap], lc, rid: int, values: tuple, screen: str,
           earlier: list[tuple]) -> _Seen | None:
    """The last tap (on another screen) that showed a name of the new row."""
    for tap in reversed(done):
        if tap.key[0] == screen:
            continue
        for i, v in enumerate(values):
            if isinstance(v, str) and _WORDY.search(v) and v.strip() in tap.shown:
                times = sum(1 for d in done if d.key == tap.key and v.strip() in d.shown)
                prior = next((r for r in reversed(earlier) if r[i] == v), None)
                return _Seen(tap, lc, rid, values, lc.columns[i], times, prior)
    return None


def _effect(key: tuple, found: list[_Seen], toggle: bool,
            before: dict[str, set[int]]) -> CrossAdd | None:
    """The insert (and what a further tap does) that explains every new row seen; rows
    seen before any such tap (`before`, by table: one since changed by it, as one row)
    stay in the initial state."""
    lc = found[0].lc
    if any(f.lc is not lc for f in found) or len({f.column for f in found}) != 1:
        return None  # rows in several lists, or named by several columns: unclear
    name_col = found[0].column
    known = [f for f in found if f.tap.row]
    pcols = {c for f in known for c, v in f.tap.row.items()
             if v == f.values[lc.columns.index(name_col)]}
    pcol = min(pcols) if pcols else None
    if pcol is None:
        return None
    counter = None
    for i, col in enumerate(lc.columns):
        if col != name_col and all(_counts(f, i) for f in found):
            counter = col
            break
    if counter is None:
        # Without a count, a row that was there before and now reads otherwise was
        # changed by something else (a setting's summary after a choice), not added.
        found = [f for f in found if f.prior is None]
        known = [f for f in known if f.prior is None]
        if not known:
            return None
    # The row as first added (its counter at 1, where the traces show that) is the one
    # whose texts follow the parameter row's.
    first = min(known, key=lambda f: (f.prior is not None, f.times))
    copies: list[tuple[str, Expr]] = []
    ctxs = {lc.rows[f.rid - 1][1] for f in found}
    if len(ctxs) == 1 and None not in ctxs:
        copies.append(("ctx", Const(ctxs.pop())))  # a list filtered by its screen's row
    for i, col in enumerate(lc.columns):
        v = first.values[i]
        if col == counter:
            copies.append((col, Const(1)))
        elif col == name_col:
            copies.append((col, Ref(("param", pcol))))
        elif isinstance(v, str) and v:
            e = _around(v, first.tap.row)
            if e is not None:
                copies.append((col, e))
    return CrossAdd(table=lc.table, key=(name_col, pcol), copies=tuple(copies),
                    counter=None if toggle else counter,
                    rows=frozenset(f.rid for f in found) - before.get(lc.table, set()),
                    source=f"{key[0]}: a new {lc.table} row named after what the screen "
                           f"showed ({len(found)} seen)")


def _counts(f: _Seen, i: int) -> bool:
    """Whether column `i` of a new row counts the taps: the number it had before (none
    before the first add) plus one per tap."""
    before = f.prior[i] if f.prior is not None else "0"
    return isinstance(f.values[i], str) and f.values[i].isdigit() and \
        isinstance(before, str) and before.isdigit() and \
        int(f.values[i]) == int(before) + f.times


def _around(value: str, prow: dict) -> Expr | None:
    """`value` as a column of the parameter row with fixed words around it."""
    for col, pv in prow.items():
        if isinstance(pv, str) and pv and pv in value:
            at = value.index(pv)
            e: Expr = Ref(("param", col))
            if value[:at]:
                e = BinOp("+", Const(value[:at]), e)
            if value[at + len(pv):]:
                e = BinOp("+", e, Const(value[at + len(pv):]))
            return e
    return None


def with_cross_adds(transitions: list[Transition], adds: dict[tuple, CrossAdd],
                    names: dict[tuple, str]) -> list[Transition]:
    """`transitions` with each cross-screen add in place: the recorded transition of the
    tap gets the insert, and before it a copy that, when the row is already there, steps
    its counter (or, for a switch, takes the row away; else does nothing more)."""
    out = []
    for t in transitions:
        add = next((a for k, a in adds.items()
                    if names.get(k) == (t.screen, t.widget) and k[2] == t.action), None)
        if add is None or t.when is not None:
            out.append(t)
            continue
        name_col, pcol = add.key
        same = Compare("==", Ref((name_col,)), Ref(("param", pcol)))
        there = Call("exists", table=add.table, where=same)
        if add.counter is not None:
            again = Effect(op="update", target=add.table, where=same, values=(
                (add.counter, BinOp("+", Ref((add.counter,)), Const(1))),))
        else:
            again = Effect(op="delete", target=add.table, where=same)
        keep = tuple(e for e in t.effects if e.target != add.table)
        out.append(Transition(screen=t.screen, widget=t.widget, action=t.action,
                              target=t.target, with_param=t.with_param, when=there,
                              effects=keep + (again,), count=0))
        insert = Effect(op="insert", target=add.table, values=add.copies)
        out.append(Transition(screen=t.screen, widget=t.widget, action=t.action,
                              target=t.target, with_param=t.with_param, when=None,
                              effects=keep + (insert,), count=t.count))
    return out


def memberships(adds: dict[tuple, CrossAdd], toggles: dict[tuple, list]) -> dict[str, Expr]:
    """Flag -> whether the screen's row is in the list, for each switch whose tap also adds
    or takes away the screen's row (a product's favourite button): the switch shows that
    row's membership, not one flag for every row."""
    out: dict[str, Expr] = {}
    for key, add in adds.items():
        if add.counter is not None:
            continue
        name_col, pcol = add.key
        for kind, flag in toggles.get(key, []):
            if kind == "flag":
                out[flag] = Call("exists", table=add.table,
                                 where=Compare("==", Ref((name_col,)), Ref(("param", pcol))))
    return out


def without_flags(transitions: list[Transition], flags: set[str]) -> list[Transition]:
    """`transitions` with no effect on `flags` (whose state lies in a list now)."""
    return [Transition(screen=t.screen, widget=t.widget, action=t.action, target=t.target,
                       with_param=t.with_param, when=t.when, count=t.count,
                       effects=tuple(e for e in t.effects if e.target not in flags))
            if any(e.target in flags for e in t.effects) else t for t in transitions]
