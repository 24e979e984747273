"""The HTML a screen renders to: on a recorded look, only what state changed is drawn; with no
look, a Material-like renderer by widget class (fitted text, icons, no doubled labels)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from phoneworld.runtime import Machine
from phoneworld.runtime.compose import compose
from phoneworld.runtime.compose_rows import subtree
from phoneworld.runtime.look import Item, ListLook, Look, Mark, ScreenLook, Style, signature
from phoneworld.runtime.page import dimmed
from phoneworld.spec.ast import AppSpec, Const, Screen, View
from tests.test_runtime import shop_spec, tap

PLATE = "0" * 16 + ".webp"
SPRITE = "1" * 16 + ".webp"
STYLE = Style(size=40.0, color="#123456", weight=400)


def recorded_look(m: Machine) -> ScreenLook:
    """A look recorded from what `m` shows now (as if its screen had been photographed)."""
    boxes = m.outcome().rendering.boxes
    in_lists, lists, marks = set(), [], []
    for i, b in enumerate(boxes):
        if b.list_key is not None and i not in in_lists:
            sub = subtree(boxes, i)
            in_lists.update(sub)
            items = []
            for r in b.children:
                rs = subtree(boxes, r)
                rx, ry = boxes[r].bounds[:2]
                items.append(Item(boxes[r].bounds, signature(
                    (boxes[j].text, boxes[j].checkable, boxes[j].checked) for j in rs),
                    marks=tuple(_mark(boxes[j], rx, ry) for j in rs if boxes[j].text)))
            x, y = boxes[b.children[0]].bounds[:2] if b.children else (0, 0)
            row = boxes[b.children[0]] if b.children else b
            sm = tuple(Mark(bounds=(c.bounds[0] - x, c.bounds[1] - y, c.bounds[2] - x,
                                    c.bounds[3] - y), text=c.text, style=STYLE)
                       for c in (boxes[j] for j in subtree(boxes, b.children[0]))
                       if c.text) if b.children else ()
            lists.append(ListLook(bounds=b.bounds, bg="#fafafa", items=tuple(items),
                                  sprite=SPRITE, sprite_marks=sm,
                                  sprite_size=(row.bounds[2] - row.bounds[0],
                                               row.bounds[3] - row.bounds[1])))
    for i, b in enumerate(boxes):
        if i not in in_lists and (b.text or b.checkable or b.editable):
            marks.append(_mark(b))
    return ScreenLook(plate=PLATE, marks=tuple(marks), lists=tuple(lists))


def _mark(b, x: int = 0, y: int = 0) -> Mark:
    """What a recording shows of box `b` (bounds relative to (x, y))."""
    x1, y1, x2, y2 = b.bounds
    return Mark(bounds=(x1 - x, y1 - y, x2 - x, y2 - y), text=b.text,
                checked=b.checked if b.checkable else None,
                ink=(x1 - x + 2, y1 - y + 2, x2 - x - 2, y2 - y - 2), bg="#fefefe",
                style=STYLE)


def with_look(spec: AppSpec, screens: dict[str, ScreenLook]) -> AppSpec:
    return dataclasses.replace(spec, look=Look(screens=screens))


def looked(screen: str, prepare=None) -> Machine:
    """A shop machine whose `screen` has a look recorded after `prepare(machine)`."""
    m = Machine(shop_spec())
    m.reset()
    if prepare:
        prepare(m)
    m.jump(screen)
    look = recorded_look(m)
    m2 = Machine(with_look(shop_spec(), {screen: look}))
    m2.reset()
    if prepare:
        prepare(m2)
    m2.jump(screen)
    return m2


def _typed_into_home_field(mark):
    """(composition, the typed text's div) after "oat milk" is typed into the shop's home
    search field, whose recorded mark `mark(old)` gives."""
    m = Machine(shop_spec())
    m.reset()
    m.jump("home")
    look = recorded_look(m)
    marks = tuple(mark(mk) if mk.bounds == (40, 200, 1040, 320) else mk for mk in look.marks)
    m2 = Machine(with_look(shop_spec(), {"home": dataclasses.replace(look, marks=marks)}))
    m2.reset()
    m2.jump("home")
    m2.step({"action_type": "input_text", "text": "oat milk", "index": 3})
    c, _ = _composition(m2)
    return c, next(d for d in m2.observe("html").split("<div") if "oat milk</span>" in d)


def _composition(m: Machine):
    r = m.outcome().rendering
    return compose(r.look, r.boxes, (r.width, r.height)), r


def test_the_recorded_state_draws_nothing_over_its_plate():
    m = looked("home")
    c, r = _composition(m)
    assert c.paints == [] and c.styles == {}
    page = m.observe("html")
    assert f'<img class="plate" src="assets/{PLATE}"' in page
    assert "<span" not in page.split("</style>")[1]  # every text is in the plate
    assert 'aria-label="Search products"' in page  # still in the page's words


def test_typed_text_is_drawn_in_the_recorded_style_over_a_wipe():
    m = looked("home")
    m.step({"action_type": "input_text", "text": "oat <b>milk</b>", "index": 3})
    c, r = _composition(m)
    (i,) = c.styles
    # The recorded size; the colour of typed text (the recording showed the hint's).
    assert r.boxes[i].text == "oat <b>milk</b>"
    assert c.styles[i] == dataclasses.replace(STYLE, color="#202124")
    (wipe,) = c.paints
    assert wipe.color == "#fefefe" and wipe.rect == (42, 202, 1038, 318)
    page = m.observe("html")
    assert "oat &lt;b&gt;milk&lt;/b&gt;</span>" in page and "color:#202124" in page


def test_a_flipped_switch_is_redrawn_and_the_recorded_one_wiped():
    m = looked("settings")
    tap(m, "Notifications")
    c, r = _composition(m)
    (i,) = c.styles
    assert r.boxes[i].cls.endswith("Switch") and not r.boxes[i].checked
    assert len(c.paints) == 1 and c.paints[0].color
    assert 'class="ind track"' in m.observe("html")  # off: no "on"


def _add(m: Machine, k: int) -> None:
    m.jump("detail", m.row_ids("product")[k])
    tap(m, "Add to cart")


def _fill_cart(m: Machine) -> None:
    for k in range(3):
        _add(m, k)


def test_a_removed_row_is_wiped_and_the_rows_below_move_up_cut_from_the_plate():
    m = looked("cart", _fill_cart)
    c, r = _composition(m)
    assert c.paints == []
    first = [e for e in m.observe() if e["class"].endswith("LinearLayout")][0]
    m.step({"action_type": "long_press", "index": first["index"]})
    c, r = _composition(m)
    rows = [p for p in c.paints if p.image]
    wipes = [p for p in c.paints if p.color]
    # Three recorded rows, two left: the two moved up are cut from where they were
    # recorded (one row higher up the plate), and all three places wiped first.
    assert len(rows) == 2 and all(p.image == PLATE for p in rows)
    assert [p.origin[1] for p in rows] == [-200, -200]
    assert len(wipes) == 3 and c.paints.index(wipes[-1]) < c.paints.index(rows[0])
    assert c.styles == {}  # their texts are in the cut


def test_a_row_like_a_recorded_one_is_cut_from_it_with_its_new_text_drawn():
    m = looked("cart", _fill_cart)
    _add(m, 5)  # product 6, quantity 1: shares the "1" of the recorded rows
    m.jump("cart")
    c, r = _composition(m)
    (cut,) = [p for p in c.paints if p.image == PLATE]
    assert cut.rect[1] == 300 + 3 * 200 and cut.origin == (0, 600)  # from the first row
    (fix,) = [p for p in c.paints if p.color and p.rect[1] >= 900]
    assert fix.rect == (42, 922, 598, 1078)  # the recorded product id, wiped
    assert {r.boxes[i].text for i in c.styles} == {"6"}


@pytest.mark.parametrize("dy,kept", [(6, True), (120, False)])
def test_a_recorded_text_elsewhere_in_the_row_is_kept_only_under_its_box(dy, kept):
    """A row cut from a recorded one whose "1" the recording showed elsewhere in the row:
    its glyphs stand for the box where the box lies over them (a few pixels off), else
    they are wiped and the text drawn at the box (never two texts, one where none is)."""
    m = looked("cart", _fill_cart)
    sl = m.spec.look.screens["cart"]
    (lst,) = sl.lists

    def moved(mk: Mark) -> Mark:
        if mk.text != "1":
            return mk
        b, k = mk.bounds, mk.ink
        return dataclasses.replace(mk, bounds=(b[0], b[1] + dy, b[2], b[3] + dy),
                                   ink=(k[0], k[1] + dy, k[2], k[3] + dy))

    items = tuple(dataclasses.replace(it, marks=tuple(moved(mk) for mk in it.marks))
                  for it in lst.items)
    look = dataclasses.replace(sl, lists=(dataclasses.replace(lst, items=items),))
    m2 = Machine(with_look(shop_spec(), {"cart": look}))
    m2.reset()
    _fill_cart(m2)
    _add(m2, 5)  # product 6, quantity 1: cut from a recorded row that shows a "1"
    m2.jump("cart")
    c, r = _composition(m2)
    ones = [i for i, b in enumerate(r.boxes) if b.text == "1" and b.bounds[1] >= 900]
    assert ones and all((i in c.quiet) == kept for i in ones)
    if not kept:
        for mk in items[0].marks:  # the recorded glyphs where the row has no "1": wiped
            assert any(p.color and p.rect[:2] == (mk.ink[0], 900 + mk.ink[1])
                       for p in c.paints)


def test_a_row_sharing_nothing_recorded_is_drawn_on_the_sprite():
    m = looked("cart", _fill_cart)
    _add(m, 6)
    for _ in range(3):
        tap(m, "Add to cart")  # product 7, quantity 4: no text of rows (1, 1) .. (3, 1)
    m.jump("cart")
    c, r = _composition(m)
    (sprite,) = [p for p in c.paints if p.image == SPRITE]
    assert sprite.rect[1] == 300 + 3 * 200
    texts = {r.boxes[i].text: s for i, s in c.styles.items()}
    assert set(texts) == {"7", "4"} and all(s == STYLE for s in texts.values())


def test_a_row_of_another_kind_than_the_sprite_is_cut_from_a_recorded_row_of_its_kind():
    """A list of group rows (one text; the sprite is one of them) and child rows (a name
    over a package, indented): a child row that shares no text with any recorded row,
    or shares its name with a group row where that row shows it elsewhere, is cut from a
    recorded child (activitylauncher's expanded group: not a group's icon and sizes); a
    group row still goes by its texts and the sprite, as before."""
    from phoneworld.runtime.compose_rows import _best_item, _kind

    name, pkg = Style(size=53.0), Style(size=41.7)
    group = Mark((240, 52, 924, 140), "Activity Launcher", style=STYLE)
    items = (Item((0, 240, 1080, 432), ("Activity Launcher",), (group,)),
             Item((0, 435, 1080, 627), (".Shortcut", "de.x.Shortcut"), (
                 Mark((306, 6, 703, 79), ".Shortcut", style=name),
                 Mark((306, 79, 876, 185), "de.x.Shortcut", style=pkg))),
             Item((0, 630, 1080, 822), ("AndroFish",), (
                 Mark((240, 52, 924, 140), "AndroFish", style=STYLE),)))
    lst = ListLook(bounds=(0, 240, 1080, 1776), bg="#fafafa", items=items, sprite=SPRITE,
                   sprite_size=(1080, 192), sprite_marks=(group,))
    child = (((306, 6, 703, 79), ".Help"), ((306, 79, 876, 185), "de.fish.Help"))
    assert _kind(lst, child, 192) == child
    assert _best_item(lst, (".Help", "de.fish.Help"), 192, child) is items[1]
    named = (((306, 6, 703, 79), "AndroFish"), ((306, 79, 876, 185), "de.fish.Main"))
    assert _best_item(lst, ("AndroFish", "de.fish.Main"), 192, _kind(lst, named, 192)) \
        is items[1]
    # A group row is of the sprite's kind: by its texts alone, as before.
    row = (((240, 52, 924, 140), "Downloads"),)
    assert _kind(lst, row, 192) == ()
    assert _best_item(lst, ("Downloads",), 192, ()) is None  # (the sprite draws it)
    fish = (((240, 52, 924, 140), "AndroFish"),)
    assert _best_item(lst, ("AndroFish",), 192, _kind(lst, fish, 192)) is items[2]


def test_a_look_is_never_shared_with_an_equal_spec_without_one():
    looked_m = looked("home")
    plain = Machine(shop_spec())
    plain.reset()
    assert PLATE in looked_m.observe("html") and PLATE not in plain.observe("html")


# -- Material-like, no recording ---------------------------------------------------------------

def _page(*views: View, size=(1080, 2400)) -> str:
    root = View(cls="android.widget.FrameLayout", bounds=(0, 63, *size), children=views)
    spec = AppSpec(name="a", package="p", start="s", width=size[0], height=size[1],
                   screens=(Screen("s", "P0", root),))
    m = Machine(spec)
    m.reset()
    return m.observe("html")


def test_a_tab_label_is_drawn_once_and_its_icon_as_an_icon():
    tab = View(cls="android.widget.FrameLayout", bounds=(0, 2127, 270, 2337), desc=Const("Home"),
               flags=("clickable",), children=(
                   View(cls="android.widget.ImageView", bounds=(104, 2163, 167, 2226)),
                   View(cls="android.widget.TextView", bounds=(101, 2248, 170, 2292),
                        text=Const("Home"))))
    page = _page(tab)
    assert page.count(">Home</span>") == 1
    assert '<svg viewBox="0 0 24 24"' in page and "M10 20v-6h4v6h5v-8h3L12 3" in page


def test_an_icon_button_is_an_icon_with_its_description_for_screen_readers():
    page = _page(View(cls="android.widget.ImageButton", bounds=(938, 73, 1064, 199),
                      desc=Const("Navigate up, <script>"), flags=("clickable",)))
    (div,) = re.findall(r'<div class="v ic click"[^>]*>.*?</div>', page)
    assert "<span" not in div and "<svg" in div and "M20 11H7.8" in div  # a back arrow
    assert 'aria-label="Navigate up, &lt;script&gt;"' in div


def test_long_text_is_fitted_to_its_box():
    long = "A very long product description that would never fit on one line " * 3
    page = _page(View(cls="android.widget.TextView", bounds=(40, 300, 1040, 360),
                      text=Const(long)),
                 View(cls="android.widget.TextView", bounds=(40, 400, 1040, 800),
                      text=Const(long)))
    one, many = re.findall(r'class="v x (one|many)"', page)
    sizes = [float(s) for s in re.findall(r"font-size:([\d.]+)px", page)]
    assert one == "one" and many == "many"
    assert sizes[0] < 16 * 0.72 and sizes[1] <= 16


def test_a_one_line_field_keeps_its_size_and_shows_the_end_of_a_long_text():
    """As a field scrolled to its cursor: one line, the end visible (the span is laid
    right to left, its text isolated left to right), never wrapped or shrunk; a field
    three lines high or more wraps its text as before."""
    long = "A very long shopping list entry that runs far past the field's end"
    page = _page(View(cls="android.widget.EditText", bounds=(40, 300, 1040, 420),
                      text=Const(long), flags=("editable",)),
                 View(cls="android.widget.EditText", bounds=(40, 500, 1040, 900),
                      text=Const(long), flags=("editable",)))
    one, many = re.findall(r'class="v x (one end|many) edit"', page)
    assert one == "one end" and many == "many"
    sizes = [float(s) for s in re.findall(r"font-size:([\d.]+)px", page)]
    assert sizes[0] == 16.0
    css = page.split("</style>")[0]
    assert ".x.end > span { direction: rtl; text-align: left;" in css
    assert '.x.end > span::before, .x.end > span::after { content: "\\200e"; }' in css


def test_a_boxed_field_with_a_label_on_its_outline_is_one_line():
    """A field 3.2 lines of its text high (onelist's "Folder name", 161 of 2400 rows:
    a Material outlined field, its padding and label take a line) keeps a long text on
    one line; one five lines high (a feedback form's body) wraps it."""
    long = "Holiday photos from the summer trip to the seaside, and the walk home after"
    page = _page(View(cls="android.widget.EditText", bounds=(147, 832, 933, 993),
                      text=Const(long), flags=("editable",)),
                 View(cls="android.widget.EditText", bounds=(40, 1200, 1040, 1475),
                      text=Const(long), flags=("editable",)))
    assert re.findall(r'class="v x (one end|many) edit"', page) == ["one end", "many"]


@pytest.mark.parametrize("cls,css", [("Switch", "ind track"), ("CheckBox", "ind box"),
                                     ("RadioButton", "ind radio")])
def test_check_widgets_draw_their_state(cls, css):
    v = View(cls=f"android.widget.{cls}", bounds=(40, 300, 1040, 420), text=Const("Wi-Fi"),
             checked=Const(True), flags=("checkable", "clickable"))
    page = _page(v)
    assert f'class="{css} on"' in page and ">Wi-Fi</span>" in page


def test_status_and_navigation_bars_fill_the_strips_the_layout_leaves():
    page = _page(View(cls="android.widget.TextView", bounds=(40, 300, 1040, 360),
                      text=Const("x")), size=(1080, 2400))
    assert 'top:0.0px;width:412.0px;height:24.0px;background:#f1f3f4' in page
    assert "<span>12:00</span>" in page and page.count('class="p nav"') == 0


@pytest.mark.parametrize("labels,icon", [
    (("Navigate up",), "back"), (("com.x:id/action_search",), "search"),
    (("Cart, 2 new notifications",), "cart"), (("", "com.x:id/navigation_home"), "home"),
    (("Remove Oat milk",), "delete"), (("support",), "dot"), (("更多",), "more"),
    (("Show password",), "dot"), (("", "", "Account", "x"), "person")])
def test_icons_are_picked_by_whole_words_of_descriptions_and_ids(labels, icon):
    from phoneworld.runtime.icons import icon_for

    assert icon_for(*labels) == icon


def test_a_screen_showing_another_entity_covers_the_recorded_picture():
    import dataclasses as dc

    from phoneworld.runtime.compose import PICTURE

    m = Machine(shop_spec())
    m.reset()
    m.jump("detail", m.row_ids("product")[0])  # recorded for Oat milk
    look = dc.replace(recorded_look(m), varying=((40, 700, 600, 900),))
    m2 = Machine(with_look(shop_spec(), {"detail": look}))
    m2.reset()
    m2.jump("detail", m2.row_ids("product")[0])
    c, _ = _composition(m2)
    assert c.paints == []  # the entity recorded: its picture holds
    m2.jump("detail", m2.row_ids("product")[1])  # another one
    c, _ = _composition(m2)
    assert any(p.rect == (40, 700, 600, 900) and p.color == PICTURE for p in c.paints)


def test_a_screen_opened_without_its_parameter_keeps_the_plates_title():
    """A title bound to the parameter is not shown without one (a button that opens the
    screen passes none): the plate's title stays, not an empty bar; with a parameter of
    another row it is wiped and drawn anew."""
    m = Machine(shop_spec())
    m.reset()
    first, other = m.state.rowids("product")[:2]
    m.jump("detail", first)
    look = recorded_look(m)
    title = next(mk for mk in look.marks if mk.bounds == (40, 200, 1040, 320))
    m2 = Machine(with_look(shop_spec(), {"detail": look}))
    m2.reset()
    m2.jump("detail")
    c, r = _composition(m2)
    assert r.look.unbound and not any(b.bounds == title.bounds for b in r.boxes)
    assert title.ink not in [p.rect for p in c.paints]
    m2.jump("detail", other)
    c, r = _composition(m2)
    assert not r.look.unbound and title.ink in [p.rect for p in c.paints]
    assert any(r.boxes[i].bounds == title.bounds for i in c.styles)


@pytest.mark.parametrize("ink_top, at_top", [(215, True), (245, False)])
def test_typed_text_goes_where_a_hint_recorded_at_the_top_of_a_tall_field_was(ink_top,
                                                                               at_top):
    """A field much taller than its recorded hint, the hint at its top (a multi-line
    field): typed text is drawn from there down, not in the middle; a hint recorded in
    the middle keeps typed text centred. (qqmusic's feedback field's hint starts 15
    pixels down; one cut by the field's top edge is a label on its outline, below.)"""
    c, div = _typed_into_home_field(lambda mk: dataclasses.replace(
        mk, ink=(42, ink_top, 600, ink_top + 30)))
    (i,) = c.styles
    assert (c.styles[i].top == ink_top - 200) if at_top else c.styles[i].top == -1.0
    assert ("align-items:flex-start;padding-top:" in div) == at_top


def test_a_text_the_recording_holds_twice_is_kept_where_the_mock_shows_it():
    """A recording may hold a view twice at the same place (a page and its cross-fading
    copy: qqmusic's 我的 title): the mock's box showing that text keeps both marks, and
    neither is wiped (before, the second was, and the title vanished)."""
    m = Machine(shop_spec())
    m.reset()
    m.jump("home")
    look = recorded_look(m)
    copies = tuple(dataclasses.replace(mk) for mk in look.marks)
    twice = dataclasses.replace(look, marks=look.marks + copies)
    m2 = Machine(with_look(shop_spec(), {"home": twice}))
    m2.reset()
    m2.jump("home")
    c, _ = _composition(m2)
    assert c.paints == [] and c.styles == {}


def _cart_with(change) -> Machine:
    """A cart of three rows whose recorded look's list is `change(list look)`."""
    m = looked("cart", _fill_cart)
    sl = m.spec.look.screens["cart"]
    (lst,) = sl.lists
    m2 = Machine(with_look(shop_spec(), {"cart": dataclasses.replace(
        sl, lists=(change(lst),))}))
    m2.reset()
    _fill_cart(m2)
    m2.jump("cart")
    return m2


def test_a_row_recorded_inset_from_the_lists_sides_is_the_plates_where_it_lies():
    """The mock's row spans its template (every row type recorded); a row type recorded
    narrower, at the same place along the list and showing the same, is the plate's as it
    lies: nothing painted (before, it was cut and moved to the row's edge: qqmusic's
    我的 page had its icon row shifted 55 px left)."""
    def inset(lst: ListLook) -> ListLook:
        def one(it: Item) -> Item:
            x1, y1, x2, y2 = it.bounds
            marks = tuple(dataclasses.replace(
                mk, bounds=(mk.bounds[0] - 55, mk.bounds[1], mk.bounds[2] - 55, mk.bounds[3]),
                ink=(mk.ink[0] - 55, mk.ink[1], mk.ink[2] - 55, mk.ink[3])) for mk in it.marks)
            return dataclasses.replace(it, bounds=(x1 + 55, y1, x2 - 55, y2), marks=marks)
        return dataclasses.replace(lst, items=tuple(one(it) for it in lst.items))

    c, _ = _composition(_cart_with(inset))
    assert c.paints == [] and c.styles == {}


def test_the_edge_of_a_row_cut_short_by_the_lists_end_is_not_wiped():
    """A recorded row the list's end cut short, showing no text, that no row of the
    mock lies over, stays as recorded: a wipe there cut into what is drawn over the
    list's end (qqmusic's player bar, the album page's seventh song)."""
    def peek(lst: ListLook) -> ListLook:
        return dataclasses.replace(lst, items=lst.items + (Item((0, 2370, 1080, 2400), ()),))

    c, _ = _composition(_cart_with(peek))
    assert c.paints == []
    # A whole row recorded there (as tall as a row) is still wiped.
    def whole(lst: ListLook) -> ListLook:
        return dataclasses.replace(lst, items=lst.items + (Item((0, 2200, 1080, 2400), ()),))

    c, _ = _composition(_cart_with(whole))
    assert [p.rect for p in c.paints] == [(0, 2200, 1080, 2400)]


def test_typed_text_in_a_recorded_field_stops_short_of_its_right_edge():
    """A field drawn in the recorded style keeps room on the right of its text (its
    padding), as on the left: long typed text does not run to the box's edge."""
    m = looked("home")
    m.step({"action_type": "input_text", "text": "oat milk " * 12, "index": 3})
    div = next(d for d in m.observe("html").split("<div") if "oat milk oat" in d)
    pad = re.search(r"padding-right:([\d.]+)px", div)
    assert pad is not None and float(pad.group(1)) >= 7.5  # 2% of the field, at least


def test_a_label_floating_on_an_outlined_fields_edge_stays_and_typed_text_goes_inside():
    """Material's outlined field: its label floats on the outline, cut by the field's
    top edge (onelist's "Folder name"). Typed text keeps the label (no wipe) and is
    drawn inside the box, centred, at the body size from where the label starts; before,
    it went where the label was, at the label's size, over a half-wiped label."""
    c, div = _typed_into_home_field(lambda mk: dataclasses.replace(
        mk, ink=(80, 204, 400, 220), style=dataclasses.replace(STYLE, size=14.0, indent=38.0)))
    (i,) = c.styles
    assert c.paints == []  # the label stays
    assert c.styles[i].size == 0 and c.styles[i].top == -1.0 and c.styles[i].indent == 38.0
    assert "font-size:16.0px" in div and "padding-top" not in div
    assert "padding-left:14.5px" in div  # 38 app pixels


def _cart_under_a_panel(width: int) -> Machine:
    """The shop's cart with a second list of the cart drawn after its own, over its
    left `width` pixels (a drawer, a sheet), recorded with three rows; then a row
    removed (both lists change)."""
    spec = shop_spec()
    cart = next(s for s in spec.screens if s.name == "cart")
    lines = cart.root.children[1]
    panel = dataclasses.replace(lines, name="panel", bounds=(0, 300, width, 2400),
                                children=(dataclasses.replace(
                                    lines.children[0], name="panel_row",
                                    bounds=(0, 300, width, 500)),))
    root = dataclasses.replace(cart.root, children=(*cart.root.children, panel))
    spec = dataclasses.replace(spec, screens=tuple(
        dataclasses.replace(s, root=root) if s.name == "cart" else s for s in spec.screens))
    m = Machine(spec)
    m.reset()
    _fill_cart(m)
    m.jump("cart")
    m2 = Machine(with_look(spec, {"cart": recorded_look(m)}))
    m2.reset()
    _fill_cart(m2)
    m2.jump("cart")
    first = [e for e in m2.observe() if e["class"].endswith("LinearLayout")][0]
    m2.step({"action_type": "long_press", "index": first["index"]})
    return m2


@pytest.mark.parametrize("width", [800, 300])
def test_a_list_under_a_list_drawn_after_it_is_not_painted_over_it(width):
    """A list drawn after another over it is a panel over it (onelist's drawer over the
    files grid, qqmusic's album page over 我的): what changed in the list under it is
    not painted over the panel (before, its rows were cut and wiped across the drawer);
    under a panel covering most of it, nothing of it is painted at all."""
    c, _ = _composition(_cart_under_a_panel(width))
    assert c.paints  # the panel's own rows moved up
    for p in c.paints:
        x1, _, x2, _ = p.rect
        assert x2 <= width or x1 >= width  # inside the panel or beside it, never across
    beside = [p for p in c.paints if p.rect[0] >= width]
    assert bool(beside) == (width < 540)


def _meets(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_text_recorded_by_a_row_and_its_label_is_not_wiped_where_the_mock_shows_one():
    """A row's text recorded twice, by the row (its whole width) and by its label (a web
    page's link and the text inside it: wikipedia's language links and sidebar), where the
    mock's template gives it to the label alone: a row cut from that recording keeps the
    glyphs. Before, the row's copy, shown by no box, was wiped, and with it the label's
    glyphs ("English" cut to "E", the sidebar's rows left blank)."""
    def doubled(lst: ListLook) -> ListLook:
        items = []
        for it in lst.items:
            name = it.marks[0]
            whole = dataclasses.replace(name, bounds=(0, 0, 1080, 200),
                                        ink=(name.ink[0], name.ink[1], 1040, name.ink[3]))
            items.append(dataclasses.replace(it, texts=(name.text, *it.texts),
                                             marks=(whole, *it.marks)))
        return dataclasses.replace(lst, items=tuple(items))

    m = _cart_with(doubled)
    first = [e for e in m.observe() if e["class"].endswith("LinearLayout")][0]
    m.step({"action_type": "long_press", "index": first["index"]})  # rows 2, 3 move up
    c, r = _composition(m)
    cuts = [p for p in c.paints if p.image == PLATE]
    assert len(cuts) == 2 and c.styles == {}  # both rows cut from their recordings
    for y in (300, 500):  # their names' glyphs: no wipe over them
        label = (42, y + 22, 598, y + 178)
        assert not any(p.color and _meets(p.rect, label) for p in c.paints
                       if c.paints.index(p) > c.paints.index(cuts[0]))


def test_a_lists_paints_lie_under_a_text_drawn_after_the_list():
    """A view drawn after a list lies over it (a page's title over a page-long list): where
    the list's rows move, their wipes and cuts leave the text the plate keeps there."""
    from tests.shop import text

    base = shop_spec()

    def labelled(spec: AppSpec) -> AppSpec:
        screens = []
        for s in spec.screens:
            if s.name == "cart":
                root = s.root
                label = text("TextView", (700, 520, 1040, 560), "Over the list", name="over")
                s = dataclasses.replace(s, root=dataclasses.replace(
                    root, children=(*root.children, label)))
            screens.append(s)
        return dataclasses.replace(spec, screens=tuple(screens))

    m = Machine(labelled(base))
    m.reset()
    _fill_cart(m)
    m.jump("cart")
    look = recorded_look(m)
    m2 = Machine(dataclasses.replace(labelled(base), look=Look(screens={"cart": look})))
    m2.reset()
    _fill_cart(m2)
    m2.jump("cart")
    first = [e for e in m2.observe() if e["class"].endswith("LinearLayout")][0]
    m2.step({"action_type": "long_press", "index": first["index"]})  # rows 2, 3 move up
    c, r = _composition(m2)
    (i,) = [i for i, b in enumerate(r.boxes) if b.text == "Over the list"]
    assert i in c.quiet
    assert [p for p in c.paints if p.image]  # rows were cut and wiped ...
    assert not any(_meets(p.rect, r.boxes[i].bounds) for p in c.paints)  # ... not over it


def test_a_text_drawn_anew_is_cut_where_a_picture_drawn_after_it_covers_it():
    """Android draws a later view over an earlier one: a player bar's cover (and the
    disc beside it), drawn after the song's title, hide its start. The title drawn anew
    over the plate is cut at the pictures' edge, not laid over them; a picture that
    covers all of it (the bar's frame) or lies inside it, a view with children or a
    text, and a picture drawn before it cut nothing."""
    from types import SimpleNamespace

    from phoneworld.runtime.page import _under_pictures

    def box(bounds, text="", children=()):
        return SimpleNamespace(bounds=bounds, text=text, children=list(children))

    title = (72, 1895, 517, 1944)
    boxes = [box((0, 1890, 100, 1950)),  # drawn before the title: under it
             box(title, "A song - its singer"),
             box((44, 1844, 182, 1982)),  # the cover
             box((44, 1858, 1036, 1982)),  # the bar's frame: covers all of the title
             box((182, 1844, 209, 1982)),  # the disc's edge
             box((300, 1900, 320, 1940)),  # inside it (a badge in the text)
             box((400, 1800, 600, 1990), children=[7]),  # a container
             box((400, 1800, 600, 1990), "a text")]
    assert _under_pictures(boxes, 1, title) == (209, 1895, 517, 1944)
    assert _under_pictures(boxes[:2], 1, title) == title


def test_a_switch_flipped_under_a_dialog_is_drawn_in_its_new_state_dimmed():
    """A Material switch flipped on a screen with a look, then a dialog (a look with a
    window and a scrim) opened over it: the page draws the switch, where the window
    leaves it, in its new state, dimmed by the scrim (its label's colour, its
    indicator's pixels); as recorded, the plate shows it and nothing is drawn."""
    m = Machine(shop_spec())
    m.reset()
    m.jump("settings")
    settings = recorded_look(m)
    (switch,) = [b for b in m.outcome().rendering.boxes if b.checkable]
    y = switch.bounds[3] + 100
    dialog = ScreenLook(plate=SPRITE, window=(40, y, 1040, y + 600), scrim=0.6)
    spec = with_look(shop_spec(), {"settings": settings, "cart": dialog})

    def opened(flip: bool) -> str:
        m = Machine(spec)
        m.reset()
        m.jump("settings")
        if flip:
            tap(m, "Notifications")
        m.jump("cart", under=["settings"])
        return m.observe("html")

    assert "ind track" not in opened(False)
    page = opened(True)
    on = not switch.checked
    (ind,) = re.findall(r'<div class="ind track[^"]*" style="[^"]*"', page)
    assert ("track on" in ind) == on and ind.endswith(';filter:brightness(0.4000)"')
    # (black at 0.6: 153 of 255; the indicator's pixels times 102/255)
    assert f'color:{dimmed(STYLE.color, 153)}' in page


def test_a_row_this_plate_never_showed_is_cut_from_another_plate_of_the_list():
    """(#22) A row recorded on another screen's plate in the same list (the same
    bounds, rows of its size) is cut from there, its own pictures and all, rather than
    from a row of other texts (activitylauncher's apps pushed below an expanded group
    showed the first group's icon); a row of a signature this plate shows stays its own,
    and a dialog's plate gives none (it dims the list)."""
    from phoneworld.runtime.look import rows_elsewhere

    other = "2" * 16 + ".webp"

    def recorded(prepare) -> ScreenLook:
        m = Machine(shop_spec())
        m.reset()
        prepare(m)
        m.jump("cart")
        return recorded_look(m)

    here = recorded(_fill_cart)
    there = dataclasses.replace(recorded(lambda m: [_add(m, k) for k in (3, 4)]), plate=other)
    screens = rows_elsewhere({"cart": here, "home": there})
    (lst,) = screens["cart"].lists
    assert [it.texts for it, _ in lst.elsewhere] and all(p == other for _, p in lst.elsewhere)
    assert not {it.texts for it, _ in lst.elsewhere} & {it.texts for it in lst.items}
    m = Machine(with_look(shop_spec(), screens))
    m.reset()
    _fill_cart(m)
    _add(m, 3)
    m.jump("cart")
    c, r = _composition(m)
    cut = [p for p in c.paints if p.image == other]
    assert len(cut) == 1 and cut[0].rect[1] == 300 + 3 * 200
    dialog = dataclasses.replace(there, window=(0, 0, 1080, 1000), scrim=0.5)
    assert rows_elsewhere({"cart": here, "home": dialog})["cart"].lists[0].elsewhere == ()


def test_a_row_the_lists_end_cuts_short_is_cut_from_a_whole_one_recorded_elsewhere():
    """(#22) activitylauncher's "Downloads", pushed to the list's end by an expanded
    group and cut short there, was drawn on the sprite (another app's icon and an open
    group's chevron): a whole row recorded on another plate gives its part that shows;
    a row of another size inside the list still needs one of its own size."""
    from phoneworld.runtime.compose_rows import _elsewhere
    from phoneworld.runtime.look import Item, ListLook

    whole = Item((0, 900, 1080, 1092), ("Downloads",))
    lst = ListLook(bounds=(0, 200, 1080, 1776), bg="#fafafa",
                   elsewhere=((whole, "other.webp"),))
    assert _elsewhere(lst, ("Downloads",), (0, 1655, 1080, 1776)) == (whole, "other.webp")
    assert _elsewhere(lst, ("Downloads",), (0, 200, 1080, 300)) == (whole, "other.webp")
    assert _elsewhere(lst, ("Downloads",), (0, 1000, 1080, 1121)) is None  # not cut
    assert _elsewhere(lst, ("Downloads",), (0, 1500, 1080, 1692)) == (whole, "other.webp")
    assert _elsewhere(lst, ("DroidBot",), (0, 1655, 1080, 1776)) is None
