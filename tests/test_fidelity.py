"""The compiler judged on real apps: every DroidBot and LlamaTouch folder of
../shared/traces is compiled, and its recorded steps are replayed on the mock
(`phoneworld.replay`); a mock compiled from the first 70% of each trace is replayed on
the rest. Pooled fidelity is held to issue #20's 0.95, each folder to 0.85; the other
floors are the figures reached so far (the issue asks a mean text recall of 0.9);
`benchmarks/fidelity.py` prints them all.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.apps import load_app
from phoneworld.compiler import compile_app, compile_traces
from phoneworld.errors import PhoneworldError
from phoneworld.infer.graph import build_graph
from phoneworld.replay import replay, split_trace
from phoneworld.traces import read_traces
from tests.conftest import SHARED_TRACES, shared_folders

FOLDERS = shared_folders("droidbot", "llamatouch")


@pytest.fixture(scope="module")
def measured(tmp_path_factory) -> dict[str, dict]:
    if not FOLDERS:
        pytest.skip("../shared/traces is not here")
    out = {}
    for folder in FOLDERS:
        src = SHARED_TRACES / folder
        tmp = tmp_path_factory.mktemp(folder.replace("/", "_"))
        (app,) = compile_traces(src, tmp)
        traces = read_traces(src)
        whole = replay(traces, load_app(tmp / app.name))
        heads, tails = zip(*(split_trace(t) for t in traces), strict=True)
        head = compile_app(app.name, list(heads), app.spec.source)
        for name, data in head.files.items():
            (tmp / "head" / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / "head" / name).write_bytes(data)
        ahead = replay(list(tails), load_app(tmp / "head"), known_only=True)
        out[folder] = {"whole": whole, "ahead": ahead,
                       "screens": app.report["counts"]["screens"],
                       "classified": _classified(traces, load_app(tmp / app.name))}
    return out


def _classified(traces, mock) -> tuple[int, int]:
    """(observations replay classifies onto the screen the compiler grouped them into,
    observations the compiler grouped)."""
    graph = build_graph(mock.spec.name, traces)
    where = {r: s.name for s in graph.screens for r in s.observations}
    same = sum(mock.classify(traces[r.trace].observations[r.index]) == name
               for r, name in where.items())
    return same, len(where)


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_recording_replays_on_the_screen_it_was_compiled_into(measured, folder):
    """Replay classifies an observation by the compiler's rules (its layout, labels,
    selected tabs, and bodies of its own: `ui.bodies`), against each screen's rendering:
    uber's day picker lands on the day picker, not on Profile Photo. A rendering is not
    the recording (qqmusic's album renders a now-playing title as a selected tab, the
    compiler takes the first screen that fits where replay takes the likeliest), so a
    few land elsewhere: 21 of 23 on qqmusic, 75 of 78 on uber, all on five folders."""
    same, seen = measured[folder]["classified"]
    assert same >= 0.9 * seen, (folder, same, seen)


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_real_app_replays_on_its_mock(measured, folder):
    r = measured[folder]["whole"]
    assert r["steps"] >= 3
    assert r["fidelity"] >= 0.85, (folder, r["mismatches"])
    # activitylauncher switches to Afrikaans at step 164 and its mock keeps the English
    # era (#21, `infer.eras`: one app, one language); the compile report names the
    # observations left out and replay leaves out the 136 steps taken on them
    # (`other_era`), so the steps judged are the English era's (0.930; judged on English
    # texts the Afrikaans steps gave 0.746). Lowest: onelist's 0.845.
    assert r["text_recall"] >= 0.8 and r["screen_similarity"] >= 0.75, folder  # 0.796
    # Not gamed by one screen for everything: the screens are there, with layouts.
    assert measured[folder]["screens"] >= 3


def test_pooled_fidelity_similarity_and_text_recall(measured):
    results = [m["whole"] for m in measured.values()]
    steps = sum(r["steps"] for r in results)
    assert sum(r["reproduced"] for r in results) / steps >= 0.95
    # 0.9075: 0.910 before a row a recording saved (onelist's "Hello World" list) left
    # the initial state (infer/saves); replay resets the mock before every step, so the
    # main page recorded after the save shows a row the reset mock has not yet made.
    # 0.9059 since list rows keep their recorded sizes (#22): activitylauncher's settings
    # table holds its rows in English and again in Afrikaans, and with its rows at their
    # true sizes the placement that shows most recorded texts is scrolled past "Theme",
    # which `replay.aim.aim` (scrolling only down) then missed on 3 steps (0.8203 -> 0.8056);
    # it now scrolls back up too (0.809, pooled 0.906). The mock keeps one era of
    # activitylauncher, English, and replay judges only the steps of that era (0.930;
    # see above; pooled 0.928).
    assert sum(r["text_recall"] for r in results) / len(results) >= 0.905
    # 0.897 (0.880 while activitylauncher's Afrikaans steps were judged)
    assert sum(r["screen_similarity"] for r in results) / len(results) >= 0.875


def test_a_mock_of_the_first_70_percent_predicts_the_rest(measured):
    results = [m["ahead"] for m in measured.values() if m["ahead"]["steps"]]
    steps = sum(r["steps"] for r in results)
    assert steps >= 300
    # 0.935: uber's head now reaches its legal pages (an event that stopped where DroidBot
    # wrote no file settles where the next began), whose taps only its tail records.
    # 0.932 since replay leaves out the steps of an era the mock does not keep:
    # activitylauncher's head keeps English, and of its tail's 90 steps (87 reproduced)
    # 24 are left, all reproduced; 458 steps in all.
    assert sum(r["reproduced"] for r in results) / steps >= 0.93



@pytest.fixture(scope="module")
def qqmusic():
    if "droidbot/qqmusic" not in FOLDERS:
        pytest.skip("../shared/traces/droidbot/qqmusic is not here")
    return read_traces(SHARED_TRACES / "droidbot" / "qqmusic")


@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(share=st.floats(0.05, 0.95), part=st.sampled_from(["head", "tail"]),
       lost=st.sets(st.integers(0, 40), max_size=12))
def test_any_part_of_a_real_run_compiles_or_says_why(qqmusic, share, part, lost):
    """Cut anywhere, with hierarchies lost anywhere (DroidBot's missing state files), a
    real run compiles; it fails (with a PhoneworldError that says why, never a crash)
    only where no hierarchy is left."""
    traces = []
    for t in qqmusic:
        t = split_trace(t, share)[part == "tail"]
        traces.append(t.model_copy(update={"observations": tuple(
            o.model_copy(update={"root": None}) if i in lost else o
            for i, o in enumerate(t.observations))}))
    try:
        app = compile_app("qqmusic", traces, "qqmusic")
    except PhoneworldError as err:  # only when nothing is left to compile
        assert not any(o.root is not None for t in traces for o in t.observations), err
        return
    assert app.files["spec.pw"] and len({s.name for s in app.spec.screens}) == len(
        app.spec.screens)
