"""Task templates synthesised from a spec: valid spec text, every kind, real parameters."""

from __future__ import annotations

import dataclasses

import pytest

from phoneworld.runtime.machine import Machine
from phoneworld.spec.ast import BoolOp, Call, Compare, Const, Not, Ref, Task
from phoneworld.spec.check import check
from phoneworld.spec.emit import emit, emit_expr
from phoneworld.spec.parse import parse
from phoneworld.tasks import make_demo, sample_tasks, synthesize_tasks, templates
from phoneworld.tasks.composite import goal_params, two_rows
from phoneworld.tasks.instances import draw
from phoneworld.tasks.labels import (
    is_code,
    is_name,
    is_placeholder,
    readable,
    screen_labels,
    title_of,
    without_site,
)
from phoneworld.tasks.schema import _name_column, read_schema, reads
from phoneworld.tasks.wording import holes, variants
from tests.tasks_fixtures import EXAMPLES, example, tiny_shop, with_tasks


def _spec(name: str):
    return tiny_shop() if name == "tiny" else example(name)


@pytest.mark.parametrize("name", [*EXAMPLES, "tiny"])
def test_templates_are_a_valid_task_section(name):
    spec = _spec(name)
    assert spec.tasks
    check(spec)  # every table, column, screen and parameter resolves
    assert parse(emit(spec)) == spec
    names = [t.name for t in spec.tasks]
    assert len(names) == len(set(names))
    columns = {c.name for t in spec.tables for c in t.columns}
    for t in spec.tasks:
        assert draw(spec, t), f"{t.name} has nothing to draw"
        texts = variants(t.instruction)
        assert len(texts) >= 2, t.name  # several phrasings
        params = {p.name for p in t.params}
        assert all(set(holes(v)) <= params for v in texts)
        assert not params & columns, f"{t.name}: a parameter shadows a column"


def test_synthesis_is_deterministic():
    spec = dataclasses.replace(example("shopping"), tasks=())
    assert synthesize_tasks(spec) == synthesize_tasks(spec) == example("shopping").tasks


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_app_has_questions_screens_and_composites(name):
    kinds = {t.kind for t in example(name).tasks}
    assert {"information", "navigation", "composite"} <= kinds
    if name != "messages":  # the compiler infers toggles there; sends in messages
        assert "state" in kinds


def test_state_templates_come_from_effects():
    by_name = {t.name: t for t in tiny_shop().tasks}
    # insert / delete: a collection that grows and shrinks
    assert "add_to_cart" in by_name and "remove_from_cart" in by_name
    add = by_name["add_to_cart"]
    assert [(p.table, p.column) for p in add.params] == [("product", "product_name"),
                                                         ("product", "id")]
    # toggles of flags, only towards the value they do not have after a reset
    assert "turn_off_notifications" in by_name and "turn_on_notifications" not in by_name
    assert "turn_on_dark_mode" in by_name
    # a switch per row of a state table
    assert {"turn_on_setting", "turn_off_setting"} <= set(by_name)
    assert "ask_product_price_product" in by_name
    assert by_name["open_cart"].kind == "navigation"
    # an insert of typed text: send a message the app holds to another thread
    send = by_name["send_to_message"]
    assert [(p.table, p.column) for p in send.params] == [
        ("contact", "contact_name"), ("contact", "id"), ("message", "message_text")]
    # an insert fired by a long press
    assert "add_to_favourite" in by_name


def test_schema_reads_entities_facts_and_screen_names():
    schema = read_schema(example("shopping"))
    products = schema.entity("category_product_list")
    assert products.name == "product_name" and products.noun == "product"
    assert {f.fact for f in products.fields} >= {"price", "size"}
    # a cart screen's totals are bound to its parameter, but they are not a cart item's
    cart = schema.entity("main_cart_cart_list")
    assert "d_cart_total" not in {f.column for f in cart.fields}
    assert schema.screen_label("main_cart") == "Cart"
    assert schema.screen_label("checkout") == "Checkout"


def test_a_written_task_section_is_used_as_is():
    wifi_on = BoolOp("and", (Compare("==", Ref(("title",)), Const("Wi-Fi")), Ref(("checked",))))
    mine = Task(name="wifi_off", kind="state", instruction="Switch off Wi-Fi | No Wi-Fi",
                condition=Not(Call("exists", table="setting", where=wifi_on)))
    spec = dataclasses.replace(tiny_shop(), tasks=(mine,))
    assert templates(spec) == (mine,)
    got = sample_tasks([spec], 10, 0)
    assert [t.template for t in got] == ["wifi_off"]
    assert got[0].instruction in ("Switch off Wi-Fi", "No Wi-Fi")


# -- what any recorded app has: rows to open, texts to read, fields to fill ----------------------

def test_screens_are_named_by_their_title_or_what_opens_them():
    labels = screen_labels(example("shopping"))
    assert labels["main_cart"] == ("Cart", "title")
    assert all(is_name(label) for label, _ in labels.values())
    assert not is_name("1 selected") and not is_name("Settings…") and not is_name("42")
    assert not is_name("A sentence that is far too long to be the name of any screen")
    spec = example("messages")
    for s in spec.screens:  # never a generated name: only what the app shows
        label = screen_labels(spec).get(s.name, ("",))[0]
        assert "_" not in label


def test_a_tapped_row_is_opened_by_its_name():
    by_name = {t.name: t for t in example("shopping").tasks}
    open_category = by_name["open_category"]
    assert open_category.kind == "navigation" and "Open {n}." in open_category.instruction
    assert emit_expr(open_category.condition) == \
        'screen == "category" and param.category_name == n'
    inst = draw(example("shopping"), open_category)
    assert {i.params["n"] for i in inst} >= {"Bakery", "Dairy & Eggs"}
    demo = make_demo([example("shopping")], inst[0])
    assert demo.verified and demo.steps[-2]["screen"] == "main"


_ROWS = """app rows { package "a.b" start main }
content main_list(id int, ctx int, title text, text_view text, text_view_2 text) {
  (1, null, "Longitude", "0.0", "A")
  (2, null, "Latitude", "51.5", "B")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] {
        view TextView [40,210,800,280] text item.title
        view TextView [40,290,800,360] text item.text_view
        view TextView [900,210,1040,280] text item.text_view_2
      }
    }
  }
}
"""


_SONGS = """app songs { package "a.b" start main }
content main_list(id int, ctx int, title text, artist text, more text) {
  (1, null, "Song One", "Wang", "More")
  (2, null, "Song Two", "Wang", "More")
  (3, null, "Song Three", "Wang", "More")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] {
        view TextView [40,210,800,280] text item.title
        view TextView [40,290,800,360] text item.artist
        view TextView [900,290,1040,360] as more text item.more clickable
      }
    }
  }
}
on main.more tap -> stay
"""


def test_a_byline_every_row_shares_is_still_asked_but_a_button_is_not():
    """qqmusic's songs are all by 王有道: "What is written under 与你无关?" is still a
    question (a name under each of three rows, in no button); a "More" button on every
    row, or a byline shared by two rows only, is a fixed label."""
    spec = with_tasks(parse(_SONGS))
    asked = {t.name for t in spec.tasks if t.kind == "information" and
             not t.name.startswith(("at_position_", "position_of_"))}  # (`positions`)
    assert asked == {"read_artist_main_list"}
    read = next(t for t in spec.tasks if t.name == "read_artist_main_list")
    assert {i.params["v"] for i in draw(spec, read)} == {"Wang"}
    two = _SONGS.replace('  (3, null, "Song Three", "Wang", "More")\n', "")
    assert not [t for t in with_tasks(parse(two)).tasks if t.kind == "information"]


def test_a_placeholder_is_no_answer():
    """uber's star rating shows "-.--" until there is one: no "What does it say beside
    Star rating?" answered "-.--"; "0.0" is a value (a longitude of zero)."""
    assert all(is_placeholder(t) for t in ("-.--", "--", " — ", "N/A", "", "..."))
    assert not any(is_placeholder(t) for t in ("0.0", "0", "5.00", "Off", "1 item"))
    text = _ROWS.replace('"A")\n  (2', '"A")\n  (3, null, "Star rating", "-.--", "C")\n  (2')
    assert "Star rating" in text
    spec = with_tasks(parse(text))
    read = next(t for t in spec.tasks if t.name == "read_text_view_main_list")
    assert {i.params["n"] for i in draw(spec, read)} == {"Longitude", "Latitude"}


def test_row_texts_and_headings_are_asked_by_where_they_are():
    spec = with_tasks(parse(_ROWS))
    asked = {t.name: t.instruction for t in spec.tasks if t.kind == "information"}
    assert "What is written under {n}?" in asked["read_text_view_main_list"]
    assert "What is shown next to {n}?" in asked["read_text_view_2_main_list"]
    assert all("text view" not in i for i in asked.values())  # never a resource id's words
    read = next(t for t in spec.tasks if t.name == "read_text_view_main_list")
    assert {(i.params["n"], i.params["v"]) for i in draw(spec, read)} == {
        ("Longitude", "0.0"), ("Latitude", "51.5")}
    headed = next(t for t in example("shopping").tasks if t.name == "read_checkout_1")
    assert "“Order summary”" in headed.instruction and "Checkout" in headed.instruction
    assert headed.condition == Compare("~", Ref(("answer",)), headed.condition.right)


def test_code_names_nothing():
    """activitylauncher lists activities by class name: ".TrampolineActivity" over
    "com.android.providers.downloads.ui.TrampolineActivity". A person reads them, but
    calls nothing by them; a file name or a word with a dot is a name."""
    for code in (".TrampolineActivity", ".accounts.CantAddAccountActivity",
                 "com.android.providers.downloads.ui.TrampolineActivity",
                 "android:id/title", "@+id/save"):
        assert is_code(code) and not is_name(code), code
    for name in ("plugins/", "simple_print_loop", "Node.js", "v1.0.3", "U.S.A.", "Dr. Who",
                 "Settings", "..."):
        assert not is_code(name), name


_ACTIVITIES = """app launcher { package "a.b" start main }
content acts(id int, ctx int, title text, cls text) {
  (1, null, "Launch activity", "de.example.launcher.MainActivity")
  (2, null, "Settings", "de.example.launcher.SettingsActivity")
  (3, null, "Files", "Browse your files")
  (4, null, "Photos", "See your photos")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list acts pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row {
        view TextView [40,210,800,280] text item.title
        view TextView [40,290,800,360] text item.cls
      }
    }
  }
}
"""


def test_code_is_no_answer_either():
    """What a row shows under its name, asked only where a person can say it back:
    "What is written under “Launch activity”?" answered by a class name
    ("de.example.launcher.MainActivity") is not asked (`labels.readable`)."""
    assert not readable("de.szalkowski.activitylauncher.RootLauncherActivity")
    assert not readable(".TrampolineActivity") and readable("Browse your files")
    spec = with_tasks(parse(_ACTIVITIES))
    asked = [i for t in spec.tasks if t.name.startswith("read_") for i in draw(spec, t)]
    assert {i.params["n"] for i in asked} == {"Files", "Photos"}


def test_a_row_is_not_called_by_text_the_recording_typed():
    """uber's search for "Humanoid" lists a place called "Humanoid" under the field that
    says it: "What is written under Humanoid?" points at both, so no task calls a row by
    a text the recordings typed (the text to type is still drawn: "Search for “…”")."""
    spec = example("shopping")
    price = next(t for t in spec.tasks if t.name == "ask_product_price_category_product_list")
    assert "Oat Milk" in {i.params["n"] for i in draw(spec, price)}
    typed = dataclasses.replace(spec, tables=tuple(
        dataclasses.replace(t, rows=((1, None, "oat milk"),))
        if t.name == "search_search_input_typed" else t for t in spec.tables))
    got = {i.params["n"] for i in draw(typed, price)}
    assert "Oat Milk" not in got and "Whole Milk" in got
    search = next(t for t in typed.tasks if t.name == "search_search_search_input")
    assert {i.params["m"] for i in draw(typed, search)} == {"oat milk"}


def test_a_value_picked_from_a_picker_is_no_echo():
    """A picker's values (`<flag>_picked_typed`: uber's "2:30 PM" for “Arrive by”) are
    options the app offers: a row showing one is still called by it; a text typed into
    the same field that it never offered (DroidBot's "Humanoid" in the time field) is."""
    from phoneworld.spec.ast import Column, Table

    spec = example("shopping")
    price = next(t for t in spec.tasks if t.name == "ask_product_price_category_product_list")
    cols = (Column("id", "int"), Column("ctx", "int"), Column("text"))
    picker = dataclasses.replace(spec, tables=(
        *spec.tables, Table("when_typed", "content", cols, ((1, None, "Oat Milk"),
                                                            (2, None, "whole milk"))),
        Table("when_picked_typed", "content", cols, ((1, None, "Oat Milk"),))))
    got = {i.params["n"] for i in draw(picker, price)}
    assert "Oat Milk" in got and "Whole Milk" not in got


def test_what_was_typed_is_searched_for_and_filled_in():
    by_name = {t.name: t for t in example("shopping").tasks}
    search = by_name["search_search_search_input"]
    assert "Search for “{m}”." in search.instruction
    got = {i.params["m"] for i in draw(example("shopping"), search)}
    assert got == {"chips", "snacks"}  # what the recordings typed there
    form = by_name["fill_checkout"]
    assert form.instruction.startswith(
        "On Checkout, fill in Full name “{m}”, Street address “{m2}”, City “{m3}”, "
        "ZIP code “{m4}” and tap “Place order”.")
    (inst,) = draw(example("shopping"), form)
    assert make_demo([example("shopping")], inst).verified


def test_a_screen_that_gives_way_by_itself_is_no_place_to_go():
    """An ad titled "Ad" is a screen with a title, until it is timed (`wait`): then no
    task names it (no "Navigate to the 广告 screen")."""
    from tests.shop import splash_shop_spec

    spec = splash_shop_spec()
    untimed = dataclasses.replace(spec, transitions=tuple(
        t for t in spec.transitions if t.action != "wait"))
    assert screen_labels(untimed).get("splash") == ("Ad", "title")
    assert "splash" not in screen_labels(spec)
    assert not any("splash" in str(t.condition) for t in synthesize_tasks(spec))


