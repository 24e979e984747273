"""Which cells of an app's start state a question reads: two questions that read one cell
for one answer ask the same thing, however they are worded.

    onelist: "What is written under “Theme” on Settings?" (a row's text, answered
    "Auto (Android OS)") and "What is Theme set to?" (the option the Theme dialog ticks,
    which it also writes into the row) both read the summary cell of the Theme row:
        answer_cells(spec, read_cells, i) == answer_cells(spec, ask_selected, j)
            == {("main_personalization_recycler_view", 2, "summary")}
    shopping: "What is the total of Bananas?" (a cart row's total) and "How much does
    Bananas cost?" (a product row's price) both answer "$1.29", from two cells: two
    questions.

A question is about the rows its shown parameters were drawn from (all parameters of one
table come from one row); one with no parameters (a heading written into its wording) is
about the rows that hold a text it quotes. Of those rows, it reads the cells that hold its
answer at the start, not the ones it names.
"""

from __future__ import annotations

import re
from functools import lru_cache

from phoneworld.runtime.expr import normalise
from phoneworld.spec.ast import AppSpec, Compare, Const, Ref, Task, Value
from phoneworld.tasks.checkers import conjuncts
from phoneworld.tasks.instances import TaskInstance, holes_of, start_rows

Cell = tuple[str, object, str]
"""(table, the row's key, column)."""

_QUOTED = re.compile(r"“([^“”]+)”")
_NOT_SHOWN = frozenset({"id", "ctx"})


def answer_cells(spec: AppSpec, task: Task, inst: TaskInstance) -> frozenset[Cell]:
    """The cells of the start state a one-goal question reads (see the module docstring);
    empty for any other instance, or one whose answer is no single text. Kept per app
    and instance id (which names the template and the values)."""
    known = _known(spec)
    if inst.id not in known:
        known[inst.id] = _cells(spec, task, inst)
    return known[inst.id]


@lru_cache(maxsize=32)
def _known(spec: AppSpec) -> dict[str, frozenset[Cell]]:
    return {}


def _cells(spec: AppSpec, task: Task, inst: TaskInstance) -> frozenset[Cell]:
    answer = _answer(inst)
    if answer is None or inst.kind != "information" or len(inst.goals) != 1:
        return frozenset()
    rows = start_rows(spec)
    shown = holes_of(task)
    named: set[object] = set()
    about: list[tuple[str, dict[str, Value]]] = []
    by_table: dict[str, list[tuple[str, str]]] = {}
    for p in task.params:
        by_table.setdefault(p.table, []).append((p.name, p.column))
    for table, cols in by_table.items():
        if not any(name in shown for name, _ in cols):
            continue  # (the options a question reads the ticked one of: not named)
        named |= {normalise(inst.params[n]) for n, _ in cols if n in shown and n in inst.params}
        about += [(table, r) for r in rows.get(table, [])
                  if all(normalise(r.get(c)) == normalise(inst.params.get(n))
                         for n, c in cols if n in inst.params)]
    if not task.params:
        named = {normalise(q) for q in _QUOTED.findall(inst.instruction)}
        about = [(t, r) for t, rs in rows.items() for r in rs
                 if any(normalise(v) in named for c, v in r.items()
                        if c not in _NOT_SHOWN and isinstance(v, str))]
    want = normalise(answer)
    return frozenset((t, next(iter(r.values())), c) for t, r in about for c, v in r.items()
                     if c not in _NOT_SHOWN and v is not None and not isinstance(v, bool)
                     and normalise(v) == want and want not in named)


def _answer(inst: TaskInstance) -> Value | None:
    """The one value an instance's `answer` is compared with: a parameter's or a text."""
    found: list[Value] = []
    for g in inst.goals:
        values = dict(g.params)
        for c in conjuncts(g.condition):
            if isinstance(c, Compare) and Ref(("answer",)) in (c.left, c.right):
                other = c.right if c.left == Ref(("answer",)) else c.left
                if isinstance(other, Const) and isinstance(other.value, str):
                    found.append(other.value)
                elif isinstance(other, Ref) and len(other.path) == 1 and \
                        other.path[0] in values:
                    found.append(values[other.path[0]])
                else:
                    return None
    return found[0] if len(found) == 1 else None
