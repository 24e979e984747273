"""Plates prepared ahead (`serve.plates`): what the painter lays from them is what it lays
from plates decoded on the spot, pixel for pixel and byte for byte."""

from __future__ import annotations

import random

import numpy as np
import pytest

from phoneworld.runtime.cache import LRU
from phoneworld.runtime.compose import Paint
from phoneworld.runtime.layers import PageLayers, page_layers
from phoneworld.serve.frame import BAND, Frame, decode_png, scrimmed
from phoneworld.serve.plates import Plates, decode_image, plate_names, plates_of
from phoneworld.serve.recorded import Recorded, unchanged


def _png(px: np.ndarray) -> bytes:
    return Frame(px).png()


def test_a_prepared_plate_is_its_png_bands_and_decodes_to_its_pixels():
    rng = np.random.default_rng(1)
    img = rng.integers(0, 256, (5 * BAND + 7, 40, 3), dtype=np.uint8)
    small = rng.integers(0, 256, (50, 20, 3), dtype=np.uint8)  # stretched to 40 wide
    assets = {"a.png": _png(img), "s.png": _png(small)}
    plates = Plates(1 << 26)
    window = ("s.png", (3, 10, 30, 2 * BAND + 5))  # a dialog's window over the dimmed a
    plates.prepare(assets.get, [("a.png", "", None), ("s.png", "", None),
                                ("gone.png", "", None), ("a.png", "#00000099", None),
                                ("a.png", "#00000099", window),
                                ("a.png", "#00000099", ("gone.png", (0, 0, 4, 4)))],
                   40, 5 * BAND + 7)
    assert plates.wait(60) and plates.prepared == 4
    f = plates.get("a.png", 40, 5 * BAND + 7)
    assert not f.loaded and f.png() == Frame(img).png() and not f.loaded
    assert np.array_equal(f.pixels, img)
    s = plates.get("s.png", 40, 5 * BAND + 7)
    assert np.array_equal(s.pixels, decode_image(assets["s.png"], 40, 5 * BAND + 7))
    assert plates.get("gone.png", 40, 5 * BAND + 7) is None
    assert plates.get("a.png", 40, 99) is None  # another size: not prepared
    dim = plates.get("a.png", 40, 5 * BAND + 7, "#00000099")  # a dialog's ground
    assert dim.loaded and not dim.pixels.flags.writeable  # (its pixels kept: `decoded`)
    assert np.array_equal(dim.pixels, scrimmed(img, "#00000099"))
    assert dim.png() == Frame(scrimmed(img, "#00000099")).png()
    copy = dim.copy()  # (drawn on a copy: the shared pixels stay as they are)
    copy.fill((0, 0, 40, 40), (1, 2, 3))
    assert np.array_equal(plates.get("a.png", 40, 5 * BAND + 7, "#00000099").pixels,
                          scrimmed(img, "#00000099"))
    # A dialog's ground with its window laid on it: the window's rectangle cut from the
    # dialog's plate (as `Recorded.lay` lays it), the rest the dimmed ground.
    want = scrimmed(img, "#00000099")
    want[10:2 * BAND + 5, 3:30] = decode_image(assets["s.png"], 40, 5 * BAND + 7)[
        10:2 * BAND + 5, 3:30]
    laid = plates.get("a.png", 40, 5 * BAND + 7, "#00000099", window)
    assert np.array_equal(laid.pixels, want) and laid.png() == Frame(want).png()
    assert plates.get("a.png", 40, 5 * BAND + 7, "#00000099", ("gone.png", (0, 0, 4, 4))) \
        is None  # (a window that cannot be read: nothing prepared)
    # What it keeps is the bands alone, and each copy handed out is its own.
    assert plates.kept.weight == sum(
        len(b[0]) for name, color, win in (("a.png", "", None), ("s.png", "", None),
                                           ("a.png", "#00000099", None),
                                           ("a.png", "#00000099", window))
        for b in plates.get(name, 40, 5 * BAND + 7, color, win)._bands)
    f.fill((0, 0, 40, 3), (1, 2, 3))
    assert plates.get("a.png", 40, 5 * BAND + 7).png() == Frame(img).png()
    small = Plates(dim.nbytes)  # (no room for a dialog ground's pixels: bands alone)
    small.prepare(assets.get, [("a.png", "#00000099", None)], 40, 5 * BAND + 7)
    assert small.wait(60) and not small.get("a.png", 40, 5 * BAND + 7, "#00000099").loaded
    none = Plates(0)
    none.prepare(assets.get, [("a.png", "", None)], 40, 5 * BAND + 7)
    assert none.wait(1) and none.get("a.png", 40, 5 * BAND + 7) is None


