from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.errors import TraceError
from phoneworld.traces import rico
from phoneworld.traces.model import Trace
from tests.conftest import DATA, SHARED_TRACES, mutate_file, shared

GAPPY = DATA / "rico" / "gappy"


def test_skype(shared_traces):
    folder = shared("rico", "skype")
    assert rico.detect(folder)
    (trace,) = rico.read(folder)
    assert trace.format == "rico" and trace.app == "com.skype.raider"
    assert len(trace.observations) == 30 and len(trace.steps) == 30
    assert dict(Counter(s.action.kind for s in trace.steps)) == {"tap": 21, "swipe": 9}
    with_root = [(i, o.source) for i, o in enumerate(trace.observations) if o.root is not None]
    assert with_root == [(3, "view_hierarchies/74.json"), (10, "view_hierarchies/677.json")]
    assert trace.observations[0].source == "gestures.json#1"
    assert {(o.width, o.height) for o in trace.observations} == {(1440, 2560)}
    assert trace.observations[3].activity == (
        "com.skype.android.app.signin.unified.UnifiedLandingPageActivity")
    # steps link screen n to the next larger id; the last gesture leads nowhere recorded
    assert [(s.before, s.after) for s in trace.steps] == [(i, i + 1) for i in range(29)] + [
        (29, None)]
    gestures = json.loads((folder / "gestures.json").read_text())
    first = trace.steps[0].action
    assert (first.x, first.y) == (int(gestures["1"][0][0] * 1440), int(gestures["1"][0][1] * 2560))
    swipe = next(s.action for s in trace.steps if s.source == "gestures.json#1086")
    (x1, y1), (x2, y2) = gestures["1086"][0], gestures["1086"][-1]
    assert (swipe.x, swipe.y, swipe.x2, swipe.y2) == (
        int(x1 * 1440), int(y1 * 2560), int(x2 * 1440), int(y2 * 2560))
    tap_74 = trace.steps[3].action
    assert tap_74.target is not None
    assert trace.observations[3].root.at(tap_74.target).clickable
    assert any(w.startswith("view_hierarchies: 28 of 30 screens have no hierarchy (ids 1, 25, 51,")
               for w in trace.warnings)


def test_gappy_fixture():
    (trace,) = rico.read(GAPPY)
    assert [o.source for o in trace.observations] == [
        "view_hierarchies/1.json", "view_hierarchies/3.json", "gestures.json#7",
        "gestures.json#9", "gestures.json#11"]
    assert [o.root is not None for o in trace.observations] == [True, False, False, False, False]
    root = trace.observations[0].root
    button = root.at((0,))
    assert (button.class_name, button.text, button.content_desc) == (
        "android.widget.Button", "Go", "go")
    assert root.package == "com.example.app" and button.package == "com.example.app"
    assert len(root.children) == 1  # the null child is left out
    got = [(s.source, s.before, s.after, s.action.kind) for s in trace.steps]
    assert got == [("gestures.json#1", 0, 1, "tap"), ("gestures.json#3", 1, 2, "swipe"),
                   ("gestures.json#9", 3, 4, "tap")]
    assert trace.steps[0].action.target == (0,)
    assert (trace.steps[2].action.x, trace.steps[2].action.y) == (1439, 1280)  # clamped
    warnings = "\n".join(trace.warnings)
    for expected in ("gestures.json ['x']: not a UI id (skipped)",
                     "gestures.json [11]: 1 malformed points ignored",
                     "points outside the screen clamped to its edge (ids 9)",
                     "view_hierarchies/3.json: not JSON",
                     "view_hierarchies: 4 of 5 screens have no hierarchy (ids 3, 7, 9, 11)"):
        assert expected in warnings


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty file"), (b"[1, 2]", "expected an object"), (b"{\"1\": [[0.1", "not JSON"),
    (b"{}", "no gestures and no view hierarchies"),
])
def test_bad_gestures_is_an_error(tmp_path, content, message):
    (tmp_path / "gestures.json").write_bytes(content)
    with pytest.raises(TraceError, match=message):
        rico.read(tmp_path)


def test_not_rico(tmp_path):
    assert not rico.detect(DATA / "droidbot" / "quirks")
    with pytest.raises(TraceError, match="no gestures.json"):
        rico.read(tmp_path)


def _assert_trace_or_trace_error(folder: Path) -> None:
    try:
        traces = rico.read(folder)
    except TraceError as err:
        assert str(err)
        return
    for trace in traces:
        assert isinstance(trace, Trace)
        Trace.from_json(trace.to_json())


def _damage_one(data, src: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "t"
        shutil.copytree(src, folder)
        files = sorted(p for p in folder.rglob("*") if p.is_file())
        mutate_file(data, data.draw(st.sampled_from(files), label="file"))
        _assert_trace_or_trace_error(folder)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_fixture_gives_trace_or_trace_error(data):
    _damage_one(data, GAPPY)


@pytest.mark.skipif(not (SHARED_TRACES / "rico" / "skype").is_dir(),
                    reason="../shared/traces is not here")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_real_files_give_trace_or_trace_error(data):
    _damage_one(data, SHARED_TRACES / "rico" / "skype")


def test_fields_of_the_wrong_type_are_read_as_defaults_and_said(tmp_path):
    folder = tmp_path / "gappy"
    shutil.copytree(GAPPY, folder)
    file = folder / "view_hierarchies" / "1.json"
    doc = json.loads(file.read_text())
    button = doc["activity"]["root"]["children"][0]
    button.update(text=5, clickable="maybe", **{"content-desc": {"a": 1}})
    file.write_text(json.dumps(doc))
    (trace,) = rico.read(folder)
    assert any("view_hierarchies/1.json: 3 view fields of the wrong type" in w
               and "text x1" in w for w in trace.warnings)
