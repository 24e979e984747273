"""The painter: device-size frames from recorded pixels and clips of what changed, the
same pixels as Chromium's whole capture of the page."""

from __future__ import annotations

import io
import re
import threading

import numpy as np
import pytest
from PIL import Image

from phoneworld.runtime import Machine
from phoneworld.runtime.layers import Layer, page_layers
from phoneworld.serve.capture import (
    OPEN_AFTER,
    WINDOW,
    Capturer,
    Page,
    while_capturing,
    window_tops,
)
from phoneworld.serve.painter import Painter
from phoneworld.serve.regions import changed, join, merge
from phoneworld.serve.screenshots import CHROMIUM_ARGS, ORIGIN, browser_missing, chromium_path
from tests.test_layers import _states
from tests.test_page import PLATE, SPRITE
from tests.test_runtime import shop_spec


def test_merge_joins_near_rectangles_and_cuts_them_to_the_screen():
    assert merge([(-5, -5, 10, 10), (20, 0, 30, 10)], (100, 100), gap=24) == [(0, 0, 30, 10)]
    assert merge([(0, 0, 10, 10), (0, 50, 10, 60)], (100, 100), gap=24) == \
        [(0, 0, 10, 10), (0, 50, 10, 60)]
    assert merge([(0, 200, 10, 300), (200, 0, 300, 10)], (100, 100)) == []
    many = [(0, y, 10, y + 1) for y in range(0, 1000, 50)]
    got = merge(many, (100, 1000), gap=0, most=4)
    assert len(got) == 4
    assert all(any(g[1] <= r[1] and r[3] <= g[3] for g in got) for r in many)


def test_join_boxes_clips_while_that_adds_fewer_pixels_than_a_capture_costs():
    size = (100, 100)
    near = [(0, 0, 10, 10), (0, 40, 10, 50)]  # the box adds 300 pixels
    assert join(near, size, cost=0.05) == [(0, 0, 10, 50)]
    assert join(near, size, cost=0.01) == near
    far = [(0, 0, 10, 10), (90, 90, 100, 100), (0, 20, 10, 30)]
    assert join(far, size, cost=0.05) == [(0, 0, 10, 30), (90, 90, 100, 100)]
    assert join(far, size, cost=1.0) == [(0, 0, 100, 100)]
    assert join([], size) == []


def _lay(key: str, y: int, blank: bool = False) -> Layer:
    return Layer((0, y, 10, y + 10), key, blank)


def test_changed_is_where_divs_were_added_removed_changed_or_reordered():
    a, b, c = _lay("a", 0), _lay("b", 100), _lay("c", 200)
    assert changed((a, b, c), (a, b, c)) == []
    assert changed((a, b, c), (a, c)) == [b.rect]
    assert changed((a, b), (a, _lay("B", 100))) == [(0, 100, 10, 110)] * 2
    assert sorted(changed((a, b), (b, a))) in ([a.rect, a.rect], [b.rect, b.rect])
    assert changed((a, _lay("x", 50, blank=True)), (a,)) == []  # it drew nothing


def _route(assets):
    def answer(route):
        name = route.request.url[len(ORIGIN):].removeprefix("assets/")
        if name in assets:
            route.fulfill(status=200, body=assets[name], content_type="image/webp")
        else:
            route.fulfill(status=200, content_type="text/html", body="<!doctype html>")
    return answer


def _webp(w: int, h: int, seed: int) -> bytes:
    """A lossless picture (decoded alike by Chromium and Pillow): bands and blocks."""
    rng = np.random.default_rng(seed)
    img = np.zeros((h, w, 3), np.uint8)
    img[...] = np.linspace(180, 250, h, dtype=np.uint8)[:, None, None]
    for _ in range(30):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        img[y:y + 60, x:x + 120] = rng.integers(0, 256, 3)
    out = io.BytesIO()
    Image.fromarray(img).save(out, "WEBP", lossless=True)
    return out.getvalue()


def _pair(browser, assets=None, texts=False):
    get = (assets or {}).get
    # The reference draws in a window as high as the page (clips by emulation, whole
    # captures as such): nothing of the painter's scrolled window. Texts over plates
    # from Chromium unless `texts` (`test_texts` weighs those drawn here).
    return (Painter(browser, _route(assets or {}), ORIGIN, get, texts=texts),
            Painter(browser, _route(assets or {}), ORIGIN, get, window=0, texts=False))


