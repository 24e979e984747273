"""Widget keys: the same across observations of a screen, one per widget a person sees."""

from __future__ import annotations

from phoneworld.ui.node import Node
from phoneworld.ui.widgets import widget_ref


def _v(cls: str, bounds, *children: Node, text: str = "", rid: str = "") -> Node:
    return Node(class_name=f"android.widget.{cls}", text=text, bounds=bounds,
                resource_id=f"com.example:id/{rid}" if rid else "", children=children)


def _row(top: int, stats: list[str], title: str) -> Node:
    """A row with a title and three unnamed stat columns (uber's profile header)."""
    cols = [_v("LinearLayout", (360 * i, top + 50, 360 * i + 360, top + 100),
               _v("TextView", (360 * i, top + 50, 360 * i + 360, top + 100), text=s))
            for i, s in enumerate(stats)]
    return _v("LinearLayout", (0, top, 1080, top + 100),
              _v("TextView", (0, top, 1080, top + 50), text=title, rid="title"), *cols)


def _screen() -> Node:
    rows = [_row(0, ["4.9", "95%", "1%"], "Alex"), _row(100, ["4.7", "90%", "2%"], "Sam")]
    buttons = [_v("Button", (0, 2000 + 100 * i, 1080, 2100 + 100 * i), text=t)
               for i, t in enumerate(("OK", "Cancel"))]
    return _v("FrameLayout", (0, 0, 1080, 2400),
              _v("RecyclerView", (0, 0, 1080, 1000), *rows, rid="list"), *buttons)


def test_look_alikes_in_a_list_item_are_told_apart_by_position_the_same_in_every_row():
    """(#21) Three unnamed columns of one row each get a key of their own (a tap on each
    opens a page of its own), numbered by position, so row 1's second column has the
    key of row 0's; a widget alone of its kind in the row keeps its plain key."""
    root = _screen()
    keys = [[widget_ref(root, (0, r, c)).key for c in (1, 2, 3)] for r in (0, 1)]
    assert len(set(keys[0])) == 3 and keys[0] == keys[1]
    assert [k.rsplit("@", 1)[1] for k in keys[0]] == ["0", "1", "2"]
    inner = [widget_ref(root, (0, 0, c, 0)).key for c in (1, 2, 3)]
    assert len(set(inner)) == 3  # the columns' texts as well
    title = widget_ref(root, (0, 1, 0))
    assert title.key.endswith("/[item]/TextView#title") and title.item == 1
    assert widget_ref(root, (0, 1)).key.endswith("/[item]")


def test_look_alikes_outside_lists_are_told_apart_by_label():
    root = _screen()
    assert widget_ref(root, (1,)).key.endswith("Button@OK")
    assert widget_ref(root, (2,)).key.endswith("Button@Cancel")
