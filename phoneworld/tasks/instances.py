"""Task instances: templates with their parameters drawn from real rows.

    draw(spec, ask_price) ->
      [TaskInstance(id="shopping/ask_product_price_category_product_list#5c1f0a9e",
                    kind="information", instruction="How much does Oat Milk cost?",
                    apps=("shopping",), params={"n": "Oat Milk", "v": "$4.29"}, ...), ...]

Parameters of a template that come from one table take their values from one row, a row
some list of the app shows (`reach`) where its table is listed at all. A drawing is kept
when every value is there (not empty, not cut short with "…"), when the goal does not
already hold after a reset (each half of a composite on its own), when what it shows
calls its rows by words (`_calls`: no code, no text the recordings typed), when no other
row gives the same instruction a different goal (two "Wi-Fi" rows with different keys:
neither is drawn), and when a person can see what the task is about (`reach`).

An id is `app/template#hash` (the hash of the drawn values), so it names the same
instance for the same spec whatever the seed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from phoneworld.runtime.expr import display, normalise
from phoneworld.runtime.machine import Machine
from phoneworld.runtime.phone import Phone
from phoneworld.runtime.state import State
from phoneworld.spec.ast import (
    PICKED,
    TYPED,
    AppSpec,
    BoolOp,
    Call,
    Compare,
    Const,
    Expr,
    Not,
    Ref,
    Task,
    Value,
)
from phoneworld.spec.walk import walk
from phoneworld.tasks import wording as W
from phoneworld.tasks.checkers import CheckResult, Goal, check_goals, conjuncts, goal_holds
from phoneworld.tasks.composite import goal_params, two_rows
from phoneworld.tasks.labels import readable, web_row_names
from phoneworld.tasks.reach import Reach, explore
from phoneworld.tasks.schema import read_schema, reads

KINDS = ("state", "information", "navigation", "composite", "cross_app")
MAX_DRAWS = 20_000
"""Drawings of one template that are looked at (rows of each table, multiplied)."""


@dataclass(frozen=True)
class TaskInstance:
    """One task to do: an instruction, the apps it needs, and its checker."""

    id: str
    kind: str
    instruction: str
    apps: tuple[str, ...]
    params: dict[str, Value] = field(hash=False)
    template: str
    goals: tuple[Goal, ...] = field(default=(), repr=False)
    show: tuple[tuple[str, tuple[Value, ...]], ...] = field(default=(), repr=False)
    """Per app, what the question is about (must be on screen with the answer)."""
    typed: tuple[str, ...] = field(default=(), repr=False)
    """Text the task has to type (a message to send)."""

    def check(self, target: Machine | Phone, *, collateral: bool = False) -> CheckResult:
        """Whether the task is done on `target` (a `Machine` or a `Phone`), and why."""
        for g in self.goals:
            if isinstance(target, Machine) and target.spec.name != g.app:
                return CheckResult(False, f"this task needs app {g.app!r}; the machine runs "
                                          f"{target.spec.name!r} (use a Phone)")
            if isinstance(target, Phone) and g.app not in target.machines:
                return CheckResult(False, f"this task needs app {g.app!r}, which this phone "
                                          f"does not have")
        return check_goals(target, self.goals, collateral=collateral)

    def as_dict(self) -> dict[str, Any]:
        """The instance as JSON (what `phoneworld tasks --json` prints)."""
        return {"id": self.id, "kind": self.kind, "instruction": self.instruction,
                "apps": list(self.apps), "template": self.template, "params": self.params}

    def queries(self, specs: Sequence[AppSpec]) -> list[dict[str, Any]]:
        """The SQL form of the task's state checks, `{"app", "sql", "values"}` each (values
        are bound, never part of the SQL text); answer and screen checks have none."""
        from phoneworld.tasks.sql import state_queries

        by_name = {s.name: s for s in specs}
        return [q for g in self.goals
                for q in state_queries(g.app, g.condition, g.params, by_name[g.app])]


# -- drawing -----------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def start_rows(spec: AppSpec) -> dict[str, list[dict[str, Value]]]:
    """Each table's rows after a reset, as column -> value (the key first)."""
    st = State(spec)
    return {t.name: [dict(r) for r in st.rows(t.name)] for t in spec.tables}


