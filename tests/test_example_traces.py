"""The bundled example traces (`traces/`): complete, realistic, and rebuilt byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from phoneworld.traces import native
from phoneworld.traces.model import Trace
from tests.conftest import ROOT

TRACES = ROOT / "traces"
SCRIPT = ROOT / "tools" / "make_example_traces.py"
APPS = {"shopping": "com.example.shop", "messages": "com.example.messages",
        "settings": "com.example.settings"}
FOLDERS = sorted(p.parent for p in TRACES.glob("*/*/trace.json"))


def _read(folder: Path) -> Trace:
    (trace,) = native.read(folder)
    return trace


@pytest.fixture(scope="module")
def traces() -> dict[str, Trace]:
    return {f"{f.parent.name}/{f.name}": _read(f) for f in FOLDERS}


def test_every_app_has_at_least_five_traces():
    counts = {app: len(list((TRACES / app).glob("*/trace.json"))) for app in APPS}
    assert all(n >= 5 for n in counts.values()), counts
    assert {f.parent.name for f in FOLDERS} == set(APPS)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f"{f.parent.name}/{f.name}")
def test_trace_reads_cleanly(folder):
    trace = _read(folder)
    assert trace.app == APPS[folder.parent.name]
    assert trace.instruction
    assert trace.warnings == ()
    assert 6 <= len(trace.steps) <= 20
    assert not any(o.foreign for o in trace.observations)
    last = trace.steps[-1].action
    assert (last.kind == "answer") == (trace.answer is not None)
    if trace.answer is not None:
        assert last.text == trace.answer


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f"{f.parent.name}/{f.name}")
def test_every_tap_lands_on_its_target(folder):
    trace = _read(folder)
    for step in trace.steps:
        a = step.action
        if a.kind not in ("tap", "long_press", "type", "scroll"):
            continue
        assert a.target is not None, step.source
        node = trace.observations[step.before].root.at(a.target)
        x1, y1, x2, y2 = node.bounds
        assert x1 <= a.x < x2 and y1 <= a.y < y2, step.source
        if a.kind in ("tap", "long_press"):
            assert node.clickable or node.long_clickable or node.checkable, step.source
        if a.kind == "type":
            assert node.editable and node.focused, step.source
            after = trace.observations[step.after].root.at(a.target)
            assert after.text.endswith(a.text), step.source
        if a.kind == "scroll":
            assert node.scrollable, step.source


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f"{f.parent.name}/{f.name}")
def test_observations_hold_app_and_system_windows(folder):
    trace = _read(folder)
    for obs in trace.observations:
        assert (obs.width, obs.height) == (1080, 2400)
        windows = obs.root.children
        assert obs.root.class_name == "hierarchy" and len(windows) in (3, 4)
        assert windows[0].package == trace.app and windows[0].bounds == (0, 0, 1080, 2400)
        status, nav = windows[-2], windows[-1]
        assert status.package == nav.package == "com.android.systemui"
        assert status.bounds == (0, 0, 1080, 63) and nav.bounds == (0, 2337, 1080, 2400)
        assert {"Back", "Home", "Overview"} <= {n.content_desc for _, n in nav.walk()}
        assert any(n.content_desc.startswith("Battery ") for _, n in status.walk())


def _clock(obs) -> int:
    """Minutes since midnight on the status bar's clock (its description says AM/PM)."""
    clock = next(n for _, n in obs.root.children[-2].walk() if n.resource_id.endswith("/clock"))
    hm, half = clock.content_desc.split()
    h, m = map(int, hm.split(":"))
    assert clock.text == hm
    return (h % 12 + (12 if half == "PM" else 0)) * 60 + m


def test_status_bar_clock_runs_forward(traces):
    for name, trace in traces.items():
        times = [_clock(o) for o in trace.observations]
        assert times == sorted(times), name
    assert len({_clock(t.observations[0]) for t in traces.values()}) > 5


def test_a_tap_on_a_switch_flips_it(traces):
    """Tapping a checkable view, or a row holding one, toggles it on the next screen."""
    flips = 0
    for name, trace in traces.items():
        for step in trace.steps:
            a = step.action
            if a.kind != "tap" or step.after is None:
                continue
            before = trace.observations[step.before].root.at(a.target)
            for path, node in before.walk():
                if node.checkable:
                    after = trace.observations[step.after].root.at(a.target)
                    assert after.at(path).class_name == node.class_name, name
                    assert after.at(path).checked != node.checked, (name, step.source)
                    flips += 1
    assert flips >= 8


def test_regenerating_gives_identical_files(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(tmp_path)], check=True,
                   capture_output=True)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    bundled = sorted(p.relative_to(TRACES) for p in TRACES.rglob("*") if p.is_file())
    assert made == bundled
    for rel in made:
        assert (tmp_path / rel).read_bytes() == (TRACES / rel).read_bytes(), rel
