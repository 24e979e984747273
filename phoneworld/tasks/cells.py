"""Questions about the texts inside a list's one-off rows: a heading and what is under it.

    qqmusic's "my music" list: row 2 shows "活动中心" and, right under it, "22个任务待完成"
    (item.ec7 over item.ecf in the row template)
      ->  task read_cells_app_starter_3_c_4_1 information
              "What is written under “活动中心”? | ..." { answer ~ "22个任务待完成" }

`screentexts.screen_texts` asks this of a screen's fixed texts and `rowtexts.row_questions`
of a row's name and what else the row shows; a list whose rows are each a different block
of a page (a header card, a row of shortcuts) holds other headings: they are asked here,
row by row, where a row shows a short heading (not the row's name) with another text right
under it or right after it on its line ("全部播放" "(15)"), in a column that one or two
rows fill (more: a column of like things, an activity's title, asked by `screentexts` if
at all) and with no digits in the heading (a "Starts at: 2023-10-18" is a value). Only
rows a person gets to see (a list showed them, both texts on one screen); a heading with
two different answers is asked of neither.
"""

from __future__ import annotations

from collections.abc import Iterator

from phoneworld.spec.ast import AppSpec, Compare, Const, Ref, Task, View
from phoneworld.spec.walk import own_root, views
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import Template
from phoneworld.tasks.labels import is_heading, readable
from phoneworld.tasks.reach import Reach
from phoneworld.tasks.schema import Schema
from phoneworld.tasks.screentexts import way_in

_ONE_OFF = 2
"""Rows that may fill a heading's column: more, and it is a column of like things."""


def cell_texts(spec: AppSpec, schema: Schema, reach: Reach) -> Iterator[Template]:
    """One question per (heading, text) pair of a one-off row (see the module docstring)."""
    tables = {t.name: t for t in spec.tables}
    found: list[tuple[str, ...]] = []  # (screen, table, heading, text, place)
    for s in spec.screens:
        if s.foreign or s.name not in reach.screens:
            continue
        for v in views(own_root(s)):  # (a dialog's, not those of the page under it)
            t = tables.get(v.items.table) if v.items is not None and v.children else None
            if t is None:
                continue
            e = schema.entity(t.name)
            cols = [c.name for c in t.columns]
            for a, b, place in _headed(v.children[0]):
                if e is not None and a == e.name:
                    continue  # a row's name with more under it: `rowtexts.row_questions`
                if sum(readable(r[cols.index(a)]) for r in t.rows) > _ONE_OFF:
                    continue  # a column of like things (an activity's title): no heading
                for r in t.rows:
                    if not (reach.shown(t.name, r[0]) and readable(r[cols.index(a)]) and
                            readable(r[cols.index(b)])):
                        continue
                    head, text = str(r[cols.index(a)]).strip(), str(r[cols.index(b)]).strip()
                    if is_heading(head) and head != text and reach.together([head, text]):
                        found.append((s.name, t.name, head, text, place))
    answers: dict[tuple[str, str], set[str]] = {}
    for _, _, head, text, place in found:
        answers.setdefault((head, place), set()).add(text)
    done: set[tuple[str, str]] = set()
    for i, (screen, table, head, text, place) in enumerate(found, 1):
        if len(answers[(head, place)]) > 1 or (head, place) in done:
            continue
        done.add((head, place))
        where = schema.screen_label(screen)
        way = "" if where else way_in(spec, spec.screen(screen))
        fill = {"head": head, "screen": where, "way": way}
        here, via, anywhere = (P.HEADED, P.HEADED_VIA, P.HEADED_ANYWHERE) \
            if place == "under" else (P.BESIDE, P.BESIDE_VIA, P.BESIDE_ANYWHERE)
        questions, obj = here if where and where.casefold() != head.casefold() else \
            via if way else anywhere
        task = Task(name=f"read_cells_{table}_{i}", kind="information",
                    instruction=W.join([W.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), Const(text)))
        yield Template(task, asks=W.words(obj, fill), screen=screen, about=table)


def _headed(item: View) -> Iterator[tuple[str, str, str]]:
    """(column, column, "under" or "next") for each text of a row template bound to a
    column with another one right under it (closer than half its height, overlapping it
    sideways) or right after it on its line (closer than its height), neither an input
    nor a button."""
    bound = [(v, v.text.path[1]) for v in views(item)
             if isinstance(v.text, Ref) and len(v.text.path) == 2 and
             v.text.path[0] == "item" and "editable" not in v.flags and
             "button" not in v.cls.lower() and "button" not in v.id.lower()]
    for (a, ca), (b, cb) in zip(bound, bound[1:], strict=False):
        height = a.bounds[3] - a.bounds[1]
        gap_y, gap_x = b.bounds[1] - a.bounds[3], b.bounds[0] - a.bounds[2]
        over_x = min(a.bounds[2], b.bounds[2]) - max(a.bounds[0], b.bounds[0])
        over_y = min(a.bounds[3], b.bounds[3]) - max(a.bounds[1], b.bounds[1])
        if ca == cb:
            continue
        if over_x > 0 and -4 <= gap_y <= height // 2:
            yield ca, cb, "under"
        elif over_y > height // 2 and -4 <= gap_x <= height:
            yield ca, cb, "next"
