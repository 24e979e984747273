"""The runtime machine on a small hand-built shop: navigation, lists, effects, reset, views."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.errors import InvalidAction, SpecError
from phoneworld.runtime import Machine
from phoneworld.runtime.expr import ExprError, Scope, compare, evaluate
from phoneworld.runtime.state import State, quote
from phoneworld.spec.ast import (
    AppSpec,
    BinOp,
    BoolOp,
    Call,
    Column,
    Compare,
    Const,
    Effect,
    ListOf,
    Not,
    Screen,
    Table,
    Transition,
    View,
)
from phoneworld.ui.hierarchy import parse_hierarchy
from phoneworld.ui.hits import hit_test
from tests.shop import (
    ACTION,
    INJECTION,
    PRODUCTS,
    SCRIPT,
    TEMPLATE,
    R,
    home_as,
    index_of,
    shop_spec,
    splash_shop_spec,
    tap,
)

# -- navigation and rendering ---------------------------------------------------------------

def test_starts_on_home_with_list_rendered(m: Machine):
    assert m.screen == "home" and m.depth == 1
    texts = [e["text"] for e in m.observe()]
    assert texts[:4] == ["Shop", "", "0", "Search products"]
    # Six whole rows fit (1800 px / 300 px); the seventh would start at the list's bottom.
    names = [e["text"] for e in m.observe() if e["resource_id"] == "com.shop:id/name"]
    assert names == [p[1] for p in PRODUCTS[:6]]


def test_a_row_bound_description_names_its_own_row(m: Machine):
    rows = [e for e in m.observe() if e["resource_id"] == "com.shop:id/row"]
    assert [e["content_desc"] for e in rows[:2]] == ["Open Oat milk", "Open Rye bread"]
    tap(m, "Open Rye bread")
    assert m.screen == "detail" and "Rye bread" in {e["text"] for e in m.observe()}


def test_tap_list_item_opens_detail_with_param_and_back_pops(m: Machine):
    out = tap(m, "Rye bread")
    assert out.screen == "detail" and m.param["name"] == "Rye bread"
    assert out.transition is not None and out.transition.target == "detail"
    assert [e["text"] for e in out.elements][:2] == ["Rye bread", "$2.10"]
    out = m.step({"action_type": "navigate_back"})
    assert out.screen == "home" and m.depth == 1
    # The detail screen's back transition ran its effect before popping.
    assert m.state.flag("last_viewed") == 2


def test_back_key_fires_a_transition_of_a_widget_named_back():
    from dataclasses import replace

    spec = shop_spec()
    up = View(cls="android.widget.ImageButton", bounds=(0, 40, 140, 160), name="back",
              desc=Const("Navigate up"), flags=("clickable",))
    screens = tuple(replace(s, root=replace(s.root, children=(*s.root.children, up)))
                    if s.name == "settings" else s for s in spec.screens)
    spec = replace(spec, screens=screens, transitions=(*spec.transitions, Transition(
        "settings", "back", "tap", "back",
        effects=(Effect("set", "last_viewed", (("last_viewed", Const(99)),)),))))
    m = Machine(spec)
    m.reset()
    tap(m, "Settings")
    out = m.step({"action_type": "navigate_back"})
    assert out.screen == "home" and m.state.flag("last_viewed") == 99


def test_tap_by_coordinates_hits_the_row_not_its_label(m: Machine):
    out = m.step({"action_type": "click", "x": 500, "y": 770})  # second row's name label
    assert out.screen == "detail" and m.param["id"] == 2


def test_tap_on_a_label_changes_nothing(m: Machine):
    before = m.snapshot()
    out = tap(m, "Shop")
    assert out.event.startswith("no-op") and out.transition is None
    assert m.snapshot() == before


def test_back_on_the_last_screen_stays_and_records_leaving(m: Machine):
    out = m.step({"action_type": "navigate_back"})
    assert out.screen == "home" and m.left_app
    m.step({"action_type": "open_app", "app_name": "shop"})
    assert not m.left_app
    m.step({"action_type": "navigate_home"})
    assert m.left_app and m.screen == "home"


def test_scroll_moves_half_a_page_and_stops_at_the_end(m: Machine):
    names = lambda: [e["text"] for e in m.observe()  # noqa: E731
                     if e["resource_id"] == "com.shop:id/name"]
    m.step({"action_type": "scroll", "direction": "down"})
    # Offset 2 (the end: 8 rows, 6 per page); row 0 and 1 are gone, partial rows clipped.
    assert names() == [p[1] for p in PRODUCTS[2:8]]
    out = m.step({"action_type": "scroll", "direction": "down"})
    assert out.event.startswith("no-op")
    m.step({"action_type": "swipe", "direction": "down"})  # finger down = scroll up
    assert names()[0] == "Oat milk"
    m.step({"action_type": "scroll", "direction": "left"})  # wrong axis: nothing
    assert names()[0] == "Oat milk"


def test_list_items_are_clipped_to_the_list(m: Machine):
    m.step({"action_type": "scroll", "direction": "down"})
    # Scrolled by 2 rows of 300 px: row i sits at 400 + 300*(i-2); none leaves the list.
    for e in m.observe():
        if e["resource_id"] == "com.shop:id/row":
            x1, y1, x2, y2 = e["bounds"]
            assert 400 <= y1 < y2 <= 2200


def test_partially_visible_items_are_clipped():
    spec = shop_spec()
    lst = spec.screens[0].root.children[4]
    lst = View(cls=lst.cls, bounds=(0, 400, 1080, 2000), name=lst.name, id=lst.id,
               items=lst.items, children=lst.children)
    root = spec.screens[0].root
    root = View(cls=root.cls, bounds=root.bounds, children=(*root.children[:4], lst))
    m = Machine(_replace_screen(spec, 0, root))
    rows = [e["bounds"] for e in m.reset().elements if e["resource_id"] == "com.shop:id/row"]
    # 1600 px hold five rows and a third of the sixth.
    assert rows[-1] == [0, 1900, 1080, 2000] and len(rows) == 6


def _replace_screen(spec: AppSpec, i: int, root: View) -> AppSpec:
    from dataclasses import replace

    screens = list(spec.screens)
    screens[i] = replace(screens[i], root=root)
    return replace(spec, screens=tuple(screens))


# -- effects, typing, checks ---------------------------------------------------------------------

def test_add_to_cart_inserts_and_the_task_check_sees_it(m: Machine):
    spec = m.spec
    assert not m.check(spec.tasks[0])
    tap(m, "Rye bread")
    tap(m, "Add to cart")
    out = tap(m, "Add to cart")
    assert out.screen == "detail"
    # The first tap inserts; the second finds the row and adds one to its quantity.
    assert m.rows("cart") == [{"product": 2, "qty": 2}]
    assert out.elements[-1]["text"] == "1"  # in-cart count, bound to the table
    assert m.check(spec.tasks[0])
    m.step({"action_type": "navigate_back"})
    assert m.observe()[index_of(m, "Cart")]["text"] == "1"  # the badge counts rows
    tap(m, "Oat milk")
    tap(m, "Add to cart")
    m.step({"action_type": "navigate_back"})
    assert m.observe()[index_of(m, "Cart")]["text"] == "2"


def test_long_press_deletes_and_clear_empties(m: Machine):
    for label in ("Oat milk", "Rye bread"):
        tap(m, label)
        tap(m, "Add to cart")
        m.step({"action_type": "navigate_back"})
    tap(m, "Cart")
    assert [r["product"] for r in m.rows("cart")] == [1, 2]
    row = next(e for e in m.observe() if e["text"] == "1")
    m.step({"action_type": "long_press", "x": 100, "y": row["bounds"][1] + 10})
    assert [r["product"] for r in m.rows("cart")] == [2]
    tap(m, "Clear")
    assert m.rows("cart") == []


def test_a_row_of_another_table_names_the_param_by_its_foreign_key(m: Machine):
    m.step({"action_type": "scroll", "direction": "down"})
    tap(m, "Butter")
    tap(m, "Add to cart")
    m.step({"action_type": "navigate_back"})
    tap(m, "Cart")
    out = tap(m, "8")  # the cart row {"product": 8, "qty": 1}
    assert out.screen == "detail" and m.param["name"] == "Butter"


def test_horizontal_list_with_a_where_on_item():

    chip = View(cls="android.widget.Button", bounds=(0, 400, 300, 500), name="chip",
                text=R("item", "name"), flags=("clickable",))
    strip = View(cls="android.widget.HorizontalScrollView", bounds=(0, 400, 1080, 500),
                 name="chips", children=(chip,),
                 items=ListOf("product", axis="horizontal", pitch=300,
                              where=Compare("!=", R("item", "category"), Const("odd"))))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
                children=(strip,))
    spec = shop_spec()  # home holds the chips alone: what went to and from its widgets goes
    m = Machine(home_as(root, spec))
    chips = lambda: [(e["text"], e["bounds"][0], e["bounds"][2])  # noqa: E731
                     for e in m.observe() if e["clickable"]]
    m.reset()
    # 1080 px hold three 300-px chips and 180 px of a fourth.
    assert chips() == [("Oat milk", 0, 300), ("Rye bread", 300, 600), ("Apples", 600, 900),
                       ("Pears", 900, 1080)]
    m.step({"action_type": "scroll", "direction": "down"})  # wrong axis
    m.step({"action_type": "scroll", "direction": "right", "index": 0})
    assert chips()[0] == ("Rye bread", 0, 300)
    m.step({"action_type": "swipe", "direction": "right"})  # finger right = back left
    assert chips()[0][0] == "Oat milk"


def test_switch_toggles_flag_and_renders_checked(m: Machine):
    tap(m, "Settings")
    sw = m.observe()[index_of(m, "Notifications")]
    assert sw["checkable"] and sw["checked"]
    out = tap(m, "Notifications")
    assert m.state.flag("notifications") is False
    assert out.elements[index_of(m, "Notifications")]["checked"] is False
    tap(m, "Notifications")
    assert m.state.flag("notifications") is True


def test_search_types_then_submits_with_the_query_as_param(m: Machine):
    field = index_of(m, "Search products")
    out = m.step({"action_type": "input_text", "text": "  OAT   milk ", "index": field})
    assert out.elements[field]["text"] == "  OAT   milk "
    assert m.check(Compare("~", R("input", "search"), Const("oat milk")))
    out = m.step({"action_type": "keyboard_enter"})
    assert out.screen == "results" and m.param == "  OAT   milk "
    assert [e["text"] for e in out.elements if e["text"]] == ["Oat milk"]
    tap(m, "Oat milk")
    assert m.screen == "detail" and m.param["id"] == 1
    m.step({"action_type": "navigate_back"})
    m.step({"action_type": "navigate_back"})
    # Home kept its typed text, as an Android activity does.
    assert m.observe()[field]["text"] == "  OAT   milk "


def test_input_text_clears_unless_told_not_to(m: Machine):
    field = index_of(m, "Search products")
    m.step({"action_type": "input_text", "text": "oat", "index": field})
    m.step({"action_type": "input_text", "text": " milk", "clear_text": False})
    assert m.observe()[field]["text"] == "oat milk"
    m.step({"action_type": "input_text", "text": "rye", "index": field})
    assert m.observe()[field]["text"] == "rye"


def test_task_parameters_are_bound_by_check(m: Machine):
    task = m.spec.tasks[1]
    m.step({"action_type": "answer", "text": "$2.10"})
    assert m.check(task, {"p": "rye BREAD"})
    assert not m.check(task, {"p": "Oat milk"})
    with pytest.raises(ValueError, match="needs values for p"):
        m.check(task)


def test_answer_and_status(m: Machine):
    m.step({"action_type": "answer", "text": "It costs $3.49"})
    assert m.answer == "It costs $3.49" and not m.done
    out = m.step({"action_type": "status", "goal_status": "complete"})
    assert out.done and m.done and m.status == "complete"
    with pytest.raises(InvalidAction) as err:
        m.step({"action_type": "wait"})
    assert err.value.field == "action_type"
    m.reset()
    assert not m.done and m.answer is None


# -- reset, snapshot ----------------------------------------------------------------------------

def _walk(m: Machine) -> None:
    tap(m, "Rye bread")
    tap(m, "Add to cart")
    m.step({"action_type": "navigate_back"})
    tap(m, "Settings")
    tap(m, "Notifications")
    m.step({"action_type": "answer", "text": "done"})


def test_reset_restores_the_exact_initial_state(m: Machine):
    initial_db = m.state.dump()
    initial_image = m.state.image()
    initial_xml = m.observe("xml")
    _walk(m)
    assert m.state.dump() != initial_db
    out = m.reset()
    assert m.state.dump() == initial_db
    assert m.state.image() == initial_image
    assert out.xml == initial_xml and m.screen == "home" and m.depth == 1
    assert m.answer is None and not m.left_app


def test_snapshot_restore_round_trip(m: Machine):
    tap(m, "Apples")
    field_snap = m.snapshot()
    xml = m.observe("xml")
    tap(m, "Add to cart")
    m.step({"action_type": "navigate_back"})
    m.step({"action_type": "scroll", "direction": "down"})
    m.restore(field_snap)
    assert m.screen == "detail" and m.param["name"] == "Apples"
    assert m.rows("cart") == [] and m.observe("xml") == xml
    # A snapshot carries over to a fresh machine of the same spec.
    other = Machine(m.spec)
    other.restore(field_snap)
    assert other.observe("xml") == xml and other.snapshot() == field_snap


def test_outcomes_render_the_state_they_describe(m: Machine):
    first = m.step({"action_type": "wait"})
    tap(m, "Rye bread")
    assert first.screen == "home" and first.elements[0]["text"] == "Shop"
    assert m.observe()[0]["text"] == "Rye bread"


def test_reset_is_cheap_and_shared_per_spec():
    spec = shop_spec()
    a, b = Machine(spec), Machine(spec)
    assert a.state.image() == b.state.image()


def test_jump_preview_and_dump_for_replay_and_codegen(m: Machine):
    ids = m.row_ids("product")
    assert ids == list(range(1, 9))
    out = m.jump("detail", ids[4])
    assert out.screen == "detail" and m.param["name"] == TEMPLATE and m.depth == 2
    assert m.step({"action_type": "navigate_back"}).screen == "home"
    html = m.preview("detail")
    assert "Oat milk" in html and m.screen == "home"
    assert m.preview("settings", "elements")[0]["checked"] is True
    assert m.state.flag("last_viewed") == 5  # the back transition's effect
    m.reset()
    sql = m.dump_state()
    assert sql == Machine(m.spec).dump_state()
    assert 'CREATE TABLE "cart"' in sql and "''); DROP TABLE cart; --" in sql
    with pytest.raises(ValueError, match="did you mean 'detail'"):
        m.jump("detail2")
    with pytest.raises(ValueError):
        m.observe("png")  # type: ignore[arg-type]


# -- views: XML, node, HTML -----------------------------------------------------------------------

def test_a_preview_shows_a_row_a_transition_opens_the_screen_with():
    # Only the dairy rows open the detail screen: its preview shows the first of them
    # (Oat milk, row 1); with only fruit opening it, the first fruit (Apples, row 6); with
    # a guard no row passes, the table's first row as before.
    spec = shop_spec()

    def guarded(when):
        kept = tuple(t for t in spec.transitions if t.target != "detail")
        into = Transition("home", "product_row", "tap", "detail", with_param=R("item"),
                          when=when)
        return Machine(dataclasses.replace(spec, transitions=(*kept, into)))

    fruit = Compare("==", R("item", "category"), Const("fruit"))
    assert "Apples" in guarded(fruit).preview("detail")
    assert "Oat milk" not in guarded(fruit).preview("detail")
    nothing = Compare("==", R("item", "category"), Const("toys"))
    assert "Oat milk" in guarded(nothing).preview("detail")
    assert "Oat milk" in Machine(spec).preview("detail")


def test_a_preview_shows_the_row_the_recordings_opened_the_screen_with():
    # Every row opens the detail screen (as a swipe on any row of a list, a dialog on a
    # heading row), but the recordings showed it with Pears (key 7): the preview shows
    # Pears, not the lowest row a transition admits (Oat milk). Where the table no longer
    # holds that row, the lowest row a transition opens it with, as before.
    spec = shop_spec()
    screens = tuple(dataclasses.replace(s, opened=7) if s.name == "detail" else s
                    for s in spec.screens)
    m = Machine(dataclasses.replace(spec, screens=screens))
    assert "Pears" in m.preview("detail") and "Oat milk" not in m.preview("detail")
    m.state.delete("product", [m.row_ids("product")[6]])
    assert "Oat milk" in m.preview("detail") and "Pears" not in m.preview("detail")
    texts = dataclasses.replace(spec, screens=tuple(  # a key of another type is no key
        dataclasses.replace(s, opened="7") if s.name == "detail" else s for s in spec.screens))
    with pytest.raises(SpecError, match="opened with row '7', which table 'product' does not"):
        Machine(texts)


def test_xml_is_a_uiautomator_dump_and_hit_tests_agree(m: Machine):
    xml = m.observe("xml")
    root, attrs = parse_hierarchy(xml.encode())
    assert attrs == {"rotation": "0"}
    assert root == m.observe("node")
    assert root.package == "com.shop"
    assert 'resource-id="com.shop:id/search"' in xml
    rendering = m.step({"action_type": "wait"}).rendering
    for x in range(0, 1080, 97):
        for y in range(0, 2400, 89):
            box = rendering.hit(x, y)
            path = hit_test(root, x, y)
            assert (rendering.boxes[box].path if box is not None else None) == path


def test_elements_are_interactive_or_labelled_in_document_order(m: Machine):
    els = m.observe()
    assert [e["index"] for e in els] == list(range(len(els)))
    assert set(els[0]) == {"index", "text", "class", "resource_id", "content_desc", "bounds",
                           "clickable", "editable", "checkable", "checked", "scrollable"}
    assert all(e["clickable"] or e["editable"] or e["checkable"] or e["scrollable"]
               or e["text"] or e["content_desc"] for e in els)
    search = els[index_of(m, "Search products")]
    assert search["editable"] and search["class"] == "android.widget.EditText"


def test_html_escapes_every_text(m: Machine):
    html = m.observe("html")
    assert SCRIPT not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{ 7*7 }}" in html and ">49<" not in html
    assert "&#39;); DROP TABLE cart; --" in html
    assert 'width:412px' in html
    # Every element is addressable by its index.
    assert len(re.findall(r'data-index="\d+"', html)) == len(m.observe())


def test_injection_shaped_values_are_stored_and_shown_as_data(m: Machine):
    texts = [e["text"] for e in m.observe()]
    assert INJECTION in texts and SCRIPT in texts and TEMPLATE in texts
    tap(m, INJECTION)
    assert m.param["name"] == INJECTION
    tap(m, "Add to cart")
    assert m.rows("cart") == [{"product": 3, "qty": 1}]
    m.step({"action_type": "navigate_back"})
    field = index_of(m, "Search products")
    m.step({"action_type": "input_text", "text": INJECTION, "index": field})
    out = m.step({"action_type": "keyboard_enter"})
    assert [e["text"] for e in out.elements if e["text"]] == [INJECTION]
    assert m.state.dump()["cart"] == [(3, 1)]  # the cart table is still there


def test_an_inserted_row_never_takes_a_deleted_initial_rows_key():
    # A list keeps what it recorded of row 3 (its size): a row added after row 3 was
    # deleted is a new row, key 4, not a second row 3.
    spec = AppSpec(name="k", package="p", start="s",
                   tables=(Table("note", "state", (Column("id", "int"), Column("t")),
                                 rows=((1, "a"), (3, "c"))),),
                   screens=(Screen("s", "P0", View("android.widget.FrameLayout",
                                                   (0, 0, 1080, 2400))),))
    s = State(spec)
    s.delete("note", s.rowids("note")[1:])
    s.insert("note", {"t": "new"})
    assert [r["id"] for r in s.rows("note")] == [1, 4]
    s.insert("note", {"t": "newer"})
    assert [r["id"] for r in s.rows("note")] == [1, 4, 5]
    s.reset()
    s.insert("note", {"t": "x"})
    assert [r["id"] for r in s.rows("note")] == [1, 3, 4]


def test_state_quotes_identifiers_and_binds_values():
    weird = "we\"ird'); DROP TABLE x; --"
    spec = AppSpec(name="w", package="p", start="s",
                   tables=(Table(weird, "state", (Column(weird), Column("n", "int"))),),
                   screens=(Screen("s", "P0", View("android.widget.FrameLayout",
                                                   (0, 0, 1080, 2400))),))
    s = State(spec)
    s.insert(weird, {weird: INJECTION, "n": "7"})
    assert s.rows(weird) == [{weird: INJECTION, "n": 7}]
    assert quote(weird) == '"we""ird\'); DROP TABLE x; --"'
    s.insert(weird, {"n": 2**64})  # beyond SQLite's integers: kept as a real
    assert s.rows(weird)[-1] == {weird: None, "n": float(2**64)}
    s.reset()
    assert s.rows(weird) == []


# -- expressions ----------------------------------------------------------------------------------

def test_expressions(m: Machine):
    scope = Scope(m.state, item={"name": "Oat milk", "price": "$3.49"}, answer="3.49 ")
    assert evaluate(Compare("~", R("item", "price"), R("answer")), scope) is True
    assert compare("~", "  Oat   MILK. ", "oat milk") and compare("~", "1,299", 1299)
    assert not compare("~", "3 apples", "3 pears")
    assert compare("==", "3", 3) and compare("<", "2", 10) and not compare("<", "a", 1)
    assert compare("==", None, None) and not compare("<", None, 1)
    assert evaluate(Call("lower", args=(R("item", "name"),)), scope) == "oat milk"
    assert evaluate(Call("len", args=(R("item", "name"),)), scope) == 8
    # what a screen shows when opened without a row
    assert evaluate(Call("otherwise", args=(R("item", "name"), Const("Files"))), scope) \
        == "Oat milk"
    for empty in (None, ""):
        assert evaluate(Call("otherwise", args=(R("item", "x"), Const("Files"))),
                        Scope(m.state, item={"x": empty})) == "Files"
    # a text that says a state: its second value where the first holds, else its third
    for cond, want in ((Const(True), "Dim ON"), (Const("off"), "Dim OFF"),
                       (Compare("==", Const(100), Const(100)), "Dim ON")):
        assert evaluate(Call("choose", args=(cond, Const("Dim ON"), Const("Dim OFF"))),
                        scope) == want
    assert evaluate(BoolOp("or", (Const(False), Not(Const("")))), scope) is True
    assert evaluate(Call("count", table="product",
                         where=Compare("==", R("category"), Const("fruit"))), scope) == 2
    assert evaluate(R("screen"), Scope(m.state, screen="home")) == "home"
    assert evaluate(R("notifications"), scope) is True
    with pytest.raises(ExprError, match="did you mean 'notifications'"):
        evaluate(R("notification"), scope)
    with pytest.raises(ExprError, match="unknown function"):
        evaluate(Call("upper", args=(Const("x"),)), scope)
    with pytest.raises(ExprError, match="unknown table"):
        evaluate(Call("count", table="nope"), scope)


def test_arithmetic(m: Machine):
    scope = Scope(m.state, item={"qty": 2})
    assert evaluate(BinOp("+", R("item", "qty"), Const(1)), scope) == 3
    assert evaluate(BinOp("-", Const("5"), Const(2)), scope) == 3
    assert evaluate(BinOp("+", Const(0.5), Const(2)), scope) == 2.5
    assert evaluate(BinOp("+", Const("a"), Const("b")), scope) == "ab"
    assert evaluate(BinOp("-", Const("a"), Const(1)), scope) is None
    assert evaluate(BinOp("+", Const(2**62), Const(2**62)), scope) == 2**63  # stored as real


def test_derived_value_functions(m: Machine):
    """`sum(t, x)` adds up `x` over the rows; `number`, `times` and `fixed` turn shown
    texts into numbers and back, as a cart's subtotal and line totals need."""
    scope = Scope(m.state)
    price = Call("number", args=(R("price"),))
    assert evaluate(Call("sum", table="product", args=(price,)), scope) == \
        pytest.approx(sum(float(p[2][1:]) for p in PRODUCTS))
    assert evaluate(Call("sum", table="cart", args=(R("qty"),)), scope) == 0  # no rows
    assert evaluate(Call("number", args=(Const("$1.49 each"),)), scope) == 1.49
    assert evaluate(Call("number", args=(Const("Subtotal (4 items)"),)), scope) == 4
    assert evaluate(Call("number", args=(Const("none"),)), scope) is None
    assert evaluate(Call("times", args=(Const("$1.49 each"), Const(2))), scope) == 2.98
    assert evaluate(Call("fixed", args=(Const(2.98 + 5.58), Const(2))), scope) == "8.56"
    assert evaluate(Call("fixed", args=(Const(4), Const(0))), scope) == "4"
    assert evaluate(Call("fixed", args=(Const("n/a"), Const(2))), scope) is None
    with pytest.raises(ExprError, match="sum\\(\\) takes a table"):
        evaluate(Call("sum", table="product"), scope)


