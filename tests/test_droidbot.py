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
from phoneworld.traces import droidbot
from phoneworld.traces.model import Trace
from phoneworld.traces.viewlist import build_tree
from tests.conftest import DATA, SHARED_TRACES, mutate_file, shared

QUIRKS = DATA / "droidbot" / "quirks"


def _kinds(trace):
    return dict(Counter(s.action.kind for s in trace.steps))


def _recorded_view_is_target(folder: Path, trace) -> bool:
    """Each event that carries a view targets the view with the same `view_str` in the
    start state's file (its position there may differ: the screen can change within one
    state_str)."""
    for step in trace.steps:
        view = json.loads((folder / step.source).read_bytes())["event"].get("view")
        if not view:
            continue
        state = json.loads((folder / trace.observations[step.before].source).read_bytes())
        at = {path: tid for tid, path in build_tree(state["views"], "s").paths.items()}
        if state["views"][at[step.action.target]]["view_str"] != view["view_str"]:
            return False
    return True


def test_qqmusic(shared_traces):
    folder = shared("droidbot", "qqmusic")
    assert droidbot.detect(folder)
    (trace,) = droidbot.read(folder)
    assert trace.format == "droidbot" and trace.app == "com.tencent.qqmusic"
    # 23 state files + 1 state the recorder wrote no file for (kept without hierarchy).
    assert len(trace.observations) == 24
    assert sum(o.root is None for o in trace.observations) == 1
    # 46 events; the BACK of event_…204601 starts in the state with no file.
    assert len(trace.steps) == 46
    assert _kinds(trace) == {"tap": 30, "open_app": 9, "stop_app": 3, "key": 4}
    assert all(s.action.target is not None for s in trace.steps if s.action.kind == "tap")
    assert _recorded_view_is_target(folder, trace)
    assert sum(o.foreign for o in trace.observations) == 8
    assert {(o.width, o.height) for o in trace.observations} == {(1080, 2280)}
    assert sum(o.screenshot is not None for o in trace.observations) == 22
    assert trace.observations[0].screenshot == "states/screen_2021-12-06_204452.jpg"
    assert any("event_2021-12-06_204601.json: start state" in w for w in trace.warnings)


def test_qqmusic_links_by_state_str_to_the_latest_file_of_that_state(shared_traces):
    (trace,) = droidbot.read(shared("droidbot", "qqmusic"))
    by_source = {s.source: s for s in trace.steps}
    obs = trace.observations
    # The launcher state was written once per run; each run's events use their own file.
    first = by_source["events/event_2021-12-06_204452.json"]
    second = by_source["events/event_2021-12-06_205207.json"]
    assert obs[first.before].source == "states/state_2021-12-06_204452.json"
    assert obs[second.before].source == "states/state_2021-12-06_205206.json"
    assert obs[second.after].source == "states/state_2021-12-06_205209.json"
    back = by_source["events/event_2021-12-06_204500.json"]
    assert back.action.key == "back" and back.action.raw.startswith("KeyEvent(")
    assert obs[back.before].activity == "com.tencent.qqmusic.activity.AppStarterActivity"


def test_ajsha(shared_traces):
    folder = shared("droidbot", "ajsha")
    (trace,) = droidbot.read(folder)
    assert trace.app == "org.ligi.ajsha"
    # 73 state files + 4 states with no file (kept as observations without hierarchy).
    assert len(trace.observations) == 77
    # 500 events: three start in a state that has no file, one ends in one.
    assert len(trace.steps) == 500
    assert sum(s.after is None for s in trace.steps) == 0
    assert sum("has no state file (kept as an observation without hierarchy)" in w
               for w in trace.warnings) == 4
    assert all(s.action.target is not None for s in trace.steps
               if s.action.kind in {"tap", "long_press", "type"})
    assert _recorded_view_is_target(folder, trace)
    # The states say 2340x1080; their roots (and the real screen) are 1080x1920.
    assert {(o.width, o.height) for o in trace.observations} == {(1080, 1920)}
    assert sum(o.foreign for o in trace.observations if o.root is not None) == 9


