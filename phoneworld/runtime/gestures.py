"""What each AndroidWorld action does to a machine: one function per action type.

    click / double_tap / long_press  hit-test or element index -> nearest named view (and
                                     its list row) -> its tap / long_press transition;
                                     a text field also takes the focus
    input_text      into the named field, or the focused one; clears first unless
                    `clear_text` is false; then the field's `type` transition
    keyboard_enter  the focused field's `submit` (else `enter`) transition; with no
                    focus, the screen's `enter` transition
    scroll / swipe  half a page of the list named, or of the list under the screen's
                    centre (swipe = finger direction, so the opposite scroll); then the
                    list's `scroll` transition, if it has one; across the list's axis,
                    the `swipe` transition of the row under the gesture (its element,
                    else the list's centre), if it has one
    navigate_back   the screen's `back` transition (or one of a widget named `back`),
                    else pop the back stack
    navigate_home   the screen's `home` transition, else leave the app (recorded)
    open_app        come back to this app (by name, title or package)
    wait            the screen's timed transition (a splash or an ad gives way), if any;
                    the machine fires it too after an action that did nothing there
    answer, status  record the answer / end the episode; unknown: nothing

Each returns an event line for the outcome and the transition it fired. This module is
the machine's other half; it uses the machine's public surface (`frame`, `rendered`,
`target_box`, `transition_for`, `fire`, ...), never its private members.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from phoneworld.errors import InvalidAction, did_you_mean
from phoneworld.limits import MAX_TYPED
from phoneworld.runtime.actions import Action
from phoneworld.runtime.state import Row
from phoneworld.spec.ast import Transition

_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""What no text field (and no XML observation) holds: C0 controls but tab and line
breaks, unpaired surrogates, and the non-characters U+FFFE and U+FFFF."""

if TYPE_CHECKING:
    from phoneworld.runtime.machine import Machine

Event = tuple[str, Transition | None]
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _press(m: Machine, a: Action, action: str) -> Event:
    box_no = m.target_box(a)
    if box_no is None:
        return "no-op: nothing there", None
    r = m.rendered()
    boxes = r.boxes
    frame = m.frame
    box = boxes[box_no]
    if box.editable and box.input_key is not None:
        focus = (box.input_key, box.row)
        if frame.focus != focus:
            m.will_change()
            frame.focus = focus
    # The nearest named view takes the press (a label inside a named row, say).
    for i in r.ancestors(box_no):
        view = boxes[i].view
        if view.name:
            t = m.transition_for(view.name, action, boxes[i].row)
            if t is None:
                return f"no-op: {action} {m.screen}.{view.name}", None
            return m.fire(t, boxes[i].row), t
    return "no-op: no named view", None


def click(m: Machine, a: Action) -> Event:
    return _press(m, a, "tap")


def long_press(m: Machine, a: Action) -> Event:
    return _press(m, a, "long_press")


def input_text(m: Machine, a: Action) -> Event:
    frame = m.frame
    key: str | None
    if a.targeted:
        box_no = m.target_box(a)
        r = m.rendered()
        field = None if box_no is None else next(
            (j for j in r.ancestors(box_no) if r.boxes[j].editable), None)
        if field is None:
            raise InvalidAction("that element is not a text field",
                                field="index" if a.index is not None else "x")
        box = r.boxes[field]
        key, row, name = box.input_key, box.row, box.view.name
    elif frame.focus is not None:
        key, row = frame.focus
        name = "" if key.startswith("@") else key
    else:
        raise InvalidAction("no text field has focus: give index, or x and y",
                            field="index")
    assert key is not None
    text = a.text or ""
    bad = _NOT_TEXT.search(text)
    if bad:  # it would make the XML observation ill-formed, the page unencodable
        raise InvalidAction(f"holds U+{ord(bad[0]):04X}, which a text field cannot hold",
                            field="text")
    if a.clear_text is False:
        text = frame.inputs.get(key, "") + text
    if len(text) > MAX_TYPED:  # appending is how an unbounded field would grow
        raise InvalidAction(f"the field would hold {len(text):,} characters; it holds at "
                            f"most {MAX_TYPED:,}", field="text")
    m.will_change()
    frame.focus = (key, row)
    frame.inputs[key] = text
    if name:
        t = m.transition_for(name, "type", row)
        if t is not None:
            return m.fire(t, row), t
    return f"type {m.screen}.{key}", None


def keyboard_enter(m: Machine, a: Action) -> Event:
    focus = m.frame.focus
    row: Row | None = None
    if focus is not None and not focus[0].startswith("@"):
        name, row = focus
        t = m.transition_for(name, "submit", row) or m.transition_for(name, "enter", row)
    else:
        t = m.transition_on("enter")
    if t is None:
        return "no-op: enter", None
    return m.fire(t, row), t


