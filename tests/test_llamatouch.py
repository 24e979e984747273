from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.errors import TraceError
from phoneworld.traces import llamatouch
from phoneworld.traces.model import Trace
from tests.conftest import DATA, SHARED_TRACES, mutate_file, shared

QUIRKS = DATA / "llamatouch" / "quirks"


def test_duolingo(shared_traces):
    folder = shared("llamatouch", "duolingo")
    assert llamatouch.detect(folder)
    (trace,) = llamatouch.read(folder)
    assert trace.format == "llamatouch" and trace.app == "com.duolingo"
    assert trace.instruction == "Practice pronunciation in French in Duolingo."
    assert len(trace.observations) == 5 and len(trace.steps) == 4
    assert [o.source for o in trace.observations] == [f"{i}.xml" for i in range(5)]
    # The XML roots stop at 2274 (navigation bar); the .vh roots span the 1080x2400 screen.
    assert {(o.width, o.height) for o in trace.observations} == {(1080, 2400)}
    assert [o.foreign for o in trace.observations] == [True, True, False, False, False]
    assert [o.screenshot for o in trace.observations] == [None, None, "2.png", "3.png", "4.png"]
    assert trace.observations[2].activity == "com.duolingo.app.LoginActivity"
    assert trace.observations[1].package == "com.google.android.apps.nexuslauncher"
    home, *taps = [s.action for s in trace.steps]
    assert (home.kind, home.key) == ("key", "home")
    # (204, 170) of 320x720 on a 1080x2400 screen
    assert [(a.kind, a.x, a.y) for a in taps] == [("tap", 689, 567), ("tap", 506, 867),
                                                  ("tap", 645, 1283)]
    assert all(a.target is not None for a in taps)
    icon = trace.observations[1].root.at(taps[0].target)
    assert icon.label == "Duolingo"
    assert [(s.before, s.after) for s in trace.steps] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert [s.source for s in trace.steps] == [f"eventStructs.txt:{k}" for k in (1, 2, 3, 4)]
    assert not any("resolved to no node" in w for w in trace.warnings)


def test_quirks_fixture():
    (trace,) = llamatouch.read(QUIRKS)
    assert trace.instruction == "Search for shoes and open the first result."
    assert [o.source for o in trace.observations] == ["0.xml", "1.vh", "2.vh", "3.xml"]
    # 3 has no .vh and no .png: sized by its XML root
    assert [(o.width, o.height) for o in trace.observations][2:] == [(1080, 2400), (1080, 2274)]
    assert trace.observations[1].activity == ""  # 1.activity is the literal `null`
    assert trace.observations[1].package == "com.example.app"
    tap, typed, back = trace.steps
    assert (tap.action.x, tap.action.y, tap.action.target) == (540, 450, (0,))
    assert (typed.action.kind, typed.action.text, typed.action.target) == ("type", "shoes", (0,))
    assert (back.before, back.after, back.action.key) == (3, None, "back")
    warnings = "\n".join(trace.warnings)
    for expected in ("1.xml: not well-formed XML", "using 1.vh", "2.xml: missing; using 2.vh",
                     "eventStructs.txt:3: unknown action '[Wiggle]",
                     "eventStructs.txt:4: no screen 4 after this action"):
        assert expected in warnings


