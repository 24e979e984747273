"""Transitions between abstract screens, from the recorded steps, with a back stack.

    step(obs 3 --tap (540,1210)--> obs 4)  ->  Transition(home, ".../[item]", tap, detail, item)

Each step becomes (source screen, widget, action) -> target screen:
- taps and long presses name the widget they hit; a tap on the navigation bar's Back or
  Home button is the `back` / `home` key;
- `type` names the text field, `enter` becomes `submit` on the focused field;
- scrolls and swipes name the list (or the screen) they moved;
- app launches (`open_app`, intents) enter from the screen they were done on.
The back key is resolved against a back stack kept per trace: when it returns to the
screen below, the target is `back`, as on Android; otherwise the real target is kept.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from phoneworld.ir.model import ObsRef, Transition
from phoneworld.traces.model import Action, Step, Trace
from phoneworld.ui.hits import hit_test
from phoneworld.ui.node import Node, NodePath
from phoneworld.ui.widgets import WidgetRef, widget_ref

if TYPE_CHECKING:
    from phoneworld.infer.facts import StepFacts


def focused_editable(root: Node | None) -> NodePath | None:
    """The path of the focused text field, if any."""
    if root is None:
        return None
    for path, node in root.walk():
        if node.editable and node.focused:
            return path
    return None


def touch_target(root: Node | None, action: Action) -> NodePath | None:
    """The view that receives a touch: Android's dispatch at the touch point (a label's
    clickable row, not the label), which is what the mock's runtime does too; else the
    recorded target. Recorders like DroidBot name the view they aimed at, not the one
    that got the event."""
    if action.kind in ("tap", "long_press") and root is not None and action.x is not None:
        hit = hit_test(root, action.x, action.y)
        if hit is not None:
            return hit
    return action.target


def classify_step(root: Node | None, step: Step, *, target: NodePath | None = None,
                  ref: WidgetRef | None = None) -> tuple[str, str, bool, str | None]:
    """(widget, action, is_item, key) for one recorded step (`target` and `ref`, when
    given, are its touch target and that target's widget, already worked out)."""
    a = step.action
    if target is None:
        target = touch_target(root, a)
    if a.kind in ("tap", "long_press") and target is not None and root is not None:
        ref = ref if ref is not None else widget_ref(root, target)
        if ref.system:
            label = root.at(target).label.lower()
            if label in ("back", "navigate up"):
                return "back", "back", False, "back"
            if label == "home":
                return "home", "home", False, "home"
        return ref.key, a.kind, ref.item is not None, None
    if a.kind in ("tap", "long_press"):
        return "screen", a.kind, False, None
    if a.kind == "type":
        target = a.target if a.target is not None else focused_editable(root)
        key = widget_ref(root, target).key if (root is not None and target is not None) \
            else "input"
        return key, "type", False, None
    if a.kind == "key":
        k = (a.key or "").lower()
        if k == "enter":
            target = focused_editable(root)
            key = widget_ref(root, target).key if target is not None else "enter"
            return key, "submit", False, "enter"
        if k in ("back", "home"):
            return k, k, False, k
        return f"key_{k}", "key", False, k
    if a.kind in ("scroll", "swipe"):
        if a.target is not None and root is not None:
            ref = widget_ref(root, a.target)
            return ref.list_key or ref.key, "scroll", False, a.direction
        return "screen", "scroll", False, a.direction
    if a.kind in ("open_app", "intent"):
        return "launch", "open", False, a.package
    return a.kind, a.kind, False, None


def build_transitions(traces: Sequence[Trace], where: dict[ObsRef, str],
                      steps: Sequence[StepFacts] | None = None) -> list[Transition]:
    """Aggregate every recorded step into counted transitions (sorted, deterministic);
    `steps` are the steps' facts when already read (`facts.step_facts`)."""
    if steps is None:
        from phoneworld.infer.facts import step_facts

        steps = step_facts(traces)
    counts: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    returns: Counter = Counter()
    stack: list[str] = []
    for sf in steps:
        t, s, step = sf.trace, sf.index, sf.step
        if s == 0:
            stack = []
        if step.after is None or step.action.kind in ("answer", "wait", "stop_app"):
            continue
        src = where.get(sf.before)
        dst = where.get(sf.after)
        if src is None or dst is None:
            stack.clear()
            continue
        widget, action, item, key = sf.widget, sf.action, sf.item, sf.key
        if not stack or stack[-1] != src:
            stack.append(src)
        target = dst
        returned = False
        if action == "back" and len(stack) >= 2 and stack[-2] == dst:
            target = "back"
            stack.pop()
        elif dst == src:
            target = "stay"
        elif dst in stack:
            del stack[stack.index(dst) + 1:]
            returned = True
        else:
            stack.append(dst)
        counts[(src, widget, action, target, item, key)].append((t, s))
        if returned:
            returns[(src, widget, action, target, item, key)] += 1
    return [Transition(source=src, widget=w, action=a, target=tgt, item=item, key=key,
                       count=len(ex), examples=tuple(ex), returns=returns[k])
            for k, ex in sorted(counts.items(), key=_order)
            for (src, w, a, tgt, item, key) in (k,)]


def _order(kv):
    (src, w, a, tgt, item, key), _ = kv
    return (src, w, a, tgt, item, key or "")