def test_material_frames_are_the_whole_captures_pixels(browser):
    """On the example shop (no look): each step's frame, from the last frame and clips of
    what changed, is exactly what capturing the page whole gives; the first captures the
    empty phone whole, then its divs; typing captures a small part of the screen."""
    painter, whole = _pair(browser)
    m = Machine(shop_spec())
    m.reset()
    steps = [{"action_type": "input_text", "text": "oat", "index": 3},
             {"action_type": "click", "index": 6}, {"action_type": "navigate_back"},
             {"action_type": "input_text", "text": "milk \u4f60\u597d", "index": 3}]
    shares = []
    for a in [None, *steps]:
        if a is not None:
            m.step(a)
        html = m.observe("html")
        before = painter.captured
        f = painter.draw(html, 1080, 2400)
        shares.append((painter.captured - before) / (1080 * 2400))
        ref = whole._changed(None, html, 1080, 2400)
        assert f.size == (1080, 2400)
        assert np.array_equal(f.pixels, ref.pixels), a
    assert 1.0 < shares[0] <= 2.0 and shares[1] < 0.2 and shares[-1] < 0.2


def _counted(send, sent: list[str]):
    def counted(method, params=None):
        sent.append(method)
        return send(method, params)
    return counted


def _clips(painter: Painter) -> list:
    """The clips `painter` captures from now on, in order (a list it keeps appending to)."""
    shots: list = []
    real = painter.capture.png

    def png(page, clip, size):
        shots.append(clip)
        return real(page, clip, size)

    painter.capture.png = png
    return shots


@pytest.mark.parametrize("window", [40, 700])
def test_a_scrolled_window_gives_the_pixels_of_a_window_as_high_as_the_page(browser,
                                                                          window):
    """A window lower than the page is scrolled to each clip and captured whole: clips
    higher than it come band by band (40 rows), several clips from one capture (700),
    and the page whole from beyond it; the frames are those of a window as high as the
    page, and the window is captured no more often than there are bands."""
    painter = Painter(browser, _route({}), ORIGIN, None, window=window)
    painter.capture.taller = 0  # bands, never a taller window
    _, whole = _pair(browser)
    shots = _clips(painter)
    m = Machine(shop_spec())
    m.reset()
    sent: list[str] = []
    for a in [None, {"action_type": "input_text", "text": "oat", "index": 3},
              {"action_type": "click", "index": 6}, {"action_type": "navigate_back"}]:
        if a is not None:
            m.step(a)
        html = m.observe("html")
        shots.clear()
        sent.clear()
        f = painter.draw(html, 1080, 2400)
        if a is None:  # from now on, count what is sent to the browser
            win = painter.capture.pages[(1080, 2400, False)].shown
            win.cdp.send = _counted(win.cdp.send, sent)
        assert np.array_equal(f.pixels, whole._changed(None, html, 1080, 2400).pixels), a
        assert all(c == (0, 0, 1080, 2400) or c[3] - c[1] == window for c in shots)
        if a is None:  # the empty phone whole, then its divs
            assert shots[0] == (0, 0, 1080, 2400) and len(shots) > 1
        elif a["action_type"] == "input_text":  # one field's row: 142 app pixels high
            assert len(shots) == (4 if window == 40 else 1), shots
            # One evaluation patches the page and scrolls to the clip; then the captures.
            assert sent[0] == "Runtime.evaluate" and sent.count("Runtime.evaluate") == \
                (4 if window == 40 else 1), sent


@pytest.mark.parametrize("open_after", [1, OPEN_AFTER])
def test_a_clip_higher_than_the_window_comes_from_one_capture_of_a_taller_one(browser,
                                                                              open_after):
    """A clip that a window would take in several bands is captured once, in a window
    as high as the fewest captures for the pixels make it (doubled, at most twice),
    showing the page by its own document; the frames stay the whole captures'. Such a
    window is opened once tall clips have wanted it `open_after` times (opening one
    costs Chromium as much as two dozen captures): until then they come in bands."""
    painter = Painter(browser, _route({}), ORIGIN, None, window=40)
    painter.capture.open_after = open_after
    _, whole = _pair(browser)
    shots = _clips(painter)
    m = Machine(shop_spec())
    m.reset()
    for a in [None, {"action_type": "input_text", "text": "oat", "index": 3},
              {"action_type": "input_text", "text": "oats", "index": 3}]:
        if a is not None:
            m.step(a)
        html = m.observe("html")
        shots.clear()
        f = painter.draw(html, 1080, 2400)
        assert np.array_equal(f.pixels, whole._changed(None, html, 1080, 2400).pixels), a
        if a is not None and open_after == 1:  # a 142-row field: one 160-row capture
            assert [c[3] - c[1] for c in shots] == [160], shots
        elif a is not None:  # in bands of the window open
            assert {c[3] - c[1] for c in shots} == {40} and len(shots) >= 4, shots
    assert sorted(painter.capture.pages[(1080, 2400, False)].windows) == \
        ([40, 160] if open_after == 1 else [40])