def test_a_screen_named_by_a_button_that_says_what_it_does_is_reached_by_pressing_it():
    """Duolingo's "START +10 XP" opens a lesson: the task presses it, it does not call
    the lesson "the START +10 XP screen"; a button that says where it goes ("Search")
    still names its screen."""
    from phoneworld.spec.ast import View
    from tests.shop import with_page

    start = View(cls="android.widget.TextView", bounds=(40, 2200, 1040, 2300),
                 id="com.shop:id/learnButton", name="learn", text=Const("START +10 XP"),
                 flags=("clickable",))
    spec = with_page(start, "session")
    assert screen_labels(spec)["session"] == ("START +10 XP", "button")
    (task,) = [t for t in synthesize_tasks(spec) if t.name == "open_session"]
    assert variants(task.instruction)[0] == "Tap “START +10 XP”."
    assert "screen" not in task.instruction


def test_a_page_opened_by_a_text_button_is_reached_by_pressing_it():
    """uber's “Leave Now” is a drop-down button whose page ("When do you want to be picked
    up?") has no title: "Tap “Leave Now”.", never "Navigate to the Leave Now screen."; an
    icon button's description ("Search") or a tab's label still names its page, and so
    does a label a tab gives too, whatever button also says it."""
    from phoneworld.spec.ast import Screen, Transition, View
    from tests.shop import shop_spec

    spec = shop_spec()

    def opened_by(*openers: tuple[str, str]):
        views = tuple(View(cls=cls, bounds=(40 + 200 * k, 2200, 200 + 200 * k, 2300),
                           name=f"w{k}", text=Const(text) if cls != "android.widget.ImageButton"
                           else None, desc=Const(text) if cls == "android.widget.ImageButton"
                           else None, flags=("clickable",))
                      for k, (cls, text) in enumerate(openers))
        page = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400))
        screens = tuple(dataclasses.replace(s, root=dataclasses.replace(
            s.root, children=(*s.root.children, *views))) if s.name == "home" else s
            for s in spec.screens) + (Screen("picker", "P1", page, package="com.shop"),)
        return dataclasses.replace(spec, screens=screens, transitions=(
            *spec.transitions, *(Transition("home", v.name, "tap", "picker", count=1)
                                 for v in views)))

    pressed = opened_by(("android.widget.Button", "Leave Now"))
    assert screen_labels(pressed)["picker"] == ("Leave Now", "button")
    (task,) = [t for t in synthesize_tasks(pressed) if t.name == "open_picker"]
    assert variants(task.instruction)[0] == "Tap “Leave Now”."
    assert "screen" not in task.instruction
    assert screen_labels(opened_by(("com.google.android.material.button.MaterialButton",
                                    "Leave Now")))["picker"] == ("Leave Now", "button")
    assert screen_labels(opened_by(("android.widget.ImageButton", "Filters")))["picker"] == \
        ("Filters", "opener")
    assert screen_labels(opened_by(("android.widget.Button", "Filters"),
                                   ("android.widget.LinearLayout", "Filters")))["picker"] == \
        ("Filters", "opener")


def test_a_label_in_the_middle_of_the_top_bar_titles_its_screen_whatever_its_id():
    """qqmusic's album page says “专辑” in the middle of its top bar, under an id that says
    nothing of a title ("ehs"): it is the page's title, a place to go; the same label at
    the bar's left edge, with that id, is not (a tab, a clock)."""
    from phoneworld.spec.ast import Screen, Transition, View
    from tests.shop import shop_spec

    spec = shop_spec()
    w = spec.width

    def album(x0: int) -> Screen:
        head = View(cls="android.widget.TextView", bounds=(x0, 170, x0 + 100, 230),
                    id="com.shop:id/ehs", text=Const("Album"))
        return Screen("album", "P1", View(cls="android.widget.FrameLayout",
                                          bounds=(0, 0, w, spec.height), children=(head,)),
                      package="com.shop")
    opener = View(cls="android.widget.ImageView", bounds=(40, 2200, 140, 2300),
                  id="com.shop:id/cover", name="cover", flags=("clickable",))
    screens = tuple(dataclasses.replace(s, root=dataclasses.replace(
        s.root, children=(*s.root.children, opener))) if s.name == "home" else s
        for s in spec.screens)
    into = (*spec.transitions, Transition("home", "cover", "tap", "album", count=1))
    centred = dataclasses.replace(spec, screens=(*screens, album(w // 2 - 50)),
                                  transitions=into)
    aside = dataclasses.replace(spec, screens=(*screens, album(40)), transitions=into)
    assert screen_labels(centred)["album"] == ("Album", "title")
    assert "album" not in screen_labels(aside)


def test_a_top_bar_label_whose_id_says_title_titles_its_screen():
    """uber's Uber Pro page says “Uber Pro” at the left of its top bar, by the back button,
    under the id `hub_title`: its title, a place to go ("Go to Uber Pro", not "Press
    “Learn about Uber Pro”"); a `subtitle`, or a `header_title` below the bar (a tier's
    name on a card: "Blue"), titles nothing."""
    from phoneworld.spec.ast import Screen, Transition, View
    from tests.shop import shop_spec

    spec = shop_spec()

    def hub(rid: str, top: int = 170):
        head = View(cls="android.widget.TextView", bounds=(154, top, 420, top + 60),
                    id=f"com.shop:id/{rid}", text=Const("Uber Pro"))
        page = Screen("hub", "P1", View(cls="android.widget.FrameLayout",
                                        bounds=(0, 0, spec.width, spec.height),
                                        children=(head,)), package="com.shop")
        opener = View(cls="android.widget.ImageView", bounds=(40, 2200, 140, 2300),
                      id="com.shop:id/pro", name="pro", flags=("clickable",))
        screens = tuple(dataclasses.replace(s, root=dataclasses.replace(
            s.root, children=(*s.root.children, opener))) if s.name == "home" else s
            for s in spec.screens)
        return dataclasses.replace(spec, screens=(*screens, page), transitions=(
            *spec.transitions, Transition("home", "pro", "tap", "hub", count=1)))

    assert screen_labels(hub("hub_title"))["hub"] == ("Uber Pro", "title")
    assert screen_labels(hub("toolbarTitle"))["hub"] == ("Uber Pro", "title")
    assert "hub" not in screen_labels(hub("toolbar_subtitle"))
    assert "hub" not in screen_labels(hub("ub__loyalty_header_title", top=655))


def test_a_heading_under_a_row_of_buttons_is_no_title():
    """duolingo's “Section 1: Rookie” sits in the top tenth, centred, but under the bar of
    buttons (language, streak, gems, hearts): a heading of the content, not the page's
    title; the same label with nothing above it is one."""
    from phoneworld.spec.ast import Screen, View
    from tests.shop import shop_spec

    spec = shop_spec()
    w = spec.width
    head = View(cls="android.widget.TextView", bounds=(w // 2 - 190, 223, w // 2 + 190, 282),
                id="com.shop:id/sectionTitle", text=Const("Section 1: Rookie"))
    streak = View(cls="android.view.ViewGroup", bounds=(271, 63, 435, 189),
                  id="com.shop:id/menuStreak", name="streak", flags=("clickable",))

    def page(*kids: View) -> Screen:
        return Screen("path", "P1", View(cls="android.widget.FrameLayout",
                                         bounds=(0, 0, w, spec.height), children=kids),
                      package="com.shop")

    assert title_of(page(head), spec) == "Section 1: Rookie"
    assert title_of(page(streak, head), spec) == ""


def test_a_sheet_over_the_page_is_tapped_open_not_gone_to():
    """wikipedia's “More” opens a sheet (Settings, About, Help) at the bottom of a window
    whose backdrop closes it: "Tap the “More” button.", not "Show me More."; a page of
    its own, its labels from the top, is gone to."""
    from phoneworld.spec.ast import Screen, Transition, View
    from tests.shop import shop_spec

    spec = shop_spec()
    w, h = spec.width, spec.height
    more = View(cls="android.widget.TextView", bounds=(880, 2250, 1040, 2350),
                id="com.shop:id/more", name="more", text=Const("More"), flags=("clickable",))
    screens = tuple(dataclasses.replace(s, root=dataclasses.replace(
        s.root, children=(*s.root.children, more))) if s.name == "home" else s
        for s in spec.screens)

    def opened(top: int) -> str:
        backdrop = View(cls="android.view.View", bounds=(0, 0, w, h),
                        id="com.shop:id/touch_outside", flags=("clickable",))
        item = View(cls="android.widget.TextView", bounds=(0, top, w, top + 140),
                    id="com.shop:id/settings_row", name="settings_row",
                    text=Const("Support us"), flags=("clickable",))
        sheet = Screen("sheet", "P1", View(cls="android.widget.FrameLayout",
                                           bounds=(0, 0, w, h), children=(backdrop, item)),
                       package="com.shop")
        got = dataclasses.replace(spec, screens=(*screens, sheet), transitions=(
            *spec.transitions, Transition("home", "more", "tap", "sheet", count=1)))
        (task,) = [t for t in synthesize_tasks(got) if t.name == "open_sheet"]
        return variants(task.instruction)[0]

    assert opened(1700) == "Tap “More”."
    assert opened(400) == "Open More."


def test_a_switch_text_that_shows_its_state_names_it_without_the_state():
    """Wikipedia's switch reads "Image dimming (in Dark theme) ON": a task turns off
    “Image dimming (in Dark theme)”, never “... ON”."""
    from tests.conftest import DATA

    text = (DATA / "specs" / "tasks_shop.pw").read_text(encoding="utf-8").replace(
        'as dark_switch desc "Dark theme"', 'as dark_switch text "Dark theme ON"')
    spec = with_tasks(dataclasses.replace(parse(text), tasks=()))
    said = [t.instruction for t in spec.tasks if t.name.startswith("turn_on_dark_mode")]
    assert said and all("“Dark theme”" in s and " ON”" not in s for s in said)


_PAGES = """app pages { package "a.b" start main }
content main_list(id int, ctx int, title text, mode text) {
  (1, null, "Alpha", "ON")
  (2, null, "Beta", "OFF")
  (3, null, "Gamma", "ON")
  (4, null, "Ghost", "ON")
}
content menu_list(id int, ctx int, label text) {
  (1, 1, "Share Alpha")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list main_list where item.id != 4 pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] text item.title
        view Switch [900,210,1040,280] text item.mode checkable
        view ImageButton [1000,300,1070,390] as more desc "More" clickable
      }
    }
  }
}
screen page P1 param main_list {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "Download the other app"
  }
}
screen menu P1 param main_list {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list menu_list where item.ctx == param.id pitch 200 vertical {
      view TextView [40,210,800,280] text item.label
    }
  }
}
on main.row tap -> page with item
on main.more tap -> menu with item
"""


def test_a_page_that_shows_nothing_of_the_row_that_opened_it_is_not_opened_by_it():
    """qqmusic's share targets each open one "Download QQ" page, and a row's menu was
    recorded for one row only: "Show me 朋友圈" names no place a person could tell they
    reached. A page bound to its row (a title `param.title`) is opened by the row. A
    page with a title of its own is a place still, called by that title (no row)."""
    spec = with_tasks(parse(_PAGES))
    assert not [t for t in spec.tasks if t.name == "open_menu"]
    (page,) = [t for t in spec.tasks if t.name == "open_page"]
    assert "Go to “Download the other app”." in page.instruction and not page.params
    bound = _PAGES.replace('text "Download the other app"', "text param.title")
    opened = [t for t in with_tasks(parse(bound)).tasks if t.name == "open_page"]
    assert opened and "Open {n}." in opened[0].instruction


def test_a_switch_that_says_its_state_is_asked_about():
    spec = with_tasks(parse(_PAGES))
    (ask,) = [t for t in spec.tasks if t.name == "ask_switch_main_list"]
    assert "Is {n} on or off?" in ask.instruction
    got = {(i.params["n"], i.params["v"]) for i in draw(spec, ask)}
    # "Ghost" is in no list a person sees: never drawn
    assert got == {("Alpha", "ON"), ("Beta", "OFF"), ("Gamma", "ON")}


def test_no_composite_changes_a_row_and_asks_about_the_same_row():
    """Parameters from one table are one row: "Turn off X, then tell me the summary of
    X" asks about what was just changed."""
    seen = 0
    for name in EXAMPLES:
        for t in example(name).tasks:
            if t.kind != "composite" or not isinstance(t.condition, BoolOp):
                continue
            a, b = t.condition.items[:2]
            if "answer" in reads(b) and "screen" not in reads(a):
                tables = [{p.table for p in t.params if p.name in reads(x)} for x in (a, b)]
                assert not tables[0] & tables[1], t.name
                seen += 1
    assert seen


def test_a_name_that_reads_as_a_word_is_quoted():
    from phoneworld.tasks.wording import fill

    assert fill("Open {n}.", {"n": "default"}) == "Open “default”."
    assert fill("Open {n}.", {"n": "Downloads"}) == "Open Downloads."
    assert fill("Enter “{m}”.", {"m": "hello"}) == "Enter “hello”."
    assert fill("Open {n}.", {"n": "Click on top right + to add a list"}) == \
        "Open “Click on top right + to add a list”."
    # a row that is a person's sentence, and a name recorded with a space at its end
    assert fill("Go to {n}.", {"n": "I found an item"}) == "Go to “I found an item”."
    assert fill("Show me {n}.", {"n": "Ratings "}) == "Show me Ratings."
    assert fill("Type “{m}”.", {"m": "hi "}) == "Type “hi ”."  # typed: as the checker wants


_SWIPED = """app swiped { package "a.b" start main }
content main_list(id int, ctx int, title text) {
  (1, null, "Milk")
  (2, null, "Eggs")
}
content other_list(id int, ctx int, title text) {
  (1, null, "Bread")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,1000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] text item.title
      }
    }
    view ListView [0,1000,1080,2000] list other_list pitch 200 vertical {
      view LinearLayout [0,1000,1080,1200] as other clickable {
        view TextView [40,1010,800,1080] text item.title
      }
    }
  }
}
screen edit P1 param main_list {
  view FrameLayout [0,0,1080,2400] {
    view EditText [40,100,1000,200] as title text param.title editable
  }
}
screen page P1 param other_list {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,1000,200] text param.title
  }
}
on main.row tap -> stay
on main.row swipe -> edit with item
on main.other tap -> page with item
on main.other swipe -> page with item
"""


def test_a_row_a_recorded_swipe_opens_is_opened_by_swiping_it():
    """onelist: "Swipe an item right to edit it". A swipe that led where a tap on the
    same rows leads was a slip of the finger: no gesture of its own to plan with."""
    spec = with_tasks(parse(_SWIPED))
    (edit,) = [t for t in spec.tasks if t.name == "open_edit"]
    assert "Tap" not in edit.instruction and "Open {n}." in edit.instruction
    inst = next(i for i in draw(spec, edit) if i.params["n"] == "Eggs")
    demo = make_demo([spec], inst)
    assert demo.verified
    assert [a["action_type"] for a in demo.actions[:-1]] == ["swipe"]
    (page,) = [t for t in spec.tasks if t.name == "open_page"]
    demo = make_demo([spec], draw(spec, page)[0])
    assert demo.verified and "swipe" not in [a["action_type"] for a in demo.actions]


_ICON = """app icon { package "a.b" start main }
flag pw: bool = false
flag pw2: bool = false
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,600,180] text "Lists"
    view ImageView [700,100,800,180] as menu_arrow desc "Show menu"
    view ImageButton [40,400,140,500] as eye checked pw desc "Show password" clickable checkable
    view ImageButton [40,600,140,700] as eye2 checked pw2 desc "Show password" clickable checkable
  }
}
screen settings P1 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,600,180] text "Settings"
  }
}
on main.menu_arrow tap -> settings
on main.eye tap -> stay { toggle pw }
on main.eye2 tap -> stay { toggle pw2 }
"""


def test_a_view_a_recording_tapped_to_some_effect_is_tapped_though_not_clickable():
    """onelist's "⌄" is an ImageView inside a clickable bar: the tree does not call it
    clickable, but a person's tap on it opens Settings."""
    spec = with_tasks(parse(_ICON))
    (nav,) = [t for t in spec.tasks if t.name == "open_settings"]
    demo = make_demo([spec], draw(spec, nav)[0])
    assert demo.verified and demo.actions[0]["action_type"] == "click"


def test_two_switches_that_say_the_same_on_one_screen_are_not_asked_for():
    """Wikipedia's "Show password" by each password field: no "Turn on Show password"
    that could mean either."""
    spec = with_tasks(parse(_ICON))
    assert not [t for t in spec.tasks if t.kind == "state"]
    one = _ICON.replace('as eye2 checked pw2 desc "Show password"',
                        'as eye2 checked pw2 desc "Show PIN"')
    said = {t.instruction for t in with_tasks(parse(one)).tasks if t.kind == "state"}
    assert any("“Show password”" in s for s in said) and any("“Show PIN”" in s for s in said)


def test_what_is_beside_a_heading_is_not_under_it_but_a_table_row_heads_nothing():
    """uber's ride list: “UberX” with its seats, an icon and its fare on its line, then
    “Affordable rides, all to yourself” under it: asked. A cart's “Delivery” with its
    value beside it over “Total” with its own (a sum): a table's rows, no heading; an
    icon's name ("Person multiple") heads nothing."""
    from phoneworld.spec.ast import Screen, View
    from phoneworld.tasks.screentexts import screen_texts

    def text(b, said, cls="View"):
        return View(cls, b, text=Const(said))

    ride = (text((313, 1466, 462, 1535), "UberX"),
            text((481, 1477, 528, 1524), "Person multiple", "Image"),
            text((541, 1471, 566, 1529), "4"), text((852, 1466, 1009, 1535), "$8.62"),
            text((313, 1532, 855, 1590), "Affordable rides, all to yourself"))
    cart = (text((40, 300, 300, 360), "Delivery"), text((800, 300, 1040, 360), "Free"),
            text((40, 362, 300, 420), "Total"),
            View("TextView", (800, 362, 1040, 420), text=Ref(("total",))))
    spec = parse(_ROWS)
    pages = dataclasses.replace(spec, screens=(
        *spec.screens,
        Screen("ride", "P1", View("FrameLayout", (0, 0, 1080, 2400), children=ride)),
        Screen("cart", "P1", View("FrameLayout", (0, 0, 1080, 2400), children=cart))))
    asked = {t.label: t.task.condition.right for t in
             screen_texts(pages, {}, frozenset({"ride", "cart"}))}
    assert asked == {"UberX": Const("Affordable rides, all to yourself")}


def test_a_heading_that_two_pages_answer_differently_is_asked_of_neither():
    """uber: “Arrive by” heads a different time on two unnamed pages: "What is written
    under “Arrive by”?" has no one answer."""
    from phoneworld.spec.ast import Screen, View
    from phoneworld.tasks.screentexts import screen_texts

    def page(name: str, answer: str) -> Screen:
        texts = (View("TextView", (40, 300, 600, 360), text=Const("Arrive by")),
                 View("TextView", (40, 362, 600, 420), text=Const(answer)))
        return Screen(name, "P1", View("FrameLayout", (0, 0, 1080, 2400), children=texts))

    spec = parse(_ROWS)
    one = dataclasses.replace(spec, screens=(*spec.screens, page("a", "ASAP"),
                                             page("b", "ASAP")))
    assert len(list(screen_texts(one, {}, frozenset({"a", "b"})))) == 1
    two = dataclasses.replace(spec, screens=(*spec.screens, page("a", "ASAP"),
                                             page("b", "3:00 PM")))
    assert not list(screen_texts(two, {}, frozenset({"a", "b"})))
    assert len(list(screen_texts(two, {}, frozenset({"a"})))) == 1  # b: nobody gets there


_BOXES = """app boxes { package "a.b" start main }
state main_list(id int, ctx int, title text, checked bool) {
  (1, null, "Dark theme", true)
  (2, null, "Use GPS", false)
  (3, null, "Latitude", null)
}
content pick_list(id int, ctx int, text1 text, checked bool) {
  (1, null, "Light", true)
  (2, null, "Sepia", false)
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,1000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] text item.title
        view CheckBox [900,210,1040,280] as box checked item.checked checkable
      }
    }
    view ListView [0,1000,1080,2000] list pick_list pitch 200 vertical {
      view CheckedTextView [0,1000,1080,1200] as t1 text item.text1 checked item.checked checkable
    }
  }
}
"""


def test_a_checkbox_row_is_asked_on_or_off_and_a_choice_is_not():
    """aeondroid's settings checkboxes show no "ON": the answer is what the box shows.
    The choices of a single-choice list are no switches ("Is Sepia on or off?")."""
    spec = with_tasks(parse(_BOXES))
    asks = {t.name: t for t in spec.tasks if t.kind == "information"}
    assert {n for n in asks if not n.startswith(("at_position_", "position_of_"))} == {
        "ask_on_main_list", "ask_off_main_list"}  # (and where each row stands: positions)
    on = draw(spec, asks["ask_on_main_list"])
    assert {i.params["n"] for i in on} == {"Dark theme"}  # the row whose box is ticked
    (off,) = draw(spec, asks["ask_off_main_list"])
    assert off.params["n"] == "Use GPS"  # "Latitude" has no box: never asked
    assert make_demo([spec], off).verified
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "status", "goal_status": "complete"})
    assert not off.check(m).success


_STEPS = """app steps { package "a.b" start main }
flag size: int = 100
flag dim: bool = true
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,600,180] text "Font size"
    view TextView [40,185,600,240] text choose(size == 100, "100% (Default)", fixed(size, 0) + "%")
    view TextView [40,300,140,400] as up desc "Increase text size" clickable
    view Switch [40,500,1040,600] as dm text choose(dim, "Dim ON", "Dim OFF") checked dim checkable
  }
}
on main.up tap -> stay when size + 10 <= 130 { set size = size + 10 }
on main.up tap -> stay
on main.dm tap -> stay { toggle dim }
"""


def test_a_stepped_number_is_brought_to_each_value_it_can_take():
    """Wikipedia's font size: A+ adds 10 up to 180%: "Set “Font size” to 120%.", in the
    words the screen shows the value with; a switch whose text says its state by
    `choose` is named by the words both states share."""
    spec = with_tasks(parse(_STEPS))
    steps = {t.name: t for t in spec.tasks if t.name.startswith("set_size_") and
             t.kind == "state"}
    assert sorted(steps) == ["set_size_110", "set_size_120", "set_size_130"]
    assert "Set “Font size” to 120%." in steps["set_size_120"].instruction
    (inst,) = draw(spec, steps["set_size_130"])
    demo = make_demo([spec], inst)
    assert demo.verified and len(demo.actions) == 4  # three taps on A+, then done
    (dim,) = [t for t in spec.tasks if t.name == "turn_off_dim"]
    assert "“Dim”" in dim.instruction and "ON" not in dim.instruction


def test_a_switch_of_its_own_is_asked_on_or_off_by_its_state_when_asked():
    """ajsha's “check this”: "Is “Dim” on or off?", answered by the flag as it is then
    ("on" after a reset, "off" once switched); no composite switches it and asks it. Two
    switches that say the same on one screen are asked only when they agree."""
    spec = with_tasks(parse(_STEPS))
    (ask,) = [t for t in spec.tasks if t.name == "ask_dim"]
    assert ask.kind == "information" and "Is “Dim” on or off?" in ask.instruction
    (inst,) = draw(spec, ask)
    assert make_demo([spec], inst).verified
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "answer", "text": "on"})
    assert inst.check(m).success
    m.reset()
    m.step({"action_type": "click", "index": next(
        e["index"] for e in m.observe("elements") if e.get("checkable"))})
    m.step({"action_type": "answer", "text": "on"})
    assert not inst.check(m).success
    assert not [t for t in spec.tasks if t.kind == "composite" and "turn_off_dim" in t.name
                and "ask_dim" in t.name]
    twin = _STEPS.replace("flag dim: bool = true", "flag dim: bool = true\nflag d2: bool = false") \
        .replace("checked dim checkable\n", "checked dim checkable\n"
                 "    view Switch [40,700,1040,800] text \"Dim\" checked d2 checkable\n")
    assert "d2 checkable" in twin
    assert not [t for t in with_tasks(parse(twin)).tasks if t.name == "ask_dim"]


