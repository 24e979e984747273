"""Templates for reading what a screen shows: its fixed texts, its switches' states, and
the way to a screen that has no name of its own.

    fixed texts on About: "License" and, right under it, "Source code available on ..."
      ->  task read_about_1 information "What is written under “License” on About? | ..."
              { answer ~ "Source code available on ..." }

They word a task only with what the screen itself shows (a heading, a switch's label, the
label of the button that opens it) and with where a text sits ("under"): never with the
names of columns or screens, which come from resource ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from phoneworld.runtime.expr import Scope, display, evaluate, filter_rows
from phoneworld.runtime.state import State
from phoneworld.spec.ast import AppSpec, Call, Compare, Const, Expr, Ref, Screen, Task, View
from phoneworld.spec.walk import own_root, views, walk
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import Template, item_views, shows_row
from phoneworld.tasks.labels import (
    const_text,
    is_heading,
    is_name,
    is_picture,
    label_of,
    opening_row,
    readable,
    screen_labels,
    title_of,
    views_by_name,
)
from phoneworld.tasks.schema import Schema

_SWITCH_WORDS = re.compile(r"\s+(ON|OFF)$")



def flag_states(spec: AppSpec, schema: Schema, reached: frozenset[str]) -> Iterator[Template]:
    """A question per switch outside lists that a recorded tap flips (ajsha's “check
    this”), on a screen a person gets to: "Is “check this” on or off?", answered by the
    flag as it is when asked. Where one screen shows two switches that say the same, the
    question is asked only when they are in one state after a reset (then it has one
    answer whichever of them is read)."""
    flags = {f.name: f for f in spec.flags if f.type == "bool"}
    shown: dict[tuple[str, str], set[bool]] = {}  # (screen, label) -> initial states
    for sc in spec.screens:
        for v in views(own_root(sc)):  # (a dialog's own, not the page under it)
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
        row = "" if where else under_row(spec, schema, ft.screen)
        questions, obj = P.FLAG_STATE_ON if where else P.FLAG_STATE_UNDER if row else \
            P.FLAG_STATE
        fill = {"label": ft.label, "screen": where, "row": row}
        said = Call("choose", args=(Ref((ft.flag,)), Const("on"), Const("off")))
        task = Task(name=f"ask_{ft.flag}", kind="information",
                    instruction=W.join([W.words(q, fill) for q in questions]),
                    condition=Compare("~", Ref(("answer",)), said))
        yield Template(task, asks=W.words(obj, fill), screen=ft.screen, label=ft.label)


def under_row(spec: AppSpec, schema: Schema, screen: str) -> str:
    """The name of the one row that opens `screen` (`labels.opening_row`), or ""."""
    s = spec.screen(screen)
    e = schema.entity(s.param) if s is not None and s.param else None
    return opening_row(spec, screen, e.name) if e is not None else ""


def screen_texts(spec: AppSpec, reach_labels: dict[str, str],
                 reached: frozenset[str]) -> Iterator[Template]:
    """A question per fixed heading of a screen a person gets to (`reached`) with a fixed
    text right under it (About: "License", then the licence): "What is written under
    “License”?". `reach_labels` names the screens (a heading alone may be on several).
    The same question with two answers (“Arrive by” on two unnamed pages) is asked of
    neither; with one, once. A page's own title is no heading to ask about (a dialog's
    is: its message is what the dialog says)."""
    found = []
    state, flags = State(spec), {f.name for f in spec.flags}

    def initial(e: Expr | None) -> str:
        """What a text that follows the app's flags alone shows after a reset ("100%
        (Default)" for wikipedia's font size), "" for any other text."""
        if e is None or isinstance(e, Const) or not all(
                len(x.path) == 1 and x.path[0] in flags for x in walk(e) if isinstance(x, Ref)):
            return ""
        return display(evaluate(e, Scope(state))).strip()

    # A page reached by pressing a button that says what it does ("START +10 XP") is no
    # place to be on ("On “START +10 XP”, ..."): its texts are read once it is pressed.
    pressed = {name: label for name, (label, kind) in screen_labels(spec).items()
               if kind == "button"}
    for s in spec.screens:
        if s.foreign or s.name not in reached:
            continue
        where = "" if s.name in pressed else reach_labels.get(s.name, "")
        # A page's own heading is asked of nothing ("What does “Profile” say?" on the
        # Profile page: its subtitle); a dialog's title is ("What does “Disclaimer” say?").
        # The title as the page shows it too: "Uber | Payments" over the page that
        # `labels.without_site` calls Payments.
        title = title_of(s, spec)
        own = {where.casefold(), title.casefold()}
        found += [(s.name, i, head, text, where, shows) for i, (head, text, shows) in
                  enumerate(_headed(s, title if "dialog" in s.modules else "", initial), 1)
                  if head.casefold() not in own or "dialog" in s.modules]
    answers: dict[tuple[str, str], set[str]] = {}
    for _, _, head, text, where, _ in found:
        answers.setdefault((head, where), set()).add(text)
    done: set[tuple[str, str]] = set()
    for name, i, head, _, where, shows in found:
        if len(answers[(head, where)]) > 1 or (head, where) in done:
            continue
        done.add((head, where))
        way = "" if where else pressed.get(name) or way_in(spec, spec.screen(name))
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
    in_items = item_views(spec)
    state = State(spec)
    foreign = {s.name for s in spec.screens if s.foreign}
    found: set[str] = set()
    for t in spec.transitions:
        if t.target != target.name or t.screen == target.name or t.action != "tap" or \
                t.screen in foreign:
            continue  # (a launcher's icon opens the app, no page of it)
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
    if shows_row(spec, target):
        return ""
    in_items = item_views(spec)
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