@pytest.mark.parametrize(("line", "expected"), [
    ("[Long Click] Screen Resolution (320, 720), Long Click Position (160, 360)",
     ("long_press", 540, 1200, None, None)),
    ("[Swipe] Screen Resolution (320, 720), Start Position (160, 600), End Position (160, 120)",
     ("swipe", 540, 2000, 540, 400)),
    ("[Drag] Screen Resolution (320, 720), Start Position (0, 0), End Position (320, 720)",
     ("swipe", 0, 0, 1080, 2400)),
    ("【点击事件】屏幕大小：（w320，h720），触摸位置：（x160，y360）",
     ("tap", 540, 1200, None, None)),
    ("【滑动事件】屏幕大小：（w320，h720），起始位置：（x160，y600），结束位置：（x160，y120）",
     ("swipe", 540, 2000, 540, 400)),
])
def test_gesture_lines(tmp_path, line, expected):
    shutil.copy(QUIRKS / "0.vh", tmp_path / "0.vh")
    shutil.copy(QUIRKS / "0.vh", tmp_path / "1.vh")
    (tmp_path / "eventStructs.txt").write_text(line + "\n", encoding="utf-8")
    (trace,) = llamatouch.read(tmp_path)
    a = trace.steps[0].action
    assert (a.kind, a.x, a.y, a.x2, a.y2) == expected


@pytest.mark.parametrize(("line", "kind", "value"), [
    ("[Back]", "key", "back"), ("[App Switch]", "key", "app_switch"),
    ("【Home键】", "key", "home"), ("[Input] red shoes", "type", "red shoes"),
    ("【键盘输入】红鞋", "type", "红鞋"),
])
def test_key_and_text_lines(tmp_path, line, kind, value):
    shutil.copy(QUIRKS / "0.vh", tmp_path / "0.vh")
    (tmp_path / "eventStructs.txt").write_text(line, encoding="utf-8")
    (trace,) = llamatouch.read(tmp_path)
    a = trace.steps[0].action
    assert (a.kind, a.key or a.text) == (kind, value)


def test_click_without_position_is_warned_and_skipped(tmp_path):
    shutil.copy(QUIRKS / "0.vh", tmp_path / "0.vh")
    (tmp_path / "eventStructs.txt").write_text("[Click] Screen Resolution (320, 720)\n")
    (trace,) = llamatouch.read(tmp_path)
    assert trace.steps == ()
    assert any("eventStructs.txt:1: expected a resolution and 1 position" in w
               for w in trace.warnings)


def test_no_screens_or_no_usable_screen_is_an_error(tmp_path):
    (tmp_path / "eventStructs.txt").write_text("[Home]\n")
    assert llamatouch.detect(tmp_path)
    with pytest.raises(TraceError, match="no screens"):
        llamatouch.read(tmp_path)
    (tmp_path / "0.xml").write_bytes(b"<hierarchy")
    (tmp_path / "0.vh").write_bytes(b"[1, 2")
    with pytest.raises(TraceError, match=r"no screen has a readable hierarchy.*0\.vh: not JSON"):
        llamatouch.read(tmp_path)


def test_not_llamatouch():
    assert not llamatouch.detect(DATA / "droidbot" / "quirks")
    assert not llamatouch.detect(DATA / "uiautomator")


def _assert_trace_or_trace_error(folder: Path) -> None:
    try:
        traces = llamatouch.read(folder)
    except TraceError as err:
        assert str(err)
        return
    for trace in traces:
        assert isinstance(trace, Trace)
        Trace.from_json(trace.to_json())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_fixture_gives_trace_or_trace_error(data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "t"
        shutil.copytree(QUIRKS, folder)
        files = sorted(p for p in folder.iterdir() if p.is_file())
        mutate_file(data, data.draw(st.sampled_from(files), label="file"))
        _assert_trace_or_trace_error(folder)


@pytest.mark.skipif(not (SHARED_TRACES / "llamatouch" / "duolingo").is_dir(),
                    reason="../shared/traces is not here")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_real_files_give_trace_or_trace_error(data):
    src = SHARED_TRACES / "llamatouch" / "duolingo"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "t"
        folder.mkdir()
        for f in sorted(src.iterdir()):  # screenshots left out: only their headers are read
            if f.suffix != ".png" and f.name[0] in "01" or f.suffix == ".txt":
                shutil.copy(f, folder / f.name)
        files = sorted(folder.iterdir())
        mutate_file(data, data.draw(st.sampled_from(files), label="file"))
        _assert_trace_or_trace_error(folder)
