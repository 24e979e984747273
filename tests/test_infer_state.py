"""Coherent app state: per-row switches, cross-screen effects and derived values.

On the example shopping app, compiled from its traces: "Add to cart" on a product adds
the row to the cart; the badges, "Subtotal (N items)", the subtotal and the total follow
the rows after add, remove and quantity steps; rows only added in the recordings are not
in the initial state; only rows with a recorded switch have one.
"""

from __future__ import annotations

import pytest

from phoneworld.infer import content as C
from phoneworld.infer.derived import (
    RowTotal,
    derive_texts,
    row_totals,
    shown,
    with_row_totals,
)
from phoneworld.runtime import Machine
from phoneworld.runtime.expr import Scope, evaluate
from phoneworld.runtime.state import State
from phoneworld.spec.ast import (
    AppSpec,
    BinOp,
    BoolOp,
    Call,
    Column,
    Compare,
    Const,
    Effect,
    Ref,
    Table,
    Transition,
)
from phoneworld.ui.node import Node
from tests.tasks_fixtures import example

# -- the shopping app, end to end ----------------------------------------------------------


@pytest.fixture
def shop() -> Machine:
    m = Machine(example("shopping"))
    m.reset()
    return m


def _texts(m: Machine) -> list[str]:
    return [e["text"] or e["content_desc"] for e in m.observe("elements")
            if e["text"] or e["content_desc"]]


def _tap(m: Machine, label: str) -> None:
    els = m.observe("elements")
    e = next(e for e in els if label in (e["text"], e["content_desc"]))
    m.step({"action_type": "click", "index": e["index"]})


def _open_cart(m: Machine) -> None:
    e = next(e for e in m.observe("elements") if (e["content_desc"] or "").startswith("Cart"))
    m.step({"action_type": "click", "index": e["index"]})


def _cart(m: Machine) -> dict[str, int]:
    return {r["cart_item_name"]: r["quantity"] for r in m.state.rows("main_cart_cart_list")}


def test_rows_added_in_the_recordings_are_not_in_the_initial_cart(shop):
    assert _cart(shop) == {"Bananas": 1, "Oat Milk": 1}  # as the app started every trace


def test_add_to_cart_adds_the_row_and_every_number_follows(shop):
    _tap(shop, "Dairy & Eggs")
    _tap(shop, "Whole Milk")
    assert "2" in _texts(shop)  # the toolbar badge: two items to begin with
    _tap(shop, "Add to cart")
    _tap(shop, "Add to cart")
    assert _cart(shop) == {"Bananas": 1, "Oat Milk": 1, "Whole Milk": 2}
    assert "Cart, 4 items" in _texts(shop) and "4" in _texts(shop)
    _open_cart(shop)
    texts = _texts(shop)
    assert "Subtotal (4 items)" in texts
    # $1.29 + $4.29 + 2 x $3.49, and the $2.99 delivery on top
    assert {"$6.98", "$12.56", "$15.55"} <= set(texts), texts
    _tap(shop, "Remove Oat Milk")
    _tap(shop, "Increase quantity")  # the first row: Bananas
    texts = _texts(shop)
    assert _cart(shop) == {"Bananas": 2, "Whole Milk": 2}
    assert {"Subtotal (4 items)", "$2.58", "$9.56", "$12.55"} <= set(texts), texts


def test_adding_what_is_in_the_cart_steps_its_quantity(shop):
    _tap(shop, "Fruit & Vegetables")
    _tap(shop, "Bananas")
    _tap(shop, "Add to cart")
    assert _cart(shop)["Bananas"] == 2
    _open_cart(shop)
    assert "$2.58" in _texts(shop)