def _scroll(m: Machine, a: Action, direction: str) -> Event:
    r = m.rendered()
    boxes = r.boxes
    lst: int | None = None
    if a.targeted:
        box_no = m.target_box(a)
        if box_no is not None:
            lst = next((j for j in r.ancestors(box_no) if boxes[j].list_key), None)
    else:
        # No element named: the innermost list under the screen's centre, else the
        # first list (AndroidWorld swipes from the centre of the screen).
        lists = [i for i, b in enumerate(boxes) if b.list_key]
        cx, cy = m.spec.width // 2, m.spec.height // 2
        under = [i for i in lists if boxes[i].bounds[0] <= cx < boxes[i].bounds[2]
                 and boxes[i].bounds[1] <= cy < boxes[i].bounds[3]]
        if under:
            lst = under[-1]
        elif lists:
            lst = lists[0]
    if lst is None:
        return f"no-op: nothing to scroll {direction}", None
    box = boxes[lst]
    key = box.list_key
    assert key is not None
    forward, backward = ("down", "up") if box.list_axis == "vertical" else ("right", "left")
    if direction not in (forward, backward):
        # Across the list: a row under the gesture may take it (swipe to edit, to delete).
        return _swipe_row(m, a, lst) or (f"no-op: {key} does not scroll {direction}", None)
    # Half a page per scroll, as AndroidWorld's swipe from the middle to an edge.
    move = max(1, box.list_page // 2) * (1 if direction == forward else -1)
    frame = m.frame
    old = min(frame.scroll.get(key, 0), box.list_max)
    new = min(max(0, old + move), box.list_max)
    if new == old:
        return f"no-op: {key} is at its end", None
    m.will_change()
    frame.scroll[key] = new
    if box.view.name:
        t = m.transition_for(box.view.name, "scroll", box.row)
        if t is not None:
            return m.fire(t, box.row), t
    return f"scroll {m.screen}.{key} {direction} to {new}", None


def _swipe_row(m: Machine, a: Action, lst: int) -> Event | None:
    """The `swipe` transition of the list row under the gesture (its element, else the
    list's centre), if that row has one."""
    r = m.rendered()
    boxes = r.boxes
    at = m.target_box(a) if a.targeted else None
    if at is None:
        b = boxes[lst].bounds
        at = r.hit((b[0] + b[2]) // 2, (b[1] + b[3]) // 2)
    for i in r.ancestors(at) if at is not None else ():
        if i == lst:
            break
        view, row = boxes[i].view, boxes[i].row
        if view.name and row is not None:
            t = m.transition_for(view.name, "swipe", row)
            if t is not None:
                return m.fire(t, row), t
    return None


def scroll(m: Machine, a: Action) -> Event:
    return _scroll(m, a, a.direction or "down")


def swipe(m: Machine, a: Action) -> Event:
    # A swipe names the finger's direction; the content scrolls the other way.
    return _scroll(m, a, _OPPOSITE[a.direction or "up"])


def navigate_back(m: Machine, a: Action) -> Event:
    t = m.transition_on("back")
    if t is not None:
        return m.fire(t, None), t
    m.will_change()
    return f"back -> {m.go_back()}", None


def navigate_home(m: Machine, a: Action) -> Event:
    t = m.transition_on("home")
    if t is not None:
        return m.fire(t, None), t
    m.left_app = True
    return "left_app", None


def open_app(m: Machine, a: Action) -> Event:
    name = (a.app_name or "").strip()
    names = m.app_names
    if name.casefold() not in names:
        raise InvalidAction(f"no app {name!r} on this phone; it has "
                            f"{', '.join(names.values())}"
                            f"{did_you_mean(name, list(names.values()))}", field="app_name")
    m.left_app = False
    return f"open_app {name}", None


def answer(m: Machine, a: Action) -> Event:
    m.will_change()
    m.record_answer(a.text)
    return "answer", None


def status(m: Machine, a: Action) -> Event:
    m.end(a.goal_status)
    return f"status {a.goal_status}", None


def wait(m: Machine, a: Action) -> Event:
    # The only event a timed screen waits for is time: the next observation shows where
    # it went (`on splash wait -> home`); elsewhere waiting changes nothing.
    t = m.transition_on("wait")
    if t is not None:
        return m.fire(t, None), t
    return "wait", None


def nothing(m: Machine, a: Action) -> Event:
    return a.action_type, None


HANDLERS: dict[str, Callable[[Machine, Action], Event]] = {
    "click": click, "double_tap": click, "long_press": long_press, "input_text": input_text,
    "keyboard_enter": keyboard_enter, "scroll": scroll, "swipe": swipe,
    "navigate_back": navigate_back, "navigate_home": navigate_home, "open_app": open_app,
    "wait": wait, "answer": answer, "status": status, "unknown": nothing,
}
