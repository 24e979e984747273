"""List rows of their recorded sizes (#22): a wrapped title or a shown comment makes a row
taller, a section header shorter; the compiler keeps each recorded row's size
(`ListOf.sizes`) and the runtime lays rows out one after another at those sizes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.infer import content as C
from phoneworld.infer import extents as E
from phoneworld.runtime import Machine
from phoneworld.runtime.layout import CENTRE, END, KEEP, STRETCH, anchor, fit
from phoneworld.spec.ast import Column, ListOf, Table, View
from phoneworld.spec.emit import emit
from phoneworld.spec.parse import parse
from phoneworld.ui.node import Node
from tests.shop import PRODUCTS, R, home_as

# -- how a template's views follow their row ----------------------------------------------

def test_views_anchor_by_where_they_sit_in_their_row():
    lo, hi = 400, 500
    assert anchor(400, 500, lo, hi) == STRETCH      # the row's container, a full-height title
    assert anchor(410, 490, lo, hi) == STRETCH      # most of the row, centred: grows
    assert anchor(430, 470, lo, hi) == CENTRE       # a small centred icon: moves half
    assert anchor(460, 499, lo, hi) == END          # hugging the row's end
    assert anchor(405, 440, lo, hi) == KEEP         # top-aligned
    assert anchor(520, 600, lo, hi) == KEEP         # outside the row (another row type's)


def test_fit_of_equal_rows_is_pages_of_pitch():
    # Template [400, 700) in a list ending at 2200, 300 apart: 6 whole rows, offset 2 of 8.
    assert fit(None, 8, 300, 400, 700, 2200) == (6, 2)
    assert fit([(0, 300)] * 8, 8, 300, 400, 700, 2200) == (6, 2)
    assert fit(None, 3, 300, 400, 700, 2200) == (6, 0)  # the page is what fits
    assert fit([(0, 300)] * 3, 3, 300, 400, 700, 2200) == (6, 0)
    assert fit(None, 0, 300, 400, 700, 2200) == (6, 0)


def test_fit_of_rows_of_sizes_counts_their_sizes():
    # Row 1 is 600 px larger: only 4 whole rows from the top; the last 6 fit at offset 2.
    steps = [(0, 300), (600, 900)] + [(0, 300)] * 6
    assert fit(steps, 8, 300, 400, 700, 2200) == (4, 2)
    steps = [(0, 300)] * 7 + [(600, 900)]
    assert fit(steps, 8, 300, 400, 700, 2200) == (6, 4)
    # A divider after row 0 (100 px more space): 5 whole rows.
    steps = [(0, 400)] + [(0, 300)] * 7
    assert fit(steps, 8, 300, 400, 700, 2200) == (5, 2)


# -- the runtime --------------------------------------------------------------------------

def _machine(sizes: tuple[tuple[int, ...], ...], pitch: int = 100) -> Machine:
    """The shop's home with a list of rows [400, 500): a title filling the row, a centred
    icon, a line at its bottom; `sizes` per product id (id, size[, space after])."""
    sizes = tuple((*s, pitch - 100)[:3] for s in sizes)
    title = View(cls="android.widget.TextView", bounds=(0, 400, 800, 500), id="title",
                 text=R("item", "name"))
    icon = View(cls="android.widget.ImageView", bounds=(900, 430, 960, 470), id="icon",
                desc=R("item", "name"))
    line = View(cls="android.view.View", bounds=(0, 496, 1080, 500), id="line",
                desc=R("item", "name"))
    row = View(cls="android.widget.LinearLayout", bounds=(0, 400, 1080, 500), id="row",
               children=(title, icon, line), flags=("clickable",))
    lst = View(cls="android.widget.ListView", bounds=(0, 400, 1080, 1400), name="rows",
               children=(row,), items=ListOf("product", pitch=pitch, sizes=sizes))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(lst,))
    m = Machine(home_as(root))
    m.reset()
    return m


def _by_id(m: Machine, rid: str) -> list[tuple[str, list[int]]]:
    return [(e["text"] or e["content_desc"], e["bounds"]) for e in m.observe()
            if e["resource_id"] == rid]


def test_rows_follow_one_another_at_their_sizes():
    m = _machine(((2, 200), (3, 50)))
    rows = [b for _, b in _by_id(m, "row")]
    assert [(b[1], b[3]) for b in rows[:5]] == [(400, 500), (500, 700), (700, 750),
                                                (750, 850), (850, 950)]
    # In the 200 px row the title grows, the icon moves to the middle, the line to the end.
    assert dict(_by_id(m, "title"))[PRODUCTS[1][1]][1::2] == [500, 700]
    assert dict(_by_id(m, "icon"))[PRODUCTS[1][1]][1::2] == [580, 620]
    assert dict(_by_id(m, "line"))[PRODUCTS[1][1]][1::2] == [696, 700]
    # In the 50 px row the icon is cut to the row, nothing reaches the next row.
    assert dict(_by_id(m, "icon"))[PRODUCTS[2][1]][1::2] == [705, 745]
    assert dict(_by_id(m, "title"))[PRODUCTS[2][1]][1::2] == [700, 750]


def test_a_tap_lands_on_the_row_the_picture_shows_there():
    m = _machine(((2, 200),))
    rendering = m.rendered()
    i = rendering.hit(400, 690)  # low in the tall second row, where equal rows had the third
    assert i is not None and rendering.boxes[i].row["id"] == 2


def test_scrolling_rows_of_sizes_shows_the_last_row_whole():
    m = _machine(((8, 600),))
    for _ in range(6):
        m.step({"action_type": "scroll", "direction": "down"})
    rows = _by_id(m, "title")
    assert rows[-1][0] == PRODUCTS[-1][1]
    assert rows[-1][1][3] <= 1400 and rows[-1][1][3] - rows[-1][1][1] == 600


@settings(max_examples=60, deadline=None)
@given(sizes=st.dictionaries(st.integers(1, 9), st.tuples(st.integers(1, 700),
                                                          st.integers(0, 80)), max_size=9),
       pitch=st.integers(60, 160), scrolls=st.integers(0, 8))
def test_rows_never_overlap_and_stay_in_order(sizes, pitch, scrolls):
    m = _machine(tuple((i, *s) for i, s in sorted(sizes.items())), pitch)
    for _ in range(scrolls):
        m.step({"action_type": "scroll", "direction": "down"})
    rendering = m.rendered()
    rows = [b for b in rendering.boxes if b.rid == "row"]
    ids = [b.row["id"] for b in rows]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    for a, b in zip(rows, rows[1:], strict=False):
        assert a.bounds[3] <= b.bounds[1]
    for b in rendering.boxes:
        if b.row is not None:  # every view of a row stays in its row, in the list
            row = next(r for r in rows if r.row is b.row).bounds
            assert row[1] <= b.bounds[1] < b.bounds[3] <= row[3]
            assert 400 <= b.bounds[1] and b.bounds[3] <= 1400


def test_a_row_added_at_run_time_takes_the_templates_size():
    m = _machine(((2, 200),))
    m.state.insert("product", {"name": "Kefir", "price": "$2", "category": "dairy"})
    rows = [b for b in m.rendered().boxes if b.rid == "row"]
    assert [b.bounds[3] - b.bounds[1] for b in rows][:3] == [100, 200, 100]
    assert [b.row["name"] for b in rows][-1] == "Kefir"  # 8 rows of 900 px, then it
    assert rows[-1].bounds[1::2] == (1300, 1400)


def test_row_sizes_go_by_the_tables_key_whatever_its_name():
    """A hand-written spec's table keyed by `code`, not `id`: its rows take their sizes."""
    m = _machine(((2, 200),))
    dish = Table("dish", "content", (Column("code", "int"), Column("name")),
                 tuple((i, f"Dish {i}") for i in (1, 2, 3)))
    home = next(s for s in m.spec.screens if s.name == "home")
    root = home.root
    lst = root.children[0]
    lst = replace(lst, items=replace(lst.items, table="dish"), children=(replace(
        lst.children[0], children=tuple(replace(c, text=R("item", "name"), desc=None)
                                        for c in lst.children[0].children)),))
    home = replace(home, root=replace(root, children=(lst,)))
    m = Machine(replace(m.spec, tables=(*m.spec.tables, dish),
                        screens=tuple(home if s.name == "home" else s for s in m.spec.screens)))
    m.reset()
    rows = [b for b in m.rendered().boxes if b.rid == "row"]
    assert [(b.bounds[1], b.bounds[3]) for b in rows] == [(400, 500), (500, 700), (700, 800)]


