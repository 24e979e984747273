"""Shortest action sequences that make a task's checker true: a task planned in stages.

    plan(Machine(spec), [Goal("settings", turn_on_wifi, {"k": 1, ...})], show=...)
      -> [{"action_type": "click", "index": 4}, {"action_type": "click", "index": 2}]

A task is planned in stages: first look at each fact the task asks for (its subject and
the expected answer on one screen), then reach each state goal (a composite's in the
order its wording gives them), then each screen goal, each by a shortest `search` from
where the last stage ended (the actions `world` offers) and keeping what earlier stages
achieved; then answer. A single-goal task is one search, so its plan is shortest
(in the abstraction); a composite one is shortest stage by stage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from phoneworld.runtime.expr import display, evaluate, filter_rows, normalise
from phoneworld.runtime.machine import Machine
from phoneworld.runtime.phone import Phone
from phoneworld.spec.ast import AppSpec, BoolOp, Call, Compare, Const, Expr, Ref
from phoneworld.spec.names import ROOTS
from phoneworld.spec.walk import views, walk
from phoneworld.tasks.checkers import (
    Goal,
    conjuncts,
    expected_answers,
    goal_holds,
    machine_of,
    scope_for,
)
from phoneworld.tasks.schema import reads
from phoneworld.tasks.search import MAX_STATES, search
from phoneworld.tasks.world import Action, World, candidate_actions, slipped

__all__ = ["MAX_STATES", "Plan", "World", "candidate_actions", "plan", "search", "slipped"]


@dataclass(frozen=True)
class Plan:
    actions: tuple[Action, ...]
    states: int
    """How many states the search visited (all stages)."""


def plan(target: Machine | Phone, goals: Sequence[Goal], *,
         show: Sequence[tuple[str, Sequence[object]]] = (), typed: Sequence[str] = (),
         max_states: int = MAX_STATES, in_order: bool = True) -> Plan | None:
    """Actions from `target`'s current state that make every goal hold, ending with an
    answer where a goal wants one (see the module docstring); None when none is found.

    `show` lists, per app, what must be on one screen before the answer may be given
    (the question's subject; the expected answer is added), or, for an app with no
    question, what must be seen there before anything else (a fact used elsewhere);
    `typed` is text the plan may type into fields. With `in_order`, the state goals of
    a composite (`a and b`) are reached one after the other, as its wording asks ("first
    a; after that, b"); else in one search, whichever order is shorter."""
    facts = [_holds(Goal(g.app, c, g.bindings)) for g in goals
             for c in conjuncts(g.condition) if "answer" not in reads(c)]
    facts += [_counts(g, call) for g in goals for call in _table_calls(g.condition)]
    world = World(target, facts)
    actions: list[Action] = []
    visited = 0
    answer: str | None = None
    stages: list[tuple[str, Callable[[World], bool]]] = []
    for g in goals:
        if not g.wants_answer:
            continue
        expected = expected_answers(g.condition, scope_for(target, g))
        if len(expected) == 0 or answer is not None:
            return None
        answer = display(expected[0])
        counted = _counted(g.condition)
        if counted is not None:  # a count is seen as the rows it counts, on their row's page
            stages.append((g.app, _sees_rows(g.app, counted, scope_for(target, g))))
            continue
        must = [*next((list(v) for app, v in show if app == g.app), []), expected[0]]
        on: set[str] = set()
        placed = _placed(g.condition)
        if placed is not None and (last := _placed_row(placed, scope_for(target, g))):
            must[-1] = last  # a place in a list is counted down to its row: seen, not read
            on = _listing(world.machines()[g.app].spec, placed.table)
        elif (at := _at_place(g.condition)) is not None:  # the row at a place: read there
            on = _listing(world.machines()[g.app].spec, at.table)
        stages.append((g.app, _sees(g.app, must, on)))
    asked = {g.app for g in goals if g.wants_answer}
    stages = [(app, _sees(app, list(v))) for app, v in show if app not in asked and v] + stages
    kept: list[Callable[[World], bool]] = []
    for part in ("state", "screen"):
        for g in goals:
            pieces = [g.condition]
            if in_order and part == "state" and isinstance(g.condition, BoolOp) and \
                    g.condition.op == "and":
                pieces = list(g.condition.items)
            for piece in pieces:
                rest = [c for c in conjuncts(piece)
                        if "answer" not in reads(c) and _is_screen(c) == (part == "screen")]
                if rest:
                    stages.append((g.app, _holds(Goal(g.app, _and(rest), g.bindings))))
    for app, stage in stages:
        done = list(kept)

        def reached(w: World, stage=stage, done=done) -> bool:
            return stage(w) and all(k(w) for k in done)

        apps = [app] if world.phone is not None else []
        found = search(world, reached, typed=typed, apps=apps, max_states=max_states)
        if found is None:
            return None
        steps, n = found
        actions += steps
        visited += n
        if stage.__name__ != "sees":
            kept.append(stage)
    if answer is not None:
        world.step({"action_type": "answer", "text": answer})
        actions.append({"action_type": "answer", "text": answer})
    if not all(goal_holds(target, g) for g in goals):
        return None
    return Plan(tuple(actions), visited)


def _sees(app: str, values: Sequence[object], on: set[str] | frozenset[str] = frozenset()
          ) -> Callable[[World], bool]:
    """Whether `app`'s screen (one of `on`, where given) shows every one of `values`."""
    want = [normalise(v) for v in values]

    def sees(w: World) -> bool:
        if w.foreground != app or on and w.machines()[app].screen not in on:
            return False
        shown = w.texts()
        return all(v in shown for v in want)
    return sees


def _counted(e: Expr) -> Call | None:
    """The `count(t where ctx == k)` an answer is compared with (`counts`), or None."""
    for c in conjuncts(e):
        if isinstance(c, Compare) and c.left == Ref(("answer",)) and \
                isinstance(c.right, Call) and c.right.func == "count" and \
                isinstance(c.right.where, Compare) and c.right.where.left == Ref(("ctx",)) \
                and isinstance(c.right.where.right, Const):
            return c.right
    return None


def _listing(spec: AppSpec, table: str | None) -> set[str]:
    """The screens of `spec` whose lists show rows of `table`: where a place in it is
    counted (the row's name on another screen, a chat beside a contact, is not it)."""
    return {s.name for s in spec.screens if table is not None and any(
        v.items is not None and v.items.table == table for v in views(s.root))}


def _placed(e: Expr) -> Call | None:
    """The `count(t where id <= k)` an answer is compared with (the place of row `k` in
    its list: `positions`), or None where the answer is no such count."""
    return next((c.right for c in conjuncts(e) if isinstance(c, Compare) and
                 c.left == Ref(("answer",)) and _up_to(c.right)), None)


def _at_place(e: Expr) -> Call | None:
    """The `count(t where id <= k)` a parameter is compared with (`k == ...`: the place
    of the row whose name is the answer, `positions`), or None."""
    return next((c.right for c in conjuncts(e) if isinstance(c, Compare) and c.op == "=="
                 and isinstance(c.left, Ref) and _up_to(c.right)
                 and c.right.where.right == c.left), None)  # type: ignore[union-attr]


def _up_to(e: Expr) -> bool:
    """Whether `e` counts a table's rows up to a key: `count(t where id <= k)`."""
    return isinstance(e, Call) and e.func == "count" and isinstance(e.where, Compare) and \
        e.where.op == "<=" and e.where.left == Ref(("id",))


def _placed_row(call: Call, scope) -> str | None:
    """The first text of the row a `_placed` count ends on, if any."""
    rows = filter_rows(call.table, call.where, scope)
    return next((v for k, v in rows[-1].items() if k not in ("id", "ctx") and
                 isinstance(v, str) and v.strip()), None) if rows else None


def _sees_rows(app: str, call: Call, scope) -> Callable[[World], bool]:
    """On a screen opened on row `k` of the call's `ctx == k`, with every row counted in
    view (their first texts): where a person counts them."""
    key = call.where.right.value  # type: ignore[union-attr]
    rows = filter_rows(call.table, call.where, scope)
    want = [normalise(next((v for c, v in r.items() if c not in ("id", "ctx") and
                            isinstance(v, str) and v.strip()), "")) for r in rows]

    def sees(w: World) -> bool:
        m = w.machines().get(app)
        if w.foreground != app or m is None or not isinstance(m.param, dict) or \
                m.param.get("id") != key:
            return False
        shown = w.texts()
        return all(v in shown for v in want)
    sees.__name__ = "sees"
    return sees


def _holds(goal: Goal) -> Callable[[World], bool]:
    def holds_(w: World) -> bool:
        return goal_holds(w.target, goal)
    return _per_version(goal, goal.condition, holds_)


def _table_calls(e: Expr) -> list[Call]:
    """The `count(...)`/`exists(...)` calls in a condition."""
    return [x for x in walk(e, enter=lambda x: not isinstance(x, Call))
            if isinstance(x, Call) and x.table is not None]


def _counts(goal: Goal, call: Call) -> Callable[[World], Any]:
    """How many rows a goal's table call matches: progress towards a goal ("two rows
    to remove, one left") that its truth alone does not show."""
    count = Call("count", table=call.table, where=call.where)

    def matching(w: World) -> Any:
        return evaluate(count, scope_for(w.target, goal))
    return _per_version(goal, count, matching)


def _per_version(goal: Goal, e: Expr, f: Callable[[World], Any]) -> Callable[[World], Any]:
    """`f`, remembered per data version of the goal's app (`State.version`: the same
    number, the same rows and flags) when `e` reads only tables, flags and the task's
    parameters. A search keys every state it meets by its facts, and most of them are
    counts over tables that few actions change."""
    if not _data_only(e):
        return f
    memo: dict[int, Any] = {}

    def per_version(w: World) -> Any:
        v = machine_of(w.target, goal.app).state.version
        if v not in memo:
            memo[v] = f(w)
        return memo[v]
    per_version.__name__ = f.__name__
    return per_version


def _data_only(e: Expr) -> bool:
    """Whether `e` names no screen, parameter, field, list item or answer (`ROOTS`)."""
    return not any(isinstance(x, Ref) and x.path[0] in ROOTS for x in walk(e))


def _is_screen(e: Expr) -> bool:
    return "screen" in reads(e)


def _and(items: list[Expr]) -> Expr:
    return items[0] if len(items) == 1 else BoolOp("and", tuple(items))