@lru_cache(maxsize=32)
def fresh_machine(spec: AppSpec) -> Machine:
    """A machine of `spec` just after a reset, to judge goals on (do not step it)."""
    m = Machine(spec)
    m.reset()
    return m


def draw(spec: AppSpec, task: Task) -> list[TaskInstance]:
    """Every instance of `task` worth doing, in row order (see the module docstring)."""
    return list(_draw(_bare(spec), task))


@lru_cache(maxsize=32)
def _bare(spec: AppSpec) -> AppSpec:
    """`spec` without its task section: what drawing depends on (one cache for both)."""
    return dataclasses.replace(spec, tasks=()) if spec.tasks else spec


@lru_cache(maxsize=1024)
def _draw(spec: AppSpec, task: Task) -> tuple[TaskInstance, ...]:
    """`draw`, cached per spec and template."""
    return tuple(_drawings(spec, task, None))


def why_not(spec: AppSpec, task: Task) -> Counter[str]:
    """Why drawings of `task` were left out, by the rule that left each out (a row no
    list shows, a value that is empty or no word, a goal that already holds, a subject
    never seen with its answer or a screen never reached, a goal nothing sets, the same
    words for other rows): what a reader of `benchmarks/halves.py` sees of a template
    that yields nothing."""
    why: Counter[str] = Counter()
    list(_drawings(_bare(spec), task, why))
    return why


def _drawings(spec: AppSpec, task: Task, why: Counter[str] | None) -> Iterator[TaskInstance]:
    """The instances of `task` (`draw`); each drawing left out is counted in `why`."""
    def drop(reason: str) -> None:
        if why is not None:
            why[reason] += 1

    rows = start_rows(spec)
    reach = explore(spec)
    groups: dict[str, list[tuple[str, str]]] = {}
    tables = row_of(task)
    for p in task.params:
        groups.setdefault(tables[p.name], []).append((p.name, p.column))
    visible = holes_of(task)
    echoes = _echoes(spec)
    choices = []
    for row, cols in groups.items():
        table, options = _table(row), []
        for r in rows.get(table, []):
            if not reach.shown(table, next(iter(r.values()))):
                drop("row no list shows")
                continue  # a row no list shows is in no person's app: never drawn
            b = {name: r.get(col) for name, col in cols}
            if all(isinstance(v, bool) or readable(v) for v in b.values()) and \
                    (table.endswith(TYPED) or all(_calls(b[k], echoes) for k in b
                                                  if k in visible)):
                options.append((next(iter(r.values())), b))
            else:
                drop("value empty, cut or no word")
        choices.append([(row, key, b, words, tuple(w for w in words if w[0] in visible))
                        for words, (key, b) in {_words(b): (key, b) for key, b in options}
                        .items()])
    if not all(choices):
        drop("no row to draw")
    # A conjunct that reads the parameters alone (`c == true`: the row's switch is on)
    # says which rows the template is for: it holds or fails whatever is done.
    content = {t.name: {c.name for c in t.columns} for t in spec.tables if t.kind == "content"}
    fixed = [c for c in conjuncts(task.condition) if _of_params(c, set(tables), content)]
    # What does not depend on the drawn values is judged once, before the drawings.
    holds_now = _fresh_judge(spec)
    halves = _halves(task)
    seen = _seer(task, visible, tables, reach)
    settable = _settable(spec, task, reach)
    form = _form(spec, task, visible, tables, frozenset(tables))
    found: dict[tuple, list[tuple[dict[str, Value], tuple]]] = {}  # with their words
    meant: dict[tuple, set[tuple]] = {}  # the shown words -> every binding they could mean
    for combo in itertools.islice(itertools.product(*choices), MAX_DRAWS):
        if len(combo) == 1:
            _, _, b, words, shown = combo[0]
        else:
            drawn = [(_table(row), key) for row, key, *_ in combo]
            if len(set(drawn)) < len(drawn):
                drop("the same row for both goals")
                continue  # a composite's two goals on one table: two rows (`composite`)
            b = {}
            for part in combo:
                b.update(part[2])
            words = tuple(sorted(w for part in combo for w in part[3]))
            shown = tuple(sorted(w for part in combo for w in part[4]))
        if not all(holds_now(c, b) for c in fixed):
            drop("row not of the template")
            continue
        meant.setdefault(shown, set()).add(words)
        if any(holds_now(h, b) for h in halves):
            drop("goal holds after a reset")
            continue
        if not seen(b):
            drop("subject not seen with its answer, or its screen not reached")
            continue
        if not settable:
            drop("nothing reached sets the goal")
            continue
        found.setdefault(shown, []).append((b, words))
    for shown, options in found.items():
        # The same words for different rows ("Mom" twice in a list) are ambiguous, even
        # when the other row's goal already holds or is out of sight.
        if len(options) == 1 and len(meant[shown]) == 1:
            b, words = options[0]
            yield _instance(spec, task, b, form, words)
        else:
            drop("the same words for other rows")


