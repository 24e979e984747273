"""Screenshots: a screen's HTML page drawn by Chromium, driven by Playwright.

Playwright's sync objects belong to the thread that made them, so one worker thread owns
the browser and request threads hand it jobs through a queue:

    shots = Screenshotter("/usr/bin/chromium")
    png = shots.shot(session.html(), width=1080, height=2400)                # 1080x2400
    rgb = shots.pixels(session.html(), width=1080, height=2400)  # (2400, 1080, 3) uint8
    png = shots.shot(session.html(), width=1080, height=2400, device=False)  # 412x915
    shots.close()

The browser starts on the first job (or on `start()`), runs Debian's Chromium (never a
downloaded one), and is fed pages with `Page.setDocumentContent` (no navigation). At
the device's size a `Painter` draws them: recorded pixels itself, and from Chromium only
the rectangles that changed (`Page.captureScreenshot` with a clip); frames are encoded
here, band by band (`frame`). At 412 CSS pixels Chromium captures and encodes the page
whole. A page of an app with a recorded look refers to its images as `assets/<hash>`:
the browser's page lies at a private origin whose requests Playwright answers from
`assets` (a lookup by name, in memory, nothing from the network), and a capture waits
until every image is decoded. Identical pages are common (every fresh session shows the
same start screen), so recent images are kept by the page's hash. If Chromium or
Playwright is missing, every call fails fast with a message that says what to install;
if the browser dies, the next call starts a new one.
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
from typing import TYPE_CHECKING, Any

from phoneworld.errors import PhoneworldError
from phoneworld.serve.errors import ScreenshotUnavailable, ServerBusy
from phoneworld.serve.ui import FRAME_WIDTH

if TYPE_CHECKING:
    import numpy as np

    from phoneworld.serve.painter import Painter

ORIGIN = "http://phoneworld.invalid/"
"""Where the browser's pages lie: `.invalid` never resolves, and every request to it is
answered by the screenshotter itself (assets, or 404)."""
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ENV = "PHONEWORLD_CHROMIUM"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
"""No sandbox (containers often lack user namespaces); no network chatter at all."""
ARGS_ENV = "PHONEWORLD_CHROMIUM_ARGS"
"""More Chromium switches, space-separated, e.g. `--disable-frame-rate-limit`: Chromium
then draws frames as soon as asked, not at 60 Hz (a lone capture 25 ms instead of 33,
for 18-20 ms more CPU; a changed screen's shot on 2 busy cores: 12-20 ms more CPU for no
shorter wall). Not the default: a server of many sessions is short of CPU, not frames."""
TIMEOUT_ENV = "PHONEWORLD_SCREENSHOT_TIMEOUT"
"""Seconds a screenshot may wait for the browser where no timeout is given (default
`TIMEOUT`): raise it on a machine loaded by other work, where a first shot can take
longer and would be refused (429)."""
TIMEOUT = 10.0


def chromium_path(explicit: str | None = None) -> str:
    """The Chromium to run: `explicit`, else $PHONEWORLD_CHROMIUM, else /usr/bin/chromium."""
    return explicit or os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM


def screenshot_timeout(explicit: float | None = None) -> float:
    """Seconds a screenshot may wait: `explicit`, else $PHONEWORLD_SCREENSHOT_TIMEOUT,
    else `TIMEOUT`."""
    if explicit is not None:
        return explicit
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise PhoneworldError(f"${TIMEOUT_ENV} is {raw!r}: give the seconds a screenshot "
                              "may wait, e.g. 60")
    return value


def chromium_args() -> list[str]:
    """The switches Chromium runs with: `CHROMIUM_ARGS` and those of $PHONEWORLD_CHROMIUM_ARGS."""
    return CHROMIUM_ARGS + os.environ.get(ARGS_ENV, "").split()


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


KINDS = ("png", "jpeg", "pixels")


@dataclass
class _Job:
    html: str
    width: int
    height: int
    device: bool
    kind: str = "png"
    done: Future = field(default_factory=Future)


_STOP = object()
START_TIMEOUT = 120.0
"""Seconds the browser may take to start (Chromium's launch and the painter's set-up, long
on a loaded machine); a screenshot's own timeout counts from when the browser is up."""


