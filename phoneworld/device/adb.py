"""`AdbDevice`: a real phone or emulator through adb and uiautomator2.

    device = AdbDevice.connect("emulator-5554")      # or None: the only device there is
    try:
        screen = observe(device)                     # phoneworld.device.stable
        device.tap(540, 1200)
    finally:
        device.close()

Connecting checks, in this order and within seconds, what usually goes wrong, and says
what to do about it: no adb binary, an adb server that cannot start or does not answer,
no device, several devices and no serial, a serial adb does not list, a device that is
offline or unauthorized. Only then is uiautomator2 asked to connect (it would otherwise
spend 10 s timing out). An adb server this process started is killed again when
connecting fails and on `close()`, so a failed command leaves nothing running. Every
device call runs with a timeout; a call that fails while adb no longer lists the device
raises `DeviceLost`.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import shutil
import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from importlib.util import find_spec
from pathlib import Path
from typing import Any, TypeVar

from phoneworld.device.protocol import DeviceLost, Key
from phoneworld.errors import DeviceError, MissingExtra

T = TypeVar("T")

ADB_HOST = "127.0.0.1"
ADB_PORT = 5037
_STATE_HINTS = {
    "offline": "is offline: reconnect the cable or restart adb on the phone "
               "(toggle USB debugging), then try again",
    "unauthorized": "has not authorised this computer: accept the 'Allow USB debugging?' "
                    "prompt on the phone",
    "no permissions": "cannot be opened: check the udev rules for this USB device",
    "recovery": "is in recovery mode: boot it normally",
    "bootloader": "is in the bootloader: boot it normally",
    "sideload": "is in sideload mode: boot it normally",
}


def find_adb() -> str | None:
    """The adb binary: $ADBUTILS_ADB_PATH, then PATH, then the one the adbutils wheel bundles."""
    env = os.environ.get("ADBUTILS_ADB_PATH")
    if env:
        return env if os.access(env, os.X_OK) else None
    found = shutil.which("adb")
    if found:
        return found
    spec = find_spec("adbutils")
    if spec is not None and spec.origin:
        bundled = Path(spec.origin).parent / "binaries" / "adb"
        if os.access(bundled, os.X_OK):
            return str(bundled)
    return None


def server_running(host: str = ADB_HOST, port: int = ADB_PORT, timeout: float = 0.5) -> bool:
    """Whether something listens on the adb server's port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


class AdbServer:
    """The adb server as this process found it: started here (and so stopped here) or not."""

    def __init__(self, adb: str, timeout: float = 5.0) -> None:
        self.adb = adb
        self.timeout = timeout
        self.owned = False
        self._lock = threading.Lock()

    def run(self, *args: str, timeout: float | None = None) -> str:
        """`adb <args>`'s output; a `DeviceError` when it fails or hangs."""
        limit = timeout or self.timeout
        try:
            done = subprocess.run([self.adb, *args], capture_output=True, text=True,
                                  timeout=limit, stdin=subprocess.DEVNULL, env=_adb_env())
        except FileNotFoundError as err:
            raise DeviceLost(f"adb is not at {self.adb}: install the Android platform tools "
                             f"(apt-get install adb) or pip install adbutils") from err
        except subprocess.TimeoutExpired as err:
            raise DeviceError(f"'adb {' '.join(args)}' did not answer within {limit:g} s; "
                              f"try 'adb kill-server' and run again") from err
        if done.returncode != 0:
            msg = (done.stderr or done.stdout).strip().splitlines()
            raise DeviceError(f"'adb {' '.join(args)}' failed: "
                              f"{msg[-1] if msg else f'exit {done.returncode}'}")
        return done.stdout

    def ensure(self) -> None:
        """Start the server unless one is running (remembering that we started it)."""
        with self._lock:
            if server_running():
                return
            try:
                self.run("start-server", timeout=max(self.timeout, 10.0))
            except DeviceError as err:
                raise DeviceLost(f"the adb server would not start: {err}") from err
            self.owned = True
            atexit.register(self.stop)

    def stop(self) -> None:
        """Kill the server if this process started it."""
        with self._lock:
            if not self.owned:
                return
            self.owned = False
            with contextlib.suppress(DeviceError, OSError):
                self.run("kill-server")

    def devices(self) -> dict[str, str]:
        """serial -> state (`device`, `offline`, `unauthorized`, ...), as `adb devices` says."""
        out = {}
        for line in self.run("devices").splitlines()[1:]:
            parts = line.strip().split("\t")
            if len(parts) >= 2 and parts[0]:
                out[parts[0]] = parts[1].strip()
        return out


def pick_device(devices: dict[str, str], serial: str | None) -> str:
    """The serial to use, or a `DeviceLost` that says what adb sees instead."""
    if not devices:
        raise DeviceLost("no Android device: adb lists none. Connect a phone with USB "
                         "debugging on, or start an emulator, then check 'adb devices'")
    if serial is None:
        online = [s for s, state in devices.items() if state == "device"]
        if len(devices) > 1:
            listed = ", ".join(f"{s} ({st})" for s, st in sorted(devices.items()))
            raise DeviceLost(f"several devices ({listed}): choose one with --serial")
        serial = online[0] if online else next(iter(devices))
    state = devices.get(serial)
    if state is None:
        listed = ", ".join(f"{s} ({st})" for s, st in sorted(devices.items()))
        raise DeviceLost(f"no device {serial!r}: adb lists {listed}")
    if state != "device":
        hint = _STATE_HINTS.get(state, f"is in state {state!r}")
        raise DeviceLost(f"device {serial} {hint}")
    return serial