# -- the spec and the compiler --------------------------------------------------------------

def test_sizes_round_trip_through_the_spec_text():
    m = _machine(((2, 200), (5, 37, 12)))
    text = emit(m.spec)
    assert "pitch 100 vertical sizes 2:200+0 5:37+12 {" in text
    assert parse(text) == m.spec


def _item(top: int, bottom: int, text: str) -> Node:
    label = Node(class_name="android.widget.TextView", resource_id="a:id/title", text=text,
                 bounds=(0, top, 1080, bottom))
    return Node(class_name="android.widget.LinearLayout", bounds=(0, top, 1080, bottom),
                children=(label,))


def test_the_compiler_keeps_each_rows_recorded_size():
    items = (_item(0, 100, "a"), _item(110, 310, "b wraps"), _item(320, 420, "c"),
             _item(430, 480, "d cut"))
    lst = Node(class_name="androidx.recyclerview.widget.RecyclerView", bounds=(0, 0, 1080, 480),
               children=items)
    lc = C.ListContent(key="k", table="t")
    lc.pitch, lc.axis, lc.span, lc.cross = C.layout_pitch(lst)
    E.measure(lc, lst, C.collect(lc, lst, None)[0])
    # Pitch: the template's 100 px and the 10 px gap; row 2 recorded at 200 px; the cut
    # row 4 (its true size unknown) takes the template's.
    assert E.row_sizes(lc, items[0]) == (110, ((2, 200, 10),))


