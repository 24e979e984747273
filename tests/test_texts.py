"""Texts over plates drawn in this process (`serve.texts`): which divs are read as such,
how they are laid out, and how far their pixels are from Chromium's capture of the same
page (the tolerance the painter's fast path is held to)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from phoneworld.runtime import Machine  # noqa: E402
from phoneworld.runtime.layers import FRAME_WIDTH, page_layers  # noqa: E402
from phoneworld.serve.frame import Frame  # noqa: E402
from phoneworld.serve.textdivs import TextDiv, text_div  # noqa: E402
from phoneworld.serve.texts import TextDrawer  # noqa: E402
from phoneworld.visual.compare import edge_similarity  # noqa: E402
from tests.test_layers import _states  # noqa: E402

EDGE = 0.97
"""The least edge similarity (`visual.compare`) of a frame with texts drawn here to
Chromium's whole capture of its page (measured on the shared traces: 0.983 at worst,
activitylauncher's page of nine wrapped rows; 0.998 and more elsewhere)."""
OFF = 0.02
"""The largest share of a frame's pixels more than 24 levels off Chromium's (measured:
1.3% at worst, the same page; glyph edges, and lines a pixel lower or higher)."""


def _div(text: str, cls: str = "v x one", style: str = "", clamp: int = 0) -> str:
    span = f'<span style="-webkit-line-clamp:{clamp}">' if clamp else "<span>"
    return (f'<div class="{cls}" data-index="3"\n style="left:10.0px;top:20.0px;'
            f'width:200.0px;height:30.0px{style}" aria-label="x">{span}{text}</span></div>')


def test_text_divs_are_read_with_their_style_and_other_divs_are_not():
    t = text_div(_div("oat &lt;b&gt;milk&lt;/b&gt;  and\nrye", "v x many click",
                      ";font-size:14.5px;color:#202020;font-weight:500;text-align:center;"
                      "padding-left:10.3px", clamp=2))
    assert t == TextDiv(box=(10.0, 20.0, 200.0, 30.0), text="oat <b>milk</b> and rye",
                        lines="many", clamp=2, size=14.5, color="#202020", weight=500,
                        align="center", pad=(10.3, 0.0, -1.0), clip=(0.0,) * 4)
    assert text_div(_div("field", "v x one end"), ).lines == "end"
    assert text_div(_div("off", "v x one off")).opacity == 0.5
    empty = text_div('<div class="v x one end click" data-index="0"\n style="left:1.0px;'
                     'top:2.0px;width:3.0px;height:4.0px;font-size:20.3px"></div>')
    assert empty is not None and empty.text == ""
    # Right-to-left and combining marks are read (`TextDrawer.complex` says who draws).
    assert text_div(_div("\u0627\u0644\u0639\u0631\u0628\u064a\u0629")).text == \
        "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"
    assert text_div(_div("e\u0301t\u00e9")) is not None
    # What this module does not follow: the browser draws it.
    assert text_div(_div("nice \U0001F600")) is None  # emoji
    assert text_div(_div("\u202eabc")) is None  # a bidi override
    assert text_div(_div("a\u200db")) is None  # a joiner
    assert text_div(_div("x", "v x one btn")) is None  # a button's background
    assert text_div(_div("x").replace("<span>", '<div class="ind box"></div><span>')) is None
    assert text_div(_div("x", style=";opacity:.3")) is None


@pytest.fixture(scope="module")
def drawer():
    got = TextDrawer.system()
    if got is None:
        pytest.skip("no fontconfig, faces or raqm here: the browser draws every text")
    return got


def test_a_line_too_long_ends_with_an_ellipsis_within_its_box(drawer):
    zoom = 1080 / FRAME_WIDTH
    t = text_div(_div("a rather long label that cannot fit in two hundred pixels",
                      style=";font-size:16.0px;padding-left:10.0px"))
    (line,), size, clip = drawer.layout(t, zoom)[0], *drawer.layout(t, zoom)[1:]
    runs, x, _ = line
    text = "".join(s for s, *_ in runs)
    assert text.endswith("\u2026") and "a rather long" in text
    assert x == pytest.approx((10.0 + 10.0) * zoom)
    assert x + drawer.fonts.width(runs, size) <= (10.0 + 200.0) * zoom + 0.01
    assert clip == (26, 52, 551, 132)  # the box, outward to whole pixels


