"""Record a session on a device in phoneworld's own trace format.

    rec = Recorder(Bridge(device), instruction="Add milk to the cart")
    rec.start()                                   # the first screen
    rec.act({"action_type": "click", "index": 4}) # issued through the bridge, recorded
    rec.touched(gesture)                          # a person's own touch, already done
    rec.save(Path("traces/shop/add_milk"))        # trace.json + 000.xml ... (+ .png)

Each step is the screen it was done on, the trace action (see `Bridge.perform`), and the
settled screen after it. An `answer` ends up as the last screen's action; `status` ends
the session. A person's touches come from `getevent` (`touches.TouchReader`): a tap, long
press or key is recorded as it is; a swipe over a list as a scroll of that list; taps on
the on-screen keyboard that change the focused field's text as one `type` action with the
field's final text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from phoneworld.device.bridge import Bridge, centre, scrollable_at
from phoneworld.device.protocol import Screen, TouchSource
from phoneworld.device.touches import Gesture, TouchReader, touch_axes
from phoneworld.errors import DeviceError, InvalidAction
from phoneworld.runtime.actions import Action
from phoneworld.traces import native
from phoneworld.traces.assemble import assemble
from phoneworld.traces.model import Action as TraceAction
from phoneworld.traces.model import Observation, Step, Trace
from phoneworld.ui.hits import hit_test

_FINGER_TO_CONTENT = {"up": "down", "down": "up", "left": "right", "right": "left"}


class Recorder:
    """One recording session on a bridge's device (see the module docstring)."""

    def __init__(self, bridge: Bridge, *, app: str | None = None,
                 instruction: str | None = None, name: str = "session") -> None:
        self.bridge = bridge
        self.app = app
        self.instruction = instruction
        self.name = name
        self.screens: list[Screen] = []
        self.actions: list[TraceAction] = []
        """`actions[k]` was done on `screens[k]`."""
        self.answer: str | None = None
        self.finished = False

    @property
    def current(self) -> Screen:
        if not self.screens:
            raise DeviceError("the recording has not started: call start()")
        return self.screens[-1]

    def start(self) -> Screen:
        """Observe the first screen."""
        if not self.screens:
            self.screens.append(self.bridge.observe())
        return self.current

    def act(self, action: Action | dict[str, Any]) -> Screen | None:
        """Do `action` through the bridge and record it; the screen after it, or None once
        the session has ended (`status`)."""
        if self.finished:
            raise InvalidAction("the recording has ended", field="action_type")
        a = Action.parse(action)
        before = self.start()
        done = self.bridge.perform(a, before)
        if a.action_type == "status":
            self.finished = True
            return None
        if done is None:  # unknown: nothing happened
            return before
        if done.kind == "answer":
            self.answer = done.text
        self._record(done)
        return self.current

    def touched(self, g: Gesture) -> Screen:
        """Record a person's gesture (already done on the device) on the current screen."""
        before = self.start()
        if g.kind == "key":
            self._record(TraceAction(kind="key", key=g.key, raw="getevent"))
            return self.current
        if g.kind == "swipe":
            self._record(_swipe(before, g))
            return self.current
        kind = "long_press" if g.kind == "long_press" else "tap"
        after = self.bridge.observe()
        typed = _typing(before, after, g)
        if typed is not None:
            last = self.actions[-1] if self.actions else None
            if last is not None and last.kind == "type" and last.target == typed.target \
                    and len(self.screens) >= 2:
                # Another key on the keyboard: the same type action, with the text so far.
                self.actions[-1] = typed.model_copy(update={"x": last.x, "y": last.y})
                self.screens[-1] = after
            else:
                self.actions.append(typed)
                self.screens.append(after)
            return self.current
        self.actions.append(TraceAction(kind=kind, x=g.x, y=g.y, raw="getevent"))
        self.screens.append(after)
        return self.current

    def refresh(self) -> Screen:
        """Observe again without acting: a screen that changed by itself (a page that
        finished loading) replaces the last one, which is what the next action acts on."""
        screen = self.bridge.observe()
        if not self.screens or screen.xml != self.screens[-1].xml:
            if self.screens:
                self.screens[-1] = screen
            else:
                self.screens.append(screen)
        return self.current

    def _record(self, done: TraceAction) -> None:
        self.actions.append(done)
        self.screens.append(self.bridge.observe())

    # -- output ------------------------------------------------------------------------------

    def trace(self) -> Trace:
        """The session as a `Trace`, as the reader reads it back."""
        observations, steps = self._parts()
        return assemble(format="phoneworld", name=self.name, source=self.name,
                        observations=observations, steps=steps, app=self.app,
                        instruction=self.instruction, answer=self.answer)

    def save(self, folder: Path | str) -> Path:
        """Write the session as a phoneworld trace folder (and its screenshots)."""
        folder = Path(folder)
        observations, steps = self._parts()
        app = self.trace().app
        # As recorded: taps keep only their point (the reader hit-tests it again) and
        # activities their component name.
        raw = Trace(format="phoneworld", name=self.name, app=app, source=self.name,
                    observations=tuple(observations), steps=tuple(steps),
                    instruction=self.instruction, answer=self.answer)
        native.write(raw, folder)
        for k, obs in enumerate(observations):
            shot = self.screens[k].screenshot
            if shot and obs.screenshot:
                (folder / obs.screenshot).write_bytes(shot)
        return folder

    def _parts(self) -> tuple[list[Observation], list[Step]]:
        screens, actions = list(self.screens), list(self.actions)
        if not screens:
            raise DeviceError("nothing was recorded: the session has no screen")
        # An answer is the last screen's action, with nothing after it (as recorders write).
        if actions and actions[-1].kind == "answer" and len(screens) == len(actions) + 1 \
                and screens[-1].xml == screens[-2].xml:
            screens.pop()
        observations = [s.observation(f"{k:03d}.png" if s.screenshot else None)
                        for k, s in enumerate(screens)]
        steps = [Step(before=k, action=a, after=k + 1 if k + 1 < len(screens) else None,
                      source=f"{native.MANIFEST} steps[{k}]")
                 for k, a in enumerate(actions) if k < len(screens)]
        return observations, steps