def test_a_sliver_at_the_lists_start_is_a_cut_item_not_a_tiny_row():
    # A chat recorded at its end: the first item shows 6 px of an earlier message.
    items = (_item(0, 6, "earlier"), _item(16, 116, "a"), _item(126, 326, "b wraps"),
             _item(336, 436, "c"))
    lst = Node(class_name="androidx.recyclerview.widget.RecyclerView", bounds=(0, 0, 1080, 480),
               children=items)
    lc = C.ListContent(key="k", table="t")
    lc.pitch, lc.axis, lc.span, lc.cross = C.layout_pitch(lst)
    E.measure(lc, lst, C.collect(lc, lst, None)[0])
    assert E.row_sizes(lc, items[1]) == (110, ((3, 200, 10),))


def test_a_divider_after_a_section_is_space_after_its_last_row():
    items = (_item(0, 100, "a"), _item(110, 210, "b"), _item(258, 358, "Storage"),
             _item(368, 468, "c"))
    lst = Node(class_name="androidx.recyclerview.widget.RecyclerView", bounds=(0, 0, 1080, 480),
               children=items)
    lc = C.ListContent(key="k", table="t")
    lc.pitch, lc.axis, lc.span, lc.cross = C.layout_pitch(lst)
    E.measure(lc, lst, C.collect(lc, lst, None)[0])
    assert E.row_sizes(lc, items[0]) == (110, ((2, 100, 48),))
    m = _machine(((2, 100, 48),), 110)
    tops = [b[1] for _, b in _by_id(m, "title")][:4]
    assert tops == [400, 510, 658, 768]


