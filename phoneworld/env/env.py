"""`PhoneworldEnv`: a gymnasium env over a mock app, a served app or a real phone.

    env = gymnasium.make("phoneworld/shopping-v0")
    obs, info = env.reset(seed=0, options={"task": "shopping/add_to_cart#3"})
    info["instruction"]                      # what the agent is asked to do
    obs["elements"], obs["xml"]              # the screen, as text (read lazily)
    obs, reward, terminated, truncated, info = env.step({"action_type": "click", "index": 4})

Actions come as AndroidWorld JSON (a dict, or an `Action`), PhoneBuddy tool calls, or a
model's raw output text; all become one `Action`. An action that cannot be parsed or
applied does nothing and comes back as `info["error"]` (or raises, with
`invalid_action="raise"`); it still counts as a step. The episode ends (`terminated`)
when the agent gives a `status` or, by default, an `answer`; it is cut off (`truncated`)
after `max_steps`. Only then is the task checked: reward 1.0 on success, else 0.0, with
`info["success"]` and `info["reason"]`. Without a task the reward is always 0.
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from phoneworld.agent.elements import format_elements
from phoneworld.agent.formats import to_action
from phoneworld.env.backends import Backend, View
from phoneworld.env.observation import LazyObservation
from phoneworld.env.spaces import ActionSpace, observation_space
from phoneworld.errors import InvalidAction, PhoneworldError, did_you_mean
from phoneworld.runtime.actions import Action
from phoneworld.spec.ast import AppSpec

FORMS = ("elements", "xml", "screenshot")


class PhoneworldEnv(gymnasium.Env):
    """A phone-use env (see the module docstring).

    Args:
        app: an example app's name, a generated app folder, a folder of them or a list of
            apps (a phone with a launcher), or `AppSpec`s; for the in-process backend.
        backend: any other backend (`HttpBackend`, `DeviceBackend`); see `phoneworld.make`.
        task: the task of every episode (an object with `id`, `instruction` and
            `check(target)`, or a task id); `reset(options={"task": ...})` overrides it.
        tasks: the tasks a reset draws from when none is named (default: drawn by
            `phoneworld.tasks` from the apps' task templates; `[]`: no task).
        max_steps: steps before an episode is truncated.
        observe: the observation's forms, of "elements", "xml" and "screenshot".
        screenshot: True adds "screenshot" to `observe`; for the in-process backend the
            screen is then drawn by Debian's Chromium (shared by the process's envs), or
            by a callable `f(outcome)` given here, returning PNG bytes or an RGB array.
        screenshot_size: (width, height) of the screenshot observation (default: the
            screen's own, so a click at (x, y) lands where the image shows it; smaller
            only when asked).
        end_on_answer: whether an `answer` ends the episode (else only `status`).
        invalid_action: "penalize" (a no-op step with `info["error"]`) or "raise".
        invalid_reward: the reward of a step whose action was invalid.
        max_text: the longest element list or XML the observation space holds.
        render_mode: None or "ansi" (the element list as text).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, app: Any = None, *, backend: Backend | None = None, task: Any = None,
                 tasks: Sequence[Any] | None = None, max_steps: int = 50,
                 observe: Iterable[str] = ("elements", "xml"),
                 screenshot: bool | Callable[[Any], Any] = False,
                 screenshot_size: tuple[int, int] | None = None, end_on_answer: bool = True,
                 invalid_action: str = "penalize", invalid_reward: float = 0.0,
                 max_text: int = 2**20, render_mode: str | None = None) -> None:
        forms = list(dict.fromkeys(observe))
        if screenshot and "screenshot" not in forms:
            forms.append("screenshot")
        bad = [f for f in forms if f not in FORMS]
        if bad or not forms:
            raise PhoneworldError(f"observe: {bad or 'nothing'}; choose from "
                                  f"{', '.join(FORMS)}")
        if invalid_action not in ("penalize", "raise"):
            raise PhoneworldError(f"invalid_action must be 'penalize' or 'raise', not "
                                  f"{invalid_action!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise PhoneworldError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_steps < 1:
            raise PhoneworldError(f"max_steps must be at least 1, not {max_steps}")
        if backend is None:
            if app is None:
                raise PhoneworldError("give an app (a name, a generated app folder, or "
                                      "several) or a backend")
            from phoneworld.env.backends.local import BrowserShots, LocalBackend

            specs = load_specs(app)
            shot = screenshot if callable(screenshot) else None
            if "screenshot" in forms and shot is None:
                shot = BrowserShots(specs)
            backend = LocalBackend(specs, tasks=tasks, screenshot=shot)
        elif tasks is not None and hasattr(backend, "tasks"):
            backend.tasks = list(tasks)  # type: ignore[attr-defined]
        self.backend = backend
        self.max_steps = max_steps
        self.end_on_answer = end_on_answer
        self.invalid_action = invalid_action
        self.invalid_reward = float(invalid_reward)
        self.render_mode = render_mode
        self.width, self.height = backend.width, backend.height
        self.shot_size = screenshot_size or (max(1, self.width), max(1, self.height))
        self.observation_space = observation_space(forms, max_text, self.shot_size)
        # A Dict space orders its keys; observations follow the same order.
        self.forms = tuple(self.observation_space.spaces)
        self.action_space = ActionSpace(self.width, self.height, backend.apps,
                                        screen=_ScreenElements(self))
        self._default_task = task
        self.task: Any = None
        self._view: View | None = None
        self._held: weakref.ref[LazyObservation] | None = None
        self._steps = 0
        self._over = False

    # -- the gymnasium contract ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = [k for k in options if k != "task"]
        if unknown:
            raise PhoneworldError(f"unknown reset option {unknown[0]!r}; options: task")
        task = options.get("task", self._default_task)
        if isinstance(task, str):
            task = self.backend.find_task(task)
        elif task is None:
            task = self.backend.sample_task(self.np_random)
        self._release()
        view = self.backend.reset(seed, task)
        self.task = task
        self._view = view
        self._steps = 0
        self._over = False
        info = self._info(view)
        info["apps"] = list(self.backend.apps)
        return self._observe(view), info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._view is None:
            raise PhoneworldError("call reset() before step()")
        if self._over:
            raise PhoneworldError("the episode is over: call reset() to start another")
        self._release()
        error: InvalidAction | None = None
        a: Action | None = None
        try:
            a = to_action(action, self.width, self.height)
            view = self.backend.step(a)
        except InvalidAction as err:
            if self.invalid_action == "raise":
                raise
            # Without its traceback: kept, it would hold this frame, which holds it (a
            # cycle left to the garbage collector on every invalid step).
            error, view = err.with_traceback(None), self._view
        self._view = view
        self._steps += 1
        t = a.action_type if a is not None and error is None else None
        terminated = t == "status" or (t == "answer" and self.end_on_answer)
        truncated = not terminated and self._steps >= self.max_steps
        reward = self.invalid_reward if error is not None else 0.0
        info = self._info(view)
        info["action"] = a.as_dict() if a is not None else None
        if error is not None:
            info["event"] = "invalid action"
            info["error"] = str(error)
            info["error_field"] = error.field
        if terminated or truncated:
            self._over = True
            success, reason = self._judge()
            info["success"], info["reason"] = success, reason
            reward += 1.0 if success else 0.0
        return self._observe(view), float(reward), terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return elements_text(self._view) if self._view is not None else ""

    def close(self) -> None:
        backend = getattr(self, "backend", None)
        if backend is not None:
            backend.close()

    # -- helpers ----------------------------------------------------------------------------------

    @property
    def instruction(self) -> str:
        t = self.task
        if t is None:
            return ""
        text = getattr(t, "instruction", "") or getattr(self.backend, "instruction", "") or ""
        return str(text)

    def _info(self, view: View) -> dict[str, Any]:
        t = self.task
        return {"task_id": None if t is None else str(t.id), "instruction": self.instruction,
                "step": self._steps, "screen": view.screen, "event": view.event}

    def _judge(self) -> tuple[bool, str]:
        if self.task is None:
            return False, "no task"
        try:
            return self.backend.check(self.task)
        except PhoneworldError as err:
            return False, f"the checker failed: {err}"

    def _observe(self, view: View) -> LazyObservation:
        makers: dict[str, Callable[[], Any]] = {}
        for f in self.forms:
            if f == "elements":
                makers[f] = lambda v=view: elements_text(v)
            elif f == "xml":
                makers[f] = lambda v=view: v.xml
            else:
                makers[f] = lambda v=view: self._image(v)
        obs = LazyObservation(makers)
        if self.backend.views_expire:
            self._held = weakref.ref(obs)
        return obs

    def _release(self) -> None:
        """Read what a still-held observation has not read yet, before its view expires."""
        held = self._held() if self._held is not None else None
        if held is not None:
            held.materialize()
        self._held = None

    def _image(self, view: View) -> np.ndarray:
        shot = view.screenshot()
        if shot is None:
            raise PhoneworldError("this backend gave no screenshot")
        return to_rgb(shot, self.shot_size)


def elements_text(view: View) -> str:
    """The element list as text (`format_elements`); a view that keeps its own text (the
    in-process one keeps it with each rendered screen) is asked for it."""
    text = getattr(view, "elements_text", None)
    return text() if text is not None else format_elements(view.elements)


def to_rgb(shot: Any, size: tuple[int, int]) -> np.ndarray:
    """PNG bytes or an image array as a (height, width, 3) uint8 array of `size`."""
    w, h = size
    if isinstance(shot, np.ndarray) and shot.shape == (h, w, 3) and shot.dtype == np.uint8:
        return shot.copy()
    try:
        from PIL import Image
    except ImportError as err:
        raise PhoneworldError("screenshots need Pillow: pip install pillow") from err
    img = Image.open(io.BytesIO(shot)) if isinstance(shot, (bytes, bytearray)) else \
        Image.fromarray(np.asarray(shot))
    img = img.convert("RGB")
    if img.size != (w, h):
        img = img.resize((w, h), Image.Resampling.BILINEAR)
    return np.asarray(img, dtype=np.uint8).copy()


class _ScreenElements:
    """The env's current element list, for `ActionSpace.sample` (a weak reference, so a
    space kept elsewhere does not keep the env alive)."""

    def __init__(self, env: PhoneworldEnv) -> None:
        self._env = weakref.ref(env)

    def __call__(self) -> list[dict[str, Any]]:
        env = self._env()
        if env is None or env._view is None:
            return []
        return env._view.elements


# -- apps ------------------------------------------------------------------------------------------

def load_specs(app: Any) -> list[AppSpec]:
    """The specs an `app` argument names (see `PhoneworldEnv`)."""
    if isinstance(app, AppSpec):
        return [app]
    if isinstance(app, (str, Path)):
        return [_spec(p) for p in _app_folders(app)]
    if isinstance(app, Iterable):
        out = []
        for a in app:
            out.extend(load_specs(a))
        if not out:
            raise PhoneworldError("no apps given")
        return out
    raise PhoneworldError(f"an app is a name, a folder or an AppSpec, not {type(app).__name__}")


def _app_folders(app: str | Path) -> list[Path]:
    from phoneworld.apps import find_apps
    from phoneworld.env.registration import example_apps

    p = Path(app)
    if not p.exists() and isinstance(app, str) and "/" not in app:
        examples = example_apps()
        if app in examples:
            return [examples[app]]
        raise PhoneworldError(f"no app {app!r}: not a folder, nor an example app "
                              f"({', '.join(sorted(examples)) or 'none found'})"
                              f"{did_you_mean(app, examples)}")
    return find_apps(p)


_SPECS: dict[tuple[str, int], AppSpec] = {}


def _spec(folder: Path) -> AppSpec:
    """A generated app's spec, parsed once per process (and again when it changes)."""
    from phoneworld.apps import load_app

    f = (folder / "spec.pw").resolve()
    key = (str(f), f.stat().st_mtime_ns if f.exists() else 0)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = load_app(folder).spec
    return spec
