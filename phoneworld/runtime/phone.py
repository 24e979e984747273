"""A phone holding several mock apps: a launcher, `open_app`, home, and app switching.

    Phone([shopping, messages]) --open_app "messages"--> messages' start screen
                                --navigate_home-->       the launcher (messages keeps its state)
                                --tap "Shop" icon-->     shopping, where it was left

Each app keeps its own `Machine`, so switching apps never loses state: the ground for
cross-app tasks. The launcher is itself a tiny app spec (one screen of icons), so it has
every observation form the apps have. Every observation names its foreground package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from phoneworld.errors import InvalidAction, PhoneworldError, did_you_mean
from phoneworld.runtime.actions import Action
from phoneworld.runtime.machine import Machine, Outcome, Snapshot
from phoneworld.spec.ast import AppSpec, Const, Screen, Transition, View

LAUNCHER = "launcher"
LAUNCHER_PACKAGE = "com.android.launcher3"
_COLS, _ICON_W, _ICON_H, _TOP = 4, 270, 300, 200


def launcher_spec(apps: Sequence[AppSpec], width: int = 1080, height: int = 2400) -> AppSpec:
    """One screen with an icon per app, in a 4-column grid, as a launcher shows them."""
    icons = []
    for i, app in enumerate(apps):
        x, y = (i % _COLS) * _ICON_W, _TOP + (i // _COLS) * _ICON_H
        icons.append(View(cls="android.widget.TextView", bounds=(x, y, x + _ICON_W, y + _ICON_H),
                          name=f"icon_{i}", id=f"{LAUNCHER_PACKAGE}:id/icon",
                          text=Const(app.label), desc=Const(app.label),
                          flags=("clickable", "focusable")))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, width, height),
                id=f"{LAUNCHER_PACKAGE}:id/workspace", children=tuple(icons))
    screen = Screen(name="home", priority="P0", root=root, package=LAUNCHER_PACKAGE,
                    activity=f"{LAUNCHER_PACKAGE}.Launcher")
    return AppSpec(name=LAUNCHER, package=LAUNCHER_PACKAGE, start="home", width=width,
                   height=height, title="Launcher", screens=(screen,),
                   transitions=tuple(Transition(screen="home", widget=f"icon_{i}",
                                                action="tap", target="stay")
                                     for i in range(len(apps))))


@dataclass(frozen=True)
class PhoneSnapshot:
    machines: tuple[tuple[str, Snapshot], ...]
    foreground: str | None
    answer: str | None
    status: str | None


class Phone:
    """Several apps behind one action interface (the same as a `Machine`'s)."""

    def __init__(self, specs: Sequence[AppSpec]) -> None:
        if not specs:
            raise ValueError("a phone needs at least one app")
        names = [s.name for s in specs]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:  # one would silently shadow the other
            raise PhoneworldError(f"two apps are both named {', '.join(dupes)}; a phone "
                                  "holds each app once")
        self.specs = {s.name: s for s in specs}
        self.machines = {s.name: Machine(s) for s in specs}
        first = specs[0]
        self.launcher = Machine(launcher_spec(list(specs), first.width, first.height))
        self._icons = {f"icon_{i}": s.name for i, s in enumerate(specs)}
        self.foreground: str | None = None
        """The app in front, or None when the launcher shows."""
        self._answer: str | None = None
        self._status: str | None = None

    # -- what the agent sees ---------------------------------------------------------------

    @property
    def current(self) -> Machine:
        return self.machines[self.foreground] if self.foreground else self.launcher

    @property
    def package(self) -> str:
        return self.current.spec.package

    @property
    def screen(self) -> str:
        """`app:screen`, or `launcher:home`."""
        return f"{self.foreground or LAUNCHER}:{self.current.screen}"

    @property
    def answer(self) -> str | None:
        return self._answer

    @property
    def done(self) -> bool:
        return self._status is not None

    def observe(self, format: str = "elements") -> Any:
        return self.current.observe(format)

    # -- episode ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, app: str | None = None) -> Outcome:
        """Every app back to its initial state; `app` in front (default: the launcher)."""
        for m in self.machines.values():
            m.reset(seed)
        self.launcher.reset(seed)
        self.foreground = self._resolve(app) if app else None
        self._answer = self._status = None
        return self._outcome("reset")

    def step(self, action: Action | dict[str, Any] | str) -> Outcome:
        a = Action.parse(action)
        if self._status is not None:
            raise InvalidAction("the episode is over (status was given); reset first",
                                field="action_type")
        t = a.action_type
        if t == "open_app":
            self.foreground = self._resolve(a.app_name or "")
            self.current.left_app = False
            return self._outcome(f"open_app {self.foreground}")
        if t == "navigate_home":
            self.foreground = None
            return self._outcome("home")
        if t in ("answer", "status"):
            out = self.current.step(a)
            if t == "answer":
                self._answer = a.text
            else:
                self._status = a.goal_status
            return out
        if self.foreground is None:
            out = self.launcher.step(a)
            if out.transition is not None and out.transition.widget in self._icons:
                self.foreground = self._icons[out.transition.widget]
                return self._outcome(f"open_app {self.foreground}")
            return out
        out = self.current.step(a)
        if self.current.left_app:  # back on an app's first screen: the launcher again
            self.foreground = None
            return self._outcome("left_app")
        return out

    def check(self, app: str, condition, params: Mapping[str, Any] | None = None) -> bool:
        return self.machines[self._resolve(app)].check(condition, params)

    def snapshot(self) -> PhoneSnapshot:
        return PhoneSnapshot(machines=tuple((n, m.snapshot()) for n, m in self.machines.items()),
                             foreground=self.foreground, answer=self._answer,
                             status=self._status)

    def restore(self, snap: PhoneSnapshot) -> Outcome:
        self.place(snap)
        return self._outcome("restore")

    def place(self, snap: PhoneSnapshot) -> None:
        """`restore` without an outcome."""
        for name, s in snap.machines:
            self.machines[name].place(s)
        self.foreground, self._answer, self._status = snap.foreground, snap.answer, snap.status

    # -- helpers ---------------------------------------------------------------------------

    def _outcome(self, event: str) -> Outcome:
        return self.current.outcome(event)

    def _resolve(self, name: str) -> str:
        """An app by name, title or package, case-insensitively."""
        names: dict[str, str] = {}
        for s in self.specs.values():
            for n in (s.name, s.title, s.package):
                if n:
                    names.setdefault(n.casefold(), s.name)
        got = names.get(name.casefold())
        if got is None:
            raise InvalidAction(f"no app {name!r} on this phone; it has "
                                f"{', '.join(sorted(self.specs))}"
                                f"{did_you_mean(name.casefold(), names)}", field="app_name")
        return got
