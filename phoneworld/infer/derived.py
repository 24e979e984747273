"""Derived values: numbers a screen shows that follow the app's state, as expressions.

    cart: "Subtotal (4 items)", "$8.56", "$11.55" (and other numbers in other visits)
      ->  text "Subtotal (" + fixed(sum(main_cart_cart_list, quantity), 0) + " items)"
          text "$" + fixed(sum(main_cart_cart_list, number(cart_item_total)), 2)
          text "$" + fixed(sum(main_cart_cart_list, number(cart_item_total)) + 2.99, 2)
    a cart row "$2.98" beside "$1.49 each" and 2
      ->  every effect that sets quantity sets cart_item_total = "$" + fixed(
              times(number(cart_item_unit_price), quantity + 1), 2)

The traces are played on the inferred state (`play`), giving the rows behind every
recorded observation. A number on a screen is a
count of a state table's rows, or a sum of one of its columns (plus a fixed amount that
the same screen shows, such as a delivery fee), when that holds at every observation of
the screen, and the screen showed at least two different numbers there: a number that
never changed says nothing about what it follows. A row's number that is another of its
numbers times its count, on every row recorded, is kept so by the effects that change
the count.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace

from phoneworld.infer.keys import inside_list, texts_by_key
from phoneworld.runtime.expr import as_number
from phoneworld.spec.ast import AppSpec, BinOp, Call, Const, Effect, Expr, Ref, Transition
from phoneworld.ui.skeleton import app_windows, is_list
from phoneworld.ui.widgets import widget_ref

_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
DESC = "desc "
"""Prefix of a key that stands for a widget's content description, not its text."""
_TOLERANCE = 0.005


@dataclass(frozen=True)
class Shown:
    """A template of a recorded text with one number in it: "Subtotal (" 4 " items)"."""

    prefix: str
    value: float
    suffix: str
    decimals: int


def shown(text: str) -> Shown | None:
    """`text` as fixed words around its one number, or None (no number, or several)."""
    found = list(_NUMBER.finditer(text))
    if len(found) != 1:
        return None
    m = found[0]
    raw = m.group(0)
    value = as_number(raw)
    if value is None:
        return None
    decimals = len(raw.split(".", 1)[1]) if "." in raw else 0
    return Shown(text[:m.start()], value, text[m.end():], decimals)


# -- what the recordings showed ------------------------------------------------------------------

def seen_numbers(where, infos, obs) -> tuple[dict[tuple[str, str], list[tuple[object, str]]],
                                             dict[object, set[float]]]:
    """(screen, widget key) -> (observation, text) for each text with a number outside
    lists that the screen's representative has; and the numbers each observation shows.
    A label's key holds its text ("TextView@Subtotal (4 items)"): keys that differ only
    in their numbers are one label."""
    seen: dict[tuple[str, str], list[tuple[object, str]]] = defaultdict(list)
    numbers: dict[object, set[float]] = {}
    reps = {name: {_NUMBER.sub("#", k): k for k in sorted(info.keys)}
            for name, info in infos.items()}
    for ref in sorted(where, key=lambda r: (r.trace, r.index)):
        info = infos[where[ref]]
        root = obs[ref].root
        if root is None or info.screen.foreign:
            continue
        texts = texts_by_key(root)
        numbers[ref] = {s.value for s in map(shown, texts.values()) if s is not None}
        texts.update(_descs(root))
        for key, text in texts.items():
            desc = key.startswith(DESC)
            rep_key = reps[where[ref]].get(_NUMBER.sub("#", key[len(DESC):] if desc else key))
            if rep_key is not None and _NUMBER.search(text):
                seen[(info.screen.name, DESC + rep_key if desc else rep_key)].append((ref, text))
    return seen, numbers


def _descs(root) -> dict[str, str]:
    """Content descriptions outside lists, by `DESC` + widget key ("Cart, 4 items")."""
    out: dict[str, str] = {}
    for start, win in app_windows(root):
        for rel, node in win.walk():
            path = start + rel
            if node.content_desc and not inside_list(root, path, is_list):
                out.setdefault(DESC + widget_ref(root, path).key, node.content_desc)
    return out


# -- numbers a screen shows ---------------------------------------------------------------------

def derive_texts(spec: AppSpec, seen: dict[tuple[str, str], list[tuple[object, str]]],
                 states: dict[object, dict], others: dict[object, set[float]]
                 ) -> dict[tuple[str, str], Expr]:
    """(screen, widget key) -> the expression its text follows, for the texts `seen`
    ((observation, text) each) that follow one (see the module docstring). `others`
    holds the numbers each observation showed (a fixed amount added must be one). The
    same widget elsewhere (a badge on every screen) follows the same expression wherever
    that agrees with what it showed, even where it never changed."""
    out: dict[tuple[str, str], Expr] = {}
    adopted: dict[str, tuple[Call, float]] = {}
    forms_of: dict[tuple[str, str], tuple] = {}
    for key, texts in sorted(seen.items()):
        found = [(ref, shown(text)) for ref, text in texts if ref in states]
        if not found or any(s is None for _, s in found):
            continue
        forms = {(s.prefix, s.suffix, s.decimals) for _, s in found}  # type: ignore[union-attr]
        if len(forms) != 1:
            continue
        forms_of[key] = (found, forms.pop())
        if len({s.value for _, s in found}) < 2:  # type: ignore[union-attr]
            continue
        for agg in _aggregates(spec):
            offset = _offset(agg, found, states, others)
            if offset is not None:
                out[key] = _written(agg, offset, *forms_of[key][1])
                adopted.setdefault(_widget(key[1]), (agg, offset))
                break
    for key, (found, form) in sorted(forms_of.items()):
        if key in out or _widget(key[1]) not in adopted:
            continue
        agg, offset = adopted[_widget(key[1])]
        if _offset(agg, found, states, others) == offset:
            out[key] = _written(agg, offset, *form)
    return out