def _fresh_judge(spec: AppSpec) -> Callable[[Expr, dict[str, Value]], bool]:
    """`judge(c, b)`: whether condition `c` with parameters `b` holds just after a reset
    (`fresh_machine`), judged once per value of the parameters `c` names (a composite's
    half holds or not whatever row the other half draws). For one drawing's conditions:
    the memo is keyed by the condition's `id`."""
    m = fresh_machine(spec)
    names: dict[int, tuple[str, ...]] = {}
    memo: dict[tuple, bool] = {}

    def judge(c: Expr, b: dict[str, Value]) -> bool:
        named = names.get(id(c))
        if named is None:
            named = names[id(c)] = tuple(sorted({x.path[0] for x in walk(c)
                                                 if isinstance(x, Ref) and len(x.path) == 1}))
        key = (id(c), *((type(b[n]), b[n]) if n in b else () for n in named))
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = goal_holds(m, Goal(spec.name, c, tuple(b.items())))
        return hit
    return judge


def row_of(task: Task) -> dict[str, str]:
    """Parameter -> the row it is drawn from: its table, one row per table, but for a
    table both goals of a composite draw from (`composite.two_rows`): a row per goal,
    `<goal>:<table>` ("1:settings" for the second), two different rows."""
    split = two_rows(task)
    if not split:
        return {p.name: p.table for p in task.params}
    out = {}
    for side, params in enumerate(goal_params(task)):
        for p in params:
            out[p.name] = f"{side}:{p.table}" if p.table in split else p.table
    return out


def _table(row: str) -> str:
    """The table of a row `row_of` names."""
    return row.split(":", 1)[-1]


def _calls(v: Value, echoes: frozenset[str]) -> bool:
    """Whether a task may call a row by a value it shows, one `labels.readable` already
    (no code: activitylauncher's ".TrampolineActivity"): no text the recordings typed,
    shown back (uber's search for "Humanoid" lists a place "Humanoid" under the field
    that says it: "what is written under Humanoid?" points at both), and no text of
    several lines: a paragraph names nothing a person would read out ("Open the entry
    “Your acceptance rate is … 30 days.⏎Uber Promo trips are …”"), though it may be an
    answer. Text to type is drawn as typed."""
    said = display(v).strip()
    return said.casefold() not in echoes and "\n" not in said


def typed_texts(spec: AppSpec) -> dict[str, frozenset[str]]:
    """Each table of texts typed into a field (`..._typed`) -> the texts."""
    return {t.name: frozenset(str(v) for r in t.rows for v in r[1:] if isinstance(v, str))
            for t in spec.tables if t.name.endswith(TYPED)}


@lru_cache(maxsize=32)
def _echoes(spec: AppSpec) -> frozenset[str]:
    """Every text the recordings typed, casefolded (`_calls`), but a picker's values
    (`<flag>_picked_typed`, uber's "2:30 PM" for “Arrive by”): options the app offers, not
    words a person made up, that a row may show as its own (an appointment at 2:30 PM)."""
    typed = typed_texts(spec)
    picked = {name.removesuffix(PICKED + TYPED) + TYPED: texts
              for name, texts in typed.items() if name.endswith(PICKED + TYPED)}
    return frozenset(t.strip().casefold() for name, texts in typed.items()
                     if not name.endswith(PICKED + TYPED)
                     for t in texts - picked.get(name, frozenset()) if t.strip())


