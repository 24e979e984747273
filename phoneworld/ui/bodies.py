"""A page's bodies: the big views that tell two pages in one frame apart.

    bodies(root, 1080, 2400) -> {"FrameLayout", "FrameLayout/ScrollView#content", ...}
    other_pages(skel_a, bodies_a, skel_b, bodies_b, chrome) -> True: two screens

Two pages under one toolbar (uber's "Profile Photo", a picture in a scroll view, against
the day picker under the same top bar) share most of their skeleton, however little
either body holds; what tells them apart is that each fills the screen with a view the
other lacks. The compiler groups observations by this rule (`infer.screens`) and replay
classifies a recorded observation by it (`apps.GeneratedApp.classify`), so that a
recording lands on the screen it was compiled into.
"""

from __future__ import annotations

from phoneworld.ui.node import Node
from phoneworld.ui.skeleton import app_windows, is_list, node_key

BODY_SHARE = 0.4
"""A view covering at least this share of the screen is a page's body (`bodies`)."""


def bodies(root: Node | None, width: int, height: int) -> frozenset[str]:
    """The skeleton paths of the views that cover `BODY_SHARE` of a `width` x `height`
    screen or more: frames, and whatever page fills them (a list, a scroll view, a web
    view); paths as `skeleton` writes them, the views inside a list left out as there,
    and those inside a web view (a page loading and the page loaded are one screen)."""
    if root is None or not width or not height:
        return frozenset()
    least = BODY_SHARE * width * height
    out: set[str] = set()
    for _, win in app_windows(root):
        stack = [(node_key(win), win)]
        while stack:
            path, node = stack.pop()
            x1, y1, x2, y2 = node.bounds
            if not node.visible or (x2 - x1) * (y2 - y1) < least:
                continue
            out.add(path)
            if not is_list(node) and not node.class_name.endswith("WebView"):
                stack.extend((path + "/" + node_key(c), c) for c in node.children)
    return frozenset(out)


def other_pages(skel_a: frozenset[str], bodies_a: frozenset[str], skel_b: frozenset[str],
                bodies_b: frozenset[str], chrome: frozenset[str] = frozenset()) -> bool:
    """Whether two renderings (skeleton and bodies each) are other pages in one frame:
    each has a body, outside the app's `chrome`, that the other's skeleton lacks."""
    return bool(bodies_a - chrome - skel_b) and bool(bodies_b - chrome - skel_a)