def test_a_spec_naming_unknown_things_is_refused_up_front():
    from dataclasses import replace

    spec = shop_spec()
    bad = replace(spec, transitions=(
        *spec.transitions,
        Transition("home", "x", "tap", "nowhere"),
        Transition("home", "y", "tap", "stay", effects=(Effect("toggle", "wifi"),)),
        Transition("home", "z", "tap", "stay", effects=(Effect("clear", "product"),)),
        Transition("home", "w", "tap", "stay", when=R("item", "a", "b")),
    ))
    with pytest.raises(SpecError) as err:
        Machine(bad)
    msg = str(err.value)
    for part in ("unknown screen 'nowhere'", "unknown flag 'wifi'",
                 "table 'product' is content (read-only)", "'item' is only known inside"):
        assert part in msg
    assert msg.startswith("<app shop>: ")


# -- properties ------------------------------------------------------------------------------------



@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, max_size=25))
def test_random_walks_never_crash_and_reset_restores(actions):
    m = Machine(shop_spec())
    initial = m.reset()
    initial_xml, initial_db = initial.xml, m.state.dump()
    middle = None
    for i, a in enumerate(actions):
        if i == len(actions) // 2:
            middle = m.snapshot(), m.observe("xml"), m.state.dump()
        try:
            out = m.step(a)
        except InvalidAction:
            continue
        out.elements  # noqa: B018 - rendering must not fail either
    m.observe("html")
    if middle is not None:
        snap, xml, db = middle
        m.restore(snap)
        assert m.observe("xml") == xml and m.state.dump() == db
    out = m.reset()
    assert out.xml == initial_xml and m.state.dump() == initial_db