def test_a_popup_one_row_opens_that_shows_nothing_of_it_is_no_place_either():
    """qqmusic's 朋友圈 opens a "Download WeChat" popup: no "Show me 朋友圈". A full page
    only one row opens (wikipedia's App theme) is that row's place."""
    one_row = _PAGES.replace("on main.row tap -> page with item",
                             "on main.row tap -> page with item when item.id == 2")
    assert [t for t in with_tasks(parse(one_row)).tasks if t.name == "open_page"]
    page = 'view FrameLayout [0,0,1080,2400] {\n    view TextView [40,100,800,180] text "Download'
    assert page in one_row
    popup = one_row.replace(page, 'view FrameLayout [150,900,930,1400] {\n    '
                                  'view TextView [200,1000,800,1080] text "Download')
    assert not [t for t in with_tasks(parse(popup)).tasks if t.name == "open_page"]


def test_a_row_switch_whose_text_turns_with_it_is_still_a_switch():
    """#20's switch texts: `update ... set checked = not item.checked, switch_widget =
    choose(...)`: still "Turn on X" for the row (activitylauncher's settings)."""
    text = _BOXES.replace(
        "        view CheckBox [900,210,1040,280] as box checked item.checked checkable",
        "        view CheckBox [900,210,1040,280] as box checked item.checked checkable\n"
        "        view TextView [600,210,700,280] text item.word")
    text = text.replace("state main_list(id int, ctx int, title text, checked bool) {\n"
                        '  (1, null, "Dark theme", true)\n  (2, null, "Use GPS", false)\n'
                        '  (3, null, "Latitude", null)',
                        "state main_list(id int, ctx int, title text, checked bool, word text) {\n"
                        '  (1, null, "Dark theme", true, "ON")\n'
                        '  (2, null, "Use GPS", false, "OFF")\n  (3, null, "Latitude", null, "")')
    text += ('on main.box tap -> stay {\n  update main_list set checked = not item.checked, '
             'word = choose(item.checked, "OFF", "ON") where id == item.id\n}\n')
    spec = with_tasks(parse(text))
    turns = {t.name for t in spec.tasks if t.kind == "state"}
    assert {"turn_on_main_list", "turn_off_main_list"} <= turns


_CHOICES = """app choices { package "a.b" start settings }
state settings_list(id int, ctx int, title text, summary text) {
  (1, null, "Theme", "System")
  (2, null, "Size", "Small")
  (3, null, "About", "")
}
content options(id int, ctx int, text1 text) {
  (1, 1, "System")
  (2, 1, "Light")
  (3, 1, "Dark")
  (4, 2, "Small")
  (5, 2, "Large")
}
screen settings P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Settings"
    view ListView [0,200,1080,1000] list settings_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] as title text item.title
        view TextView [40,290,800,360] as summary text item.summary
      }
    }
  }
}
screen pick P1 param settings_list {
  modules dialog
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,600,1080,1400] list options where item.ctx == param.id pitch 150 vertical {
      view CheckedTextView [0,600,1080,750] as text1 text item.text1 clickable
    }
  }
}
on settings.row tap -> pick with item when item.id == 1 or item.id == 2
on pick.text1 tap -> settings { update settings_list set summary = item.text1 where id == param.id }
"""


def test_two_goals_on_rows_of_one_table_draw_two_different_rows():
    """#21: a settings list's goals pair up across its rows ("Set Theme to Dark, then
    tell me the summary of Size"), each goal on its own row, never both on one ("Set
    Theme to Dark, then tell me the summary of Theme" asks what was just set); each such
    instance replays to success."""
    spec = with_tasks(parse(_CHOICES))
    pairs = [t for t in spec.tasks if t.kind == "composite" and "settings_list" in two_rows(t)]
    assert {t.name for t in pairs} >= {"choose_summary_settings_list__ask_summary_settings_list",
                                        "choose_summary_settings_list__open_pick"}
    for t in pairs:
        first, second = goal_params(t)
        assert first + second == t.params
        found = draw(spec, t)
        assert found
        for inst in found:
            rows = [{inst.params[p.name] for p in goal if p.table == "settings_list" and
                     p.column == "title"} for goal in (first, second)]
            assert all(rows) and rows[0] != rows[1], inst.instruction
            demo = make_demo([spec], inst)
            assert demo is not None and demo.verified, inst.instruction
    asked = {i.instruction for t in pairs for i in draw(spec, t)}
    assert "Set Theme to Dark, then tell me the summary of Size." in asked


