"""The session store (cap, expiry, isolation) and the `serve` command, without HTTP."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from phoneworld.errors import PhoneworldError
from phoneworld.serve.commands import register
from phoneworld.serve.errors import NoSuchSession, TooManySessions
from phoneworld.serve.sessions import SessionStore
from tests.conftest import ROOT
from tests.shop import shop_spec

GEN = ROOT / "generated"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_idle_sessions_expire_and_busy_ones_stay():
    clock = Clock()
    store = SessionStore([shop_spec()], idle_timeout=60, clock=clock)
    a, b = store.create(), store.create()
    clock.now += 50
    store.get(b.id)  # b was used
    clock.now += 20
    assert store.expire() == 1 and len(store) == 1
    with pytest.raises(NoSuchSession, match="expired after 60 s idle"):
        store.get(a.id)
    with store.use(b.id):
        clock.now += 1000
        assert store.expire() == 0  # in use: never dropped under a request
    clock.now += 61
    assert store.expire() == 1 and len(store) == 0


def test_cap_counts_live_sessions_and_sweeps_idle_ones_first():
    clock = Clock()
    store = SessionStore([shop_spec()], max_sessions=2, idle_timeout=60, clock=clock)
    store.create()
    store.create()
    with pytest.raises(TooManySessions):
        store.create()
    clock.now += 61  # both idle now: creating sweeps them
    store.create()
    assert len(store) == 1


def test_sessions_of_a_phone_and_of_one_app():
    one = SessionStore([shop_spec()]).create(seed=4)
    assert not one.target.__class__.__name__ == "Phone" and one.app == "shop"
    assert one.seed == 4 and one.observation("none")["screen"] == "home"
    from phoneworld.apps import find_apps, load_app

    specs = [load_app(p).spec for p in find_apps(GEN)]
    phone = SessionStore(specs).create(app=specs[1].name)
    assert phone.app == specs[1].name
    assert phone.observation("none")["package"] == specs[1].package


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="phoneworld")
    register(parser.add_subparsers(dest="command"))
    return parser


def test_serve_command_defaults_to_this_machine_only():
    args = _parser().parse_args(["serve", "generated"])
    assert (args.host, args.port, args.threads, args.max_sessions) == (
        "127.0.0.1", 8000, 8, 1000)
    assert args.debug is False and callable(args.func)


def test_serve_refuses_bad_settings_with_a_message():
    from phoneworld.serve.server import serve

    with pytest.raises(PhoneworldError, match="--threads"):
        serve(GEN, threads=0)
    with pytest.raises(PhoneworldError, match="--port"):
        serve(GEN, port=70000)
    pytest.importorskip("flask")
    with pytest.raises(PhoneworldError, match="no generated app"):
        serve(ROOT / "tests", port=0)


def test_serve_runs_waitress_and_stops_on_sigterm():
    pytest.importorskip("waitress")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PHONEWORLD_CHROMIUM": "/nonexistent"}
    proc = subprocess.Popen([sys.executable, "-m", "phoneworld.serve", str(GEN / "shopping"),
                             "--port", "0"], stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None
        port = None
        deadline = time.monotonic() + 30
        while port is None and time.monotonic() < deadline:
            line = proc.stderr.readline()
            assert line, "the server exited before listening"
            m = re.search(r"http://127\.0\.0\.1:(\d+) \(waitress", line)
            port = int(m.group(1)) if m else None
        assert port is not None
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/api/sessions", body="{}",
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        assert resp.status == 201 and json.loads(resp.read())["app"] == "shopping"
        conn.request("GET", "/api", headers={"Host": "rebound.example:8000"})
        resp = conn.getresponse()  # bound to loopback: other Host names are refused
        assert resp.status == 400 and b"not trusted" in resp.read()
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        finally:
            proc.stderr.close()  # type: ignore[union-attr]
    assert code == 0
