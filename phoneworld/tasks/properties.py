"""The properties every generated checker is held to, and the oracle that judges them.

    case = record_case(spec, instance, demo)  # at codegen: the demo and what it achieved
    holds_complete(spec, case)                # the demo, replayed, satisfies the checker
    holds_sound(spec, case, draw)             # on a random walk, checker == oracle
    holds_deterministic(spec, case)           # same actions, same verdict, same data
    holds_reset(spec, case)                   # after a reset the checker is false again

The oracle does not read the checker's condition, let alone run it: it compares the
walk's final data with what the verified demo achieved, recorded when the tests were
generated. For each table and flag the task names, the demo's final rows differ from the
reset ones by some added and some removed rows (an update is one of each); of those, the
rows that name one of the instance's parameter values (its subject) are the goal, so a
change the demo made on its way to another row does not become part of it. The goal is
reached when the walk's table holds every added row and lacks every removed one (an
update's new and old values; a new or deleted row by the cells that name the subject, so
that a count changed on the way does not make a row another), each named flag has the
demo's value, the screen is the demo's last screen (where the task names `screen`; and
its row names the subject as the demo's did, where the task names `param`) and
the answer is the demo's (compared as text, or as numbers, or as meaning the same: "7"
for "7 products", as any answer is read). A
checker that is off by one, too lenient or too strict, disagrees with it on some walk.

Walks start with a prefix of the demo (so they get close to the goal, and every strict
prefix of a shortest plan must fail) and go on with actions drawn from the screen, and
answers drawn from the demo's, numbers one off, and other rows' values.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from phoneworld.errors import InvalidAction
from phoneworld.runtime.machine import Machine
from phoneworld.runtime.state import State
from phoneworld.spec.ast import AppSpec, Call, Ref, Task
from phoneworld.spec.walk import walk
from phoneworld.tasks.checkers import same_answer
from phoneworld.tasks.demos import Demo
from phoneworld.tasks.instances import TaskInstance
from phoneworld.tasks.schema import reads

Draw = Callable[[Any], Any]
"""hypothesis' `data.draw`."""


@dataclass(frozen=True)
class Case:
    """One task instance with its verified demo and what that demo achieved."""

    id: str
    template: str
    params: dict[str, Any]
    actions: list[dict[str, Any]]
    tables: dict[str, dict[str, list[list[Any]]]]
    """table -> {"added": rows, "removed": rows} (rows as stored, lists), and "subject"
    where the values the table's rows are looked up by are not all the parameters'."""
    flags: dict[str, Any]
    screen: str | None
    answer: str | None
    others: list[str]
    """Wrong answers worth trying: other rows' values of the answer's column."""
    param: dict[str, Any] | None = None
    """The cells of the demo's last screen's row that name the subject (where the task
    names `param`: "open Bakery" ends on Bakery's row)."""

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "template": self.template, "params": self.params,
                "actions": self.actions, "tables": self.tables, "flags": self.flags,
                "screen": self.screen, "answer": self.answer, "others": self.others,
                **({"param": self.param} if self.param is not None else {})}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Case:
        return cls(id=d["id"], template=d["template"], params=d["params"],
                   actions=d["actions"], tables=d["tables"], flags=d["flags"],
                   screen=d["screen"], answer=d["answer"], others=d["others"],
                   param=d.get("param"))


# -- recording (at codegen) -------------------------------------------------------------------

def record_case(spec: AppSpec, instance: TaskInstance, demo: Demo) -> Case:
    """What `demo` achieved, in the terms the oracle compares (see the module docstring)."""
    task = _template(spec, instance.template)
    names = reads(task.condition)
    m = Machine(spec)
    m.reset()
    before = m.state.dump()
    answer = None
    for a in demo.actions:
        m.step(a)
        if a.get("action_type") == "answer":
            answer = a.get("text")
    after = m.state.dump()
    tables = {}
    subject = _subject(instance.params)
    own = _subjects(task, instance.params)
    for t in spec.tables:
        if t.name in names and t.kind == "state":
            mine = own.get(t.name) or subject
            added, removed = _about(mine, *_diff(before[t.name], after[t.name]))
            if added or removed:
                tables[t.name] = {"added": [list(r) for r in added],
                                  "removed": [list(r) for r in removed],
                                  **({"subject": sorted(mine)} if mine != subject else {})}
    old, new = dict(before["flags"]), dict(after["flags"])
    flags = {f: new.get(f) for f in sorted(names) if f in new and new.get(f) != old.get(f)}
    others: list[str] = []
    if "answer" in names:
        cols = {p.name: (p.table, p.column) for p in task.params}
        for p in sorted(names & set(cols)):
            table, col = cols[p]
            rows = State(spec).rows(table)
            others += sorted({str(r[col]) for r in rows if r.get(col) not in (None, "")}
                             - {str(instance.params.get(p))})[:8]
    param = None
    if _names_param(task.condition) and isinstance(m.param, dict):
        param = {c: v for c, v in m.param.items() if _cell(v) in subject}
    return Case(id=instance.id, template=instance.template, params=dict(instance.params),
                actions=[dict(a) for a in demo.actions], tables=tables, flags=flags,
                screen=m.screen if "screen" in names else None, answer=answer, others=others,
                param=param)


