"""Observations as dicts whose values are made lazily.

An env returns a `LazyObservation`: a real `dict` (so gymnasium's `Dict` space and
checks accept it) whose values are computed on first read, because rendering the XML of
every screen would cost ten times the step itself when most loops read one form or none.
Reads, copies, pickling, comparison and printing all see the computed values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

_PENDING = object()


def _rebuild(cls: type, values: dict) -> LazyObservation:
    obs = cls.__new__(cls)
    dict.__init__(obs, values)
    obs._makers = {}
    return obs


class LazyObservation(dict):
    """A dict whose values are made by `makers[key]()` when first read."""

    __slots__ = ("_makers", "__weakref__")

    def __init__(self, makers: Mapping[str, Callable[[], Any]]) -> None:
        dict.__init__(self, dict.fromkeys(makers, _PENDING))
        self._makers = dict(makers)

    def __getitem__(self, key: str) -> Any:
        v = dict.__getitem__(self, key)
        if v is _PENDING:
            v = self._makers.pop(key)()
            dict.__setitem__(self, key, v)
        return v

    def __iter__(self) -> Iterator[str]:
        # Overriding __iter__ makes dict(obs) and {**obs} read through __getitem__.
        return iter(dict.keys(self))

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def values(self) -> list[Any]:  # type: ignore[override]
        return [self[k] for k in dict.keys(self)]

    def items(self) -> list[tuple[str, Any]]:  # type: ignore[override]
        return [(k, self[k]) for k in dict.keys(self)]

    def pop(self, key: str, *default: Any) -> Any:
        if key in self:
            v = self[key]
            dict.pop(self, key)
            return v
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in self:
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def copy(self) -> LazyObservation:
        return _rebuild(type(self), dict(self.items()))

    def materialize(self) -> LazyObservation:
        """Compute every value now (returns self)."""
        for k in dict.keys(self):
            self[k]  # noqa: B018
        return self

    @property
    def pending(self) -> list[str]:
        """The keys whose values are not computed yet."""
        return [k for k, v in dict.items(self) if v is _PENDING]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return dict(self.items()) == dict(other.items())

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.items())!r})"

    def __reduce__(self) -> tuple:
        return _rebuild, (type(self), dict(self.items()))

    def __deepcopy__(self, memo: dict) -> LazyObservation:
        import copy

        return _rebuild(type(self), copy.deepcopy(dict(self.items()), memo))

    def __copy__(self) -> LazyObservation:
        return self.copy()