def test_the_window_for_clips_is_the_one_of_fewest_captures_for_the_pixels():
    capturer = Capturer(None, lambda route: None, ORIGIN, 256, open_after=1)
    page = Page((1080, 2400), False)
    assert capturer.heights(2400) == [256, 512, 1024] and capturer.heights(300) == [256]
    assert window_tops([(0, 100, 9, 543)], 256, 2400) == [100, 356]
    assert window_tops([(0, 2300, 9, 2350), (0, 2360, 9, 2390)], 256, 2400) == [2144]
    rows = {h: capturer.window_rows(page, [(0, 100, 1080, 100 + h)])
            for h in (50, 256, 300, 443, 967, 2000)}
    assert rows == {50: 256, 256: 256, 300: 512, 443: 512, 967: 1024, 2000: 1024}
    assert capturer.window_rows(page, [(0, 0, 9, 10), (0, 2000, 9, 2010)]) == 256
    capturer.taller = 0
    assert capturer.window_rows(page, [(0, 100, 1080, 1067)]) == 256
    assert Capturer(None, lambda route: None, ORIGIN, 0).window_rows(page, []) == 2400


def test_a_taller_window_is_opened_once_tall_clips_recur():
    """Opening a window costs Chromium about as much as two dozen captures: a page's
    first window is the lowest, and clips that a taller one would take in fewer
    captures come in bands of the windows open until they have wanted it `OPEN_AFTER`
    times (in a 60-step walk, activitylauncher opened three windows, 1-2 s each)."""
    capturer = Capturer(None, lambda route: None, ORIGIN, 256)
    page = Page((1080, 2400), True)
    tall = [(0, 100, 1080, 1067)]  # one 1024-row capture, or four of 256
    assert capturer.window_rows(page, tall) == 256  # no window open: the lowest
    page.windows[256] = None  # type: ignore[assignment]  # (opened)
    got = [capturer.window_rows(page, tall) for _ in range(OPEN_AFTER - 2)]
    assert got == [256] * (OPEN_AFTER - 2)  # wanted 23 times in all
    assert capturer.window_rows(page, tall) == 1024
    page.windows[1024] = None  # type: ignore[assignment]
    assert capturer.window_rows(page, [(0, 100, 1080, 543)]) == 1024  # 512: not yet
    assert capturer.window_rows(page, [(0, 0, 9, 10)]) == 256


def test_frames_on_a_plate_are_the_whole_captures_pixels(browser):
    """On recorded looks in changed states, drawn one after another (as recorded, typed
    text twice, a flipped switch, a row removed, a row on the sprite): the plate and
    paints laid here, the texts from Chromium, and after a step that changed only a
    text, only that text captured again."""
    assets: dict[str, bytes] = {PLATE: _webp(1080, 2400, 1)}
    painter, _ = _pair(browser, assets)
    for n, m in enumerate(_states()):
        for lst in (lst for s in m.spec.look.screens.values() for lst in s.lists):
            assert lst.sprite == SPRITE
            assets[SPRITE] = _webp(*lst.sprite_size, 2)
        _, whole = _pair(browser, assets)
        html = m.observe("html")
        before = painter.captured
        f = painter.draw(html, 1080, 2400)
        ref = whole._changed(None, html, 1080, 2400)
        diff = np.abs(f.pixels.astype(int) - ref.pixels.astype(int)).max(axis=2)
        # Text laid over the plate from a transparent capture: alpha rounding only.
        assert (diff > 24).mean() < 1e-4, (n, (diff > 24).mean())
        drawn = [lay for lay in page_layers(html, (1080, 2400)).layers if not lay.blank]
        captured = painter.captured - before
        assert (captured > 0) == bool(drawn)
        assert captured < (0.25 if n != 2 else 0.08) * 1080 * 2400, n  # 2: the field


