from __future__ import annotations

import json
import shutil

import pytest

from phoneworld.errors import TraceError
from phoneworld.traces import native, read_traces
from phoneworld.traces.model import Trace
from tests.conftest import DATA

TINY = DATA / "phoneworld" / "tiny"


def test_reads_tiny_trace_and_resolves_tap():
    (trace,) = native.read(TINY)
    assert trace.format == "phoneworld"
    assert trace.app == "com.example.app"
    assert trace.instruction == "Turn Wi-Fi off"
    assert len(trace.observations) == 2 and len(trace.steps) == 1
    step = trace.steps[0]
    assert (step.before, step.after) == (0, 1)
    assert step.action.target == (1,)
    assert trace.observations[0].root.at(step.action.target).resource_id.endswith("wifi")
    assert trace.observations[0].activity == "com.example.app.Main"
    assert trace.warnings == ()


def test_write_then_read_gives_the_same_trace(tmp_path):
    (trace,) = native.read(TINY)
    native.write(trace, tmp_path / "copy")
    (again,) = native.read(tmp_path / "copy")
    assert again.observations == trace.observations
    assert again.steps == trace.steps
    assert (again.app, again.instruction) == (trace.app, trace.instruction)


def test_write_replaces_a_trace_folder_but_never_other_files(tmp_path):
    from phoneworld.errors import OutputError

    (trace,) = native.read(TINY)
    native.write(trace, tmp_path / "t")
    native.write(trace, tmp_path / "t")  # a trace folder: replaced
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(OutputError, match="not a phoneworld trace folder"):
        native.write(trace, tmp_path / "mine")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "t"]


def test_write_is_byte_deterministic(tmp_path):
    (trace,) = native.read(TINY)
    native.write(trace, tmp_path / "a")
    native.write(trace, tmp_path / "b")
    for f in sorted((tmp_path / "a").iterdir()):
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes()


def _broken(tmp_path, mutate):
    folder = tmp_path / "t"
    shutil.copytree(TINY, folder)
    mutate(folder)
    return folder


@pytest.mark.parametrize("mutate, needle", [
    (lambda f: (f / "trace.json").write_text("{not json"), "trace.json:1: not JSON"),
    (lambda f: (f / "trace.json").write_text('{"format": "other"}'), "not a phoneworld trace"),
    (lambda f: (f / "trace.json").write_text('{"format": "phoneworld-trace", "steps": []}'),
     "non-empty list"),
    (lambda f: (f / "001.xml").unlink(), "001.xml: cannot read observation"),
    (lambda f: (f / "000.xml").write_bytes(b"<hierarchy><node"), "000.xml: not well-formed"),
    (lambda f: (f / "000.xml").write_bytes(b""), "000.xml: empty file"),
    (lambda f: (f / "trace.json").write_text(json.dumps({
        "format": "phoneworld-trace", "steps": [
            {"observation": "000.xml", "action": {"kind": "teleport"}}]})),
     "[steps[0]]: action.kind"),
    (lambda f: (f / "trace.json").write_text(json.dumps({
        "format": "phoneworld-trace", "steps": [{"observation": "../../etc/passwd"}]})),
     "leaves the trace folder"),
])
def test_bad_input_gets_one_clear_error(tmp_path, mutate, needle):
    folder = _broken(tmp_path, mutate)
    with pytest.raises(TraceError) as err:
        native.read(folder)
    assert needle in str(err.value)


def test_trace_json_round_trip():
    (trace,) = read_traces(TINY)
    assert Trace.from_json(trace.to_json()) == trace
    assert Trace.from_json(trace.to_json()).to_json() == trace.to_json()
