"""Replay fidelity: recorded actions as agent actions, the node-level similarity, and
replay itself on a compiled example app (reproducing what was recorded, and noticing
when the app does not)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phoneworld.apps import load_app
from phoneworld.replay import (
    f1,
    format_replay,
    node_bag,
    replay,
    shown_texts,
    to_agent_action,
)
from phoneworld.replay.place import place
from phoneworld.traces import read_traces
from phoneworld.traces.model import Action, Observation
from phoneworld.ui.node import Node
from tests.conftest import ROOT

APP = ROOT / "generated" / "settings"
TRACES = ROOT / "traces" / "settings"


def _obs() -> Observation:
    field = Node(class_name="android.widget.EditText", bounds=(100, 200, 300, 260),
                 editable=True)
    root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
                children=(field,))
    return Observation(root=root, width=1080, height=2400)


@pytest.mark.parametrize("action, want", [
    (Action(kind="tap", x=5, y=6), {"action_type": "click", "x": 5, "y": 6}),
    (Action(kind="long_press", x=5, y=6), {"action_type": "long_press", "x": 5, "y": 6}),
    (Action(kind="type", text="hi", target=(0,)),  # no point: the target's centre
     {"action_type": "input_text", "text": "hi", "x": 200, "y": 230}),
    (Action(kind="type", text="hi"), {"action_type": "input_text", "text": "hi"}),
    (Action(kind="key", key="BACK"), {"action_type": "navigate_back"}),
    (Action(kind="key", key="enter"), {"action_type": "keyboard_enter"}),
    (Action(kind="scroll", direction="down"), {"action_type": "scroll", "direction": "down"}),
    # a finger moving up scrolls the content down
    (Action(kind="swipe", x=500, y=1500, x2=520, y2=500),
     {"action_type": "scroll", "direction": "down"}),
    (Action(kind="swipe", x=900, y=500, x2=100, y2=520),
     {"action_type": "scroll", "direction": "right"}),
    (Action(kind="key", key="home"), None),
    (Action(kind="open_app", package="com.x"), None),
    (Action(kind="answer", text="42"), None),
])
def test_recorded_actions_as_agent_actions(action, want):
    assert to_agent_action(action, _obs()) == want


def test_node_bag_counts_visible_nodes_that_carry_something():
    hidden = Node(class_name="TextView", text="secret", visible=False)
    label = Node(class_name="TextView", text="Wi-Fi")
    root = Node(class_name="FrameLayout", children=(label, label, hidden))
    assert node_bag(root) == Counter({("TextView", "", "Wi-Fi", ""): 2})  # the frame is empty
    assert node_bag(None) == Counter()


BAGS = st.dictionaries(st.sampled_from("abcdef"), st.integers(1, 3)).map(Counter)


@given(BAGS, BAGS)
def test_f1_is_a_symmetric_score_in_0_1(a, b):
    assert f1(a, b) == f1(b, a) and 0.0 <= f1(a, b) <= 1.0
    assert f1(a, a) == 1.0
    assert (f1(a, b) == 0.0) == (bool(a or b) and not (a & b))


@pytest.fixture(scope="module")
def traces():
    return read_traces(TRACES)


def test_replay_reproduces_the_recorded_steps(traces):
    result = replay(traces, load_app(APP))
    assert result["app"] == "settings" and result["steps"] > 10
    assert result["fidelity"] >= 0.8 and result["screen_similarity"] >= 0.6
    assert len(result["traces"]) == len(traces)
    assert sum(r["steps"] for r in result["traces"]) == result["steps"]
    text = format_replay(result)
    assert f"fidelity {result['fidelity']}" in text and text.count("\n") >= len(traces)


def test_replay_notices_an_app_that_goes_nowhere(traces):
    app = load_app(APP)
    stuck = dataclasses.replace(app, spec=dataclasses.replace(app.spec, transitions=()))
    result = replay(traces, stuck)
    good = replay(traces, app)
    assert result["steps"] == good["steps"] and result["reproduced"] < good["reproduced"]
    assert result["mismatches"] and all(m["got"] == m["screen"] for m in result["mismatches"])


def test_replay_skips_traces_of_other_apps(traces):
    other = [t.model_copy(update={"app": "com.someone.else"}) for t in traces]
    result = replay(other, load_app(APP))
    assert result["steps"] == 0 and result["traces"] == [] and result["fidelity"] is None


def test_a_gap_between_steps_is_replayed_as_a_wait(tmp_path):
    """An ad that gives way with no event: replay puts the mock on the ad and waits, and
    the mock moves on as the app did (`waited`); a mock without the timer stays."""
    from phoneworld.compiler import compile_app
    from tests.infer_fixtures import App, button, rows, screen, title

    ad = screen(title("Advertisement"), button("skip", "5", 400))
    home = screen(title("Shop"), rows("list", [("Milk", "$2"), ("Eggs", "$3")]))
    detail = screen(title("Milk"), button("add", "Add", 400))
    trace = App().show(ad).tap(1).show(ad).show(home).tap(1, 0).show(detail).trace()
    for name, data in compile_app("shop", [trace], "t").files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    app = load_app(tmp_path)
    result = replay([trace], app)
    assert (result["waits"], result["waited"]) == (1, 1)
    assert result["traces"][0]["waits"] == 1
    untimed = dataclasses.replace(app, spec=dataclasses.replace(app.spec, transitions=tuple(
        t for t in app.spec.transitions if t.action != "wait")))
    assert (replay([trace], untimed)["waits"], replay([trace], untimed)["waited"]) == (1, 0)


def _scrolled_screen(machine, app):
    """A screen of `app` whose list scrolls, and its rendering scrolled once."""
    for s in app.spec.screens:
        if s.param is not None or s.foreign:
            continue
        machine.reset()
        machine.jump(s.name)
        top = machine.observe("node")
        machine.step({"action_type": "scroll", "direction": "down"})
        lower = machine.observe("node")
        if shown_texts(lower) - shown_texts(top):
            return s.name, lower
    raise AssertionError("no screen of the app scrolls")


def test_replay_places_a_screen_and_the_ones_below_it_as_the_recording_had_them_scrolled():
    from phoneworld.runtime import Machine

    app = load_app(ROOT / "generated" / "shopping")
    machine = Machine(app.spec)
    name, lower = _scrolled_screen(machine, app)
    obs = Observation(root=lower, width=app.spec.width, height=app.spec.height)
    machine.reset()
    row, scroll = place(machine, app, name, obs, [])
    assert row is None and scroll and shown_texts(machine.observe("node")) == shown_texts(lower)
    # Below another screen, as the trace left it: back shows it scrolled.
    other = next(s.name for s in app.spec.screens if s.name != name and s.param is None
                 and not s.foreign)
    machine.reset()
    place(machine, app, other, obs, [(name, None, scroll)])
    machine.step({"action_type": "navigate_back"})
    assert machine.screen == name
    assert shown_texts(machine.observe("node")) == shown_texts(lower)


def test_replay_places_a_screen_with_what_its_recorded_text_fields_held():
    from phoneworld.runtime import Machine

    app = load_app(ROOT / "generated" / "shopping")
    machine = Machine(app.spec)
    for s in app.spec.screens:
        machine.reset()
        machine.jump(s.name)
        root = machine.observe("node")
        fields = [p for p, n in root.walk() if n.editable]
        if len(fields) == 1 and not s.param:
            break
    else:
        raise AssertionError("no screen of the app has one text field")
    (path,) = fields

    def typed(node, at):
        if not at:
            return node.model_copy(update={"text": "oat milk"})
        kids = list(node.children)
        kids[at[0]] = typed(kids[at[0]], at[1:])
        return node.model_copy(update={"children": tuple(kids)})
    obs = Observation(root=typed(root, path), width=app.spec.width, height=app.spec.height)
    machine.reset()
    place(machine, app, s.name, obs, [])
    assert machine.screen == s.name and "oat milk" in shown_texts(machine.observe("node"))


def test_replay_places_an_editor_on_the_row_whose_text_it_shows(tmp_path):
    """A filled editor looks alike whatever row it had: of rows that tie once the fields
    are filled, the one likelier before (whose text the editor shows) is placed."""
    from phoneworld.compiler import compile_app
    from phoneworld.runtime import Machine
    from tests.infer_fixtures import App, button, edit, rows, screen, title

    files = screen(title("Files"), rows("list", [("calc",), ("func",), ("loop",)]))

    def editor(code):
        return screen(title("Editor"), edit("code", 300, code), button("run", "Run", 500))
    trace = (App().show(files).tap(1, 0).show(editor("1+1")).back().show(files)
             .tap(1, 1).show(editor("foo()")).back().show(files)
             .tap(1, 2).show(editor("for")).trace())
    for name, data in compile_app("shell", [trace], "t").files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    app = load_app(tmp_path)
    (ed,) = [s for s in app.spec.screens if s.param is not None]
    machine = Machine(app.spec)
    for k, code in enumerate(["1+1", "foo()", "for"]):
        machine.reset()
        row, _ = place(machine, app, ed.name, trace.observations[2 * k + 1], [])
        assert row == machine.row_ids(ed.param)[k]
        assert code in shown_texts(machine.observe("node"))


def test_replay_on_a_folder_of_apps_pools_their_figures(capsys):
    """`phoneworld replay TRACES generated/`: the apps' figures merged, text recall too
    (weighted by steps), then said in one line."""
    from phoneworld.cli import main

    assert main(["replay", str(TRACES), str(ROOT / "generated"), "--json"]) == 0
    merged = json.loads(capsys.readouterr().out)
    (alone,) = [r for r in merged["apps"] if r["steps"]]  # the settings app's
    assert merged["text_recall"] == alone["text_recall"] and merged["other_era"] == 0
    assert main(["replay", str(TRACES), str(ROOT / "generated")]) == 0
    assert f"mean text recall {alone['text_recall']}" in capsys.readouterr().out
