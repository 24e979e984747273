"""A text longer than its recorded box grows into the room free on its right
(`runtime.wrap`), on the page only."""

from __future__ import annotations

import re

from phoneworld.runtime import Machine
from phoneworld.runtime.advances import advance
from phoneworld.spec.ast import AppSpec, Const, Screen, View

SCALE = 412 / 1080


def _row(title: str, title_bounds=(306, 246, 703, 319), *more: View) -> str:
    """activitylauncher's row: an icon, a title as wide as the title it was recorded
    with, inside a wider layout, and a menu button on the right."""
    row = View(cls="android.widget.LinearLayout", bounds=(0, 240, 1080, 432),
               flags=("clickable",), children=(
                   View(cls="android.widget.ImageView", bounds=(180, 288, 276, 384)),
                   View(cls="android.widget.LinearLayout", bounds=(276, 246, 906, 425),
                        children=(View(cls="android.widget.TextView", bounds=title_bounds,
                                       text=Const(title)), *more)),
                   View(cls="android.widget.ImageButton", bounds=(906, 264, 1050, 408),
                        desc=Const("Menu"), flags=("clickable",))))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 63, 1080, 2400), children=(row,))
    spec = AppSpec(name="a", package="p", start="s", width=1080, height=2400,
                   screens=(Screen("s", "P0", root),))
    m = Machine(spec)
    m.reset()
    return m.observe("html")


def _div(page: str, text: str) -> tuple[float, float, float]:
    m = re.search(r'style="left:([\d.]+)px;top:[\d.]+px;width:([\d.]+)px;height:[\d.]+px;'
                  r'font-size:([\d.]+)px[^"]*"[^>]*><span>' + re.escape(text), page)
    assert m is not None, text
    return float(m[1]), float(m[2]), float(m[3])


def test_a_longer_title_grows_up_to_the_button_on_its_right():
    title = ".notification.CopyCodeActivity"
    left, width, size = _div(_row(title), title)
    assert left == round(306 * SCALE, 1)
    assert width > (703 - 306) * SCALE  # wider than recorded ...
    assert left + width <= round(906 * SCALE, 1) + 0.1  # ... short of the menu button
    assert size >= 16.0 * 0.9  # not shrunk to a speck
    # The element keeps its recorded bounds for the accessibility tree.
    assert f'aria-label="{title}"' in _row(title)


def test_a_title_that_fits_stays_as_recorded_and_a_grown_one_only_as_far_as_it_needs():
    left, width, _ = _div(_row("Files"), "Files")
    assert width == round((703 - 306) * SCALE, 1)
    text = "Activity Launcher Pro"  # a little longer than its box at 16 px
    left, width, size = _div(_row(text, (306, 246, 500, 319)), text)
    # (a hair more than the advances: the page rounds sizes and places)
    assert size == 16.0 and advance(text, 16.0) <= width < advance(text, 16.0) * 1.005 + 1


def test_the_room_ends_at_a_text_beside_it_and_a_box_two_lines_high_does_not_grow():
    title = ".notification.CopyCodeActivity"
    date = View(cls="android.widget.TextView", bounds=(720, 246, 900, 319), text=Const("12:00"))
    left, width, _ = _div(_row(title, (306, 246, 703, 319), date), title)
    assert left + width <= round(720 * SCALE, 1) + 0.1
    tall = _row(title, (306, 246, 703, 425))
    assert re.search(r'class="v x many"[^>]*\n style="[^"]*width:151\.4px;height:68\.3px;'
                     r'[^>]*><span[^>]*>' + re.escape(title), tall)  # wrapped instead


def test_a_grown_text_is_drawn_whole_by_the_painters_drawer():
    """The grown box holds the text as the in-process drawer measures it (its faces'
    advances, at the page's rounded size): no ellipsis where Chromium would show it
    whole (qqmusic's counter: "8 / 2…" in a box grown exactly to the estimate)."""
    import pytest

    from phoneworld.serve.texts import TextDrawer

    drawer = TextDrawer.system()
    if drawer is None:
        pytest.skip("no fontconfig faces here")
    for title in (".notification.CopyCodeActivity", "Activity Launcher Pro", "8 / 200"):
        left, width, size = _div(_row(title, (306, 246, 500, 319)), title)
        runs = drawer.fonts.runs(title, 400)
        assert runs is not None and drawer.fonts.width(runs, size) <= width, title
