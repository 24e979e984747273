"""Right-to-left text in a line: the Unicode bidirectional algorithm, from FriBiDi.

A div's text in the mock's page is one paragraph of the page's direction (left to right:
the page sets none), as CSS lays it: its letters get embedding levels by the Unicode
bidirectional algorithm (brackets paired, numbers kept in order), and a line shows its
runs in the order the levels give (rule L2). Chromium computes them with ICU; this
module asks FriBiDi, the library Pillow's raqm shapes with (Debian's `libfribidi0`,
loaded at run time), for the same levels, so that `serve.texts` can draw such a line
itself, run by run:

    lv = levels("abc \u05e9\u05dc\u05d5\u05dd!")   # None: no FriBiDi here
    order = visual(lv)                            # indices of the characters, left to right

Where FriBiDi cannot be loaded, `levels` gives None and the browser draws such texts.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from functools import lru_cache

_PAR_LTR = 0x110
"""FRIBIDI_PAR_LTR (FRIBIDI_MASK_STRONG | FRIBIDI_MASK_LETTER): CSS's `direction: ltr`."""
_LOCK = threading.Lock()
_LIB: list[ctypes.CDLL | None] = []


def library() -> ctypes.CDLL | None:
    """FriBiDi, loaded once (None: not installed, or without the functions used here)."""
    with _LOCK:
        if not _LIB:
            lib = None
            name = ctypes.util.find_library("fribidi") or "libfribidi.so.0"
            try:
                lib = ctypes.CDLL(name)
                for fn in ("fribidi_get_bidi_types", "fribidi_get_bracket_types",
                           "fribidi_get_par_embedding_levels_ex"):
                    getattr(lib, fn)
            except (OSError, AttributeError):
                lib = None
            if lib is not None:
                lib.fribidi_get_par_embedding_levels_ex.restype = ctypes.c_int8
            _LIB.append(lib)
        return _LIB[0]


def available() -> bool:
    """Whether `levels` can answer here."""
    return library() is not None


@lru_cache(maxsize=4096)
def levels(text: str) -> tuple[int, ...] | None:
    """The embedding level of each character of `text`, one paragraph laid left to right
    (even: left to right, odd: right to left); None where FriBiDi is missing or fails."""
    lib = library()
    if lib is None:
        return None
    n = len(text)
    if n == 0:
        return ()
    chars = (ctypes.c_uint32 * n)(*map(ord, text))
    types = (ctypes.c_uint32 * n)()
    brackets = (ctypes.c_uint32 * n)()
    out = (ctypes.c_int8 * n)()
    par = ctypes.c_uint32(_PAR_LTR)
    lib.fribidi_get_bidi_types(chars, n, types)
    lib.fribidi_get_bracket_types(chars, n, types, brackets)
    if lib.fribidi_get_par_embedding_levels_ex(types, brackets, n, ctypes.byref(par),
                                               out) <= 0:
        return None
    return tuple(out)


def visual(lv: tuple[int, ...] | list[int]) -> list[int]:
    """The indices of a line's characters in the order they show, left to right, from
    their levels (rule L2: from the highest level down to the lowest odd one, every run
    of characters at that level or higher reversed)."""
    order = list(range(len(lv)))
    if not lv:
        return order
    top = max(lv)
    low = min((v for v in lv if v % 2), default=top + 1)
    for level in range(top, low - 1, -1):
        i = 0
        while i < len(order):
            if lv[order[i]] >= level:
                j = i
                while j < len(order) and lv[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order
