"""A rendered page read back as layers: what a device-size screenshot can draw itself.

`page.render_html` writes a phone whose children are, in paint order: the plate (a
recorded screenshot), the paints on it (colours, cuts of recorded images) and one
absolutely positioned div per box, each clipped to its own rectangle. `page_layers`
reads them back, in the app's pixels:

    pl = page_layers(html, (1080, 2400))
    pl.plate       # asset name of the recorded screenshot under everything, or ""
    pl.paints      # `compose.Paint`s over the plate (recorded pixels: no browser needed)
    pl.layers      # every other div, with the rectangle it may draw in and whether it
                   # draws anything at all
    pl.head        # the page around them, for telling whether two pages differ only
                   # in their layers
    pl.overlay()   # the page without its plate and paints, on a transparent background

Texts reach a page escaped (`<` as `&lt;`), so a line that starts with `<div class="`
is always one of the template's own divs, never a text. A page not in the template's
shape reads as None: the caller draws it whole.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from phoneworld.runtime.compose import Paint
from phoneworld.runtime.look import ASSET_DIR, ASSET_NAME

FRAME_WIDTH = 412
"""The page's width in CSS pixels (`page.FRAME_WIDTH`)."""
MARGIN = 4.0
"""CSS pixels a div may draw outside its box (a card's or a bar's shadow)."""

Rect = tuple[int, int, int, int]

_TAIL = "</div></body></html>"
_DIV = '\n<div class="'
_PHONE = re.compile(r'<div class="phone" data-screen="[^"]*"\n style="[^"]*">')
_PLATE = re.compile(rf'\n<img class="plate" src="{ASSET_DIR}/([^"/]+)" alt="">')
_BOX = re.compile(r'style="left:(-?[\d.]+)px;top:(-?[\d.]+)px;width:([\d.]+)px;'
                  r'height:([\d.]+)px')
_FILL = re.compile(r';background:(#[0-9a-f]{6}(?:[0-9a-f]{2})?)">$')
"""A colour paint: opaque, or with an alpha (a dialog's scrim)."""
_CUT = re.compile(rf'<img src="{ASSET_DIR}/([^"/]+)" alt="" style="left:(-?[\d.]+)px;'
                  r'top:(-?[\d.]+)px;width:([\d.]+)px;height:([\d.]+)px">$')
_NOT_DRAWN = re.compile(r' data-index="\d+"| aria-label="[^"]*"')
KEPT_DIVS = 1 << 13
"""Divs whose reading `page_layers` keeps (a few hundred bytes each)."""
_QUIET = {"v", "click", "off", "x", "one", "many", "ic"}
"""Classes that draw nothing on an empty div (no background, border or shadow)."""


@dataclass(frozen=True)
class Layer:
    """One div of the phone: the rectangle (app pixels, its margin included) it may
    draw in, what it draws (its HTML less what does not show: element index, label),
    and whether it draws nothing at all (an empty box that keeps its place)."""

    rect: Rect
    key: str
    blank: bool
    div: str = ""
    """The div as the page has it."""


@dataclass(frozen=True)
class PageLayers:
    """A page as layers (see the module docstring)."""

    head: str
    plate: str
    paints: tuple[Paint, ...]
    layers: tuple[Layer, ...]
    html: str
    """The page itself."""
    cut: tuple[int, int] = (0, 0)
    """Where the plate and `paints` lie in `html` (start, end)."""

    def overlay(self) -> str:
        """The page with neither plate nor the paints read into `paints`, its background
        transparent: what the browser adds on top of them."""
        a, b = self.cut
        page = self.html[:a] + self.html[b:]
        return page.replace("</style>", "body, .phone { background: transparent; }\n</style>", 1)