def test_a_grid_list_lays_items_out_in_rows():
    import dataclasses

    spec = shop_spec()
    home = spec.screens[0]

    def gridded(v):
        if v.items is not None:
            return dataclasses.replace(v, items=dataclasses.replace(v.items, span=2, cross=500))
        return dataclasses.replace(v, children=tuple(gridded(c) for c in v.children))

    spec = dataclasses.replace(spec, screens=(dataclasses.replace(home, root=gridded(home.root)),
                                              *spec.screens[1:]))
    m = Machine(spec)
    m.reset()
    rows = [e["bounds"] for e in m.observe("elements")
            if e["resource_id"] == "com.shop:id/row"]
    assert len(rows) >= 3
    (x0, y0, *_), (x1, y1, *_), (x2, y2, *_) = rows[:3]
    assert y1 == y0 and x1 == x0 + 500  # two on a line, 500 px apart
    assert x2 == x0 and y2 == y0 + 300  # then the next line, one pitch down


def test_jump_keeps_the_rows_the_screens_under_it_showed(m: Machine):
    """Replay rebuilds the recorded back stack: going back shows the row that was shown."""
    ids = m.row_ids("product")
    m.jump("cart", under=["home", ("detail", ids[2])])
    assert m.step({"action_type": "navigate_back"}).screen == "detail"
    assert m.param["id"] == ids[2]
    m.jump("cart", under=["home", "detail"])  # a name alone: the first row, as before
    m.step({"action_type": "navigate_back"})
    assert m.param["id"] == ids[0]