def _of_params(e: Expr, params: set[str], content: dict[str, set[str]]) -> bool:
    """Whether `e` reads task parameters and nothing else (no state, screen or answer)
    but content, which no action changes (`exists(files where ctx == k)`: the folder
    `k` lists some)."""
    refs = [x for x in walk(e) if isinstance(x, Ref)]
    calls = [x for x in walk(e) if isinstance(x, Call)]
    if not refs or not all(x.table in content for x in calls):
        return False
    columns = set().union(*(content[x.table] for x in calls)) if calls else set()
    return any(len(x.path) == 1 and x.path[0] in params for x in refs) and \
        all(len(x.path) == 1 and (x.path[0] in params or x.path[0] in columns) for x in refs)


def _halves(task: Task) -> list[Expr]:
    """A composite's two goals (each must not hold after a reset); else the condition."""
    c = task.condition
    if task.kind == "composite" and isinstance(c, BoolOp) and c.op == "and":
        return list(c.items)
    return [c]


def holes_of(task: Task) -> set[str]:
    """The parameters a template's wording shows (in any of its variants)."""
    return {h for v in W.variants(task.instruction) for h in W.holes(v)}


def _words(b: dict[str, Value]) -> tuple[tuple[str, str], ...]:
    """The drawn values as a person reads them, in name order: what tells drawings apart,
    and (as JSON) what an instance's id hashes."""
    return tuple(sorted((k, display(v)) for k, v in b.items()))


def _subject(answer_params: set[str], visible: set[str], tables: dict[str, str]) -> list[str]:
    """The shown parameters a question is about: those from its answer's row."""
    rows = {tables[p] for p in answer_params}
    return [p for p in sorted(visible) if tables.get(p) in rows]


def _places(task: Task) -> set[str]:
    """The parameters that draw a row's key: in the instruction, its place in a list
    (`positions`), counted by a person, shown by no screen."""
    return {p.name for p in task.params if p.column == "id"}


def _seer(task: Task, visible: set[str], tables: dict[str, str], reach: Reach
          ) -> Callable[[dict[str, Value]], bool]:
    """`seen(b)`: whether a person can see what the task is about with parameters `b`:
    its screens are reached, each question's subject shares a screen with the answer,
    other shown values appear; a row's place (`_places`) is counted, not shown. What the
    template alone decides is judged here, once."""
    places = _places(task)
    visible = visible - places
    screens_reached = True
    asked: list[tuple[list[str], list[Value]]] = []  # (the parameters, the constants)
    for c in conjuncts(task.condition):
        r = reads(c)
        if "screen" in r:
            for x in (c.left, c.right) if isinstance(c, Compare) else ():
                if isinstance(x, Const) and isinstance(x.value, str) and \
                        x.value not in reach.screens:
                    screens_reached = False
        if "answer" in r:
            answers = {p for p in r if p in tables and p not in places}
            asked.append(([*_subject(answers, visible, tables), *sorted(answers)],
                          [x.value for x in ((c.left, c.right) if isinstance(c, Compare)
                                             else ()) if isinstance(x, Const)]))
    halves = [_row_checks(conjuncts(half), set(tables)) for half in _halves(task)]
    # Text to type need not be on any screen yet: it was typed in the recordings.
    shown = [p for p in sorted(visible) if not tables.get(p, "").endswith(TYPED)]
    everything = reach.everything
    together: dict[frozenset, bool] = {}

    def seen(b: dict[str, Value]) -> bool:
        if not screens_reached:
            return False
        for params, consts in asked:
            want = frozenset(normalise(v) for v in [*(b[p] for p in params), *consts])
            ok = together.get(want)
            if ok is None:
                ok = together[want] = any(want <= v for v in reach.views)
            if not ok:
                return False
        for screens, params in halves:
            for p in params:
                value = normalise(b[p])
                if not any((s, value) in reach.rows for s in screens):
                    return False
        return all(normalise(b[p]) in everything for p in shown if isinstance(b.get(p), str))
    return seen


def _settable(spec: AppSpec, task: Task, reach: Reach) -> bool:
    """Whether every flag a goal reads is changed by a transition of a screen a person
    can get to (a field submitted on a screen no walk reaches cannot be)."""
    setters = _setters(spec)
    return all(setters.get(f, frozenset()) & reach.screens
               for f in reads(task.condition) if f in setters)