def test_goal_params_splits_a_composite_by_what_each_half_reads():
    spec = with_tasks(parse(_CHOICES))
    (pair,) = [t for t in spec.tasks
               if t.name == "choose_summary_settings_list__ask_summary_settings_list"]
    first, second = goal_params(pair)
    assert [p.name for p in first] == ["k", "o", "c", "n"]  # read ones first, then `n`
    assert [p.name for p in second] == ["v", "n2"]
    one = next(t for t in spec.tasks if t.kind == "information")
    assert goal_params(one) == (one.params,) and two_rows(one) == frozenset()


def test_a_row_is_called_by_a_whole_name_word_first():
    """spoon_live's broadcasts show a title over the DJ's nickname: the row is called by
    its title; a `nickname` names a row where nothing is named outright."""
    assert _name_column(["text_title", "text_nickname"]) == "text_title"
    assert _name_column(["text_nickname", "text_view"]) == "text_nickname"
    assert _name_column(["text_view_package_name", "text_view_activity_title"]) == \
        "text_view_package_name"


def test_a_web_page_is_called_without_its_sites_name():
    assert without_site("Legal | Uber", "Uber") == "Legal"
    assert without_site("Uber | Payments", "uber") == "Payments"
    assert without_site("Greenlight Oakland - Edgewater", "Uber") == \
        "Greenlight Oakland - Edgewater"
    assert without_site("Uber", "Uber") == "Uber"
    assert without_site("A | B | Uber", "Uber") == "A | B | Uber"  # no one page name


def test_a_dialog_option_is_chosen_for_the_row_it_was_opened_on():
    """activitylauncher's Theme and Language dialogs: "Set Theme to Dark.", one instance
    per (row, option the dialog lists for that row), none for the option the row already
    shows, none pairing a row with another row's option; the demo taps the row, then the
    option."""
    spec = with_tasks(parse(_CHOICES))
    (choose,) = [t for t in spec.tasks if t.name.startswith("choose_") and
                 t.kind == "state"]
    drawn = {(i.params["n"], i.params["o"]) for i in draw(spec, choose)}
    assert drawn == {("Theme", "Light"), ("Theme", "Dark"), ("Size", "Large")}
    inst = next(i for i in draw(spec, choose) if i.params["o"] == "Dark")
    assert inst.instruction in {"Set Theme to Dark.", "Change Theme to Dark.",
                                "Choose Dark for Theme."}
    demo = make_demo([spec], inst)
    assert demo.verified and len(demo.actions) == 3  # the row, the option, then done
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "status", "goal_status": "complete"})
    assert not inst.check(m).success
    # A composite that sets a row never asks about that row's summary afterwards (about
    # another row's, yes: two rows of one table, `composite.two_rows`).
    for t in spec.tasks:
        if t.kind == "composite" and t.name.startswith("choose_") and "summary" in t.instruction:
            assert "settings_list" in two_rows(t)
            assert all(i.params["n"] != i.params["n2"] for i in draw(spec, t))


def test_a_row_of_another_layout_is_chosen_for_by_the_name_it_shows():
    """onelist's "Theme" row names itself in another column (`title_2`) than the other
    rows: "Set Size to Large.", "How many entries does “Size” list?" and, the options
    being a popup, "Open Size." still."""
    text = _CHOICES.replace("title text, summary text)", "title text, summary text, "
                            "title_2 text)") \
        .replace('(1, null, "Theme", "System")', '(1, null, "Theme", "System", "")') \
        .replace('(2, null, "Size", "Small")', '(2, null, "", "Small", "Size")') \
        .replace('(3, null, "About", "")', '(3, null, "About", "", "")') \
        .replace("        view TextView [40,290,800,360] as summary text item.summary\n",
                 "        view TextView [40,290,800,360] as summary text item.summary\n"
                 "        view TextView [40,210,800,280] text item.title_2\n")
    assert "item.title_2" in text and '"Size")' in text
    spec = with_tasks(parse(text))
    by = [t for t in spec.tasks if t.name.endswith("_by_title_2") and t.kind == "state"]
    assert [(i.params["n"], i.params["o"]) for t in by for i in draw(spec, t)] == \
        [("Size", "Large")]
    assert "How many entries does “Size” list?" in {
        variants(t.instruction)[0] for t in spec.tasks if t.name.startswith("count_")}
    popup = with_tasks(parse(text.replace(
        "modules dialog\n  view FrameLayout [0,0,1080,2400] {",
        "modules dialog\n  view FrameLayout [100,600,980,1400] {")))
    (opens,) = [t for t in popup.tasks if t.name == "open_pick_by_title_2"]
    assert [i.params["n"] for i in draw(popup, opens)] == ["Size"]


def test_a_popup_of_a_rows_options_is_opened_only_for_rows_it_lists_options_for():
    """onelist's Theme dialog, opened by a tap on any Settings row (one recorded tap on
    "Theme"): "Open Theme", never "Open About" (an empty popup by the same tap)."""
    text = _CHOICES.replace("on settings.row tap -> pick with item when item.id == 1 or "
                            "item.id == 2", "on settings.row tap -> pick with item") \
        .replace("screen pick P1 param settings_list {\n  modules dialog\n"
                 "  view FrameLayout [0,0,1080,2400] {",
                 "screen pick P1 param settings_list {\n  modules dialog\n"
                 "  view FrameLayout [100,600,980,1400] {")
    assert "[100,600,980,1400]" in text and "when item.id == 1" not in text
    spec = with_tasks(parse(text))
    (opens,) = [t for t in spec.tasks if t.name == "open_pick"]
    assert {i.params["n"] for i in draw(spec, opens)} == {"Theme", "Size"}


def test_a_rows_own_list_is_counted_where_all_of_it_is_in_view():
    """ajsha's "examples/" lists nine files: "How many entries does “examples/” list?",
    answered by the count of the rows listed under it, seen on that row's page; a list
    longer than its view is counted by nobody; no composite asks it and opens that page."""
    spec = with_tasks(parse(_CHOICES))
    counts = {variants(t.instruction)[0]: t for t in spec.tasks if t.name.startswith("count_")}
    assert set(counts) == {"How many entries does “Theme” list?",
                           "How many entries does “Size” list?"}
    (inst,) = draw(spec, counts["How many entries does “Theme” list?"])
    demo = make_demo([spec], inst)
    assert demo.verified and demo.actions[-2] == {"action_type": "answer", "text": "3"}
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "answer", "text": "2"})
    assert not inst.check(m).success
    assert not [t for t in spec.tasks if t.kind == "composite" and "count_" in t.name and
                "open_pick" in t.name]
    tall = _CHOICES.replace("list options where item.ctx == param.id pitch 150",
                            "list options where item.ctx == param.id pitch 400")
    assert tall != _CHOICES
    counted = [variants(t.instruction)[0] for t in with_tasks(parse(tall)).tasks
               if t.name.startswith("count_")]
    assert counted == ["How many entries does “Size” list?"]


_PROFILE = """app prof { package "a.b" start profile }
content people(id int, ctx int, name text, more text) {
  (1, null, "Hiroshi", "Learn about Pro")
  (2, null, "", "")
}
content ratings(id int, ctx int, label text, value text) {
  (1, 1, "Star rating", "4.9")
  (2, 1, "Cancellation rate", "2%")
}
screen profile P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,1000] list people pitch 400 vertical {
      view LinearLayout [0,200,1080,600] as row {
        view TextView [40,210,800,280] as name text item.name
        view Button [40,300,800,380] as more text item.more clickable
      }
    }
  }
}
screen pro P1 param people {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,600,1080,1400] list ratings where item.ctx == param.id pitch 150 vertical {
      view LinearLayout [0,600,1080,750] as rating {
        view TextView [40,610,500,700] text item.label
        view TextView [600,610,1000,700] text item.value
      }
    }
  }
}
on profile.more tap -> pro with item when item.name != ""
"""


def _counts(text: str) -> dict:
    spec = with_tasks(parse(text))
    return {variants(t.instruction)[0]: (spec, t) for t in spec.tasks
            if t.name.startswith("count_")}


def test_a_count_names_its_list_not_a_person_beside_the_button_that_opened_it():
    """uber's "Uber Pro" page, opened by a button on the driver's row, lists his ratings
    and shows nothing of him: "How many entries does “Hiroshi” list?" names a person.
    A list is counted by its row where its screen shows the row (or is the row's alone:
    `_CHOICES`' dialogs), else by its screen's title, else not at all."""
    assert _counts(_PROFILE) == {}
    top = "screen pro P1 param people {\n  view FrameLayout [0,0,1080,2400] {\n"
    assert top in _PROFILE
    titled = _PROFILE.replace(top, top + '    view TextView [40,100,600,180] text "Uber Pro"\n')
    ((said, (spec, task)),) = _counts(titled).items()
    assert said == "How many entries does “Uber Pro” list?"
    (inst,) = draw(spec, task)
    assert make_demo([spec], inst).verified
    shown = titled.replace('text "Uber Pro"', "text param.name")
    assert list(_counts(shown)) == ["How many entries does “Hiroshi” list?"]


_DRILL = """app drill { package "a.b" start home }
content files(id int, ctx int, name text) {
  (1, null, "Music")
  (2, null, "Photos")
  (3, null, "Docs")
  (4, 1, "Music")
  (5, 1, "Photos")
  (6, 1, "Docs")
  (7, 1, "song.mp3")
  (8, 2, "Music")
  (9, 2, "Photos")
  (10, 2, "beach.jpg")
  (11, 2, "Docs")
}
screen home P0 {
  view FrameLayout [0,0,1080,2400] {
    view Button [40,200,600,300] as browse text "Browse" clickable
  }
}
screen files P0 param files {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Files"
    view ListView [0,200,1080,2200] list files where item.ctx == param.id pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] text item.name
      }
    }
  }
}
on home.browse tap -> files
on files.row tap -> files with item
"""


def test_a_folder_row_is_opened_where_it_lists_something():
    """activitylauncher's apps expand in place to show their activities (a drill-down:
    the list's own screen opened on the row): "Open AndroFish." where activities were
    recorded under it, not for an app that shows nothing new when tapped ("Docs")."""
    spec = with_tasks(parse(_DRILL))
    (opens,) = [t for t in spec.tasks if t.name.startswith("open_files") and t.params]
    drawn = {i.params["n"]: i for i in draw(spec, opens)}
    assert set(drawn) == {"Music", "Photos"}
    assert make_demo([spec], drawn["Photos"]).verified


_TICKS = """app ticks { package "a.b" start settings }
state settings_list(id int, ctx int, title text, summary text) {
  (1, null, "Theme", "")
  (2, null, "Size", "")
  (3, null, "About", "")
}
state options(id int, ctx int, text1 text, checked bool) {
  (1, 1, "System", true)
  (2, 1, "Light", false)
  (3, 1, "Dark", false)
  (4, 2, "Small", true)
  (5, 2, "Large", false)
}
screen settings P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Settings"
    view ListView [0,200,1080,1000] list settings_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] as title text item.title
        view TextView [40,290,800,360] as summary text item.summary
      }
    }
  }
}
screen pick P1 param settings_list {
  modules dialog
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,600,1080,1400] list options where item.ctx == param.id pitch 150 vertical {
      view CheckedTextView [0,600,1080,750] as text1 text item.text1 checked item.checked
        clickable checkable
    }
  }
}
on settings.row tap -> pick with item when item.id == 1 or item.id == 2
on pick.text1 tap -> settings { update options set checked = id == item.id where ctx == param.id }
"""


def test_a_single_choice_without_a_write_is_chosen_by_its_tick():
    """aeondroid's "Planetary hours indicator style" dialog: the row shows nothing of the
    option, the dialog ticks it: "Select Planets for ...", one instance per option not
    ticked after a reset, checked on the tick, verified by tapping the row, the option."""
    spec = with_tasks(parse(_TICKS))
    (select,) = [t for t in spec.tasks if t.name.startswith("select_") and t.kind == "state"]
    drawn = {(i.params["n"], i.params["o"]) for i in draw(spec, select)}
    assert drawn == {("Theme", "Light"), ("Theme", "Dark"), ("Size", "Large")}
    inst = next(i for i in draw(spec, select) if i.params["o"] == "Dark")
    assert inst.instruction in {"Select Dark for Theme.", "Choose Dark under Theme.",
                                "Set Theme to Dark."}
    demo = make_demo([spec], inst)
    assert demo.verified and len(demo.actions) == 3
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "status", "goal_status": "complete"})
    assert not inst.check(m).success
    assert not [t for t in spec.tasks if t.name.startswith("choose_")]


def test_the_option_a_dialog_shows_ticked_is_asked_for():
    """aeondroid's "Planetary hours indicator style" dialog shows "Chakras" ticked: "What
    is Planetary hours indicator style set to?", answered by the option ticked after a
    reset, one instance per row; an option list no recording showed ticked or not (a
    `null` tick) is asked nothing."""
    spec = with_tasks(parse(_TICKS))
    (ask,) = [t for t in spec.tasks if t.name.startswith("ask_selected_")]
    drawn = {(i.params["n"], i.params["o"]) for i in draw(spec, ask)}
    assert drawn == {("Theme", "System"), ("Size", "Small")}
    inst = next(i for i in draw(spec, ask) if i.params["n"] == "Theme")
    assert inst.instruction in {"What is Theme set to?", "Which option is selected for Theme?",
                                "Tell me which option is ticked for Theme."}
    demo = make_demo([spec], inst)
    assert demo.verified and demo.actions[-2] == {"action_type": "answer", "text": "System"}
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "answer", "text": "Light"})
    assert not inst.check(m).success
    unseen = with_tasks(parse(_TICKS.replace(", true)", ", null)").replace(", false)", ", null)")))
    assert not [t for t in unseen.tasks if t.name.startswith("ask_selected_")]