@pytest.mark.parametrize("scrolls", [False, True])
def test_the_last_row_of_a_list_that_does_not_scroll_keeps_its_size(scrolls):
    """A list that does not scroll shows its rows whole (a web page's tabs, its sidebar's
    links): its last row, ending at the list's end, is as long as recorded (wikipedia's
    "Discussion" tab, not cut to the template's "Page"; a two-line sidebar link). In a
    list that scrolls, a row at its end is most often cut, and takes the template's."""
    items = (_item(0, 100, "a"), _item(110, 210, "b"), _item(220, 480, "c, two lines"))
    lst = Node(class_name="android.widget.ListView", bounds=(0, 0, 1080, 480),
               scrollable=scrolls, children=items)
    lc = C.ListContent(key="k", table="t")
    lc.pitch, lc.axis, lc.span, lc.cross = C.layout_pitch(lst)
    E.measure(lc, lst, C.collect(lc, lst, None)[0])
    assert E.row_sizes(lc, items[0]) == (110, () if scrolls else ((3, 260, 10),))


# -- rows like none recorded, over a plate ------------------------------------------------

def test_a_new_row_over_a_bare_recorded_row_of_another_kind_keeps_the_plate():
    """A list of row kinds (a unit header, 242 high, then a lesson button, 375): a row
    sharing no text with any recorded row, over the recorded textless row, is shown on
    the plate as recorded where the sprite (a header with its texts wiped) is of another
    length; the sprite stays for a row of its own length, or where a recorded row shares
    a text (it is cut from that)."""
    from phoneworld.runtime.compose_rows import _bare_row
    from phoneworld.runtime.look import Item, ListLook

    header = Item((0, 315, 1080, 557), ("Unit 1", "Use basic phrases"))
    button = Item((0, 730, 1080, 974), ())
    lst = ListLook((0, 315, 1080, 2048), "#ffffff", (header, button), sprite="s.webp",
                   sprite_size=(1080, 242))
    assert _bare_row(lst, (0, 599, 1080, 974), 1, ("START",)) == button
    assert _bare_row(lst, (0, 732, 1080, 974), 1, ("START",)) is None  # a header's length
    assert _bare_row(lst, (0, 599, 1080, 974), 1, ("Unit 1",)) is None  # cut from it
    assert _bare_row(lst, (0, 599, 1080, 700), 1, ("START",)) is None  # not within
    assert _bare_row(replace(lst, sprite=None), (0, 599, 1080, 974), 1, ("x",)) == button


def test_a_list_showing_its_recorded_rows_a_little_off_is_shown_as_recorded():
    """Tabs of their own widths (Read 50, Feedback 79, View history 95) laid out at the
    template's pitch (79): the same rows in the same order, a row's length off at most,
    are the recorded list (the plate shows it, the last tab not cut by the list's end);
    rows in another order, another count, or farther off are not."""
    from phoneworld.runtime.compose_rows import _as_recorded
    from phoneworld.runtime.look import Item, ListLook

    items = (Item((622, 134, 672, 178), ("Read", "Read")),
             Item((672, 134, 751, 178), ("Feedback", "Feedback")),
             Item((751, 134, 846, 178), ("View history", "View history")))
    lst = ListLook((622, 134, 846, 178), "#fafcfd", items)
    sigs = [("Read",), ("Feedback",), ("View history",)]
    laid = [(622, 134, 701, 178), (701, 134, 780, 178), (780, 134, 875, 178)]
    assert _as_recorded(lst, sigs, laid, 0)
    assert not _as_recorded(lst, sigs[::-1], laid, 0)
    assert not _as_recorded(lst, sigs[:2], laid[:2], 0)
    assert not _as_recorded(lst, [("Read",), ("Talk",), ("View history",)], laid, 0)
    far = [(r[0] + 200, r[1], r[2] + 200, r[3]) for r in laid]
    assert not _as_recorded(lst, sigs, far, 0)