def _widget(key: str) -> str:
    """The last part of a widget key, numbers left out: one widget on several screens."""
    return _NUMBER.sub("#", key.rsplit("/", 1)[-1])


def _written(agg: Call, offset: float, prefix: str, suffix: str, decimals: int) -> Expr:
    e: Expr = agg
    if offset:
        e = BinOp("+" if offset > 0 else "-", e, Const(round(abs(offset), 6)))
    e = Call("fixed", args=(e, Const(decimals)))
    if prefix:
        e = BinOp("+", Const(prefix), e)
    if suffix:
        e = BinOp("+", e, Const(suffix))
    return e


def _aggregates(spec: AppSpec) -> Iterator[Call]:
    """Counts of each state table's rows, then sums of each of its number columns."""
    for t in spec.tables:
        if t.kind != "state":
            continue
        yield Call("count", table=t.name)
        for i, c in enumerate(t.columns):
            if c.name in ("id", "ctx") or c.type == "bool":
                continue
            values = [r[i] for r in t.rows if r[i] not in (None, "")]
            if c.type in ("int", "real"):
                yield Call("sum", table=t.name, args=(Ref((c.name,)),))
            elif values and all(_number_in(v) is not None for v in values):
                yield Call("sum", table=t.name,
                           args=(Call("number", args=(Ref((c.name,)),)),))


def _offset(agg: Call, found, states, others) -> float | None:
    """The fixed amount the shown numbers are off `agg` by at every observation: 0, or a
    number each of those observations showed; None when there is none."""
    diffs = []
    for ref, s in found:
        st = states[ref]
        v = _aggregate(agg, st)
        if v is None:
            return None
        diffs.append(s.value - v)
    first = diffs[0]
    if any(abs(d - first) > _TOLERANCE for d in diffs):
        return None
    if abs(first) <= _TOLERANCE:
        return 0.0
    if all(any(abs(abs(first) - n) <= _TOLERANCE for n in others.get(ref, ()))
           for ref, _ in found):
        return first
    return None


def _aggregate(agg: Call, rows_by_table: dict) -> float | None:
    rows = rows_by_table.get(agg.table, [])
    if agg.func == "count":
        return float(len(rows))
    total = 0.0
    arg = agg.args[0]
    col = arg.path[0] if isinstance(arg, Ref) else arg.args[0].path[0]  # type: ignore[union-attr]
    for r in rows:
        n = _number_in(r.get(col))
        if n is None:
            return None
        total += n
    return total


def _number_in(v: object) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        m = _NUMBER.search(v)
        return as_number(m.group(0)) if m else None
    return None


# -- a row's number that is another times its count ----------------------------------------

@dataclass(frozen=True)
class RowTotal:
    """`total` = `unit` x `count` on every row of `table`, shown as prefix/decimals."""

    table: str
    total: str
    unit: str
    count: str
    prefix: str
    suffix: str
    decimals: int


def row_totals(spec: AppSpec, recorded: dict[str, list[dict]]) -> list[RowTotal]:
    """The (total, unit, count) column triples of state tables that hold on every row
    `recorded` for the table (all sightings, changed ones too), at least one with a
    count above one."""
    out = []
    for t in spec.tables:
        rows = recorded.get(t.name, [])
        if t.kind != "state" or not rows:
            continue
        cols = [c.name for c in t.columns if c.name not in ("id", "ctx")]
        for count in cols:
            counts = [_number_in(r.get(count)) for r in rows]
            if any(n is None or n != int(n) or n < 1 for n in counts) or max(counts) < 2:
                continue
            for total in cols:
                forms = {(s.prefix, s.suffix, s.decimals) if s else None
                         for s in (shown(str(r.get(total, ""))) for r in rows)}
                if total == count or len(forms) != 1 or None in forms:
                    continue
                (prefix, suffix, decimals), = forms
                for unit in cols:
                    if unit in (total, count):
                        continue
                    if all(_times(r, unit, count, total) for r in rows):
                        out.append(RowTotal(t.name, total, unit, count, prefix, suffix,
                                            decimals))
                        break
    return out


def _times(r: dict, unit: str, count: str, total: str) -> bool:
    u, c, t = _number_in(r.get(unit)), _number_in(r.get(count)), _number_in(r.get(total))
    return None not in (u, c, t) and abs(u * c - t) <= _TOLERANCE  # type: ignore[operator]


def with_row_totals(transitions: list[Transition], totals: list[RowTotal]) -> list[Transition]:
    """Every insert or update that sets a row's count also sets its total."""
    if not totals:
        return transitions
    out = []
    for t in transitions:
        effects = tuple(_keep_total(e, totals) for e in t.effects)
        out.append(replace(t, effects=effects) if effects != t.effects else t)
    return out


def _keep_total(e: Effect, totals: list[RowTotal]) -> Effect:
    for rt in totals:
        values = dict(e.values)
        if e.target != rt.table or e.op not in ("insert", "update") or rt.count not in values:
            continue
        unit = values.get(rt.unit, Ref((rt.unit,))) if e.op == "insert" else Ref((rt.unit,))
        if e.op == "insert" and rt.unit not in values:
            continue
        amount: Expr = Call("fixed", args=(Call("times", args=(
            Call("number", args=(unit,)), values[rt.count])), Const(rt.decimals)))
        if rt.prefix:
            amount = BinOp("+", Const(rt.prefix), amount)
        if rt.suffix:
            amount = BinOp("+", amount, Const(rt.suffix))
        kept = tuple((c, v) for c, v in e.values if c != rt.total) + ((rt.total, amount),)
        e = replace(e, values=kept)
    return e


