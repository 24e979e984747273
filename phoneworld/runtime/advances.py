"""How wide a text draws in the page's Latin face, character by character.

    advance("3 / 200", 50.0)          # 142.3: what the line spans at 50 px
    advance("Save", 14.0, weight=700)

The page draws Latin text in Roboto where it is installed, else Liberation Sans or
Arimo (`widgets.FONTS`), whose advances are Arial's (Roboto's are within a few percent
of them on labels). Their widths in thousandths of an em, regular and bold, for printable
ASCII; an accented letter is as wide as its base letter (`é` as `e`); a CJK ideograph,
kana or a fullwidth form a whole em (`chars.wide`); any other character (Cyrillic,
Greek, symbols) an estimate by its case. Kerning is left out (a label's pairs move it by
well under 1%).

`widgets.fit` sizes a text with it: a text shrinks only where it would really overflow
its box, not where a rough estimate says it might.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from phoneworld.runtime.chars import wide

_FIRST = 0x20
_REGULAR = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  # ␠-/
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  # 0-?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  # @-O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  # P-_
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  # `-o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584)  # p-~
_BOLD = (
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584)
BOLD = 600
"""The weight from which a text is drawn in the bold face (CSS: 600 and up)."""


@lru_cache(maxsize=8192)
def em(ch: str, bold: bool = False) -> float:
    """How wide `ch` draws, in ems."""
    table = _BOLD if bold else _REGULAR
    o = ord(ch)
    if _FIRST <= o < _FIRST + len(table):
        return table[o - _FIRST] / 1000
    if wide(ch):
        return 1.0
    if unicodedata.category(ch) in ("Mn", "Me", "Cf", "Cc"):
        return 0.0  # a combining mark, a joiner, a control: no advance of its own
    base = unicodedata.normalize("NFD", ch)[0]
    if base != ch and _FIRST <= ord(base) < _FIRST + len(table):
        return table[ord(base) - _FIRST] / 1000  # an accented letter: its base letter's
    if ch == "\u00a0":
        return table[0] / 1000
    return 0.67 if ch.isupper() else 0.56 if ch.isalpha() or ch.isdigit() else 0.6


def advance(text: str, size: float, weight: int = 400) -> float:
    """How wide `text` draws on one line at font `size` (pixels) and `weight`."""
    bold = weight >= BOLD
    return sum(em(ch, bold) for ch in text) * size
