"""A dialog drawn over the screen under it (#22): the compiler fits the dim its recording
shows around its window (`visual.scrim`), the runtime draws the window from the dialog's
plate and around it the screen under it as shown now, dimmed (`page._under`), and the
painter lays the translucent scrim itself (`serve.recorded`)."""

from __future__ import annotations

import numpy as np
import pytest

from phoneworld.runtime.compose import Paint
from phoneworld.runtime.look import Look, ScreenLook, look_from_json, look_to_json
from phoneworld.serve.frame import Frame, decode_png
from phoneworld.serve.recorded import Recorded, scrimmed
from phoneworld.visual.scrim import card, dialog_scrim, fit_scrim

SIZE = (1080, 1920)
WINDOW = (27, 496, 1053, 1351)


def _screens(alpha: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    under = np.full((SIZE[1], SIZE[0], 3), 245, np.uint8)
    for _ in range(40):  # rows of text-like blocks
        x, y = int(rng.integers(0, 900)), int(rng.integers(0, 1800))
        under[y:y + 40, x:x + 160] = rng.integers(40, 200, 3)
    dialog = (under.astype(np.float32) * (1 - alpha)).round().astype(np.uint8)
    x1, y1, x2, y2 = WINDOW
    dialog[y1:y2, x1:x2] = 255
    return dialog, under


def test_the_dim_around_a_window_is_fitted_against_the_screen_under_it():
    dialog, under = _screens(0.6)
    a, err = fit_scrim(WINDOW, dialog, under)
    assert a == pytest.approx(0.6, abs=0.01) and err < 1.0
    assert dialog_scrim(WINDOW, dialog, [under]) == (WINDOW, pytest.approx(0.6, abs=0.01))
    # Another screen under it (another state recorded): no fit, no scrim.
    other, _ = _screens(0.0, seed=7)
    assert dialog_scrim(WINDOW, dialog, [other]) is None
    # Of several screens it opens over, the one that explains the pixels.
    assert dialog_scrim(WINDOW, dialog, [other, under])[1] == pytest.approx(0.6, abs=0.01)
    # No dim to speak of, or no dialog.
    undimmed, _ = _screens(0.0)
    assert dialog_scrim(WINDOW, undimmed, [under]) is None
    assert dialog_scrim((0, 0, *SIZE), dialog, [under]) is None


def test_a_window_larger_than_its_card_is_cut_to_the_card():
    """A window whose margin shows the dimmed screen under it (insets round the card,
    a soft shadow under it, another state of a switch in it): the card only; a window
    that is all card, or one with no card to tell (all of it explained by the dim),
    stays whole."""
    dialog, under = _screens(0.6)
    x1, y1, x2, y2 = WINDOW
    dialog[y1:y2, x1:x2] = (under[y1:y2, x1:x2].astype(np.float32) * 0.4).round()
    dialog[545:1303, 75:1005] = 255
    dialog[1303:1315, 75:1005] -= 10  # its shadow
    dialog[500:540, 900:1030] = 30  # a switch in another state than `under`'s
    assert card(WINDOW, dialog, under, 0.6) == (75, 545, 1005, 1303)
    assert dialog_scrim(WINDOW, dialog, [under]) == ((75, 545, 1005, 1303),
                                                     pytest.approx(0.6, abs=0.01))
    whole, _ = _screens(0.6)
    assert card(WINDOW, whole, under, 0.6) == WINDOW
    clear = (under.astype(np.float32) * 0.4).round().astype(np.uint8)
    assert card(WINDOW, clear, under, 0.6) == WINDOW


def test_the_dim_is_fitted_around_any_window_the_spec_gives_and_only_where_it_dims():
    """The window is the spec's (`Screen.window`, `ui.dialogs`' one detector): a sheet
    edge to edge at the bottom gets its dim fitted like a centred dialog; a popup that
    dims nothing gets none; a window as large as the screen is none."""
    sheet = (0, 1300, 1080, 1920)
    dialog, under = _screens(0.5)
    dialog[:1300] = (under[:1300].astype(np.float32) * 0.5).round().astype(np.uint8)
    dialog[1300:] = 250
    assert dialog_scrim(sheet, dialog, [under]) == (sheet, pytest.approx(0.5, abs=0.01))
    popup = (492, 264, 1080, 984)
    shown = under.copy()
    shown[264:984, 492:] = 255
    assert dialog_scrim(popup, shown, [under]) is None
    assert dialog_scrim((0, 0, *SIZE), dialog, [under]) is None


def test_a_dialogs_window_and_scrim_round_trip_through_look_json():
    look = Look(screens={"d": ScreenLook(plate="0123456789abcdef.webp", window=WINDOW,
                                         scrim=0.599),
                         "s": ScreenLook(plate="fedcba9876543210.webp")})
    data = look_to_json(look)
    assert "dialog" not in data["screens"]["s"]
    back = look_from_json(data).screens
    assert back["d"].window == WINDOW and back["d"].scrim == 0.599
    assert back["s"].window is None and back["s"].scrim == 0.0
    data["screens"]["d"]["dialog"]["scrim"] = 1.5
    with pytest.raises(ValueError, match="scrim"):
        look_from_json(data)


def test_a_translucent_paint_is_laid_over_what_is_there():
    f = Frame(np.full((10, 10, 3), 200, np.uint8))
    rec = Recorded(None, None)  # type: ignore[arg-type]
    assert rec.lay(f, Paint((0, 0, 5, 10), color="#00000099"))  # 0x99 = 153: 60%
    assert (f.pixels[:, :5] == 80).all() and (f.pixels[:, 5:] == 200).all()
    assert rec.lay(f, Paint((5, 0, 10, 10), color="#102030"))
    assert (f.pixels[:, 5:] == (16, 32, 48)).all()


@pytest.mark.parametrize("color", ["#00000099", "#000000ff", "#ffffff00", "#10203080",
                                   "#7f7f7f40"])
@pytest.mark.parametrize("shape", [(24, 10), (7, 5), (1, 1)])
def test_a_scrim_by_table_is_the_rounded_sum_of_each_pixel(color, shape):
    """`scrimmed` (by table: two bytes at once for a grey scrim over contiguous pixels)
    gives (v * (255 - a) + c * a + 127) // 255 in every channel, on whole arrays of even
    and odd sizes and on cuts of them (not contiguous)."""
    rng = np.random.default_rng(len(color) + shape[0])
    px = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    a = int(color[7:9], 16)
    rgb = np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)], np.uint32)
    want = ((px.astype(np.uint32) * (255 - a) + rgb * a + 127) // 255).astype(np.uint8)
    assert np.array_equal(scrimmed(px, color), want)
    assert np.array_equal(scrimmed(px[:, 1:], color), want[:, 1:])
    assert np.array_equal(scrimmed(px[::2], color), want[::2])
    every = np.arange(256 * 3, dtype=np.uint16).astype(np.uint8).reshape(16, 16, 3)
    assert np.array_equal(scrimmed(every, color), (
        (every.astype(np.uint32) * (255 - a) + rgb * a + 127) // 255).astype(np.uint8))


@pytest.fixture(scope="module")
def activitylauncher(tmp_path_factory):
    from tests.conftest import SHARED_TRACES

    folder = SHARED_TRACES / "droidbot" / "activitylauncher"
    if not folder.is_dir():
        pytest.skip(f"{folder} is not here")
    from phoneworld.apps import load_app
    from phoneworld.compiler import compile_traces

    dest = tmp_path_factory.mktemp("activitylauncher")
    (app,) = compile_traces(folder, dest)
    return load_app(dest / app.name).spec


def test_activitylaunchers_theme_dialog_records_its_window_and_the_dim_around_it(
        activitylauncher):
    screens = activitylauncher.look.screens
    theme = screens["settings_theme"]
    root = next(s for s in activitylauncher.screens if s.name == "settings_theme").root
    # The window is the card it shows (545-1303 and 75-1005 in the recording, give or
    # take its shadow), not the larger window of the hierarchy (496-1351, 27-1053).
    assert root.bounds == (27, 496, 1053, 1351)
    x1, y1, x2, y2 = theme.window
    assert abs(x1 - 75) <= 4 and abs(y1 - 545) <= 4 and abs(x2 - 1005) <= 4
    assert 1300 <= y2 <= 1312
    assert 0.55 <= theme.scrim <= 0.65  # AppCompat's dim: 0.6
    # and the Disclaimer the app opens with, over its list (as recorded)
    assert [n for n, s in screens.items() if s.scrim] == ["main", "settings_theme"]


def test_a_dialog_is_drawn_over_the_screen_under_it_as_shown_now(activitylauncher):
    """Opened over Settings: the page lays Settings' plate and paints, black at the
    recorded dim, the window from the dialog's own plate, then the dialog's paints; a
    switch flipped on Settings shows under the dialog; a preview (no screen under it)
    keeps the recorded plate alone."""
    from phoneworld.runtime import Machine
    from phoneworld.runtime.layers import page_layers

    spec = activitylauncher
    looks = spec.look.screens
    size = (spec.width, spec.height)
    m = Machine(spec)
    m.reset()
    preview = page_layers(m.preview("settings_theme"), size)
    assert all(p.image != looks["settings"].plate for p in preview.paints)
    m.jump("settings_theme", 4, under=["settings"])
    pl = page_layers(m.observe("html"), size)
    assert pl.plate == looks["settings_theme"].plate
    first, *_ = pl.paints
    assert first.image == looks["settings"].plate and first.rect == (0, 0, *size)
    dims = [p for p in pl.paints if p.color and len(p.color) == 9]
    assert [p.color for p in dims] == [f"#000000{round(looks['settings_theme'].scrim * 255):02x}"]
    window = next(p for p in pl.paints if p.rect == looks["settings_theme"].window)
    assert window.image == looks["settings_theme"].plate
    assert pl.paints.index(dims[0]) < pl.paints.index(window)
    before = m.observe("html")
    m.jump("settings")
    switch = next(e for e in m.observe() if e["checkable"] and not e["checked"])
    m.step({"action_type": "click", "index": switch["index"]})
    m.jump("settings_theme", 4, under=["settings"])
    after = m.observe("html")
    assert after != before  # the flipped switch lies under the dialog now
    # The elements are the dialog's own: what lies under it is pixels only.
    assert not any(e["text"] == "Hide private activities" for e in m.observe())


def _naive(rec: Recorded, plate: np.ndarray, paints: tuple[Paint, ...]) -> np.ndarray:
    """Every paint laid in order on a copy of the plate: what the painter's ways must
    give, byte for byte."""
    f = Frame(plate.copy())
    for p in paints:
        assert rec.lay(f, p)
    return f.pixels


def _png(px: np.ndarray) -> bytes:
    return Frame(px).png()


def test_a_dialog_laid_from_its_dimmed_ground_equals_every_paint_laid_in_order():
    """The painter lays a dialog from the screen under it dimmed once and kept
    (`Recorded.dimmed`), the under-screen's paints dimmed in their own rectangles: the
    same bytes as laying plate, paints, scrim and window one after another; the
    dialog's own plate is not decoded; the next state (another switch flipped under
    it) is laid from the last one, with the same result."""
    from phoneworld.runtime.cache import LRU
    from phoneworld.runtime.layers import PageLayers

    dialog, under = _screens(0.6)
    assets = {"d.png": _png(dialog), "u.png": _png(under)}
    asked: list[str] = []

    def asset(name: str) -> bytes | None:
        asked.append(name)
        return assets.get(name)

    whole = (0, 0, *SIZE)
    scrim = Paint(whole, color="#00000099")
    window = Paint(WINDOW, image="d.png", image_size=SIZE)

    def paints(*flips: tuple[int, int, int, int]) -> tuple[Paint, ...]:
        # Overlapping under-screen paints (a row wiped, a switch over it), the scrim,
        # the window, and a wipe in the window.
        own = tuple(p for r in flips for p in (Paint(r, color="#fafafa"),
                    Paint((r[0] + 10, r[1] + 5, r[0] + 60, r[1] + 30), color="#3366cc")))
        return (Paint(whole, image="u.png", image_size=SIZE), *own, scrim, window,
                Paint((100, 600, 400, 650), color="#ffffff"))

    rec = Recorded(asset, LRU(1 << 30))
    naive = Recorded(lambda n: assets.get(n), LRU(1 << 30))
    for n, state in enumerate([(), ((0, 300, 1080, 420),),
                               ((0, 300, 1080, 420), (0, 380, 1080, 500)),
                               ((0, 1500, 1080, 1600),),
                               ((0, 800, 1080, 900), (0, 1300, 1080, 1400))]):
        ps = paints(*state)
        pl = PageLayers(head="", plate="d.png", paints=ps, layers=(), html="")
        base = rec.plate(rec.ground("d.png", ps, SIZE), *SIZE)
        got = rec.painted(pl, base, ("d.png", *SIZE, ps))
        want = _naive(naive, dialog, ps)
        assert np.array_equal(got.pixels, want), n
        assert decode_png(got.png()).tobytes() == want.tobytes()
    assert "d.png" in asked and asked.count("u.png") == 1  # window cut, ground once
    assert rec.ground("d.png", (window,), SIZE) == "d.png"  # no whole screen under it


def _theme_changed_then_dialog(spec):
    """A machine on `spec` (activitylauncher) with Settings' theme changed through its
    dialog, then the dialog opened again over Settings (the shared render cache: a look
    made from another by `replace` is told apart by its own token)."""
    from phoneworld.runtime import Machine

    m = Machine(spec)
    m.reset()
    m.jump("settings")

    def row(text: str) -> int:
        els = m.observe()
        at = next(i for i, e in enumerate(els) if e["text"] == text)
        return next(e["index"] for e in reversed(els[:at]) if e["clickable"])

    m.step({"action_type": "click", "index": row("Theme")})
    assert m.screen == "settings_theme"
    light = next(e for e in m.observe() if e["text"] == "Light Theme")
    m.step({"action_type": "click", "index": light["index"]})
    assert m.screen == "settings"
    assert "Light Theme" in [e["text"] for e in m.observe()]  # the value changed
    m.step({"action_type": "click", "index": row("Theme")})
    assert m.screen == "settings_theme"
    return m


def _under_lines(page: str, text: str) -> list[str]:
    """The divs of `page` that draw `text` and are none of its elements (no label)."""
    return [ln for ln in page.splitlines()
            if f"<span>{text}</span>" in ln and "aria-label" not in ln]


def _window(spec, window):
    from dataclasses import replace

    looks = spec.look.screens
    return replace(spec, look=replace(spec.look, screens={
        **looks, "settings_theme": replace(looks["settings_theme"], window=window)}))


def test_a_value_changed_under_a_dialog_is_drawn_dimmed_beside_its_window(activitylauncher,
                                                                          browser):
    """Settings' theme summary, changed, is wiped on Settings' plate and drawn anew: under
    the dialog it is drawn too, in its colour dimmed as the scrim dims, where the window
    leaves it (here: the window cut short above it), and only the part beside the
    window of a text it half covers; under the recorded window, nothing. The
    screenshot shows its ink there, dimmed (not the wiped row)."""
    from phoneworld.runtime.page import dimmed
    from phoneworld.serve.screenshots import Screenshotter

    spec = activitylauncher
    theme = spec.look.screens["settings_theme"]
    alpha = round(theme.scrim * 255)
    m = _theme_changed_then_dialog(spec)
    light = next(b for b in m.rendered().under.boxes if b.text == "Light Theme")
    x1, y1, x2, y2 = light.bounds
    assert theme.window[1] < y1 and y2 < theme.window[3]
    assert _under_lines(m.observe("html"), "Light Theme") == []  # under the window
    m.jump("settings")
    (own,) = _under_lines(m.observe("html").replace(' aria-label="Light Theme"', ""),
                          "Light Theme")
    color = own.split("color:")[1][:7]
    short = _window(spec, (*theme.window[:3], y1 - 40))
    m2 = _theme_changed_then_dialog(short)
    (line,) = _under_lines(m2.observe("html"), "Light Theme")
    assert f"color:{dimmed(color, alpha)}" in line and "clip-path" not in line
    assert "Light Theme" not in [e["text"] for e in m2.observe()
                                 if not e["checkable"]]  # pixels only, no element
    half = _window(spec, (*theme.window[:3], (y1 + y2) // 2))
    (cut,) = _under_lines(_theme_changed_then_dialog(half).observe("html"), "Light Theme")
    assert "clip-path:inset(" in cut
    shots = Screenshotter(timeout=120, assets=spec.look.asset)
    try:
        px = shots.pixels(m2.observe("html"), width=spec.width, height=spec.height)
    finally:
        shots.close()
    grey = px[y1:y2, x1:x2].astype(int).mean(axis=2)
    bg = int(dimmed("#fafafa", alpha)[1:3], 16)  # the row's wipe, dimmed
    assert grey.max() <= bg + 3  # all of it dimmed
    assert (grey < bg - 30).mean() > 0.01  # the new value's ink


def test_beside_keeps_what_a_window_leaves_in_one_rectangle():
    from phoneworld.runtime.page import _beside

    w = (100, 100, 200, 200)
    assert _beside((0, 0, 50, 50), w) == (0, 0, 50, 50)
    assert _beside((100, 150, 200, 250), w) == (100, 200, 200, 250)  # below it
    assert _beside((50, 120, 150, 180), w) == (50, 120, 100, 180)  # left of it
    assert _beside((120, 120, 180, 180), w) is None  # hidden
    assert _beside((50, 50, 150, 150), w) is None  # round a corner
    assert _beside((50, 120, 250, 180), w) is None  # on both sides
    assert _beside(None, w) is None


@pytest.fixture
def flipped_under_dialog():
    """Shoot a switch of Settings under the Theme dialog, flipped between shots:
    `shoot(spec, rows)` gives the switch's bounds, the scrim's colour and the pixels
    of rows `rows(y1, y2)` of its bounds (default: all) before, on Settings just
    flipped, and after (the dialog over it again), each an int array."""
    from phoneworld.runtime import Machine
    from phoneworld.serve.screenshots import Screenshotter

    shots = Screenshotter(timeout=60)
    if not shots.available:
        pytest.skip(shots.unavailable_reason)

    def shoot(spec, rows=lambda y1, y2: (y1, y2)):
        shots.assets = spec.look.asset
        size = dict(width=spec.width, height=spec.height)
        color = f"#000000{round(spec.look.screens['settings_theme'].scrim * 255):02x}"
        m = Machine(spec)
        m.reset()
        m.jump("settings")
        switch = next(e for e in m.observe() if e["checkable"] and not e["checked"])
        x1, y1, x2, y2 = switch["bounds"]
        r1, r2 = rows(y1, y2)

        def cut() -> np.ndarray:
            px = np.asarray(shots.pixels(m.observe("html"), **size))
            return px[r1:r2, x1:x2].astype(int)

        m.jump("settings_theme", 4, under=["settings"])
        before = cut()
        m.jump("settings")
        m.step({"action_type": "click", "index": switch["index"]})
        flipped = cut()
        m.jump("settings_theme", 4, under=["settings"])
        return switch["bounds"], color, before, flipped, cut()

    try:
        yield shoot
    finally:
        shots.close()


def test_a_switch_flipped_under_a_dialog_shows_its_new_state_dimmed(activitylauncher,
                                                                   flipped_under_dialog):
    """A Material switch flipped on Settings, then a dialog opened over Settings: where
    the window leaves the switch, the screenshot shows it in its new state, dimmed as
    the screen around it (the recorded one, in its old state, nowhere). The Theme
    dialog's window is lowered to leave the first switch out of it."""
    import dataclasses

    look = activitylauncher.look
    theme = dataclasses.replace(look.screens["settings_theme"], window=(27, 700, 1053, 1351))
    spec = dataclasses.replace(activitylauncher, look=dataclasses.replace(
        look, screens={**look.screens, "settings_theme": theme}))
    bounds, color, before, flipped, after = flipped_under_dialog(spec)
    assert bounds[3] <= 700  # above the window
    want = scrimmed(np.ascontiguousarray(flipped.astype(np.uint8)), color).astype(int)
    assert np.abs(after - before).max() > 40  # it changed under the dialog
    off = np.abs(after - want).max(axis=2)
    assert (off > 24).mean() < 0.01 and np.abs(after - want).mean() < 2.0


@pytest.mark.parametrize("seed", range(8))
def test_paints_laid_again_in_a_rectangle_are_those_laid_on_the_frame(seed):
    """`Recorded._relay` lays a rectangle's paints on a copy of it, put in the frame
    once: the same pixels as restoring the rectangle and laying each paint on the frame
    cut to it (colours, cuts of an image from anywhere on it, cuts in place that cover
    part of it, a scrim over the whole screen), and nothing outside the rectangle
    changes."""
    from phoneworld.runtime.cache import LRU

    rng = np.random.default_rng(seed)
    w, h = 120, 200
    base = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    rec = Recorded({"i.png": _png(img)}.get, LRU(1 << 26))

    def rect() -> tuple[int, int, int, int]:
        x1, y1 = int(rng.integers(-20, w)), int(rng.integers(-20, h))
        return x1, y1, x1 + int(rng.integers(1, 80)), y1 + int(rng.integers(1, 90))

    paints = []
    for k in range(12):
        if k % 3 == 0:
            paints.append(Paint(rect(), color=f"#{int(rng.integers(0, 1 << 24)):06x}"))
        elif k in (4, 10):  # a cut of the image in place, inside the screen: it covers
            x1, y1 = int(rng.integers(0, w - 10)), int(rng.integers(0, h - 10))
            paints.append(Paint((x1, y1, int(rng.integers(x1 + 1, w)),
                                 int(rng.integers(y1 + 1, h))), image="i.png",
                                image_size=(w, h)))
        elif k % 3 == 1:
            paints.append(Paint(rect(), image="i.png", image_size=(w, h),
                                origin=(int(rng.integers(-30, 30)), int(rng.integers(-30, 30)))))
        else:
            paints.append(Paint(rect(), color=f"#000000{int(rng.integers(1, 256)):02x}"))
    paints.append(Paint((0, 0, w, h), color="#00000099"))
    r = (int(rng.integers(0, 40)), int(rng.integers(0, 60)), int(rng.integers(60, w)),
         int(rng.integers(100, h)))
    start = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    got, want = Frame(start.copy()), Frame(start.copy())
    assert rec._relay(got, Frame(base), r, tuple(paints))
    want.paste(r[0], r[1], base[r[1]:r[3], r[0]:r[2]])
    for p in paints:
        assert rec.lay(want, p, r)
    assert np.array_equal(got.pixels, want.pixels)


def test_a_switch_flipped_under_a_dialogs_margin_shows_its_new_state(activitylauncher,
                                                                     flipped_under_dialog):
    """Activitylauncher's Theme dialog as compiled (its window the card): the first
    switch of Settings lies partly in the margin between the hierarchy's window and
    the card; flipped on Settings, that part shows its new state dimmed, not the
    recorded one (#22: the window's recorded pixels kept it)."""
    top = activitylauncher.look.screens["settings_theme"].window[1]
    bounds, color, before, flipped, after = flipped_under_dialog(
        activitylauncher, lambda y1, y2: (y1, top))
    assert 496 <= bounds[1] < top < bounds[3]  # partly in the margin
    want = scrimmed(np.ascontiguousarray(flipped.astype(np.uint8)), color).astype(int)
    assert np.abs(after - before).max() > 40  # it changed in the margin
    assert np.abs(after - want).max() <= 24


@pytest.mark.parametrize("seed", range(6))
def test_a_rectangle_less_a_window_is_the_pixels_outside_it(seed):
    """`recorded._less`: the parts of a rectangle outside a window (a dialog's, which
    covers what lies under it) do not overlap and cover the rectangle's pixels outside
    the window, and no others."""
    from phoneworld.serve.recorded import _less

    rng = np.random.default_rng(seed)
    for _ in range(50):
        def rect():
            x1, y1 = int(rng.integers(0, 60)), int(rng.integers(0, 60))
            return x1, y1, x1 + int(rng.integers(1, 40)), y1 + int(rng.integers(1, 40))

        r, hole = rect(), rect()
        want = np.zeros((100, 100), int)
        want[r[1]:r[3], r[0]:r[2]] = 1
        want[hole[1]:hole[3], hole[0]:hole[2]] = 0
        got = np.zeros((100, 100), int)
        for x1, y1, x2, y2 in _less(r, hole):
            got[y1:y2, x1:x2] += 1
        assert np.array_equal(got, want), (r, hole)
    assert _less((0, 0, 5, 5), None) == [(0, 0, 5, 5)]


def test_a_grown_dialog_shows_the_screen_under_it_round_its_card(activitylauncher):
    """A Settings row whose dialog has more rows than recorded (#22): the dialog grows
    with its list, its card moved apart at the list's end. What is cut from its plate
    lies in the card grown (not in the hierarchy window's margin round it, whose
    recorded pixels show the screen under it as recorded: moved, they showed it out of
    place), and laid, that margin is the screen under it as shown now, dimmed."""
    from phoneworld.runtime import Machine
    from phoneworld.runtime.cache import LRU
    from phoneworld.runtime.dialog import grown_window, growth
    from phoneworld.runtime.layers import page_layers
    from phoneworld.serve.plates import Plates

    spec = activitylauncher
    size = (spec.width, spec.height)
    look = spec.look.screens["settings_theme"]
    m = Machine(spec)
    m.reset()
    m.jump("settings")
    for e in [e for e in m.observe() if e["clickable"]]:
        m.jump("settings")
        m.step({"action_type": "click", "index": e["index"]})
        if m.screen == "settings_theme" and growth(m.rendered().boxes):
            break
    else:
        pytest.fail("no row of Settings opens a dialog that grows")
    r = m.rendered()
    g = growth(r.boxes)
    card = grown_window(look.window, g)
    x1, y1, x2, y2 = grown_window(r.boxes[0].view.bounds, g)  # the window, margin and all
    assert (x1, y1, x2, y2) != card
    pl = page_layers(m.observe("html"), size)
    for p in pl.paints:
        if p.image == look.plate:
            assert card[0] <= p.rect[0] and card[1] <= p.rect[1] and \
                p.rect[2] <= card[2] and p.rect[3] <= card[3], p
    rec = Recorded(spec.look.asset, LRU(1 << 29), Plates(0))
    got, want = (Frame(np.zeros((size[1], size[0], 3), np.uint8)) for _ in range(2))
    scrim = next(i for i, p in enumerate(pl.paints) if len(p.color) == 9)
    for p in pl.paints:
        assert rec.lay(got, p)
    for p in pl.paints[:scrim + 1]:  # the screen under it, dimmed
        assert rec.lay(want, p)
    margin = np.zeros((size[1], size[0]), bool)
    margin[y1:y2, x1:x2] = True
    margin[card[1]:card[3], card[0]:card[2]] = False
    assert margin.sum() > 50_000
    assert np.array_equal(got.pixels[margin], want.pixels[margin])


@pytest.mark.parametrize("seed", range(8))
def test_paints_laid_strip_by_strip_equal_every_paint_laid_in_order(seed):
    """A plate's paints are laid strip by strip (`Recorded._strips`: those whose rows
    overlap, on one copy of their strip): colours, see-through colours over what is
    there, cuts of the plate moved and of a sprite, overlapping and off the screen,
    give the bytes that laying each paint in turn gives."""
    from phoneworld.runtime.cache import LRU
    from phoneworld.runtime.layers import PageLayers
    from phoneworld.serve.plates import Plates

    rng = np.random.default_rng(seed)
    w, h = 120, 200
    plate = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    sprite = rng.integers(0, 256, (30, 50, 3), dtype=np.uint8)
    assets = {"p.png": _png(plate), "s.png": _png(sprite)}
    paints = []
    for _ in range(int(rng.integers(1, 25))):
        x1, y1 = int(rng.integers(-10, w)), int(rng.integers(-10, h))
        r = (x1, y1, x1 + int(rng.integers(1, 60)), y1 + int(rng.integers(1, 40)))
        kind = int(rng.integers(0, 4))
        if kind == 0:
            paints.append(Paint(r, color=f"#{int(rng.integers(0, 1 << 24)):06x}"))
        elif kind == 1:  # see-through: laid over what is there
            paints.append(Paint(r, color=f"#{int(rng.integers(0, 1 << 32)):08x}"))
        elif kind == 2:  # rows of the plate moved
            paints.append(Paint(r, image="p.png", image_size=(w, h),
                                origin=(0, int(rng.integers(-50, 50)))))
        else:
            paints.append(Paint(r, image="s.png", image_size=(50, 30), origin=r[:2]))
    ps = tuple(paints)
    rec = Recorded(assets.get, LRU(1 << 28), Plates(0))
    pl = PageLayers(head="", plate="p.png", paints=ps, layers=(), html="")
    got = rec.painted(pl, rec.plate("p.png", w, h, load=False), ("p.png", w, h, ps))
    want = _naive(Recorded(assets.get, LRU(1 << 28), Plates(0)), plate, ps)
    assert np.array_equal(got.pixels, want)
    assert got.png() == _png(want)
