"""A small mutable view tree for the scripted example apps, and the widgets they share.

A `View` carries what a uiautomator dump shows (class, id, text, flags, bounds) plus what
the scripted app does when it is touched (`on_tap`, `on_scroll`, ...). `View.to_node`
drops the behaviour and yields the frozen `Node` that traces hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from phoneworld.ui.node import Bounds, Node, NodePath

WIDTH, HEIGHT = 1080, 2400
STATUS_BOTTOM = 63
NAV_TOP = 2337
TOOLBAR_BOTTOM = 210
BOTTOM_NAV_TOP = 2127
MARGIN = 47

Handler = Callable[[], None]


def text_width(text: str, sp: float = 16) -> int:
    """Roughly how wide a single line of `text` renders at `sp`."""
    return int(len(text) * sp * 2.625 * 0.52) + 4


@dataclass
class View:
    cls: str
    bounds: Bounds
    rid: str = ""
    text: str = ""
    desc: str = ""
    children: list[View] = field(default_factory=list)
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool | None = None
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    enabled: bool = True
    key: str = ""
    """How the trace scripts name this view; never written out."""
    input_id: str = ""
    """For an EditText: the app field it edits."""
    on_tap: Handler | None = None
    on_long_press: Handler | None = None
    on_enter: Handler | None = None
    on_scroll: Callable[[str], None] | None = None

    def to_node(self, package: str) -> Node:
        rid = self.rid if ":" in self.rid or not self.rid else f"{package}:id/{self.rid}"
        focusable = self.focusable
        if focusable is None:
            focusable = self.clickable or self.checkable or self.cls.endswith("EditText")
        return Node(
            class_name=self.cls, resource_id=rid, text=self.text, content_desc=self.desc,
            package=package, bounds=self.bounds, clickable=self.clickable,
            long_clickable=self.long_clickable, checkable=self.checkable,
            checked=self.checked, focusable=focusable, focused=self.focused,
            scrollable=self.scrollable, selected=self.selected, enabled=self.enabled,
            editable=self.cls.endswith("EditText"),
            children=tuple(c.to_node(package) for c in self.children),
        )


def walk(view: View, path: NodePath = ()) -> Iterator[tuple[NodePath, View]]:
    """Every view with its path, in document order (the same paths as the `Node` tree)."""
    yield path, view
    for i, child in enumerate(view.children):
        yield from walk(child, path + (i,))


def clip(view: View, rect: Bounds) -> View | None:
    """`view` cut to `rect`, as a dump shows a partly scrolled-out item; None if none is left."""
    x1, y1 = max(view.bounds[0], rect[0]), max(view.bounds[1], rect[1])
    x2, y2 = min(view.bounds[2], rect[2]), min(view.bounds[3], rect[3])
    if x1 >= x2 or y1 >= y2:
        return None
    kids = [c for c in (clip(child, rect) for child in view.children) if c is not None]
    return replace(view, bounds=(x1, y1, x2, y2), children=kids)


# -- widgets ---------------------------------------------------------------------------


def frame(bounds: Bounds, *children: View, cls: str = "android.widget.FrameLayout",
          rid: str = "", **kw) -> View:
    return View(cls, bounds, rid=rid, children=list(children), **kw)


def linear(bounds: Bounds, *children: View, rid: str = "", **kw) -> View:
    return View("android.widget.LinearLayout", bounds, rid=rid, children=list(children), **kw)


def group(bounds: Bounds, *children: View, rid: str = "", **kw) -> View:
    return View("android.view.ViewGroup", bounds, rid=rid, children=list(children), **kw)


def label(text: str, x: int, y: int, *, rid: str = "", sp: float = 16, right: int | None = None,
          align_right: bool = False, lines: int = 1, **kw) -> View:
    """A TextView whose box hugs its text, or spans to `right` when given."""
    height = int(sp * 2.625 * 1.4) * lines
    if align_right and right is not None:
        return View("android.widget.TextView", (right - text_width(text, sp), y, right,
                                                y + height), rid=rid, text=text, **kw)
    x2 = right if right is not None else min(WIDTH - MARGIN, x + text_width(text, sp))
    return View("android.widget.TextView", (x, y, x2, y + height), rid=rid, text=text, **kw)


def image(bounds: Bounds, *, rid: str = "", desc: str = "") -> View:
    return View("android.widget.ImageView", bounds, rid=rid, desc=desc)


def image_button(bounds: Bounds, desc: str, *, rid: str = "", key: str = "",
                 on_tap: Handler | None = None, enabled: bool = True) -> View:
    return View("android.widget.ImageButton", bounds, rid=rid, desc=desc, clickable=True,
                key=key or rid, on_tap=on_tap, enabled=enabled)


def button(bounds: Bounds, text: str, *, rid: str = "", key: str = "",
           on_tap: Handler | None = None, enabled: bool = True) -> View:
    return View("android.widget.Button", bounds, rid=rid, text=text, clickable=True,
                key=key or rid, on_tap=on_tap, enabled=enabled)


def switch(bounds: Bounds, checked: bool, *, rid: str = "android:id/switch_widget",
           key: str = "", on_tap: Handler | None = None) -> View:
    return View("android.widget.Switch", bounds, rid=rid, text="ON" if checked else "OFF",
                checkable=True, checked=checked, clickable=True, key=key, on_tap=on_tap)


def toolbar(title: str, *, up: Handler | None = None, actions: Sequence[View] = (),
            subtitle: str = "", rid: str = "toolbar") -> View:
    """An app bar: optional 'Navigate up', a title (and subtitle), action buttons on the right."""
    kids: list[View] = []
    if up is not None:
        kids.append(image_button((0, 63, 147, 210), "Navigate up", key="up", on_tap=up))
    x = 189 if up is not None else 58
    right = WIDTH - 126 * len(actions) - 16
    if subtitle:
        kids.append(label(title, x, 84, sp=20, right=right))
        kids.append(label(subtitle, x, 157, sp=14, right=right))
    else:
        kids.append(label(title, x, 100, sp=20, right=right))
    kids.extend(actions)
    return group((0, 63, WIDTH, TOOLBAR_BOTTOM), *kids, rid=rid)


def action_slot(i: int, n: int) -> Bounds:
    """The bounds of toolbar action `i` of `n`, right-aligned as in an ActionMenuView."""
    x2 = WIDTH - 16 - 126 * (n - 1 - i)
    return (x2 - 126, 73, x2, 199)


def bottom_nav(tabs: Sequence[tuple[str, str, Handler, str]], current: str) -> View:
    """Material bottom navigation: (id, label, on_tap, badge) per tab; `current` is selected."""
    width = WIDTH // len(tabs)
    items = []
    for i, (tab_id, text, on_tap, badge) in enumerate(tabs):
        x1 = i * width
        cx = x1 + width // 2
        kids = [
            frame((cx - 63, 2153, cx + 63, 2237), image((cx - 31, 2163, cx + 32, 2226),
                  rid="navigation_bar_item_icon_view"), rid="navigation_bar_item_icon_container"),
            group((x1, 2248, x1 + width, 2300),
                  label(text, cx - text_width(text, 12) // 2, 2248, sp=12,
                        rid="navigation_bar_item_small_label_view"),
                  rid="navigation_bar_item_labels_group"),
        ]
        if badge:
            kids.append(label(badge, cx + 21, 2148, sp=11, rid=f"{tab_id}_badge"))
        desc = f"{text}, {badge} new notifications" if badge else text
        items.append(frame((x1, 2127, x1 + width, 2337), *kids, rid=f"navigation_{tab_id}",
                           desc=desc, clickable=True, selected=tab_id == current,
                           key=f"tab:{tab_id}", on_tap=on_tap))
    menu = group((0, 2127, WIDTH, 2337), *items)
    return frame((0, 2127, WIDTH, 2337), menu, rid="bottom_navigation")


def vlist(rid: str, bounds: Bounds, items: Sequence[tuple[int, Callable[[int], View]]],
          scroll: dict[str, int], *, cls: str = "androidx.recyclerview.widget.RecyclerView",
          padding: int = 0, from_end: bool = False) -> View:
    """A scrolling list: `items` are (height, build(top)); only what shows is kept, clipped.

    `scroll` holds the offset under `rid` (it lives in the screen's route, so going back
    to a screen finds it scrolled as it was left). A `from_end` list (a chat) starts
    scrolled to its end and stacks short content at the bottom.
    """
    top, bottom = bounds[1], bounds[3]
    total = padding + sum(h for h, _ in items)
    max_offset = max(0, total - (bottom - top))
    offset = min(scroll.get(rid, max_offset if from_end else 0), max_offset)
    kids: list[View] = []
    y = top + padding - offset
    if from_end and total < bottom - top:
        y = bottom - total + padding
    for height, build in items:
        if y + height > top and y < bottom:
            shown = clip(build(y), bounds)
            if shown is not None:
                kids.append(shown)
        y += height

    def on_scroll(direction: str) -> None:
        step = (bottom - top) * 3 // 5
        delta = step if direction == "down" else -step
        scroll[rid] = max(0, min(max_offset, offset + delta))

    return View(cls, bounds, rid=rid, children=kids, scrollable=True, focusable=True,
                key=rid, on_scroll=on_scroll)


def alert_dialog(title: str, message: str, buttons: Sequence[tuple[str, Handler]],
                 body: Sequence[View] = (), body_height: int = 0) -> View:
    """A framework AlertDialog window; `buttons` go right to left as button1, button2, ...

    `body` (e.g. a single-choice list) is laid out from the top of a `body_height` band.
    """
    x1, x2 = 74, WIDTH - 74
    title_h = 168
    message_h = 0 if not message else 63 * (1 + len(message) // 38) + 42
    height = title_h + message_h + body_height + 168
    y1 = (HEIGHT - height) // 2
    y = y1 + title_h
    panels = [linear((x1, y1, x2, y), linear(
        (x1, y1, x2, y), label(title, x1 + 63, y1 + 63, sp=20, rid="android:id/alertTitle",
                               right=x2 - 63), rid="android:id/title_template"),
        rid="android:id/topPanel")]
    if message:
        text = label(message, x1 + 63, y, sp=16, rid="android:id/message", right=x2 - 63,
                     lines=message_h // 63)
        panels.append(frame((x1, y, x2, y + message_h), View(
            "android.widget.ScrollView", (x1, y, x2, y + message_h), rid="android:id/scrollView",
            children=[text]), rid="android:id/contentPanel"))
        y += message_h
    if body:
        panels.append(frame((x1, y, x2, y + body_height), *body, rid="android:id/customPanel"))
        y += body_height
    row = []
    bx = x2 - 42
    for n, (text, on_tap) in enumerate(buttons, start=1):
        w = max(189, text_width(text.upper(), 14) + 84)
        row.append(button((bx - w, y + 31, bx, y + 157), text.upper(),
                          rid=f"android:id/button{n}", key=f"dialog:{text}", on_tap=on_tap))
        bx -= w + 21
    row.reverse()
    panels.append(View("android.widget.ScrollView", (x1, y, x2, y + 168),
                       rid="android:id/buttonPanel",
                       children=[linear((x1, y, x2, y + 168), *row)]))
    window = (x1, y1, x2, y + 168)
    panel = linear(window, *panels, rid="android:id/parentPanel")
    return frame(window, frame(window, panel, rid="android:id/content"))
