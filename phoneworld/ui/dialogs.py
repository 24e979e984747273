"""Dialogs: an observation whose top layer is a window smaller than the screen.

    uber: page + View#scrim (full screen, tappable) + FrameLayout#bottomsheet{LinearLayout
          [0,1015,1080,2148]: "Set arrival time", a picker, Cancel, OK}
        -> dialog_layer: the bottom sheet; dialog_window: (0, 1015, 1080, 2148)
    activitylauncher: the app's window itself is [27,496,1053,1351] on a 1080x1920 screen
        -> dialog_layer: None (the window is the root); dialog_window: (27, 496, 1053, 1351)

Three shapes a dialog takes in a recorded hierarchy:
- the app's window is the dialog (DroidBot keeps only the top window): the root is
  smaller than the screen on both axes;
- a dump of several windows (`hierarchy` root) whose last app window is smaller than the
  screen: that window is the dialog, over the windows before it;
- a sheet drawn in the page's own window over a scrim: a childless view without text
  that covers the screen (tappable: a tap outside closes the sheet), followed by one
  sibling with views of its own, drawn last, whose content is smaller than the screen.
  The page under the scrim is still in the hierarchy, dimmed; the sheet is what the
  dialog is.

A dialog is a screen of its own (`infer.screens`): it is told apart from other screens
by its top layer only (`top_layer`), whatever page it was opened over, and it opens over
the screen under it and closes back to it.
"""

from __future__ import annotations

from phoneworld.ui.node import Bounds, Node
from phoneworld.ui.skeleton import is_system_window

COVER = 0.9
"""A scrim covers at least this share of the root's area; a dialog's window less."""
MIN_SHEET = 0.05
"""A sheet over a scrim shows at least this share of the root's area (not a thin bar)."""


def _area(b: Bounds) -> int:
    return max(0, b[2] - b[0]) * max(0, b[3] - b[1])


def _smaller(b: Bounds, width: int, height: int) -> bool:
    """Smaller than a `width` x `height` screen on both axes (and not empty)."""
    return 0 < b[2] - b[0] < width and 0 < b[3] - b[1] < height


def _content(node: Node) -> Bounds:
    """The bounds of what a sheet shows: down the single children that fill it, then
    the union of the first node's visible children with a size (a sheet's frame fills
    the screen; its content sits at the bottom)."""
    while len(node.children) == 1 and node.children[0].bounds == node.bounds:
        node = node.children[0]
    kids = [c.bounds for c in node.children if c.visible and _area(c.bounds) > 0]
    if not kids:
        return node.bounds
    return (min(b[0] for b in kids), min(b[1] for b in kids), max(b[2] for b in kids),
            max(b[3] for b in kids))


def _is_scrim(node: Node, whole: int) -> bool:
    """A plain view (not a web view, a picture, a progress bar) that covers the screen,
    empty, and taps (or is named like a scrim)."""
    hint = any(w in node.resource_id.lower() for w in ("scrim", "outside", "dim"))
    return (not node.children and not node.text and not node.content_desc and node.visible
            and _area(node.bounds) >= COVER * whole
            and (hint or (node.clickable and node.class_name.rsplit(".", 1)[-1] == "View")))


def _sheet(root: Node) -> Node | None:
    """The sheet over a scrim (see the module's docstring), the topmost one: siblings
    later in document order are drawn over earlier ones."""
    whole = _area(root.bounds)
    if not whole:
        return None
    found = None
    for _, node in root.walk():
        kids = node.children
        for i, scrim in enumerate(kids[:-1]):
            if not _is_scrim(scrim, whole):
                continue
            over = [s for s in kids[i + 1:] if s.children and s.visible]
            # the sheet is drawn last: a launcher's scrim under its workspace, with the
            # dock drawn over both, is no dialog
            sheet = over[0] if len(over) == 1 else None
            if sheet is not None and MIN_SHEET * whole <= _area(_content(sheet)) < \
                    COVER * whole:
                found = sheet  # document order: a later find is drawn over this one
    return found


def dialog_layer(root: Node | None) -> Node | None:
    """The node that is the dialog when an observation shows one within a larger
    hierarchy (a sheet over a scrim, or the last of several app windows smaller than
    the first); None where there is none, or where the root itself is the dialog."""
    if root is None:
        return None
    if root.class_name == "hierarchy":
        wins = [w for w in root.children if not is_system_window(w)]
        if len(wins) >= 2 and _area(wins[-1].bounds) < COVER * _area(wins[0].bounds):
            return wins[-1]
        root = wins[-1] if wins else root
    return _sheet(root)


def top_layer(root: Node | None) -> Node | None:
    """What tells the screen of an observation apart: its dialog layer where it shows
    one within a larger hierarchy, else the whole hierarchy."""
    layer = dialog_layer(root)
    return layer if layer is not None else root


def dialog_window(root: Node | None, width: int, height: int) -> Bounds | None:
    """The bounds of the dialog an observation shows on a `width` x `height` screen, or
    None when it shows none."""
    return _window(root, dialog_layer(root), width, height)


def layer_and_window(root: Node | None, width: int, height: int
                     ) -> tuple[Node | None, Bounds | None]:
    """(`top_layer`, `dialog_window`) of an observation, its dialog layer found once (a
    walk of the whole hierarchy)."""
    layer = dialog_layer(root)
    return (layer if layer is not None else root), _window(root, layer, width, height)


def _window(root: Node | None, layer: Node | None, width: int, height: int
            ) -> Bounds | None:
    """`dialog_window`, given `dialog_layer(root)`."""
    if root is None:
        return None
    if layer is not None:
        return layer.bounds if root.class_name == "hierarchy" else _content(layer)
    if root.class_name == "hierarchy":
        wins = [w for w in root.children if not is_system_window(w)]
        root = wins[0] if len(wins) == 1 else root
    if root.class_name != "hierarchy" and _smaller(root.bounds, width, height):
        return root.bounds
    return None
