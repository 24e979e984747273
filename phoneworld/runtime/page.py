"""A rendered screen as a phone-sized HTML page, for people and for screenshots.

Each visible box becomes an absolutely positioned div, scaled from the app's screen size
to a 412-px-wide frame (a common phone width in CSS pixels); boxes are stacked in
document order, as Android draws them. Screen text is untrusted (it comes from traces):
the template is fixed, autoescape is on, and texts only ever reach it as data, so
`<script>` and `{{ 7*7 }}` show up literally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jinja2 import Environment

if TYPE_CHECKING:
    from phoneworld.runtime.render import Box, Rendering

FRAME_WIDTH = 412
_BODY_FONT = 42
"""Body text size in the app's own pixels (16 CSS px on a 1080-px-wide screen)."""

_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width={{ width }}">
<title>{{ title }}</title>
<style>
body { margin: 0; background: #e8e8e8; font-family: Roboto, "Noto Sans", sans-serif; }
.phone { position: relative; overflow: hidden; margin: 0 auto; background: #fff; }
.v { position: absolute; box-sizing: border-box; overflow: hidden; white-space: nowrap;
     text-overflow: ellipsis; font-size: {{ font }}px; line-height: 1.2; color: #202124; }
.t { overflow: visible; display: flex; align-items: center; }
.click { border-radius: 6px; }
.click { cursor: pointer; }
.click:hover { background: rgba(26, 115, 232, .08); }
.edit { border-bottom: 2px solid #1a73e8; color: #5f6368; }
.edit.focused { background: #f1f6fe; }
.check::after { content: "\\25CB"; position: absolute; right: 4px; }
.check.on::after { content: "\\25CF"; color: #1a73e8; }
.off { opacity: .5; }
.icon { color: #5f6368; font-size: 80%; }
</style></head>
<body><div class="phone" data-screen="{{ screen }}"
 style="width:{{ width }}px;height:{{ height }}px">
{% for b in boxes %}<div class="{{ b.css }}"
{%- if b.index is not none %} data-index="{{ b.index }}"{% endif %}
 style="left:{{ b.left }}px;top:{{ b.top }}px;width:{{ b.w }}px;height:{{ b.h }}px
{%- if b.fs %};font-size:{{ b.fs }}px{% endif %}"
{% if b.desc %} title="{{ b.desc }}" aria-label="{{ b.desc }}"{% endif %}>
{%- if b.text %}{{ b.text }}{% elif b.icon %}<span class="icon">{{ b.desc }}</span>{% endif -%}
</div>
{% endfor %}</div></body></html>
"""

_ENV = Environment(autoescape=True, trim_blocks=False, lstrip_blocks=False)
_PAGE = _ENV.from_string(_TEMPLATE)


def render_html(r: Rendering) -> str:
    """The page for `r`; `data-index` on a div is its index in `r.elements`."""
    scale = FRAME_WIDTH / max(1, r.width)
    index = {box: n for n, box in enumerate(r.element_boxes)}
    items = [_item(b, index.get(i), scale) for i, b in enumerate(r.boxes)]
    return _PAGE.render(
        title=r.screen, screen=r.screen, width=FRAME_WIDTH,
        height=round(r.height * scale), font=max(10, round(_BODY_FONT * scale)), boxes=items)


def _item(b: Box, index: int | None, scale: float) -> dict[str, object]:
    x1, y1, x2, y2 = b.bounds
    css = ["v"]
    if b.clickable or b.long_clickable:
        css.append("click")
    if b.editable:
        css.append("edit")
        if b.focused:
            css.append("focused")
    if b.checkable:
        css.append("check")
        if b.checked:
            css.append("on")
    if not b.enabled:
        css.append("off")
    # An icon button has no text: show its description, as a screen reader would say it.
    icon = bool(b.desc) and (b.clickable or b.long_clickable)
    h = max(0, y2 - y1) * scale
    fs = None
    if b.text and not b.children:
        # A label's box is as tall as its line: size the font to it, let it run on.
        css.append("t")
        fs = round(min(_BODY_FONT * scale, max(8.0, h * 0.72)), 1)
    return {"css": " ".join(css), "index": index, "text": b.text, "desc": b.desc, "icon": icon,
            "fs": fs,
            "left": round(x1 * scale, 1), "top": round(y1 * scale, 1),
            "w": round(max(0, x2 - x1) * scale, 1), "h": round(max(0, y2 - y1) * scale, 1)}
