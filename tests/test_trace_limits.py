"""Trace folders as untrusted input: links, special files, and the pipeline's limits."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat

import pytest

from phoneworld import limits
from phoneworld.apps import load_app
from phoneworld.cli import main
from phoneworld.compiler import compile_traces
from phoneworld.errors import TraceError
from phoneworld.runtime import Machine
from phoneworld.traces import droidbot, native, read_traces, uiautomator
from phoneworld.traces.files import TooLarge, UnsafeFile, entries, read_bytes
from tests.hostile import (
    deep_view_list,
    deep_xml,
    droidbot_trace,
    native_trace,
    node,
    wide_xml,
)

FLAT = deep_xml(3)


@contextlib.contextmanager
def _no_hang(seconds: int = 20):
    """Fail (rather than hang the suite) when reading blocks."""
    def fail(*_):
        raise AssertionError(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _one_line_error(argv: list[str], capsys, code: int = 2) -> str:
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# -- links and special files -------------------------------------------------------------

def test_a_link_out_of_the_trace_folder_is_skipped_with_a_warning(tmp_path):
    secret = tmp_path / "secret.xml"
    secret.write_bytes(deep_xml(2).replace(b"OK", b"SECRET"))
    trace = native_trace(tmp_path / "t" / "app", FLAT)
    (trace / "001.xml").unlink()
    (trace / "001.xml").symlink_to(secret)
    (t,) = read_traces(tmp_path / "t")
    assert t.observations[1].root is None
    assert any("001.xml: skipped, a symbolic link to a file outside" in w for w in t.warnings)
    assert "SECRET" not in t.model_dump_json()


def test_fifos_devices_and_link_loops_never_block_and_are_read_once(tmp_path):
    folder = tmp_path / "dumps"
    folder.mkdir()
    (folder / "0.xml").write_bytes(FLAT)
    (folder / "1.xml").symlink_to(folder / "0.xml")  # one file, two names: read once
    os.mkfifo(folder / "2.xml")
    (folder / "3.xml").symlink_to("/dev/zero")
    (folder / "4.xml").symlink_to(folder / "4.xml")  # a link to itself
    (tmp_path / "loop").symlink_to(tmp_path)  # discovery: a folder link back up
    (tmp_path / "again").symlink_to(tmp_path)
    notes: list[str] = []
    with _no_hang():
        traces = read_traces(tmp_path, notes)
    assert [len(t.observations) for t in traces] == [1]
    warnings = " | ".join(traces[0].warnings)
    assert "1.xml: skipped, another name of 0.xml" in warnings
    assert "2.xml: skipped, not a regular file (a FIFO)" in warnings
    assert "3.xml: skipped, a symbolic link to a file outside" in warnings
    assert "4.xml: skipped, a symbolic link that leads nowhere" in warnings
    assert len(notes) == 2 and all(": skipped, " in n for n in notes)
    assert any("a link to a folder already read" in n for n in notes)


def test_a_file_named_by_many_steps_is_read_once_and_a_link_loop_is_skipped(tmp_path,
                                                                             monkeypatch):
    trace = native_trace(tmp_path / "t", FLAT, steps=3)
    doc = json.loads((trace / "trace.json").read_text())
    for entry in doc["steps"]:
        entry["observation"] = "./000.xml"
    doc["steps"][2]["observation"] = "loop.xml"
    (trace / "loop.xml").symlink_to(trace / "loop.xml")
    (trace / "trace.json").write_text(json.dumps(doc))
    reads: list[str] = []
    real = native.read_bytes
    monkeypatch.setattr(native, "read_bytes", lambda f, root: reads.append(f.name) or
                        real(f, root))
    (t,) = native.read(trace)
    assert reads == ["trace.json", "000.xml", "loop.xml"] and t.observations[2].root is None
    assert any("loop.xml: skipped, a symbolic link that leads nowhere" in w
               for w in t.warnings)


def test_a_named_fifo_observation_is_skipped_not_waited_for(tmp_path):
    trace = native_trace(tmp_path / "t", FLAT)
    (trace / "001.xml").unlink()
    os.mkfifo(trace / "001.xml")
    with _no_hang():
        (t,) = native.read(trace)
    assert t.observations[1].root is None
    with pytest.raises(UnsafeFile, match="not a regular file"), _no_hang():
        read_bytes(trace / "001.xml")


def test_droidbot_state_links_out_of_the_folder_are_skipped(tmp_path):
    run = droidbot_trace(tmp_path / "run", deep_view_list(3))
    outside = tmp_path / "elsewhere.json"
    state = next((run / "states").iterdir())
    outside.write_bytes(state.read_bytes())
    state.unlink()
    state.symlink_to(outside)
    (t,) = droidbot.read(run)
    assert any("skipped, a symbolic link to a file outside" in w for w in t.warnings)
    assert len([o for o in t.observations if o.root is not None]) == 1


def test_entries_keep_a_files_own_name_over_a_link_to_it(tmp_path):
    (tmp_path / "b.xml").write_text("x")
    (tmp_path / "a.xml").symlink_to(tmp_path / "b.xml")
    notes: list[str] = []
    assert [p.name for p in entries(tmp_path, tmp_path, notes)] == ["b.xml"]
    assert notes == ["a.xml: skipped, another name of b.xml (read once)"]


# -- limits ------------------------------------------------------------------------------

def test_a_hierarchy_at_the_depth_limit_compiles_checks_runs_and_serves(tmp_path):
    native_trace(tmp_path / "t" / "deep", deep_xml(limits.MAX_DEPTH))
    compile_traces(tmp_path / "t", tmp_path / "out")
    app = load_app(tmp_path / "out" / "deep")  # parsed and checked
    machine = Machine(app.spec)
    machine.reset(0)
    for form in ("xml", "html", "elements", "node"):
        assert machine.observe(form)
    machine.step({"action_type": "click", "x": 540, "y": 1200})
    from phoneworld.serve.app import create_app

    client = create_app(app.path).test_client()
    sid = client.post("/api/sessions", json={}).get_json()["session"]
    assert client.get(f"/api/sessions/{sid}/observation?format=xml").status_code == 200


def test_one_level_past_the_depth_limit_is_one_line_and_writes_nothing(tmp_path, capsys):
    native_trace(tmp_path / "t" / "deep", deep_xml(limits.MAX_DEPTH + 1))
    err = _one_line_error(["compile", str(tmp_path / "t"), "-o", str(tmp_path / "out"), "-q"],
                          capsys)
    assert f"views nest deeper than {limits.MAX_DEPTH} levels" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("xml, needle", [
    (deep_xml(100_000), "views nest deeper than"),
    (wide_xml(limits.MAX_CHILDREN + 1, same_id=False), "more than 5,000 children"),
    (("<hierarchy>" + node(close=False) + (node(close=False) + node() * 120 + "</node>")
      * 170 + "</node></hierarchy>").encode(), "more than 20,000 views"),  # 170 x 121
    (("<hierarchy>" + node(text="x" * (limits.MAX_TEXT + 1)) + "</hierarchy>").encode(),
     "text is 100,001 characters"),
])
def test_dumps_past_a_limit_are_refused_with_one_line(tmp_path, capsys, xml, needle):
    dump = tmp_path / "dump.xml"
    dump.write_bytes(xml)
    assert needle in _one_line_error(["inspect", str(dump)], capsys)


def test_a_file_over_the_byte_limit_is_refused_before_it_is_read(tmp_path, capsys):
    trace = native_trace(tmp_path / "t", FLAT)
    with (trace / "001.xml").open("r+b") as fh:  # sparse: nothing is written to disk
        fh.truncate(limits.MAX_FILE_BYTES + 1)
    err = _one_line_error(["inspect", str(trace)], capsys)
    assert "001.xml: 67,108,865 bytes is over the limit of 64 MiB per trace file" in err
    with pytest.raises(TooLarge):
        read_bytes(trace / "001.xml")
    assert read_bytes(trace / "000.xml", limit=len(FLAT)) == FLAT
    with pytest.raises(TooLarge):
        read_bytes(trace / "000.xml", limit=len(FLAT) - 1)


def test_a_droidbot_view_list_past_the_depth_limit_loses_its_hierarchy_with_a_warning(
        tmp_path):
    run = droidbot_trace(tmp_path / "run", deep_view_list(600))
    (t,) = droidbot.read(run)
    assert all(o.root is None for o in t.observations)
    assert any(f"views nest deeper than {limits.MAX_DEPTH} levels" in w for w in t.warnings)
    (t,) = droidbot.read(droidbot_trace(tmp_path / "ok", deep_view_list(limits.MAX_DEPTH)))
    assert all(o.root is not None for o in t.observations)


def test_a_too_large_view_list_is_refused(tmp_path):
    views = deep_view_list(2)
    views += [dict(views[1], temp_id=i, parent=0, children=[])
              for i in range(2, limits.MAX_NODES + 1)]
    views[0]["children"] = list(range(1, len(views)))
    from phoneworld.traces.viewlist import build_tree

    with pytest.raises(TraceError, match="20,001 views, over the limit of 20,000"):
        build_tree(views, "x.json")


def test_wide_same_id_dumps_stay_cheap_to_compile(tmp_path):
    """4,000 look-alike siblings (54 s before widget keys were indexed once per tree);
    the timing itself is in benchmarks/hostile.py."""
    native_trace(tmp_path / "t" / "wide", wide_xml(4000))
    (app,) = compile_traces(tmp_path / "t", tmp_path / "out")
    names = app.files["spec.pw"].decode()
    assert "b_4000" in names


@pytest.mark.parametrize("manifest, needle", [
    ({"instruction": {}}, "instruction: expected a string or null, got an object"),
    ({"app": 5}, "app: expected a string or null, got a number"),
    ({"screen": [1080]}, "screen: expected [width, height]"),
    ({"answer": "\ud800"}, "answer: holds an unpaired surrogate \\ud800"),
    ({"instruction": "x" * (limits.MAX_TEXT + 1)}, "over the limit of 100,000"),
])
def test_manifest_fields_of_the_wrong_type_name_the_field(tmp_path, manifest, needle):
    trace = native_trace(tmp_path / "t", FLAT, manifest=manifest)
    with pytest.raises(TraceError) as err:
        native.read(trace)
    assert needle in str(err.value)


@pytest.mark.parametrize("edit, needle", [
    (lambda s: s.update(activity=True), "[steps[0]]: activity: expected a string or null"),
    (lambda s: s["action"].update(y=None), "[steps[0]]: action.y: a tap needs it"),
    (lambda s: s["action"].update(x="540"), "[steps[0]]: action.x: Input should be a valid"),
    (lambda s: s["action"].update(x=10**12), "action.x: 1000000000000 is not a screen"),
    (lambda s: s["action"].update(target=[5, 0]), "action.target: [5, 0] is no node"),
    (lambda s: s.update(action={"kind": "type"}), "action.text: a type needs it"),
    (lambda s: s.update(action=[1]), "action: expected an object or null, got a list"),
    (lambda s: s.update(screenshot="\udc80"), "screenshot: holds an unpaired surrogate"),
])
def test_step_fields_of_the_wrong_type_name_the_step_and_field(tmp_path, edit, needle):
    trace = native_trace(tmp_path / "t", FLAT)
    doc = json.loads((trace / "trace.json").read_text())
    edit(doc["steps"][0])
    (trace / "trace.json").write_text(json.dumps(doc))
    with pytest.raises(TraceError) as err:
        native.read(trace)
    assert needle in str(err.value)


def test_uiautomator_folder_skips_special_files_with_a_warning(tmp_path):
    (tmp_path / "0.xml").write_bytes(FLAT)
    os.mkfifo(tmp_path / "1.xml")
    assert stat.S_ISFIFO((tmp_path / "1.xml").stat().st_mode)
    with _no_hang():
        (t,) = uiautomator.read(tmp_path)
    assert len(t.observations) == 1 and any("1.xml: skipped" in w for w in t.warnings)


def test_llamatouch_text_files_linked_out_of_the_folder_are_skipped_with_a_warning(tmp_path):
    import shutil

    from phoneworld.traces import llamatouch
    from tests.conftest import DATA

    folder = tmp_path / "t"
    shutil.copytree(DATA / "llamatouch" / "quirks", folder)
    (tmp_path / "outside.txt").write_text("1\nRead this file from elsewhere\n")
    (folder / "instruction.txt").unlink()
    (folder / "instruction.txt").symlink_to(tmp_path / "outside.txt")
    (t,) = llamatouch.read(folder)
    assert t.instruction is None
    assert any("instruction.txt: skipped, a symbolic link to a file outside" in w
               for w in t.warnings)
