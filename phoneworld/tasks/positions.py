"""Questions about where a row sits in a list that numbers none of them (a list that
does: `rowtexts`' rank questions).

    content moon_list(id, ctx, phase, time) shown whole on the screen “AeonDroid”
      ->  task at_position_moon_list information (k: moon_list.id, v: moon_list.phase)
              "What is entry number {k} in the list on {screen}?"
              { answer ~ v and k == count(moon_list where id <= k) }
          task position_of_moon_list information (n: moon_list.phase, k: moon_list.id)
              "At which position is {n} in the list on {screen}?"
              { answer ~ count(moon_list where id <= k) }

A list a person can count: one screen (with a name) shows every row of its table, in the
table's order, from the first (no filter, no parent row), every row has a name (no
headings of another layout between them, nor section headings of the same one:
`_headings`), most names are a row's own (a feed of cards all headed “Opportunity” is no
list of names), and nothing the app does removes a row (an added row comes last: the
places of the others stay). Then a row's key is its place, as the recording showed it.
A name two rows share has no one place: not asked the second way.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld.spec.ast import AppSpec, BoolOp, Call, Compare, Const, Ref, TaskParam
from phoneworld.spec.walk import own_root, views
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import NewName, Template
from phoneworld.tasks.labels import place_label, readable
from phoneworld.tasks.rowtexts import ask_row
from phoneworld.tasks.schema import Schema

MIN_ROWS = 3
"""A list of two has a first and a last, hardly a place to ask for."""


def position_questions(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """"What is entry number {k} in the list on {screen}?" and "At which position is {n}
    ...?" for every list a person can count (see the module docstring)."""
    removed = {e.target for t in spec.transitions for e in t.effects if e.op == "delete"}
    for table, screen in _counted(spec, schema):
        e = schema.entity(table)
        rows = next(t for t in spec.tables if t.name == table)
        cols = [c.name for c in rows.columns]
        if e is None or table in removed or e.key != "id" or len(rows.rows) < MIN_ROWS:
            continue
        names = [r[cols.index(e.name)] for r in rows.rows]
        ids = [r[0] for r in rows.rows]
        if ids != list(range(1, len(ids) + 1)) or not all(readable(n) for n in names) or \
                any(r[cols.index("ctx")] is not None for r in rows.rows if "ctx" in cols) or \
                2 * sum(names.count(x) == 1 for x in names) < len(names) or \
                _headings(rows.rows, cols, e.name):
            continue
        fill = {"screen": screen} if screen else {}
        k, v = new("k"), new("v")
        questions, obj = P.AT_POSITION if screen else P.AT_POSITION_FIRST
        # The name, and where it stands: k rows counted down to it (always so here, as
        # no row is removed; it tells the planner the name is read off this list, not
        # off another screen that shows it in another order).
        yield ask_row(([W.words(q, fill) for q in questions], W.words(obj, fill)),
                      f"at_position_{table}", k, BoolOp("and", (
                          Compare("~", Ref(("answer",)), Ref((v,))),
                          Compare("==", Ref((k,)), _up_to(table, k)))),
                      (TaskParam(k, table, "id"), TaskParam(v, table, e.name)))
        n, k = new("n"), new("k")
        shared = sorted({str(x).strip() for x in names if names.count(x) > 1})
        # The rows up to it, counted (the planner sees the row it ends on).
        asked = Compare("~", Ref(("answer",)), _up_to(table, k))
        questions, obj = P.POSITION_OF if screen else P.POSITION_OF_FIRST
        yield ask_row(([W.words(q, fill) for q in questions], W.words(obj, fill)),
                      f"position_of_{table}", n,
                      BoolOp("and", (asked, *(Compare("!=", Ref((n,)), Const(x))
                                              for x in shared))) if shared else asked,
                      (TaskParam(n, table, e.name), TaskParam(k, table, "id")))


def _up_to(table: str, k: str) -> Call:
    """`count(table where id <= k)`: the place of row `k` in its list."""
    return Call("count", table=table, where=Compare("<=", Ref(("id",)), Ref((k,))))


def _headings(rows: tuple, cols: list[str], name: str) -> bool:
    """Whether some rows, but fewer than the others, show their name alone: headings of
    sections between entries that show more (activitylauncher's “Settings” and “About”
    over their switches and summaries), which a person may count or not."""
    texts = [c for c in cols if c not in ("id", "ctx", name)]
    alone = sum(not any(isinstance(r[cols.index(c)], str) and r[cols.index(c)].strip()
                        for c in texts) for r in rows)
    return 0 < alone < len(rows) - alone


def _counted(spec: AppSpec, schema: Schema) -> Iterator[tuple[str, str]]:
    """(table, the label of its screen) for each table that exactly one of the app's own
    screens lists, whole (no `where`), where that screen has a name and no other list of
    `MIN_ROWS` rows or more down it ("the list on 专辑" names none where 专辑 shows two;
    a strip of tabs across the top, onelist's lists, is no list a person counts); "" for
    the name of the screen the app opens on, where it has none (the list a person sees
    first: onelist's items)."""
    where: dict[str, set[str]] = {}
    whole: set[str] = set()
    sizes = {t.name: len(t.rows) for t in spec.tables}
    lists: dict[str, list[str]] = {}  # screen -> its long lists, but for those across
    for s in spec.screens:
        if s.foreign:
            continue
        for v in views(own_root(s)):
            if v.items is not None:
                where.setdefault(v.items.table, set()).add(s.name)
                if v.items.where is None:
                    whole.add(v.items.table)
                if sizes.get(v.items.table, 0) >= MIN_ROWS and v.items.axis != "horizontal":
                    lists.setdefault(s.name, []).append(v.items.table)
    for table in sorted(whole):
        if len(where[table]) != 1:
            continue
        screen = next(iter(where[table]))
        if lists.get(screen, [table]) != [table]:
            continue  # "the list on 专辑" where 专辑 shows two says neither
        if label := place_label(spec, screen):
            yield table, label
        elif screen == spec.start:
            yield table, ""