def test_favourite_adds_to_favourites_and_a_second_tap_takes_it_away(shop):
    _tap(shop, "Bakery")
    _tap(shop, "Sourdough Loaf")
    names = {r["product_name"] for r in shop.state.rows("favourites_favourite_list")}
    assert "Sourdough Loaf" not in names  # only the recordings favourited it
    _tap(shop, "Favourite")
    assert "Sourdough Loaf" in {r["product_name"]
                                for r in shop.state.rows("favourites_favourite_list")}
    star = next(e for e in shop.observe("elements") if e["content_desc"] == "Favourite")
    assert star["checked"]  # this product's switch, not one flag for every product
    shop.step({"action_type": "navigate_back"})
    _tap(shop, "Butter Croissants")
    assert not next(e for e in shop.observe("elements")
                    if e["content_desc"] == "Favourite")["checked"]
    shop.step({"action_type": "navigate_back"})
    _tap(shop, "Sourdough Loaf")
    _tap(shop, "Favourite")
    assert "Sourdough Loaf" not in {r["product_name"]
                                    for r in shop.state.rows("favourites_favourite_list")}


def test_only_rows_with_a_recorded_switch_have_one():
    spec = example("shopping")
    account = next(t for t in spec.tables if t.name == "main_favourites_account_list")
    checked = {r[2]: r[-1] for r in account.rows}
    assert checked["Deal alerts"] is True and checked["Sign out"] is None
    toggles = [e for t in spec.transitions for e in t.effects
               if e.op == "update" and e.target == account.name]
    has_switch = Compare("!=", Ref(("checked",)), Const(None))
    assert toggles and all(isinstance(e.where, BoolOp) and has_switch in e.where.items
                           for e in toggles)
    states = {t.name for t in spec.tasks if t.kind == "state"}
    assert "turn_on_main_favourites_account_list" not in states  # no switch is off
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "click", "index": next(
        e["index"] for e in m.observe("elements") if e["content_desc"] == "Account")})
    _tap(m, "Sign out")  # a row with no switch: nothing to flip
    assert {r["title"]: r["checked"] for r in m.state.rows(account.name)}["Sign out"] is None


def test_search_shows_the_rows_recorded_for_the_query(shop):
    _tap(shop, "Search products")

    def search(query: str) -> list[str]:
        field = next(e for e in shop.observe("elements") if e["editable"])
        shop.step({"action_type": "input_text", "index": field["index"], "text": query})
        shop.step({"action_type": "keyboard_enter"})
        rows = shop.state.rows("search_snacks_search_results")
        shown = set(_texts(shop))
        return sorted({r["product_name"] for r in rows if r["product_name"] in shown})

    assert search("chips") == ["BBQ Potato Chips", "Sea Salt Potato Chips", "Tortilla Chips"]
    assert shop.state.flags["search_search_input"] == "chips"  # the state keeps the query
    shop.step({"action_type": "navigate_back"})
    assert "Roasted Almonds" in search("Snacks")


# -- the passes, each on its own ----------------------------------------------------------------

def _switch_row(title: str, summary: str, on: bool) -> Node:
    return Node(class_name="android.widget.LinearLayout", children=(
        Node(class_name="android.widget.TextView", resource_id="android:id/title", text=title),
        Node(class_name="android.widget.TextView", resource_id="android:id/summary",
             text=summary),
        Node(class_name="android.widget.Switch", resource_id="android:id/switch_widget",
             text="ON" if on else "OFF", checkable=True, checked=on)))


def _plain_row(title: str) -> Node:
    return Node(class_name="android.widget.LinearLayout", children=(
        Node(class_name="android.widget.TextView", resource_id="android:id/title", text=title),))


def test_a_switch_says_its_rows_state_not_what_the_row_is():
    lc = C.ListContent(key="list", table="settings")
    lst = Node(class_name="android.widget.ListView", children=(
        _switch_row("Wi-Fi", "HomeNet", True), _plain_row("VPN")))
    first, _ = C.collect(lc, lst, 0)
    flipped = Node(class_name="android.widget.ListView", children=(
        _switch_row("Wi-Fi", "Off", False), _plain_row("VPN")))
    assert C.collect(lc, flipped, 0)[0] == first  # the same rows, one of them switched off
    assert len(lc.rows) == 2 and lc.checks == {first[0]: True}  # VPN has no switch