def test_quirks_fixture():
    assert droidbot.detect(QUIRKS)
    (trace,) = droidbot.read(QUIRKS)
    assert trace.app == "com.example.app"  # from utg.js (which has no trailing ';')
    assert [o.source for o in trace.observations] == [
        f"states/state_2024-01-01_00000{n}.json" for n in (1, 5, 9)] + [
        "utg.js node s_gone", "utg.js node s_vanished"]
    launcher, main, detail, gone, vanished = trace.observations
    assert gone.root is None and vanished.root is None
    assert launcher.foreign and not main.foreign
    assert (main.width, main.height) == (1080, 1920)  # no width/height: from the roots
    assert main.activity == "com.example.app.Main"  # from utg.js, as it has none itself
    assert main.root.at((2,)).bounds == (900, 700, 100, 800)  # inverted, kept
    got = [(s.source[-11:-5], s.before, s.after, s.action.kind) for s in trace.steps]
    assert got == [("000001", 0, 0, "stop_app"), ("000002", 0, 1, "open_app"),
                   ("000006", 1, 2, "tap"), ("000010", 2, 1, "key"),
                   ("000011", 1, 3, "type"), ("000012", 4, 1, "scroll"),
                   ("000013", 1, 1, "long_press")]
    tap, typed = trace.steps[2].action, trace.steps[4].action
    assert (tap.x, tap.y, tap.target) == (540, 450, (1,))
    assert (typed.text, typed.target) == ("shoes", (0,))
    assert trace.steps[0].action.package == "com.example.app"
    warnings = "\n".join(trace.warnings)
    for expected in ("event_2024-01-01_000007.json: empty file (skipped)",
                     "event_2024-01-01_000014.json: not JSON",
                     "event_2024-01-01_000011.json: stop state s_gone has no state file",
                     "event_2024-01-01_000012.json: start state s_vanished has no state file "
                     "(kept as an observation without hierarchy)",
                     "state_2024-01-01_000005.json: 1 views with inverted bounds",
                     "state_2024-01-01_000005.json: 1 child indices name no view"):
        assert expected in warnings


def test_a_start_state_without_file_is_the_screen_before_when_it_holds_the_view(tmp_path):
    """(#21) An event that starts in a state DroidBot wrote no file for starts on the screen
    the event before left, when that screen holds the view it touched (same view_str):
    uber's Uber Pro -> "Cancellation rate" -> How Uber Pro works is known only this way.
    A view that screen lacks, or no view at all, keeps the state without hierarchy."""
    shutil.copytree(QUIRKS, tmp_path / "t")
    states, events = tmp_path / "t" / "states", tmp_path / "t" / "events"
    main = json.loads((states / "state_2024-01-01_000005.json").read_text())
    main["views"][2]["view_str"] = "v_open"
    (states / "state_2024-01-01_000005.json").write_text(json.dumps(main))
    opened = json.loads((events / "event_2024-01-01_000006.json").read_text())
    for n, start, view_str in (("15", "s_unsaved", "v_open"), ("16", "s_unsaved2", "v_else")):
        event = json.loads(json.dumps(opened))
        event.update(tag=f"2024-01-01_0000{n}", start_state=start, stop_state="s_main")
        event["event"]["view"]["view_str"] = view_str
        (events / f"event_2024-01-01_0000{n}.json").write_text(json.dumps(event))
    (trace,) = droidbot.read(tmp_path / "t")
    resumed, unknown = trace.steps[-2:]
    assert resumed.before == 1 and resumed.action.target == (1,)  # main, its "Open" button
    assert trace.observations[unknown.before].root is None
    assert trace.observations[unknown.before].source == "utg.js node s_unsaved2"
    assert not any("s_unsaved " in w or w.endswith("s_unsaved") for w in trace.warnings)
    assert any(w.startswith("1 events started in a state with no file")
               for w in trace.warnings)


def test_uber_cancellation_rate_is_tapped_on_uber_pro():
    """(#21) uber: the tap on "Cancellation rate" starts in a state with no file; the
    Uber Pro page the event before left holds that very row, and it opens How Uber Pro
    works (the only way the recording enters it)."""
    (trace,) = droidbot.read(shared("droidbot", "uber"))
    (step,) = [s for s in trace.steps if s.source.endswith("140919.json")]
    before, after = trace.observations[step.before], trace.observations[step.after]
    assert before.root is not None and after.root is not None
    assert before.root.at(step.action.target).text == "Cancellation rate"
    assert any(n.text == "How Uber Pro Works" for _, n in after.root.walk())


