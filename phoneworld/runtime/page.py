"""A rendered screen as a phone-sized HTML page, for people and for screenshots.

Each box becomes an absolutely positioned div, scaled from the app's screen size to a
412-px-wide frame (a common phone width in CSS pixels; a screenshot at the device's size
scales it back up), stacked in document order, as Android draws them; a list's row is
drawn only inside the list's ancestors (`regions`: a CSS clip, or nothing at all).

Where the app has a recorded look (`look`), the frame's background is the screen's plate
(a recording) and only what the state changed is painted on it (`compose`): wipes of
stale texts, rows cut from the plate or drawn on a sprite, texts in the size and colour
sampled where they lie. Elsewhere a Material-like renderer draws each box by its widget
class (`widgets`), with a status bar and a navigation bar where the layout leaves room.

Screen text is untrusted (it comes from traces): the template is fixed, autoescape is
on, texts reach it only as data, and assets are named by hashes checked on loading, so
`<script>` and `{{ 7*7 }}` show up literally. Asset URLs are relative (`assets/<hash>`):
the server answers them, and preview files say `<base href="../">`.
"""

from __future__ import annotations

from copy import copy
from dataclasses import replace
from typing import TYPE_CHECKING

from jinja2 import Environment
from markupsafe import Markup

from phoneworld.runtime.compose import Composition, Paint, compose
from phoneworld.runtime.dialog import grown_window, growth
from phoneworld.runtime.faces import FONTS
from phoneworld.runtime.look import ASSET_DIR, Rect, Style
from phoneworld.runtime.regions import regions, within
from phoneworld.runtime.widgets import (
    ACCENT,
    BODY,
    TEXT,
    bar_icons,
    bars,
    draw_box,
    fitted,
    kind,
)
from phoneworld.runtime.wrap import grown

if TYPE_CHECKING:
    from phoneworld.runtime.render import Rendering

FRAME_WIDTH = 412