def test_a_page_title_is_no_heading_to_ask_about_but_a_dialog_title_is():
    """uber's Profile page: "What does “Profile” say?" asks the page's title for its
    subtitle; activitylauncher's Disclaimer dialog: its title and its message."""
    from phoneworld.spec.ast import Screen, View
    from phoneworld.tasks.screentexts import screen_texts

    def page(name: str, modules: tuple[str, ...]) -> Screen:
        texts = (View("TextView", (40, 300, 600, 360), text=Const("Profile")),
                 View("TextView", (40, 362, 600, 420), text=Const("Customers can see it")))
        return Screen(name, "P1", View("FrameLayout", (0, 0, 1080, 2400), children=texts),
                      modules=modules)

    spec = parse(_ROWS)
    for modules, asked in (((), 0), (("dialog",), 1)):
        one = dataclasses.replace(spec, screens=(*spec.screens, page("p", modules)))
        assert len(list(screen_texts(one, {"p": "Profile"}, frozenset({"p"})))) == asked
        # uber's "Appointment Details" heading on the "Appointment details" page
        assert len(list(screen_texts(one, {"p": "PROFILE"}, frozenset({"p"})))) == asked


def test_composites_pair_goals_on_one_screen_or_one_step_apart_first():
    """aeondroid paired "Enable GPS" (Settings) with a moon phase's time (the main page):
    a pair on one screen, or on two one step apart, comes before such a pair."""
    from phoneworld.tasks.composite import Base, Names, composites

    def base(name: str, kind: str, screen: str, touches: str) -> Base:
        t = Task(name=name, kind=kind, instruction=f"Do {name}.",
                 condition=Compare("==", Ref((name,)), Const(True)))
        return Base(t, clauses=(f"do {name}",), asks=f"the {name}", touches=touches,
                    screen=screen)

    spec = parse(_ROWS)
    state = base("gps", "state", "settings", "gps")
    far, near = base("moon", "information", "main", "answer"), \
        base("toasts", "information", "about", "answer")
    names = Names(spec)
    (first, _) = list(composites([state, far, near], names, {}))
    assert first.name == "gps__moon"  # no step joins the screens: diagonal order
    (first, _) = list(composites([state, far, near], names, {},
                                 frozenset({("settings", "about")})))
    assert first.name == "gps__toasts"


_CELLS = """app cells { package "a.b" start main }
content blocks(id int, ctx int, title text, a text, b text, c text, d text, e text, f text) {
  (1, null, "Mine", "Activity centre", "22 tasks to do", "", "", "", "")
  (2, null, "Mine", "", "", "Members", "Custom sound", "Play all", "(15)")
  (3, null, "Mine", "Starts at: 2023-10-18", "Ends at: 2023-10-19", "", "", "", "")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,1400] list blocks pitch 400 vertical {
      view LinearLayout [0,200,1080,600] {
        view TextView [40,200,800,240] text item.title
        view TextView [40,250,800,320] text item.a
        view TextView [40,325,800,390] text item.b
        view TextView [40,400,800,470] text item.c
        view TextView [40,475,800,540] text item.d
        view TextView [40,580,200,625] text item.e
        view TextView [200,580,300,625] text item.f
      }
    }
  }
}
"""


def test_a_heading_inside_a_one_off_row_is_asked_what_is_under_it():
    """qqmusic's "my music" blocks: "活动中心" over "22个任务待完成" (and a playlist's
    "全部播放" with "(15)" beside it), in a list whose rows are each a different block;
    a heading with digits is a value, never asked; a column that more than two rows fill
    is a column of like things (activitylauncher's activity titles), asked of no row."""
    from phoneworld.tasks.cells import cell_texts
    from phoneworld.tasks.reach import explore

    def asked(spec) -> dict[str, str]:
        return {t.task.instruction.split("“")[1].split("”")[0]: t.task.condition.right.value
                for t in cell_texts(spec, read_schema(spec), explore(spec))}

    spec = parse(_CELLS)
    assert asked(spec) == {"Activity centre": "22 tasks to do", "Members": "Custom sound",
                           "Play all": "(15)"}
    table = spec.tables[0]
    more = dataclasses.replace(table, rows=(*table.rows, (4, None, "Mine", "Shop", "Deals",
                                                          "", "", "", "")))
    assert asked(dataclasses.replace(spec, tables=(more,))) == {"Members": "Custom sound",
                                                                "Play all": "(15)"}
    beside = [t.task.instruction for t in cell_texts(spec, read_schema(spec), explore(spec))
              if "Play all" in t.task.instruction]
    assert beside == ["What is shown next to “Play all”? | What does it say beside “Play "
                      "all”? | Read me what is next to “Play all”."]
    spec = with_tasks(spec)
    (task,) = [t for t in spec.tasks if t.kind == "information" and
               "Activity centre" in t.instruction]
    (inst,) = draw(spec, task)
    assert make_demo([spec], inst).verified


def test_a_value_heads_nothing():
    """aeondroid's About lists "Version 1.0.3", its web address and an e-mail address, one
    under the other: none of them is a heading to ask what is under it."""
    from phoneworld.spec.ast import Screen, View
    from phoneworld.tasks.labels import is_heading
    from phoneworld.tasks.screentexts import screen_texts

    lines = ["License", "GPLv3", "Version 1.0.3", "https://github.com/a/b", "a@b.org",
             "Released under the GPLv3"]
    texts = tuple(View("TextView", (40, 300 + 62 * i, 600, 360 + 62 * i), text=Const(t))
                  for i, t in enumerate(lines))
    about = Screen("about", "P1", View("FrameLayout", (0, 0, 1080, 2400), children=texts))
    spec = parse(_ROWS)
    spec = dataclasses.replace(spec, screens=(*spec.screens, about))
    heads = [t.task.instruction.split("“")[1].split("”")[0]
             for t in screen_texts(spec, {}, frozenset({"about"}))]
    assert heads == ["License"]
    assert is_heading("Arrive by") and not is_heading("Destination • 0 remaining")


_DROPDOWN = """app legal { package "a.b" start main }
content langs(id int, ctx int, name text) {
  (1, null, "Arabic")
  (2, null, "Bulgarian")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view View [66,699,1017,762] text "Select language:"
    view View [66,765,1017,891] text "Bulgarian"
    view View [66,891,1017,1500] text "Menu" {
      view ListView [66,891,1017,1500] list langs pitch 104 vertical {
        view View [66,891,1017,995] text item.name
      }
    }
  }
}
"""


def test_the_name_of_a_view_that_holds_a_list_is_no_text_under_a_heading():
    """uber's legal page: a web drop-down shows “Bulgarian” under “Select language:”, and
    its options under a view whose text, "Menu", is the list's name for a screen reader:
    "What is written under “Bulgarian”?" (answer "Menu") is no question; the choice
    under its label still is."""
    from phoneworld.tasks.screentexts import screen_texts

    asked = {(t.task.instruction.split("“")[1].split("”")[0], str(t.task.condition))
             for t in screen_texts(parse(_DROPDOWN), {}, frozenset({"main"}))}
    assert [head for head, _ in asked] == ["Select language:"]
    assert "Bulgarian" in next(iter(asked))[1]


_LESSON = """app lesson { package "a.b" start main }
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,300,600,360] text "Unit 1"
    view Button [40,2200,1040,2300] as learn text "START +10 XP" clickable
  }
}
screen session P1 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [126,240,323,286] text "NEW WORD"
    view TextView [42,300,1038,380] text "Select the correct image"
  }
}
on main.learn tap -> session
"""


def test_a_text_on_a_page_a_button_opens_is_read_once_the_button_is_pressed():
    """Duolingo's lesson is reached by pressing “START +10 XP”, no place to be on: "Tap
    “START +10 XP” and tell me what is written under “NEW WORD”.", never "On “START +10
    XP”, what does it say under ...?"."""
    from phoneworld.tasks.screentexts import screen_texts

    spec = parse(_LESSON)
    assert screen_labels(spec)["session"] == ("START +10 XP", "button")
    (t,) = screen_texts(spec, {"session": "START +10 XP"}, frozenset({"main", "session"}))
    assert variants(t.task.instruction)[0] == \
        "Tap “START +10 XP” and tell me what is written under “NEW WORD”."
    assert " on “START" not in t.task.instruction


def test_a_column_that_numbers_the_rows_is_asked_as_a_rows_number_in_the_list():
    from phoneworld.tasks.rowtexts import _numbers_rows

    songs = ((1, None, "", ""), (2, None, "1", "Song A"), (3, None, "2", "Song B"),
             (4, None, "3", "Song C"))
    assert _numbers_rows(songs, 3, 2)  # the heading row without a song is not counted
    assert not _numbers_rows(songs[:3], 3, 2)  # two rows number nothing yet
    ranks = ((1, None, "3", "A"), (2, None, "1", "B"), (3, None, "2", "C"))
    assert not _numbers_rows(ranks, 3, 2)  # out of order: a value, not the row's place
    prices = ((1, None, "12", "A"), (2, None, "13", "B"), (3, None, "15", "C"))
    assert not _numbers_rows(prices, 3, 2)


_CHART = """app chart { package "a.b" start main }
content main_list(id int, ctx int, rank text, title text) {
  (1, null, "1", "Song One")
  (2, null, "2", "Song Two (DJ)")
  (3, null, "3", "Song Three")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [400,60,680,140] text "Album"
    view ListView [0,200,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] {
        view TextView [40,210,120,280] text item.rank
        view TextView [160,210,800,280] text item.title
      }
    }
  }
}
"""


def test_a_numbered_row_is_asked_its_number_and_a_number_its_row():
    """qqmusic's album numbers its songs: "What number is “与你无关 (DJ版)” in the list?"
    (a name with brackets quoted) and the other way round, named by the list's screen:
    "What is number 3 in the list on 专辑?"."""
    spec = with_tasks(parse(_CHART))
    number = next(t for t in spec.tasks if t.name == "read_rank_main_list")
    inst = next(i for i in draw(spec, number) if i.params["n"] == "Song Two (DJ)")
    assert "“Song Two (DJ)”" in inst.instruction and "give" not in number.instruction
    assert variants(number.instruction) == [
        "What number is {n} in the list on Album?", "At which number is {n} listed on Album?",
        "Tell me the number shown for {n} in the list on Album."]  # never "which number does"
    at = next(t for t in spec.tasks if t.name == "read_title_main_list_at_rank")
    assert variants(at.instruction)[0] == "What is number {r} in the list on Album?"
    inst = next(i for i in draw(spec, at) if i.params["r"] == "3")
    demo = make_demo([spec], inst)
    assert demo.verified and demo.actions[-2] == {"action_type": "answer", "text": "Song Three"}
    untitled = with_tasks(parse(_CHART.replace('    view TextView [400,60,680,140] text "Album"\n',
                                               "")))
    assert not [t for t in untitled.tasks if t.name.endswith("_at_rank")]


def test_a_place_word_names_the_nearest_text_there():
    from types import SimpleNamespace

    from phoneworld.tasks.rowtexts import _nearest

    def at(*b):
        return SimpleNamespace(bounds=b)

    name = at(40, 200, 800, 260)
    address, availability = at(40, 270, 800, 320), at(40, 330, 800, 380)
    distance, time = at(850, 200, 960, 260), at(980, 200, 1040, 260)
    assert _nearest(name, address, [availability, distance])  # the first line under it
    assert not _nearest(name, availability, [address, distance])
    assert _nearest(name, distance, [time, address]) and not _nearest(name, time, [distance])
    rank, more = at(0, 200, 30, 260), at(0, 300, 30, 330)  # elsewhere on the row
    assert _nearest(name, rank, []) and not _nearest(name, rank, [more])
    # "What else does the row say?" of a row that says more than one thing besides its
    # name (spoon_live's DJ under the title, three counts beside their icons): no answer.
    assert not _nearest(name, rank, [address])


_SHARE = """app share { package "a.b" start main }
content main_list(id int, ctx int, name text) {
  (1, null, "QQ Friends")
  (2, null, "QQ Zone")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "Share"
    view ListView [0,300,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,300,1080,500] as row clickable {
        view TextView [40,310,800,380] text item.name
      }
    }
  }
}
screen download P1 param main_list {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "Download QQ"
    view TextView [40,1100,800,1180] as feedback text "Feedback" clickable
  }
}
screen forum P1 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "QQ Connect"
    view TextView [40,1800,800,1880] as post text "Speak up" clickable
  }
}
screen post P2 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "QQ Connect"
    view EditText [40,300,1040,800] as body editable
  }
}
on main.row tap -> download with item
on download.feedback tap -> forum
on forum.post tap -> post
"""


def test_a_titled_page_any_row_opens_and_a_page_under_its_parents_title_are_places():
    """qqmusic's share sheet opens 下载QQ whichever QQ row is tapped: nothing of the row
    shows there, the page has its own title, so "Go to 下载QQ." is a goal; its 反馈建议
    leads to QQ互联, whose 我要发言 opens a form under the same title: that form is called
    by the button that opens it, not a second "QQ互联" (where no button names it, it
    keeps the title: uber's Help articles under Help)."""
    unnamed = parse(_SHARE.replace('as post text "Speak up" clickable', "as post clickable"))
    assert screen_labels(unnamed)["post"] == ("QQ Connect", "title")
    spec = parse(_SHARE)
    assert screen_labels(spec)["download"] == ("Download QQ", "title")
    assert screen_labels(spec)["post"] == ("Speak up", "opener")
    tasks = {t.name: t for t in synthesize_tasks(spec)}
    for name, label in (("download", "Download QQ"), ("forum", "QQ Connect"),
                        ("post", "“Speak up”")):
        assert variants(tasks[f"open_{name}"].instruction)[1] == f"Go to {label}."
        demo = make_demo([with_tasks(spec)], draw(spec, tasks[f"open_{name}"])[0])
        assert demo is not None and demo.verified


_LISTS = """app lists { package "a.b" start main }
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "1List"
    view ImageButton [900,100,1040,180] as add desc "Add List" clickable
    view ImageButton [40,300,200,400] as sort desc "Sort" clickable
  }
}
screen name P1 {
  modules dialog
  view FrameLayout [100,600,980,1400] {
    view EditText [140,700,940,800] as title editable
  }
}
screen sort_by P1 {
  modules dialog
  view FrameLayout [100,600,980,1400] {
    view TextView [140,620,940,700] id "android:id/alertTitle" text "Sort by"
  }
}
on main.add tap -> name
on main.sort tap -> sort_by
"""


