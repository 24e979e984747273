"""What kind of character a text holds, where drawing and measuring it depends on that.

    wide("中")    # True: a square glyph, as wide as the font is high
    wide("A")     # False

One answer for the sampler's ink height (`visual.sample`) and the line breaker of texts
drawn over plates (`serve.texts`), which each kept a table of ranges of their own before.
How wide a character draws is read from the page's faces (`advances`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=8192)
def wide(ch: str) -> bool:
    """Whether `ch` is drawn a full em wide: East Asian Wide or Fullwidth in Unicode's
    East Asian Width (CJK ideographs and their punctuation, kana, Hangul, fullwidth
    forms, emoji shown as pictures); not halfwidth kana, not ambiguous symbols."""
    return unicodedata.east_asian_width(ch) in ("W", "F")
