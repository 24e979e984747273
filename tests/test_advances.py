"""How wide a text draws (`runtime.advances`: read from the faces the page is drawn in),
and fitting texts to their boxes by it (`widgets.fit`)."""

from __future__ import annotations

import html

import pytest

from phoneworld.runtime import fonts as fonts_module
from phoneworld.runtime.advances import advance, ems
from phoneworld.runtime.faces import FONTS, FontsMissing
from phoneworld.runtime.fonts import page_fonts
from phoneworld.runtime.widgets import LEGIBLE, ONE_LINE, fit

SAMPLES = [("Settings", 400), ("Wi-Fi and mobile data", 400), ("AVATAR Type", 700),
           ("Téléchargements", 500), ("中文 Zebra", 400), ("3 / 200", 400),
           ("Downloads · 12 files", 400), ("office ffi", 400), ("Привет мир", 400),
           ("Cart (2)", 700), ("ｱｲ 한국어", 400), ("Tuto ❓", 400)]


def test_the_measure_is_what_chromium_lays_out_in_the_faces_it_picks(browser):
    """Each sample's width in a Chromium page in the page's font list, at 100 px, is
    the measure's to 0.05% (an emoji's to half a pixel), and the families Chromium drew
    it in are the ones the measure read (CDP's platform fonts of the span)."""
    page = browser.new_page()
    spans = "".join(f'<div><span id=s{i} style="font-size:100px;font-weight:{w};'
                    f'white-space:pre">{html.escape(t)}</span></div>'
                    for i, (t, w) in enumerate(SAMPLES))
    page.set_content(f"<body style='font-family:{html.escape(FONTS)}'>{spans}</body>")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    for i, (text, weight) in enumerate(SAMPLES):
        width = page.evaluate(
            f"document.getElementById('s{i}').getBoundingClientRect().width")
        # (a colour emoji's bitmap, scaled, advances by a whole pixel in Chromium)
        slack = 0.6 if "❓" in text else 0.0
        assert advance(text, 100.0, weight) == pytest.approx(width, rel=5e-4, abs=slack), text
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f"#s{i}"})
        used = {f["familyName"] for f in
                cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]}
        runs = page_fonts().runs(text, weight)
        assert runs is not None and {r[1].family for r in runs} == used, text
    page.close()


def test_widths_scale_with_the_size_and_the_weight():
    assert advance("Save", 28.0) == pytest.approx(2 * advance("Save", 14.0))
    assert advance("Save", 14.0, 700) > advance("Save", 14.0, 400)
    assert ems("Save", 500) == ems("Save", 400)  # no Medium face: the Regular
    assert ems("中") == pytest.approx(1.0) and ems("a\nb") == ems("ab") and ems("\n") == 0.0
    assert ems("\U000E0100x") > 0  # a character no family has: measured all the same


def test_no_face_installed_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(fonts_module, "_PAGE", [])
    monkeypatch.setattr(fonts_module, "system_faces", lambda: [])
    with pytest.raises(FontsMissing, match="fonts-liberation"):
        page_fonts()
    monkeypatch.setattr(fonts_module, "system_faces", lambda: None)
    with pytest.raises(FontsMissing, match="fc-list"):
        page_fonts()


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
