"""Values as the spec language reads them: truth, numbers in text, display, comparison.

    truthy("off") is False          as_number("$1,299") == 1299.0
    display(3.0) == "3"             compare("~", "$3.49", 3.49) is True
    first_number("$1.49 each") == 1.49

`a ~ b` is a normalised text match: case-folded, whitespace collapsed, trailing
punctuation dropped, and numbers compared as numbers (`"$3.49" ~ "3.49"`,
`"1,299" ~ 1299`). Comparisons never raise on mixed types: a numeric string meets a
number as a number, and an order between incomparable values is simply false.
"""

from __future__ import annotations

import math
import re
import unicodedata

from phoneworld.errors import SpecError
from phoneworld.spec.ast import Value


class ExprError(SpecError):
    """An expression that names something the app does not have."""


def truthy(v: object) -> bool:
    """Truth of a value as a person reads it: "", "0", "false", "no", "off" are false."""
    if isinstance(v, str):
        return v.strip().lower() not in ("", "0", "false", "no", "off")
    return bool(v)


_FIRST_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def first_number(v: object) -> float | int | None:
    """The first number in a value: `"$1.49 each"` -> 1.49, `"2"` -> 2; None if none."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return v
    m = _FIRST_NUMBER.search(str(v))
    n = as_number(m.group(0)) if m else None
    return int(n) if n is not None and n.is_integer() and "." not in m.group(0) else n


def _times_or_fixed(f: str, a: object, b: object) -> Value:
    """`times(a, b)`: a * b; `fixed(x, d)`: x as text with d decimals. None where a value
    is not a number."""
    na, nb = first_number(a), first_number(b)
    if na is None or nb is None:
        return None
    if f == "times":
        r = na * nb
        return int(r) if isinstance(na, int) and isinstance(nb, int) else r
    d = max(0, min(int(nb), 12))
    return f"{float(na):.{d}f}"


# -- values ----------------------------------------------------------------------------------

def display(v: object) -> str:
    """A value as a screen shows it: "" for none, `3` not `3.0`, true/false for flags."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e16:
            return str(int(v))
        return repr(v)
    return str(v)


_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
_THOUSANDS = re.compile(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?")
_SPACE = re.compile(r"\s+")


def as_number(v: object) -> float | None:
    """`v` as a number when it is one or reads as one ("3.49", "$3.49", "1,299", "12 %")."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if not isinstance(v, str):
        return None
    s = v.strip()
    # A currency sign or percent on either side, as prices and ratios are written.
    while s and unicodedata.category(s[0]) == "Sc":
        s = s[1:].lstrip()
    while s and (unicodedata.category(s[-1]) == "Sc" or s[-1] == "%"):
        s = s[:-1].rstrip()
    if _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    if not _NUMBER.fullmatch(s):
        return None
    f = float(s)
    return f if math.isfinite(f) else None


def normalise(v: object) -> float | str:
    """The form `~` compares: a number, else case-folded text with collapsed whitespace."""
    try:
        key = (type(v), v)  # by type too: True is not 1, 1.0 is not 1 (display differs)
        hit = _NORMALISED.get(key)
    except TypeError:  # a row: no key
        return _normalise(v)
    if hit is None:
        if len(_NORMALISED) >= _KEPT:
            _NORMALISED.clear()
        hit = _NORMALISED[key] = _normalise(v)
    return hit


_NORMALISED: dict[tuple[type, object], float | str] = {}
_KEPT = 1 << 16
"""Normalised values kept: the same cells are matched again on every screen and drawing."""


def _normalise(v: object) -> float | str:
    n = as_number(v)
    if n is not None:
        return n
    s = unicodedata.normalize("NFKC", display(v)).casefold()
    return _SPACE.sub(" ", s).strip().rstrip(".!?。").rstrip()


def compare(op: str, a: object, b: object) -> bool:
    """`a op b` without raising: see the module docstring for the mixed-type rules."""
    if op == "~":
        return normalise(a) == normalise(b)
    if op == "==" or op == "!=":
        return _equal(a, b) == (op == "==")
    if a is None or b is None:
        return False
    na, nb = as_number(a), as_number(b)
    if na is not None and nb is not None:
        a, b = na, nb
    elif type(a) is not type(b) or not isinstance(a, (str, bool)):
        return False
    if op == "<":
        return a < b  # type: ignore[operator]
    if op == "<=":
        return a <= b  # type: ignore[operator]
    if op == ">":
        return a > b  # type: ignore[operator]
    if op == ">=":
        return a >= b  # type: ignore[operator]
    raise ExprError(f"unknown comparison '{op}'")


def _equal(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return _as_bool(a) is not None and _as_bool(a) == _as_bool(b)
    if type(a) is type(b) or (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return a == b
    na = as_number(a)
    return na is not None and na == as_number(b)


def _as_bool(v: object) -> bool | None:
    if isinstance(v, (bool, int, float)):
        return bool(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("true", "1", "yes", "on"):
            return True
        if s in ("false", "0", "no", "off"):
            return False
    return None


def arith(op: str, a: object, b: object) -> Value:
    """`a + b` / `a - b` on numbers (a numeric string next to a number counts as one);
    `+` of two texts joins them; anything else has no value."""
    if op not in ("+", "-"):
        raise ExprError(f"unknown operator '{op}'")
    if isinstance(a, str) and isinstance(b, str):
        return a + b if op == "+" else None
    if type(a) is int and type(b) is int:
        return a + b if op == "+" else a - b
    na, nb = as_number(a), as_number(b)
    if na is None or nb is None:
        return None
    r = na + nb if op == "+" else na - nb
    if _is_integer(a) and _is_integer(b) and abs(r) < 2**63:
        return int(r)
    return r


_INTEGER = re.compile(r"\s*[-+]?\d+\s*")


def _is_integer(v: object) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, str) and _INTEGER.fullmatch(v) is not None)
