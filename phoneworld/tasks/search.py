"""A shortest action list to a state where a condition holds: breadth-first search.

    search(World(machine), goal)  -> ([{"action_type": "click", "index": 4}, ...], states)

From the world's current state, every action worth trying (`world.candidate_actions`)
is stepped, with `snapshot`/`restore` between tries; states with the same key
(`World.key`) are one. What an earlier search of this process learnt by stepping is
taken from `stategraph` instead of stepping again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from phoneworld.tasks.stategraph import Node, trim
from phoneworld.tasks.world import Action, World

MAX_STATES = 6000
"""States one search stage may visit before it gives up."""
MAX_DEPTH = 24
"""Actions other than scrolls one search stage's plan may take. Scrolls are not counted:
a row far down a list costs a scroll per half page, as many as the list is long, and no
decision (uber's row 21 of a web list showing two rows at a time is 20 scrolls down on a
page four taps from the start); each offset is a state of its own, so the state budget
still bounds them."""


def search(world: World, goal: Callable[[World], bool], *, typed: Sequence[str] = (),
           apps: Sequence[str] = (), max_states: int = MAX_STATES,
           max_depth: int = MAX_DEPTH) -> tuple[list[Action], int] | None:
    """A shortest action list from the world's current state to one where `goal` holds
    (and the number of states visited), or None within the limits (`max_states` states,
    `max_depth` actions besides scrolls). The world is left in the goal state.

    Where an earlier search of this process stepped the same action in the same whole
    state, its outcome is taken from `stategraph` instead of stepping again; the target
    is placed at a state only to look at it (its key's facts, the goal, the actions worth
    trying there), so the search visits what it would by stepping, in the same order."""
    start = world.snapshot()
    if goal(world):
        return [], 1
    trim()
    typed, apps = tuple(typed), tuple(apps)
    root = world.node()
    at: Node | None = root
    """The node the target is at, where known."""
    seen = {world.key(root)}
    met = {root}
    """Nodes whose keys are in `seen`."""
    queue: deque[tuple[Node, tuple[Action, ...], int]] = deque([(root, (), 0)])
    while queue:
        node, path, moves = queue.popleft()
        if moves >= max_depth:
            continue
        if at is not node and (typed, apps) not in node.choices:
            world.restore(node.snap)
            at = node
        for action, key, parsed in world.choices(node, typed, apps):
            try:
                edge = node.edges[key]
            except KeyError:
                if at is not node:
                    world.restore(node.snap)
                edge, stayed = _step(world, action, parsed)
                node.edges[key] = edge
                at = edge if edge is not None else node if stayed else None
            if edge is None or edge in met:
                continue
            met.add(edge)
            if at is not edge:
                world.restore(edge.snap)
                at = edge
            k = world.key(edge)
            if k in seen:
                continue
            seen.add(k)
            new = (*path, action)
            if goal(world):
                return list(new), len(seen)
            if len(seen) >= max_states:
                world.restore(start)
                return None
            queue.append((edge, new, moves + (action["action_type"] != "scroll")))
    world.restore(start)
    return None


def _step(world: World, action: Action, parsed: Any) -> tuple[Node | None, bool]:
    """Step `action` (`parsed`) in the world's current state: (the node it led to, or
    None where a search does not go on from there (refused, a no-op, out of the app);
    whether the target is still in the state it was in)."""
    try:
        # Only the event is kept: an outcome still held when the machine moves on is
        # rendered first (`Machine._freeze`), and most tries are never looked at.
        event = world.step(parsed).event
    except Exception:  # noqa: BLE001 - an action the screen refuses is no move
        return None, False
    if event.startswith("no-op"):
        # A press that fires nothing leaves the state as it was (a text field it
        # focuses aside).
        return None, action.get("action_type") not in (
            "long_press", "input_text", "keyboard_enter") and not _focuses(world, action)
    if (world.phone is None and world.target.left_app) or \
            (world.phone is not None and world.phone.foreground is None):
        return None, False
    return world.node(), True


def _focuses(world: World, action: Action) -> bool:
    """Whether a click may have focused a text field (which changes the state)."""
    i = action.get("index")
    if i is None:
        return False
    els = world.elements()
    return i < len(els) and bool(els[i]["editable"])