def test_the_button_that_opens_a_dialog_is_pressed_a_titled_dialog_is_no_place():
    """onelist's "Add List" opens a dialog: "Tap “Add List”." is a goal (not "Go to Add
    List": a popup is no place). A dialog with a title of its own names no button."""
    spec = parse(_LISTS)
    tasks = {t.name: t for t in synthesize_tasks(spec)}
    assert variants(tasks["open_name"].instruction)[0] == "Tap “Add List”."
    assert "open_sort_by" not in tasks
    demo = make_demo([with_tasks(spec)], draw(spec, tasks["open_name"])[0])
    assert demo is not None and demo.verified


def test_a_save_that_asks_for_a_name_first_is_pressed_a_page_it_leads_to_is_not_called_so():
    """ajsha's "SAVE" opens a dialog for the file name: "Tap “SAVE”." is a goal, though
    the dialog is not called "SAVE" elsewhere; what tells it is what the button does
    (it opens a dialog to type into), not its word: "保存" and "Speichern" alike. A page
    (no dialog) that "Save" leads to is not "the Save screen", nor is a dialog with
    nothing to type in pressed for by a button that names no place ("SAVE", "OK")."""
    titled = '    view TextView [140,620,940,700] id "android:id/alertTitle" text "Sort by"\n'
    field = '    view EditText [140,700,940,800] as file_name editable\n'
    spec = parse(_LISTS.replace('desc "Sort"', 'desc "SAVE"'))
    tasks = {t.name: t for t in synthesize_tasks(spec)}
    assert "open_sort_by" not in tasks  # titled: the title names it, no button does
    for word in ("SAVE", "保存", "Speichern", "OK"):
        untitled = parse(_LISTS.replace('desc "Sort"', f'desc "{word}"').replace(titled, field))
        tasks = {t.name: t for t in synthesize_tasks(untitled)}
        assert variants(tasks["open_sort_by"].instruction)[0] == f"Tap “{word}”.", word
        assert "sort_by" not in screen_labels(untitled) or word not in ("SAVE", "OK")
    page = parse(_LISTS.replace('desc "Sort"', 'desc "SAVE"').replace(titled, field)
                 .replace("screen sort_by P1 {\n  modules dialog\n", "screen sort_by P1 {\n"))
    assert "open_sort_by" not in {t.name for t in synthesize_tasks(page)}
    for word in ("SAVE", "OK"):
        nothing = parse(_LISTS.replace('desc "Sort"', f'desc "{word}"').replace(titled, ""))
        assert "open_sort_by" not in {t.name for t in synthesize_tasks(nothing)}, word


def test_a_menu_that_pops_up_is_opened_by_pressing_its_button_a_page_is_gone_to():
    """aeondroid's "More options" pops a menu up over part of the screen: "Tap “More
    options”.", not "Navigate to the More options screen."; a page that fills the
    display, opened the same way, is gone to."""
    untitled = _LISTS.replace(
        '    view TextView [140,620,940,700] id "android:id/alertTitle" text "Sort by"\n', "")
    menu = parse(untitled.replace("screen sort_by P1 {\n  modules dialog\n",
                                  "screen sort_by P1 {\n"))
    tasks = {t.name: t for t in synthesize_tasks(menu)}
    assert variants(tasks["open_sort_by"].instruction)[0] == "Tap “Sort”."
    page = parse(untitled.replace("screen sort_by P1 {\n  modules dialog\n  view FrameLayout "
                                  "[100,600,980,1400]", "screen sort_by P1 {\n  view "
                                  "FrameLayout [0,0,1080,2400]"))
    tasks = {t.name: t for t in synthesize_tasks(page)}
    assert variants(tasks["open_sort_by"].instruction)[0] == "Open Sort."


_TIPS = """app tips { package "a.b" start main }
content tips(id int, ctx int, text text) {
  (1, null, "Click on top right + to add a list")
  (2, null, "Swipe an item left to delete it")
  (3, null, "Enjoy the app ! ")
}
content places(id int, ctx int, name text) {
  (1, null, "Downloads")
  (2, null, "Music")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,1000] list tips pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as tip clickable {
        view TextView [40,210,800,280] text item.text
      }
    }
    view ListView [0,1000,1080,2000] list places pitch 200 vertical {
      view LinearLayout [0,1000,1080,1200] as place clickable {
        view TextView [40,1010,800,1080] text item.name
      }
    }
  }
}
screen tip_page P1 param tips {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,1000,200] text param.text
  }
}
screen place_page P1 param places {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,1000,200] text param.name
  }
}
on main.tip tap -> tip_page with item
on main.place tap -> place_page with item
"""


def test_a_row_whose_name_is_a_sentence_is_an_entry_and_an_editor_is_for_editing():
    """onelist's tips ("Click on top right + to add a list") are no places: "Open the
    entry “...”.", not "Show me “...”."; rows with names keep "Go to Music."; a row opened
    in a form that shows it in a field is opened for editing (onelist's swipe)."""
    spec = with_tasks(parse(_TIPS))
    tasks = {t.name: t for t in spec.tasks}
    assert variants(tasks["open_tip_page"].instruction)[0] == "Open the entry {n}."
    assert variants(tasks["open_place_page"].instruction)[3] == "Go to {n}."
    said = {i.instruction for i in draw(spec, tasks["open_tip_page"])}
    assert said and all("entry “" in s and " ”" not in s for s in said)
    inst = draw(spec, tasks["open_tip_page"])[0]
    assert make_demo([spec], inst).verified
    edit = with_tasks(parse(_SWIPED.replace(
        "screen edit P1 param main_list {", "screen edit P1 param main_list {\n  modules form")))
    (opened,) = [t for t in edit.tasks if t.name == "open_edit"]
    assert variants(opened.instruction)[0] == "Open {n} for editing."


def test_a_sentence_opened_for_editing_is_an_entry_not_a_name():
    """onelist's tips open in an editor too: "Open “Access the settings from the "⌄"
    button at the top of the screen” for editing." reads as an order of its own; the
    tip is an entry there as it is anywhere ("Open the entry “...” for editing.")."""
    tips = _SWIPED.replace('"Milk"', '"Access the settings from the ⌄ button at the top"') \
        .replace('"Eggs"', '"Swipe an item left to delete it"') \
        .replace("screen edit P1 param main_list {",
                 "screen edit P1 param main_list {\n  modules form")
    spec = with_tasks(parse(tips))
    (opened,) = [t for t in spec.tasks if t.name == "open_edit"]
    assert variants(opened.instruction) == ["Open the entry {n} for editing.",
                                            "Start editing the entry {n}.",
                                            "Bring up the editor for the entry {n}."]
    said = {i.instruction for i in draw(spec, opened)}
    assert said and all("the entry “" in s for s in said)


_WECHAT = """app wechat { package "a.b" start main }
content main_list(id int, ctx int, name text) {
  (1, null, "QQ Friends")
  (2, null, "Moments")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "Share"
    view ListView [0,300,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,300,1080,500] as row clickable {
        view TextView [40,310,800,380] text item.name
      }
    }
  }
}
screen ask P1 param main_list {
  view FrameLayout [150,900,930,1400] {
    view TextView [430,970,650,1050] text "Get WeChat"
    view TextView [240,1090,840,1230] text "WeChat is not installed. Download it now?"
    view Button [540,1290,925,1400] as ok text "OK" clickable
  }
}
on main.row tap -> ask with item when item.id == 2
"""


def test_a_popup_is_called_by_its_first_line_a_goal_but_no_rows_place():
    """qqmusic's “下载微信” popup over the share sheet: its first line heads the rest, so
    it is called by it ("Go to 下载微信."); the row that leads there does not "open" it
    (no "Open 朋友圈."). One line alone, or a first line that is a button, calls nothing."""
    spec = parse(_WECHAT)
    assert screen_labels(spec)["ask"] == ("Get WeChat", "title")
    tasks = {t.name: t for t in synthesize_tasks(spec)}
    assert variants(tasks["open_ask"].instruction)[1] == "Go to “Get WeChat”."
    assert not [t for t in tasks.values() if t.params and t.name.startswith("open_ask")]
    demo = make_demo([with_tasks(spec)], draw(spec, tasks["open_ask"])[0])
    assert demo is not None and demo.verified
    alone = parse(_WECHAT.replace(
        '    view TextView [240,1090,840,1230] text "WeChat is not installed. Download it now?"\n',
        ""))
    assert "ask" not in screen_labels(alone)
    # A popup that marks its title (a dialog's alertTitle) is its row's: "Open Moments."
    # (aeondroid's About dialog, opened by the About row).
    marked = parse(_WECHAT.replace('text "Get WeChat"', 'id "android:id/alertTitle" '
                                                          'text "Get WeChat"'))
    assert [t for t in synthesize_tasks(marked) if t.params and t.name.startswith("open_ask")]


def test_a_tick_is_selected_for_a_row_named_in_another_column():
    """settings' "Font size" row (of another layout) names itself in `title_2`: its
    dialog's options are selected by that name ("Select Large for Font size."), and the
    demo reaches the dialog from the Display page and ticks the option."""
    spec = example("settings")
    (select,) = [t for t in spec.tasks if t.name.startswith("select_") and t.kind == "state"]
    assert select.params[0].column == "title_2"
    drawn = {(i.params["n"], i.params["o"]) for i in draw(spec, select)}
    assert drawn == {("Font size", "Small"), ("Font size", "Large"), ("Font size", "Largest")}
    inst = next(i for i in draw(spec, select) if i.params["o"] == "Large")
    demo = make_demo([spec], inst)
    assert demo is not None and demo.verified


_ABOUT = """app about { package "a.b" start main }
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Moons"
    view TextView [900,60,1040,140] as more desc "More options" clickable
  }
}
screen about P2 {
  modules dialog
  view FrameLayout [100,600,980,1400] {
    view TextView [140,620,940,700] id "android:id/alertTitle" text "About Moons"
    view TextView [140,720,940,780] text "Version 1.0.3"
    view TextView [140,800,940,860] as site text "https://github.com/moons/app" clickable
    view TextView [140,880,940,940] text "moons@example.org"
    view TextView [140,960,940,1020] text "13.10.2022"
  }
}
on main.more tap -> about
"""


def test_an_address_or_a_version_is_asked_by_its_form():
    """aeondroid's About dialog: its version, web address and email address, known by
    their form in any language (no label names them): "Which version does About Moons
    show?", answered by the text or its number alone; a date is no version."""
    from phoneworld.tasks.patterns import form_of

    assert form_of("Version 1.0.3") == ("version", "1.0.3")
    assert form_of("版本 2.7.50330-dev") == ("version", "2.7.50330")
    assert form_of("13.10.2022") is None and form_of("104.28.217.50") is None
    assert form_of("1.99") is None and form_of("Hello.World") is None
    assert form_of("notes.txt") is None and form_of("www.example.org")[0] == "web"
    spec = with_tasks(parse(_ABOUT))
    asked = {t.name: t for t in spec.tasks if t.name.startswith("ask_")}
    assert set(asked) == {"ask_email_about", "ask_version_about", "ask_web_about"}
    assert variants(asked["ask_version_about"].instruction)[0] == \
        "Which version does About Moons show?"
    (inst,) = draw(spec, asked["ask_version_about"])
    demo = make_demo([spec], inst)
    assert demo.verified
    for said, ok in (("1.0.3", True), ("Version 1.0.3", True), ("1.0", False)):
        m = Machine(spec)
        m.reset()
        m.step({"action_type": "answer", "text": said})
        assert inst.check(m).success == ok, said
    two = with_tasks(parse(_ABOUT.replace('text "13.10.2022"', 'text "help@example.org"')))
    assert "ask_email_about" not in {t.name for t in two.tasks}  # which one: neither


_HOURS = """app hours { package "a.b" start main }
content hours(id int, ctx int, name text, starts text, ends text) {
  (1, null, "Jupiter", "Starts at: 20:00", "Ends at: 21:00")
  (2, null, "Mars", "Starts at: 21:00", "Ends at: 22:00")
  (3, null, "Jupiter", "Starts at: 22:00", "Ends at: 23:00")
  (4, null, "Mars", "Starts at: 23:00", "Ends at: 24:00")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Hours"
    view ListView [0,200,1080,2200] list hours pitch 300 vertical {
      view LinearLayout [0,200,1080,500] {
        view TextView [40,210,800,280] text item.name
        view TextView [40,290,800,360] text item.starts
        view TextView [40,370,800,440] text item.ends
      }
    }
  }
}
"""


def test_rows_that_share_their_names_are_called_by_a_text_that_tells_them_apart():
    """aeondroid's planetary hours: "Jupiter", "Mars", ... each twice, so "What is written
    under Jupiter?" has two answers; each row is called by its start instead (quoted: a
    colon reads as ours). What is asked is a label and a value ("Ends at: 23:00"), so it
    is asked by its label, and the value alone answers: "On the row with “Starts at:
    22:00”, what does “Ends at” say?". Rows whose names tell them apart are called by
    their names as before."""
    spec = with_tasks(parse(_HOURS))
    (read,) = [t for t in spec.tasks if t.name.startswith("read_") and t.kind == "information"]
    drawn = {i.params["n"]: i for i in draw(spec, read)}
    assert set(drawn) == {"Starts at: 20:00", "Starts at: 21:00", "Starts at: 22:00",
                          "Starts at: 23:00"}
    inst = drawn["Starts at: 22:00"]
    assert "“Starts at: 22:00”" in inst.instruction and "“Ends at”" in inst.instruction
    assert "written under" not in inst.instruction
    demo = make_demo([spec], inst)
    assert demo.verified and demo.actions[-2] == {"action_type": "answer",
                                                  "text": "Ends at: 23:00"}
    for said, ok in (("23:00", True), ("Ends at: 23:00", True), ("22:00", False),
                     ("Starts at: 23:00", False)):
        m = Machine(spec)
        m.reset()
        m.step({"action_type": "answer", "text": said})
        assert inst.check(m).success == ok, said
    named = with_tasks(parse(_HOURS.replace('(3, null, "Jupiter"', '(3, null, "Sun"')
                             .replace('(4, null, "Mars"', '(4, null, "Moon"')))
    assert not [t for t in named.tasks if "_by_" in t.name]