def test_paints_laid_on_a_prepared_plate_are_those_laid_on_a_decoded_one():
    """Rows moved on the plate (cut from it, full width and not), colours, a scrim and a
    dialog over another screen (its window prepared on the dimmed ground, with paints
    after it inside the window and across its rows beyond it: a card grown with its
    list): each state laid from the last, on a compact plate (its rows inflated where
    read) and on one decoded whole, gives the same frame."""
    w, h = 60, 8 * BAND
    rng = np.random.default_rng(2)
    plate, under = (rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for _ in range(2))
    assets = {"p.png": _png(plate), "u.png": _png(under)}
    plates = Plates(1 << 26)
    plates.prepare(assets.get, [("p.png", "", None), ("u.png", "", None),
                                ("u.png", "#00000099", None),
                                ("u.png", "#00000099", ("p.png", (5, 60, 55, 200)))], w, h)
    assert plates.wait(60) and plates.prepared == 4
    fast = Recorded(assets.get, LRU(1 << 28), plates)
    slow = Recorded(assets.get, LRU(1 << 28), Plates(0))
    whole = (0, 0, w, h)
    states = [
        (Paint((0, 40, w, 100), color="#fafafa"),
         Paint((0, 40, w, 100), image="p.png", image_size=(w, h), origin=(0, -60))),
        (Paint((0, 40, w, 200), color="#fafafa"), Paint((5, 70, 30, 90), color="#102030"),
         Paint((0, 40, w, 100), image="p.png", image_size=(w, h), origin=(0, 100))),
        (Paint((10, 10, 50, 30), color="#00000040"),),
        (Paint(whole, image="u.png", image_size=(w, h)), Paint(whole, color="#00000099"),
         Paint((5, 60, 55, 200), image="p.png", image_size=(w, h))),
        (Paint(whole, image="u.png", image_size=(w, h)), Paint((0, 0, w, 50), color="#abcdef"),
         Paint(whole, color="#00000099"),
         Paint((5, 60, 55, 200), image="p.png", image_size=(w, h)),
         Paint((5, 20, 55, 60), image="p.png", image_size=(w, h)),
         Paint((5, 90, 55, 140), color="#ffffff"), Paint((0, 150, w, 170), color="#00000040"),
         Paint((8, 95, 40, 120), image="u.png", image_size=(w, h), origin=(0, 30))),
        (Paint(whole, image="u.png", image_size=(w, h)), Paint(whole, color="#00000099"),
         Paint((5, 60, 55, 200), image="p.png", image_size=(w, h)),
         Paint((5, 100, 55, 130), color="#ffffff")),
        (),
    ]
    for n, paints in enumerate(states):
        pl = PageLayers(head="", plate="p.png", paints=paints, layers=(), html="")
        frames = []
        for rec in (fast, slow):
            base = rec.plate(rec.ground("p.png", paints, (w, h)), w, h,
                             load=False)
            frames.append(rec.painted(pl, base, ("p.png", w, h, paints))
                          if paints else base)
        got, want = frames
        assert got.png() == want.png(), n
        assert np.array_equal(got.pixels, want.pixels), n
    # (The dialog's states were laid from its window prepared on its ground.)
    assert fast.kept.get(("dimmed", "u.png", w, h, "#00000099", ("p.png", (5, 60, 55, 200))))


@pytest.mark.parametrize("seed", range(8))
def test_paints_that_restore_the_ground_are_left_out_and_nothing_else_changes(seed):
    """`unchanged`: paints laid on a recorded image less the cuts of that image where it
    lies and what they cover (a list row wiped and laid back where it was recorded)
    give the same pixels as every paint laid in order."""
    w, h = 50, 3 * BAND
    rng = np.random.default_rng(seed)
    ground = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    other = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    assets = {"g.png": _png(ground), "o.png": _png(other)}
    rec = Recorded(assets.get, LRU(1 << 26), Plates(0))

    def rect() -> tuple[int, int, int, int]:
        x, y = int(rng.integers(-5, w)), int(rng.integers(-5, h))
        return (x, y, x + int(rng.integers(1, 40)), y + int(rng.integers(1, 60)))

    paints = []
    for _ in range(12):
        kind = rng.integers(0, 5)
        if kind < 2:  # a cut of the ground where it lies
            paints.append(Paint(rect(), image="g.png", image_size=(w, h)))
        elif kind == 2:
            paints.append(Paint(rect(), color=f"#{int(rng.integers(0, 1 << 24)):06x}"))
        elif kind == 3:  # see-through
            paints.append(Paint(rect(), color=f"#102030{int(rng.integers(0, 256)):02x}"))
        else:  # rows moved
            paints.append(Paint(rect(), image=str(rng.choice(["g.png", "o.png"])),
                                image_size=(w, h), origin=(0, int(rng.integers(-9, 9)))))
    kept = unchanged(tuple(paints), "g.png", (w, h))
    laid = []
    for ps in (paints, kept):
        f = Frame(ground.copy())
        for p in ps:
            assert rec.lay(f, p)
        laid.append(f.pixels)
    assert np.array_equal(*laid)
    assert set(kept) <= set(paints)
    row = (0, 10, w, 30)
    wiped = (Paint(row, color="#fafafa"), Paint(row, image="g.png", image_size=(w, h)),
             Paint((3, 40, 9, 50), color="#000000"))
    assert unchanged(wiped, "g.png", (w, h)) == wiped[2:]
    assert unchanged(wiped, "o.png", (w, h)) == wiped