class AdbDevice:
    """A `Device` on uiautomator2; build it with `AdbDevice.connect`."""

    def __init__(self, serial: str, u2device: Any, server: AdbServer, *,
                 call_timeout: float = 20.0) -> None:
        self.serial = serial
        self._d = u2device
        self._server = server
        self.call_timeout = call_timeout
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"adb-{serial}")
        self._closed = False

    @classmethod
    def connect(cls, serial: str | None = None, *, adb: str | None = None,
                timeout: float = 5.0, connect_timeout: float = 60.0,
                call_timeout: float = 20.0) -> AdbDevice:
        """Connect to `serial` (default: the only device); see the module docstring."""
        u2 = _import_u2()  # without the device extra, that is the first thing to say
        path = adb or find_adb()
        if path is None:
            raise DeviceLost("no adb: install the Android platform tools (apt-get install "
                             "adb) or pip install 'phoneworld[device]', which bundles one")
        server = AdbServer(path, timeout=timeout)
        try:
            server.ensure()
            serial = pick_device(server.devices(), serial)
            device = _with_timeout(lambda: u2.connect(serial), connect_timeout,
                                   f"device {serial}: uiautomator2 did not connect")
        except BaseException:
            server.stop()
            raise
        return cls(serial, device, server, call_timeout=call_timeout)

    # -- calls, with a timeout and errors a person can act on ---------------------------------

    def _call(self, what: str, fn: Callable[[], T], timeout: float | None = None) -> T:
        if self._closed:
            raise DeviceLost(f"device {self.serial}: the connection is closed")
        limit = timeout or self.call_timeout
        future = self._pool.submit(fn)
        try:
            return future.result(timeout=limit)
        except FutureTimeout as err:
            self._check_online(err)
            raise DeviceError(f"device {self.serial}: {what} timed out after {limit:g} s") \
                from err
        except DeviceError:
            raise
        except Exception as err:  # uiautomator2 / adbutils / requests errors
            self._check_online(err)
            raise DeviceError(f"device {self.serial}: {what} failed: "
                              f"{type(err).__name__}: {err}") from err

    def _check_online(self, cause: BaseException) -> None:
        try:
            state = self._server.devices().get(self.serial)
        except DeviceError:
            return
        if state != "device":
            why = "is no longer connected" if state is None else _STATE_HINTS.get(
                state, f"is in state {state!r}")
            raise DeviceLost(f"device {self.serial} {why}") from cause

    # -- the Device protocol -------------------------------------------------------------------

    def window_size(self) -> tuple[int, int]:
        w, h = self._call("reading the screen size", self._d.window_size)
        return int(w), int(h)

    def dump_hierarchy(self) -> str:
        return self._call("dumping the hierarchy",
                          lambda: self._d.dump_hierarchy(compressed=False))

    def screenshot(self) -> bytes:
        def shot() -> bytes:
            buf = io.BytesIO()
            self._d.screenshot(format="pillow").convert("RGB").save(buf, format="PNG")
            return buf.getvalue()
        return self._call("taking a screenshot", shot)

    def current_app(self) -> tuple[str, str]:
        info = self._call("reading the foreground app", self._d.app_current)
        return str(info.get("package") or ""), str(info.get("activity") or "")

    def tap(self, x: int, y: int) -> None:
        self._call(f"tapping ({x}, {y})", lambda: self._d.click(x, y))

    def long_press(self, x: int, y: int, duration: float = 1.0) -> None:
        self._call(f"long-pressing ({x}, {y})", lambda: self._d.long_click(x, y, duration))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration: float = 0.3) -> None:
        self._call(f"swiping ({x1}, {y1}) -> ({x2}, {y2})",
                   lambda: self._d.swipe(x1, y1, x2, y2, duration=duration))

    def type_text(self, text: str, clear: bool = True) -> None:
        self._call("typing", lambda: self._d.send_keys(text, clear=clear))

    def press(self, key: Key) -> None:
        self._call(f"pressing {key}", lambda: self._d.press(key))

    def start_app(self, package: str, activity: str | None = None) -> None:
        self._call(f"starting {package}", lambda: self._d.app_start(package, activity))

    def stop_app(self, package: str) -> None:
        self._call(f"stopping {package}", lambda: self._d.app_stop(package))

    def sleep(self, seconds: float) -> None:
        import time

        time.sleep(seconds)

    def now(self) -> float:
        import time

        return time.monotonic()

    # -- a person's own touches (TouchSource) -----------------------------------------------------

    def input_devices(self) -> str:
        return self._server.run("-s", self.serial, "shell", "getevent", "-lp")

    def input_events(self) -> Iterator[str]:
        proc = subprocess.Popen([self._server.adb, "-s", self.serial, "shell", "getevent",
                                 "-lt"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL, text=True, bufsize=1,
                                env=_adb_env())
        try:
            assert proc.stdout is not None
            yield from proc.stdout
        finally:
            proc.kill()
            proc.wait(timeout=5)

    def close(self) -> None:
        """Let go of the device; stop the adb server if this process started it."""
        if self._closed:
            return
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._server.stop()

    def __enter__(self) -> AdbDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _adb_env() -> dict[str, str]:
    # adb 34+ spends 3 s starting its libusb backend when no USB device answers; the
    # native Linux backend starts at once and sees the same devices.
    env = dict(os.environ)
    env.setdefault("ADB_LIBUSB", "0")
    return env


def _import_u2() -> Any:
    try:
        import uiautomator2
    except ImportError as err:
        raise MissingExtra("a real device", "device", err) from err
    return uiautomator2


def _with_timeout(fn: Callable[[], T], timeout: float, what: str) -> T:
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(fn).result(timeout=timeout)
    except FutureTimeout as err:
        raise DeviceError(f"{what} within {timeout:g} s") from err
    except DeviceError:
        raise
    except Exception as err:
        raise DeviceError(f"{what}: {type(err).__name__}: {err}") from err
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