class Screenshotter:
    """One browser, owned by one thread, fed through a bounded queue."""

    def __init__(self, executable: str | None = None, *, timeout: float | None = None,
                 queue_size: int = 64, cache_size: int = 128,
                 assets: Callable[[str], bytes | None] | None = None,
                 memory: int | None = None, window: int | None = None,
                 texts: bool = True) -> None:
        self.executable = chromium_path(executable)
        self.texts = texts
        """Whether the painter draws texts over plates itself (`painter.Painter`)."""
        self.memory = memory
        """Bytes of pixels the painter keeps (None: `painter.memory_budget()`)."""
        self.window = window
        """App rows a browser window of the painter shows (None: `painter.WINDOW`; 0: a
        whole page, each part of it captured as a clip)."""
        self.assets = assets
        """Asset bytes by name (`runtime.look.asset_source`), for pages with a look."""
        self.timeout = screenshot_timeout(timeout)
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=queue_size)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._up = threading.Event()
        """Set when the browser thread is ready to draw, or has given up."""
        self._cache: OrderedDict[tuple[str, int, int, bool, str], Any] = OrderedDict()
        self._cache_size = cache_size
        self._missing: str | None = None
        self.rendered = 0
        """How many images the browser thread has drawn (cache hits not counted)."""
        self.painter: Painter | None = None
        """What draws device-size pages (made with the browser; for its counters)."""

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

    def prepare(self, specs: Any) -> None:
        """Have the plates of `specs`' recorded looks decoded and PNG-encoded now, in the
        background (`plates`), so that a screen's first screenshot costs neither."""
        from phoneworld.serve.plates import PLATES, plates_of

        if self.assets is None:
            return
        for spec in specs:
            jobs = plates_of(spec)
            if jobs:
                PLATES.prepare(self._asset, jobs, spec.width, spec.height)

    def shot(self, html: str, *, width: int, height: int, device: bool = True,
             jpeg: bool = False) -> bytes:
        """`html` (a screen of a `width` x `height`-pixel app) as PNG bytes in the app's own
        pixels (e.g. 1080x2400: a tap at (x, y) lands where the picture shows it), or
        without `device` 412 CSS pixels wide (e.g. 412x915); with `jpeg`, JPEG bytes
        (quality 90)."""
        return self._get(html, width, height, device, "jpeg" if jpeg else "png")

    def pixels(self, html: str, *, width: int, height: int) -> np.ndarray:
        """`html` as a read-only (height, width, 3) uint8 RGB array in the app's own
        pixels: what an env observes, with no image encoded or decoded on the way."""
        return self._get(html, width, height, True, "pixels")

    def _get(self, html: str, width: int, height: int, device: bool, kind: str) -> Any:
        key = (hashlib.blake2b(html.encode(), digest_size=16).hexdigest(), width, height,
               device, kind)
        with self._lock:
            got = self._cache.get(key)
            if got is not None:
                self._cache.move_to_end(key)
                return got
        why = self._why_missing()
        if why is not None:
            raise ScreenshotUnavailable(why)
        self._ensure_thread()
        job = _Job(html, width, height, device, kind)
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            raise ServerBusy(f"{self._queue.maxsize} screenshots are waiting for the "
                             "browser; retry in a moment") from None
        if not self._up.wait(START_TIMEOUT):
            job.done.cancel()
            raise ServerBusy(f"the browser took more than {START_TIMEOUT:g} s to start; "
                             "retry in a moment")
        try:
            got = job.done.result(self.timeout)
        except FutureTimeout:
            job.done.cancel()
            raise ServerBusy(f"the browser took more than {self.timeout:g} s for a "
                             "screenshot; retry in a moment") from None
        if kind != "pixels":  # arrays are large (10 MB at 1080x2400): not kept
            with self._lock:
                self._cache[key] = got
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return got

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
                self._up.clear()
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
                                             args=chromium_args())
                from phoneworld.serve.painter import Painter

                pages: dict[tuple[int, int], tuple[Any, Any, str]] = {}
                self.painter = Painter(browser, self._answer, ORIGIN, self._asset,
                                       memory=self.memory, window=self.window,
                                       texts=self.texts)
                self._up.set()
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
                    except Exception as err:  # a bug, unreadable data: the caller gets it
                        # at once (not after its timeout), and the browser goes on.
                        job.done.set_exception(err)
                browser.close()
        except Exception as err:
            if browser is None:  # it never started: say so to every later call, too
                self._missing = f"cannot start Chromium at {self.executable}: {err}"
            self._fail_pending(ScreenshotUnavailable(
                f"the browser at {self.executable} failed: {err}"))
        finally:
            self._up.set()  # up or given up: no caller waits for a start that never comes
            with self._lock:
                if self._thread is threading.current_thread():
                    self._thread = None
            self._fail_pending(ScreenshotUnavailable("the browser stopped; retry"))

    def _draw(self, browser: Any, pages: dict[tuple[int, int], tuple[Any, Any, str]],
              job: _Job) -> Any:
        self.rendered += 1
        if job.device:
            assert self.painter is not None
            frame = self.painter.draw(job.html, job.width, job.height,
                                       png=job.kind == "png")
            if job.kind == "pixels":
                return frame.view()
            return frame.jpeg(90) if job.kind == "jpeg" else frame.png()
        # CSS pixels: the 412-wide frame, height rounded down (1080x2400 -> 412x915), in a
        # mobile window that honours the page's `<meta name=viewport content="width=412">`;
        # Chromium captures and encodes it whole.
        viewport = (FRAME_WIDTH, max(1, int(FRAME_WIDTH * job.height / max(1, job.width))))
        got = pages.get(viewport)
        if got is None:
            ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                      device_scale_factor=1, is_mobile=True, has_touch=True,
                                      java_script_enabled=False)
            page = ctx.new_page()
            page.route(f"{ORIGIN}**", self._answer)
            page.goto(ORIGIN)
            cdp = ctx.new_cdp_session(page)
            frame_id = cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
            got = pages[viewport] = (page, cdp, frame_id)
        _, cdp, frame_id = got
        cdp.send("Page.setDocumentContent", {"frameId": frame_id, "html": job.html})
        if "<img" in job.html:
            from phoneworld.serve.painter import DECODED

            cdp.send("Runtime.evaluate", {"expression": DECODED, "awaitPromise": True})
        # optimizeForSpeed: faster zlib settings, a slightly larger PNG.
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        if job.kind == "jpeg":
            params = {"format": "jpeg", "quality": 90, "optimizeForSpeed": True}
        return base64.b64decode(cdp.send("Page.captureScreenshot", params)["data"])

    def _asset(self, name: str) -> bytes | None:
        """Asset `name`'s bytes from `assets`, or None (no such asset, or unreadable)."""
        if self.assets is None:
            return None
        try:
            return self.assets(name)
        except PhoneworldError:
            return None

    def _answer(self, route: Any) -> None:
        """Answer a request of the browser's page: an asset, the blank start page, or 404."""
        path = route.request.url[len(ORIGIN):].split("?", 1)[0]
        if path == "":
            route.fulfill(status=200, content_type="text/html",
                          body="<!doctype html><title>phoneworld</title>")
            return
        name = path.removeprefix("assets/")
        data = self._asset(name) if name != path else None
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