def test_not_droidbot():
    assert not droidbot.detect(DATA / "llamatouch" / "quirks")
    assert not droidbot.detect(QUIRKS / "utg.js")


def test_empty_output_folder_is_an_error(tmp_path):
    (tmp_path / "states").mkdir()
    (tmp_path / "events").mkdir()
    assert droidbot.detect(tmp_path)
    with pytest.raises(TraceError, match="no DroidBot states"):
        droidbot.read(tmp_path)


def test_broken_utg_alone_is_an_error_beside_states_a_warning(tmp_path):
    (tmp_path / "utg.js").write_text("var utg = {nodes: [")
    with pytest.raises(TraceError, match=r"utg\.js: not a JSON object after the 'var utg ='"):
        droidbot.read(tmp_path)
    shutil.copytree(QUIRKS / "states", tmp_path / "states")
    (trace,) = droidbot.read(tmp_path)
    assert len(trace.observations) == 3 and trace.steps == ()
    assert trace.app == "com.example.app"  # the most frequent non-system package
    assert any(w.startswith("utg.js: not a JSON object") for w in trace.warnings)


def test_no_usable_state_is_an_error(tmp_path):
    shutil.copytree(QUIRKS / "events", tmp_path / "events")
    (tmp_path / "states").mkdir()
    (tmp_path / "states" / "state_1.json").write_text('{"views": []}')
    with pytest.raises(TraceError, match=r"states: no usable state file.*no state_str"):
        droidbot.read(tmp_path)


def test_state_with_broken_views_is_kept_without_hierarchy(tmp_path):
    shutil.copytree(QUIRKS, tmp_path / "t")
    file = tmp_path / "t" / "states" / "state_2024-01-01_000009.json"
    state = json.loads(file.read_text())
    state["views"] = {"not": "a list"}
    file.write_text(json.dumps(state))
    (trace,) = droidbot.read(tmp_path / "t")
    assert trace.observations[2].root is None
    assert (trace.observations[2].width, trace.observations[2].height) == (1080, 1920)
    assert any("000009.json: views: expected a JSON array" in w for w in trace.warnings)


def test_other_event_types(tmp_path):
    shutil.copytree(QUIRKS, tmp_path / "t")
    events = tmp_path / "t" / "events"
    for f in events.iterdir():
        f.unlink()
    kinds = [{"event_type": "scroll", "direction": "UP", "x": 500, "y": 900},
             {"event_type": "swipe", "start_x": 10, "start_y": 20, "end_x": 30, "end_y": 40},
             {"event_type": "intent", "intent": "am start -a android.intent.action.VIEW -d x"},
             {"event_type": "intent", "intent": "am force-stop com.example.app"},
             {"event_type": "key", "name": "KEYCODE_ENTER"},
             {"event_type": "spawn"}]
    for i, event in enumerate(kinds):
        (events / f"event_{i}.json").write_text(json.dumps(
            {"tag": str(i), "event": event, "start_state": "s_main", "stop_state": "s_main",
             "event_str": f"E{i}"}))
    (trace,) = droidbot.read(tmp_path / "t")
    acts = [s.action for s in trace.steps]
    assert [(a.kind, a.direction) for a in acts[:1]] == [("scroll", "up")]
    assert acts[0].target == ()  # hit-tested: the root is all there is at (500, 900)
    assert (acts[1].x, acts[1].y, acts[1].x2, acts[1].y2) == (10, 20, 30, 40)
    assert (acts[2].kind, acts[2].text) == ("intent", "am start -a android.intent.action.VIEW -d x")
    assert (acts[3].kind, acts[3].package) == ("stop_app", "com.example.app")
    assert (acts[4].kind, acts[4].key) == ("key", "enter")
    assert len(acts) == 5
    assert any("event_5.json: event type 'spawn' is not a GUI action" in w
               for w in trace.warnings)


