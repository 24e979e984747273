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


def _card(x: int, width: int, title: str, *, preview: bool = True) -> Node:
    """A carousel card: a thumbnail, a title row (with a preview button where the card is
    whole) and a name."""
    head = [_v("TextView", (x, 1580, x + min(width, 300), 1630), text=title, rid="text_title")]
    if preview:
        head.append(_v("ImageView", (x + 300, 1550, x + 394, 1675), rid="img_preview"))
    return _v("View", (x, 1165, x + width, 1741),
              _v("View", (x, 1165, x + width, 1559), rid="box_thumbnail"),
              _v("View", (x, 1580, x + width, 1631), *head, rid="row_title"),
              rid="column_content")


def _carousel(top: int, titles: list[str]) -> Node:
    """A section's horizontal list of cards, the last cut by the display's edge."""
    cards = [_card(42 + 426 * i, 394, t) for i, t in enumerate(titles[:-1])]
    x = 42 + 426 * (len(titles) - 1)
    cards.append(_card(x, 1080 - x, titles[-1], preview=False))
    row = Node(class_name="android.view.View", resource_id="com.example:id/row_content_list",
               bounds=(0, 1165, 1080, 1741), scrollable=True, children=tuple(cards))
    return _v("View", (0, top, 1080, top + 700), row, rid="column_bundle_frame")


def test_a_carousel_whose_edge_cuts_its_last_card_is_a_list():
    """Spoon's home: three cards side by side, the third cut by the display's edge (its
    title row lacks the preview button): the cut card is one more of the list's items,
    not a reason to take the row of cards for a fixed layout; a container of two
    different kinds of views is no list, cut or not."""
    from phoneworld.ui.skeleton import is_list

    (row,) = _carousel(0, ["A", "B", "C"]).children
    assert is_list(row)
    mixed = Node(class_name="android.view.View", bounds=(0, 0, 1080, 600), scrollable=True,
                 children=(row.children[0], row.children[1],
                           _v("TextView", (894, 0, 1080, 100), text="More")))
    assert not is_list(mixed)


def test_two_lists_of_one_id_in_two_sections_are_two_lists():
    """Spoon's home (uber's help page too) shows two sections, each a carousel under the
    same resource id: a tap on a card of the second is no tap on the first (two list
    keys, numbered by position), and the inference's lists are keyed the same way."""
    from phoneworld.infer.content import find_lists

    root = _v("FrameLayout", (0, 0, 1080, 2400), _carousel(0, ["A", "B", "C"]),
              _carousel(800, ["D", "E", "F"]))
    first, second = widget_ref(root, (0, 0, 1, 1)), widget_ref(root, (1, 0, 1, 1))
    assert first.list_key != second.list_key and first.item == second.item == 1
    assert first.key.replace(first.list_key, "") == second.key.replace(second.list_key, "")
    assert [key for _, key in find_lists(root)] == [first.list_key, second.list_key]
    alone = _v("FrameLayout", (0, 0, 1080, 2400), _carousel(0, ["A", "B", "C"]))
    assert "@" not in widget_ref(alone, (0, 0, 1, 1)).list_key  # one list keeps its key