def _swipe(before: Screen, g: Gesture) -> TraceAction:
    """A swipe that moved a list is a scroll of that list (content direction)."""
    dx, dy = g.x2 - g.x, g.y2 - g.y
    finger = ("down" if dy > 0 else "up") if abs(dy) >= abs(dx) else \
        ("right" if dx > 0 else "left")
    path = hit_test(before.root, g.x, g.y)
    lst = scrollable_at(before.root, path, before.width, before.height) \
        if path is not None else None
    if lst is None:
        return TraceAction(kind="swipe", x=g.x, y=g.y, x2=g.x2, y2=g.y2, direction=finger,
                           raw="getevent")
    x, y = centre(before.root.at(lst))
    return TraceAction(kind="scroll", x=x, y=y, direction=_FINGER_TO_CONTENT[finger],
                       target=lst, raw="getevent")


def _typing(before: Screen, after: Screen, g: Gesture) -> TraceAction | None:
    """A tap off the focused field that changed its text: a key of the keyboard."""
    field = next((p for p, n in before.root.walk() if n.focused and n.editable), None)
    if field is None:
        return None
    node = before.root.at(field)
    x1, y1, x2, y2 = node.bounds
    if x1 <= g.x < x2 and y1 <= g.y < y2:
        return None
    try:
        now = after.root.at(field)
    except IndexError:
        return None
    if not now.editable or now.class_name != node.class_name or now.text == node.text:
        return None
    x, y = centre(node)
    return TraceAction(kind="type", x=x, y=y, text=now.text, target=field, raw="getevent")


# -- sources of actions -------------------------------------------------------------------------

def script_actions(path: Path | str, width: int, height: int) -> Iterator[Action]:
    """Actions from a file: JSON lines, a JSON list, or one raw action text per line, in
    any format `phoneworld.agent.formats.to_action` takes. Errors name the line."""
    from phoneworld.agent.formats import to_action

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise DeviceError(f"{path}: cannot read the script: {err.strerror or err}") from err
    items: Iterable[tuple[int, Any]]
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            items = enumerate(json.loads(stripped), 1)
        except ValueError as err:
            raise InvalidAction(f"{path}: not a JSON list of actions ({err})",
                                field="script") from err
    else:
        items = ((n, line) for n, line in enumerate(text.splitlines(), 1)
                 if line.strip() and not line.lstrip().startswith("#"))
    for n, item in items:
        if isinstance(item, str):
            try:
                item = json.loads(item)
            except ValueError:
                pass  # raw text: the tolerant parser reads it
        try:
            yield to_action(item, width, height)
        except InvalidAction as err:
            raise InvalidAction(f"{path}:{n}: {err}", field=None) from err


def record_touches(rec: Recorder, source: TouchSource,
                   on_step: Callable[[Screen], None] | None = None,
                   idle_refresh: float | None = None) -> None:
    """Record a person's touches until the event stream ends (or Ctrl-C).

    With `idle_refresh` (seconds), the events are read on a thread and the screen is
    observed again whenever no finger has been down for that long, so a screen that
    changes by itself is recorded as the person saw it before touching it.
    """
    screen = rec.start()
    axes = touch_axes(source.input_devices())
    if axes is None:
        raise DeviceError("getevent shows no touchscreen on this device; record with "
                          "actions instead (--script or the prompt)")
    reader = TouchReader(axes, screen.width, screen.height)
    for line in _lines(source, idle_refresh):
        if line is None:  # idle
            if not reader.touching:
                rec.refresh()
            continue
        for g in reader.feed(line):
            after = rec.touched(g)
            if on_step is not None:
                on_step(after)