def test_text_set_on_a_view_that_takes_none_is_the_tap_droidbot_made_first(tmp_path):
    """DroidBot touches a view, then types: on a field that is typing; on a button (no
    editable view in it) the touch is all the app saw (uber typed into a tracker card)."""
    shutil.copytree(QUIRKS, tmp_path / "t")
    events = tmp_path / "t" / "events"
    for f in events.iterdir():
        f.unlink()
    for i, (x, y) in enumerate([(540, 200), (540, 450)]):  # s_main: EditText, then Button
        (events / f"event_{i}.json").write_text(json.dumps(
            {"tag": str(i), "start_state": "s_main", "stop_state": "s_main",
             "event": {"event_type": "set_text", "x": x, "y": y, "text": "Hello"}}))
    (trace,) = droidbot.read(tmp_path / "t")
    acts = [s.action for s in trace.steps]
    assert [(a.kind, a.text) for a in acts] == [("type", "Hello"), ("tap", None)]
    assert (acts[1].x, acts[1].y) == (540, 450) and acts[1].target is not None


def _mini_qqmusic(dst: Path) -> None:
    """utg.js, three states and four events of the real qqmusic run."""
    src = SHARED_TRACES / "droidbot" / "qqmusic"
    (dst / "states").mkdir(parents=True)
    (dst / "events").mkdir()
    shutil.copy(src / "utg.js", dst / "utg.js")
    for name in ("2021-12-06_204452", "2021-12-06_204456", "2021-12-06_204505"):
        shutil.copy(src / "states" / f"state_{name}.json", dst / "states")
    for name in ("2021-12-06_204449", "2021-12-06_204452", "2021-12-06_204500",
                 "2021-12-06_204505"):
        shutil.copy(src / "events" / f"event_{name}.json", dst / "events")


