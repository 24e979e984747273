"""A check widget drawn anew on a plate keeps the recorded radio button (`runtime.checks`),
and the compiler reads the label beside it as the label alone (`visual.sample`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from phoneworld.runtime import Machine
from phoneworld.runtime.checks import indicator, indicators, redraw
from phoneworld.runtime.compose import compose
from phoneworld.runtime.look import Item, ListLook, Look, Mark, ScreenLook, Style
from phoneworld.spec.ast import Compare, Const, ListOf, Ref, View
from tests.shop import home_as

PLATE = "0123456789abcdef.webp"
LABEL = Style(size=40.0, color="#212121", indent=110.0)


def radio(name: str, checked: bool) -> Mark:
    """A recorded radio row's mark: the button at x 30-110 of the row, its label from 110
    on (the ink holds both)."""
    return Mark((0, 0, 1000, 100), name, checked, (30, 20, 500, 80), "#ffffff", LABEL)


def picker(on: int) -> Machine:
    """The shop's home a list of its first six products as radio rows, product `on`
    checked; recorded with two rows, the first checked."""
    row = View(cls="android.widget.CheckedTextView", bounds=(40, 950, 1040, 1050),
               text=Ref(("item", "name")), flags=("clickable", "checkable"),
               checked=Compare("==", Ref(("item", "id")), Const(on)))
    lst = View(cls="android.widget.ListView", bounds=(40, 950, 1040, 1550), name="choices",
               children=(row,), items=ListOf("product", pitch=100, where=Compare(
                   "<=", Ref(("item", "id")), Const(6))))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(lst,))
    items = (Item((40, 950, 1040, 1050), ("Oat milk", "\u2611"), (radio("Oat milk", True),)),
             Item((40, 1050, 1040, 1150), ("Rye bread", "\u2610"),
                  (radio("Rye bread", False),)))
    look = ScreenLook(plate=PLATE, lists=(ListLook(lst.bounds, "#ffffff", items),))
    m = Machine(home_as(root, look=Look({"home": look})))
    m.reset()
    return m


def _row(m: Machine, name: str) -> int:
    return next(i for i, b in enumerate(m.rendered().boxes) if b.text == name)


def test_a_new_row_in_a_recorded_state_keeps_the_plates_radio_button():
    m = picker(1)
    r = m.rendered()
    c = compose(r.look, r.boxes, (1080, 2400))
    i = _row(m, "Apples")  # the sixth row, at y 1450: cut from Rye bread's, unchecked
    assert c.styles[i] is not None and c.styles[i].plate_check
    assert c.styles[i].size == 40.0 and c.styles[i].indent == 110.0
    wipes = [p.rect for p in c.paints if p.color and p.rect[1] >= 1450]
    assert (150, 1470, 540, 1530) in wipes  # the label's ink wiped, from where it starts
    assert not any(x1 < 150 for x1, _, _, _ in wipes)  # the radio button stays
    assert 'class="ind' not in r.html  # and none is drawn over it


def test_a_flipped_row_takes_its_radio_button_from_a_row_recorded_in_that_state():
    m = picker(2)  # Oat milk recorded checked, unchecked now; Rye bread the other way
    r = m.rendered()
    c = compose(r.look, r.boxes, (1080, 2400))
    for name, y, donor_y in (("Oat milk", 950, 1050), ("Rye bread", 1050, 950)):
        i = _row(m, name)
        assert c.styles[i] is not None and c.styles[i].plate_check
        assert any(p.color and p.rect == (70, y + 20, 540, y + 80) for p in c.paints)
        cut = next(p for p in c.paints if p.image == PLATE and p.rect == (70, y + 20, 150, y + 80))
        assert cut.origin == (0, y - donor_y)  # the other row's button, laid here
    assert 'class="ind' not in r.html


def test_indicators_and_redraw():
    m = radio("Oat milk", True)
    assert indicator(m) == (30, 20, 110, 80)
    assert indicator(Mark((0, 0, 1000, 100), "Oat milk", None, (30, 20, 500, 80))) is None
    assert indicator(Mark((0, 0, 1000, 100), "Oat milk", True, (30, 20, 500, 80))) is None
    look = ScreenLook(plate=PLATE, marks=(Mark((40, 300, 1040, 400), "Wi-Fi", True,
                                               (70, 320, 540, 380), "#ffffff", LABEL),))
    donors = indicators(look)
    assert donors == {(100, True): [((30, 20, 110, 80), (40, 300))]}
    box = SimpleNamespace(checkable=True, checked=True)
    got = redraw(radio("Oat milk", False), box, (40, 950), donors)
    assert got is not None and got.kept and got.wipes == ((70, 970, 540, 1030),)
    assert got.cut == ((70, 970, 150, 1030), (0, 650))
    # No recording shows an unchecked one: the page draws it (Material) after the wipe.
    got = redraw(radio("Oat milk", True), SimpleNamespace(checkable=True, checked=False),
                 (40, 950), donors)
    assert got is not None and not got.kept and got.cut is None
    assert redraw(radio("Oat milk", True), SimpleNamespace(checkable=False, checked=False),
                  (0, 0), donors) is None


def test_a_check_widgets_label_style_is_read_without_its_indicator():
    pytest.importorskip("PIL")
    from PIL import Image, ImageDraw, ImageFont

    from phoneworld.visual.sample import text_style

    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 44)
    except OSError:
        pytest.skip("DejaVu Sans is not installed")
    img = Image.new("RGB", (930, 144), "white")
    d = ImageDraw.Draw(img)
    d.ellipse((76, 40, 140, 104), outline=(95, 99, 104), width=6)  # the radio: 64 high
    d.text((216, 45), "Light Theme", fill=(33, 33, 33), font=font)
    px = np.asarray(img)
    style, _, ink = text_style(px, (0, 0, 930, 144), "Light Theme", check=True)
    assert ink is not None and ink[0] <= 76  # the ink holds the radio (a flip wipes it)
    assert 200 <= style.indent <= 216  # the label starts past it
    assert abs(style.size - 44) / 44 < 0.2, style
    plain, _, _ = text_style(px, (0, 0, 930, 144), "Light Theme")
    assert plain.indent < 80 and plain.size > style.size  # read as one, the radio too