def test_numbers_are_read_as_words_around_one_number():
    s = shown("Subtotal (4 items)")
    assert (s.prefix, s.value, s.suffix, s.decimals) == ("Subtotal (", 4.0, " items)", 0)
    s = shown("$1,299.50")
    assert (s.prefix, s.value, s.decimals) == ("$", 1299.5, 2)
    assert shown("2 of 3") is None and shown("none") is None


def _cart_spec(rows) -> AppSpec:
    return AppSpec(name="t", package="t", start="s", tables=(Table(
        "cart", "state", (Column("id", "int"), Column("name"), Column("price"),
                          Column("qty", "int"), Column("total")), tuple(rows)),))


def test_a_number_that_follows_the_rows_becomes_an_expression():
    spec = _cart_spec([(1, "A", "$1.00 each", 1, "$1.00")])
    states = {"o1": {"cart": [{"qty": 1, "total": "$1.00"}]},
              "o2": {"cart": [{"qty": 1, "total": "$1.00"}, {"qty": 2, "total": "$5.00"}]}}
    seen = {("cart", "badge"): [("o1", "1"), ("o2", "3")],
            ("cart", "sum"): [("o1", "$3.99"), ("o2", "$8.99")],
            ("cart", "fixed"): [("o1", "7"), ("o2", "7")],
            ("cart", "odd"): [("o1", "$1.50"), ("o2", "$9.00")]}
    shown_there = {"o1": {2.99}, "o2": {2.99}}  # a delivery fee on the same screen
    out = derive_texts(spec, seen, states, shown_there)
    assert set(out) == {("cart", "badge"), ("cart", "sum")}  # 7 never changed; odd fits none
    st = State(_cart_spec([(1, "A", "$1.00 each", 1, "$1.00"), (2, "B", "$2 each", 2, "$4.00")]))
    assert evaluate(out[("cart", "badge")], Scope(st)) == "3"
    assert evaluate(out[("cart", "sum")], Scope(st)) == "$7.99"


def test_a_line_total_is_kept_by_the_effects_that_change_the_count():
    spec = _cart_spec([])
    recorded = {"cart": [{"name": "A", "price": "$1.49 each", "qty": "1", "total": "$1.49"},
                         {"name": "A", "price": "$1.49 each", "qty": "2", "total": "$2.98"}]}
    (rt,) = row_totals(spec, recorded)
    assert rt == RowTotal("cart", "total", "price", "qty", "$", "", 2)
    step = Transition("s", "plus", "tap", "stay", effects=(Effect(
        "update", "cart", values=(("qty", BinOp("+", Ref(("qty",)), Const(1))),)),))
    (kept,) = with_row_totals([step], [rt])
    st = State(_cart_spec([(1, "A", "$1.49 each", 2, "$2.98")]))
    row = st.rows("cart")[0]
    values = dict(kept.effects[0].values)
    assert evaluate(values["total"], Scope(st, row=row)) == "$4.47"
    assert Call("times", args=(Call("number", args=(Ref(("price",)),)),
                               BinOp("+", Ref(("qty",)), Const(1)))) in repr_calls(values)


def repr_calls(values: dict) -> list:
    """The calls inside each value (depth first)."""
    out, stack = [], list(values.values())
    while stack:
        e = stack.pop()
        if isinstance(e, Call):
            out.append(e)
            stack.extend(e.args)
        elif isinstance(e, BinOp):
            stack += [e.left, e.right]
    return out


# -- typed text on a real app -------------------------------------------------------------------

def test_what_a_form_submits_is_kept_and_a_cancel_keeps_nothing(tmp_path):
    """OneList: a list's name typed, then "Validate" (kept in a flag) or "Cancel" (not)."""
    from phoneworld.compiler import compile_traces
    from tests.conftest import shared

    (app,) = compile_traces(shared("droidbot", "onelist"), tmp_path)
    spec = app.spec
    labels = {}
    for s in spec.screens:
        stack = [s.root]
        while stack:
            v = stack.pop()
            if v.name and isinstance(v.desc, Const):
                labels[(s.name, v.name)] = v.desc.value
            stack.extend(v.children)
    sets = {(t.screen, t.widget) for t in spec.transitions for e in t.effects if e.op == "set"}
    assert sets and not any(labels.get(k) == "Cancel" for k in sets)
    assert any(labels.get(k) == "Validate" for k in sets)
    typed = {t.name: t for t in spec.tables if t.name.endswith("_typed")}
    assert any(("Hello World",) == tuple(r[2] for r in t.rows) for t in typed.values())


