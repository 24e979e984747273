"""Shared fixtures: where the third-party traces live (skipping cleanly when absent), the
hand-built test shop (`shop`, and `m`: a reset machine on it), damaged trace files, and
the real-device switch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_TRACES = Path(os.environ.get("PHONEWORLD_SHARED_TRACES")
                     or ROOT.parent / "shared" / "traces")
"""The third-party traces: ../shared/traces beside the checkout, or $PHONEWORLD_SHARED_TRACES."""
DATA = Path(__file__).resolve().parent / "data"
# A screenshot may wait up to two minutes in the tests (the default is 10 s): they check
# what a shot shows, not how fast it comes (benchmarks/browser.py says that), and a
# machine loaded by other work must not turn a slow first shot into a refusal (429).
os.environ.setdefault("PHONEWORLD_SCREENSHOT_TIMEOUT", "120")

pytest_plugins = ("tests.rl_fixtures",)  # `micro` and `one_thread` for the rl tests


@pytest.fixture
def shared_traces() -> Path:
    if not SHARED_TRACES.is_dir():
        pytest.skip(f"{SHARED_TRACES} is not here (set $PHONEWORLD_SHARED_TRACES)")
    return SHARED_TRACES


@pytest.fixture(scope="session")
def shop():
    """The hand-built test shop's spec (see tests/shop.py); frozen, so shared."""
    from tests.shop import shop_spec

    return shop_spec()


@pytest.fixture
def m(shop):
    """A machine on the test shop, reset."""
    from phoneworld.runtime import Machine

    machine = Machine(shop)
    machine.reset()
    return machine


def shared(*parts: str) -> Path:
    """A path under ../shared/traces, or a skip when that folder is missing."""
    p = SHARED_TRACES.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} is not here")
    return p


def shared_folders(*formats: str) -> list[str]:
    """Every trace folder under ../shared/traces (`format/app`), of the given formats
    (all when none is given), for parametrised tests; [] when the folder is missing."""
    if not SHARED_TRACES.is_dir():
        return []
    return sorted(f"{p.parent.name}/{p.name}" for p in SHARED_TRACES.glob("*/*")
                  if p.is_dir() and (not formats or p.parent.name in formats))


# --- Damaged copies of trace files, for the readers' property tests -----------------------

def mutate_file(data, file: Path) -> str:
    """Damage `file` in place in one of four ways drawn by hypothesis; return which.

    `data` is hypothesis' `st.data()` object. The ways: truncate it, overwrite a few bytes,
    replace it with random bytes, or (for JSON) swap one value anywhere in the document
    for a random JSON value, so that wrong types and missing keys are reached too.
    """
    import json

    from hypothesis import strategies as st

    raw = file.read_bytes()
    how = data.draw(st.sampled_from(["truncate", "bytes", "random", "json"]), label="how")
    if how == "json":
        try:
            doc = json.loads(raw)
        except ValueError:
            how = "bytes"
        else:
            file.write_text(json.dumps(_swap_value(data, doc)), encoding="utf-8")
            return how
    if how == "truncate":
        new = raw[:data.draw(st.integers(0, max(len(raw) - 1, 0)), label="cut")]
    elif how == "bytes":
        buf = bytearray(raw or b"\0")
        for _ in range(data.draw(st.integers(1, 8), label="count")):
            buf[data.draw(st.integers(0, len(buf) - 1))] = data.draw(st.integers(0, 255))
        new = bytes(buf)
    else:
        new = data.draw(st.binary(max_size=300), label="bytes")
    file.write_bytes(new)
    return how


_JSON = None


def _swap_value(data, doc):
    """`doc` with one value (anywhere, the whole document included) replaced."""
    from hypothesis import strategies as st

    global _JSON
    if _JSON is None:
        text = st.text(max_size=8) | st.sampled_from(["\ud800", "x\udc80y"])  # lone surrogates
        scalars = (st.none() | st.booleans() | st.integers(-10**6, 10**6)
                   | st.floats(allow_nan=True) | text)
        _JSON = st.recursive(scalars, lambda c: st.lists(c, max_size=4)
                             | st.dictionaries(text, c, max_size=4), max_leaves=8)
    spots: list[tuple[object, object]] = [(None, None)]
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, value in items:
            spots.append((node, key))
            stack.append(value)
    parent, key = spots[data.draw(st.integers(0, len(spots) - 1), label="spot")]
    value = data.draw(_JSON, label="value")
    if parent is None:
        return value
    parent[key] = value
    return doc


# --- Real devices: tests marked `adb` run only with --adb-serial ---------------------------

def pytest_addoption(parser) -> None:
    parser.addoption("--adb-serial", default=None, metavar="SERIAL",
                     help="run the tests marked adb on this Android device or emulator")


def pytest_collection_modifyitems(config, items) -> None:
    if config.getoption("--adb-serial"):
        return
    skip = pytest.mark.skip(reason="needs a real device: pass --adb-serial SERIAL")
    for item in items:
        if "adb" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def adb_serial(request) -> str:
    """The device serial given with --adb-serial."""
    serial = request.config.getoption("--adb-serial")
    if not serial:
        pytest.skip("needs a real device: pass --adb-serial SERIAL")
    return serial


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (Playwright) for a test module; skips where none is installed
    ($PHONEWORLD_CHROMIUM, else Debian's)."""
    from phoneworld.serve.screenshots import CHROMIUM_ARGS, browser_missing, chromium_path

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()
