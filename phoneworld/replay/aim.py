"""A recorded action as the mock takes it: AndroidWorld JSON (`to_agent_action`), aimed at
the mock's counterpart of the recorded target (`aim`) where the mock lays it elsewhere."""

from __future__ import annotations

import re

from phoneworld.errors import InvalidAction
from phoneworld.replay.place import MAX_SCROLLS
from phoneworld.traces.model import Action, Observation
from phoneworld.ui.node import Node
from phoneworld.ui.widgets import widget_ref


def to_agent_action(action: Action, obs: Observation) -> dict | None:
    """The AndroidWorld JSON action for a recorded action, or None if a mock can't take it."""
    k = action.kind
    if k in ("tap", "long_press") and action.x is not None:
        return {"action_type": "click" if k == "tap" else "long_press",
                "x": action.x, "y": action.y}
    if k == "type":
        x, y = action.x, action.y
        if x is None and action.target is not None and obs.root is not None:
            b = obs.root.at(action.target).bounds
            x, y = (b[0] + b[2]) // 2, (b[1] + b[3]) // 2
        out = {"action_type": "input_text", "text": action.text or ""}
        if x is not None:
            out.update(x=x, y=y)
        return out
    if k == "key":
        key = (action.key or "").lower()
        if key == "back":
            return {"action_type": "navigate_back"}
        if key == "enter":
            return {"action_type": "keyboard_enter"}
        return None
    if k == "scroll" and action.direction:
        return {"action_type": "scroll", "direction": action.direction}
    if k == "swipe" and action.x2 is not None and action.y2 is not None:
        dx, dy = action.x2 - action.x, action.y2 - action.y
        if abs(dy) >= abs(dx):
            return {"action_type": "scroll", "direction": "down" if dy < 0 else "up"}
        return {"action_type": "scroll", "direction": "right" if dx < 0 else "left"}
    return None


def aim(act: dict, action: Action, obs: Observation, machine) -> dict:
    """Aim the action at the mock's counterpart of the recorded target, else keep the
    recorded coordinates.

    The counterpart is, in order: the one element with the same class, resource-id and
    label; the view with the same widget key (class/id path), inside lists the item
    whose texts match the recorded item's best. Layouts that grow with their content (a
    dialog listing a folder) or lists scrolled elsewhere put the same widget at other
    coordinates than the app's one layout; an agent reading the screen would act on
    the widget, and so does replay. The mock's list is scrolled as the recording's was
    when the widget is not in view: on down first, then back up from where it was (a
    screen placed further down than the widget, where its list's rows differ in size).
    """
    if action.target is None or obs.root is None or "x" not in act:
        return act
    node = obs.root.at(action.target)
    label = node.text or node.content_desc
    ref = widget_ref(obs.root, action.target)
    want_texts = _item_texts(obs.root, action.target, ref)
    snap = machine.snapshot()
    for direction in ("down", "up"):
        machine.restore(snap)
        seen: list = []
        for scrolls in range(MAX_SCROLLS + 1):
            if scrolls:  # scroll the mock on, as the recording had scrolled
                try:
                    machine.step({"action_type": "scroll", "direction": direction})
                except InvalidAction:
                    break
            elements = machine.observe("elements")
            texts = [e["text"] for e in elements]
            if texts in seen:
                break
            seen.append(texts)
            found = [e for e in elements
                     if (e["class"], e["resource_id"], e["text"] or e["content_desc"]) == (
                         node.class_name, node.resource_id, label)]
            if len(found) == 1:
                return _at_element(act, found[0]["bounds"])
            bounds = _same_widget(machine.observe("node"), ref, want_texts)
            if bounds is not None:
                return _at_element(act, bounds)
    machine.restore(snap)
    return act


def _at_element(act: dict, b) -> dict:
    return {**act, "x": (b[0] + b[2]) // 2, "y": (b[1] + b[3]) // 2}


def _item_texts(root: Node, path, ref) -> frozenset[str]:
    if ref.item is None:
        return frozenset()
    # The item is the list's child on the path to the target.
    for cut in range(len(path), -1, -1):
        ref_here = widget_ref(root, path[:cut])
        if ref_here.key.endswith("[item]"):
            return frozenset(n.text for _, n in root.at(path[:cut]).walk() if n.text)
    return frozenset()


def _same_widget(mock: Node, ref, want_texts: frozenset[str]):
    """Bounds of the mock view with the recorded target's widget key (see above): the
    one such view outside lists, or the item whose texts match best inside one. Keys
    told apart only by position (`@2`) are not trusted across layouts."""
    if re.search(r"@\d+$", ref.key):
        return None
    best, best_score, hits = None, -1, 0
    for path, n in mock.walk():
        if not n.visible or n.bounds[2] <= n.bounds[0] or n.bounds[3] <= n.bounds[1]:
            continue
        r = widget_ref(mock, path)
        if r.key != ref.key:
            continue
        score = len(want_texts & _item_texts(mock, path, r)) if ref.item is not None else 0
        if ref.item is not None and want_texts and score == 0:
            continue
        hits += 1
        if score > best_score:
            best, best_score = n.bounds, score
    if ref.item is None and hits != 1:
        return None
    return best
