"""Screenshots: a screen's HTML page rendered to PNG by Chromium, driven by Playwright.

Playwright's sync objects belong to the thread that made them, so one worker thread owns
the browser and request threads hand it jobs through a queue:

    shots = Screenshotter("/usr/bin/chromium")
    png = shots.shot(session.html(), width=1080, height=2400)                # 1080x2400
    png = shots.shot(session.html(), width=1080, height=2400, device=False)  # 412x915
    shots.close()

The browser starts on the first job (or on `start()`), runs Debian's Chromium (never a
downloaded one), and draws each page with two DevTools calls: `Page.setDocumentContent`
(no navigation) and `Page.captureScreenshot`. A page of an app with a recorded look
refers to its images as `assets/<hash>`: the browser's page lies at a private origin
whose requests Playwright answers from `assets` (a lookup by name, in memory, nothing
from the network), and the shot waits until every image is decoded. Identical pages are
common (every fresh session shows the same start screen), so recent PNGs are kept by the
page's hash. If Chromium or Playwright is missing, every call fails fast with a message
that says what to install; if the browser dies, the next call starts a new one.
"""

from __future__ import annotations

import base64
import hashlib
import os
import queue
import shutil
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from phoneworld.errors import PhoneworldError
from phoneworld.serve.errors import ScreenshotUnavailable, ServerBusy
from phoneworld.serve.ui import FRAME_WIDTH

ORIGIN = "http://phoneworld.invalid/"
"""Where the browser's pages lie: `.invalid` never resolves, and every request to it is
answered by the screenshotter itself (assets, or 404)."""
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ENV = "PHONEWORLD_CHROMIUM"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
"""No sandbox (containers often lack user namespaces); no network chatter at all."""


def chromium_path(explicit: str | None = None) -> str:
    """The Chromium to run: `explicit`, else $PHONEWORLD_CHROMIUM, else /usr/bin/chromium."""
    return explicit or os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM


def browser_missing(executable: str) -> str | None:
    """Why screenshots cannot work here (a message with the fix), or None if they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return ("screenshots need Playwright: pip install 'phoneworld[browser]' "
                "(never `playwright install`; phoneworld runs Debian's Chromium)")
    path = executable if os.sep in executable else shutil.which(executable)
    if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
        return (f"screenshots need Chromium at {executable}: apt-get install chromium, "
                f"or point ${CHROMIUM_ENV} (or --chromium) at the browser")
    return None


@dataclass
class _Job:
    html: str
    width: int
    height: int
    device: bool
    jpeg: bool = False
    done: Future = field(default_factory=Future)


_STOP = object()
_DECODED = "Promise.all(Array.from(document.images, i => i.decode().catch(() => 0)))"


class Screenshotter:
    """One browser, owned by one thread, fed through a bounded queue."""

    def __init__(self, executable: str | None = None, *, timeout: float = 10.0,
                 queue_size: int = 64, cache_size: int = 128,
                 assets: Callable[[str], bytes | None] | None = None) -> None:
        self.executable = chromium_path(executable)
        self.assets = assets
        """Asset bytes by name (`runtime.look.asset_source`), for pages with a look."""
        self.timeout = timeout
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=queue_size)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._cache: OrderedDict[tuple[str, int, int, bool, bool], bytes] = OrderedDict()
        self._cache_size = cache_size
        self._missing: str | None = None
        self.rendered = 0
        """How many PNGs the browser has drawn (cache hits not counted)."""

    @property
    def available(self) -> bool:
        """Whether a browser can be run (Playwright importable, Chromium executable)."""
        return self._why_missing() is None

    @property
    def unavailable_reason(self) -> str | None:
        """Why screenshots cannot be taken (with the fix), or None when they can."""
        return self._why_missing()

    def start(self) -> None:
        """Start the browser thread now, so that the first screenshot is not slow."""
        if self._why_missing() is None:
            self._ensure_thread()

    def shot(self, html: str, *, width: int, height: int, device: bool = True,
             jpeg: bool = False) -> bytes:
        """`html` (a screen of a `width` x `height`-pixel app) as PNG bytes in the app's own
        pixels (e.g. 1080x2400: a tap at (x, y) lands where the picture shows it), or
        without `device` 412 CSS pixels wide (e.g. 412x915); with `jpeg`, JPEG bytes
        (quality 90: a smaller file; drawing the page costs the same)."""
        key = (hashlib.blake2b(html.encode(), digest_size=16).hexdigest(), width, height,
               device, jpeg)
        with self._lock:
            png = self._cache.get(key)
            if png is not None:
                self._cache.move_to_end(key)
                return png
        why = self._why_missing()
        if why is not None:
            raise ScreenshotUnavailable(why)
        self._ensure_thread()
        job = _Job(html, width, height, device, jpeg)
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            raise ServerBusy(f"{self._queue.maxsize} screenshots are waiting for the "
                             "browser; retry in a moment") from None
        try:
            png = job.done.result(self.timeout)
        except FutureTimeout:
            job.done.cancel()
            raise ServerBusy(f"the browser took more than {self.timeout:g} s for a "
                             "screenshot; retry in a moment") from None
        with self._lock:
            self._cache[key] = png
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return png

    def close(self, timeout: float = 10.0) -> None:
        """Stop the browser and its thread (pending jobs fail)."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            try:
                self._queue.put(_STOP, timeout=timeout)
            except queue.Full:
                return  # a daemon thread: it goes with the process
            thread.join(timeout)

    # -- the browser thread -----------------------------------------------------------------

    def _why_missing(self) -> str | None:
        if self._missing is None:
            self._missing = browser_missing(self.executable) or ""
        return self._missing or None

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="phoneworld-browser",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        browser = None
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=self.executable,
                                             args=CHROMIUM_ARGS)
                pages: dict[tuple[int, int], tuple[Any, Any, str]] = {}
                while True:
                    job = self._queue.get()
                    if job is _STOP:
                        break
                    if not job.done.set_running_or_notify_cancel():
                        continue
                    try:
                        job.done.set_result(self._draw(browser, pages, job))
                    except PlaywrightError as err:
                        job.done.set_exception(ScreenshotUnavailable(
                            f"the browser failed to draw the screen: {err}"))
                        if not browser.is_connected():
                            break
                browser.close()
        except Exception as err:
            if browser is None:  # it never started: say so to every later call, too
                self._missing = f"cannot start Chromium at {self.executable}: {err}"
            self._fail_pending(ScreenshotUnavailable(
                f"the browser at {self.executable} failed: {err}"))
        finally:
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None
            self._fail_pending(ScreenshotUnavailable("the browser stopped; retry"))

    def _draw(self, browser: Any, pages: dict[tuple[int, int], tuple[Any, Any, str]],
              job: _Job) -> bytes:
        # CSS pixels: the 412-wide frame, height rounded down (1080x2400 -> 412x915).
        # Device pixels: a window of the app's exact size, which the page's own
        # `<meta name=viewport content="width=412">` scales the frame to fill (a mobile
        # context honours it). A clip scaled by 1080/412 instead comes out 2399 rows high
        # in Chromium 150, which rounds the clip to whole CSS pixels first.
        exact = FRAME_WIDTH * job.height / max(1, job.width)
        viewport = (job.width, job.height) if job.device else (FRAME_WIDTH, max(1, int(exact)))
        got = pages.get(viewport)
        if got is None:
            ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                      device_scale_factor=1, is_mobile=True, has_touch=True,
                                      java_script_enabled=False)
            page = ctx.new_page()
            page.route(f"{ORIGIN}**", self._answer)
            page.goto(ORIGIN)
            cdp = ctx.new_cdp_session(page)
            frame = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
            got = pages[viewport] = (page, cdp, frame)
        _, cdp, frame = got
        cdp.send("Page.setDocumentContent", {"frameId": frame, "html": job.html})
        if "<img" in job.html:
            # Images load and decode after the document is set: wait for them (a DevTools
            # evaluation, which runs with the page's own scripts off).
            cdp.send("Runtime.evaluate", {"expression": _DECODED, "awaitPromise": True})
        # optimizeForSpeed: faster zlib settings, a slightly larger PNG (about 34 vs 39 ms).
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        if job.jpeg:
            params = {"format": "jpeg", "quality": 90, "optimizeForSpeed": True}
        self.rendered += 1
        return base64.b64decode(cdp.send("Page.captureScreenshot", params)["data"])

    def _answer(self, route: Any) -> None:
        """Answer a request of the browser's page: an asset, the blank start page, or 404."""
        path = route.request.url[len(ORIGIN):].split("?", 1)[0]
        if path == "":
            route.fulfill(status=200, content_type="text/html",
                          body="<!doctype html><title>phoneworld</title>")
            return
        name = path.removeprefix("assets/")
        data = None
        if name != path and self.assets is not None:
            try:
                data = self.assets(name)
            except PhoneworldError:
                data = None
        if data is None:
            route.fulfill(status=404, body="")
            return
        kind = {"webp": "image/webp", "png": "image/png", "jpg": "image/jpeg"}
        route.fulfill(status=200, body=data, content_type=kind.get(name.rsplit(".", 1)[-1],
                                                                   "application/octet-stream"),
                      headers={"Cache-Control": "public, max-age=31536000, immutable"})

    def _fail_pending(self, err: Exception) -> None:
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if job is not _STOP and job.done.set_running_or_notify_cancel():
                job.done.set_exception(err)