def test_wrapped_lines_break_at_spaces_and_are_clamped_with_an_ellipsis(drawer):
    zoom = 1080 / FRAME_WIDTH
    words = "one two three four five six seven eight nine ten eleven twelve"
    lines = drawer.layout(text_div(_div(words, "v x many", ";font-size:16.0px", 2)),
                          zoom)[0]
    texts = ["".join(s for s, *_ in runs) for runs, _, _ in lines]
    assert len(texts) == 2 and texts[1].endswith("\u2026")
    assert words.startswith(texts[0]) and not texts[0].endswith(" ")
    assert words[len(texts[0]) + 1:].startswith(texts[1][:-1].rstrip())
    assert lines[1][2] - lines[0][2] == int(1.2 * 16.0 * zoom)  # one line-height apart
    # A word wider than the line is broken anywhere (overflow-wrap: anywhere).
    long = drawer.layout(text_div(_div("android.accounts.ChooseTypeAndAccountActivity",
                                       "v x many", ";font-size:16.0px", 2)), zoom)[0]
    got = "".join(s for runs, _, _ in long for s, *_ in runs)
    assert len(long) == 2 and got == "android.accounts.ChooseTypeAndAccountActivity"


def test_a_field_shows_the_end_of_a_text_too_long_for_it(drawer):
    zoom = 1080 / FRAME_WIDTH
    t = text_div(_div("x" * 80, "v x one end", ";font-size:16.0px"))
    (runs, x, _), = drawer.layout(t, zoom)[0]
    right = x + drawer.fonts.width(runs, 16.0 * zoom)
    assert x < 10.0 * zoom and right == pytest.approx(210.0 * zoom)
    (_, x, _), = drawer.layout(text_div(_div("short", "v x one end")), zoom)[0]
    assert x == pytest.approx(10.0 * zoom)


def test_texts_meet_in_paint_order_and_cjk_comes_from_its_face(drawer):
    zoom = 1080 / FRAME_WIDTH
    a = text_div(_div("\u4f60\u597d world", style=";font-size:16.0px;color:#ff0000"))
    b = text_div(_div("\u4f60\u597d world", style=";font-size:16.0px;color:#0000ff"))
    faces = {face.family for _, face, *_ in drawer.fonts.runs(a.text, 400)}
    assert len(faces) == 2  # Latin from the first family, Han from a CJK one
    both = drawer.rgba([a, b], (0, 0, 600, 140), zoom)
    inked = both[..., 3] > 200
    assert inked.any()
    assert (both[inked][:, 2] > both[inked][:, 0]).all()  # the last one drawn on top
    assert not drawer.rgba([], (0, 0, 600, 140), zoom).any()


def test_inks_are_the_boxes_of_the_rgba_and_texts_that_meet_share_one(drawer):
    """`inks`: each text's ink in its own box (one colour's coverage), texts whose boxes
    meet in one box of their RGBA, no two boxes meeting; laid on clear pixels, `rgba`."""
    zoom = 1080 / FRAME_WIDTH
    a = text_div(_div("Deutsch (Deutschland)", style=";font-size:16.0px;color:#ff0000"))
    b = text_div(_div("Deutsch (Schweiz)", style=";font-size:16.0px;color:#0000ff"))
    far = text_div(_div("English", style=";font-size:16.0px").replace(
        "top:20.0px", "top:80.0px"))
    rect = (0, 0, 600, 300)
    inks = drawer.inks([a, far], rect, zoom)
    assert len(inks) == 2 and all(i.color is not None and i.pixels.ndim == 2 for i in inks)
    met = drawer.inks([a, b, far], rect, zoom)
    assert sorted(i.color is None for i in met) == [False, True]  # a and b share a box
    for got in (inks, met):
        boxes = [(i.x, i.y, i.x + i.pixels.shape[1], i.y + i.pixels.shape[0]) for i in got]
        assert not any(p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]
                       for n, p in enumerate(boxes) for q in boxes[n + 1:])
        for i in got:  # each box is its ink's: none of its edges clear
            alpha = i.pixels if i.color is not None else i.pixels[..., 3]
            assert alpha[0].any() and alpha[-1].any() and alpha[:, 0].any() \
                and alpha[:, -1].any()
    whole = drawer.rgba([a, b, far], rect, zoom)
    laid = np.zeros_like(whole)
    for i in met:
        h, w = i.pixels.shape[:2]
        if i.color is None:
            laid[i.y:i.y + h, i.x:i.x + w] = i.pixels
        else:
            laid[i.y:i.y + h, i.x:i.x + w, :3] = i.color
            laid[i.y:i.y + h, i.x:i.x + w, 3] = i.pixels
    assert np.array_equal(laid, whole)
    part = (30, 25, 200, 60)  # a rectangle cutting them: the inks inside it only
    for i in drawer.inks([a, b, far], part, zoom):
        assert part[0] <= i.x and i.x + i.pixels.shape[1] <= part[2]
        assert part[1] <= i.y and i.y + i.pixels.shape[0] <= part[3]