def _names_param(e: Any) -> bool:
    """Whether a condition reads the screen's row (`param.c`)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, Ref):
            if x.path[0] == "param":
                return True
        elif x is not None and hasattr(x, "__dataclass_fields__"):
            for f in x.__dataclass_fields__:
                v = getattr(x, f)
                stack.extend(v if isinstance(v, tuple) else [v])
    return False


def _diff(before: list, after: list) -> tuple[list, list]:
    b, a = Counter(map(tuple, before)), Counter(map(tuple, after))
    return sorted((a - b).elements(), key=repr), sorted((b - a).elements(), key=repr)


def _subject(params: dict[str, Any]) -> set[str]:
    """The instance's parameter values, as the text rows are matched on (a switch's state,
    true or false, names no row: it would match every count of 1)."""
    return {_cell(v) for v in params.values() if v not in (None, "") and not isinstance(v, bool)}


def _subjects(task: Task, params: dict[str, Any]) -> dict[str, set[str]]:
    """Per table, the values of the parameters the task looks that table's rows up by
    (`exists(cart where name == n)`: n). In "Add n to the Cart and n2 to the list (at
    price k2)" the cart row's total, $3.49 like k2, names no subject of the cart: a second
    tap that makes it $6.98 leaves Whole Milk in the cart."""
    out: dict[str, set[str]] = {}
    for x in walk(task.condition):
        if isinstance(x, Call) and x.table and x.where is not None:
            used = {r.path[0] for r in walk(x.where) if isinstance(r, Ref) and len(r.path) == 1}
            out.setdefault(x.table, set()).update(
                _subject({k: v for k, v in params.items() if k in used}))
    return out


def _about(subject: set[str], added: list, removed: list) -> tuple[list, list]:
    """The changed rows that name the task's subject (a parameter value in some column):
    the demo's other changes in the same table were on its way, not its goal. Where no
    changed row names a parameter (the task says which table, not which row), all count."""
    def named(r: Sequence[Any]) -> bool:
        return any(_cell(v) in subject for v in r)

    keep_a, keep_r = [r for r in added if named(r)], [r for r in removed if named(r)]
    return (keep_a, keep_r) if keep_a or keep_r else (added, removed)


def _cell(v: Any) -> str:
    return str(int(v)) if isinstance(v, bool) else str(v)


def _template(spec: AppSpec, name: str) -> Task:
    from phoneworld.tasks.sample import templates

    task = next((t for t in templates(spec) if t.name == name), None)
    if task is None:
        raise AssertionError(f"the spec has no task template {name!r} any more; regenerate "
                             f"the tests (phoneworld build)")
    return task


# -- the oracle -------------------------------------------------------------------------------

def reached(m: Machine, case: Case) -> bool:
    """Whether `m` is where the demo got to, in everything the task names (the oracle)."""
    dump = m.state.dump()
    subject = _subject(case.params)
    for table, change in case.tables.items():
        rows = dump.get(table, [])
        mine = set(change["subject"]) if "subject" in change else subject
        if not all(_holds(rows, r, mine, change) for r in change["added"]):
            return False
        if any(_stays(rows, r, mine, change) for r in change["removed"]):
            return False
    flags = dict(dump.get("flags", []))
    if any(_stored(flags.get(f)) != _stored(v) for f, v in case.flags.items()):
        return False
    if case.screen is not None and (m.left_app or m.screen != case.screen):
        return False
    if case.param and (not isinstance(m.param, dict) or any(
            _cell(m.param.get(c)) != _cell(v) for c, v in case.param.items())):
        return False
    if case.answer is not None and (m.answer is None or (
            _plain(m.answer) != _plain(case.answer) and not same_answer(m.answer, case.answer))):
        return False
    return True


def _holds(rows: list, row: Sequence[Any], subject: set[str], change: dict) -> bool:
    """Whether the walk's `rows` hold the demo's added `row`. An update (the same key was
    removed) must show the new values. A new row is matched on the cells that name the
    subject, where it has some: what else the row holds (a quantity, a time) may change
    on the way without the row ceasing to be there. Keys are never compared: an inserted
    row's number depends on what else was inserted first."""
    cells = _naming(row, subject, words_first=False)
    if cells and not _updated(row, change["removed"]):
        return any(_agree(r, row, cells) for r in rows)
    return any(tuple(r[1:]) == tuple(row[1:]) for r in rows)


def _stays(rows: list, row: Sequence[Any], subject: set[str], change: dict) -> bool:
    """Whether the demo's removed `row` is still there. An update's old values must be
    gone; a deleted row is gone when no row names the subject the way it did (a row that
    only changed, say its quantity, is still there)."""
    cells = _naming(row, subject)
    if cells and not _updated(row, change["added"]):
        return any(_agree(r, row, cells) for r in rows)
    return any(tuple(r[1:]) == tuple(row[1:]) for r in rows if tuple(row[1:]) not in
               {tuple(a[1:]) for a in change["added"]})