def page_layers(html: str, size: tuple[int, int]) -> PageLayers | None:
    """`html` (a `render_html` page of an app `size` = (width, height) pixels) as layers,
    or None where it is not in the template's shape."""
    m = _PHONE.search(html)
    if m is None or not html.rstrip().endswith(_TAIL):
        return None
    scale = FRAME_WIDTH / max(1, size[0])
    head = re.sub(r'<title>[^<]*</title>|data-screen="[^"]*"', "", html[:m.end()])
    body_end = html.rstrip().rfind(_TAIL)
    pos = m.end()
    plate = ""
    p = _PLATE.match(html, pos)
    if p is not None:
        if not ASSET_NAME.match(p.group(1)):
            return None
        plate, pos = p.group(1), p.end()
    body = html[pos:body_end].rstrip("\n")
    chunks = body.split(_DIV)
    if chunks[0].strip():
        return None
    paints: list[Paint] = []
    layers: list[Layer] = []
    at = pos + len(chunks[0])
    cut_to = pos
    for c in chunks[1:]:
        start, at = at, at + len(_DIV) + len(c)
        if plate and not layers and cut_to == start:
            paint = _paint_of(c, scale)
            if paint is not None:
                paints.append(paint)
                cut_to = at
                continue
        layer = _layer_of(c, scale)
        if layer is None:
            return None
        layers.append(layer)
    return PageLayers(head=head, plate=plate, paints=tuple(paints), layers=tuple(layers),
                      html=html, cut=(m.end(), cut_to))


# A page's divs are read once each (by their text and the app's scale): the next page of
# the same screen has most of them again (wikipedia's article screens: ~450 divs a page).
@lru_cache(maxsize=KEPT_DIVS)
def _layer_of(c: str, scale: float) -> Layer | None:
    """The layer of the div `'<div class="' + c`, or None where it is not one of the
    template's divs."""
    div = '<div class="' + c
    box = _BOX.search(div)
    if box is None or not div.endswith("</div>"):
        return None
    cls = div[12:div.index('"', 12)]
    inner = div[div.index(">") + 1:-len("</div>")]
    blank = not inner and set(cls.split()) <= _QUIET and "background" not in div
    key = _NOT_DRAWN.sub("", div) if "data-index" in div or "aria-label" in div else div
    return Layer(_rect(box.groups(), scale, MARGIN), key, blank, div)


@lru_cache(maxsize=KEPT_DIVS)
def _paint_of(c: str, scale: float) -> Paint | None:
    """`_paint` of the div `'<div class="' + c`."""
    div = '<div class="' + c
    return _paint(div, scale) if div.endswith("</div>") else None


def _rect(css: tuple[str, ...], scale: float, margin: float = 0.0) -> Rect:
    left, top, w, h = (float(v) for v in css)
    return (math.floor((left - margin) / scale), math.floor((top - margin) / scale),
            math.ceil((left + w + margin) / scale), math.ceil((top + h + margin) / scale))


def _paint(div: str, scale: float) -> Paint | None:
    """A plate's paint (`page._paint`'s div) back in app pixels, or None if `div` is not
    one (a system bar, anything else). Its numbers are written to 0.1 CSS pixel, so they
    round back to the app's whole pixels on any phone under 4,000 pixels wide."""
    box = _BOX.search(div)
    if box is None or not div.startswith('<div class="p" '):
        return None
    left, top, w, h = (round(float(v) / scale) for v in box.groups())
    rect = (left, top, left + w, top + h)
    opening = div[:div.index(">") + 1]
    fill = _FILL.search(opening)
    if fill is not None and div == opening + "</div>":
        return Paint(rect, color=fill.group(1))
    cut = _CUT.search(div[:-len("</div>")])
    if cut is None or not ASSET_NAME.match(cut.group(1)) or \
            div[len(opening):-len("</div>")] != cut.group(0):
        return None
    il, it, iw, ih = (round(float(v) / scale) for v in cut.groups()[1:])
    return Paint(rect, image=cut.group(1), image_size=(iw, ih),
                 origin=(rect[0] + il, rect[1] + it))