def test_a_dialog_jumped_to_has_its_ground_over_the_start_screen_prepared():
    """A dialog that no transition opens over the start screen is still shown over it
    (`Machine.jump`'s default): its ground there is prepared too."""
    from types import SimpleNamespace

    from phoneworld.runtime.look import Look, ScreenLook

    dialog = ScreenLook(plate="d.png", window=(0, 10, 30, 50), scrim=0.6)
    spec = SimpleNamespace(
        look=Look(screens={"home": ScreenLook(plate="h.png"), "list": ScreenLook(
            plate="l.png"), "pick": dialog}), screens=[], start="home",
        transitions=[SimpleNamespace(screen="list", target="pick")])
    jobs = plates_of(spec)
    for under in ("h.png", "l.png"):
        assert (under, "#00000099", None) in jobs
        assert (under, "#00000099", ("d.png", (0, 10, 30, 50))) in jobs
    assert len(jobs) == len(set(jobs)) == 3 + 4


def _walk(spec, steps: int = 30) -> list[str]:
    """Pages of every screen of `spec`'s look, reached directly, and of a seeded walk of
    taps, typing and back from each."""
    from phoneworld.runtime import Machine

    rng = random.Random(0)
    m = Machine(spec)
    m.reset(0)
    pages = [m.observe("html")]
    for screen in sorted(spec.look.screens):
        try:
            m.jump(screen)
        except Exception:  # noqa: BLE001 - a screen that needs a parameter
            continue
        pages.append(m.observe("html"))
        for _ in range(steps // max(1, len(spec.look.screens)) + 1):
            els = m.observe()
            taps = [e for e in els if e["clickable"]]
            edits = [e for e in els if e["editable"]]
            r = rng.random()
            try:
                if edits and r < 0.3:
                    m.step({"action_type": "input_text", "index": rng.choice(edits)["index"],
                            "text": "Zebra 42"})
                elif taps and r < 0.9:
                    m.step({"action_type": "click", "index": rng.choice(taps)["index"]})
                else:
                    m.step({"action_type": "navigate_back"})
            except Exception:  # noqa: BLE001 - an invalid action: the walk goes on
                continue
            pages.append(m.observe("html"))
    return pages


def _folders() -> list[str]:
    from tests.test_visual_real import FOLDERS

    return FOLDERS


@pytest.mark.parametrize("folder", _folders())
def test_every_shared_apps_screens_lay_alike_on_prepared_plates(folder, tmp_path_factory):
    """Every page of a walk through the compiled app, laid as the painter lays it (the
    ground, the paints from the last state on that plate) from plates prepared ahead and
    from plates decoded on the spot: the same pixels, in the frame and in its PNG (asked
    for before its pixels: from the bands prepared and those drawn again)."""
    from phoneworld.apps import load_app
    from tests.test_visual_real import _compile

    got = _compile(folder, tmp_path_factory)
    if isinstance(got, Exception):
        pytest.skip(f"{folder} does not compile here: {got}")
    spec = load_app(got[0]).spec
    assert spec.look is not None
    size = (spec.width, spec.height)
    plates = Plates(1 << 30)
    plates.prepare(spec.look.asset, plates_of(spec), *size)
    assert plates.wait(300) and plates.prepared == len(plates_of(spec))
    fast = Recorded(spec.look.asset, LRU(1 << 29), plates)
    slow = Recorded(spec.look.asset, LRU(1 << 29), Plates(0))
    laid = 0
    for page in _walk(spec):
        pl = page_layers(page, size)
        if pl is None or not pl.plate:
            continue
        frames = []
        for rec in (fast, slow):
            name = rec.ground(pl.plate, pl.paints, size)
            base = rec.plate(name, *size, load=False)
            assert base is not None
            frames.append(rec.painted(pl, base, (pl.plate, *size, pl.paints))
                          if pl.paints else base)
        fast_png, slow_png = (f.png() for f in frames)  # PNGs first: from the bands
        want = frames[1].pixels
        assert np.array_equal(decode_png(fast_png), want), page[:200]
        assert np.array_equal(decode_png(slow_png), want), page[:200]
        assert np.array_equal(frames[0].pixels, want), page[:200]
        laid += 1
    assert laid >= len(spec.look.screens) // 2


def test_a_screenshotter_prepares_the_plates_of_the_apps_it_is_given():
    """`Screenshotter.prepare` (what `serve` and the in-process env call with their
    apps): every plate of each app's look, P0 screens first, into the process's plates,
    with no browser started; an app with no look prepares nothing."""
    from types import SimpleNamespace

    from phoneworld.runtime.look import Look, ScreenLook
    from phoneworld.serve.plates import PLATES
    from phoneworld.serve.screenshots import Screenshotter

    rng = np.random.default_rng(4)
    names = [f"{n:016x}.png" for n in (0xB39, 0xB3A)]
    assets = {n: _png(rng.integers(0, 256, (70, 30, 3), dtype=np.uint8)) for n in names}
    look = Look(screens={"list": ScreenLook(plate=names[0]),
                         "detail": ScreenLook(plate=names[1])})
    screens = [SimpleNamespace(name="list", priority="P1"),
               SimpleNamespace(name="detail", priority="P0")]
    spec = SimpleNamespace(look=look, screens=screens, width=30, height=70)
    assert plate_names(spec) == [names[1], names[0]]  # P0 first
    dialog = ScreenLook(plate=names[0], window=(0, 10, 30, 50), scrim=0.6)
    opens = SimpleNamespace(look=Look(screens={"list": ScreenLook(plate=names[1]),
                                               "pick": dialog}),
                            screens=[], transitions=[SimpleNamespace(screen="list",
                                                                     target="pick")])
    assert plates_of(opens) == [(names[1], "", None), (names[0], "", None),
                                (names[1], "#00000099", None),
                                (names[1], "#00000099", (names[0], (0, 10, 30, 50)))]
    assert plate_names(SimpleNamespace(look=None, screens=[])) == []
    shots = Screenshotter(assets=assets.get)
    shots.prepare([spec, SimpleNamespace(look=None, screens=[], width=30, height=70)])
    assert PLATES.wait(60)
    for n in names:
        assert PLATES.get(n, 30, 70).png() == assets[n]  # (ours: the same encoder)
    assert shots.painter is None and shots._thread is None  # no browser


def test_a_plate_a_screenshot_needs_first_is_prepared_by_it_and_not_again():
    """`Plates.take`: a plate not prepared yet is decoded and encoded by the caller (its
    own loaded frame, the same pixels and PNG as one decoded whole), kept for later
    callers, and skipped by the background where its job was queued; nothing where no
    memory is given, or for an image that cannot be read."""
    import threading

    rng = np.random.default_rng(6)
    img = rng.integers(0, 256, (3 * BAND + 5, 24, 3), dtype=np.uint8)
    assets = {"a.png": _png(img), "b.png": _png(img[::-1].copy())}
    plates = Plates(1 << 26)
    gate = threading.Event()

    def slow(name: str) -> bytes | None:  # the background waits on the gate
        if threading.current_thread().name == "phoneworld-plates":
            gate.wait(30)
        return assets.get(name)

    plates.prepare(slow, [("b.png", "", None), ("a.png", "", None)], 24, 3 * BAND + 5)
    f = plates.take(assets.get, "a.png", 24, 3 * BAND + 5)  # before the background's turn
    assert f is not None and f.loaded and np.array_equal(f.pixels, img)
    assert f.png() == Frame(img.copy()).png()
    gate.set()
    assert plates.wait(60) and plates.prepared == 1  # b.png only: a.png was taken
    kept = plates.get("a.png", 24, 3 * BAND + 5)
    assert kept is not None and not kept.loaded and kept.png() == f.png()
    assert np.array_equal(kept.pixels, img)
    assert plates.take(assets.get, "gone.png", 24, 3 * BAND + 5) is None
    assert Plates(0).take(assets.get, "a.png", 24, 3 * BAND + 5) is None
