"""The planner's graph of concrete states: a node per whole state, and plans taken from it
the plans found by stepping the app every time."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneworld.compiler import compile_traces
from phoneworld.runtime.machine import Machine
from phoneworld.runtime.phone import Phone
from phoneworld.tasks import make_demo, sample_tasks, stategraph, world
from tests.conftest import SHARED_TRACES
from tests.tasks_fixtures import EXAMPLES, example, phone_specs

FOLDERS = sorted(p for p in SHARED_TRACES.glob("*/*") if p.is_dir()) \
    if SHARED_TRACES.is_dir() else []


def _stepping(monkeypatch) -> None:
    """Every state a node of its own: no edge is ever found, every action is stepped."""
    monkeypatch.setattr(world, "state_of", lambda target, snap: stategraph.Node(snap))


def _demos(specs, tasks) -> list:
    return [d and (d.actions, d.verified, d.points_verified, d.planner_states)
            for d in (make_demo(specs, t) for t in tasks)]


def test_a_whole_state_is_one_node_and_another_state_another():
    m = Machine(example("shopping"))
    m.reset()
    start = stategraph.state_of(m, m.snapshot())
    assert stategraph.state_of(m, m.snapshot()) is start
    other = Machine(example("shopping"))  # another machine in the same state: the same node
    other.reset()
    assert stategraph.state_of(other, other.snapshot()) is start
    m.step({"action_type": "answer", "text": "3"})
    assert stategraph.state_of(m, m.snapshot()) is not start
    m.place(start.snap)
    assert stategraph.state_of(m, m.snapshot()) is start
    m.step({"action_type": "navigate_back"})  # out of the app, on the same screen
    assert m.left_app and stategraph.state_of(m, m.snapshot()) is not start


def test_a_row_parameter_is_keyed_by_its_content_not_its_object():
    row = {"id": 1, "name": "Oat milk"}
    assert stategraph._value(row) == stategraph._value(dict(row))
    assert stategraph._value({"id": 1, "name": "Oat"}) != stategraph._value(row)
    assert stategraph._value(1) != stategraph._value(True) != stategraph._value(1.0)


def test_a_phone_state_names_every_app():
    phone = Phone(phone_specs())
    phone.reset()
    start = stategraph.state_of(phone, phone.snapshot())
    phone.step({"action_type": "open_app", "app_name": phone_specs()[0].name})
    assert stategraph.state_of(phone, phone.snapshot()) is not start
    phone.step({"action_type": "navigate_home"})
    assert stategraph.state_of(phone, phone.snapshot()) is start


@pytest.mark.parametrize("app", EXAMPLES)
def test_plans_from_the_graph_are_the_plans_found_by_stepping(app, monkeypatch):
    specs = [example(app)]
    tasks = sample_tasks(specs, 16, 7)
    first = _demos(specs, tasks)
    again = _demos(specs, tasks)  # every step of these is in the graph now
    _stepping(monkeypatch)
    assert _demos(specs, tasks) == first == again
    assert sum(bool(d and d[1]) for d in first) >= 12


def test_plans_on_a_phone_from_the_graph_are_the_plans_found_by_stepping(monkeypatch):
    specs = phone_specs()
    tasks = [t for t in sample_tasks(specs, 40, 4) if len(t.apps) > 1][:4] + \
        sample_tasks(specs, 6, 8)
    first = _demos(specs, tasks)
    _stepping(monkeypatch)
    assert _demos(specs, tasks) == first
    assert sum(bool(d and d[1]) for d in first) >= 7


@pytest.mark.parametrize("folder", FOLDERS or [None],
                         ids=[f"{p.parent.name}/{p.name}" for p in FOLDERS] or ["none"])
def test_real_app_plans_from_the_graph_are_the_plans_found_by_stepping(
        folder: Path | None, tmp_path, monkeypatch):
    if folder is None:
        pytest.skip("../shared/traces is not here")
    (app,) = compile_traces(folder, tmp_path)
    specs = [app.spec]
    tasks = sample_tasks(specs, 6, 1)
    first = _demos(specs, tasks)
    _stepping(monkeypatch)
    assert _demos(specs, tasks) == first