def test_a_label_and_value_text_is_told_by_a_colon_or_a_number_after_the_same_words():
    """Language-free: the same words then a colon (any script's), or the same words then a
    date, time or number, on every row, the values not all one."""
    from phoneworld.tasks.pairs import pair_label

    assert pair_label(["Ends at: 21:00", "Ends at: 22:00", ""]) == ("Ends at", "Ends at: ")
    assert pair_label(["结束：21:00", "结束：22:00"]) == ("结束", "结束：")
    assert pair_label(["Updated 2023-10-19", "Updated 2023-10-20"]) == ("Updated", "Updated ")
    assert pair_label(["Ends at: 21:00", "Ends at: 21:00"]) is None  # a fixed text
    assert pair_label(["Ends at: 21:00", "Starts at: 22:00"]) is None  # two labels
    assert pair_label(["12:00 PM", "11:40 AM"]) is None  # values alone
    assert pair_label(["Greenlight Oakland", "8000 Edgewater Drive"]) is None


def test_the_entry_that_lists_a_row_is_asked_for():
    """ajsha's files: "Which entry lists “calculation”?", answered "examples/", the row
    whose own page lists it; a name two rows list is asked of neither; where one row
    alone lists any (uber's one profile and its ratings), nothing is asked."""
    spec = with_tasks(parse(_CHOICES))
    asked = [t for t in spec.tasks if t.name.startswith("ask_parent_")]
    drawn = {i.params[t.params[0].name]: i for t in asked for i in draw(spec, t)}
    assert set(drawn) == {"System", "Light", "Dark", "Small", "Large"}
    inst = drawn["Dark"]
    assert inst.instruction in {"Which entry lists Dark?", "Under which entry is Dark listed?",
                                "Find the entry that lists Dark."}
    demo = make_demo([spec], inst)
    assert demo.verified and demo.actions[-2] == {"action_type": "answer", "text": "Theme"}
    twice = with_tasks(parse(_CHOICES.replace('(5, 2, "Large")', '(5, 2, "Light")')))
    assert {i.params[t.params[0].name] for t in twice.tasks if t.name.startswith("ask_parent_")
            for i in draw(twice, t)} == {"System", "Dark", "Small"}
    one = with_tasks(parse(_CHOICES.replace("when item.id == 1 or item.id == 2",
                                            "when item.id == 1")))
    assert not [t for t in one.tasks if t.name.startswith("ask_parent_")]


_APPS = """app apps { package "a.b" start main }
content apps_list(id int, ctx int, package_name text, activity_title text, activity_class text) {
  (1, null, "App A", "", "")
  (2, null, "", ".Main", "a.Main")
  (3, null, "", "Help", "a.Help")
  (4, null, "App B", "", "")
  (5, null, "", "App B", "b.Main")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Apps"
    view ListView [0,200,1080,2200] list apps_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] {
        view TextView [40,210,800,280] text item.package_name
        view TextView [140,210,800,280] text item.activity_title
        view TextView [140,290,800,360] text item.activity_class
      }
    }
  }
}
"""


def test_rows_of_another_layout_are_called_by_their_own_first_text():
    """activitylauncher's activities under each app's row leave the app's name empty:
    "What is written under Help?" is answered by the class under the activity's title; a
    title that is code (".Main", a class name) calls no row, and one that is also an
    app's name ("App B") calls two rows: asked of neither."""
    spec = with_tasks(parse(_APPS))
    (read,) = [t for t in spec.tasks if "_by_" in t.name]
    drawn = {i.params[read.params[0].name]: i for i in draw(spec, read)}
    assert set(drawn) == {"Help"}
    demo = make_demo([spec], drawn["Help"])
    assert demo.verified and demo.actions[-2] == {"action_type": "answer", "text": "a.Help"}


_NOTES = """app notes { package "a.b" start main }
content main_list(id int, ctx int, title text) {
  (1, null, "Theme")
  (2, null, "Show release note")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] as title text item.title clickable
      }
    }
  }
}
screen notes P1 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,300,600,360] text "Dark Theme"
    view TextView [40,362,1000,420] text "Choose a dark theme in the settings."
  }
}
on main.title tap -> notes with item when item.id == 2
"""


def test_a_heading_on_a_page_with_no_name_is_asked_by_the_way_there():
    """onelist's release notes have no name: "What is written under “Dark Theme”?" says
    not where (a person looks for a Dark Theme option); the one row that opens the page
    does: "Tap “Show release note” and tell me what is written under “Dark Theme”."
    A page any row opens has no one way there: asked as before."""
    from phoneworld.tasks.screentexts import screen_texts, way_in

    spec = parse(_NOTES)
    notes = next(s for s in spec.screens if s.name == "notes")
    assert way_in(spec, notes) == "Show release note"
    (t,) = screen_texts(spec, {}, frozenset({"main", "notes"}))
    assert all("“Show release note”" in v and "“Dark Theme”" in v
               for v in variants(t.task.instruction))
    assert "on the page “Show release note” opens" in t.asks
    any_row = parse(_NOTES.replace(" when item.id == 2", ""))
    assert way_in(any_row, next(s for s in any_row.screens if s.name == "notes")) == ""
    (t,) = screen_texts(any_row, {}, frozenset({"main", "notes"}))
    assert "Show release note" not in t.task.instruction


def test_a_switch_on_a_named_screen_is_worded_without_brackets():
    """ajsha: "First switch “check this” on (AJShA Android Java Shell App); ..." read as
    an aside: the screen is where to go ("Open ... and switch “check this” on")."""
    from phoneworld.tasks import phrases as P

    for phrase in (*P.FLAG_ON, *P.FLAG_OFF):
        assert "(" not in phrase and "{screen}" in phrase


_ROW_SHARE = """app share { package "a.b" start main }
content main_list(id int, ctx int, title text, share text) {
  (1, null, "Song One", "")
  (2, null, "Album", "Share")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view ListView [0,200,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] {
        view TextView [40,210,800,280] text item.title
        view FrameLayout [900,210,1040,280] as share_button clickable {
          view TextView [900,210,1040,280] text item.share
        }
      }
    }
  }
}
screen sheet P1 param main_list {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,2200,1040,2300] as cancel text "Cancel" clickable
  }
}
on main.share_button tap -> sheet with item when item.share != ""
"""


def test_a_button_of_one_row_that_opens_a_page_with_no_name_is_pressed():
    """qqmusic's "分享" on an album's header row opens a share sheet that shows nothing
    of the row and has no name: "Tap “分享”." is a goal. Any row's button, or a tap on
    the row's name, is not that (the name is `open_rows`' "Open {n}.")."""
    from phoneworld.tasks.screentexts import row_button

    spec = with_tasks(parse(_ROW_SHARE))
    sheet = next(s for s in spec.screens if s.name == "sheet")
    assert row_button(spec, read_schema(spec), sheet) == "Share"
    (t,) = [t for t in spec.tasks if t.name == "open_sheet"]
    assert variants(t.instruction)[0] == "Tap “Share”." and draw(spec, t)
    any_row = parse(_ROW_SHARE.replace(' when item.share != ""', ""))
    assert row_button(any_row, read_schema(any_row), sheet) == ""


def test_a_list_under_one_row_is_named_by_that_row():
    """shopping's favourites are all under the account row “Favourites”, whose page they
    list (`where item.ctx == param.id`, title `param.title`): "Add Bananas to the
    Favourites.", never the ambiguous "the list"; with rows under two parents the list
    has no one name."""
    spec = dataclasses.replace(example("shopping"), tasks=())
    add = next(t for t in synthesize_tasks(spec) if t.name == "add_to_favourites_favourite_list")
    assert all("the Favourites" in v and "the list" not in v for v in variants(add.instruction))
    fav = next(t for t in spec.tables if t.name == "favourites_favourite_list")
    two = dataclasses.replace(fav, rows=(fav.rows[0], (2, 2, *fav.rows[0][2:])))
    spec = dataclasses.replace(spec, tables=tuple(two if t is fav else t for t in spec.tables))
    add = next(t for t in synthesize_tasks(spec) if t.name == "add_to_favourites_favourite_list")
    assert all("the list" in v for v in variants(add.instruction))


def test_rows_marked_as_folders_are_asked_about_as_folders(tmp_path):
    """ajsha's load dialog lists “examples/” and “plugins/”, each holding scripts: "Which
    folder holds “help”?" and "How many items are in the folder “examples/”?", not
    "Which entry lists ..."; a name is a folder by its trailing "/" alone."""
    from phoneworld.compiler import compile_traces
    from phoneworld.tasks.counts import is_folder
    from phoneworld.tasks.sample import instances
    from tests.conftest import shared

    assert is_folder("examples/") and is_folder(" plugins/ ")
    assert not is_folder("/") and not is_folder("Music") and not is_folder("a/b")
    (app,) = compile_traces(shared("droidbot", "ajsha"), tmp_path)
    found = instances(app.spec)
    asked = [i for i in found if i.template.startswith(("ask_parent_", "count_"))]
    assert asked and all("folder" in i.instruction and "entr" not in i.instruction
                         for i in asked)
    (help_,) = [i for i in asked if "“help”" in i.instruction]
    assert help_.kind == "information" and "help" in help_.params.values()
    demo = make_demo([app.spec], help_)
    assert demo is not None and demo.verified


_FILES = """app files { package "a.b" start main }
state files(id int, ctx int, title text) {
  (1, null, "examples/")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view Button [40,300,500,400] as load text "LOAD" clickable
  }
}
screen load P1 {
  modules dialog
  view FrameLayout [100,600,980,1400] {
    view ListView [100,700,980,1300] list files pitch 100 vertical {
      view TextView [140,700,940,800] text item.title
    }
  }
}
on main.load tap -> load
"""


def test_a_list_a_dialog_shows_is_not_called_by_the_button_that_opens_it():
    """ajsha's files are listed by the dialog “LOAD” opens: "Add “Hello World” to the
    “LOAD” list with “SAVE”" reads as a list called LOAD; a popup's button says what it
    does, so the list has no name of its own there; nor on a page a text button's words
    open (uber's “Confirm Destination”: no “Confirm Destination” list, #21)."""
    from phoneworld.tasks import phrases as P
    from phoneworld.tasks.synthesize import _collection

    spec = parse(_FILES)
    assert screen_labels(spec)["load"] == ("LOAD", "button")  # a text button's words
    assert _collection(spec, read_schema(spec), "files") == P.UNNAMED_LIST
    page = parse(_FILES.replace("  modules dialog\n  view FrameLayout [100,600,980,1400]",
                                "  view FrameLayout [0,0,1080,2400]"))
    assert screen_labels(page)["load"] == ("LOAD", "button")
    assert _collection(page, read_schema(page), "files") == P.UNNAMED_LIST


_SHEET = """app sheet { package "a.b" start settings }
flag dim: bool = true
state settings_list(id int, ctx int, title text) {
  (1, null, "Language")
  (2, null, "App theme")
}
screen settings P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,60,600,140] text "Settings"
    view ListView [0,200,1080,1000] list settings_list pitch 200 vertical {
      view LinearLayout [0,200,1080,400] as row clickable {
        view TextView [40,210,800,280] as title text item.title
      }
    }
  }
}
screen theme P1 param settings_list {
  modules dialog
  dialog over settings [0,1200,1080,2400]
  view FrameLayout [0,1200,1080,2400] {
    view Switch [40,1400,1040,1500] as dim_switch text "Image dimming" checked dim checkable
  }
}
on settings.row tap -> theme with item when item.id == 2
on theme.dim_switch tap -> stay { toggle dim }
"""


def test_a_switch_on_a_sheet_one_row_opens_is_said_under_that_row():
    """wikipedia's "Image dimming" lies on the theme sheet that Settings' “App theme” row
    opens, which has no name of its own: "Turn off “Image dimming”." says nowhere to
    look; "Tap “App theme” and turn off “Image dimming”." does, and replays. Where any
    row opens the sheet, no row names it."""
    spec = with_tasks(parse(_SHEET))
    tasks = {t.name: t for t in spec.tasks}
    assert variants(tasks["turn_off_dim"].instruction)[0] == \
        "Tap “App theme” and turn off “Image dimming”."
    assert variants(tasks["ask_dim"].instruction)[0] == \
        "Under “App theme”, is “Image dimming” on or off?"
    demo = make_demo([spec], draw(spec, tasks["turn_off_dim"])[0])
    assert demo is not None and demo.verified
    any_row = with_tasks(parse(_SHEET.replace(" when item.id == 2", "")))
    (off,) = [t for t in any_row.tasks if t.name == "turn_off_dim"]
    assert variants(off.instruction)[0] == "Turn off “Image dimming”."


def test_a_page_titled_by_its_own_button_is_gone_to_as_a_page():
    """qqmusic's page titled 下载QQ ("Download QQ") over its 下载QQ button: "Show me
    下载QQ." reads as an order; it is the “下载QQ” page. A title no button says stays a
    place's name ("Go to Download QQ.")."""
    called = _SHARE.replace('as feedback text "Feedback" clickable',
                            'as feedback text "Download QQ" clickable')
    tasks = {t.name: t for t in synthesize_tasks(parse(called))}
    assert variants(tasks["open_download"].instruction) == [
        "Open the “Download QQ” page.", "Go to the “Download QQ” page.",
        "Navigate to the “Download QQ” screen."]
    tasks = {t.name: t for t in synthesize_tasks(parse(_SHARE))}
    assert variants(tasks["open_download"].instruction)[1] == "Go to Download QQ."


_ROW_MENU = """app apps { package "a.b" start main }
content main_list(id int, ctx int, name text) {
  (1, null, "Activity Launcher")
  (2, null, "Files")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text "Apps"
    view ListView [0,300,1080,2000] list main_list pitch 200 vertical {
      view LinearLayout [0,300,1080,500] as row clickable {
        view TextView [40,310,800,380] text item.name
        view ImageButton [900,310,1040,380] as menu desc "Menu" clickable
      }
    }
  }
}
screen menu P1 param main_list {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,100,800,180] text param.name
    view TextView [40,300,800,380] as launch text "Launch" clickable
  }
}
on main.menu tap -> menu with item
"""