def test_jump_keeps_the_scroll_the_screens_under_it_were_left_at(m: Machine):
    """A (name, row, scroll offsets) triple: going back shows the screen scrolled so."""
    m.jump("home")
    top = m.observe("node")
    m.step({"action_type": "scroll", "direction": "down"})
    scrolled, offsets = m.observe("node"), tuple(m.frame.scroll.items())
    assert offsets and scrolled != top
    m.jump("cart", under=[("home", None, offsets)])
    m.step({"action_type": "navigate_back"})
    assert m.screen == "home" and m.observe("node") == scrolled


def test_an_image_bound_to_a_description_its_row_lacks_is_not_shown():
    """Rows of two types share one template: the "expand" arrow only some rows have is
    bound to a description column, and a row without one shows no arrow."""
    from dataclasses import replace

    label = View(cls="android.widget.TextView", bounds=(0, 400, 800, 500),
                 text=R("item", "name"))
    arrow = View(cls="android.widget.ImageView", bounds=(900, 400, 1000, 500),
                 desc=R("item", "category"))
    row = View(cls="android.widget.LinearLayout", bounds=(0, 400, 1080, 500),
               children=(label, arrow))
    lst = View(cls="android.widget.ListView", bounds=(0, 400, 1080, 1400), name="rows",
               children=(row,), items=ListOf("product", pitch=100))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(lst,))
    spec = shop_spec()
    rows = tuple(r[:3] + ("Expand item" if r[0] % 2 else "",) for r in PRODUCTS)
    m = Machine(home_as(root, spec, tables=tuple(
        replace(t, rows=rows) if t.name == "product" else t for t in spec.tables)))
    m.reset()
    images = [e for e in m.observe() if e["class"] == "android.widget.ImageView"]
    assert [e["content_desc"] for e in images] == ["Expand item"] * 4
    assert len([e for e in m.observe() if e["class"] == "android.widget.TextView"]) == 8