_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width={{ width }}">
<title>{{ title }}</title>
<style>
body { margin: 0; background: #e8e8e8; font-family: {{ fonts }}; }
.phone { position: relative; overflow: hidden; margin: 0 auto; background: #fff; }
.v, .p { position: absolute; box-sizing: border-box; }
.v { overflow: hidden; color: #202124; line-height: 1.2; }
.p { overflow: hidden; }
.p img, .plate { position: absolute; max-width: none; }
.plate { left: 0; top: 0; width: 100%; height: 100%; }
.x { display: flex; align-items: center; overflow: hidden; }
.x > span { display: block; width: 100%; overflow: hidden; text-overflow: ellipsis; }
.x.one > span { white-space: nowrap; }
.x.end > span { direction: rtl; text-align: left; text-overflow: clip; }
.x.end > span::before, .x.end > span::after { content: "\\200e"; }
.x.many > span { display: -webkit-box; -webkit-box-orient: vertical;
                 white-space: normal; overflow-wrap: anywhere; }
.ic { display: flex; align-items: center; justify-content: center; }
.ic svg { width: var(--s); height: var(--s); }
.click { cursor: pointer; }
.btn { border-radius: 999px; background: var(--accent); color: #fff; font-weight: 500;
       justify-content: center; text-align: center; }
.edit { border-bottom: 2px solid #80868b; padding: 0 4px; }
.edit.focused { border-bottom-color: var(--accent); background: rgba(26, 115, 232, .06); }
.bar { box-shadow: 0 1px 3px rgba(60, 64, 67, .3); background: #fff; }
.card { border-radius: 12px; box-shadow: 0 1px 3px rgba(60, 64, 67, .3); background: #fff; }
.rule { background: #dadce0; }
.img { background: #e8eaed; border-radius: 4px; }
.tab.sel { border-bottom: 3px solid var(--accent); color: var(--accent); }
.off { opacity: .5; }
.status, .nav { display: flex; align-items: center; color: #5f6368; font-size: 12px;
                padding: 0 14px; }
.status { justify-content: space-between; font-weight: 500; }
.nav { justify-content: space-around; }
.status span, .nav span { display: flex; gap: 4px; align-items: center; }
.nav span { width: 100%; justify-content: space-around; }
.ind { position: absolute; box-sizing: border-box; }
.box { border: 2px solid #5f6368; border-radius: 3px; }
.box.on { background: var(--accent); border-color: var(--accent); }
.radio { border: 2px solid #5f6368; border-radius: 50%; }
.radio.on { border-color: var(--accent); box-shadow: inset 0 0 0 3px #fff;
            background: var(--accent); }
.track { border-radius: 999px; background: #bdc1c6; }
.track.on { background: var(--accent); opacity: .45; }
.thumb { border-radius: 50%; background: #fff; box-shadow: 0 1px 2px rgba(0,0,0,.4); }
.thumb.on { background: var(--accent); }
</style></head>
<body><div class="phone" data-screen="{{ screen }}"
 style="width:{{ width }}px;height:{{ height }}px;--accent:{{ accent }}">
{% if plate %}<img class="plate" src="{{ plate }}" alt="">
{% endif %}
{%- for p in paints %}<div class="p{% if p.bar %} {{ p.bar }}{% endif %}" style="{{ p.style }}">
{%- if p.src %}<img src="{{ p.src }}" alt="" style="{{ p.img }}">{% endif %}
{%- if p.clock %}<span>{{ p.clock }}</span>{% endif %}
{%- if p.icons %}<span>{% for i in p.icons %}{{ i }}{% endfor %}</span>{% endif %}</div>
{% endfor %}
{%- for b in boxes %}<div class="{{ b.css }}"
{%- if b.index is not none %} data-index="{{ b.index }}"{% endif %}
 style="left:{{ b.left }}px;top:{{ b.top }}px;width:{{ b.w }}px;height:{{ b.h }}px
{%- if b.style %};{{ b.style }}{% endif %}"
{%- if b.label %} aria-label="{{ b.label }}"{% endif %}>
{%- for i in b.inds %}<div class="ind {{ i.css }}" style="{{ i.style }}"></div>{% endfor %}
{%- if b.icon %}{{ b.icon }}{% endif %}
{%- if b.text %}<span{% if b.clamp %} style="-webkit-line-clamp:{{ b.clamp }}"{% endif %}>
{{- b.text }}</span>{% endif -%}
</div>
{% endfor %}</div></body></html>
"""

_ENV = Environment(autoescape=True, trim_blocks=False, lstrip_blocks=False)
_PAGE = _ENV.from_string(_TEMPLATE)



def render_html(r: Rendering) -> str:
    """The page for `r`; `data-index` on a div is its index in `r.elements`."""
    scale = FRAME_WIDTH / max(1, r.width)
    index = {box: n for n, box in enumerate(r.element_boxes)}
    boxes = r.boxes
    look = r.look
    comp: Composition | None = None
    paints: list[dict[str, str]] = []
    items: list[dict] = []
    if look is not None:
        comp = compose(look, boxes, (r.width, r.height))
        under, items = _under(r, scale)
        paints = [_paint(p, scale) for p in under + comp.paints]
    else:
        for p, kind in bars(boxes, r.width, r.height):
            item = _paint(p, scale)
            h = (p.rect[3] - p.rect[1]) * scale
            item.update(bar=kind, icons=bar_icons(kind, h),
                        clock="12:00" if kind == "status" else "")
            paints.append(item)
    parents = _parents(boxes)
    region = regions(boxes)
    for i, b in enumerate(boxes):
        at = b.bounds
        shows = within(at, region[i])
        if shows is None or (comp is not None and i in comp.quiet):
            item = _quiet(b)
        elif comp is not None:
            style = comp.styles.get(i)
            at = _grown(boxes, i, parents, style, scale)
            shows = within(at, region[i]) or shows
            item = fitted(_moved(b, at), scale, style)
            if b.text:
                shows = _under_pictures(boxes, i, shows)
        else:
            at = _grown(boxes, i, parents, None, scale)
            shows = within(at, region[i]) or shows
            item = draw_box(boxes if at == b.bounds else
                            [*boxes[:i], _moved(b, at), *boxes[i + 1:]], i, parents, scale)
        items.append(_placed(item, at, shows, scale, index.get(i)))
    plate = f"{ASSET_DIR}/{look.plate}" if look is not None else ""
    return _PAGE.render(
        title=r.screen, screen=r.screen, width=FRAME_WIDTH, fonts=Markup(FONTS),
        height=round(r.height * scale), accent=look.accent if look and look.accent else ACCENT,
        plate=plate, paints=paints,
        boxes=items)


def _placed(item: dict, bounds: Rect, shows: Rect | None, scale: float,
            index: int | None) -> dict:
    """`item` (a box's div at `bounds`) placed, drawn only inside `shows` (its
    ancestors, or what a dialog's window leaves of it) where that is less."""
    x1, y1, x2, y2 = bounds
    if shows is not None and shows != bounds:
        cut = (f"clip-path:inset({(shows[1] - y1) * scale:.1f}px "
               f"{(x2 - shows[2]) * scale:.1f}px {(y2 - shows[3]) * scale:.1f}px "
               f"{(shows[0] - x1) * scale:.1f}px)")
        item["style"] = f"{item['style']};{cut}" if item["style"] else cut
    item["index"] = index
    item.update(left=round(x1 * scale, 1), top=round(y1 * scale, 1),
                w=round(max(0, x2 - x1) * scale, 1), h=round(max(0, y2 - y1) * scale, 1))
    return item


def _grown(boxes: list, i: int, parents: list[int], style: Style | None,
           scale: float) -> Rect:
    """Box `i`'s bounds to draw its text in (`wrap.grown`): at its recorded style's size,
    weight and indent where it has one, else a plain label's size (`widgets.fitted`'s
    and `draw_box`'s); as recorded for a text not drawn left-aligned."""
    b = boxes[i]
    if not b.text:
        return b.bounds
    if style is not None and style.size > 0:
        if style.align != "left":
            return b.bounds
        return grown(boxes, i, parents, style.size, style.indent, style.weight)
    if style is None and kind(b, not b.children) != "text":
        return b.bounds
    h = (b.bounds[3] - b.bounds[1]) * scale
    return grown(boxes, i, parents, min(BODY, max(8.0, h * 0.72)) / scale,
                 style.indent if style is not None else 0.0)


def _moved(b, at: Rect):
    """`b` with bounds `at` (itself where they are its own)."""
    if at == b.bounds:
        return b
    m = copy(b)
    m.bounds = at
    return m


def _under_pictures(boxes: list, i: int, shows: Rect) -> Rect:
    """What of `shows` (box `i`'s text, drawn anew over a plate) the pictures drawn
    after it leave (the plate shows them; Android draws a later view over an earlier
    one: a player bar's cover over the start of its song's title), in one rectangle: a
    later leaf without text that covers part of the text on one side cuts it there
    (`visual.extract._over`'s rule: one that covers all of it, or lies inside it, is
    drawn under it or shows it through)."""
    x1, y1, x2, y2 = boxes[i].bounds
    for b in boxes[i + 1:]:
        if b.children or b.text:
            continue
        bx1, by1, bx2, by2 = b.bounds
        if not (bx1 < shows[2] and shows[0] < bx2 and by1 < shows[3] and shows[1] < by2):
            continue
        if (bx1 <= x1 and by1 <= y1 and bx2 >= x2 and by2 >= y2) or \
                (bx1 >= x1 and by1 >= y1 and bx2 <= x2 and by2 <= y2):
            continue
        shows = _beside(shows, b.bounds) or shows
    return shows


def _under(r: Rendering, scale: float) -> tuple[list[Paint], list[dict]]:
    """A dialog's ground (`Rendering.under`): the screen under it as shown now (its
    plate and paints), black at the recorded dim over it, and the dialog's window from
    its own plate; and the texts and Material check widgets that screen draws anew (a
    value changed, a switch flipped on it before the dialog opened: its plate's is
    wiped), dimmed alike, where the window leaves them. Nothing where it has none."""
    look, under = r.look, r.under
    if look is None or under is None or under.look is None or look.window is None:
        return [], []
    size = (r.width, r.height)
    whole = (0, 0, r.width, r.height)
    alpha = round(look.scrim * 255)
    c = compose(under.look, under.boxes, size)
    region = regions(under.boxes)
    window = grown_window(look.window, growth(r.boxes))  # (the card, grown with its list)
    # A check widget the browser draws (a Material box or switch, in the state it has
    # now) is dimmed by a filter: black at the dim over its pixels, as over the plate's.
    dim = f";filter:brightness({(255 - alpha) / 255:.4f})"
    texts = []
    for i, b in enumerate(under.boxes):
        style = c.styles.get(i) or Style()
        if i in c.quiet or not (b.text or b.checkable):
            continue
        shows = _beside(within(b.bounds, region[i]), window)
        if shows is None:
            continue
        style = replace(style, color=dimmed(style.color or TEXT, alpha))
        item = fitted(b, scale, style)
        if item["inds"]:
            item["inds"] = tuple({**d, "style": d["style"] + dim} for d in item["inds"])
        if item["text"] or item["inds"]:
            item["label"] = ""  # (the dialog's elements are its own)
            texts.append(_placed(item, b.bounds, shows, scale, None))
    return [Paint(whole, image=under.look.plate, image_size=size), *c.paints,
            Paint(whole, color=f"#000000{alpha:02x}"),
            Paint(look.window, image=look.plate, image_size=size)], texts


def dimmed(color: str, alpha: int) -> str:
    """`color` (#rrggbb) under black at `alpha` (0-255), as the painter lays it."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{(v * (255 - alpha) + 127) // 255:02x}" for v in rgb)


def _beside(shows: Rect | None, window: Rect) -> Rect | None:
    """What of `shows` a dialog's `window` leaves in one rectangle: all of it, the
    part on one side of the window, or None (hidden, or around a corner of it)."""
    if shows is None:
        return None
    x1, y1, x2, y2 = shows
    wx1, wy1, wx2, wy2 = window
    if x2 <= wx1 or wx2 <= x1 or y2 <= wy1 or wy2 <= y1:
        return shows
    parts = [p for p in ((x1, y1, x2, min(y2, wy1)), (x1, max(y1, wy2), x2, y2))
             if p[1] < p[3]] if wx1 <= x1 and x2 <= wx2 else \
        [p for p in ((x1, y1, min(x2, wx1), y2), (max(x1, wx2), y1, x2, y2))
         if p[0] < p[2]] if wy1 <= y1 and y2 <= wy2 else []
    return parts[0] if len(parts) == 1 else None


def _quiet(b) -> dict:
    """A box the plate already shows: an empty div that keeps its place and its words."""
    css = "v click" if b.clickable or b.long_clickable else "v"
    return {"css": css, "text": "", "label": b.text or b.desc, "inds": (), "icon": None,
            "style": "", "clamp": 0}


def _paint(p: Paint, scale: float) -> dict[str, str]:
    """A paint's div: a colour, or an image (an `<img>`, so that a screenshot can wait
    for it to be decoded) placed inside a div that clips it."""
    x1, y1, x2, y2 = p.rect
    css = (f"left:{x1 * scale:.1f}px;top:{y1 * scale:.1f}px;"
           f"width:{max(0, x2 - x1) * scale:.1f}px;height:{max(0, y2 - y1) * scale:.1f}px")
    if p.color:
        return {"style": f"{css};background:{p.color}", "src": "", "img": ""}
    w, h = p.image_size
    ox, oy = p.origin
    return {"style": css, "src": f"{ASSET_DIR}/{p.image}",
            "img": f"left:{(ox - x1) * scale:.1f}px;top:{(oy - y1) * scale:.1f}px;"
                   f"width:{w * scale:.1f}px;height:{h * scale:.1f}px"}


def _parents(boxes) -> list[int]:
    parent = [-1] * len(boxes)
    for i, b in enumerate(boxes):
        for c in b.children:
            parent[c] = i
    return parent