@lru_cache(maxsize=32)
def _setters(spec: AppSpec) -> dict[str, frozenset[str]]:
    """Flag -> the screens whose transitions change it."""
    out: dict[str, set[str]] = {f.name: set() for f in spec.flags}
    for t in spec.transitions:
        for e in t.effects:
            if e.op in ("toggle", "set") and e.target in out:
                out[e.target].add(t.screen)
    return {f: frozenset(s) for f, s in out.items()}


def _row_checks(conds: list[Expr], params: set[str]) -> tuple[list[str], list[str]]:
    """(the screens, the parameters) of a goal that a screen show a row (`screen == "s"
    and param.c == p`): the row `p` names must be one the walk saw on one of the screens
    (`_seer`)."""
    screens = [x.value for c in conds if isinstance(c, Compare) and "screen" in reads(c)
               for x in (c.left, c.right) if isinstance(x, Const)]
    out = []
    for c in conds:
        if not isinstance(c, Compare):
            continue
        for x, y in ((c.left, c.right), (c.right, c.left)):
            if isinstance(x, Ref) and x.path[0] == "param" and isinstance(y, Ref) and \
                    y.path[0] in params:
                out.append(y.path[0])
    return screens, out


def instance(spec: AppSpec, task: Task, bindings: dict[str, Value]) -> TaskInstance:
    """The instance of `task` with these parameter values (no checks: see `draw`)."""
    b = dict(bindings)
    return _instance(spec, task, b, _form(spec, task, holes_of(task), row_of(task),
                                          frozenset(b)))


@dataclass(frozen=True)
class _Form:
    """What a template's instances carry besides their values, the same for every drawing
    with these parameter names: the parameters a question is about (`show`), those typed."""

    asks: bool
    subject: tuple[str, ...]
    typed: tuple[str, ...]


def _form(spec: AppSpec, task: Task, visible: set[str], tables: dict[str, str],
          names: frozenset[str]) -> _Form:
    answers = {p for c in conjuncts(task.condition) if "answer" in reads(c)
               for p in reads(c) if p in names}
    subject = tuple(_subject(answers, visible - _places(task), tables))
    typed = tuple(p for p in sorted(_typed(spec, task.condition) | {
        p for p, t in tables.items() if t.endswith(TYPED)}) if p in names)
    return _Form(bool(answers), subject, typed)


def _instance(spec: AppSpec, task: Task, b: dict[str, Value], form: _Form,
              words: tuple[tuple[str, str], ...] | None = None) -> TaskInstance:
    """The instance of `task` with values `b` (`words`: `_words(b)`, where known)."""
    words = _words(b) if words is None else words
    digest = hashlib.sha1(json.dumps(words, ensure_ascii=False).encode()).hexdigest()[:8]
    iid = f"{spec.name}/{task.name}#{digest}"
    # A web row is called as a person sees it, its icons' names left out; its id and its
    # checker keep the text the app holds.
    said = web_row_names(spec)
    text = W.pick_filled(task.instruction, iid, {k: said.get(v.strip(), v) for k, v in words})
    show = tuple(b[p] for p in form.subject)
    typed = tuple(display(b[p]) for p in form.typed)
    return TaskInstance(id=iid, kind=task.kind, instruction=text, apps=(spec.name,),
                        params=dict(b), template=task.name,
                        goals=(Goal(spec.name, task.condition, tuple(b.items())),),
                        show=((spec.name, show),) if form.asks else (), typed=typed)


def _typed(spec: AppSpec, condition: Expr) -> set[str]:
    """The parameters a condition compares with a column that typed text fills
    (`exists(message where message_text == m)`, `message_text = input.compose`)."""
    fed = {(i.table, col) for i in read_schema(spec).inserts for col, _ in i.inputs}
    out: set[str] = set()
    for e in walk(condition, enter=lambda x: isinstance(x, (BoolOp, Not, Compare))):
        if isinstance(e, Call) and e.table is not None and e.where is not None:
            for c in conjuncts(e.where):
                if isinstance(c, Compare) and c.op in ("==", "~"):
                    for a, b in ((c.left, c.right), (c.right, c.left)):
                        if isinstance(a, Ref) and isinstance(b, Ref) and \
                                (e.table, a.path[0]) in fed:
                            out.add(b.path[0])
    return out
