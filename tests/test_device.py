"""The ADB bridge without a phone: the device double on real recorded hierarchies, settled
observations, gestures, getevent touches, screen predicates, the env's device backend, and
how connecting fails when there is no adb, no device or an offline one."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.device.adb import AdbDevice, AdbServer, pick_device, server_running
from phoneworld.device.bridge import Bridge, element_paths, elements, scroll_gesture
from phoneworld.device.double import Call, ReplayDevice, replay_actions, solid_png
from phoneworld.device.predicates import ScreenTask, Verdict, holds_on_screen, parse_predicate
from phoneworld.device.protocol import Device, DeviceLost, TouchSource
from phoneworld.device.stable import Polling, observe
from phoneworld.device.touches import Gesture, TouchAxes, TouchReader, encode, touch_axes
from phoneworld.errors import DeviceError, InvalidAction, SpecSyntaxError
from phoneworld.traces import read_traces
from phoneworld.ui.hits import hit_test
from tests.conftest import shared

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def duolingo():
    return read_traces(shared("llamatouch", "duolingo"))[0]


@pytest.fixture
def shop_trace():
    return read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]


# -- the double ------------------------------------------------------------------------------------

def test_the_double_is_a_device(duolingo):
    d = ReplayDevice(duolingo)
    assert isinstance(d, Device) and isinstance(d, TouchSource)


def test_the_double_follows_the_recording_and_stays_otherwise(duolingo):
    d = ReplayDevice(duolingo)
    assert d.current_app()[0] == "com.google.android.apps.magazines"
    d.tap(5, 5)  # not what was recorded: nothing happens
    assert d.at == 0 and d.log[-1] == Call("tap", (5, 5), False)
    d.press("home")  # the recorded [Home]
    assert d.at == 1 and d.current_app()[0] == "com.google.android.apps.nexuslauncher"
    step = duolingo.steps[1]
    node = duolingo.observations[1].root.at(step.action.target)
    x1, y1, x2, y2 = node.bounds
    d.tap(x1 + 2, y1 + 2)  # anywhere on the node the recorded tap hit
    assert d.at == 2 and d.current_app() == ("com.duolingo", "com.duolingo.app.LoginActivity")
    xml = d.dump_hierarchy()
    assert xml.startswith("<?xml") and "com.duolingo" in xml
    d.stop_app("com.duolingo")
    assert d.at is None and d.current_app()[0] == "com.android.launcher3"
    d.start_app("com.duolingo")
    assert d.at == 2
    with pytest.raises(DeviceError, match="not installed"):
        d.start_app("com.example.absent")


def test_the_double_simulates_flaky_devices(duolingo):
    d = ReplayDevice(duolingo, frames=2, fail_next=1)
    with pytest.raises(DeviceError, match="dump failed"):
        d.dump_hierarchy()
    d.press("home")
    frames = [d.dump_hierarchy() for _ in range(3)]
    assert frames[0] != frames[1] != frames[2] and "<!-- frame" in frames[1]
    d.offline = True
    with pytest.raises(DeviceLost):
        d.dump_hierarchy()


def test_solid_png_is_a_png():
    png = solid_png(3, 2, 10)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pil = pytest.importorskip("PIL.Image")
    import io

    assert pil.open(io.BytesIO(png)).size == (3, 2)


# -- settled observations --------------------------------------------------------------------------

def test_observe_waits_for_a_still_screen(duolingo):
    d = ReplayDevice(duolingo, frames=3)
    d.press("home")
    s = observe(d, Polling(interval=0.1, settle=2))
    assert s.stable and s.package == "com.google.android.apps.nexuslauncher"
    assert s.root == duolingo.observations[1].root
    assert s.width == 1080 and s.screenshot is None
    assert d.log.count(Call("press", ("home",), True)) == 1


def test_observe_gives_up_waiting_but_returns_the_screen(duolingo):
    d = ReplayDevice(duolingo, frames=10**6)
    d.press("home")
    start = d.now()
    s = observe(d, Polling(timeout=2.0, interval=0.25))
    assert not s.stable and 2.0 <= d.now() - start < 3.0


def test_observe_retries_failing_dumps(duolingo):
    d = ReplayDevice(duolingo, fail_next=2)
    assert observe(d, Polling(retries=2, backoff=0.1)).stable
    d = ReplayDevice(duolingo, fail_next=5)
    with pytest.raises(DeviceError, match="failed 3 times; last error"):
        observe(d, Polling(retries=2, backoff=0.1))


def test_a_lost_device_is_not_retried(duolingo):
    d = ReplayDevice(duolingo, offline=True)
    with pytest.raises(DeviceLost, match="offline"):
        observe(d, Polling(retries=5, backoff=10))
    assert d.now() == 0.0


def test_observe_with_a_screenshot(duolingo):
    s = observe(ReplayDevice(duolingo), screenshot=True)
    assert s.screenshot is not None and s.screenshot.startswith(b"\x89PNG")


# -- the bridge ------------------------------------------------------------------------------------

def test_elements_follow_the_mock_apps_rule(shop_trace):
    root = shop_trace.observations[0].root
    els = elements(root)
    paths = element_paths(root)
    assert len(els) == len(paths) > 5
    for e, p in zip(els, paths, strict=True):
        n = root.at(p)
        assert n.text or n.content_desc or n.clickable or n.scrollable or n.editable or \
            n.checkable or n.long_clickable
        assert e["bounds"] == list(n.bounds)
    assert [e["index"] for e in els] == list(range(len(els)))


def test_perform_maps_actions_to_gestures(shop_trace):
    d = ReplayDevice(shop_trace)
    b = Bridge(d, apps={"Corner Shop": "com.example.shop"})
    s = b.observe()
    i = next(e["index"] for e in b.elements(s) if e["resource_id"].endswith("search_bar"))
    done = b.perform({"action_type": "click", "index": i}, s)
    x1, y1, x2, y2 = b.elements(s)[i]["bounds"]
    assert (done.kind, done.x, done.y) == ("tap", (x1 + x2) // 2, (y1 + y2) // 2)
    assert d.log[-1].name == "tap" and d.at == 1
    s = b.observe()
    done = b.perform({"action_type": "navigate_back"}, s)
    assert (done.kind, done.key) == ("key", "back") and d.log[-1] == Call("press", ("back",))
    assert b.perform({"action_type": "status", "goal_status": "complete"}, s) is None
    assert b.perform({"action_type": "answer", "text": "7"}, s).text == "7"
    assert b.perform({"action_type": "open_app", "app_name": "corner shop"}, s).package == \
        "com.example.shop"
    assert b.perform({"action_type": "open_app", "app_name": "com.example.shop"}, s).package \
        == "com.example.shop"  # a package name is taken as it is
    with pytest.raises(InvalidAction, match="no app 'Mail'") as err:
        b.perform({"action_type": "open_app", "app_name": "Mail"}, s)
    assert err.value.field == "app_name"


def test_perform_refuses_what_the_screen_cannot_take(shop_trace):
    d = ReplayDevice(shop_trace)
    b = Bridge(d)
    s = b.observe()
    for action, field in [({"action_type": "click", "index": 10**4}, "index"),
                          ({"action_type": "click", "x": 5000, "y": 5}, "x"),
                          ({"action_type": "input_text", "text": "hi"}, "index"),
                          ({"action_type": "input_text", "text": "hi", "x": 540, "y": 30},
                           "x")]:
        with pytest.raises(InvalidAction) as err:
            b.perform(action, s)
        assert err.value.field == field
    assert d.log == []  # nothing touched the phone


def test_a_scroll_swipes_across_its_list(shop_trace):
    d = ReplayDevice(shop_trace)
    b = Bridge(d)
    s = b.observe()
    done = b.perform({"action_type": "scroll", "direction": "down"}, s)
    lst = s.root.at(done.target)
    assert lst.scrollable and (done.x, done.y) == ((lst.bounds[0] + lst.bounds[2]) // 2,
                                                   (lst.bounds[1] + lst.bounds[3]) // 2)
    x1, y1, x2, y2 = d.log[-1].args
    assert x1 == x2 and y1 > y2  # the finger moves up to show what is below
    assert scroll_gesture((0, 0, 100, 100), "right") == (75, 50, 25, 50)


def test_typing_taps_the_field_first(shop_trace):
    d = ReplayDevice(shop_trace)
    b = Bridge(d)
    b.perform({"action_type": "click", "x": 540, "y": 304}, b.observe())  # -> search
    s = b.observe()
    done = b.perform({"action_type": "input_text", "text": "snacks", "x": 540, "y": 136}, s)
    assert done.kind == "type" and done.text == "snacks" and s.root.at(done.target).editable
    assert [c.name for c in d.log[-2:]] == ["tap", "type_text"] and d.log[-1].moved


# -- getevent --------------------------------------------------------------------------------------

GETEVENT_LP = """add device 1: /dev/input/event3
  name:     "gpio-keys"
  events:
    KEY (0001): KEY_VOLUMEDOWN        KEY_VOLUMEUP          KEY_POWER
