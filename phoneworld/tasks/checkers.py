"""Judging a task: its conditions, evaluated on a machine or a phone, with a reason.

A task's success condition is a spec expression (`Task.condition`) with the task's
parameters bound: state predicates are table queries over the app's SQLite state (with
bound values only, never SQL text built from data), screen predicates compare `screen`,
answer predicates compare the agent's `answer`:

    exists(sub_settings_network_recycler_view where id == k and checked == true)
    screen == "main_cart"
    answer ~ price

One contract for every target: `check_goals(target, goals)` takes a `Machine` (one app,
in-process or inside `phoneworld serve`) or a `Phone` (several apps: each goal is judged
on its own app's machine; `screen` is only that app's screen while it is in front, and
the answer is the phone's). An answer counts when the condition holds for it as given,
or when it means the same as an expected value (`same_answer`: "June 4" for "Jun 4",
"7" for "7 products", "7:32am" for "7:32 AM"). The optional collateral-damage check says
which state outside the task's own tables and flags changed since the reset.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from phoneworld.runtime.expr import Scope, display, evaluate, holds
from phoneworld.runtime.machine import Machine
from phoneworld.runtime.phone import Phone
from phoneworld.runtime.state import State
from phoneworld.spec.ast import AppSpec, BoolOp, Compare, Expr, Ref, Value
from phoneworld.spec.emit import emit_expr
from phoneworld.spec.walk import walk
from phoneworld.tasks.schema import reads

ANSWER = Ref(("answer",))


@dataclass(frozen=True)
class CheckResult:
    """Whether a task succeeded, and why (or why not) in words."""

    success: bool
    reason: str = ""
    collateral: tuple[str, ...] = ()
    """State outside the task's own that changed (only with `collateral=True`)."""


@dataclass(frozen=True)
class Goal:
    """One app's part of a task: its condition and the parameter values bound in it."""

    app: str
    condition: Expr
    bindings: tuple[tuple[str, Value], ...] = field(default=())

    @property
    def params(self) -> dict[str, Value]:
        return dict(self.bindings)

    @property
    def wants_answer(self) -> bool:
        return "answer" in reads(self.condition)


Target = Machine | Phone


def machine_of(target: Target, app: str) -> Machine:
    """The machine that runs `app` on `target`."""
    if isinstance(target, Phone):
        if app not in target.machines:
            raise LookupError(f"no app {app!r} on this phone ({', '.join(target.machines)})")
        return target.machines[app]
    return target


def scope_for(target: Target, goal: Goal, answer: str | None = None,
              override: bool = False) -> Scope:
    """The names a goal's condition sees on `target` (see the module docstring)."""
    m = machine_of(target, goal.app)
    if isinstance(target, Phone):
        screen = m.screen if target.foreground == goal.app else ""
        given = target.answer
    else:
        screen = "" if m.left_app else m.screen
        given = m.answer
    return Scope(m.state, param=m.param, screen=screen,
                 answer=answer if override else given, bindings=goal.params)


def goal_holds(target: Target, goal: Goal) -> bool:
    """Whether `goal` holds on `target` (answers read generously, as in `check_goals`)."""
    scope = scope_for(target, goal)
    if holds(goal.condition, scope):
        return True
    return scope.answer is not None and goal.wants_answer and _read_as_expected(
        target, goal, scope) is not None


def _read_as_expected(target: Target, goal: Goal, scope: Scope) -> Value | None:
    """The expected value the given answer means, if the condition holds when read so."""
    for expected in expected_answers(goal.condition, scope):
        if same_answer(scope.answer, expected):
            read = scope_for(target, goal, display(expected), override=True)
            if holds(goal.condition, read):
                return expected  # type: ignore[return-value]
    return None


def check_goals(target: Target, goals: Sequence[Goal], *,
                collateral: bool = False) -> CheckResult:
    """Judge every goal on `target`; with `collateral`, also fail on changes to state that no
    goal names."""
    notes = []
    for g in goals:
        ok, note = _judge(target, g)
        if not ok:
            return CheckResult(False, note)
        notes.append(note)
    damage = tuple(collateral_changes(target, goals)) if collateral else ()
    if damage:
        return CheckResult(False, "collateral damage: " + "; ".join(damage), damage)
    return CheckResult(True, "; ".join(notes))


def _judge(target: Target, goal: Goal) -> tuple[bool, str]:
    scope = scope_for(target, goal)
    if holds(goal.condition, scope):
        return True, f"{_where(goal)}holds: {_short(goal.condition)}"
    given = scope.answer
    if given is not None and goal.wants_answer:
        expected = _read_as_expected(target, goal, scope)
        if expected is not None:
            return True, (f"{_where(goal)}holds: the answer {given!r} reads as "
                          f"{display(expected)!r}")
    failing = next((c for c in conjuncts(goal.condition) if not holds(c, scope)),
                   goal.condition)
    if goal.wants_answer and given is None and "answer" in reads(failing):
        return False, f"{_where(goal)}no answer given yet"
    return False, f"{_where(goal)}not yet: {_short(failing)}"


def _where(goal: Goal) -> str:
    return f"{goal.app}: " if goal.app else ""


def _short(e: Expr, limit: int = 160) -> str:
    text = emit_expr(e)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def conjuncts(e: Expr) -> list[Expr]:
    """`a and (b and c)` -> [a, b, c]; anything else -> [e]."""
    if isinstance(e, BoolOp) and e.op == "and":
        return [c for i in e.items for c in conjuncts(i)]
    return [e]


