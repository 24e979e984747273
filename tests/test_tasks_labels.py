"""Names a person calls things by on web pages: rows without their icons' names, and a
page's own title where its top bar still says another page's."""

from __future__ import annotations

import dataclasses

from phoneworld.spec.ast import Const, Screen, View
from phoneworld.tasks.labels import icon_runs, page_title
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
