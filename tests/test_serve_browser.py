"""The served phone in a real Chromium (Debian's, through Playwright): a person's taps change
the screen, screenshots are PNGs of the right size, and trace text never runs as script.

Skips cleanly where Playwright, Chromium (`apt-get install chromium`, or
$PHONEWORLD_CHROMIUM) or waitress is missing.
"""

from __future__ import annotations

import struct
import threading
import time
from dataclasses import replace

import pytest

pytest.importorskip("flask")
waitress_server = pytest.importorskip("waitress.server")

from phoneworld.serve.app import create_app  # noqa: E402
from phoneworld.serve.screenshots import browser_missing, chromium_path  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.shop import SCRIPT, shop_spec  # noqa: E402

CHROMIUM = chromium_path()
_missing = browser_missing(CHROMIUM)
pytestmark = pytest.mark.skipif(_missing is not None, reason=_missing or "")


def _serve(app):
    server = waitress_server.create_server(app, host="127.0.0.1", port=0, threads=4,
                                          asyncore_use_poll=True)  # close() races select()
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, f"http://127.0.0.1:{server.effective_port}"


@pytest.fixture(scope="module")
def live():
    """A waitress server on 127.0.0.1 holding the generated apps as one phone."""
    app = create_app(ROOT / "generated", chromium=CHROMIUM)
    server, url = _serve(app)
    yield app, url
    server.close()
    app.extensions["phoneworld"].close()


def _at_step(page, n: int) -> None:
    # A selector wait, not wait_for_function: the page's CSP rightly forbids eval.
    page.locator(f"body[data-step='{n}']").wait_for(timeout=10_000)


def test_a_person_taps_through_the_phone(live, browser):
    app, url = live
    page = browser.new_page(viewport={"width": 1100, "height": 1000})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(url + "/")
    _at_step(page, 0)
    assert page.locator("#app").text_content() == "launcher"
    launcher = page.frame_locator("#view").locator("[data-index]")
    assert launcher.count() >= 2
    names = [launcher.nth(i).text_content() for i in range(launcher.count())]
    touch = page.locator("#touch").bounding_box()
    assert (touch["width"], touch["height"]) == (412, 915)

    def tap(i: int) -> None:  # the middle of the launcher's icon i, through the overlay
        box = launcher.nth(i).bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    tap(1)
    _at_step(page, 1)
    opened = page.locator("#app").text_content()
    assert opened != "launcher" and opened.casefold() == names[1].casefold()
    first_screen = page.locator("body").get_attribute("data-screen")
    # Tap elements of the app until one moves to another screen.
    elements = page.frame_locator("#view").locator(".click")
    steps, moved = 1, False
    for i in range(min(elements.count(), 12)):
        box = elements.nth(i).bounding_box()
        if box is None or box["width"] < 4 or box["height"] < 4:
            continue
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        steps += 1
        _at_step(page, steps)
        if page.locator("body").get_attribute("data-screen") != first_screen:
            moved = True
            break
    assert moved, "no tap changed the screen"
    page.click("#home")
    steps += 1
    _at_step(page, steps)
    assert page.locator("#package").text_content() == "com.android.launcher3"
    assert not problems, problems
    page.close()


def test_screenshots_are_pngs_of_the_phone(live):
    import http.client

    app, url = live
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(method: str, path: str, body: str | None = None):
        conn.request(method, path, body=body,
                     headers={"Content-Type": "application/json"} if body else {})
        resp = conn.getresponse()
        return resp, resp.read()

    import json

    _, raw = call("POST", "/api/sessions", "{}")
    sid = json.loads(raw)["session"]
    resp, png = call("GET", f"/api/sessions/{sid}/screenshot")
    assert resp.status == 200 and resp.getheader("Content-Type") == "image/png"
    # The device's pixels by default, so a click at (x, y) lands where the picture shows.
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1080, 2400)
    assert resp.getheader("X-Screen-Size") == "1080x2400"
    resp, png = call("GET", f"/api/sessions/{sid}/screenshot?scale=css")
    assert struct.unpack(">II", png[16:24]) == (412, 915)
    # Fresh pages (a comment makes each new to the PNG cache) each get their own shot;
    # how fast is benchmarks/browser.py's to say.
    shots = app.extensions["phoneworld"].shots
    _, raw = call("GET", f"/api/sessions/{sid}/observation?format=html")
    html = json.loads(raw)["html"]
    pngs = [shots.shot(f"{html}<!-- {i} -->", width=1080, height=2400) for i in range(3)]
    assert all(png[:8] == b"\x89PNG\r\n\x1a\n" for png in pngs)
    assert {struct.unpack(">II", png[16:24]) for png in pngs} == {(1080, 2400)}  # device size
    conn.close()


def test_trace_script_never_runs_in_the_page(browser):
    spec = replace(shop_spec(), title=SCRIPT)
    app = create_app([spec], chromium=CHROMIUM)
    server, url = _serve(app)
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(url + "/")
        _at_step(page, 0)
        view = page.frame_locator("#view")
        assert view.get_by_text(SCRIPT, exact=True).count() >= 1  # shown as text
        assert SCRIPT in page.locator("h1").text_content()
        # Typing: tap the search field, type, press Enter -> the results screen.
        field = view.get_by_text("Search products", exact=True).bounding_box()
        page.mouse.click(field["x"] + 20, field["y"] + field["height"] / 2)
        _at_step(page, 1)
        page.fill("#text", "bread")
        page.click("#type")
        _at_step(page, 2)
        assert view.get_by_text("bread", exact=True).count() == 1
        page.click("#enter")
        _at_step(page, 3)
        assert page.locator("#screenname").text_content() == "results"
        page.click("#back")
        _at_step(page, 4)
        # The wheel scrolls the list under the pointer.
        before = view.locator(".phone").text_content()
        touch = page.locator("#touch").bounding_box()
        page.mouse.move(touch["x"] + 150, touch["y"] + touch["height"] / 2)
        page.mouse.wheel(0, 400)
        _at_step(page, 5)
        assert page.locator("#event").text_content().startswith("scroll")
        assert view.locator(".phone").text_content() != before
        # The wait button sends `wait` (a splash gives way; here nothing changes).
        page.click("#wait")
        _at_step(page, 6)
        assert page.locator("#event").text_content().startswith("wait")
        time.sleep(0.2)
        assert not dialogs
        page.close()
    finally:
        server.close()
        app.extensions["phoneworld"].close()