def test_typing_that_leads_to_its_results_submits_it_and_yields_a_search_task(tmp_path):
    """uber: "Humanoid" typed into "Search for places" opens the places found as it is
    typed, with no enter: the typing is the submit, kept in a flag, and searching for it
    is a task with a demo that types it."""
    from phoneworld.compiler import compile_traces
    from phoneworld.tasks import make_demo
    from phoneworld.tasks.sample import instances
    from tests.conftest import shared

    (app,) = compile_traces(shared("droidbot", "uber"), tmp_path)
    spec = app.spec
    kept = [t for t in spec.transitions if t.action == "type" and t.target != "stay" and
            any(e.op == "set" for e in t.effects)]
    assert kept
    found = [i for i in instances(spec) if i.kind == "state" and "Humanoid" in i.instruction]
    assert found and found[0].instruction.startswith(("Search for", "Look up", "Find"))
    demo = make_demo([spec], found[0])
    assert demo is not None and demo.verified
    # its composites, one text each, crowd out none of the others: as many composites as
    # other instances, still
    kinds = [i.kind for i in instances(spec)]
    assert 2 * kinds.count("composite") == len(kinds)
    # (#21) the arrival time picked and confirmed with OK is kept and asked for, as
    # recorded ("2:30 PM", "3:15 PM"), never the "Humanoid" typed into the picker
    picks = {i.params["m"]: i for i in instances(spec)
             if i.kind == "state" and i.template.startswith("pick_")}
    assert set(picks) == {"2:30 PM", "3:15 PM"}
    assert "“Arrive by”" in picks["3:15 PM"].instruction
    demo = make_demo([spec], picks["3:15 PM"])
    assert demo is not None and demo.verified


def test_uber_pages_entered_only_from_a_stat_column_or_a_fileless_start_are_reached(tmp_path):
    """(#21) uber: the profile header's three unnamed stat columns are widgets of their
    own, so the acceptance-rate column's page is a transition apart from the ratings
    column's; Uber Pro's "Cancellation rate" (tapped in a state DroidBot wrote no file
    for) opens How Uber Pro Works. The task walk reaches both."""
    from phoneworld.compiler import compile_traces
    from phoneworld.spec.walk import walk
    from phoneworld.tasks.labels import title_of
    from phoneworld.tasks.reach import explore
    from tests.conftest import shared

    (app,) = compile_traces(shared("droidbot", "uber"), tmp_path)
    spec = app.spec

    def shows(screen, text):
        stack = [screen.root]
        while stack:
            v = stack.pop()
            stack.extend(v.children)
            if any(isinstance(x, Const) and x.value == text
                   for e in (v.text, v.desc) if e is not None for x in walk(e)):
                return True
        return False

    # The screens by what a person sees (their names are the compiler's, and move).
    (profile,) = [s.name for s in spec.screens if title_of(s, spec) == "Profile"]
    taps = {t.widget: t.target for t in spec.transitions
            if t.screen == profile and t.action == "tap"}
    ratings = [w for w, t in taps.items() if title_of(spec.screen(t), spec) == "Ratings"]
    acceptance = [w for w, t in taps.items() if shows(spec.screen(t), "Acceptance rate")]
    assert len(ratings) == 1 and len(acceptance) == 1, taps
    assert ratings != acceptance and taps[ratings[0]] != taps[acceptance[0]], taps
    reached = explore(spec).screens
    for text in ("Acceptance rate", "How Uber Pro Works"):
        assert any(shows(s, text) and s.name in reached for s in spec.screens), text


