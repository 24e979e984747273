"""Templates for browsing an app: open a list's row, read what a screen shows (what a
list row shows: `rowtexts`).

    on main.package_row tap -> package with item        (a list of packages)
      ->  task open_package navigation (n: packages.name)
              "Open {n}. | Tap {n} to open it. | ..." { screen == "package" and param.name == n }

    fixed texts on About: "License" and, right under it, "Source code available on ..."
      ->  task read_about_1 information "What is written under “License” on About? | ..."
              { answer ~ "Source code available on ..." }

These need nothing but what every recorded app has, lists, taps on their rows and fixed
texts, and they word a task only with what the screen itself shows (a row's name, the
label of a button on it, a heading) and with where a text sits ("under", "next to"):
never with the names of columns or screens, which come from resource ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from phoneworld.runtime.expr import Scope, display, evaluate, filter_rows
from phoneworld.runtime.state import State
from phoneworld.spec.ast import (
    AppSpec,
    BoolOp,
    Call,
    Compare,
    Const,
    Effect,
    Expr,
    Ref,
    Screen,
    Task,
    TaskParam,
    View,
)
from phoneworld.spec.walk import views, walk
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.labels import (
    const_text,
    is_heading,
    is_name,
    label_of,
    marked_title,
    readable,
    row_name,
    screen_labels,
    views_by_name,
)
from phoneworld.tasks.planner import slipped
from phoneworld.tasks.schema import Schema

NewName = Callable[..., str]
"""`Names.new` of `composite`: a parameter name no column or keyword uses."""
_SWITCH_WORDS = re.compile(r"\s+(ON|OFF)$")


@dataclass(frozen=True)
class Template:
    """A template with the clauses a composite joins it by ("open {n}"), or for a
    question, the thing asked for ("the text under {n}"), and the screen it ends on."""

    task: Task
    clauses: tuple[str, ...] = ()
    asks: str = ""
    screen: str = ""
    label: str = ""
    """What a question is about, in the app's words, where a state change may share it
    (a switch's label: no composite switches “Show password” and asks about its twin)."""
    about: str = ""
    """The table a question with no parameters reads (a row's cell: "what is under
    “Theme”" is about the row a choice of Theme changes)."""


# -- opening a row ---------------------------------------------------------------------------

def open_rows(spec: AppSpec, schema: Schema, new: NewName) -> Iterator[Template]:
    """One template per screen that a tap on a list row (or a swipe across it) opens for
    that row: "Open {n}." (the row itself) or "Open “Menu” for {n}." (a button on the
    row)."""
    in_items = _item_views(spec)
    done: set[tuple[str, str]] = set()
    slips = slipped(spec)
    for t in spec.transitions:
        if t.action == "swipe" and (t.screen, t.widget) in slips:
            continue  # a tap opens it: a swipe that did too was a slip of the finger
        target = spec.screen(t.target)
        if target is None or target.foreign or t.action not in ("tap", "swipe") or \
                t.with_param != Ref(("item",)) or \
                target.param is None or (t.screen, t.widget) not in in_items:
            continue
        e = schema.entity(target.param)
        view, table = in_items[(t.screen, t.widget)]
        if e is None or table != target.param or (not _shows_row(spec, target) and (
                t.when is None or not _a_place(spec, target))):
            continue  # (one row that opens a page of its own names it, as a tab does)
        button = label_of(view) if t.action == "tap" else ""
        button = button if button and is_name(button) else ""
        if (target.name, button) in done:
            continue
        done.add((target.name, button))
        phrases = P.OPEN_ROW_BY if button else _open_phrases(spec, target, e.table, e.name)
        if t.action != "tap":  # opened by a swipe ("swipe an item to edit it"): no "Tap"
            phrases = tuple(p for p in phrases if not p.startswith("Tap "))
        # (only a popup that lists options under its row is known to be that row's: a
        # page any row's tap opens would be "opened" by headings and switches too)
        under = _only_rows_under(spec, target)
        names = _name_columns(spec, e.table, e.name) if under is not None else [e.name]
        for column in names:
            yield _open_row(target, e, column, under, phrases, {"button": button}, new)


def _open_phrases(spec: AppSpec, target: Screen, table: str, name: str) -> tuple[str, ...]:
    """How opening a row reads: "Open {n}." for a row with a name; for one shown in a form
    to change it (an editable field reads the row), "Open {n} for editing."; for a row
    whose name is mostly a sentence (onelist's tips, "Swipe an item left to delete it"),
    "Open the entry {n}." (a sentence is no place to go to)."""
    if "form" in target.modules and any("editable" in v.flags and v.text is not None and
                                        _reads_param(v.text) for v in views(target.root)):
        return P.EDIT_ROW
    t = next(x for x in spec.tables if x.name == table)
    i = [c.name for c in t.columns].index(name)
    names = [str(r[i]) for r in t.rows if readable(r[i])]
    if names and 2 * sum(W.is_sentence(n) for n in names) > len(names):
        return P.OPEN_ENTRY
    return P.OPEN_ROW


def _name_columns(spec: AppSpec, table: str, name: str) -> list[str]:
    """The name column, then those of its kind that name rows of another layout
    (`labels.row_name`: onelist's "Theme" in `title_2`)."""
    t = next(x for x in spec.tables if x.name == table)
    cols = [c.name for c in t.columns]
    other = {row_name(cols, r, name)[0] for r in t.rows} - {name, ""}
    return [name, *sorted(c for c in other if c.startswith(f"{name}_"))]


def _open_row(target: Screen, e, column: str, under: str | None, phrases: tuple,
              fill: dict[str, str], new: NewName) -> Template:
    """"Open {n}." for the rows `column` names; `under` is `_only_rows_under(target)`."""
    n = new("n")
    items = [Compare("==", Ref(("screen",)), Const(target.name)),
             Compare("==", Ref(("param", column)), Ref((n,)))]
    params = [TaskParam(n, e.table, column)]
    if under is not None:
        # A popup that shows nothing of its row but the rows listed under it (a
        # dialog's options) is that row's only where it lists some: "Open App
        # Version" opened onelist's Theme dialog, empty, by the same tap.
        k, c = new("k", {n}), new("c", {n})
        items.append(Compare("==", Ref((c,)), Ref((k,))))
        params += [TaskParam(k, e.table, e.key), TaskParam(c, under, "ctx")]
    suffix = "" if column == e.name else f"_by_{column}"
    task = Task(name=f"open_{target.name}{suffix}", kind="navigation",
                instruction=W.join([W.words(p, fill, n=n) for p in phrases]),
                condition=BoolOp("and", tuple(items)), params=tuple(params))
    return Template(task, clauses=tuple(W.lower_first(W.words(p, fill, n=n))
                                        for p in phrases), screen=target.name)


def _shows_row(spec: AppSpec, target: Screen) -> bool:
    """Whether a screen shows something of the row it was opened for: a text bound to
    `param`, or a list of the row's own rows where most rows have some. A page that
    looks the same whichever row opened it (each target of a share sheet opening one
    "Download QQ" page; a row's menu recorded for one row only, empty for the others)
    is no place a person can tell they reached."""
    filtered = []
    for v in views(target.root):
        for e in (v.text, v.desc):
            if e is not None and _reads_param(e):
                return True
        if v.items is not None and v.items.where is not None and _reads_param(v.items.where):
            filtered.append(v.items)
    if any(t.screen == target.name and any(_reads_param(x) for e in t.effects
                                           for x in _effect_exprs(e))
           for t in spec.transitions):
        return True  # what is done there is done to the row (a message sent to it)
    if not filtered or target.param is None:
        return False
    state = State(spec)
    rows = state.rows(target.param)
    shown = sum(any(filter_rows(lst.table, lst.where, Scope(state, param=r), as_item=True)
                    for lst in filtered) for r in rows)
    return shown * 2 > len(rows)


def _only_rows_under(spec: AppSpec, target: Screen) -> str | None:
    """The table of the rows a popup lists under its row (`where item.ctx == param.id`)
    when that list is all it shows of the row (no text bound to it), else None. (A full
    page is a place of its own even with nothing listed: a conversation yet to start.)"""
    b = target.root.bounds
    if (b[2] - b[0]) * (b[3] - b[1]) >= 0.8 * spec.width * spec.height:
        return None
    under = None
    for v in views(target.root):
        if any(e is not None and _reads_param(e) for e in (v.text, v.desc)):
            return None
        if v.items is not None and v.items.where == Compare(
                "==", Ref(("item", "ctx")), Ref(("param", "id"))):
            under = v.items.table
    return under


def _effect_exprs(e: Effect) -> list[Expr]:
    return [x for x in (e.where, *(v for _, v in e.values)) if x is not None]


def _a_place(spec: AppSpec, target: Screen) -> bool:
    """Whether a screen is a place of its own: filling the display, or named (a title),
    but not a popup named by its first line only (qqmusic's "Download WeChat" over a share
    sheet: "Go to 下载微信." is a goal, "Open 朋友圈." that leads there is not)."""
    b = target.root.bounds
    if (b[2] - b[0]) * (b[3] - b[1]) >= 0.8 * spec.width * spec.height:
        return True
    # A popup called by its first line ("下载微信") has a name, but is no row's place.
    label = screen_labels(spec).get(target.name)
    return label is not None and (label[1] != "title" or bool(marked_title(target, spec)))


def _reads_param(e: Expr) -> bool:
    return any(isinstance(x, Ref) and x.path[0] == "param" for x in walk(e))


def _item_views(spec: AppSpec) -> dict[tuple[str, str], tuple[View, str]]:
    """(screen, widget name) -> (the view, the table of the list it repeats in), for the
    named views inside list items."""
    out: dict[tuple[str, str], tuple[View, str]] = {}
    for s in spec.screens:
        stack: list[tuple[View, str | None]] = [(s.root, None)]
        while stack:
            v, table = stack.pop()
            if v.name and table is not None:
                out.setdefault((s.name, v.name), (v, table))
            inner = v.items.table if v.items is not None else table
            stack.extend((c, inner) for c in v.children)
    return out


# -- what a screen shows ---------------------------------------------------------------------


def flag_states(spec: AppSpec, schema: Schema, reached: frozenset[str]) -> Iterator[Template]:
    """A question per switch outside lists that a recorded tap flips (ajsha's “check
    this”), on a screen a person gets to: "Is “check this” on or off?", answered by the
    flag as it is when asked. Where one screen shows two switches that say the same, the
    question is asked only when they are in one state after a reset (then it has one
    answer whichever of them is read)."""
    flags = {f.name: f for f in spec.flags if f.type == "bool"}
    shown: dict[tuple[str, str], set[bool]] = {}  # (screen, label) -> initial states
    for sc in spec.screens:
        for v in views(sc.root):
            if "checkable" in v.flags and isinstance(v.checked, Ref) and \
                    v.checked.path[0] in flags:
                label = _SWITCH_WORDS.sub("", label_of(v))
                shown.setdefault((sc.name, label), set()).add(
                    bool(flags[v.checked.path[0]].initial))
    done: set[str] = set()
    for ft in schema.flag_toggles:
        flag = flags.get(ft.flag)
        if flag is None or not ft.label or ft.flag in done or ft.screen not in reached or \
                len(shown.get((ft.screen, ft.label), ())) != 1:
            continue
        # A label on two screens (wikipedia's “Show password” on Log in and on Create an
        # account) is asked with the screen's name, or not at all.
        twin = any(label == ft.label and sc != ft.screen for sc, label in shown)
        where = schema.screen_label(ft.screen) if twin else ""
        if twin and not where:
            continue
        done.add(ft.flag)
        questions, obj = P.FLAG_STATE_ON if where else P.FLAG_STATE
        fill = {"label": ft.label, "screen": where}
        said = Call("choose", args=(Ref((ft.flag,)), Const("on"), Const("off")))
        task = Task(name=f"ask_{ft.flag}", kind="information",
                    instruction=W.join([W.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), said))
        yield Template(task, asks=W.words(obj, fill), screen=ft.screen, label=ft.label)


def screen_texts(spec: AppSpec, reach_labels: dict[str, str],
                 reached: frozenset[str]) -> Iterator[Template]:
    """A question per fixed heading of a screen a person gets to (`reached`) with a fixed
    text right under it (About: "License", then the licence): "What is written under
    “License”?". `reach_labels` names the screens (a heading alone may be on several).
    The same question with two answers (“Arrive by” on two unnamed pages) is asked of
    neither; with one, once. A page's own title is no heading to ask about (a dialog's
    is: its message is what the dialog says)."""
    found = []
    for s in spec.screens:
        if s.foreign or s.name not in reached:
            continue
        where = reach_labels.get(s.name, "")
        # A page's own heading is asked of nothing ("What does “Profile” say?" on the
        # Profile page: its subtitle); a dialog's title is ("What does “Disclaimer” say?").
        found += [(s.name, i, head, text, where, shows)
                  for i, (head, text, shows) in enumerate(_headed(s.root), 1)
                  if head.casefold() != where.casefold() or "dialog" in s.modules]
    answers: dict[tuple[str, str], set[str]] = {}
    for _, _, head, text, where, _ in found:
        answers.setdefault((head, where), set()).add(text)
    done: set[tuple[str, str]] = set()
    for name, i, head, _, where, shows in found:
        if len(answers[(head, where)]) > 1 or (head, where) in done:
            continue
        done.add((head, where))
        way = "" if where else way_in(spec, spec.screen(name))
        fill = {"head": head, "screen": where, "way": way}
        questions, obj = P.HEADED if where and where.casefold() != head.casefold() else \
            P.TITLED if where else P.HEADED_VIA if way else P.HEADED_ANYWHERE
        task = Task(name=f"read_{name}_{i}", kind="information",
                    instruction=W.join([W.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), shows))
        yield Template(task, asks=W.words(obj, fill), screen=name, label=head)


def way_in(spec: AppSpec, target: Screen) -> str:
    """What a person taps to reach a screen that has no name of its own, to say where a
    text on it is: the label of the one button that opens it, or the text of the one row
    whose tap does (onelist's release notes: "Show last release note"); "" where several
    things or any row of a list open it, or what opens it says nothing."""
    named = views_by_name(spec)
    in_items = _item_views(spec)
    state = State(spec)
    found: set[str] = set()
    for t in spec.transitions:
        if t.target != target.name or t.screen == target.name or t.action != "tap":
            continue
        v = named.get((t.screen, t.widget))
        if v is None or "editable" in v.flags:
            continue
        if (t.screen, t.widget) not in in_items:
            found.add(label_of(v))
            continue
        if t.when is None:
            return ""  # any row opens it
        if v.text is None:
            continue  # the row's other views say what it is (its name's own tap)
        rows = filter_rows(in_items[(t.screen, t.widget)][1], t.when, Scope(state),
                           as_item=True)
        found.update(display(evaluate(v.text, Scope(state).with_row(r, as_item=True)))
                     for r in rows)
    way = found.pop().strip() if len(found) == 1 else ""
    return way if readable(way) and is_name(way) else ""


def row_button(spec: AppSpec, schema: Schema, target: Screen) -> str:
    """The text of the one button inside a list row that opens `target`, a page that
    shows nothing of the row (qqmusic's "分享" on an album's header row opens its share
    sheet): pressing it is a goal, "Tap “分享”.". Not a tap on the row's name (that is
    `open_rows`' "Open {n}."); "" where any row, or rows or buttons saying different
    things, open it."""
    if _shows_row(spec, target):
        return ""
    in_items = _item_views(spec)
    state = State(spec)
    found: set[str] = set()
    for t in spec.transitions:
        if t.target != target.name or t.screen == target.name or t.action != "tap" or \
                (t.screen, t.widget) not in in_items:
            continue
        v, table = in_items[(t.screen, t.widget)]
        e = schema.entity(table)
        texts = [x for x in views(v) if isinstance(x.text, Ref) and x.text.path[0] == "item"]
        if t.when is None or e is None or not texts or \
                any(x.text.path[1:] == (e.name,) for x in texts):  # type: ignore[union-attr]
            return ""
        for r in filter_rows(table, t.when, Scope(state), as_item=True):
            found.add(display(evaluate(texts[0].text, Scope(state).with_row(r, as_item=True))))
    button = found.pop().strip() if len(found) == 1 else ""
    return button if readable(button) and is_name(button) else ""


def _headed(root: View) -> Iterator[tuple[str, str, Expr]]:
    """(heading, text, what the text shows) for each fixed, short text with another text
    right under it (closer than half the heading's height), fixed or showing a pick once
    made (`otherwise(flag, "ASAP")`: asked as it shows when asked), neither of them an
    input or a button, the heading no value (`labels.is_heading`: About's "Version
    1.0.3" over its web address heads nothing)."""
    fixed = [v for v in _shown_texts(root) if "editable" not in v.flags and
             "button" not in v.cls.lower() and "button" not in v.id.lower()]
    for a, b in zip(fixed, fixed[1:], strict=False):
        head, text = const_text(a.text), _text(b)
        gap = b.bounds[1] - a.bounds[3]
        overlap = min(a.bounds[2], b.bounds[2]) - max(a.bounds[0], b.bounds[0])
        if is_heading(head) and head != text and readable(head) and readable(text) and \
                overlap > 0 and \
                -4 <= gap <= (a.bounds[3] - a.bounds[1]) // 2:
            yield head, text, b.text if isinstance(b.text, Call) else Const(text)


def _shown_texts(root: View) -> list[View]:
    """`labels.fixed_texts`, and the texts that show a pick once made, in tree order."""
    out, stack = [], [root]
    while stack:
        v = stack.pop()
        if v.items is not None:
            continue
        if _text(v):
            out.append(v)
        stack.extend(reversed(v.children))
    return out


def _text(v: View) -> str:
    """A view's literal text, or what a text that shows a pick showed until one was made
    (`otherwise(flag, "ASAP")`: "ASAP")."""
    e = v.text
    if isinstance(e, Call) and e.func == "otherwise" and len(e.args) == 2 and \
            isinstance(e.args[0], Ref) and len(e.args[0].path) == 1:
        return const_text(e.args[1])
    return const_text(e)


