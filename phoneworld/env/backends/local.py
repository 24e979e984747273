"""The in-process backend: a `Machine` for one app, a `Phone` for several; no I/O at all.

A step's `Outcome` is the view: the machine renders it only when a form is read, and
renders it from the state it describes even if read after later steps. The element
list's text is made once per rendered screen and kept with it (the machine keeps
screens it has rendered, so a screen met again costs neither rendering nor text).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from phoneworld.agent.elements import format_elements
from phoneworld.env.backends import verdict
from phoneworld.errors import PhoneworldError, did_you_mean
from phoneworld.runtime.actions import Action
from phoneworld.runtime.machine import Machine, Outcome
from phoneworld.runtime.phone import Phone
from phoneworld.spec.ast import AppSpec

POOL = 256
"""Task instances drawn once per backend (with seed 0) for resets that name none."""


class LocalView:
    """An `Outcome` as a `View` (forms rendered on first read)."""

    __slots__ = ("outcome", "_shot")

    def __init__(self, outcome: Outcome, shot: Callable[[Outcome], Any] | None) -> None:
        self.outcome = outcome
        self._shot = shot

    @property
    def screen(self) -> str:
        return self.outcome.screen

    @property
    def event(self) -> str:
        return self.outcome.event

    @property
    def elements(self) -> list[dict[str, Any]]:
        return self.outcome.elements

    @property
    def xml(self) -> str:
        return self.outcome.xml

    def elements_text(self) -> str:
        """`format_elements(self.elements)`, made once per rendered screen."""
        return self.outcome.rendering.derived("elements_text", _elements_text)

    def screenshot(self) -> Any:
        return self._shot(self.outcome) if self._shot is not None else None


class LocalBackend:
    """Runs `specs` in this process (see the module docstring)."""

    kind = "local"
    views_expire = False

    def __init__(self, specs: Sequence[AppSpec], *, tasks: Sequence[Any] | None = None,
                 screenshot: Callable[[Outcome], Any] | None = None) -> None:
        if not specs:
            raise PhoneworldError("an env needs at least one app")
        self.specs = list(specs)
        self.target: Machine | Phone = Machine(specs[0]) if len(specs) == 1 else Phone(specs)
        self.width, self.height = specs[0].width, specs[0].height
        self.apps = tuple(s.title or s.name for s in specs)
        self.tasks = list(tasks) if tasks is not None else None
        self._pool: list[Any] | None = None
        self._shot = screenshot

    # -- tasks ---------------------------------------------------------------------------------

    def find_task(self, task_id: str) -> Any:
        if self.tasks is not None:
            by_id = {str(t.id): t for t in self.tasks}
            if task_id in by_id:
                return by_id[task_id]
            raise PhoneworldError(f"no task {task_id!r} among this env's {len(by_id)} "
                                  f"tasks{did_you_mean(task_id, by_id)}")
        from phoneworld.tasks.sample import find_task

        task = find_task(self.specs, task_id)
        if task is None:
            raise PhoneworldError(f"no task {task_id!r} for these apps")
        return task

    def sample_task(self, rng: Any) -> Any | None:
        pool = self.tasks if self.tasks is not None else self._task_pool()
        if not pool:
            return None
        return pool[int(rng.integers(len(pool)))]

    def _task_pool(self) -> list[Any]:
        if self._pool is None:
            from phoneworld.tasks.sample import sample_tasks

            self._pool = list(sample_tasks(self.specs, POOL, 0))
        return self._pool

    # -- episodes --------------------------------------------------------------------------------

    def reset(self, seed: int | None, task: Any | None) -> LocalView:
        t = self.target
        if isinstance(t, Phone):
            apps = [str(a) for a in getattr(task, "apps", ()) or ()]
            app = apps[0] if len(apps) == 1 and apps[0] in t.specs else None
            return LocalView(t.reset(seed, app=app), self._shot)
        return LocalView(t.reset(seed), self._shot)

    def step(self, action: Action) -> LocalView:
        return LocalView(self.target.step(action), self._shot)

    def check(self, task: Any) -> tuple[bool, str]:
        return verdict(task.check(self.target))

    def close(self) -> None:
        shot, self._shot = self._shot, None
        if isinstance(shot, BrowserShots):
            shot.close()


class BrowserShots:
    """The default in-process screenshot: the screen drawn by Debian's Chromium at the
    device's size (the server's `Screenshotter`, one browser shared by the process's
    envs), as a read-only RGB array. Fails at once, in one line naming what to install,
    where Playwright or Chromium is missing."""

    def __init__(self, specs: Sequence[AppSpec]) -> None:
        from phoneworld.serve.screenshots import acquire_shared, browser_missing, chromium_path

        why = browser_missing(chromium_path())
        if why is not None:
            raise PhoneworldError(f"in-process screenshots: {why}; or pass screenshot="
                                  "<callable(outcome) -> PNG bytes or RGB array>")
        self._shots = acquire_shared(specs)

    def __call__(self, outcome: Outcome) -> Any:
        if self._shots is None:
            raise PhoneworldError("the env is closed: its screenshots are gone")
        r = outcome.rendering
        return self._shots.pixels(r.html, width=r.width, height=r.height)

    def close(self) -> None:
        if self._shots is not None:
            from phoneworld.serve.screenshots import release_shared

            self._shots = None
            release_shared()


def _elements_text(r: Any) -> str:
    return format_elements(r.elements)
