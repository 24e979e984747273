"""Composite templates: two goals of one app asked at once, and the goals they are made of.

    Base(turn_on_wifi, clauses=("turn on Wi-Fi", ...), touches="wifi", screen="network")
    + Base(ask_summary_display, asks="the summary of {n}", touches="answer")
      ->  task turn_on_wifi__ask_summary_display composite
              "Turn on Wi-Fi, then tell me the summary of {n}. | ..."
              { wifi == true and answer ~ v }

Pairs are state and question, state and screen, two states, question and screen (the
question first), never two goals about one thing; taken round-robin from each sort, the
pairs on one screen or one step apart first (see `composites`). Two goals on rows of one
table are two things where each draws its own row ("Turn off “Enable privileged mode”,
then tell me what is written under Language": two rows of one settings list, drawn
apart: `goal_params`), never the same row twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from phoneworld.spec.ast import AppSpec, BoolOp, Call, Expr, Not, Ref, Task, TaskParam
from phoneworld.spec.names import ROOTS
from phoneworld.spec.parse import keywords
from phoneworld.spec.walk import map_expr, walk
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.schema import reads
from phoneworld.tasks.sentences import tidy


@dataclass(frozen=True)
class Base:
    """A template with the pieces a composite needs: its clauses ("turn on {n}") or, for a
    question, the thing asked for ("the price of {n}"), and what it changes."""

    task: Task
    clauses: tuple[str, ...] = ()
    asks: str = ""
    touches: str = ""
    screen: str = ""
    """The screen a state change is made on, or a navigation reaches."""
    label: str = ""
    """What a state change is about, in the app's words (two switches that say the same
    make no composite)."""
    alone: bool = False
    """A goal too long to join with another (a whole form to fill in)."""
    about: str = ""
    """The table a question with no parameters reads (`browse.Template.about`)."""


def composites(bases: list[Base], names: Names, labels: dict[str, tuple[str, str]],
                paths: frozenset[tuple[str, str]] = frozenset(),
                typed: dict[str, frozenset[str]] | None = None,
                over: dict[str, str] | None = None,
                entered: frozenset[str] | None = None) -> Iterator[Task]:
    """Pairs of goals: state and question, state and screen, two states, question and
    screen (not one asked on that screen: opening it is then no second goal); taken
    round-robin from each sort so that different templates appear, in each sort first
    the pairs whose goals share a screen or a step between screens (`paths`): a person
    asks for two things on one page, or on one way through the app; pairs of two rows of
    one table after all others. A change and then a screen only where another screen
    leads to it (`entered`, all where None): not the page the app opened on that nothing
    opens again (`entered_screens`)."""
    state = [b for b in bases if b.task.kind == "state" and not b.alone]
    info = [b for b in bases if b.task.kind == "information"]
    nav = [b for b in bases if b.task.kind == "navigation"]
    # Not a change of a row and then its own page ("Set Theme to Light Theme, then open
    # Theme": the dialog the choice was just made in). A row added to a list and another
    # row of it opened are two things ("Add “Milk” with the “Add” box, then open the
    # entry “Swipe an item left to delete it” for editing"): the added text is no row
    # the page is drawn from.
    away = [(a, b) for a, b in _diagonal(state, nav) if a.screen != b.screen and
            not _same_rows(a, b) and (entered is None or b.screen in entered)]
    # A change and a question on one table ask about the row just changed (parameters
    # from one table are one row): "Turn off X, then tell me the summary of X".
    sorts = [[(a, b) for a, b in _diagonal(state, info) if not _same_table(a, b) and
              not (a.label and a.label == b.label)], away,
             [(a, b) for i, a in enumerate(state) for b in state[i + 1:]
              if a.touches != b.touches and not (a.label and a.label == b.label)
              and not _type_alike(a, b, typed or {})],
             # The question first: it is asked on another screen than the one to end
             # on ("Open QQ互联, then tell me what is under “会员中心”" is undone by going
             # back to read it; "Tell me ..., then open QQ互联" is done as it says).
             [(b, a) for a, b in _diagonal(nav, info)
              if not _asked_there(a, b, labels, over or {})]]
    # Two rows of one table last: a person pairs things of different kinds first, and
    # a settings list must not crowd out every other page.
    sorts = [sorted(pairs, key=lambda p: (bool(apart(p[0].task, p[1].task)),
                                          not _near(*p, paths))) for pairs in sorts]
    for i in range(max((len(s) for s in sorts), default=0)):
        for pairs in sorts:
            if i < len(pairs) and (task := _pair(*pairs[i], names)) is not None:
                yield task


def _type_alike(a: Base, b: Base, typed: dict[str, frozenset[str]]) -> bool:
    """Whether two goals each type a text and could type the same one: "Enter “Hello
    World” and tap “Validate” and type “Hello World” and add it to the list" asks for
    one text twice."""
    texts = [frozenset().union(*(typed[p.table] for p in x.task.params if p.table in typed))
             for x in (a, b)]
    return bool(texts[0] & texts[1])


def _near(a: Base, b: Base, paths: frozenset[tuple[str, str]]) -> bool:
    """Whether two goals are on one screen, or on two that one step joins."""
    return bool(a.screen and b.screen) and (a.screen == b.screen or
                                            (a.screen, b.screen) in paths or
                                            (b.screen, a.screen) in paths)


def entered_screens(spec: AppSpec) -> frozenset[str]:
    """The screens a transition from another screen leads to: where a person can go
    again after a change made elsewhere. The page an app opened on, which nothing else
    opens (uber's page of one entry a recording's second half began on, left by back), is
    reached again only by backing out of every page since: no goal after a change on
    another page ("Tap “Allow location access” in the list, then open the entry “Your
    acceptance rate is …”" found no plan within the planner's bounds)."""
    return frozenset(t.target for t in spec.transitions
                     if t.target not in (t.screen, "back", "stay"))


def step_pairs(spec: AppSpec) -> frozenset[tuple[str, str]]:
    """(screen, screen) for each transition from one to another."""
    return frozenset((t.screen, t.target) for t in spec.transitions if t.target != t.screen)


def _same_table(a: Base, b: Base) -> bool:
    """Whether two goals are about one thing: a row of one table, or one flag ("Turn on
    “check this”, then tell me whether “check this” is on or off"). A table that each
    draws a row of by its parameters is not (`apart`: two rows, drawn different)."""
    return bool((_subjects(a.task) | {a.about}) & (_subjects(b.task) | {b.about}) - {""}
                - apart(a.task, b.task))


def apart(a: Task, b: Task) -> set[str]:
    """The tables both goals draw a row of by parameters (each its own row: a composite
    of the two draws the rows different, `instances`), where neither reads the table as
    a whole (a count of its rows, `about`: then the question is about every row)."""
    whole = {x.table for t in (a, b) for x in walk(t.condition)
             if isinstance(x, Call) and x.table and x.func != "exists"}
    return {p.table for p in a.params} & {p.table for p in b.params} - whole


def _same_rows(change: Base, nav: Base) -> bool:
    """Whether a change and a page are about one thing: as `_same_table`, but a table the
    change only adds to (its condition looks there for a row it makes, from parameters
    drawn elsewhere) is not one: a page of that table opens a row that was there before."""
    made = {x.table for x in walk(change.task.condition) if isinstance(x, Call) and
            x.table} - {p.table for p in change.task.params} - {change.about}
    if not made or change.task.condition is None or _removes(change.task):
        return _same_table(change, nav)
    mine = (_subjects(change.task) - made) | {change.about}
    return bool(mine & (_subjects(nav.task) | {nav.about}) - {""}
                - apart(change.task, nav.task))


def _removes(task: Task) -> bool:
    """Whether a task's condition asks for a row to be gone (`not exists(...)`)."""
    return any(isinstance(x, Not) for x in walk(task.condition))


def _subjects(task: Task) -> set[str]:
    """The tables a task's parameters come from or its condition looks into (a count of
    a folder's files), and the flags its condition reads."""
    params = {p.name for p in task.params}
    flags = {x.path[0] for x in walk(task.condition) if isinstance(x, Ref) and
             len(x.path) == 1 and x.path[0] not in params and x.path[0] not in ROOTS}
    looked = {x.table for x in walk(task.condition) if isinstance(x, Call) and x.table}
    return {p.table for p in task.params} | flags | looked


def _asked_there(nav: Base, info: Base, labels: dict[str, tuple[str, str]],
                 over: dict[str, str]) -> bool:
    """Whether a question is about the screen a navigation opens: a row of the same
    table (parameters from one table are one row: "Open X, then tell me what else the X
    row shows"), a text on that screen by name ("... under “QQ” on 下载QQ"), or one read
    in a dialog over it (`over`: "Tell me what Theme is set to, then open Settings" has
    Settings opened to read it)."""
    if _same_table(nav, info) or (info.screen and nav.screen in (info.screen,
                                                                 over.get(info.screen))):
        return True  # (a question answered on that screen: "how many options “Theme” has")
    label = labels.get(nav.screen, ("",))[0]
    return bool(label) and f"on {W.literal(label)}" in info.task.instruction


def _diagonal(xs: list[Base], ys: list[Base]) -> list[tuple[Base, Base]]:
    """All pairs, ordered so that early ones use different members of both lists."""
    pairs = [(i, j) for i in range(len(xs)) for j in range(len(ys))]
    pairs.sort(key=lambda p: (p[0] + p[1], p))
    return [(xs[i], ys[j]) for i, j in pairs]


def _pair(a: Base, b: Base, names: Names) -> Task | None:
    """Both goals: `a`'s, then `b`'s with its parameters renamed where they meet `a`'s;
    None where they draw rows of one table and `goal_params` could not tell whose
    parameter is whose."""
    taken = {p.name for p in a.task.params}
    renames = {}
    for p in b.task.params:
        new = p.name if p.name not in taken else names.new(p.name, taken)
        taken.add(new)
        renames[p.name] = new
    b_params = tuple(replace(p, name=renames[p.name]) for p in b.task.params)
    b_cond = _rename(b.task.condition, renames)
    a_params = a.task.params
    if apart(a.task, b.task):
        # Each goal's parameters that its condition reads first: `goal_params` gives
        # the others to the goal of the parameter before them.
        a_params, b_params = _read_first(a_params, a.task.condition), \
            _read_first(b_params, b_cond)
    b_clauses = [W.rename_holes(c, renames) for c in b.clauses] or \
        [f"tell me {W.rename_holes(b.asks, renames)}"]
    a_clauses = a.clauses or (f"tell me {a.asks}",)
    texts = []
    for i, pattern in enumerate(P.BOTH):
        # "please" opens a request, never its second half ("... and please add")
        ca = W.unplease(a_clauses[i % len(a_clauses)])
        cb = shared_opener(ca, W.unplease(b_clauses[i % len(b_clauses)]))
        if ca.lower().startswith(("on ", "in ")) and not pattern.startswith("{"):
            pattern = P.BOTH[0]  # "On Add List, fill in ...": no "Please on Add List"
        if " and {b}" in pattern and (" and " in ca or " and " in cb):
            pattern = P.BOTH[0]  # no "Tap “SAVE”, type ... and press “OK” and tap ..."
        texts.append(tidy(W.upper_first(pattern.replace("{A}", W.upper_first(ca))
                                          .replace("{a}", ca).replace("{b}", cb))))
    task = Task(name=f"{a.task.name}__{b.task.name}", kind="composite",
                instruction=W.join(list(dict.fromkeys(texts))),
                condition=BoolOp("and", (a.task.condition, b_cond)),
                params=a_params + b_params)
    if apart(a.task, b.task) and goal_params(task) != (a_params, b_params):
        return None
    return task


def _read_first(params: tuple[TaskParam, ...], condition: Expr) -> tuple[TaskParam, ...]:
    """`params`, those `condition` reads first (each group in its order)."""
    read = reads(condition)
    return tuple(p for p in params if p.name in read) + \
        tuple(p for p in params if p.name not in read)


def goal_params(task: Task) -> tuple[tuple[TaskParam, ...], ...]:
    """A task's parameters by goal: a composite's two goals, each with the parameters its
    half of the condition reads, and those neither reads (a shown name, a row's switch
    column) with the goal that reads their table, or where both do, with the goal of the
    parameter before them (`_pair` puts each goal's read ones first); any other task,
    one goal with them all."""
    c = task.condition
    if task.kind != "composite" or not isinstance(c, BoolOp) or c.op != "and" or \
            len(c.items) != 2:
        return (task.params,)
    read = _read_sides(task)
    by_table: dict[str, set[int]] = {}
    for p in task.params:
        if p.name in read:
            by_table.setdefault(p.table, set()).add(read[p.name])
    sides: tuple[list[TaskParam], list[TaskParam]] = ([], [])
    side = 0
    for p in task.params:
        tables = by_table.get(p.table, set())
        side = read[p.name] if p.name in read else \
            next(iter(tables)) if len(tables) == 1 else side
        sides[side].append(p)
    return tuple(sides[0]), tuple(sides[1])


def two_rows(task: Task) -> frozenset[str]:
    """The tables both goals of a composite read parameters of: a row of each per goal
    (`goal_params`), never the same row."""
    read = _read_sides(task)
    sides: dict[str, set[int]] = {}
    for p in task.params:
        if p.name in read:
            sides.setdefault(p.table, set()).add(read[p.name])
    return frozenset(t for t, s in sides.items() if len(s) == 2)


def _read_sides(task: Task) -> dict[str, int]:
    """Parameter -> the goal (0, 1) of a composite whose half of the condition alone
    reads it; none for any other task."""
    c = task.condition
    if task.kind != "composite" or not isinstance(c, BoolOp) or c.op != "and" or \
            len(c.items) != 2:
        return {}
    first, second = reads(c.items[0]), reads(c.items[1])
    return {p.name: int(p.name in second) for p in task.params
            if (p.name in first) != (p.name in second)}


_OPENER = re.compile(r"^(?:(?:tap|press|open|go to|get to|go through) (“[^”]*”|[^“”,]+?) and "
                     r"|on (“[^”]*”|[^“”,]+?), )", re.I)
"""A clause's way to the place its goal is on: "tap “App theme” and ...", "on Settings,
..."."""
_LEAVES = re.compile(r"\b(?:tap|press|submit|enter|confirm)\b", re.I)


def shared_opener(first: str, second: str) -> str:
    """`second` without the way to its place where `first` opens with the way to the same
    place and stays there: the person is there already ("Tap “App theme” and turn off
    “Image dimming”, then set “Font size” to 110%", not "..., then tap “App theme” and
    set ..."). A first goal that presses a button on the way ("on Add List, type “Milk”
    and tap “OK”") may have left the place: the second keeps its way there."""
    a, b = _OPENER.match(first), _OPENER.match(second)
    if a is None or b is None or (a.group(1) or a.group(2)).lower() != \
            (b.group(1) or b.group(2)).lower() or _LEAVES.search(first[a.end():]):
        return second
    rest = second[b.end():]
    # The rest is a clause of ours ("set ..."), not the tail of a name with "and" in it.
    return rest if W.starts_with_verb(rest) else second


def _rename(e: Expr, names: dict[str, str]) -> Expr:
    """`e` with task parameter references renamed (columns never share their names)."""
    def rename(x: Expr) -> Expr:
        if isinstance(x, Ref) and len(x.path) == 1 and x.path[0] in names:
            return Ref((names[x.path[0]],))
        return x
    return map_expr(e, rename)


class Names:
    """Parameter names that no column, flag or keyword of the spec uses."""

    def __init__(self, spec: AppSpec) -> None:
        self.taken = set(keywords()) | set(ROOTS) | {f.name for f in spec.flags} | \
            {c.name for t in spec.tables for c in t.columns} | {t.name for t in spec.tables}

    def new(self, base: str, used: set[str] | frozenset[str] = frozenset()) -> str:
        # A role gets the same name in every template (`n` the name, `v` the value, `k`
        # the key); `used` holds the names this template has already taken.
        name, i = base, 2
        while name in self.taken or name in used:
            name, i = f"{base}{i}", i + 1
        return name
