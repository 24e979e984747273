"""A served app with a recorded look: its assets over HTTP, the phone page and the screenshot
API drawing the recorded pixels (in a real Chromium, where one is installed)."""

from __future__ import annotations

import dataclasses
import io
import threading

import pytest

pytest.importorskip("flask")
pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from phoneworld.apps import load_app  # noqa: E402
from phoneworld.compiler import compile_traces  # noqa: E402
from phoneworld.runtime import Machine  # noqa: E402
from phoneworld.serve.app import create_app  # noqa: E402
from phoneworld.serve.screenshots import CHROMIUM_ARGS, browser_missing, chromium_path  # noqa: E402
from phoneworld.visual.compare import edge_similarity  # noqa: E402
from phoneworld.visual.extract import screen_pixels  # noqa: E402
from tests.conftest import shared  # noqa: E402


@pytest.fixture(scope="module")
def onelist(tmp_path_factory):
    src = shared("droidbot", "onelist")
    out = tmp_path_factory.mktemp("look")
    (app,) = compile_traces(src, out)
    return out / app.name, app.recordings


def test_assets_are_served_by_name_and_nothing_else(onelist):
    path, _ = onelist
    spec = load_app(path).spec
    client = create_app([path]).test_client()
    plate = spec.look.screens[spec.start].plate
    r = client.get(f"/assets/{plate}")
    assert r.status_code == 200 and r.mimetype == "image/webp"
    assert r.data == (path / "assets" / plate).read_bytes()
    assert "immutable" in r.headers["Cache-Control"]
    for bad in ["0" * 16 + ".webp", "..%2Flook.json", "look.json", plate + ".png",
                plate.upper()]:
        assert client.get(f"/assets/{bad}").status_code == 404, bad


def test_the_screenshot_api_draws_the_recorded_pixels(onelist):
    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    path, recordings = onelist
    spec = load_app(path).spec
    app = create_app([path], screenshot_timeout=120)  # a loaded machine starts slowly
    client = app.test_client()
    try:
        sid = client.post("/api/sessions", json={}).json["session"]
        r = client.get(f"/api/sessions/{sid}/screenshot")
        assert r.status_code == 200 and r.headers["X-Screen-Size"] == "1080x1920"
        png = Image.open(io.BytesIO(r.data))
        assert png.size == (1080, 1920)  # the device's pixels
        (rec, *_) = [x for x in recordings[spec.start]
                     if x.source == spec.look.screens[spec.start].source]
        recorded = screen_pixels(Image.open(rec.screenshot), 1080, 1920)
        # Nearer the recording than the same screen drawn without its look. (Not equal:
        # the mock lays its list rows out at one pitch, the app at their own heights.)
        plain = app.extensions["phoneworld"].shots.shot(
            Machine(dataclasses.replace(spec, look=None)).reset().html, width=1080,
            height=1920)
        assert edge_similarity(r.data, recorded) > edge_similarity(plain, recorded) + 0.05
        assert edge_similarity(r.data, recorded) > 0.35
        # JPEG when asked (faster), the same picture.
        j = client.get(f"/api/sessions/{sid}/screenshot?type=jpeg")
        assert j.mimetype == "image/jpeg" and j.data[:2] == b"\xff\xd8"
        assert Image.open(io.BytesIO(j.data)).size == (1080, 1920)
        assert edge_similarity(j.data, r.data) > 0.9
        bad = client.get(f"/api/sessions/{sid}/screenshot?type=gif")
        assert bad.status_code == 400 and bad.json["field"] == "type"
    finally:
        app.extensions["phoneworld"].close()


def test_a_person_sees_the_recorded_pixels_in_the_phone_page(onelist):
    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    waitress_server = pytest.importorskip("waitress.server")
    from playwright.sync_api import sync_playwright

    path, _ = onelist
    app = create_app([path], screenshot_timeout=120)
    server = waitress_server.create_server(app, host="127.0.0.1", port=0, threads=2,
                                          asyncore_use_poll=True)  # close() races select()
    threading.Thread(target=server.run, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 1000})
            failed: list[str] = []
            page.on("requestfailed", lambda req: failed.append(req.url))
            page.on("response", lambda resp: failed.append(resp.url)
                    if resp.status >= 400 and "/assets/" in resp.url else None)
            page.goto(f"http://127.0.0.1:{server.effective_port}/")
            page.locator("body[data-step='0']").wait_for(timeout=10_000)
            img = page.frame_locator("#view").locator("img.plate")
            img.wait_for(timeout=10_000)
            page.wait_for_load_state("networkidle")
            shot = page.locator("#view").screenshot()
            browser.close()
        assert not failed, failed
        # What the person sees is what the screenshot API draws (shown 412 wide).
        api = app.test_client()
        sid = api.post("/api/sessions", json={}).json["session"]
        drawn = api.get(f"/api/sessions/{sid}/screenshot").data
        assert edge_similarity(shot, drawn) > 0.7
    finally:
        server.close()
        app.extensions["phoneworld"].close()


def test_a_click_at_x_y_lands_where_the_device_screenshot_shows_it():
    """One coordinate space: an element's bounds (what an AndroidWorld click uses) are
    where the device-size screenshot draws it."""
    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    from phoneworld.serve.screenshots import Screenshotter
    from tests.test_runtime import shop_spec, tap

    m = Machine(shop_spec())
    m.reset()
    tap(m, "Oat milk")
    (add,) = [e for e in m.observe() if e["text"] == "Add to cart"]
    shots = Screenshotter(timeout=120)
    try:
        png = shots.shot(m.observe("html"), width=1080, height=2400)
    finally:
        shots.close()
    img = Image.open(io.BytesIO(png)).convert("RGB")
    x1, y1, x2, y2 = add["bounds"]
    def blue(x: int, y: int) -> bool:
        r, g, b = img.getpixel((x, y))
        return b > 180 and r < 80

    cy = (y1 + y2) // 2
    assert blue((x1 + x2) // 2, y1 + 8) and blue(x1 + 40, cy)  # the button, inside
    assert not blue((x1 + x2) // 2, y1 - 10) and not blue(x2 + 10, cy)  # just outside


def test_a_look_made_from_another_is_told_apart_in_render_keys(onelist):
    # Renderings are shared between equal specs, which equality does not tell apart by
    # their look: a look made by `replace` (another window, another plate) must not be
    # served the renderings of the look it was made from.
    spec = load_app(onelist[0]).spec
    other = dataclasses.replace(spec.look, screens=dict(spec.look.screens))
    assert other == spec.look and other.token != spec.look.token
    a, b = Machine(spec), Machine(dataclasses.replace(spec, look=other))
    assert a.reset().rendering is not b.reset().rendering
