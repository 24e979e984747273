"""A Material-like look for one box, by its widget class, for screens with no recording.

    kind(box)                     -> "switch", "button", "icon", "edit", "text", ...
    draw_box(boxes, i, parents, scale) -> the page's item for box i (CSS classes, text,
                                     icon, check indicators, fitted font size)
    fitted(box, scale, style)     -> the same for a box drawn over a recorded plate: its
                                     text in the style recorded there, no backgrounds
    bars(boxes, width, height)    -> status and navigation bar paints, where the layout
                                     leaves room for them

Text is fitted to its box: the font shrinks (to 60% at least) until the text's width
(`advances`, read from the page's faces) fits the lines the box has room for, and what
still does not fit ends in an ellipsis, so nothing runs past its box. Icon buttons are
drawn as icons (their description stays in `aria-label`, as the accessibility tree has
it), and a label is drawn once: a container's description is never drawn over its
children.
"""

from __future__ import annotations

from copy import copy
from math import floor
from typing import TYPE_CHECKING, Any

from phoneworld.runtime.advances import advance
from phoneworld.runtime.icons import icon_for, svg
from phoneworld.runtime.look import Style

if TYPE_CHECKING:
    from phoneworld.runtime.compose import Paint
    from phoneworld.runtime.render import Box

BODY = 16.0
"""Body text size in CSS pixels (Material's body-large)."""
TEXT = "#202124"
MUTED = "#5f6368"
ICON = "#5f6368"
ACCENT = "#1a73e8"


def _short(cls: str) -> str:
    return cls.rsplit(".", 1)[-1].rsplit("$", 1)[-1].lower()


def kind(b: Box, leaf: bool) -> str:
    """What a box is drawn as, from its class and flags."""
    c = _short(b.cls)
    if "switch" in c or "toggle" in c:
        return "switch"
    if "radio" in c and b.checkable:
        return "radio"
    if b.checkable or "checkbox" in c:
        return "check"
    if b.editable or "edittext" in c or "autocomplete" in c or "searchview" in c:
        return "edit"
    if ("button" in c or "chip" in c) and b.text:
        return "button"
    if "toolbar" in c or "actionbar" in c or "appbar" in c:
        return "bar"
    if "tabview" in c or c == "tab":
        return "tab"
    if "card" in c:
        return "card"
    if "progress" in c or "seekbar" in c:
        return "progress"
    if leaf and not b.text:
        if "image" in c or b.desc or b.clickable:
            return "icon"
        return "rule" if _thin(b) else "none"
    return "text" if b.text else "none"


STATE_WORDS = {True: frozenset({"ON", "开", "开启"}), False: frozenset({"OFF", "关", "关闭"})}
"""The words a switch's accessibility text may end in to say its state, on and off
(Android's Switch: its label, then its `textOn` or `textOff`; English and Chinese)."""


def switch_label(text: str, checked: bool) -> str:
    """What a switch shows beside its track: its text without the word for its state
    (`checked`) that its accessibility text ends in ("Image dimming ON" -> "Image
    dimming": the track says the state, and the app draws the label alone). A text that
    is a state word alone stays (`_room` decides whether it shows), and so does a word
    that does not say the switch's state ("Turn on", "Sound OFF" while on)."""
    head, _, last = text.rstrip().rpartition(" ")
    return head.rstrip() if head.strip() and last in STATE_WORDS[bool(checked)] else text


def _labelled(b: Box, k: str) -> Box:
    """`b` with the text it shows drawn: a switch's label (`switch_label`)."""
    if k != "switch" or not b.text:
        return b
    label = switch_label(b.text, b.checked)
    if label == b.text:
        return b
    out = copy(b)
    out.text = label
    return out


def _thin(b: Box) -> bool:
    x1, y1, x2, y2 = b.bounds
    return 0 < min(x2 - x1, y2 - y1) <= 4 and max(x2 - x1, y2 - y1) >= 24


LEGIBLE = 4.0
"""The smallest font size a text is fitted down to, in CSS pixels (a web page's tiny
sidebar links, 6 pixels high, stay legible and end in an ellipsis instead)."""
ONE_LINE = 0.9
"""The least height, in font sizes, of a box in which one line keeps its size. The line
box (1.2 sizes) is centred in the box and cut by it, which costs a line nothing down to
about this height: a capital's or an ascender's ink reaches 0.37-0.41 of a size above
the line box's middle, a descender's 0.55 below (the tail of a g loses a tenth of a
size). A recorded view is often this tight (a web view's span, a counter)."""
SHRINK = 0.93
"""The step a text that would wrap is shrunk by (its lines' breaks are not worked out)."""