def test_a_character_counter_by_a_field_counts_what_is_typed():
    """qqmusic's feedback box shows "0 / 200" under it: typing moves it ("2 / 200"); a
    "0 / 200" far from any field stays as recorded."""
    from phoneworld.replay import shown_texts
    from phoneworld.spec.ast import AppSpec
    from tests.infer_fixtures import App, edit, facts, label, screen, title

    page = screen(title("Feedback"), edit("box", 300, "Say something"),
                  label("count", "0 / 200", 420), label("far", "0 / 50", 1500))
    f = facts(App().show(page).tap(1).show(page).trace())
    spec = AppSpec(name="app", package=f.graph.package, start=f.graph.start,
                   width=f.graph.width, height=f.graph.height, title="app", source="",
                   tables=f.tables, flags=f.flags, screens=f.views, transitions=f.transitions)
    m = Machine(spec)
    m.reset()
    assert {"0 / 200", "0 / 50"} <= set(shown_texts(m.observe("node")))
    box = next(e["index"] for e in m.observe("elements") if e.get("editable"))
    m.step({"action_type": "input_text", "index": box, "text": "hi"})
    shown = set(shown_texts(m.observe("node")))
    assert "2 / 200" in shown and "0 / 50" in shown


def test_a_value_a_tap_confirms_into_a_text_is_kept_shown_and_asked_for():
    """(#21) A picker's field holds "3:15 PM" when OK is tapped, and the text beside
    "Arrive by" then reads "3:15 PM" (it read "ASAP"): OK keeps the field in a flag, that
    text shows the flag once set, and "Set “Arrive by” to “3:15 PM”." is a state task
    whose demo types the value and taps OK. A cancel confirms nothing."""
    from phoneworld.replay import shown_texts
    from phoneworld.spec.ast import AppSpec
    from phoneworld.tasks import make_demo
    from phoneworld.tasks.sample import instances
    from tests.infer_fixtures import App, button, edit, facts, label, screen, title
    from tests.tasks_fixtures import with_tasks

    def sheet(when, picker=None):
        rows = [title("Store"), label("arrive_label", "Arrive by", 300),
                label("arrive_time", when, 400)]
        if picker is not None:
            rows += [edit("picker_input", 800, picker), button("cancel", "Cancel", 1000),
                     button("ok", "OK", 1100)]
        return screen(*rows)
    tr = (App().show(sheet("ASAP", "2:30 PM")).tap(4).show(sheet("ASAP"))
          .show(sheet("ASAP", "3:15 PM")).tap(5).show(sheet("3:15 PM")).trace())
    f = facts(tr)
    spec = with_tasks(AppSpec(
        name="app", package=f.graph.package, start=f.graph.start, width=f.graph.width,
        height=f.graph.height, title="app", source="", tables=f.tables, flags=f.flags,
        screens=f.views, transitions=f.transitions))
    picked = {t.name: [r[2] for r in t.rows] for t in spec.tables
              if t.name.endswith("_picked_typed")}
    assert list(picked.values()) == [["3:15 PM"]]  # the cancelled "2:30 PM" is no pick
    m = Machine(spec)
    m.reset()
    assert "ASAP" in shown_texts(m.observe("node"))
    (inst,) = [i for i in instances(spec) if i.template.startswith("pick_") and
               i.kind == "state"]
    assert inst.instruction in {"Set “Arrive by” to “3:15 PM”.",
                                "Change “Arrive by” to “3:15 PM”.",
                                "Pick “3:15 PM” for “Arrive by”."}
    demo = make_demo([spec], inst)
    assert demo is not None and demo.verified
    assert demo.actions[-3]["action_type"] == "input_text"
    m = Machine(spec)
    m.reset()
    for a in demo.actions[:-1]:
        m.step(a)
    assert "3:15 PM" in shown_texts(m.observe("node")) and "ASAP" not in \
        shown_texts(m.observe("node"))
    # "What is written under “Arrive by”?" is answered by what it shows when asked
    (ask,) = [i for i in instances(spec) if i.kind == "information" and
              i.instruction.endswith("“Arrive by”?")]
    assert not [i for i in instances(spec) if i.kind == "composite" and
                i.instruction.count("Arrive by") > 1]  # the same words, two goals: none
    m.step({"action_type": "answer", "text": "3:15 PM"})
    assert ask.check(m).success
    fresh = Machine(spec)
    fresh.reset()
    fresh.step({"action_type": "answer", "text": "3:15 PM"})
    assert not ask.check(fresh).success