def _assert_trace_or_trace_error(folder: Path) -> None:
    try:
        traces = droidbot.read(folder)
    except TraceError as err:
        assert str(err)
        return
    for trace in traces:
        assert isinstance(trace, Trace)
        Trace.from_json(trace.to_json())
        for step in trace.steps:
            assert 0 <= step.before < len(trace.observations)
            assert step.after is None or 0 <= step.after < len(trace.observations)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_fixture_gives_trace_or_trace_error(data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "t"
        shutil.copytree(QUIRKS, folder)
        files = sorted(p for p in folder.rglob("*") if p.is_file())
        mutate_file(data, data.draw(st.sampled_from(files), label="file"))
        _assert_trace_or_trace_error(folder)


@pytest.mark.skipif(not (SHARED_TRACES / "droidbot" / "qqmusic").is_dir(),
                    reason="../shared/traces is not here")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_real_files_give_trace_or_trace_error(data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "t"
        _mini_qqmusic(folder)
        files = sorted(p for p in folder.rglob("*") if p.is_file())
        mutate_file(data, data.draw(st.sampled_from(files), label="file"))
        _assert_trace_or_trace_error(folder)


def test_a_launcher_on_screen_is_foreign_whatever_the_recorder_names():
    # DroidBot names the app's activity for a state while the launcher is still shown
    # (uber's run, after a restart): the views say whose window it is.
    from phoneworld.traces.assemble import assemble
    from phoneworld.traces.model import Observation
    from phoneworld.ui.node import Node

    def screen(package: str, text: str) -> Node:
        return Node(class_name="FrameLayout", package=package, bounds=(0, 0, 1080, 2280),
                    children=(Node(class_name="TextView", package=package, text=text,
                                   bounds=(0, 0, 500, 100)),))

    obs = [Observation(root=screen(p, t), width=1080, height=2280, package="com.app",
                       activity="com.app.Main")
           for p, t in (("com.google.android.apps.nexuslauncher", "Chrome"),
                        ("com.app", "Inbox"), ("com.app", "Settings"))]
    trace = assemble(format="droidbot", name="t", source="t", observations=obs, steps=())
    assert trace.app == "com.app"
    assert [o.foreign for o in trace.observations] == [True, False, False]


def test_an_event_that_stopped_where_no_file_was_written_settles_where_the_next_began(
        shared_traces):
    """An event whose stop state has no file (DroidBot looked while a page was loading)
    ends where the next event started, when that is in the app: in uber, tapping Help on
    Ratings opens Help. Where the next event started outside the app (a browser after
    the app was left), the end stays unknown."""
    for folder in sorted((shared_traces / "droidbot").iterdir()):
        (trace,) = droidbot.read(folder)
        obs = trace.observations
        for step, nxt in zip(trace.steps, trace.steps[1:], strict=False):
            if obs[step.after].root is None and obs[nxt.before].root is not None:
                assert obs[nxt.before].package != trace.app, (folder.name, step.source)
    (trace,) = droidbot.read(shared("droidbot", "uber"))

    def texts(o):
        return {n.text for _, n in o.root.walk() if n.text}

    led = {frozenset(texts(trace.observations[s.after]) & {"Help", "Booking appointments"})
           for s in trace.steps if trace.observations[s.before].root is not None
           and trace.observations[s.after].root is not None
           and "Ratings" in texts(trace.observations[s.before])}
    assert frozenset({"Help", "Booking appointments"}) in led


def _late_page(tmp: Path, loading_file: bool, body: str) -> Trace:
    """main -(tap "Terms": nothing changed)-> [next event starts in s_loading] -(tap
    the page's body, view_str `body`)-> s_legal. s_legal's file holds a body view
    `v_body`; s_loading has a file of its own only where `loading_file`."""
    def view(i, parent, kids, box, cls, text, view_str):
        return {"temp_id": i, "parent": parent, "children": kids, "bounds": box,
                "class": cls, "resource_id": None, "text": text, "content_description": None,
                "package": "com.app", "clickable": i > 0, "enabled": True, "visible": True,
                "view_str": view_str}

    def state(tag, state_str, text, view_str):
        views = [view(0, -1, [1], [[0, 0], [1080, 1920]], "android.widget.FrameLayout",
                      None, f"root_{state_str}"),
                 view(1, 0, [], [[0, 300], [1080, 600]], "android.widget.TextView", text,
                      view_str)]
        (tmp / "states" / f"state_{tag}.json").write_text(json.dumps(
            {"tag": tag, "state_str": state_str, "foreground_activity": "com.app/.Main",
             "width": 1080, "height": 1920, "views": views}))

    def event(tag, start, stop, text, view_str):
        v = view(1, 0, [], [[0, 300], [1080, 600]], "android.widget.TextView", text, view_str)
        (tmp / "events" / f"event_{tag}.json").write_text(json.dumps(
            {"tag": tag, "event": {"event_type": "touch", "view": v}, "start_state": start,
             "stop_state": stop}))

    for sub in ("states", "events"):
        (tmp / sub).mkdir(parents=True)
    (tmp / "utg.js").write_text(json.dumps({"app_package": "com.app", "nodes": []}))
    state("01", "s_main", "Terms", "v_link")
    if loading_file:
        state("03", "s_loading", "Loading", "v_loading")
    state("05", "s_legal", "Legal", "v_body")
    event("02", "s_main", "s_main", "Terms", "v_link")
    event("04", "s_loading", "s_legal", None, body)
    return droidbot.read(tmp)[0]


def test_a_touch_that_changed_nothing_led_where_the_next_event_began_in_a_state_with_no_file(
        tmp_path):
    """(#21) A touch after which DroidBot saw no change, followed by an event that began
    in a state with no file, whose touched view a state file holds: the touch led there,
    that file standing for the state (uber's "For details see terms and conditions"
    opens its legal page: the only way the recording enters it)."""
    trace = _late_page(tmp_path / "a", loading_file=False, body="v_body")
    tap, body = trace.steps
    legal = trace.observations[tap.after]
    assert trace.observations[tap.before].root.at((0,)).text == "Terms"
    assert legal.source == "states/state_05.json" and body.before == tap.after
    assert any("led there" in w for w in trace.warnings)
    # The view touched is in no file: the touch stayed, the next began nowhere known.
    trace = _late_page(tmp_path / "b", loading_file=False, body="v_else")
    tap, body = trace.steps
    assert tap.after == tap.before and trace.observations[body.before].root is None
    # The next state has a file of its own (a timer's page, an ad giving way): the
    # touch stayed; the recording breaks there, as it did.
    trace = _late_page(tmp_path / "c", loading_file=True, body="v_body")
    tap, body = trace.steps
    assert tap.after == tap.before
    assert trace.observations[body.before].source == "states/state_03.json"


def test_uber_terms_and_conditions_opens_the_legal_pages():
    """(#21) uber: the link on How Uber Pro works leads to the legal pages (6 of its
    screens were reached only through a state with no file)."""
    (trace,) = droidbot.read(shared("droidbot", "uber"))
    (step,) = [s for s in trace.steps if s.source.endswith("140949.json")]
    before, after = trace.observations[step.before], trace.observations[step.after]
    assert before.root.at(step.action.target).text == "For details see terms and conditions"
    assert any(n.text == "Legal | Uber" for _, n in after.root.walk())