# -- one browser per process, for in-process envs ------------------------------------------------

_SHARED: dict[str, Any] = {"shots": None, "users": 0, "looks": {}}
_SHARED_LOCK = threading.Lock()


def acquire_shared(specs: Any = ()) -> Screenshotter:
    """The process's shared screenshotter (started on first use), which can also draw
    the recorded looks of `specs` (their plates prepared in the background);
    `release_shared` once per call. Several envs in one process share one browser
    (each costs 400 MB)."""
    specs = list(specs)
    with _SHARED_LOCK:
        known: dict[str, Any] = _SHARED["looks"]
        for spec in specs:
            if spec.look is not None:
                for name in spec.look.names():
                    known.setdefault(name, spec.look)
        shots = _SHARED["shots"]
        if shots is None:
            shots = _SHARED["shots"] = Screenshotter(
                assets=lambda name: known[name].asset(name) if name in known else None)
        _SHARED["users"] += 1
    shots.prepare(specs)
    return shots


def release_shared() -> None:
    """One user of the shared screenshotter is done; the last one stops the browser."""
    with _SHARED_LOCK:
        _SHARED["users"] = max(0, _SHARED["users"] - 1)
        shots = _SHARED["shots"] if _SHARED["users"] == 0 else None
        if shots is not None:
            _SHARED["shots"] = None
            _SHARED["looks"] = {}
    if shots is not None:
        shots.close()