# -- saves: typed on one screen, listed on another later ------------------------------------

def _labelled(spec) -> dict[tuple[str, str], str]:
    out = {}
    for s in spec.screens:
        stack = [s.root]
        while stack:
            v = stack.pop()
            for e in (v.text, v.desc):
                if v.name and isinstance(e, Const) and isinstance(e.value, str):
                    out.setdefault((s.name, v.name), e.value)
            stack.extend(v.children)
    return out


@pytest.mark.parametrize("app, table, button", [
    ("ajsha", "edit_storage_emulated_select_dialog_list", "OK"),
    ("onelist", "main_lists_recycler_view", "Validate")])
def test_a_name_typed_and_confirmed_is_saved_into_the_list_shown_later(app, table, button,
                                                                        tmp_path):
    """ajsha: "Hello World" typed as the file name, OK, and LOAD lists the file later (a
    CANCEL with the same name saved nothing); onelist: a list named and validated shows in
    the lists bar. The saved row is the save's effect, not an initial row, and "Tap
    “SAVE”, enter “Hello World” and confirm." is a task whose demo saves it."""
    from phoneworld.compiler import compile_traces
    from phoneworld.tasks import make_demo
    from phoneworld.tasks.sample import instances
    from tests.conftest import shared

    (compiled,) = compile_traces(shared("droidbot", app), tmp_path)
    spec = compiled.spec
    (t,) = [t for t in spec.tables if t.name == table]
    names = {v for r in t.rows for v in r if isinstance(v, str)}
    assert "Hello World" not in names
    labels = _labelled(spec)
    inserts = {labels.get((t.screen, t.widget)) for t in spec.transitions for e in t.effects
               if e.op == "insert" and e.target == table}
    assert inserts == {button}
    (inst,) = [i for i in instances(spec) if i.template == f"add_typed_to_{table}"]
    assert inst.params["m"] == "Hello World"
    demo = make_demo([spec], inst)
    assert demo is not None and demo.verified
    if app == "ajsha":
        assert "default" in names  # saved with the name the field held: no typed text
        # the list shows in LOAD's file dialog: it is not named after that button
        # "SAVE" saves a file: no "Add “Hello World” with “SAVE”", the steps instead
        assert inst.instruction in {
            "Tap “SAVE”, enter “Hello World” and confirm.",
            "Press “SAVE”, type “Hello World” and confirm it.",
            "Tap “SAVE”, type “Hello World” and confirm."}
        # a save at the top leaves the folders' counts as they are
        assert {i.instruction for i in instances(spec) if i.template.startswith("count_")}
    else:  # a list of lists, named by nothing but its button: not "the list"
        assert "the list" not in inst.instruction and "“Add List”" in inst.instruction
    # the one field of the name dialog says nothing of itself: the button to it does
    fills = [i.instruction for i in instances(spec) if i.template.startswith("fill_") and
             i.kind == "state"]
    assert fills and all(f.startswith(("Tap “", "Press “")) for f in fills)


