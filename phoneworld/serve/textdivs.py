"""Which of a page's divs are texts the painter draws itself, read into `TextDiv`s.

On a screen drawn over its recorded plate, what changes with the state is mostly text
(a row's label, a typed word, a counter): `page.render_html` writes each as a div of
the template's `.x` classes with one `<span>` in it. Chromium lays such a div out by
rules simple enough to follow (`texts`), so a div of exactly that shape, holding only
characters whose drawing `texts` follows, is read here; any other is left to the
browser:

    t = text_div(layer.div)     # a TextDiv (box, text, lines, size, colour, ...), or None
"""

from __future__ import annotations

import html as html_lib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from phoneworld.runtime.fonts import is_mark, is_rtl

LINE_HEIGHT = 1.2
"""`.v`'s line-height (`page._TEMPLATE`)."""
DEFAULT_COLOR = "#202124"
"""`.v`'s colour."""

_OPEN = re.compile(
    r'<div class="v x (?P<lines>one|many)(?P<end> end)?(?P<off> off)?(?: click)?"'
    r'(?: data-index="\d+")?\n style="left:(?P<left>-?[\d.]+)px;top:(?P<top>-?[\d.]+)px;'
    r'width:(?P<w>[\d.]+)px;height:(?P<h>[\d.]+)px(?:;font-size:(?P<size>[\d.]+)px)?'
    r'(?:;color:(?P<color>#[0-9a-f]{6}))?(?:;font-weight:(?P<weight>\d+))?'
    r'(?:;text-align:(?P<align>left|center|right))?(?:;padding-left:(?P<pl>[\d.]+)px)?'
    r'(?:;padding-right:(?P<pr>[\d.]+)px)?'
    r'(?:;align-items:flex-start;padding-top:(?P<pt>[\d.]+)px)?'
    r'(?:;clip-path:inset\((?P<clip>[\d.]+px [\d.]+px [\d.]+px [\d.]+px)\))?"'
    r'(?: aria-label="[^"<>]*")?>'
    r'(?:<span(?: style="-webkit-line-clamp:(?P<clamp>\d+)")?>(?P<text>[^<>]*)</span>)?'
    r'</div>$')
"""A text div as `page._TEMPLATE` writes it from `widgets._text_css` (the order of its
style's parts is the template's), and nothing else."""
_SPACES = re.compile(r"[ \t\n\r\f]+")


@dataclass(frozen=True)
class TextDiv:
    """One text div, in CSS pixels (the page's 412-wide frame)."""

    box: tuple[float, float, float, float]
    """left, top, width, height."""
    text: str
    lines: str
    """"one", "many" or "end" (one line that shows its end)."""
    clamp: int
    size: float
    color: str
    weight: int
    align: str
    pad: tuple[float, float, float]
    """left, right, top (top: -1 where the text is centred in the box's height)."""
    clip: tuple[float, float, float, float]
    """clip-path insets: top, right, bottom, left."""
    opacity: float = 1.0
    """`.off`'s (a disabled view's) opacity."""


@lru_cache(maxsize=4096)
def text_div(div: str) -> TextDiv | None:
    """`div` (a layer's, `layers.Layer.div`) as a text this module draws, or None."""
    m = _OPEN.match(div)
    if m is None:
        return None
    text = _SPACES.sub(" ", html_lib.unescape(m["text"] or "")).strip(" ")
    if not all(_plain(c) for c in text):
        return None
    clip = tuple(float(v[:-2]) for v in m["clip"].split()) if m["clip"] else (0.0,) * 4
    return TextDiv(
        box=(float(m["left"]), float(m["top"]), float(m["w"]), float(m["h"])), text=text,
        lines="end" if m["end"] else m["lines"],
        clamp=int(m["clamp"]) if m["clamp"] else (1 if m["lines"] == "one" else 0),
        size=float(m["size"] or 16.0), color=m["color"] or DEFAULT_COLOR,
        weight=int(m["weight"] or 400), align=m["align"] or "left",
        pad=(float(m["pl"] or 0), float(m["pr"] or 0), float(m["pt"] or -1.0)),
        clip=clip, opacity=0.5 if m["off"] else 1.0)  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def _plain(c: str) -> bool:
    """Whether `texts` follows how `c` draws: no control or format character (bidi
    embeddings and isolates, joiners), no emoji or its selectors. Right-to-left letters
    and combining marks are followed (`complex_text`) where FriBiDi is here."""
    cat = unicodedata.category(c)
    if cat[0] == "C" or cat == "Zl" or cat == "Zp":
        return False
    o = ord(c)
    return not (0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x27BF or 0xFE00 <= o <= 0xFE0F
                or 0xE000 <= o <= 0xF8FF or o > 0x2FFFF)


@lru_cache(maxsize=4096)
def _complex(c: str) -> bool:
    """Whether `c` needs more than one face's glyphs laid left to right: a right-to-left
    letter or number, or a combining mark (shaped with the letter before it)."""
    return is_rtl(c) or is_mark(c)


def complex_text(text: str) -> bool:
    """Whether `text` has a right-to-left letter or a combining mark (`TextDrawer` lays
    such a text out by the bidirectional algorithm, `bidi`, and shapes it with raqm)."""
    return any(_complex(c) for c in text)