def test_a_rows_own_button_is_said_on_that_row():
    """activitylauncher lists the app itself as a row: "Open “Menu” for Activity
    Launcher." reads as the app's menu; the button is the row's: "Open “Menu” on the
    Activity Launcher row."."""
    spec = with_tasks(parse(_ROW_MENU))
    (opens,) = [t for t in spec.tasks if t.name == "open_menu"]
    assert variants(opens.instruction) == [
        "Open “Menu” on the {n} row.", "Tap “Menu” on the {n} row.",
        "Press “Menu” on the {n} row."]
    inst = next(i for i in draw(spec, opens) if i.params["n"] == "Activity Launcher")
    assert " for " not in inst.instruction and make_demo([spec], inst).verified


def test_a_composite_says_the_way_to_a_place_once():
    """wikipedia: "Tap “App theme” and turn off “Image dimming”, then tap “App theme” and
    set “Font size” to 110%." Two goals under one row share their way there: the second
    clause drops it; not where the first may have left the place, nor where the "and"
    is inside a name."""
    from phoneworld.tasks import phrases as P
    from phoneworld.tasks import wording as W
    from phoneworld.tasks.composite import Base, Names, composites, shared_opener

    def under(name: str, phrases: tuple[str, ...], fill: dict[str, str]) -> Base:
        t = Task(name=name, kind="state", instruction=W.join([W.words(p, fill)
                                                              for p in phrases]),
                 condition=Compare("==", Ref((name,)), Const(True)))
        return Base(t, clauses=tuple(W.lower_first(W.words(p, fill)) for p in phrases),
                    touches=name, screen="theme", label=fill["label"])

    dim = under("dim", P.FLAG_OFF_UNDER, {"row": "App theme", "label": "Image dimming"})
    size = under("size", P.STEP_TO_UNDER, {"row": "App theme", "label": "Font size",
                                           "value": "110%"})
    (pair,) = composites([dim, size], Names(parse(_ROWS)), {})
    texts = variants(pair.instruction)
    assert "Tap “App theme” and turn off “Image dimming”, then set “Font size” to 110%." \
        in texts
    assert all(t.count("App theme") == 1 for t in texts), texts
    # another place, a first goal that presses a button, an "and" inside a name: kept
    assert shared_opener("tap “A” and turn off “B”", "tap “C” and turn on “D”") == \
        "tap “C” and turn on “D”"
    assert shared_opener("on Add List, type “Milk” and tap “OK”", "on Add List, type “Eggs”") \
        == "on Add List, type “Eggs”"
    assert shared_opener("open Privacy and security and turn on X",
                         "open Privacy and security and turn off Y") == \
        "open Privacy and security and turn off Y"
    assert shared_opener("go to Settings and enable “Wi-Fi”", "open settings and switch "
                         "“Sync” off") == "switch “Sync” off"


def test_typed_text_is_added_only_by_a_button_that_says_so():
    """ajsha's “SAVE” saves a file under the typed name: "Add “Hello World” with “SAVE”"
    is no request a person makes; onelist's “Add List” (or a “+”) adds, and may say so."""
    from phoneworld.tasks.entries import _says_add

    assert _says_add("Add List") and _says_add("+") and _says_add("New folder")
    assert not _says_add("SAVE") and not _says_add("Address") and not _says_add("保存")


def test_a_row_added_and_another_row_opened_make_a_composite():
    """onelist: "Add “Hello World” with the “Add” box, then open the entry “Swipe an
    item left to delete it” for editing" asks two things (the text added is no row the
    page is drawn from); a change of a row and then a row's page of that table, or a
    removal and a page of the table it removes from, are still one thing."""
    from phoneworld.spec.ast import TaskParam
    from phoneworld.tasks.composite import Base, Names, composites

    def exists(table: str, col: str, param: str):
        return Call("exists", table=table, where=Compare("==", Ref((col,)), Ref((param,))))

    add = Base(Task(name="add", kind="state", instruction="Add {m}.",
                    condition=exists("items", "text", "m"),
                    params=(TaskParam("m", "typed", "text"),)),
               clauses=("add {m}",), touches="items", screen="main")
    toggle = Base(Task(name="toggle", kind="state", instruction="Turn on {n}.",
                       condition=exists("items", "text", "n"),
                       params=(TaskParam("n", "items", "text"),)),
                  clauses=("turn on {n}",), touches="items", screen="main")
    remove = Base(Task(name="remove", kind="state", instruction="Remove {n}.",
                       condition=Not(exists("items", "text", "n")),
                       params=(TaskParam("n", "typed", "text"),)),
                  clauses=("remove {n}",), touches="items", screen="main")
    open_row = Base(Task(name="open", kind="navigation", instruction="Open {n}.",
                         condition=Compare("==", Ref(("screen",)), Const("edit")),
                         params=(TaskParam("n", "items", "text"),)),
                    clauses=("open {n}",), touches="screen", screen="edit")
    names = Names(parse(_ROWS))
    pairs = {t.name for t in composites([add, toggle, remove, open_row], names, {})}
    assert "add__open" in pairs
    assert "toggle__open" not in pairs and "remove__open" not in pairs


def test_no_composite_asks_in_a_dialog_and_then_opens_the_page_under_it():
    """activitylauncher: "Tell me what Theme is set to, then open Settings": Theme's
    choices are a dialog over Settings, which is opened to read them; a question read on
    another page still pairs with it."""
    from phoneworld.tasks.composite import Base, Names, composites

    def base(name: str, kind: str, screen: str) -> Base:
        t = Task(name=name, kind=kind, instruction=f"Do {name}.",
                 condition=Compare("==", Ref((name,)), Const(True)))
        return Base(t, clauses=(f"do {name}",), asks=f"the {name}", screen=screen,
                    touches="answer" if kind == "information" else "screen")

    settings = base("settings", "navigation", "settings")
    theme, about = base("theme", "information", "theme"), base("about", "information", "about")
    names = Names(parse(_ROWS))
    pairs = {t.name for t in composites([settings, theme, about], names, {},
                                        over={"theme": "settings"})}
    assert pairs == {"about__settings"}
    assert {t.name for t in composites([settings, theme, about], names, {})} == \
        {"about__settings", "theme__settings"}


_WEB = """app web { package "a.b" start main }
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view View [0,300,150,450] as back_arrow desc "Arrow left" clickable {
      view Image [40,340,110,410] text "Arrow left"
    }
    view Button [200,300,600,400] as rides text "Rides" clickable
  }
}
screen trips P1 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,600,1000,700] text "No trips yet"
  }
}
screen rides P1 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [40,600,1000,700] text "UberXL"
  }
}
on main.back_arrow tap -> trips
on main.rides tap -> rides
"""


def test_a_page_is_not_named_after_the_picture_on_its_button():
    """uber's web trip screens: "Show me “Arrow left”." named a page after the alt text of
    the arrow its button shows; a button's own words still name what it opens."""
    labels = screen_labels(parse(_WEB))
    assert "trips" not in labels
    assert labels["rides"][0] == "Rides"


def test_a_dialog_title_heads_its_message_across_the_dialogs_padding():
    """qqmusic's “下载微信” popup: its message sits a little more than half the title's
    height below it (the dialog's padding); a page's two texts that far apart are no
    heading and its text."""
    from phoneworld.spec.ast import Screen, View
    from phoneworld.tasks.screentexts import screen_texts

    says = "您尚未安装微信，现在去下载？"

    def popup(modules: tuple[str, ...]) -> Screen:
        texts = (View("TextView", (430, 976, 650, 1050), text=Const("下载微信")),
                 View("TextView", (238, 1088, 842, 1232), text=Const(says)))
        return Screen("p", "P1", View("FrameLayout", (155, 901, 925, 1418), children=texts),
                      modules=modules)

    spec = parse(_ROWS)
    for modules, asked in ((("dialog",), [says]), ((), [])):
        one = dataclasses.replace(spec, screens=(*spec.screens, popup(modules)))
        got = list(screen_texts(one, {"p": "下载微信"}, frozenset({"p"})))
        assert [t.task.condition.right.value for t in got] == asked


def test_a_text_that_follows_a_flag_is_asked_as_it_shows_when_asked():
    """wikipedia's theme sheet: “Font size” over "100% (Default)", a text the stepper's
    flag sets: "What is written under “Font size”?" is answered by what it shows then."""
    from phoneworld.spec.ast import BinOp, Call, Flag, Screen, View
    from phoneworld.tasks.checkers import Goal, goal_holds
    from phoneworld.tasks.screentexts import screen_texts

    size = Ref(("size",))
    shows = Call("choose", args=(Compare("==", size, Const(100)), Const("100% (Default)"),
                                 BinOp("+", Call("fixed", args=(size, Const(0))), Const("%"))))
    texts = (View("TextView", (48, 1054, 219, 1198), text=Const("Font size")),
             View("TextView", (48, 1198, 1032, 1263), text=shows))
    sheet = Screen("t", "P1", View("FrameLayout", (0, 0, 1080, 2400), children=texts))
    spec = parse(_ROWS)
    spec = dataclasses.replace(spec, screens=(*spec.screens, sheet),
                               flags=(*spec.flags, Flag("size", "int", 100)))
    (t,) = screen_texts(spec, {}, frozenset({"t"}))
    assert t.task.condition.right == shows and "“Font size”" in t.task.instruction
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "answer", "text": "100% (Default)"})
    assert goal_holds(m, Goal(spec.name, t.task.condition))


def test_icon_names_glued_to_a_web_controls_text_name_no_screen():
    """uber's “Leave Now” button: the web page folds its icons' alt texts into its text
    ("Clock Leave Now Chevron down small"); the page it opens is called “Leave Now”. A
    text beside an icon of its own words ("Add Payment Method") is left whole."""
    from phoneworld.spec.ast import Screen, Transition, View
    from phoneworld.tasks.labels import label_of, picture_names, unglued

    def image(alt: str, x: int) -> View:
        return View("android.widget.Image", (x, 1020, x + 44, 1070), text=Const(alt))

    glued = View("android.widget.Button", (44, 1579, 448, 1680), name="leave",
                 text=Const("Clock Leave Now Chevron down small"), flags=("clickable",))
    plain = View("android.view.View", (132, 1878, 525, 1925),
                 text=Const("Add Payment Method"))
    link = View("android.view.View", (66, 400, 1017, 500), name="hub",
                desc=Const("Return to Legal Hub Arrow right Arrow right"),
                children=(image("Arrow right", 900),), flags=("clickable",))
    page = Screen("page", "P0", View("FrameLayout", (0, 0, 1080, 2400), children=(
        View("TextView", (40, 300, 600, 360), text=Const("Trips")), glued, plain, link,
        image("Clock", 176), image("Chevron down small", 860),
        image("Payment Method", 44))))
    picker = Screen("picker", "P1", View("FrameLayout", (0, 0, 1080, 2400)))
    spec = dataclasses.replace(parse(_ROWS), start="page", screens=(page, picker),
                               transitions=(Transition("page", "leave", "tap", "picker"),))
    pictures = picture_names(spec)
    assert unglued(glued, label_of(glued), pictures) == "Leave Now"
    assert unglued(plain, label_of(plain), pictures) == "Add Payment Method"
    assert label_of(link) == "Return to Legal Hub"  # its own picture, wherever it is
    assert unglued(glued, label_of(glued)) == "Clock Leave Now Chevron down small"
    assert screen_labels(spec)["picker"] == ("Leave Now", "button")  # pressed, no place


_FOLDS = """app folds { package "a.b" start main }
content main_list(id int, ctx int, body text, button text) {
  (1, null, "Your rate is the share of trips you accepted.", "How it is counted")
  (2, null, "High rates mean shorter waits for customers.", "Why it matters")
  (3, null, "Promotions are left out of the rate, always.", "What is left out")
}
screen main P0 {
  view FrameLayout [0,0,1080,2400] {
    view TextView [400,60,680,140] text "Acceptance rate"
    view ListView [0,300,1080,900] list main_list pitch 300 vertical {
      view View [0,300,1080,600] {
        view Button [0,300,1080,400] as fold text item.button clickable
        view TextView [66,420,1017,580] text item.body
      }
    }
  }
}
"""


def test_a_row_called_by_a_paragraph_is_not_asked_what_else_it_shows():
    """uber's folding help rows, each a heading button over a paragraph: "Besides its
    name, what does the “Your acceptance rate is ... 30 days.” entry say?" presumes a
    name; with names on the rows, the question stands."""
    from phoneworld.tasks.composite import Names
    from phoneworld.tasks.rowtexts import row_questions

    def asked(text: str) -> list[str]:
        spec = parse(text)
        return [t.task.instruction for t in row_questions(spec, read_schema(spec),
                                                          Names(spec).new, set())]

    assert not [x for x in asked(_FOLDS) if "what else" in x.lower()]
    named = _FOLDS
    for paragraph, name in (("Your rate is the share of trips you accepted.", "Rate"),
                            ("High rates mean shorter waits for customers.", "Waits"),
                            ("Promotions are left out of the rate, always.", "Promos")):
        named = named.replace(paragraph, name)
    assert [x for x in asked(named) if "what else" in x.lower()]


def test_a_remove_is_asked_only_of_the_rows_whose_tap_removes():
    """(#21) uber's place suggestions: the one tapped that vanished is removed by a tap;
    the others open a page: "Remove “Home” from ..." has no way to be done."""
    from phoneworld.infer.app import infer_app
    from phoneworld.infer.graph import build_graph
    from tests.infer_fixtures import App, button, label, rows, screen, title

    def detail(name):
        return screen(title(name), label("at", f"{name} is 2 km away", 200),
                      button("go", "Go", 400))

    places = [("Use my location",), ("Home",), ("Work",)]
    after = screen(title("Where to"), rows("list", places[1:]))
    tr = (App().show(screen(title("Where to"), rows("list", places))).tap(1, 0).show(after)
          .tap(1, 0).show(detail("Home")).back().show(after)
          .tap(1, 1).show(detail("Work")).trace())
    spec, _ = infer_app("app", build_graph("app", [tr]), [tr])
    spec = dataclasses.replace(spec, tasks=synthesize_tasks(spec))
    removes = [i for t in spec.tasks if t.name.startswith("remove_from") and
               t.kind == "state" for i in draw(spec, t)]
    assert [i.params["n"] for i in removes] == ["Use my location"]
    d = make_demo([spec], removes[0])
    assert d is not None and d.verified
