"""The recorder on the device double: what it writes compiles to the same app as the
session it recorded; actions from scripts, agents, a prompt and a person's touches."""

from __future__ import annotations

import argparse
import filecmp
import json
from pathlib import Path

import pytest

from phoneworld.compiler import compile_traces
from phoneworld.device.bridge import Bridge
from phoneworld.device.commands import register
from phoneworld.device.double import ReplayDevice, replay_actions
from phoneworld.device.protocol import parse_screen
from phoneworld.device.recorder import (
    Recorder,
    _typing,
    record_session,
    record_touches,
    script_actions,
)
from phoneworld.device.stable import Polling
from phoneworld.device.touches import Gesture
from phoneworld.errors import InvalidAction, PhoneworldError
from phoneworld.traces import read_traces
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.hierarchy import to_uiautomator_xml
from phoneworld.ui.node import Node
from tests.conftest import shared

ROOT = Path(__file__).resolve().parents[1]
FAST = Polling(interval=0.1, timeout=3)


def record_like(trace: Trace, folder: Path, **device_kw) -> Trace:
    """Drive a double of `trace` through the bridge with the trace's own actions."""
    device = ReplayDevice(trace, **device_kw)
    rec = Recorder(Bridge(device, polling=FAST), app=trace.app,
                   instruction=trace.instruction, name=trace.name)
    rec.start()
    for a in replay_actions(trace):
        rec.act(a)
    rec.save(folder)
    return rec.trace()


