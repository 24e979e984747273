"""Bind a parameterised screen's varying texts to its parameter row.

    detail screen seen for rows 1 ("Oat milk") and 2 ("Bread"): title "Oat milk" / "Bread"
      ->  details{detail: {".../TextView#title": param.name}}
    and its photo described "Oat milk photo" / "Bread photo"
      ->  details{detail: {"desc .../ImageView#photo": param.name + " photo"}}
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict

from phoneworld.infer import content as C
from phoneworld.infer.derived import DESC
from phoneworld.infer.facts import Facts
from phoneworld.infer.keys import last_part, texts_by_place
from phoneworld.infer.layout import identifier, unique
from phoneworld.spec.ast import Call, Const, Expr, Ref


def bind_details(f: Facts) -> Facts:
    """Each text outside lists that differs between the rows a screen was seen with is
    bound to the parameter's column holding those texts, or to a new column of the
    parameter's table (`d_<id>`) filled with what each row showed; a text seen with one
    row only is bound where it is that row's text, else stays a literal. A content
    description outside lists that says a bound text's row value with the same words
    around it on every row seen ("Ben Okafor photo") follows that column too."""
    lists = copy.deepcopy({k: dict(v) for k, v in f.lists.items()})
    out: dict[str, dict[str, Expr]] = {}
    for name, info in f.screens.items():
        param = f.params.get(name)
        if param is None or info.root is None:
            continue
        out[name] = _bind(f, info.root, info.screen.observations, lists[param[0]][param[1]])
    return f.with_(lists=lists, details=out)


def _bind(f: Facts, root, observations, plc: C.ListContent) -> dict[str, Expr]:
    # Texts are compared by place, so that a title told apart from its subtitle by its own
    # text (two TextViews without ids) is one view whichever row it shows; the binding is
    # keyed as the representative (`root`) names that view.
    named = {place: key for place, (key, _) in texts_by_place(root).items()}
    per_key: dict[str, dict[int, str]] = defaultdict(dict)
    rowless: dict[str, Counter] = defaultdict(Counter)
    n_rowless = 0
    for ref in observations:
        o = f.obs[ref]
        if o.root is None:
            continue
        if not f.ctx_of.get(ref):
            n_rowless += 1
            for place, (_, text) in texts_by_place(o.root).items():
                rowless[place][text] += 1
            continue
        for place, (_, text) in texts_by_place(o.root).items():
            per_key[place].setdefault(f.ctx_of[ref], text)
    rows = {r[0]: r for r in plc.rows}
    out: dict[str, Expr] = {}
    for place, values in sorted(per_key.items()):
        key = named.get(place)
        if key is None:
            continue  # not shown by the representative: no view to bind
        if len(set(values.values())) <= 1 and len(values) > 1:
            continue  # the same on every row: a literal label
        col = None
        for c, cname in enumerate(plc.columns):
            if all(rows[r][2 + c] == v for r, v in values.items() if r in rows):
                col = cname
                break
        if col is None and len(set(values.values())) <= 1:
            continue  # seen with one row only, and none of its texts: a literal label
        if col is None:
            col = unique(identifier(f"d_{last_part(key)}"), {"id", "ctx", "checked",
                                                              *plc.columns})
            plc.columns.append(col)
            plc.fields.append(f"detail:{key}")
            for r in plc.rows:
                r.append(values.get(r[0], ""))
        out[key] = Ref(("param", col))
        seen = rowless[place]
        if n_rowless >= 2 and len(seen) == 1 and sum(seen.values()) == n_rowless:
            # what the screen always showed without a row (not a passing snackbar)
            out[key] = Call("otherwise", args=(out[key], Const(next(iter(seen)))))
    out.update(_bind_descs(f, root, observations, rows, plc.columns,
                           [e.path[1] for e in out.values() if isinstance(e, Ref)]))
    return out


def _bind_descs(f: Facts, root, observations, rows: dict, columns: list[str],
                bound: list[str]) -> dict[str, Expr]:
    """`DESC` + widget key -> the description as words around a bound column's value,
    for descriptions outside lists that say their row's value of one of the `bound`
    columns (the texts the screen shows) on every row they were seen with."""
    named = {place: key for place, (key, _) in texts_by_place(root, "content_desc").items()}
    per_place: dict[str, dict[int, str]] = defaultdict(dict)
    for ref in observations:
        o = f.obs[ref]
        if o.root is not None and f.ctx_of.get(ref):
            for place, (_, said) in texts_by_place(o.root, "content_desc").items():
                per_place[place].setdefault(f.ctx_of[ref], said)
    out: dict[str, Expr] = {}
    for place, said in sorted(per_place.items()):
        key = named.get(place)
        seen = [(rows[r], d) for r, d in sorted(said.items()) if r in rows]
        if key is None or not seen:
            continue
        for col in dict.fromkeys(bound):
            e = _around([(str(row[2 + columns.index(col)]), d) for row, d in seen], col)
            if e is not None:
                out[DESC + key] = e
                break
    return out


def _around(values: list[tuple[str, str]], col: str) -> Expr | None:
    """`before + param.col + after` where every (value, description) pair is the value
    with the same words around it (the value a whole word or more, not a number)."""
    if len(values[0][0]) < 2 or not all(v and not C.is_int(v) for v, _ in values):
        return None
    return C.around(values, Ref(("param", col)), whole=True)