def _headed(s: Screen, title: str = "", initial: Callable[[Expr | None], str] = lambda e: ""
            ) -> Iterator[tuple[str, str, Expr]]:
    """(heading, text, what the text shows) for each fixed, short text with another text
    right under it (closer than half the heading's height; a dialog's `title` heads the
    text that follows it however far below: its message, set apart by the dialog's
    padding, qqmusic's “下载微信” over “您尚未安装微信…”), fixed or showing a pick once
    made (`otherwise(flag, "ASAP")`) or following the app's flags (`initial`: wikipedia's
    "Font size" over "100% (Default)"), asked as it shows when asked; neither of them an
    input or a button, the heading no value (`labels.is_heading`: About's "Version
    1.0.3" over its web address heads nothing). In a dialog, only the texts of its own
    layer (`walk.own_root`): the page dimmed under it (uber's store page under its
    time picker) is no text of the dialog's ("What is written under “Humanoid
    Headoffice” on “Arrive by”?")."""
    shown = [v for v in _shown_texts(own_root(s), initial) if "editable" not in v.flags
             and "button" not in v.cls.lower() and "button" not in v.id.lower()]
    fixed = [v for v in shown if not is_picture(v)]  # (an icon's name: "Person multiple")
    texts = [v for v in views(own_root(s)) if v.text is not None]  # (a total's sum too)
    for i, a in enumerate(fixed[:-1]):
        # Texts on a heading's line, right of it, are not under it (uber's “UberX”, its
        # seats and fare beside it, then “Affordable rides, all to yourself”); but a label
        # with its value beside it over another such pair (a cart's “Delivery” “Free”
        # over “Total” “$9”) is a table's row, no heading.
        b = next((x for x in fixed[i + 1:] if not _beside(a, x)), None)
        if b is None or b is not fixed[i + 1] and any(_beside(b, x) for x in texts):
            continue
        head, text = const_text(a.text), _text(b) or initial(b.text)
        gap = b.bounds[1] - a.bounds[3]
        overlap = min(a.bounds[2], b.bounds[2]) - max(a.bounds[0], b.bounds[0])
        near = (a.bounds[3] - a.bounds[1]) // 2 if head != title else s.root.bounds[3]
        if is_heading(head) and head != text and readable(head) and readable(text) and \
                overlap > 0 and -4 <= gap <= near:
            yield head, text, Const(text) if isinstance(b.text, Const) else b.text


def _beside(a: View, b: View) -> bool:
    """Whether `b` is on `a`'s line, right of it."""
    return b.bounds[0] >= a.bounds[2] - 4 and b.bounds[1] < a.bounds[3] - 4 and \
        b.bounds[3] > a.bounds[1] + 4


def _shown_texts(root: View, initial: Callable[[Expr | None], str] = lambda e: ""
                 ) -> list[View]:
    """`labels.fixed_texts`, and the texts that show a pick once made or follow the
    app's flags (`initial`), in tree order."""
    out, stack = [], [root]
    while stack:
        v = stack.pop()
        if v.items is not None:
            continue
        # A text on a view that holds a list is the list's name for a screen reader (a
        # web drop-down's "Menu" around its options), not a line the screen shows.
        if (_text(v) or initial(v.text)) and not any(c.items is not None for c in v.children):
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