def test_paints_laid_from_the_last_ones_on_a_plate_are_those_laid_afresh():
    """A plate's paints in a new state are laid on the last state's (only the rectangles
    of the paints that differ restored and laid again): the same pixels as laying them
    all on the plate, for fewer paints laid."""
    assets: dict[str, bytes] = {PLATE: _webp(1080, 2400, 1)}
    states = list(_states())
    for lst in (lst for m in states for s in m.spec.look.screens.values() for lst in s.lists):
        assets[SPRITE] = _webp(*lst.sprite_size, 2)
    painter = Painter(None, _route(assets), ORIGIN, assets.get)
    laid = []
    lay = painter.recorded.lay
    painter.recorded.lay = lambda f, p, within=None: (laid.append(within), lay(f, p, within))[1]
    partly = 0
    for m in [*states, *reversed(states)]:
        pl = page_layers(m.observe("html"), (1080, 2400))
        key = (pl.plate, 1080, 2400, pl.paints)
        if not pl.paints or ("painted", key) in painter.kept._items:
            continue
        laid.clear()
        got = painter.recorded.painted(pl, painter.recorded.plate(pl.plate, 1080, 2400),
                                       key)
        fresh = Painter(None, _route(assets), ORIGIN, assets.get)
        want = fresh.recorded.painted(pl, fresh.recorded.plate(pl.plate, 1080, 2400),
                                      key)
        assert np.array_equal(got.pixels, want.pixels)
        partly += None not in laid
    assert partly >= 2


def test_more_chromium_switches_come_from_the_environment(monkeypatch):
    from phoneworld.serve.screenshots import ARGS_ENV, chromium_args

    monkeypatch.delenv(ARGS_ENV, raising=False)
    assert chromium_args() == CHROMIUM_ARGS
    monkeypatch.setenv(ARGS_ENV, " --disable-frame-rate-limit  --disable-gpu-vsync ")
    assert chromium_args() == [*CHROMIUM_ARGS, "--disable-frame-rate-limit",
                               "--disable-gpu-vsync"]


def test_the_screenshotter_gives_pixels_and_pngs_of_one_frame(monkeypatch):
    """(Chromium drawing frames as soon as asked, as $PHONEWORLD_CHROMIUM_ARGS can have it)"""
    from phoneworld.serve.screenshots import ARGS_ENV, Screenshotter

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    monkeypatch.setenv(ARGS_ENV, "--disable-frame-rate-limit")
    m = Machine(shop_spec())
    m.reset()
    shots = Screenshotter(timeout=120)
    try:
        html = m.observe("html")
        rgb = shots.pixels(html, width=1080, height=2400)
        png = shots.shot(html, width=1080, height=2400)
        assert rgb.shape == (2400, 1080, 3) and not rgb.flags.writeable
        with Image.open(io.BytesIO(png)) as im:
            assert np.array_equal(np.asarray(im.convert("RGB")), rgb)
    finally:
        shots.close()


def test_a_screenshot_waits_for_the_browser_to_start_beyond_its_timeout(monkeypatch):
    """The first screenshot of a server on a loaded machine waits for Chromium to start:
    its timeout (a 429 when passed) counts the drawing, not the start."""
    import time

    from phoneworld.serve import painter
    from phoneworld.serve.screenshots import Screenshotter

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    made = painter.Painter.__init__

    timeout = 10  # the drawing's own time: a first page on a loaded CI machine took > 3 s

    def slow(self, *a, **kw):  # a start that takes longer than the timeout below
        time.sleep(timeout + 1)
        made(self, *a, **kw)

    monkeypatch.setattr(painter.Painter, "__init__", slow)
    shots = Screenshotter(timeout=timeout)
    try:
        png = shots.shot("<html><body>hi</body></html>", width=412, height=915,
                         device=False)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        shots.close()