def fit(text: str, w: float, h: float, size: float, weight: int = 400
        ) -> tuple[float, int]:
    """(font size, lines) for `text` in a w x h box (CSS pixels), starting from `size`:
    as many lines as the height holds. The size is kept where the text fits (`advance`
    says how wide it draws; one line in a box down to `ONE_LINE` sizes high), else
    shrunk (to 60% at most, and never under `LEGIBLE`): one line to the size at which it
    just fits the width, a text on more lines by steps until it fits them. What still
    does not fit is cut with an ellipsis by the page.

        fit("3 / 200", 57.6, 18.7, 19.1)  ->  (18.4, 1)   (was 15.1: the box's height)
    """
    rows = text.count("\n") + 1
    if h > 0:
        size = min(size, h / ONE_LINE if rows == 1 else h / 1.15)
    size = max(6.0, float(size))  # (a box a few pixels high: legible, cut by the box)
    need = advance(text, 1.0, weight)
    least = max(LEGIBLE, size * 0.6)
    s = size
    for _ in range(8):
        lines = max(1, int(h // (s * 1.2)))
        room = w * (lines - rows + 1)
        if rows <= lines and need * s <= room:
            break
        # One line, and still one at the size at which it just fits (a hair under it,
        # and rounded down: the page's faces may round a glyph's advance up).
        exact = floor(room / need * 0.995 * 10) / 10 if rows == lines == 1 and need else 0.0
        if exact and int(h // (exact * 1.2)) <= 1:
            s = max(least, exact)
            break
        s *= SHRINK
        if s < least:
            s = least
            break
    lines = max(1, int(h // (s * 1.2)))
    one = lines == 1 or (need * s <= w and "\n" not in text)
    out = round(s, 1)
    if one and need * s <= w < need * out:
        out = floor(s * 10) / 10  # (rounded up, a line that just fits would not)
    return out, 1 if one else lines


def one_line(h: float, size: float) -> bool:
    """Whether a text field `h` high (CSS pixels) whose text is `size` shows one line:
    its height holds fewer than four lines, one of which its padding takes (a boxed
    field with a label on its outline is 3.2 lines high at 16 pixels, a username field
    3.7; a note's or a feedback form's body holds five or more)."""
    return h < 4 * 1.2 * size


def _item(css: list[str], b: Box, text: str = "", style: str = "", icon: Any = None,
          inds: tuple = (), clamp: int = 0) -> dict[str, Any]:
    if not b.enabled:
        css.append("off")
    if b.clickable or b.long_clickable:
        css.append("click")
    return {"css": " ".join(css), "text": text, "label": b.desc or b.text, "style": style,
            "icon": icon, "inds": inds, "clamp": clamp}


def _text_css(b: Box, scale: float, size: float, color: str = "", weight: int = 400,
              align: str = "left", pad: float = 0.0, room: float = 0.0,
              top: float | None = None) -> tuple[list[str], str, int]:
    """CSS for `b`'s text, fitted to the box less `pad` on the left and `room` on the
    right (where a check box or a switch goes), centred in its height, or from `top`
    down where that is given. A one-line text field (`one_line`; not one whose text
    was recorded at its top) keeps the size and shows the end of a text too long for
    it, as a field scrolled to its cursor does."""
    x1, y1, x2, y2 = b.bounds
    w, h = (x2 - x1) * scale - pad - room, (y2 - y1) * scale - (top or 0.0)
    if b.editable and top is None and one_line(h, size):
        s, lines = round(max(6.0, min(size, h / 1.15 if h > 0 else size)), 1), 1
        css = ["v", "x", "one", "end"]
    else:
        s, lines = fit(b.text, max(1.0, w), h, size, weight)
        css = ["v", "x", "one" if lines == 1 else "many"]
    style = f"font-size:{s}px"
    if color:
        style += f";color:{color}"
    if weight != 400:
        style += f";font-weight:{weight}"
    if align != "left":
        style += f";text-align:{align}"
    if pad:
        style += f";padding-left:{pad:.1f}px"
    if room:
        style += f";padding-right:{room:.1f}px"
    if top is not None:
        style += f";align-items:flex-start;padding-top:{top:.1f}px"
    return css, style, lines if lines > 1 else 0


def _indicator(k: str, b: Box, scale: float, at_right: bool) -> tuple[tuple, float]:
    """The check box, radio button or switch of a checkable box, and the room it takes
    on the left (for the label beside it)."""
    x1, y1, x2, y2 = b.bounds
    w, h = (x2 - x1) * scale, (y2 - y1) * scale
    on = " on" if b.checked else ""
    if k == "switch":
        tw, th, d = 34.0, 14.0, 20.0
        left = w - tw - 4 if at_right else 4.0
        top = (h - th) / 2
        thumb = left + (tw - d + 2 if b.checked else -2)
        return ((
            {"css": "track" + on, "style": f"left:{left:.1f}px;top:{top:.1f}px;"
                                           f"width:{tw}px;height:{th}px"},
            {"css": "thumb" + on, "style": f"left:{thumb:.1f}px;top:{(h - d) / 2:.1f}px;"
                                           f"width:{d}px;height:{d}px"}),
                0.0 if at_right else tw + 12)
    d = min(18.0, max(8.0, h * 0.6))
    left = w - d - 6 if at_right else 4.0
    css = ("radio" if k == "radio" else "box") + on
    return (({"css": css, "style": f"left:{left:.1f}px;top:{(h - d) / 2:.1f}px;"
                                   f"width:{d:.1f}px;height:{d:.1f}px"},),
            0.0 if at_right else d + 12)


def draw_box(boxes: list[Box], i: int, parents: list[int], scale: float) -> dict[str, Any]:
    """The page's item for box `i`, drawn Material-like (see the module docstring)."""
    k = kind(boxes[i], not boxes[i].children)
    b = _labelled(boxes[i], k)
    x1, y1, x2, y2 = b.bounds
    w, h = (x2 - x1) * scale, (y2 - y1) * scale
    if k in ("switch", "check", "radio"):
        name = icon_for(b.desc, b.rid) if not b.text else "dot"
        if name != "dot":  # a toggle drawn as an icon (a heart, a star)
            s = max(8.0, min(24.0, min(w, h) * 0.6))
            return _item(["v", "ic"], b, style=f"--s:{s:.1f}px",
                         icon=svg(name, ACCENT if b.checked else ICON))
        inds, pad = _indicator(k, b, scale, at_right=k == "switch")
        room = _room(k, b, w)
        if room is not None:
            css, style, clamp = _text_css(b, scale, BODY, pad=pad, room=room)
            return _item(css, b, b.text, style, inds=inds, clamp=clamp)
        return _item(["v"], b, inds=inds)
    if k == "edit":
        css, style, clamp = _text_css(b, scale, BODY)
        css.append("edit")
        if b.focused:
            css.append("focused")
        return _item(css, b, b.text, style, clamp=clamp)
    if k == "button":
        css, style, clamp = _text_css(b, scale, min(BODY * 0.9, h * 0.45), color="#ffffff",
                                      weight=500, align="center")
        css.append("btn")
        return _item(css, b, b.text, style, clamp=clamp)
    if k == "icon":
        labels = [b.desc, b.rid]
        p, up = parents[i], 0
        while p >= 0 and not b.desc and up < 3:  # the icon of a tab or a button
            if boxes[p].clickable or boxes[p].desc:
                labels += [boxes[p].desc, boxes[p].rid]
                break
            p, up = parents[p], up + 1
        name = icon_for(*labels)
        big = min(w, h) >= 40 and not b.clickable and name == "dot"
        if big:  # a picture, not an icon
            return _item(["v", "img", "ic"], b, style=f"--s:{min(w, h) * 0.35:.1f}px",
                         icon=svg("image", "#9aa0a6"))
        s = max(8.0, min(24.0, min(w, h) * 0.6))
        return _item(["v", "ic"], b, style=f"--s:{s:.1f}px", icon=svg(name, ICON))
    if k == "rule":
        return _item(["v", "rule"], b)
    if k in ("bar", "card", "progress"):
        css = ["v", {"bar": "bar", "card": "card", "progress": "rule"}[k]]
        if b.text:  # a card or a bar that shows a text of its own
            tc, style, clamp = _text_css(b, scale, min(BODY, max(8.0, h * 0.72)))
            return _item(css + tc[1:], b, b.text, style, clamp=clamp)
        return _item(css, b)
    if k == "tab":
        css = ["v", "tab"] + (["sel"] if b.selected else [])
        if b.text:
            tc, style, clamp = _text_css(b, scale, BODY * 0.9, align="center")
            return _item(css + tc[1:], b, b.text, style, clamp=clamp)
        return _item(css, b)
    if b.text:
        # A label's box is about as tall as its line: size the font to it.
        size = min(BODY, max(8.0, h * 0.72))
        css, style, clamp = _text_css(b, scale, size)
        if b.selected:
            style += ";font-weight:500"
        return _item(css, b, b.text, style, clamp=clamp)
    return _item(["v"], b)


def fitted(b: Box, scale: float, style: Style | None) -> dict[str, Any]:
    """The item for a box drawn over a recorded plate: its text in the recorded `style`
    (size, colour, weight, alignment) where there is one, its check state Material-like
    (but where the plate shows it: `Style.plate_check`); no backgrounds (the plate has
    them)."""
    k = kind(b, not b.children)
    b = _labelled(b, k)
    inds: tuple = ()
    pad = 0.0
    room: float | None = 0.0
    if k in ("switch", "check", "radio") and not (style is not None and style.plate_check):
        inds, pad = _indicator(k, b, scale, at_right=k == "switch")
        room = _room(k, b, (b.bounds[2] - b.bounds[0]) * scale)
    if room is None:
        return _item(["v"], b, inds=inds)
    x1, y1, x2, y2 = b.bounds
    h = (y2 - y1) * scale
    top: float | None = None
    if style is not None and style.size > 0:
        size, color, weight, align = style.size * scale, style.color, style.weight, style.align
        pad = max(pad, style.indent * scale)
        if style.top >= 0:
            # The line box starts above the ink by about its leading and ascent gap.
            top = max(0.0, style.top * scale - 0.15 * size)
    else:  # no size recorded there: the body size, in a colour and indent if given
        size, color, weight, align = min(BODY, max(8.0, h * 0.72)), TEXT, 400, "left"
        if style is not None:
            color = style.color or TEXT
            pad = max(pad, style.indent * scale)
    if b.editable and room is not None:
        room = max(room, field_end(b, scale, pad))
    css, st, clamp = _text_css(b, scale, size, color=color, weight=weight, align=align,
                               pad=pad, room=room, top=top)
    return _item(css, b, b.text, st, inds=inds, clamp=clamp)


def field_end(b: Box, scale: float, start: float) -> float:
    """The room a text field keeps on the right of its text (CSS pixels), `start` being
    where its text starts: its padding, as on the left where that is a padding (up to
    5% of its width), at least 2%; typed text stops short of the field's edge."""
    w = (b.bounds[2] - b.bounds[0]) * scale
    return min(max(start, 0.02 * w), 0.05 * w)


def _room(k: str, b: Box, w: float) -> float | None:
    """Room to leave on the right of a check widget's label (a switch's track), or None
    where the label is not drawn: there is none, or a switch too narrow for more than
    its track shows its on/off word through the track alone."""
    if not b.text:
        return None
    if k != "switch":
        return 0.0
    room = 50.0
    return room if w - room >= advance(b.text, BODY * 0.6) else None


def bars(boxes: list[Box], width: int, height: int) -> list[tuple[Paint, str]]:
    """A status bar above the app and a navigation bar below it, where the layout leaves
    a strip for them (the system draws them on a real phone; dumps leave them out):
    (strip, "status" or "nav")."""
    from phoneworld.runtime.compose import Paint

    if not boxes:
        return []
    tops = [b.bounds[1] for b in boxes if b.bounds[1] > 0]
    bottoms = [b.bounds[3] for b in boxes if b.bounds[3] < height]
    out = []
    first = min(tops) if tops else 0
    if 0 < first <= height * 0.06 and not any(b.bounds[1] == 0 and b.text for b in boxes):
        out.append((Paint((0, 0, width, first), color="#f1f3f4"), "status"))
    last = max(bottoms) if bottoms else height
    if last < height and height - last <= height * 0.08:
        out.append((Paint((0, last, width, height), color="#f1f3f4"), "nav"))
    return out


def bar_icons(kind: str, h: float) -> list[Any]:
    """What a system bar shows (`h` its height in CSS pixels): the clock side's and the
    other side's icons of a status bar, or the back, home and recents keys."""
    s = f"{max(6.0, min(16.0, h * 0.55)):.1f}"
    if kind == "status":
        return [svg("signal", MUTED, s), svg("wifi", MUTED, s), svg("battery", MUTED, s)]
    return [svg("nav_back", MUTED, s), svg("nav_home", MUTED, s), svg("nav_recent", MUTED, s)]
