"""Names a person calls things by on web pages: rows without their icons' names, and a
page's own title where its top bar still says another page's."""

from __future__ import annotations

import dataclasses

from phoneworld.spec.ast import Const, Screen, View
from phoneworld.tasks.labels import (
    icon_runs,
    is_name,
    is_transient,
    page_title,
    place_label,
    readable,
    screen_labels,
)
from tests.tasks_fixtures import tiny_shop


def test_a_run_of_words_starting_several_web_rows_is_an_icon_name():
    rows = ["Location marker 50 Oak St San Francisco, California",
            "Location marker SFCM 50 Oak St, San Francisco",
            "Center Allow location access For perfect pickup experience",
            "Center Fetching... Your current location",
            "Report map Set location on map"]
    assert icon_runs(rows) == {
        rows[0]: "50 Oak St San Francisco, California",
        rows[1]: "SFCM 50 Oak St, San Francisco",
        rows[2]: "Allow location access For perfect pickup experience",
        rows[3]: "Fetching... Your current location"}  # one row's run: nothing tells


def test_rows_that_name_themselves_keep_their_words():
    """A shared start that is a row of its own, one followed by a single word or by a
    small letter, is the rows' own words."""
    assert icon_runs(["English", "English (Australia)", "English (United Kingdom)"]) == {}
    assert icon_runs(["Peak flight hours at SJC", "Peak flight hours at OAK"]) == {}
    assert icon_runs(["Set alarm for work", "Set alarm for gym"]) == {}


def test_last_words_that_alone_tell_rows_apart_are_a_state_icon():
    """... where the same last words tell several rows' states apart (an expander's)."""
    rows = ["Calculator How acceptance rate is calculated Collapse",
            "Calculator How acceptance rate is calculated Expand",
            "Circle i Why acceptance rate matters Expand",
            "Circle i Why acceptance rate matters Collapse", "Two words"]
    assert icon_runs(rows) == {rows[0]: "Calculator How acceptance rate is calculated",
                               rows[1]: "Calculator How acceptance rate is calculated",
                               rows[2]: "Circle i Why acceptance rate matters",
                               rows[3]: "Circle i Why acceptance rate matters"}


def _web_page(bar: str, document: str, shown: str = "Select language:") -> Screen:
    web = View("android.webkit.WebView", (0, 350, 1080, 2100), text=Const(document),
               flags=("scrollable",), children=(
                   View("android.view.View", (60, 700, 1000, 760), text=Const(shown)),))
    root = View("android.widget.FrameLayout", (0, 0, 1080, 2400), children=(
        View("android.widget.TextView", (160, 110, 640, 200), text=Const(bar)), web))
    return Screen("page", "P1", root)


def test_a_web_page_is_called_by_its_document_where_its_bar_says_another_page():
    spec = dataclasses.replace(tiny_shop(), title="Uber")
    assert page_title(_web_page("Uber | Payments", "Legal | Uber"), spec) == "Legal"
    assert page_title(_web_page("Help", "Help | Uber"), spec) == "Help"
    # A bar's title the page also shows is the page's own.
    assert page_title(_web_page("Payments", "Legal | Uber", "Payments"), spec) == "Payments"


def test_what_an_app_shows_while_it_loads_names_nothing_and_answers_nothing():
    """uber's place row "Fetching... Your current location" and its ride button
    "Loading" stood there only until the app had what it fetched (#21): no row is called
    by them, no question answered with them, no screen named so. An ellipsis after a word
    of another kind is a menu entry's or a cut text's; a gerund alone is a name."""
    loading = ("Center Fetching... Your current location", "Fetching... Your current location",
               "Loading", "Loading…", " Loading... ", "Connecting…", "Checking... 2 of 5",
               "Please wait...", "加载中", "正在加载…")
    for text in loading:
        assert is_transient(text) and not readable(text) and not is_name(text), text
    kept = ("Sort by...", "Updating account information", "Trending", "Booking appointments",
            "Following", "Shopping list", "Loading dock 4", "Peak flight hours at SJC",
            "Processing")  # an order's status, shown for days: no word of the list
    for text in kept:
        assert not is_transient(text), text
    assert not is_transient("Greek Yog…") and not readable("Greek Yog…")  # cut: not a name


def test_a_screen_named_by_a_buttons_own_words_names_no_list_on_it():
    """uber's page of places opens from its “Confirm Destination” button: the task
    presses that button to get there, but the places are in no “Confirm Destination”
    list (#21). A tab's or a menu entry's label still names its page ("Settings")."""
    from tests.shop import with_page

    go = View(cls="android.widget.Button", bounds=(40, 2200, 1040, 2300), name="confirm",
              text=Const("Confirm Destination"), flags=("clickable",))
    spec = with_page(go, "places")
    assert screen_labels(spec)["places"] == ("Confirm Destination", "button")
    assert place_label(spec, "places") == ""
    named = {s: label for s, (label, kind) in screen_labels(spec).items() if kind != "button"}
    assert named and all(place_label(spec, s) == label for s, label in named.items())
