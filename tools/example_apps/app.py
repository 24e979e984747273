"""What every scripted example app has: a back stack of screens, text fields, a dialog.

An app subclass names its screens by route (`screen_<name>(route) -> View`) and changes
its own state in the handlers its views carry; `render` is then a pure view of that
state, so every recorded screen agrees with what was done before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from phoneworld.ui.node import Bounds

from .device import DEFAULT_ICONS, Clock
from .views import View


@dataclass
class Route:
    """One entry of the back stack; `scroll` keeps its lists' offsets while it is stacked."""

    name: str
    params: dict = field(default_factory=dict)
    scroll: dict[str, int] = field(default_factory=dict)


class App:
    package = ""
    activities: dict[str, str] = {}
    """Route name -> activity class, relative to the package (".MainActivity")."""
    start = "home"

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.stack = [Route(self.start)]
        self.dialog: Callable[[], View] | None = None
        self.fields: dict[str, str] = {}
        self.focus = ""

    @property
    def route(self) -> Route:
        return self.stack[-1]

    def activity(self) -> str:
        return f"{self.package}/{self.activities[self.route.name]}"

    def render(self) -> tuple[View, View | None]:
        content = getattr(self, f"screen_{self.route.name}")(self.route)
        return content, self.dialog() if self.dialog is not None else None

    def status_icons(self) -> tuple[tuple[str, str], ...]:
        """The status bar's system icons (id, description) while this app is in front."""
        return DEFAULT_ICONS

    # -- navigation ---------------------------------------------------------------------

    def go(self, name: str, **params) -> None:
        self.stack.append(Route(name, params))
        self.focus = ""

    def back(self) -> None:
        if self.dialog is not None:
            self.dialog = None
        elif len(self.stack) > 1:
            self.stack.pop()
            self.focus = ""

    def before_action(self) -> None:
        """Forget what shows for one screen only (snackbars); apps override."""

    # -- text fields --------------------------------------------------------------------

    def focus_on(self, input_id: str) -> Callable[[], None]:
        def handler() -> None:
            self.focus = input_id
        return handler

    def type_text(self, input_id: str, text: str) -> None:
        self.fields[input_id] = self.fields.get(input_id, "") + text

    def edit_text(self, input_id: str, bounds: Bounds, hint: str, *, rid: str,
                  on_enter: Callable[[], None] | None = None) -> View:
        """An EditText showing its value, or its hint when empty (as uiautomator dumps do)."""
        value = self.fields.get(input_id, "")
        return View("android.widget.EditText", bounds, rid=rid, text=value or hint,
                    clickable=True, long_clickable=True, focused=self.focus == input_id,
                    key=input_id, input_id=input_id, on_tap=self.focus_on(input_id),
                    on_enter=on_enter)