add device 2: /dev/input/event2
  name:     "sec_touchscreen"
  events:
    KEY (0001): BTN_TOUCH
    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_X     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
  input props:
    INPUT_PROP_DIRECT
"""

GETEVENT_TAP = """[   51234.100000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000e5c
[   51234.100000] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN
[   51234.100000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000800
[   51234.100000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000400
[   51234.100000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   51234.120000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
[   51234.120000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000001
[   51234.120000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
[   51234.120000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   51234.180000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
[   51234.180000] /dev/input/event2: EV_KEY       BTN_TOUCH            UP
[   51234.180000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
[   51240.000000] /dev/input/event0: EV_KEY       KEY_BACK             DOWN
[   51240.000000] /dev/input/event0: EV_SYN       SYN_REPORT           00000000
[   51240.090000] /dev/input/event0: EV_KEY       KEY_BACK             UP
"""


def test_touch_axes_find_the_touchscreen():
    assert touch_axes(GETEVENT_LP) == TouchAxes("/dev/input/event2", 0, 4095, 0, 4095)
    assert touch_axes("add device 1: /dev/input/event0\n  name: \"keys\"\n") is None


def test_getevent_lines_become_gestures():
    reader = TouchReader(touch_axes(GETEVENT_LP), 1080, 2400)
    got = [g for line in GETEVENT_TAP.splitlines() for g in reader.feed(line)]
    assert [g.kind for g in got] == ["tap", "key"]
    assert (got[0].x, got[0].y) == (540, 600) and got[1].key == "back"
    assert reader.feed("not a getevent line") == []


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["tap", "long_press", "swipe"]), st.integers(0, 1079),
       st.integers(0, 2399), st.integers(0, 1079), st.integers(0, 2399),
       st.floats(0.01, 2.0))
def test_encoded_gestures_read_back(kind, x, y, x2, y2, seconds):
    axes = TouchAxes("/dev/input/event2", 0, 4095, 0, 4095)
    if kind != "swipe":
        x2, y2 = x, y
        seconds = 0.1 if kind == "tap" else 0.8
    elif max(abs(x2 - x), abs(y2 - y)) < 30:
        x2 = (x + 500) % 1080
    g = Gesture(kind=kind, x=x, y=y, x2=x2, y2=y2, start=10.0, end=10.0 + seconds)
    reader = TouchReader(axes, 1080, 2400)
    got = [h for line in encode(g, axes, 1080, 2400) for h in reader.feed(line)]
    assert len(got) == 1 and got[0].kind == kind
    assert (got[0].x, got[0].y, got[0].x2, got[0].y2) == (x, y, x2, y2)


# -- screen predicates -----------------------------------------------------------------------------

def test_screen_predicates_on_a_real_hierarchy(duolingo):
    obs = duolingo.observations[4]
    kw = {"package": obs.package, "activity": obs.activity}
    assert holds_on_screen('screen ~ "com.duolingo.session.SessionActivity"', obs.root, **kw)
    assert holds_on_screen('package == "com.duolingo" and count(node where clickable) > 0',
                           obs.root, **kw)
    assert not holds_on_screen('exists(node where text ~ "no such words here")', obs.root, **kw)
    assert holds_on_screen('answer ~ "3.99"', obs.root, answer="$3.99")
    assert holds_on_screen('exists(node where id ~ "com.duolingo:id/path")',
                           duolingo.observations[2].root)


@pytest.mark.parametrize("text, message", [
    ('exists(node where txt ~ "x")', "did you mean 'text'"),
    ('exists(view where text ~ "x")', "one table, 'node'"),
    ('exists(node where text ~ ', ":1:"),
    ("cart_total > 3", "unknown name 'cart_total'"),
])
def test_bad_predicates_are_clear(text, message):
    with pytest.raises(SpecSyntaxError, match=message):
        parse_predicate(text)


def test_a_screen_task_checks_the_last_screen(duolingo):
    task = ScreenTask("practise", duolingo.instruction,
                      'screen ~ "com.duolingo.session.SessionActivity"')
    obs = duolingo.observations[4]

    class Target:
        root, package, activity, answer = obs.root, obs.package, obs.activity, None

    assert task.check(Target()) == Verdict(True, task.check(Target()).reason)
    with pytest.raises(SpecSyntaxError):
        ScreenTask("bad", "x", "exists(")


# -- the env on a device ---------------------------------------------------------------------------

def test_the_env_plays_a_real_app_through_the_double(duolingo):
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from phoneworld.env import make

    task = ScreenTask("practise", duolingo.instruction,
                      'screen ~ "com.duolingo.session.SessionActivity"')
    device = ReplayDevice(duolingo, frames=1)
    env = make(device, package="com.duolingo", tasks=[task], polling=Polling(timeout=3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0, options={"task": "practise"})
    assert info["instruction"] == duolingo.instruction
    assert info["screen"] == "com.duolingo.app.LoginActivity" and "duolingo" in obs["xml"]
    reward = 0.0
    for a in replay_actions(duolingo)[2:]:  # the taps inside the app
        obs, r, terminated, truncated, info = env.step(a)
        reward += r
    obs, r, terminated, _, info = env.step({"name": "finish", "arguments": {}})
    assert terminated and reward + r == 1.0 and info["success"], info
    # a random agent on the same app
    env.action_space.seed(0)
    env.reset(seed=1)
    wins = 0
    for _ in range(30):
        *_, term, trunc, info = env.step(env.action_space.sample())
        if term or trunc:
            wins += info["success"]
            env.reset()
    assert wins <= 3


def test_a_judge_decides_instead_of_the_task(duolingo):
    pytest.importorskip("gymnasium")
    from phoneworld.env import make

    seen = []

    def judge(task, target):
        seen.append((task.id, target.package, target.answer))
        return Verdict(True, "the judge says so")

    task = ScreenTask("any", "say hi", 'answer ~ "hi"')
    env = make(ReplayDevice(duolingo), package="com.duolingo", tasks=[task], judge=judge)
    env.reset(seed=0)
    _, reward, _, _, info = env.step({"action_type": "answer", "text": "hello"})
    assert reward == 1.0 and info["reason"] == "the judge says so"
    assert seen == [("any", "com.duolingo", "hello")]


def test_device_screenshots_reach_the_observation(shop_trace):
    pytest.importorskip("gymnasium")
    pytest.importorskip("PIL")
    from phoneworld.env import make

    env = make(ReplayDevice(shop_trace), package="com.example.shop", screenshot=True,
               screenshot_size=(54, 120))
    obs, _ = env.reset(seed=0)
    assert obs["screenshot"].shape == (120, 54, 3) and obs in env.observation_space


# -- connecting without a phone --------------------------------------------------------------------

def _fake_adb(tmp_path: Path, devices: str, sleep: float = 0) -> tuple[str, Path]:
    """An `adb` that answers `devices` with `devices` and logs every call."""
    log = tmp_path / "calls.log"
    script = tmp_path / "adb"
    script.write_text(f"""#!/bin/sh
echo "$@" >> {log}
case "$1" in
  devices) sleep {sleep}; printf 'List of devices attached\\n{devices}\\n' ;;
esac
exit 0
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script), log


def test_pick_device_says_what_adb_sees():
    with pytest.raises(DeviceLost, match="no Android device"):
        pick_device({}, None)
    with pytest.raises(DeviceLost, match="several devices.*--serial"):
        pick_device({"a": "device", "b": "device"}, None)
    with pytest.raises(DeviceLost, match="no device 'c': adb lists a \\(device\\)"):
        pick_device({"a": "device"}, "c")
    with pytest.raises(DeviceLost, match="offline"):
        pick_device({"a": "offline"}, None)
    with pytest.raises(DeviceLost, match="Allow USB debugging"):
        pick_device({"a": "unauthorized"}, "a")
    assert pick_device({"a": "device"}, None) == "a"


@pytest.mark.skipif(server_running(), reason="an adb server is already running here")
def test_an_offline_device_fails_fast_and_stops_the_server_it_started(tmp_path):
    adb, log = _fake_adb(tmp_path, "emulator-5554\\toffline")
    with pytest.raises(DeviceLost, match="emulator-5554 is offline"):
        AdbDevice.connect("emulator-5554", adb=adb)
    # Fast: one look at the device list, no waiting for the device, then the server goes.
    assert log.read_text().split("\n")[:3] == ["start-server", "devices", "kill-server"]


def test_a_hanging_adb_times_out(tmp_path):
    adb, _ = _fake_adb(tmp_path, "", sleep=30)  # it would answer nothing, 30 s later
    with pytest.raises(DeviceError, match="did not answer within 1 s"):
        AdbServer(adb, timeout=1).devices()


def test_no_adb_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(tmp_path / "missing-adb"))
    with pytest.raises(DeviceLost, match="no adb: install"):
        AdbDevice.connect()
    with pytest.raises(DeviceLost, match="adb is not at"):
        AdbServer(str(tmp_path / "missing-adb")).run("devices")


class _SlowU2:
    def dump_hierarchy(self, compressed=False):
        time.sleep(5)

    def click(self, x, y):
        raise RuntimeError("socket closed")


class _Server:
    def __init__(self, devices):
        self._devices = devices
        self.stopped = False

    def devices(self):
        return self._devices

    def stop(self):
        self.stopped = True


def test_device_calls_time_out_and_notice_a_lost_device():
    d = AdbDevice("emu-1", _SlowU2(), _Server({"emu-1": "device"}), call_timeout=0.3)
    with pytest.raises(DeviceError, match="emu-1: dumping the hierarchy timed out after 0.3 s"):
        d.dump_hierarchy()
    d = AdbDevice("emu-1", _SlowU2(), _Server({"emu-1": "device"}), call_timeout=0.3)
    with pytest.raises(DeviceError, match="tapping .* failed: RuntimeError: socket closed"):
        d.tap(1, 2)
    gone = AdbDevice("emu-1", _SlowU2(), _Server({}), call_timeout=0.3)
    with pytest.raises(DeviceLost, match="emu-1 is no longer connected"):
        gone.tap(1, 2)
    server = gone._server
    gone.close()
    assert server.stopped
    with pytest.raises(DeviceLost, match="closed"):
        gone.tap(1, 2)


def _adb_available() -> bool:
    from phoneworld.device.adb import find_adb

    return find_adb() is not None


@pytest.mark.skipif(not _adb_available(), reason="no adb binary here")
@pytest.mark.skipif(server_running(), reason="an adb server is already running here")
def test_record_with_no_device_fails_within_seconds_and_leaves_no_server(tmp_path):
    code = ("import argparse, sys\n"
            "from phoneworld.device.commands import register\n"
            "from phoneworld.errors import PhoneworldError\n"
            "p = argparse.ArgumentParser(prog='phoneworld'); sub = p.add_subparsers()\n"
            "register(sub)\n"
            "args = p.parse_args(sys.argv[1:])\n"
            "try:\n    sys.exit(args.func(args))\n"
            "except PhoneworldError as err:\n"
            "    print(err.show(), file=sys.stderr); sys.exit(err.exit_code)\n")
    out = subprocess.run([sys.executable, "-c", code, "record", "--serial", "emulator-5554",
                          "-o", str(tmp_path / "shop")], capture_output=True, text=True,
                         timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == DeviceError.exit_code, out.stderr
    assert out.stderr.strip().splitlines() == [
        "error: no Android device: adb lists none. Connect a phone with USB debugging on, "
        "or start an emulator, then check 'adb devices'"]
    assert not server_running()
    assert not (tmp_path / "shop").exists()


def test_the_cli_record_command_when_wired():
    from phoneworld import cli

    parser = cli.build_parser()
    choices = next(a.choices for a in parser._actions if hasattr(a, "choices") and a.choices
                   and "compile" in a.choices)
    if "record" not in choices:
        pytest.skip("phoneworld.cli does not wire `record` yet")
    assert "getevent" in choices["record"].format_help()


# -- a real device (only with --adb-serial) --------------------------------------------------------

@pytest.mark.adb
def test_a_real_device_observes_and_acts(adb_serial):
    device = AdbDevice.connect(adb_serial)
    try:
        b = Bridge(device)
        s = b.observe()
        assert s.width > 0 and s.root is not None and elements(s.root)
        b.perform({"action_type": "navigate_home"}, s)
        s = b.observe()
        assert s.package
        assert hit_test(s.root, s.width // 2, s.height // 2) is not None
    finally:
        device.close()