def test_a_page_of_another_accent_is_restyled_not_set_anew(browser):
    """Screens of one app differ in the phone's style (their accents): the painter patches
    the shown page's style and divs instead of setting a new document, and the frame is
    still exactly the whole capture (buttons and tabs in the new accent)."""
    painter, whole = _pair(browser)
    sets: list[str] = []
    set_ = painter.capture._set
    painter.capture._set = lambda win, html, size, at=None: (sets.append(id(win)),
                                                        set_(win, html, size, at))[1]
    m = Machine(shop_spec())
    m.reset()
    first = m.observe("html")
    m.step({"action_type": "click", "index": 6})
    second = m.observe("html")
    assert "--accent:#" in first and "--accent:#d81b60" not in first
    other = re.sub(r"--accent:#[0-9a-f]{6}", "--accent:#d81b60", second, count=1)
    for html in (first, other, first):
        f = painter.draw(html, 1080, 2400)
        assert np.array_equal(f.pixels, whole._changed(None, html, 1080, 2400).pixels)
    assert sets and len(sets) == len(set(sets))  # each window's document set once


def test_a_screen_never_drawn_captures_only_its_divs_on_the_empty_phone(browser):
    """Screens first met after another one (each in its own accent: another head) are laid
    on the empty phone captured once, with only the rectangles of their divs that draw
    captured: the same pixels as the whole capture, for fewer pixels than the screen."""
    painter, whole = _pair(browser)
    m = Machine(shop_spec())
    m.reset()
    painter.draw(m.observe("html"), 1080, 2400)
    shares = []
    for screen in ("cart", "settings", "home"):
        m.jump(screen)
        html = m.observe("html")
        before = painter.captured
        f = painter.draw(html, 1080, 2400)
        shares.append((painter.captured - before) / (1080 * 2400))
        assert np.array_equal(f.pixels, whole._changed(None, html, 1080, 2400).pixels), screen
    assert max(shares[:2]) < 0.5
    assert sum(k[0] == "blank" for k in painter.kept._items) == 1


