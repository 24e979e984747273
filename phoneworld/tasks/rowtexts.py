"""Questions about what a list row shows: a text beside its name (its switch's state:
`rowswitches`).

    list row template: TextView item.title above TextView item.summary
      ->  task read_summary_settings information (n: settings.title, v: settings.summary)
              "What is written under {n}? | ..." { answer ~ v }

A row is named by its name column, or where most rows share their names (or leave them
empty), by the first other text that tells them apart ("Starts at: 2023-10-19 00:48:07");
what is asked is worded by where it sits ("under", "next to", its number in the list),
never with the names of columns, which come from resource ids. A text that is itself a
label and a value on every row ("Ends at: 2023-10-19 00:48:07": a colon, or a date or
number after the same words) is asked by its label, and its value alone answers:

    ->  "On the row with “Starts at: 2023-10-18 23:47:32”, what does “Ends at” say?"
        { answer ~ v or "Ends at: " + answer ~ v }
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld.spec.ast import (
    AppSpec,
    BoolOp,
    Compare,
    Const,
    Expr,
    Ref,
    Task,
    TaskParam,
    View,
)
from phoneworld.spec.walk import own_root, views
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import NewName, Template
from phoneworld.tasks.labels import is_code, is_heading, is_name, place_label, readable
from phoneworld.tasks.pairs import answered, pair_label, pair_phrases
from phoneworld.tasks.schema import Schema

_STATE_WORDS = frozenset({"on", "off", "true", "false", "yes", "no", "checked", "unchecked"})


def row_questions(spec: AppSpec, schema: Schema, new: NewName,
                  asked: set[tuple[str, str]]) -> Iterator[Template]:
    """A question per text a list row shows beside its name, worded by where it sits:
    under the name, or next to it. `asked` holds the (table, column) pairs other
    templates already ask about."""
    tables = {t.name: t for t in spec.tables}
    done = set(asked)
    for table, name_view, other, column, rivals in row_texts(spec, schema):
        if (table, column) in done:
            continue
        t = tables[table]
        cols = [c.name for c in t.columns]
        e = schema.entity(table)
        types = {c.name: c.type for c in t.columns}
        if e is None or types.get(column) != "text":
            continue
        place = "rank" if _numbers_rows(t.rows, cols.index(e.name), cols.index(column)) else \
            _place(name_view.bounds, other.bounds)
        byline = place == "under" and not ({"clickable", "editable"} & set(other.flags))
        if not _informative(t.rows, cols.index(e.name), cols.index(column), byline):
            continue
        if place != "rank" and not _nearest(name_view, other, rivals):
            continue
        if place == "row" and not _named(t.rows, cols.index(e.name)):
            continue  # "Besides its name, what does the “<a paragraph>” entry say?"
        done.add((table, column))
        n, v = new("n"), new("v")
        label = pair_label([r[cols.index(column)] for r in t.rows]) if place != "rank" \
            else None
        where = _list_label(spec, schema, table)
        phrases = pair_phrases(P.PAIR_VALUE, label) if label else P.ROW_TEXT[place]
        if place == "rank" and where:  # "the list" names none: the screen of the list
            questions, obj = P.RANK_ON
            phrases = ([W.words(q, {"screen": where}) for q in questions],
                       W.words(obj, {"screen": where}))
        yield ask_row(phrases, f"read_{column}_{table}", n, answered(v, label),
                       (TaskParam(n, table, e.name), TaskParam(v, table, column)))
        if place == "rank" and where:
            # and the other way round: "What is number 3 in the list on 专辑?"
            r, v = new("r"), new("v")
            questions, obj = P.AT_RANK
            yield ask_row(([W.words(q, {"screen": where}) for q in questions],
                            W.words(obj, {"screen": where})),
                           f"read_{e.name}_{table}_at_{column}", r,
                           Compare("~", Ref(("answer",)), Ref((v,))),
                           (TaskParam(r, table, column), TaskParam(v, table, e.name)))
    pairs: set[frozenset[tuple[str, str]]] = set()
    for table, key_view, key, other, column, rivals in _keyed_rows(spec, schema):
        t = tables[table]
        cols = [c.name for c in t.columns]
        place = _place(key_view.bounds, other.bounds)
        if place not in ("under", "next") or (table, f"{column}>{key}") in done or \
                not _informative(t.rows, cols.index(key), cols.index(column)) or \
                not _nearest(key_view, other, rivals):
            continue
        said = frozenset((str(r[cols.index(key)]), str(r[cols.index(column)])) for r in t.rows)
        if said in pairs:
            continue  # the same rows in another table (a screen recorded twice): asked
        pairs.add(said)
        done.add((table, f"{column}>{key}"))
        n, v = new("n"), new("v")
        e = schema.entity(table)
        # A text that also names a row of the list (activitylauncher's "AndroFish", an
        # app and its activity) calls two rows: asked of neither.
        names = sorted({str(r[cols.index(e.name)]).strip() for r in t.rows
                        if e is not None and readable(r[cols.index(e.name)])} &
                       {str(r[cols.index(key)]).strip() for r in t.rows})
        label = pair_label([r[cols.index(column)] for r in t.rows])
        asked_for = answered(v, label)
        yield ask_row(pair_phrases(P.PAIR_VALUE_BY, label) if label else P.ROW_TEXT[place],
                       f"read_{column}_{table}_by_{key}", n,
                       BoolOp("and", (asked_for, *(
                           Compare("!=", Ref((n,)), Const(x)) for x in names)))
                       if names else asked_for,
                       (TaskParam(n, table, key), TaskParam(v, table, column)))


def _list_label(spec: AppSpec, schema: Schema, table: str) -> str:
    """The label of the one screen that lists `table`, "" where none or several do."""
    shown = [s.name for s in spec.screens if not s.foreign and
             any(v.items is not None and v.items.table == table for v in views(own_root(s)))]
    return place_label(spec, shown[0]) if len(shown) == 1 else ""


def _keyed_rows(spec: AppSpec, schema: Schema
                ) -> Iterator[tuple[str, View, str, View, str, list[View]]]:
    """(table, the view of the text that tells some rows apart, that text's column, a view
    of another text of the row, its column, the views of the row's other texts) for the
    rows a list's name column cannot call: where the rows mostly share their names
    (aeondroid's planetary hours: "Jupiter", "Mars", ... twice a day), and rows of
    another layout that leave it empty (activitylauncher's activities under each app's
    row). Such rows are called by the first other text that every one of them shows, a
    name on most, that differs on most ("Starts at: 2023-10-19 00:48:07"), as a person
    points at them; drawing drops a text two rows share."""
    tables = {t.name: t for t in spec.tables}
    seen: set[str] = set()
    for table, name_view, _, _, _ in row_texts(spec, schema):
        e, t = schema.entity(table), tables[table]
        if table in seen or e is None:
            continue
        seen.add(table)
        cols = [c.name for c in t.columns]
        named = [r for r in t.rows if readable(r[cols.index(e.name)])]
        names = [str(r[cols.index(e.name)]).strip() for r in named]
        unnamed = [r for r in t.rows if not readable(r[cols.index(e.name)]) and
                   any(readable(v) for v in r[2:])]
        groups = [g for g in (named if 2 * sum(names.count(x) == 1 for x in names) <
                              len(names) else [], unnamed) if len(g) >= 2]
        bound = [b for b in _bound_texts(_item_of(spec, table, name_view)) if b[1] != e.name]
        for rows in groups:
            for view, key in bound:
                keys = [str(r[cols.index(key)]).strip() for r in rows]
                # every row shows a text there (code too: it is there to see, though
                # no task calls a row by it)
                if all(readable(k) or is_code(k) for k in keys) and \
                        2 * len(set(keys)) >= len(keys) and \
                        2 * sum(is_name(k) for k in keys) > len(keys):
                    for other, column in bound:
                        if column != key:
                            yield table, view, key, other, column, [
                                b for b, c in bound if c not in (key, column)]
                    break


def _item_of(spec: AppSpec, table: str, inside: View) -> View:
    """The item template of a list of `table` that holds view `inside`."""
    for s in spec.screens:
        for v in views(s.root):
            if v.items is not None and v.items.table == table and v.children and \
                    any(x is inside for x in views(v.children[0])):
                return v.children[0]
    raise LookupError(table)


def ask_row(phrases: tuple, name: str, n: str, condition: Expr,
             params: tuple[TaskParam, ...]) -> Template:
    """An information question about the row named by hole `n`: `phrases` is (questions,
    what the question asks), as in `phrases.ROW_TEXT`."""
    questions, obj = phrases
    task = Task(name=name, kind="information", condition=condition, params=params,
                instruction=W.join([W.rename_holes(q, {"n": n}) for q in questions]))
    return Template(task, asks=W.rename_holes(obj, {"n": n}))


def row_texts(spec: AppSpec, schema: Schema
               ) -> Iterator[tuple[str, View, View, str, list[View]]]:
    """(table, the view showing a row's name, a view showing another of its texts, that
    text's column, the views of the row's other texts) for every list row template of the
    app's own screens."""
    for s in spec.screens:
        if s.foreign:
            continue
        stack = [own_root(s)]  # (a dialog's own rows, not those of the page under it)
        while stack:
            v = stack.pop()
            stack.extend(v.children)
            if v.items is None or not v.children:
                continue
            e = schema.entity(v.items.table)
            if e is None:
                continue
            bound = _bound_texts(v.children[0])
            name_view = next((b for b, c in bound if c == e.name), None)
            if name_view is None:
                continue
            for b, c in bound:
                if c != e.name:
                    yield v.items.table, name_view, b, c, [
                        b2 for b2, c2 in bound if c2 not in (e.name, c)]


def _bound_texts(item: View) -> list[tuple[View, str]]:
    """The views of an item template whose text is a column of its row, in tree order."""
    out, stack = [], [item]
    while stack:
        v = stack.pop()
        if v.items is not None:
            continue  # a list inside the row shows other rows
        if isinstance(v.text, Ref) and len(v.text.path) == 2 and v.text.path[0] == "item":
            out.append((v, v.text.path[1]))
        stack.extend(reversed(v.children))
    return out


def _place(name: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> str:
    """Where `other` sits from `name`: "under", "next" (to the right) or "row" (elsewhere
    on the row)."""
    overlap_x = min(name[2], other[2]) - max(name[0], other[0])
    overlap_y = min(name[3], other[3]) - max(name[1], other[1])
    if other[1] >= name[3] - 4 and overlap_x > 0:
        return "under"
    if other[0] >= name[2] - 4 and overlap_y > 0:
        return "next"
    return "row"


def _informative(rows: tuple, name: int, value: int, byline: bool = False) -> bool:
    """Whether a column says something about its rows: some row has both texts, and the
    value is not a switch's on/off (state, asked by other tasks) nor the same on every
    row (a fixed label), but for a byline: a name under each of three rows or more, in
    no button (qqmusic's songs, every one by 王有道: who sings it is still asked)."""
    both = [str(r[value]).strip() for r in rows if readable(r[name]) and readable(r[value])]
    values = set(both)
    if {v.lower() for v in values} <= _STATE_WORDS:
        return False
    return len(values) >= 2 or (byline and len(both) >= 3 and is_heading(both[0]))


def _named(rows: tuple, name: int) -> bool:
    """Whether most rows that show a text in column `name` show a name there, not a
    paragraph (uber's folding help rows, “Your acceptance rate is the percentage of trips
    you accepted over the last 30 days. ...” under each heading button): "what else is on
    the row" presumes a row called by a name."""
    said = [str(r[name]).strip() for r in rows if readable(r[name])]
    return 2 * sum(is_name(x) for x in said) > len(said)


def _nearest(name: View, other: View, rivals: list[View]) -> bool:
    """Whether `other` is the text its place names (`_place`): the first line under the
    name, the first text right of it, the one other text of the row. "What is written
    under Greenlight Oakland?" is the address, not the availability below it; "what
    else does the row say" has no one answer on a row of five texts (spoon_live's
    broadcast: a DJ under its title, three counts beside their icons)."""
    where = _place(name.bounds, other.bounds)
    same = [r for r in rivals if _place(name.bounds, r.bounds) == where]
    if where == "under":
        return all(r.bounds[1] > other.bounds[1] for r in same)
    if where == "next":
        return all(r.bounds[0] > other.bounds[0] for r in same)
    return not rivals


def _numbers_rows(rows: tuple, name: int, column: int) -> bool:
    """Whether a column numbers the named rows as they are listed (1, 2, 3, ... or from
    another start): asked as a row's number in the list, not as "what else the row
    shows"."""
    values = [str(r[column]).strip() for r in rows if readable(r[name]) and readable(r[column])]
    return len(values) >= 3 and all(v.isdigit() for v in values) and \
        [int(v) for v in values] == list(range(int(values[0]), int(values[0]) + len(values)))