def same_tree(a: Path, b: Path, ignore: tuple[str, ...] = ()) -> list[str]:
    """Files that differ (or exist on one side only) between two folders."""
    diff = []
    files = {p.relative_to(a) for p in a.rglob("*") if p.is_file()} | \
        {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    for rel in sorted(files):
        if rel.name in ignore:
            continue
        if not ((a / rel).is_file() and (b / rel).is_file()) or \
                not filecmp.cmp(a / rel, b / rel, shallow=False):
            diff.append(str(rel))
    return diff


def test_recording_the_example_sessions_compiles_to_the_same_app(tmp_path):
    src = ROOT / "traces" / "shopping"
    out = tmp_path / "traces" / "shopping"
    for folder in sorted(p for p in src.iterdir() if p.is_dir()):
        original = read_traces(folder)[0]
        recorded = record_like(original, out / folder.name, frames=2)
        assert [s.action.model_copy(update={"raw": ""}) for s in recorded.steps] == \
            [s.action for s in original.steps]
        assert [o.root for o in recorded.observations] == \
            [o.root for o in original.observations]
    compile_traces(src, tmp_path / "from_originals")
    compile_traces(out, tmp_path / "from_recording")
    assert same_tree(tmp_path / "from_originals" / "shopping",
                     tmp_path / "from_recording" / "shopping") == []


def test_recording_a_real_llamatouch_session_compiles_to_the_same_app(tmp_path):
    src = shared("llamatouch", "duolingo")
    original = read_traces(src)[0]
    record_like(original, tmp_path / "recorded" / "llamatouch" / "duolingo")
    compile_traces(src.parent, tmp_path / "a")
    compile_traces(tmp_path / "recorded" / "llamatouch", tmp_path / "b")
    # Only the provenance differs: the files the screens were read from. And the look
    # (#22): the double records none of the original's screenshots, so only the original
    # has screens drawn on recorded pixels.
    diff = same_tree(tmp_path / "a" / "duolingo", tmp_path / "b" / "duolingo",
                     ignore=("compile_report.json", "manifest.json", "look.json",
                             "visual.html"))
    assert [d for d in diff if not d.startswith(("assets/", "screens/"))] == []


def test_the_written_folder_is_a_phoneworld_trace(tmp_path):
    original = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    record_like(original, tmp_path / "s")
    manifest = json.loads((tmp_path / "s" / "trace.json").read_text())
    assert manifest["format"] == "phoneworld-trace" and manifest["app"] == "com.example.shop"
    assert manifest["answer"] == "$3.99" and manifest["steps"][-1]["action"] == {
        "kind": "answer", "text": "$3.99"}
    assert manifest["steps"][0]["activity"] == "com.example.shop/com.example.shop.MainActivity"
    assert "target" not in manifest["steps"][0]["action"]  # taps: the reader hit-tests
    assert sorted(p.name for p in (tmp_path / "s").iterdir())[:2] == ["000.xml", "001.xml"]


def test_a_persons_touches_are_recorded_like_issued_actions(tmp_path):
    original = read_traces(ROOT / "traces" / "shopping" / "add_two_greek_yogurts")[0]
    touches = []
    for s in original.steps:
        a = s.action
        if a.kind == "tap":
            touches.append(Gesture("tap", x=a.x, y=a.y, x2=a.x, y2=a.y, end=0.1))
        elif a.kind == "scroll":  # a finger swipe up the list shows what is below
            b = original.observations[s.before].root.at(a.target).bounds
            cx, h = (b[0] + b[2]) // 2, b[3] - b[1]
            touches.append(Gesture("swipe", x=cx, y=b[1] + h * 3 // 4, x2=cx,
                                   y2=b[1] + h // 4, end=0.3))
    device = ReplayDevice(original, touches=touches)
    rec = Recorder(Bridge(device, polling=FAST), app=original.app, name=original.name)
    steps = []
    record_touches(rec, device, on_step=steps.append)
    assert len(steps) == len(touches)
    got = rec.trace()
    assert [s.action.model_copy(update={"raw": ""}) for s in got.steps] == \
        [s.action for s in original.steps]
    assert {s.action.raw for s in got.steps} == {"getevent"}


def _screen(text: str, focused: bool = True):
    field = Node(class_name="android.widget.EditText", text=text, editable=True, focused=focused,
                 clickable=True, bounds=(0, 100, 1080, 200), package="com.x")
    root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
                package="com.x", children=(field,))
    return root


def test_keyboard_taps_become_one_type_action(tmp_path):
    roots = [_screen(""), _screen("m"), _screen("mi")]
    trace = Trace(format="phoneworld", name="t", app="com.x", source="t",
                  observations=tuple(Observation(root=r, width=1080, height=2400,
                                                 package="com.x") for r in roots),
                  steps=(Step(before=0, after=1, action=Action(kind="tap", target=())),
                         Step(before=1, after=2, action=Action(kind="tap", target=()))))
    key = Gesture("tap", x=540, y=2000, x2=540, y2=2000, end=0.05)
    device = ReplayDevice(trace, touches=[key, key])
    rec = Recorder(Bridge(device, polling=FAST), app="com.x", name="typing")
    record_touches(rec, device)
    got = rec.trace()
    assert [(s.action.kind, s.action.text, s.action.target) for s in got.steps] == \
        [("type", "mi", (0,))]
    assert [o.root.children[0].text for o in got.observations] == ["", "mi"]


def test_typing_is_only_a_changed_focused_field():
    def screen(root):
        return parse_screen(to_uiautomator_xml(root), width=1080, height=2400)

    tap_off = Gesture("tap", x=540, y=2000)
    assert _typing(screen(_screen("")), screen(_screen("a")), tap_off).text == "a"
    on_field = Gesture("tap", x=540, y=150)
    assert _typing(screen(_screen("")), screen(_screen("a")), on_field) is None
    assert _typing(screen(_screen("")), screen(_screen("")), tap_off) is None
    assert _typing(screen(_screen("", focused=False)), screen(_screen("a")), tap_off) is None


# -- whole sessions --------------------------------------------------------------------------------

def test_a_scripted_session_in_mixed_formats(tmp_path):
    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    script = tmp_path / "actions.jsonl"
    lines = [json.dumps(a) for a in replay_actions(trace)[:-1]]
    lines.insert(0, "# comments and blank lines are skipped")
    lines.append("output(text='$3.99')")
    script.write_text("\n".join(lines) + "\n\n")
    device = ReplayDevice(trace)
    got = record_session(device, tmp_path / "snack", app="com.example.shop",
                         instruction=trace.instruction,
                         actions=script_actions(script, 1080, 2400), say=lambda m: None,
                         polling=FAST)
    assert got.answer == "$3.99" and got.instruction == trace.instruction
    assert [s.action.kind for s in got.steps] == [s.action.kind for s in trace.steps]
    assert read_traces(tmp_path / "snack")[0].answer == "$3.99"


def test_script_errors_name_the_line(tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text('{"action_type": "navigate_back"}\n{"action_type": "fly"}\n')
    actions = script_actions(script, 1080, 2400)
    next(actions)
    with pytest.raises(InvalidAction, match=r"bad.jsonl:2: .*unknown action type 'fly'"):
        next(actions)
    (tmp_path / "list.json").write_text('[{"action_type": "wait"}, "back"]')
    assert [a.action_type for a in script_actions(tmp_path / "list.json", 1, 1)] == \
        ["wait", "navigate_back"]


def test_an_agent_session_stops_at_its_answer(tmp_path):
    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    plan = iter(replay_actions(trace))
    seen = []

    def agent(observation, instruction):
        seen.append((observation["screen"], instruction))
        return next(plan)

    got = record_session(ReplayDevice(trace), tmp_path / "agent", instruction="price?",
                         agent=agent, say=lambda m: None, polling=FAST)
    assert len(seen) == len(trace.steps) and seen[0] == (
        "com.example.shop/com.example.shop.MainActivity", "price?")
    assert got.steps[-1].action.kind == "answer"


def test_a_prompt_session(tmp_path):
    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    typed = iter(["show", "?", "fly away", "click(index=2)", "back", "done"])
    said: list[str] = []
    got = record_session(ReplayDevice(trace), tmp_path / "p", ask=lambda prompt: next(typed),
                         say=said.append, polling=FAST)
    assert [s.action.kind for s in got.steps] == ["tap", "key"]
    assert any(m.startswith("not done: action: no action found") for m in said)
    assert any("[2] LinearLayout id=search_bar clickable" in m for m in said)


def test_record_refuses_to_overwrite_a_session_before_connecting(tmp_path):
    (tmp_path / "shop" / "s1").mkdir(parents=True)
    parser = argparse.ArgumentParser(prog="phoneworld")
    register(parser.add_subparsers())
    args = parser.parse_args(["record", "-o", str(tmp_path / "shop"), "--name", "s1"])
    with pytest.raises(PhoneworldError, match="exists: choose another --name, or --force"):
        args.func(args)
    args = parser.parse_args(["record", "-o", str(tmp_path), "--agent", "nomodule_x:act"])
    with pytest.raises(PhoneworldError, match="--agent 'nomodule_x:act'"):
        args.func(args)


def test_screenshots_are_kept_beside_the_screens(tmp_path):
    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    got = record_session(ReplayDevice(trace), tmp_path / "shots", screenshots=True,
                         actions=replay_actions(trace)[:2], say=lambda m: None, polling=FAST)
    assert [o.screenshot for o in got.observations] == ["000.png", "001.png", "002.png"]
    assert (tmp_path / "shots" / "002.png").read_bytes().startswith(b"\x89PNG")
    back = read_traces(tmp_path / "shots")[0]
    assert back.observations[1].screenshot == "001.png"


def test_a_screen_that_changes_by_itself_is_seen_before_the_next_touch():
    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    device = ReplayDevice(trace)
    tap = trace.steps[1].action  # recorded on screen 1, which the phone reaches by itself

    class Source:
        def input_devices(self):
            return device.input_devices()

        def input_events(self):
            import time

            device.at = 1  # e.g. a page finished loading, no touch involved
            time.sleep(0.5)
            device.touches = [Gesture("tap", x=540, y=136, x2=540, y2=136, end=0.05)]
            yield from device.input_events()

    rec = Recorder(Bridge(device, polling=FAST), name="idle")
    record_touches(rec, Source(), idle_refresh=0.05)
    got = rec.trace()
    assert got.observations[0].root == trace.observations[1].root
    assert [(s.action.kind, s.action.x, s.action.y) for s in got.steps] == \
        [("tap", 540, 136)]
    assert tap.kind == "type"  # the recorded step there was typing; this tap focused it