def _updated(row: Sequence[Any], others: list) -> bool:
    return any(o[0] == row[0] for o in others)


def _naming(row: Sequence[Any], subject: set[str], words_first: bool = True) -> list[int]:
    """The columns (never the key) whose cell is one of the subject's values. For a
    deleted row a word beats a number, which may be a count that changed before the row
    went; a new row needs them all (the message's text and whom it was sent to)."""
    cells = [i for i, v in enumerate(row) if i and v is not None and _cell(v) in subject]
    words = [i for i in cells if not _number(_cell(row[i]))]
    return (words or cells) if words_first else cells


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _agree(a: Sequence[Any], b: Sequence[Any], cells: list[int]) -> bool:
    return all(i < len(a) and _cell(a[i]) == _cell(b[i]) for i in cells)


def _stored(v: Any) -> Any:
    return int(v) if isinstance(v, bool) else v


_CURRENCY = re.compile(r"[$€£¥₹]")


def _plain(text: str) -> Any:
    """An answer as the oracle compares it: a number when it reads as one, else lower-case
    words with the spacing and final punctuation dropped."""
    s = _CURRENCY.sub("", text).strip().casefold()
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return " ".join(s.split()).rstrip(".!?")


# -- the properties --------------------------------------------------------------------------

def instance_of(spec: AppSpec, case: Case) -> TaskInstance:
    """The case's task instance, with the spec's current condition for its template."""
    from phoneworld.tasks.instances import instance

    return instance(spec, _template(spec, case.template), case.params)


def replay(spec: AppSpec, actions: Sequence[dict[str, Any]], m: Machine | None = None
           ) -> Machine:
    m = m or Machine(spec)
    m.reset()
    for a in actions:
        m.step(a)
    return m


def holds_complete(spec: AppSpec, case: Case) -> None:
    """The recorded demo, replayed on a fresh machine, satisfies checker and oracle."""
    inst = instance_of(spec, case)
    m = replay(spec, case.actions)
    assert reached(m, case), f"{case.id}: the demo no longer reaches its goal"
    result = inst.check(m)
    assert result.success, f"{case.id}: the checker rejects the verified demo: {result.reason}"


def holds_reset(spec: AppSpec, case: Case) -> None:
    """After the demo the checker is true; after a reset it is false."""
    inst = instance_of(spec, case)
    m = replay(spec, case.actions)
    m.reset()
    result = inst.check(m)
    assert not result.success, f"{case.id}: the checker holds right after a reset"
    assert not reached(m, case), f"{case.id}: a reset does not undo the goal"


def holds_deterministic(spec: AppSpec, case: Case) -> None:
    """Two replays: the same verdict, reason and data."""
    inst = instance_of(spec, case)
    a, b = replay(spec, case.actions), replay(spec, case.actions)
    ra, rb = inst.check(a), inst.check(b)
    assert (ra.success, ra.reason) == (rb.success, rb.reason), f"{case.id}: {ra} != {rb}"
    assert a.state.dump() == b.state.dump() and a.screen == b.screen
    again = instance_of(spec, case)
    assert (again.id, again.instruction, again.params) == (inst.id, inst.instruction,
                                                           inst.params)


def holds_sound(spec: AppSpec, case: Case, draw: Draw, m: Machine | None = None,
                max_extra: int = 6) -> None:
    """On a walk (a prefix of the demo, then drawn actions), the checker says success
    exactly when the oracle does."""
    from hypothesis import strategies as st

    from phoneworld.tasks.planner import World, candidate_actions

    inst = instance_of(spec, case)
    moves = [a for a in case.actions if a.get("action_type") != "status"]
    k = draw(st.integers(0, len(moves)))
    m = replay(spec, moves[:k], m)
    world = World(m)
    walk = [*moves[:k]]
    for _ in range(draw(st.integers(0, max_extra))):
        options = candidate_actions(world) + _answers(case)
        a = draw(st.sampled_from(options))
        try:
            out = m.step(a)
        except InvalidAction:
            continue
        walk.append(a)
        if out.done:
            break
    ok = inst.check(m).success
    goal = reached(m, case)
    assert ok == goal, (
        f"{case.id}: the checker says {'success' if ok else 'failure'} but the goal was "
        f"{'' if goal else 'not '}reached ({'unsound' if ok else 'incomplete'}) after "
        f"{walk}")


def _answers(case: Case) -> list[dict[str, Any]]:
    if case.answer is None:
        return []
    texts = [case.answer, *case.others]
    n = _plain(case.answer)
    if isinstance(n, float):
        for d in (-1, 1):
            texts.append(f"{n + d:g}")
    return [{"action_type": "answer", "text": t} for t in dict.fromkeys(texts)]
