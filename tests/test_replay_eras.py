"""Replay judges the era the mock keeps (#21): a recording that switched the app's
language mid-run is compiled into a mock of one era (`infer.eras`), the compile report
names the observations left out (`other_eras`), and replay leaves out the steps taken on
them, saying how many, instead of judging English screens against Afrikaans ones."""

from __future__ import annotations

import json

import pytest

from phoneworld.apps import load_app
from phoneworld.compiler import compile_app, format_summary
from phoneworld.replay import format_replay, replay
from tests.test_infer_eras import switched

FIRST = 18
"""The first observation in Afrikaans: 16 in English, home and settings, then settings."""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    trace = switched(2, 1)
    app = compile_app("files", [trace], "t")
    out = tmp_path_factory.mktemp("files")
    for name, data in app.files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    return trace, app, out


def test_the_compile_report_names_the_observations_of_the_era_left_out(compiled):
    trace, app, out = compiled
    report = json.loads((out / "compile_report.json").read_bytes())
    (era,) = report["other_eras"]
    n = len(trace.observations)
    assert era == {"trace": "t", "name": "t",
                   "observations": [f"{i}.xml" for i in range(FIRST, n)],
                   "note": f"t: {n - FIRST} observations after step {FIRST} left out: "
                           "another era of the app (texts changed on 3 screens at once)"}
    assert era["note"] in format_summary([app], out)


def test_replay_leaves_out_the_steps_of_the_era_left_out(compiled):
    trace, _, out = compiled
    result = replay([trace], load_app(out))
    later = sum(s.before >= FIRST for s in trace.steps)
    assert later == 9 and result["other_era"] == later
    assert result["traces"][0]["other_era"] == later
    assert result["steps"] == len(trace.steps) - later
    # every step judged lands where it did; one shows other texts than recorded: the tap
    # on "Language" (taken in English, so judged) that led to the Afrikaans settings
    assert result["fidelity"] == 1.0 and result["text_recall"] == round(17 / 18, 4)
    assert f"other era: {later} steps left out" in format_replay(result)
    # traces read from another path than compiled from: the report's entry is the one
    # whose source ends the trace's, else the one with the trace's name
    for source in ("/home/me/t", "elsewhere/run"):
        moved = trace.model_copy(update={"source": source})
        assert replay([moved], load_app(out))["other_era"] == later
    other = trace.model_copy(update={"source": "elsewhere/run", "name": "run"})
    assert replay([other], load_app(out))["other_era"] == 0


def test_without_the_report_the_other_era_is_judged(compiled):
    """What leaves the steps out is the report: with no `other_eras`, every step is
    judged, and the Afrikaans screens' texts are not the mock's."""
    trace, _, out = compiled
    report = json.loads((out / "compile_report.json").read_bytes())
    del report["other_eras"]
    (out / "compile_report.json").write_text(json.dumps(report))
    try:
        result = replay([trace], load_app(out))
    finally:
        (out / "compile_report.json").write_bytes(compiled[1].files["compile_report.json"])
    assert result["other_era"] == 0 and result["steps"] == len(trace.steps)
    assert result["text_recall"] < 0.9
    assert "other era" not in format_replay(result)
