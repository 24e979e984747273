"""Questions about the state of a list row's switch: "Is {n} on or off?".

    list row template: TextView item.title, Switch item.on (checkable)
      ->  task ask_on_settings information (n: settings.title, k: settings.on)
              "Is {n} on or off? | ..." { answer ~ "on" and k == true }

Answered by the text the switch shows ("ON", "OFF": `switch_states`), or where it shows
none (a checkbox), by whether it is checked (`switch_checks`). The rows are named as
`rowtexts` names them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from phoneworld.spec.ast import AppSpec, BoolOp, Compare, Const, Ref, TaskParam
from phoneworld.spec.walk import own_root, views
from phoneworld.tasks import phrases as P
from phoneworld.tasks.browse import NewName, Template
from phoneworld.tasks.labels import readable
from phoneworld.tasks.rowtexts import ask_row, row_texts
from phoneworld.tasks.schema import Schema

_SWITCH = re.compile(r"(?<!Text)(CheckBox|Switch|Toggle)", re.I)
"""A checkable that is on or off (not a choice in a list: a `CheckedTextView`)."""


def switch_states(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """A question per list whose rows' switches say their state ("ON", "OFF"): "Is {n}
    on or off?", answered by that text."""
    tables = {t.name: t for t in spec.tables}
    done: set[str] = set()
    for table, _, other, column, _ in row_texts(spec, schema):
        t, e = tables[table], schema.entity(table)
        if table in done or e is None or "checkable" not in other.flags:
            continue
        cols = [c.name for c in t.columns]
        name, value = cols.index(e.name), cols.index(column)
        states = {str(r[value]).strip().lower() for r in t.rows
                  if readable(r[name]) and readable(r[value])}
        if not states or not states <= {"on", "off"}:
            continue
        done.add(table)
        n, v = new("n"), new("v")
        yield ask_row(P.SWITCH_STATE, f"ask_switch_{table}", n,
                       Compare("~", Ref(("answer",)), Ref((v,))),
                       (TaskParam(n, table, e.name), TaskParam(v, table, column)))


def switch_checks(spec: AppSpec, schema: Schema, new: NewName,
                  said: set[str]) -> Iterator[Template]:
    """For a list whose rows' switches say nothing of their state (a checkbox; not the
    choices of a single-choice list), "Is {n} on or off?", answered "on" or "off" by
    what the switch shows: one template per answer, for the rows whose switch shows it.
    `said` holds the tables whose switches say it in words (`switch_states`)."""
    tables = {t.name: t for t in spec.tables}
    done = set(said)
    for s in spec.screens:
        if s.foreign:
            continue
        for v in views(own_root(s)):  # (a dialog's own, not the page under it)
            if v.items is None or not v.children or v.items.table in done:
                continue
            table, e = v.items.table, schema.entity(v.items.table)
            column = next((c.checked.path[1] for c in views(v.children[0])
                           if "checkable" in c.flags and _SWITCH.search(c.cls) and
                           isinstance(c.checked, Ref) and
                           len(c.checked.path) == 2 and c.checked.path[0] == "item"), None)
            types = {c.name: c.type for c in tables[table].columns}
            if e is None or column is None or types.get(column) != "bool":
                continue
            done.add(table)
            for on in (True, False):
                n, k = new("n"), new("k")
                cond = BoolOp("and", (Compare("~", Ref(("answer",)), Const("on" if on else "off")),
                                      Compare("==", Ref((k,)), Const(on))))
                yield ask_row(P.SWITCH_STATE, f"ask_{'on' if on else 'off'}_{table}", n, cond,
                               (TaskParam(n, table, e.name), TaskParam(k, table, column)))
