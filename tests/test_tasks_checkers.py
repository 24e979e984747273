"""Checkers: state, screen and answer predicates on a machine or a phone, with reasons."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.runtime import Machine, Phone
from phoneworld.tasks import find_task, sample_tasks
from phoneworld.tasks.checkers import answer_tokens, conjuncts, same_answer
from phoneworld.tasks.instances import draw, instance
from phoneworld.tasks.sql import holds_sql
from tests.tasks_fixtures import example, phone_specs, tiny_shop


def _one(spec, template, **params):
    task = next(t for t in spec.tasks if t.name == template)
    for inst in draw(spec, task):
        if all(inst.params.get(k) == v for k, v in params.items()):
            return inst
    raise AssertionError(f"no {template} instance with {params}")


def _tap(m: Machine, text: str) -> None:
    el = next(e for e in m.observe() if e["text"] == text or e["content_desc"] == text)
    m.step({"action_type": "click", "index": el["index"]})


def test_a_state_checker_follows_the_data():
    spec = tiny_shop()
    task = _one(spec, "turn_on_setting", n="Bluetooth")
    m = Machine(spec)
    m.reset()
    r = task.check(m)
    assert not r.success and "not yet: exists(setting where id == k" in r.reason
    _tap(m, "Settings")
    _tap(m, "Bluetooth")
    r = task.check(m)
    assert r.success and r.reason.startswith("tasks_shop: holds")
    (query,) = task.queries([spec])  # the same check as SQL, with bound values
    assert query["values"] == [2, "Bluetooth", True] and "?" in query["sql"]
    assert holds_sql(m, task.goals[0].condition, task.params) is True
    _tap(m, "Bluetooth")
    assert not task.check(m).success
    m.reset()
    assert not task.check(m).success


def test_collections_grow_and_shrink():
    spec = tiny_shop()
    add = _one(spec, "add_to_cart", n="Oat Milk")
    remove = _one(spec, "remove_from_cart", n="Bread")
    m = Machine(spec)
    m.reset()
    _tap(m, "Oat Milk")
    _tap(m, "Add to cart")
    assert add.check(m).success and not remove.check(m).success
    m.step({"action_type": "navigate_back"})
    _tap(m, "Cart")
    bread = next(e for e in m.observe() if e["content_desc"] == "Remove")  # the first row
    m.step({"action_type": "click", "index": bread["index"]})
    assert remove.check(m).success and add.check(m).success


def test_answers_are_read_generously_but_not_loosely():
    spec = tiny_shop()
    task = _one(spec, "ask_product_price_product", n="Oat Milk")
    m = Machine(spec)
    m.reset()
    assert task.check(m).reason.endswith("no answer given yet")
    m.step({"action_type": "answer", "text": "It costs 4.29 dollars"})
    r = task.check(m)
    assert r.success and "reads as '$4.29'" in r.reason
    m.reset()
    m.step({"action_type": "answer", "text": "$4.30"})
    assert not task.check(m).success


@pytest.mark.parametrize("given, expected", [
    ("$4.29", "4.29"), ("4.29", "$4.29"), ("1,299", "1299"), ("7", "7 products"),
    ("June 4", "Jun 4"), ("4 June", "Jun 4"), ("June 4th", "Jun 4"), ("7:32am", "7:32 AM"),
    ("19:32", "7:32 PM"), ("alice  chen", "Alice Chen"), ("Crème brûlée", "creme brulee"),
    ("the Delivered", "Delivered"), ("2 saved", "2"),
])
def test_same_answer(given, expected):
    assert same_answer(given, expected)


@pytest.mark.parametrize("given, expected", [
    ("4.30", "$4.29"), ("8", "7 products"), ("7 apples", "7 products"), ("Jun 5", "Jun 4"),
    ("7:33 AM", "7:32 AM"), ("Alice", "Alice Chen"), ("", "x"), ("Delivered", "Not delivered"),
    ("4", "Jun 4"), ("Pixel 7 (GVU6C)", "Pixel 7"),
])
def test_not_same_answer(given, expected):
    assert not same_answer(given, expected)


def test_answer_tokens():
    assert answer_tokens("Placed Jun 4, 7:05 PM — $1,299.50") == \
        ("placed", "@m6", "#4", "@t19:05", "#1299.5")


def test_on_a_phone_a_screen_counts_only_in_front_and_the_answer_is_the_phones():
    specs = phone_specs()
    phone = Phone(specs)
    nav = find_task(specs, next(t.id for t in sample_tasks(specs, 200, 0)
                                if t.template == "open_search_results"))
    phone.reset(app="settings")
    _tap(phone.current, "Search settings")
    assert phone.screen == "settings:search_results" and nav.check(phone).success
    phone.step({"action_type": "open_app", "app_name": "shopping"})
    r = nav.check(phone)
    assert not r.success and 'screen == "search_results"' in r.reason
    ask = next(t for t in sample_tasks(specs, 200, 0) if t.kind == "cross_app")
    phone.reset()
    phone.step({"action_type": "answer", "text": str(ask.params[f"{ask.apps[0]}.v"])})
    r = ask.check(phone)  # the answer is right; the other app's goal is not reached yet
    assert not r.success and r.reason.startswith(f"{ask.apps[1]}: not yet")


def test_a_task_for_another_app_says_so():
    task = sample_tasks([example("messages")], 1, 0)[0]
    m = Machine(example("settings"))
    m.reset()
    r = task.check(m)
    assert not r.success and "needs app 'messages'" in r.reason


def test_collateral_damage_is_named():
    spec = tiny_shop()
    task = _one(spec, "turn_on_setting", n="Bluetooth")
    m = Machine(spec)
    m.reset()
    _tap(m, "Settings")
    _tap(m, "Bluetooth")
    assert task.check(m, collateral=True).success
    _tap(m, "Dark theme")
    r = task.check(m, collateral=True)
    assert not r.success and r.collateral == ("tasks_shop: flag dark_mode is true (was false)",)
    assert task.check(m).success  # without the option, only the goal counts


def test_parameter_values_are_data_never_sql():
    spec = tiny_shop()
    task = next(t for t in spec.tasks if t.name == "turn_on_setting")
    evil = instance(spec, task, {"n": "x'); DROP TABLE setting; --", "k": "1 OR 1=1"})
    m = Machine(spec)
    m.reset()
    before = m.state.dump()
    assert not evil.check(m).success
    assert m.state.dump() == before


def test_one_checker_contract_in_process_and_served():
    pytest.importorskip("flask")
    from phoneworld.serve.app import create_app
    from phoneworld.tasks import make_demo

    spec = tiny_shop()
    task = _one(spec, "turn_on_setting", n="Bluetooth")
    demo = make_demo([spec], task)
    app = create_app([spec], chromium="/nonexistent/chromium")
    try:
        client = app.test_client()
        r = client.post("/api/sessions", json={"task": task.id})
        assert r.status_code == 201, r.json
        sid = r.json["session"]
        assert client.get(f"/api/sessions/{sid}/check").json["success"] is False
        for a in demo.actions[:-1]:
            assert client.post(f"/api/sessions/{sid}/step", json=a).status_code == 200
        served = client.get(f"/api/sessions/{sid}/check").json
        m = new_machine(spec, demo.actions[:-1])
        local = task.check(m)
        assert served["success"] is True and served["reason"] == local.reason
    finally:
        app.extensions["phoneworld"].close()


def new_machine(spec, actions) -> Machine:
    m = Machine(spec)
    m.reset()
    for a in actions:
        m.step(a)
    return m


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_the_sql_form_of_state_checks_agrees_with_the_checker(data):
    from phoneworld.runtime.expr import Scope, holds
    from phoneworld.tasks.planner import World, candidate_actions

    spec = data.draw(st.sampled_from([tiny_shop(), example("settings"), example("shopping")]))
    m = Machine(spec)
    m.reset()
    world = World(m)
    for _ in range(data.draw(st.integers(0, 8))):
        m.step(data.draw(st.sampled_from(candidate_actions(world))))
    tasks = [t for t in sample_tasks([spec], 300, 0) if t.queries([spec])]
    for t in tasks:
        g = t.goals[0]
        for c in conjuncts(g.condition):
            got = holds_sql(m, c, g.params)
            if got is not None:
                assert got == holds(c, Scope(m.state, bindings=g.params)), (t.id, c)
