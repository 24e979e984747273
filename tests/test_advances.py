"""How wide a text draws (`runtime.advances`), and fitting texts to their boxes by it
(`widgets.fit`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneworld.runtime.advances import advance, em
from phoneworld.runtime.widgets import LEGIBLE, ONE_LINE, fit

LIBERATION = Path("/usr/share/fonts/truetype/liberation")


@pytest.mark.parametrize("face,weight", [("LiberationSans-Regular", 400),
                                         ("LiberationSans-Bold", 700)])
def test_the_table_is_the_faces_advances(face, weight):
    """Every printable ASCII character as wide as the page's Latin face draws it."""
    path = LIBERATION / f"{face}.ttf"
    if not path.is_file():
        pytest.skip(f"{path} is not installed")
    from PIL import ImageFont

    font = ImageFont.truetype(str(path), 1000)
    text = "".join(chr(c) for c in range(0x20, 0x7F))
    for ch in text:
        assert abs(em(ch, weight >= 600) * 1000 - font.getlength(ch)) <= 0.5, ch
    assert advance(text, 20.0, weight) == pytest.approx(font.getlength(text) / 50, rel=0.01)


def test_other_characters():
    assert em("é") == em("e") and em("Ä") == em("A")
    assert em("中") == 1.0 and em("\u0301") == 0.0
    assert advance("Save", 14.0, 700) > advance("Save", 14.0, 400)


def test_a_line_in_a_box_about_its_height_keeps_its_size():
    """(#22) qqmusic's "2 / 200" counter: sampled at 50 app pixels in a box 49 high and
    151 wide (CSS pixels at 412/1080). It keeps about its size; it shrank to 40 when a
    line needed 1.15 sizes of height and the width estimate erred wide."""
    sc = 412 / 1080
    s, lines = fit("2 / 200", 149 * sc, 49 * sc, 50 * sc)
    assert lines == 1 and s / sc >= 47
    assert advance("2 / 200", s) <= 149 * sc  # and it fits: no ellipsis
    assert fit("Settings", 200, 18, 16) == (16.0, 1)
    assert fit("Settings", 200, 16 * ONE_LINE, 16) == (16.0, 1)
    assert fit("Settings", 200, 16 * ONE_LINE - 1, 16)[0] < 16


@pytest.mark.parametrize("text", ["Wi-Fi and mobile data", "Cart (2)", "Téléchargements",
                                  "Downloads · 12 files"])
def test_a_line_too_wide_shrinks_to_just_fit(text):
    w = advance(text, 16.0) * 0.8
    s, lines = fit(text, w, 20, 16.0)
    assert lines == 1 and advance(text, s) <= w and advance(text, s + 0.2) > w


def test_a_line_that_fits_is_never_shrunk_and_a_long_one_stops_at_sixty_percent():
    text = "Holiday photos"
    assert fit(text, advance(text, 16.0) + 0.01, 20, 16.0) == (16.0, 1)
    long = "A very long product description that would never fit " * 3
    assert fit(long, 200, 20, 16.0) == (9.6, 1)  # 60%, then an ellipsis
    s, lines = fit(long, 200, 200, 16.0)
    assert lines > 1 and s <= 16.0


def test_a_box_a_few_pixels_high_keeps_a_legible_size():
    """uber's web view has boxes 2 pixels high: a text starts from 6 there, and what
    its width asks shrinks it to `LEGIBLE` at least (it was fitted to 2.1)."""
    assert fit("carbon_arrow_left", 40, 1.9, 16.0)[0] >= LEGIBLE
    assert fit("Settings", 200, 3.0, 16.0) == (6.0, 1)


def test_a_line_that_fits_is_never_rounded_up_past_its_width():
    """The size is given to 0.1 px: rounded up, a line that just fit would be cut with
    an ellipsis by the page (qqmusic's counter, "8 / 2…")."""
    for k in range(200):
        w = 50.0 + k * 0.137
        for text in ("8 / 200", "Holiday photos", "Wi-Fi"):
            s, lines = fit(text, w, 20.0, 19.074)
            if advance(text, 19.074 * 0.6) <= w:  # (else it ends in an ellipsis)
                assert lines == 1 and advance(text, s) <= w + 1e-9, (text, w, s)