def test_a_switch_bound_to_a_state_its_row_lacks_is_not_shown():
    """A settings list mixes rows with a switch and rows without (Theme, About): the
    switch is bound to a `checked` column that is null on the rows the recordings showed
    with no switch, and those rows draw none (and offer nothing to flip)."""
    from dataclasses import replace

    from phoneworld.spec.ast import Column

    label = View(cls="android.widget.TextView", bounds=(0, 400, 800, 500),
                 text=R("item", "name"))
    switch = View(cls="android.widget.Switch", bounds=(900, 400, 1000, 500),
                  checked=R("item", "on"), flags=("clickable", "checkable"))
    row = View(cls="android.widget.LinearLayout", bounds=(0, 400, 1080, 500),
               children=(label, switch))
    lst = View(cls="android.widget.ListView", bounds=(0, 400, 1080, 1400), name="rows",
               children=(row,), items=ListOf("product", pitch=100))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(lst,))
    spec = shop_spec()
    rows = tuple(r + ((r[0] % 4 == 1) if r[0] % 2 else None,) for r in PRODUCTS)
    m = Machine(home_as(root, spec, tables=tuple(
        replace(t, columns=(*t.columns, Column("on", "bool")), rows=rows)
        if t.name == "product" else t for t in spec.tables)))
    m.reset()
    switches = [e for e in m.observe() if e["class"] == "android.widget.Switch"]
    assert len(switches) == 4 and all(e["checkable"] for e in switches)
    assert sorted(e["checked"] for e in switches) == [False, False, True, True]
    assert len([e for e in m.observe() if e["class"] == "android.widget.TextView"]) == 8