def _close(frame: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    diff = np.abs(frame.astype(int) - ref.astype(int)).max(axis=2)
    return (edge_similarity(Image.fromarray(np.ascontiguousarray(ref)), frame),
            float((diff > 24).mean()))


def test_frames_with_texts_drawn_here_are_within_the_tolerance_of_chromiums(browser,
                                                                              drawer):
    """The shop's looked states (typed text, a flipped switch, rows removed and drawn on
    the sprite), drawn one after another: what only texts draw costs the browser
    nothing, and each frame is within `EDGE` and `OFF` of Chromium's whole capture."""
    from tests.test_page import PLATE, SPRITE
    from tests.test_painter import _pair, _webp

    assets: dict[str, bytes] = {PLATE: _webp(1080, 2400, 1)}
    painter, _ = _pair(browser, assets, texts=True)
    assert painter.texts is drawer
    for n, m in enumerate(_states()):
        for lst in (lst for s in m.spec.look.screens.values() for lst in s.lists):
            assets[SPRITE] = _webp(*lst.sprite_size, 2)
        _, whole = _pair(browser, assets)
        html = m.observe("html")
        before, drawn = painter.captured, painter.drawn
        f = painter.draw(html, 1080, 2400)
        ref = whole._changed(None, html, 1080, 2400)
        edge, off = _close(f.pixels, ref.pixels)
        assert edge >= EDGE and off <= OFF, (n, edge, off)
        layers = [lay for lay in page_layers(html, (1080, 2400)).layers if not lay.blank]
        texts = [lay for lay in layers if text_div(lay.div) is not None]
        assert (painter.drawn > drawn) == bool(texts), n
        if len(texts) == len(layers):
            assert painter.captured == before, n


def test_a_text_drawn_here_on_a_frame_matches_the_rgba_laid_over_it(drawer):
    t = text_div(_div("Choose an account", style=";font-size:14.6px;color:#202020"))
    f = Frame(np.full((300, 800, 3), 250, np.uint8))
    assert drawer.draw(f, t, 1080 / FRAME_WIDTH)
    ink = f.pixels.min(axis=2) < 128
    assert ink.any() and not ink[:, 560:].any() and not ink[:52].any()


def test_every_shared_screen_drawn_with_texts_here_is_within_the_tolerance(browser, drawer,
                                                                          tmp_path_factory):
    """Each recorded screen of every shared trace with screenshots, in its first
    rendering, drawn with its texts here and by Chromium alone."""
    from tests.test_painter import _pair
    from tests.test_visual_real import FOLDERS, _compile

    if not FOLDERS:
        pytest.skip("../shared/traces is not here")
    from phoneworld.apps import load_app

    checked = 0
    for folder in FOLDERS:
        got = _compile(folder, tmp_path_factory)
        if isinstance(got, Exception):
            raise got
        spec = load_app(got[0]).spec
        if spec.look is None:
            continue
        assets = {n: spec.look.asset(n) for n in spec.look.names()}
        painter, whole = _pair(browser, assets, texts=True)
        m = Machine(spec)
        m.reset()
        size = (spec.width, spec.height)
        for screen in sorted(spec.look.screens):
            try:
                html = m.preview(screen)
            except Exception:  # a screen that needs what a preview cannot give
                continue
            pl = page_layers(html, size)
            if pl is None or not any(text_div(lay.div) for lay in pl.layers
                                     if not lay.blank):
                continue
            f = painter.draw(html, *size)
            ref = whole._changed(None, html, *size)
            edge, off = _close(f.pixels, ref.pixels)
            assert edge >= EDGE and off <= OFF, (folder, screen, edge, off)
            checked += 1
    assert checked


def test_a_text_moved_by_whole_pixels_is_not_drawn_again(drawer):
    """A row's text moved down a list by whole pixels has the same coverage: it is
    kept (`TextDrawer.mask`), the same bytes as a drawer that never drew it gives."""
    import dataclasses

    zoom = 1080 / FRAME_WIDTH
    t = text_div(_div("Hide private activities", style=";font-size:16.0px"))
    moved = dataclasses.replace(t, box=(t.box[0], t.box[1] + 42 / zoom, *t.box[2:]))
    lines, size, clip = drawer.layout(t, zoom)
    a = drawer.mask(lines, size, clip)
    lines2, size2, clip2 = drawer.layout(moved, zoom)
    assert clip2[1] == clip[1] + 42
    b = drawer.mask(lines2, size2, clip2)
    assert b is a and not a.flags.writeable
    assert np.array_equal(TextDrawer(drawer.faces).mask(lines2, size2, clip2), a)
    assert a.any()


def _over_every_pixel(below: np.ndarray, a: np.ndarray, col: np.ndarray) -> None:
    """Coverage `a` of `col` over straight-alpha `below`, summed at every pixel (what
    `rgba` did before it worked out only the pixels where both draw)."""
    fa = a.astype(np.float32) / 255.0
    ba = below[..., 3].astype(np.float32) / 255.0
    out_a = fa + ba * (1 - fa)
    premul = col * fa[..., None] + below[..., :3] * (ba * (1 - fa))[..., None]
    rgb = np.divide(premul, out_a[..., None], out=np.zeros_like(premul),
                    where=out_a[..., None] > 0)
    below[..., :3] = np.clip(rgb + 0.5, 0, 255)
    below[..., 3] = np.clip(out_a * 255 + 0.5, 0, 255)


@pytest.mark.parametrize("seed", range(6))
def test_texts_that_meet_are_summed_where_both_draw_as_at_every_pixel(seed):
    """`inks.over_straight` sums only the pixels where both texts draw: laid over any
    ground, the same pixels as the sums at every pixel (where nothing draws, the colour
    a clear pixel carries shows nowhere)."""
    from phoneworld.serve.frame import over
    from phoneworld.serve.inks import over_straight

    rng = np.random.default_rng(seed)
    h, w = 40, 60
    below = np.zeros((h, w, 4), np.uint8)
    below[..., :3] = rng.integers(0, 256, 3, dtype=np.uint8)
    below[..., 3] = rng.integers(0, 256, (h, w)) * (rng.random((h, w)) < 0.4)
    a = (rng.integers(0, 256, (h, w)) * (rng.random((h, w)) < 0.5)).astype(np.uint8)
    a[:5] = 255
    col = rng.integers(0, 256, 3).astype(np.float32)
    fast, slow = below.copy(), below.copy()
    over_straight(fast, a, col)
    _over_every_pixel(slow, a, col)
    assert np.array_equal(fast[..., 3], slow[..., 3])
    drawn = fast[..., 3] > 0
    assert np.array_equal(fast[drawn], slow[drawn])
    ground = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    assert np.array_equal(over(ground, fast), over(ground, slow))


# -- right-to-left and complex scripts ---------------------------------------------------------

RTL = ("\u0627\u0644\u0639\u0631\u0628\u064a\u0629 (\u0627\u0644\u0645\u0645\u0644\u0643\u0629"
       " \u0627\u0644\u0639\u0631\u0628\u064a\u0629 \u0627\u0644\u0633\u0639\u0648\u062f\u064a"
       "\u0629)",  # Arabic (Saudi Arabia), as a language list shows it
       "\u05e2\u05d1\u05e8\u05d9\u05ea (\u05d9\u05e9\u05e8\u05d0\u05dc)",  # Hebrew (Israel)
       "Hello \u05e9\u05dc\u05d5\u05dd 123!",  # mixed: a left-to-right paragraph
       "\u0643\u062a\u0627\u0628 42 \u062c\u062f\u064a\u062f",  # Arabic with a number
       "\u0645\u064f\u062d\u064e\u0645\u064e\u0651\u062f")  # Arabic with its vowel marks


def test_levels_and_the_visual_order_follow_the_bidirectional_algorithm():
    from phoneworld.serve import bidi

    if not bidi.available():
        pytest.skip("no FriBiDi here: the browser draws right-to-left texts")
    text = "abc \u05e9\u05dc\u05d5\u05dd!"
    lv = bidi.levels(text)
    assert lv == (0, 0, 0, 0, 1, 1, 1, 1, 0)  # the paragraph is left to right
    assert "".join(text[i] for i in bidi.visual(lv)) == "abc \u05dd\u05d5\u05dc\u05e9!"
    # Brackets pair (the closing one takes its opening one's direction), digits keep
    # their order inside a right-to-left run.
    assert set(bidi.levels(RTL[0])) == {1}
    lv = bidi.levels("\u05d0 12 \u05d1")
    assert lv == (1, 1, 2, 2, 1, 1)
    assert bidi.visual(lv) == [5, 4, 2, 3, 1, 0]
    assert bidi.visual(()) == []


def _looked_text_page():
    """The shop's cart, on its plate, with the first one-line text div, and the page."""
    from tests.test_layers import _states
    from tests.test_page import PLATE, SPRITE
    from tests.test_painter import _webp

    m = list(_states())[5]
    html = m.observe("html")
    lay = next(lay for lay in page_layers(html, (1080, 2400)).layers if not lay.blank
               and (t := text_div(lay.div)) is not None and t.lines == "one" and t.text)
    assets = {PLATE: _webp(1080, 2400, 1)}
    for lst in (lst for s in m.spec.look.screens.values() for lst in s.lists):
        assets[SPRITE] = _webp(*lst.sprite_size, 2)
    return html, lay, assets


def _with_text(html: str, lay, text: str) -> str:
    import html as html_lib

    old = html_lib.escape(text_div(lay.div).text, quote=False)
    div = lay.div.replace(f">{old}<", f">{html_lib.escape(text)}<")
    assert div != lay.div
    return html.replace(lay.div, div)


def _ink(px: np.ndarray, ground: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(np.abs(px.astype(int) - ground.astype(int)).max(axis=2) > 60)
    assert xs.size
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def test_right_to_left_texts_drawn_here_match_chromiums(browser, drawer):
    """Arabic and Hebrew (with brackets, numbers, Latin beside them, vowel marks) drawn
    here, with no browser round trip, as Chromium draws them: laid out by the same
    bidirectional algorithm and shaped by HarfBuzz in the same faces, each within the
    tolerance of Latin texts and its ink where Chromium's is (2 pixels)."""
    from tests.test_painter import _pair

    if not drawer.complex:
        pytest.skip("no FriBiDi here: the browser draws right-to-left texts")
    html, lay, assets = _looked_text_page()
    x1, y1, x2, y2 = lay.rect
    empty = _pair(browser, assets)[1]._changed(None, _with_text(html, lay, ""), 1080, 2400)
    ground = empty.pixels[y1:y2, x1:x2]
    for text in RTL:
        page = _with_text(html, lay, text)
        painter, whole = _pair(browser, assets, texts=True)
        painter.draw(html, 1080, 2400)  # the screen first, then the text changed on it
        before, drawn = painter.captured, painter.drawn
        f = painter.draw(page, 1080, 2400).pixels[y1:y2, x1:x2]
        assert painter.captured == before and painter.drawn > drawn, text
        ref = whole._changed(None, page, 1080, 2400).pixels[y1:y2, x1:x2]
        edge, off = _close(f, ref)
        assert edge >= EDGE and off <= OFF, (text, edge, off)
        assert np.abs(np.subtract(_ink(f, ground), _ink(ref, ground))).max() <= 2, text


def test_right_to_left_texts_go_to_the_browser_where_raqm_is_missing(browser, drawer,
                                                                     monkeypatch):
    """Where Pillow reports no raqm (or FriBiDi is missing), a right-to-left text is
    the browser's: captured, the same pixels as Chromium's whole capture."""
    from PIL import features

    from phoneworld.serve import texts as texts_mod
    from tests.test_painter import _pair

    real = features.check
    monkeypatch.setattr(features, "check", lambda f: False if f == "raqm" else real(f))
    assert texts_mod.complex_support() == "Pillow without raqm"
    bare = TextDrawer(drawer.faces)
    assert not bare.complex
    html, lay, assets = _looked_text_page()
    page = _with_text(html, lay, RTL[1])
    assert bare.layout(text_div(_with_text(lay.div, lay, RTL[1])), 1.0) is None
    painter, whole = _pair(browser, assets, texts=True)
    painter.texts = bare
    painter.draw(html, 1080, 2400)
    before, drawn = painter.captured, painter.drawn
    f = painter.draw(page, 1080, 2400)
    assert painter.captured > before and painter.drawn == drawn
    ref = whole._changed(None, page, 1080, 2400)
    x1, y1, x2, y2 = lay.rect  # (the other texts of the page: drawn here)
    diff = np.abs(f.pixels[y1:y2, x1:x2].astype(int) - ref.pixels[y1:y2, x1:x2]).max(axis=2)
    assert (diff > 24).mean() < 1e-4  # a transparent capture laid over: alpha rounding
    monkeypatch.setattr(features, "check", real)
    monkeypatch.setattr(texts_mod.bidi, "available", lambda: False)
    assert texts_mod.complex_support() == "no FriBiDi (libfribidi0)"


def test_a_right_to_left_line_too_long_is_left_to_the_browser(drawer):
    """Where a right-to-left line overflows (an ellipsis, cut where it overflows on the
    right), or sits in a field that shows its end, the browser draws it."""
    if not drawer.complex:
        pytest.skip("no FriBiDi here")
    zoom = 1080 / FRAME_WIDTH
    assert drawer.layout(text_div(_div(RTL[0] * 3)), zoom) is None
    assert drawer.layout(text_div(_div(RTL[1], "v x one end")), zoom) is None
    (runs, _, _), = drawer.layout(text_div(_div(RTL[2])), zoom)[0]
    # Shown left to right: the Hebrew word, the space and the number after it are one
    # right-to-left run (the number kept in its order), each face's part shaped apart.
    assert [(s, rtl) for s, _, _, rtl in runs] == [
        ("Hello ", False), ("123", False), (" ", True), ("\u05e9\u05dc\u05d5\u05dd", True),
        ("!", False)]


def test_a_text_cut_by_any_rectangle_is_the_same_pixels_as_drawn_in_it(drawer):
    """`rgba` takes a text's part in a rectangle from its coverage over its whole box
    (kept), writing only the box of its ink: the same pixels as a drawer that draws
    only that part, for rectangles that cut the text anywhere, and texts that meet."""
    zoom = 1080 / FRAME_WIDTH
    a = text_div(_div("Hide private (unexported) activities", style=";font-size:16.0px"))
    b = text_div(_div("one two three four five six seven", "v x many",
                      ";font-size:14.0px;color:#ff0000", 2))
    whole = drawer.rgba([a, b], (0, 0, 600, 160), zoom)
    assert whole[..., 3].any()
    for rect in ((0, 0, 600, 160), (40, 60, 300, 100), (100, 0, 101, 160), (0, 70, 600, 71),
                 (500, 0, 600, 40)):
        x1, y1, x2, y2 = rect
        got = drawer.rgba([a, b], rect, zoom)
        assert np.array_equal(got[..., 3], whole[y1:y2, x1:x2, 3]), rect
        drawn = got[..., 3] > 0
        assert np.array_equal(got[drawn], whole[y1:y2, x1:x2][drawn]), rect
        for t in (a, b):  # each text's part: what a drawer that draws only it gives
            lines, size, clip = drawer.layout(t, zoom)
            c = (max(x1, clip[0]), max(y1, clip[1]), min(x2, clip[2]), min(y2, clip[3]))
            if c[0] < c[2] and c[1] < c[3]:
                part = TextDrawer(drawer.faces)._draw_mask(
                    drawer.mask_key(lines, size, c))
                assert np.array_equal(part, drawer.mask(lines, size, clip)[
                    c[1] - clip[1]:c[3] - clip[1], c[0] - clip[0]:c[2] - clip[0]]), (rect, t)