def _lines(source: TouchSource, idle: float | None) -> Iterator[str | None]:
    """The event lines, with None for every `idle` seconds without one."""
    if idle is None:
        yield from source.input_events()
        return
    import queue
    import threading

    q: queue.Queue[str | None] = queue.Queue()
    end = object()

    def pump() -> None:
        try:
            for line in source.input_events():
                q.put(line)
        finally:
            q.put(end)  # type: ignore[arg-type]

    threading.Thread(target=pump, name="getevent", daemon=True).start()
    while True:
        try:
            item = q.get(timeout=idle)
        except queue.Empty:
            yield None
            continue
        if item is end:
            return
        yield item


# -- a whole session ----------------------------------------------------------------------------

Agent = Callable[[dict[str, Any], str], Any]
"""`agent(observation, instruction) -> action` (any format `to_action` takes); the
observation has `elements` (text), `xml` and `screen` (the foreground activity)."""

PROMPT_HELP = ("Type an action: JSON ({\"action_type\": \"click\", \"index\": 3}), a tool call "
               "(click(index=3), type(text='hi', index=5), scroll(direction=down)), or back, "
               "home, enter, wait. 'show' prints the screen again; 'done' ends the session.")


def record_session(device: Any, folder: Path | str, *, app: str | None = None,
                   activity: str | None = None, restart: bool = False,
                   instruction: str | None = None, actions: Iterable[Any] | None = None,
                   agent: Agent | None = None, touches: bool = False,
                   ask: Callable[[str], str] | None = None,
                   say: Callable[[str], None] = print, max_steps: int = 50,
                   screenshots: bool = False, polling: Any = None,
                   name: str | None = None, idle_refresh: float | None = None) -> Trace:
    """Record one session on `device` into `folder` and return the trace.

    The actions come from `actions` (already parsed or any accepted format), an `agent`,
    a person's `touches` (getevent; `idle_refresh` as in `record_touches`), or else a
    prompt (`ask`, default `input`). `app` is started first (stopped before, with
    `restart`). Ctrl-C ends the session and keeps what was recorded.
    """
    from phoneworld.agent.elements import format_elements
    from phoneworld.agent.formats import to_action
    from phoneworld.device.stable import Polling

    folder = Path(folder)
    bridge = Bridge(device, polling=polling or Polling(), screenshots=screenshots)
    if app:
        if restart:
            device.stop_app(app)
        device.start_app(app, activity)
    rec = Recorder(bridge, app=app, instruction=instruction, name=name or folder.name)
    screen = rec.start()

    def show(s: Screen) -> None:
        say(f"-- {s.component or s.package} ({len(rec.actions)} steps)")
        say(format_elements(bridge.elements(s)))

    try:
        if touches:
            if not isinstance(device, TouchSource):
                raise DeviceError("this device cannot report touches (no getevent)")
            say("recording your touches on the phone; press Ctrl-C to stop")
            record_touches(rec, device, on_step=lambda s: say(
                f"step {len(rec.actions)}: {rec.actions[-1].kind} -> "
                f"{s.component or s.package}"), idle_refresh=idle_refresh)
        elif actions is not None or agent is not None:
            source = iter(actions) if actions is not None else None
            while not rec.finished and len(rec.actions) < max_steps:
                if source is not None:
                    item = next(source, None)
                    if item is None:
                        break
                else:
                    assert agent is not None
                    obs = {"elements": format_elements(bridge.elements(screen)),
                           "xml": screen.xml, "screen": screen.component}
                    item = agent(obs, instruction or "")
                after = rec.act(to_action(item, screen.width, screen.height))
                if after is None or rec.actions and rec.actions[-1].kind == "answer" \
                        and agent is not None:
                    break
                screen = after
        else:
            ask = ask or input
            say(PROMPT_HELP)
            show(screen)
            while not rec.finished and len(rec.actions) < max_steps:
                try:
                    line = ask("action> ").strip()
                except EOFError:
                    break
                if line in ("done", "quit", "exit", "q"):
                    break
                if line in ("", "show", "?", "help"):
                    say(PROMPT_HELP) if line in ("?", "help") else show(screen)
                    continue
                try:
                    after = rec.act(to_action(line, screen.width, screen.height))
                except InvalidAction as err:
                    say(f"not done: {err}")
                    continue
                if after is None:
                    break
                screen = after
                show(screen)
    except KeyboardInterrupt:
        say("stopped; saving what was recorded")
    rec.save(folder)
    return rec.trace()