def expected_answers(e: Expr, scope: Scope) -> list[Value]:
    """The values an `answer` is compared with in `e` (`answer ~ p` -> [p's value])."""
    out: list[Value] = []
    for c in _compares(e):
        if c.op not in ("==", "~"):
            continue
        for a, b in ((c.left, c.right), (c.right, c.left)):
            if a == ANSWER and b != ANSWER:
                v = evaluate(b, scope)
                if not isinstance(v, dict) and v not in out:
                    out.append(v)  # type: ignore[arg-type]
    return out


def _compares(e: Expr) -> Iterator[Compare]:
    """The comparisons `e` joins with and/or (not those inside calls or `not`)."""
    for x in walk(e, enter=lambda x: isinstance(x, BoolOp)):
        if isinstance(x, Compare):
            yield x


# -- answers --------------------------------------------------------------------------------

_MONTHS = {m: i + 1 for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))}
_TOKEN = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|[-+]?\d[\d,]*(?:\.\d+)?|\w+",
                    re.I)
_FILLER = frozenset({"the", "a", "an", "it", "is", "its", "it's", "about", "around", "of"})


def answer_tokens(text: object) -> tuple[str, ...]:
    """An answer as canonical tokens: words case-folded and without accents, numbers as
    numbers (currency and thousands separators dropped), month names as month numbers,
    ordinals as numbers, times on a 24-hour clock."""
    s = unicodedata.normalize("NFKD", display(text))
    s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    out: list[str] = []
    for m in _TOKEN.finditer(s):
        tok = m.group(0)
        if ":" in tok:
            out.append(_clock(tok))
        elif tok[0].isdigit() or tok[0] in "+-":
            try:
                f = float(tok.replace(",", ""))
            except ValueError:
                out.append(tok)
            else:
                out.append(f"#{f:g}")
        elif re.fullmatch(r"\d+(st|nd|rd|th)", tok):
            out.append(f"#{float(tok[:-2]):g}")
        elif tok[:3] in _MONTHS and (len(tok) == 3 or tok.startswith(_FULL_MONTHS[tok[:3]])):
            out.append(f"@m{_MONTHS[tok[:3]]}")
        elif tok not in _FILLER:
            out.append(tok)
    return tuple(out)


_FULL_MONTHS = {"jan": "january", "feb": "february", "mar": "march", "apr": "april",
                "may": "may", "jun": "june", "jul": "july", "aug": "august",
                "sep": "september", "oct": "october", "nov": "november", "dec": "december"}


def _clock(tok: str) -> str:
    t = tok.replace(".", "").replace(" ", "")
    pm, am = t.endswith("pm"), t.endswith("am")
    parts = t.rstrip("apm").split(":")
    h, mnt = int(parts[0]), int(parts[1])
    if pm and h < 12:
        h += 12
    if am and h == 12:
        h = 0
    return f"@t{h:02d}:{mnt:02d}"


def same_answer(given: object, expected: object) -> bool:
    """Whether an answer means the expected value: the same canonical tokens (in any
    order), or one number, date or time that equals the expected one's single such token
    with no words beside it but some of the expected ones ("7" for "7 products"), or any
    where the expected value has none ("2 saved" for "2")."""
    a, b = answer_tokens(given), answer_tokens(expected)
    if not a or not b:
        return False
    if sorted(a) == sorted(b):
        return True
    ka, kb = _keys(a), _keys(b)
    if len(ka) == 1 and ka == kb:
        words_a = {t for t in a if not t.startswith(("#", "@m", "@t"))}
        words_b = {t for t in b if not t.startswith(("#", "@m", "@t"))}
        # Words beside the number may be left out, or added where the expected value has
        # none ("2 saved" for "2"); words added to the expected ones name something else
        # ("Pixel 7 (GVU6C)" is not "Pixel 7").
        return not words_b or words_a <= words_b
    return False


def _keys(tokens: tuple[str, ...]) -> list[str]:
    """The number/date/time tokens; a month and its day count as one date."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.startswith("@m"):
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            prv = out[-1] if out and out[-1].startswith("#") else ""
            if nxt.startswith("#"):
                out.append(f"{t}/{nxt}")
                i += 2
                continue
            if prv:
                out[-1] = f"{t}/{prv}"
                i += 1
                continue
            out.append(t)
        elif t.startswith(("#", "@t")):
            out.append(t)
        i += 1
    return out


# -- collateral damage ----------------------------------------------------------------------

@lru_cache(maxsize=32)
def _initial(spec: AppSpec) -> tuple[dict[str, list[tuple[Value, ...]]], dict[str, Value]]:
    st = State(spec)
    return st.dump(), dict(st.flags)


def collateral_changes(target: Target, goals: Sequence[Goal]) -> Iterator[str]:
    """What changed since the reset outside the tables and flags the goals name."""
    named: dict[str, set[str]] = {}
    for g in goals:
        named.setdefault(g.app, set()).update(reads(g.condition))
    machines: Mapping[str, Machine] = target.machines if isinstance(target, Phone) else \
        {target.spec.name: target}
    for app, m in machines.items():
        mine = named.get(app, set()) | named.get("", set())
        (before, flags), now = _initial(m.spec), m.state.dump()
        for table, rows in now.items():
            if table != "flags" and table not in mine and rows != before.get(table):
                yield f"{app}: table {table} changed"
        for name, value in m.state.flags.items():
            if name not in mine and flags.get(name) != value:
                yield f"{app}: flag {name} is {display(value)} (was {display(flags.get(name))})"