def test_what_the_painter_keeps_stays_within_its_memory_and_comes_back_the_same():
    """Plates and images decoded are kept within the painter's byte budget (least
    recently used dropped first), and decoded again the same when they come back."""
    assets = {f"{c * 64}.webp": _webp(60, 90, n) for n, c in enumerate("abc")}
    plate = 60 * 90 * 3
    painter = Painter(None, _route(assets), ORIGIN, assets.get, memory=10 * plate // 3)
    first = {n: painter.recorded.plate(n, 60, 90).pixels.copy() for n in assets}
    assert len(painter.kept) == 2 and painter.kept.weight <= painter.kept.limit
    for n in [*assets, *reversed(assets)]:  # decoded again where dropped: the same pixels
        assert np.array_equal(painter.recorded.plate(n, 60, 90).pixels, first[n])
        assert painter.kept.weight <= painter.kept.limit
    with Image.open(io.BytesIO(assets["a" * 64 + ".webp"])) as im:
        assert np.array_equal(first["a" * 64 + ".webp"], np.asarray(im.convert("RGB")))
    none = Painter(None, _route(assets), ORIGIN, assets.get, memory=0)
    assert np.array_equal(none.recorded.plate("a" * 64 + ".webp", 60, 90).pixels,
                          first["a" * 64 + ".webp"])
    assert len(none.kept) == 0 and len(none.regions) == 0


def test_recorded_pixels_are_laid_by_another_thread_while_the_browser_captures():
    """The job (a plate's paints laid, a frame copied) runs beside the captures, which
    wait for Chromium's frames; its result, or what it raised, comes back after them.
    Without clips to capture it runs in the caller's thread."""
    laying = threading.Event()

    class Browser:
        def captures(self, page, clips, size):
            assert laying.wait(10)  # the job has started meanwhile
            return [c for c in clips]

    def job():
        laying.set()
        return threading.current_thread().name

    got, imgs = while_capturing(Browser(), job, None, [(0, 0, 1, 1)], (1, 1))
    assert got != threading.current_thread().name and imgs == [(0, 0, 1, 1)]
    assert while_capturing(Browser(), job, None, [], (1, 1)) == \
        (threading.current_thread().name, [])

    def broken():
        laying.set()
        raise ValueError("unreadable image")

    laying.clear()
    with pytest.raises(ValueError, match="unreadable"):
        while_capturing(Browser(), broken, None, [(0, 0, 1, 1)], (1, 1))


def test_the_painters_memory_comes_from_the_environment(monkeypatch):
    from phoneworld.errors import PhoneworldError
    from phoneworld.serve.painter import MEMORY, MEMORY_ENV, memory_budget

    monkeypatch.delenv(MEMORY_ENV, raising=False)
    assert memory_budget() == MEMORY << 20
    monkeypatch.setenv(MEMORY_ENV, "64")
    assert memory_budget() == 64 << 20
    assert Painter(None, _route({}), ORIGIN, None).regions.limit == 16 << 20
    for bad in ("lots", "-1"):
        monkeypatch.setenv(MEMORY_ENV, bad)
        with pytest.raises(PhoneworldError, match=MEMORY_ENV):
            memory_budget()


def test_states_drawn_before_reuse_their_regions_and_stay_the_whole_captures_pixels(browser):
    """Coming back to a screen or a state (back, the same text typed again) takes the
    rectangles that changed from what the browser drew there before: the frame is still
    exactly the whole capture, and the browser is not asked for anything."""
    painter, whole = _pair(browser)
    m = Machine(shop_spec())
    m.reset()
    steps = [{"action_type": "click", "index": 6}, {"action_type": "navigate_back"},
             {"action_type": "input_text", "text": "oat", "index": 3},
             {"action_type": "input_text", "text": "milk", "index": 3},
             {"action_type": "click", "index": 6}, {"action_type": "navigate_back"},
             {"action_type": "input_text", "text": "oat", "index": 3}]
    got = []
    for a in [None, *steps]:
        if a is not None:
            m.step(a)
        html = m.observe("html")
        captured, reused = painter.captured, painter.reused
        f = painter.draw(html, 1080, 2400)
        got.append((painter.captured - captured, painter.reused - reused))
        assert np.array_equal(f.pixels, whole._changed(None, html, 1080, 2400).pixels), a
    assert [c for c, _ in got[-3:]] == [0, 0, 0]  # drawn before: nothing captured


def test_a_rectangle_drawn_before_is_reused_where_no_recent_frame_shows_it(browser,
                                                                          monkeypatch):
    """With one recent frame only, typing a text again (after another) takes the field's
    rectangle from what the browser drew there before."""
    import phoneworld.serve.painter as painter_module

    monkeypatch.setattr(painter_module, "RECENT", 1)
    painter, whole = _pair(browser)
    m = Machine(shop_spec())
    m.reset()
    for text in ("oat", "milk", "oat"):
        m.step({"action_type": "input_text", "text": text, "index": 3})
        html = m.observe("html")
        captured, reused = painter.captured, painter.reused
        f = painter.draw(html, 1080, 2400)
        assert np.array_equal(f.pixels, whole._changed(None, html, 1080, 2400).pixels)
    assert painter.captured == captured and painter.reused > reused


def test_a_plate_state_drawn_again_reuses_its_regions(browser):
    """On a recorded look, states drawn before (each state twice, in turn) lay the
    overlay's regions kept from before: nothing captured, the same pixels."""
    assets: dict[str, bytes] = {PLATE: _webp(1080, 2400, 1)}
    states = list(_states())
    for lst in (lst for m in states for s in m.spec.look.screens.values() for lst in s.lists):
        assets[SPRITE] = _webp(*lst.sprite_size, 2)
    painter, _ = _pair(browser, assets)
    pages = [m.observe("html") for m in states]
    first = [painter.draw(html, 1080, 2400).pixels.copy() for html in pages]
    before = painter.captured
    again = [painter.draw(html, 1080, 2400).pixels for html in pages]
    assert painter.captured == before  # the recent frames, or regions kept
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def test_a_failing_draw_fails_its_call_at_once_and_the_browser_goes_on(monkeypatch):
    from phoneworld.serve.screenshots import Screenshotter

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    m = Machine(shop_spec())
    m.reset()
    html = m.observe("html")
    shots = Screenshotter(timeout=120)
    try:
        shots.pixels(html, width=1080, height=2400)
        draw = shots.painter.draw
        monkeypatch.setattr(shots.painter, "draw", lambda *a, **k: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            shots.shot(html + " ", width=1080, height=2400)
        monkeypatch.setattr(shots.painter, "draw", draw)
        assert shots.shot(html + " ", width=1080, height=2400)[:4] == b"\x89PNG"
    finally:
        shots.close()


def test_a_clip_over_a_rectangle_drawn_before_lays_the_overlay_there_once(browser,
                                                                          monkeypatch):
    """A clip joined across a rectangle taken from what the browser drew before (changed
    divs on either side of it) covers that rectangle: the see-through overlay is laid
    there once, as the whole capture shows it, not over the rectangle's own pixels."""
    assets: dict[str, bytes] = {PLATE: _webp(1080, 2400, 1)}
    states = list(_states())
    for lst in (lst for m in states for s in m.spec.look.screens.values() for lst in s.lists):
        assets[SPRITE] = _webp(*lst.sprite_size, 2)
    painter, whole = _pair(browser, assets)
    html = states[1].observe("html")  # typed text: texts drawn over the plate
    painter.draw(html, 1080, 2400)  # their rectangles kept
    for page in painter.capture.pages.values():
        page.recent.clear()  # drawn from the plate and its paints, not from that frame
    reuse = Painter._reuse

    def across(self, pl, rects, size, clear, draw=True):
        hits, clips, misses = reuse(self, pl, rects, size, clear, draw)
        if not draw:
            return hits, clips, misses
        assert hits and not clips  # everything drawn before
        box = (min(r[0] for r, _ in hits), min(r[1] for r, _ in hits),
               max(r[2] for r, _ in hits), max(r[3] for r, _ in hits))
        return hits, [box], misses

    monkeypatch.setattr(Painter, "_reuse", across)
    f = painter.draw(html, 1080, 2400)
    ref = whole._changed(None, html, 1080, 2400)
    diff = np.abs(f.pixels.astype(int) - ref.pixels.astype(int)).max(axis=2)
    assert (diff > 24).sum() == 0, (diff > 24).sum()


def test_both_pages_of_a_size_open_their_windows_with_its_first_frame(browser, monkeypatch):
    """A browser context costs Chromium 0.3-1.5 s: the see-through page (screens on their
    plates) and the opaque one (any other) of a size open at its first frame, so that no
    later frame waits for one (onelist's first state change drawn without a plate took
    1.6 s, its others 40-120 ms)."""
    painter = Painter(browser, _route({}), ORIGIN, {}.get)
    opened = []
    real = Capturer._window

    def window(self, page, rows):
        if rows not in page.windows:
            opened.append((page.transparent, rows))
        return real(self, page, rows)

    monkeypatch.setattr(Capturer, "_window", window)
    m = Machine(shop_spec())
    m.reset()
    painter.draw(m.observe("html"), 1080, 2400)
    assert sorted(opened) == [(False, WINDOW), (True, WINDOW)]
    opened.clear()
    m.jump("cart")
    painter.draw(m.observe("html"), 1080, 2400)
    assert opened == []


@pytest.mark.parametrize("seed", range(6))
def test_an_overlay_laid_in_the_box_of_its_ink_is_the_overlay_laid_whole(seed):
    """`Painter._lay_over`: an overlay (clear but for some texts) blended and pasted only
    in the box of its pixels not clear gives the frame that blending it whole over the
    rectangle restored to the paints gives: on a frame showing the paints there (no
    restoring) and on one showing something else there (restored first)."""
    from phoneworld.serve.frame import Frame, over

    rng = np.random.default_rng(seed)
    h, w = 90, 70
    painted = Frame(rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
    r = (int(rng.integers(0, 30)), int(rng.integers(0, 40)), int(rng.integers(35, 71)),
         int(rng.integers(45, 91)))
    img = np.zeros((r[3] - r[1], r[2] - r[0], 4), np.uint8)
    if seed % 3:  # a few strokes of ink (none at all in the others)
        for _ in range(3):
            y, x = int(rng.integers(0, img.shape[0])), int(rng.integers(0, img.shape[1]))
            img[y:y + 4, x:x + 9] = rng.integers(0, 256, (1, 1, 4))
    want = painted.pixels.copy()
    want[r[1]:r[3], r[0]:r[2]] = over(want[r[1]:r[3], r[0]:r[2]], img)
    clean = painted.copy()
    Painter._lay_over(clean, painted, r, img, restore=[])
    dirty = painted.copy()
    dirty.fill((0, 0, w, h), (9, 8, 7))  # an older frame's pixels everywhere
    Painter._lay_over(dirty, painted, r, img, restore=[r])
    assert np.array_equal(clean.pixels, want)
    assert np.array_equal(dirty.pixels[r[1]:r[3], r[0]:r[2]], want[r[1]:r[3], r[0]:r[2]])
    assert clean.png() == Frame(want).png()
