"""The env's gymnasium spaces: text observations, and AndroidWorld actions to sample.

    observation_space(["elements", "xml", "screenshot"], screenshot=(540, 1200))
        -> Dict(elements: AnyText, xml: AnyText, screenshot: Box(0, 255, (1200, 540, 3)))
    ActionSpace(1080, 2400, apps=("shopping",)).sample()
        -> {"action_type": "click", "x": 431, "y": 1877}

`AnyText` holds any string up to a length (a screen's text is Unicode, not gymnasium's
default alphanumerics). `ActionSpace` holds every valid AndroidWorld action on a screen
of that size; `sample()` draws them with weights that keep a random agent moving (taps,
scrolls and back mostly; rarely an answer or a status, which end the episode). Given the
current element list (`screen=`), it taps elements by index and types only into text
fields, so that what it draws is valid on the screen shown.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from phoneworld.errors import InvalidAction
from phoneworld.runtime.actions import Action

_PRINTABLE = "".join(chr(c) for c in range(32, 127))
_WORDS = ("milk", "hello", "yes", "ok", "search", "2", "Alice", "see you at 7", "12 Oak Street",
          "chips", "dark", "wifi")
WEIGHTS: dict[str, float] = {
    "click": 0.40, "long_press": 0.04, "input_text": 0.08, "keyboard_enter": 0.04,
    "scroll": 0.14, "swipe": 0.03, "navigate_back": 0.12, "navigate_home": 0.02,
    "open_app": 0.02, "wait": 0.05, "double_tap": 0.02, "answer": 0.02, "status": 0.02,
}


class AnyText(spaces.Text):
    """Any string of at most `max_length` characters (sampling draws printable ASCII)."""

    def __init__(self, max_length: int, *, min_length: int = 0,
                 seed: int | np.random.Generator | None = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=_PRINTABLE, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"


def observation_space(forms: Sequence[str] = ("elements", "xml"), max_text: int = 2**20,
                      screenshot: tuple[int, int] = (540, 1200)) -> spaces.Dict:
    """The Dict space of observations holding `forms` (of elements, xml, screenshot);
    `screenshot` is the image's (width, height)."""
    parts: dict[str, spaces.Space] = {}
    for f in forms:
        if f == "screenshot":
            w, h = screenshot
            parts[f] = spaces.Box(0, 255, shape=(h, w, 3), dtype=np.uint8)
        else:
            parts[f] = AnyText(max_text)
    return spaces.Dict(parts)


class ActionSpace(spaces.Space[dict]):
    """Valid AndroidWorld JSON actions on a `width` x `height` screen (see the module
    docstring); `apps` are the names `open_app` may use."""

    def __init__(self, width: int, height: int, apps: Sequence[str] = (), *,
                 screen: Callable[[], Sequence[Mapping[str, Any]]] | None = None,
                 weights: Mapping[str, float] | None = None,
                 seed: int | np.random.Generator | None = None) -> None:
        super().__init__(shape=None, dtype=None, seed=seed)
        self.width = width
        self.height = height
        self.apps = tuple(apps)
        self.screen = screen
        """Returns the current element list; None samples coordinates only."""
        w = dict(WEIGHTS if weights is None else weights)
        if not self.apps:
            w.pop("open_app", None)
        self._types = list(w)
        p = np.array([w[t] for t in self._types], dtype=float)
        self._p = p / p.sum()
        # `rng.choice(n, p=p)` draws `rng.random()` and searches this same cdf; doing it
        # here draws the same types from the same stream at a tenth of its cost.
        cdf = self._p.cumsum()
        cdf /= cdf[-1]
        self._cdf = cdf.tolist()
        self._memo: tuple[Any, list[int], list[int]] | None = None

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        """A random valid action (`mask` and `probability` are not supported)."""
        if mask is not None or probability is not None:
            raise ValueError("ActionSpace.sample takes no mask or probability")
        rng = self.np_random
        t = self._types[bisect_right(self._cdf, rng.random())]
        if t in ("click", "double_tap", "long_press"):
            live = self._indexes()[0]
            if live and rng.random() < 0.7:
                return {"action_type": t, "index": int(live[int(rng.integers(len(live)))])}
            return {"action_type": t, **self._point(rng)}
        if t == "input_text":
            fields = self._indexes()[1]
            a: dict[str, Any] = {"action_type": t, "text": self._text(rng)}
            if fields:
                a["index"] = int(fields[int(rng.integers(len(fields)))])
            return a
        if t in ("scroll", "swipe"):
            a = {"action_type": t,
                 "direction": ("up", "down", "left", "right")[int(rng.integers(4))]}
            if rng.random() < 0.3:
                a.update(self._point(rng))
            return a
        if t == "open_app":
            return {"action_type": t, "app_name": self.apps[int(rng.integers(len(self.apps)))]}
        if t == "answer":
            return {"action_type": t, "text": self._text(rng)}
        if t == "status":
            return {"action_type": t,
                    "goal_status": "complete" if rng.random() < 0.8 else "infeasible"}
        return {"action_type": t}

    def _indexes(self) -> tuple[list[int], list[int]]:
        """Indexes of the current screen's tappable elements and of its text fields. Read
        only for actions that aim at an element (so the screen is not rendered for the
        others), and worked out once per element list (a screen shown again comes back
        as the same list)."""
        elements = self.screen() if self.screen is not None else ()
        memo = self._memo
        if memo is not None and memo[0] is elements:
            return memo[1], memo[2]
        live = [e["index"] for e in elements if e.get("clickable") or e.get("checkable")
                or e.get("editable")]
        fields = [e["index"] for e in elements if e.get("editable")]
        self._memo = (elements, live, fields)
        return live, fields

    def _point(self, rng: np.random.Generator) -> dict[str, int]:
        return {"x": int(rng.integers(self.width)), "y": int(rng.integers(self.height))}

    def _text(self, rng: np.random.Generator) -> str:
        return _WORDS[int(rng.integers(len(_WORDS)))]

    def contains(self, x: Any) -> bool:
        """Whether `x` is a valid AndroidWorld action (an `Action`, a dict or JSON text)."""
        try:
            a = Action.parse(x)
            a.check_screen(self.width, self.height)
        except InvalidAction:
            return False
        return True

    def __deepcopy__(self, memo: dict) -> ActionSpace:
        # The element source stays shared: it reads the env's current screen.
        import copy

        new = ActionSpace.__new__(ActionSpace)
        new.__dict__.update({k: (v if k == "screen" else copy.deepcopy(v, memo))
                             for k, v in self.__dict__.items() if k != "_memo"})
        new._memo = None
        return new

    def __repr__(self) -> str:
        return f"ActionSpace({self.width}x{self.height}, apps={list(self.apps)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionSpace) and (self.width, self.height, self.apps) == (
            other.width, other.height, other.apps)

    __hash__ = None  # type: ignore[assignment]