def test_going_to_a_screen_already_open_returns_to_it(m: Machine):
    """As the compiler's back stack has it: a tap that leads to a screen below on the
    stack (a dialog's choice, "up") closes the screens above it, which keeps its row."""
    ids = m.row_ids("product")
    m.jump("home", under=[("detail", ids[3]), "settings"])
    tap(m, "Settings")
    assert (m.screen, m.depth) == ("settings", 2)
    assert m.step({"action_type": "navigate_back"}).screen == "detail"
    assert m.param["id"] == ids[3]
    m.reset()
    tap(m, "Settings")  # not open yet: opened on top, as before
    assert (m.screen, m.depth) == ("settings", 2)


def test_a_timed_screen_gives_way_on_wait_and_is_gone_from_the_stack():
    """`on splash wait -> home`: an ad or splash that advances with no event. Waiting
    fires it (tapping does not), and the next screen takes its place, so back from there
    leaves the app instead of showing the ad again; elsewhere waiting changes nothing."""
    spec = splash_shop_spec()
    m = Machine(spec)
    m.reset()
    assert m.step({"action_type": "click", "x": 100, "y": 100}).screen == "splash"
    out = m.step({"action_type": "wait"})
    assert (out.screen, out.event, m.depth) == ("home", "wait splash -> home", 1)
    assert m.step({"action_type": "wait"}).event == "wait"
    tap(m, "Settings")
    assert m.step({"action_type": "wait"}).screen == "settings"
    m.step({"action_type": "navigate_back"})
    assert m.step({"action_type": "navigate_back"}).event == "back -> left_app"
    m.reset()
    assert m.screen == "splash"