def test_an_item_typed_into_a_box_over_an_unnamed_list_is_added_with_that_box(tmp_path):
    """onelist's items list has no name a person reads (its screen's title "1List" is no
    name): the task says what to type into, the box that says “Add”, not "Add “Hello
    World” to the list"; the box's own text is its hint, not a text typed into it."""
    from phoneworld.compiler import compile_traces
    from phoneworld.tasks import make_demo
    from phoneworld.tasks.sample import instances
    from tests.conftest import shared

    (compiled,) = compile_traces(shared("droidbot", "onelist"), tmp_path)
    spec = compiled.spec
    (inst,) = [i for i in instances(spec)
               if i.template == "add_typed_to_main_items_recycler_view"]
    assert "the list" not in inst.instruction and "“Add”" in inst.instruction, \
        inst.instruction
    assert inst.params["m"] == "Hello World"
    demo = make_demo([spec], inst)
    assert demo is not None and demo.verified
    composites = [i.instruction for i in instances(spec) if i.kind == "composite"]
    assert not [c for c in composites if "to the list" in c or "in the list" in c]


def test_a_save_is_the_tap_after_which_the_list_shows_the_typed_name():
    """Typed "Beta" into a name dialog: CANCEL, and the files list still lacks it (no
    save); again, OK, and the list shows "Beta": OK inserts it, and "Beta" is no initial
    row; "Alpha", listed before anything was typed, is."""
    from tests.infer_fixtures import App, button, edit, facts, rows, screen, title

    main = screen(title("Notes"), button("new", "New", 200), button("open", "Open", 400))
    files = [screen(title("Files"), rows("files", names)) for names in
             ([("Alpha",)], [("Alpha",), ("Beta",)])]

    def dialog(text: str):
        return screen(title("Name"), edit("name", 400, text), button("ok", "OK", 600),
                      button("cancel", "Cancel", 800))

    app = App().show(main).tap(2).show(files[0]).back().show(main)
    for last, then in ((3, files[0]), (2, files[1])):
        app = app.tap(1).show(dialog("")).type("Beta", 1).show(dialog("Beta")).tap(last) \
            .show(main).tap(2).show(then).back().show(main)
    f = facts(app.trace())
    (key,) = f.saves
    assert key[1].endswith("ok")
    (t,) = [t for t in f.tables if t.name.startswith(f.saves[key][0])]
    assert [r[2] for r in t.rows] == ["Alpha"]
    (effect,) = [e for t in f.transitions for e in t.effects if e.op == "insert"]
    assert effect.target == t.name and dict(effect.values)[t.columns[2].name].path[0] == "input"


# -- a tap recorded on one kind of row -----------------------------------------------------

def _opening_rows(spec, screen: str, target: str) -> list[str]:
    """The rows of `screen`'s list whose tap on the row opens `target` by the catch-all
    transition (not one for rows named by id), by the first text of each."""
    from phoneworld.spec.walk import walk

    (t,) = [t for t in spec.transitions if t.screen == screen and t.target == target and
            t.widget == "linear_layout" and t.with_param is not None and
            Ref(("item", "id")) not in list(walk(t.when) if t.when is not None else ())]
    (lst,) = [v.items.table for s in spec.screens if s.name == screen
              for v in _all_views(s.root) if v.items is not None]
    st = State(spec)
    return [next(v for v in r.values() if isinstance(v, str) and v)
            for r in st.rows(lst) if any(isinstance(v, str) and v for v in r.values())
            if t.when is None or evaluate(t.when, Scope(st, item=r))]


def _all_views(root):
    stack = [root]
    while stack:
        v = stack.pop()
        yield v
        stack.extend(v.children)


def test_rows_of_another_layout_do_not_take_a_tap_recorded_on_a_setting(tmp_path):
    """onelist's Settings: a tap on "Theme" opened its dialog; the headings
    ("Personalization", "About"), of another layout, open nothing. settings' Display: the
    heading "Appearance" no longer opens the font size dialog; "Font size" and the other
    settings still do."""
    from phoneworld.compiler import compile_traces
    from tests.conftest import shared

    (app,) = compile_traces(shared("droidbot", "onelist"), tmp_path)
    rows = _opening_rows(app.spec, "main_personalization", "main_auto_android")
    assert rows == ["Theme"]
    rows = _opening_rows(example("settings"), "sub_settings_display",
                         "sub_settings_display_font_size")
    assert "Font size" in rows and "Screen timeout" in rows
    assert not {"Appearance", "Brightness"} & set(rows)
