"""Value renaming (`rl.augment`): consistent, index-preserving, deterministic."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rl import augment, data
from rl.policy import read_action, reply, screen_text
from tests.rl_fixtures import ROOT

ELEMENTS = [
    {"index": 0, "text": "Search results", "bounds": [0, 0, 1080, 100]},
    {"index": 1, "text": "BBQ Potato Chips", "clickable": True, "bounds": [0, 100, 1080, 200]},
    {"index": 2, "text": "8 oz", "bounds": [0, 120, 500, 180]},
    {"index": 3, "text": "Sea Salt Potato Chips", "clickable": True,
     "bounds": [0, 200, 1080, 300]},
    {"index": 4, "text": "12 oz", "bounds": [0, 220, 500, 280]},
]
TASK = "What is the unit of BBQ Potato Chips?"
POOL = ["BBQ Potato Chips", "Sea Salt Potato Chips", "Granola Bars", "Hass Avocados"]


def example(action: dict, note: tuple[str, ...] = ()) -> dict:
    user = (f"Task: {TASK}\nScreen:\n{screen_text(ELEMENTS, task=TASK)}\n"
            'Previous steps:\nclick "BBQ Potato Chips"')
    return {"messages": [{"role": "system", "content": "sys BBQ Potato Chips"},
                         {"role": "user", "content": user},
                         {"role": "assistant", "content": reply(
                             action, elements=ELEMENTS, reason=True, note=note)}]}


def test_a_name_is_renamed_everywhere_but_its_index_and_the_system_prompt() -> None:
    ex = example({"action_type": "click", "index": 1})
    out = augment.Renamer(POOL).example(ex, random.Random(3))
    user, said = out["messages"][1]["content"], out["messages"][2]["content"]
    assert "BBQ Potato Chips" not in user + said
    assert out["messages"][0] == ex["messages"][0]  # the system prompt is not data
    new = re.search(r'^Task: What is the unit of (.+)\?$', user, re.M).group(1)
    line = next(ln for ln in user.splitlines() if "[1]" in ln)
    assert json.dumps(new) in line and line.startswith("*")  # hinted as the task names it
    assert f'click "{new}"' in user  # the previous steps too
    assert read_action(said) == {"action_type": "click", "index": 1}
    assert f'Reason: click "{new}" [1]' in said
    assert re.findall(r"\[\d+\]", user) == re.findall(r"\[\d+\]", ex["messages"][1]["content"])
    assert ex["messages"][1]["content"].count("BBQ") == 3  # the input is kept


def test_a_noted_value_keeps_its_shape_and_the_answer_follows_it() -> None:
    ex = example({"action_type": "answer", "text": "8 oz"}, note=("8 oz",))
    out = augment.Renamer(POOL).example(ex, random.Random(0))
    said = out["messages"][2]["content"]
    value = json.loads(re.match(r"Note: (\".*\")", said).group(1))
    assert re.fullmatch(r"\d oz", value) and value != "8 oz"
    assert read_action(said) == {"action_type": "answer", "text": value}
    assert f'"{value}"' in out["messages"][1]["content"]  # the screen shows the new value
    assert '"12 oz"' in out["messages"][1]["content"]  # not "1" inside "12 oz"


def test_hints_are_counted_on_the_renamed_words() -> None:
    user = augment.rehint('Task: Open Granola Bars\nScreen:\n** "Potato Chips" [3] clickable'
                          '\n"Granola Bars" [5]\nPrevious steps:\nnone')
    assert '\n"Potato Chips" [3] clickable\n** "Granola Bars" [5]\n' in user


def test_hints_are_counted_again_where_the_task_closes_the_prompt() -> None:
    user = augment.rehint('Notes: "x"\nScreen:\n** "Potato Chips" [3] clickable\n"Granola Bars"'
                          ' [5]\nPrevious steps:\nnone\nTask: Open Granola Bars')
    assert user == ('Notes: "x"\nScreen:\n"Potato Chips" [3] clickable\n** "Granola Bars" [5]'
                    '\nPrevious steps:\nnone\nTask: Open Granola Bars')


def test_renamed_epochs_are_deterministic_and_p_zero_is_the_identity() -> None:
    rows = [example({"action_type": "click", "index": i}) for i in (1, 3)]
    one = augment.renamed_epochs(rows, POOL, copies=3, p=0.5, seed=1)
    assert one == augment.renamed_epochs(rows, POOL, copies=3, p=0.5, seed=1)
    assert len(one) == 6 and one != augment.renamed_epochs(rows, POOL, copies=3, p=0.5, seed=2)
    assert augment.renamed_epochs(rows, POOL, copies=2, p=0.0, seed=1) == rows * 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_every_rename_keeps_the_action_and_the_screen_indices(seed: int) -> None:
    rng = random.Random(seed)
    for a in ({"action_type": "click", "index": 3}, {"action_type": "answer", "text": "12 oz"}):
        ex = example(a, note=("12 oz",) if a["action_type"] == "answer" else ())
        out = augment.Renamer(POOL).example(ex, rng)
        got = read_action(out["messages"][2]["content"])
        assert got is not None and got["action_type"] == a["action_type"]
        assert got.get("index") == a.get("index")
        before, after = (e["messages"][1]["content"] for e in (ex, out))
        assert re.findall(r"\[\d+\]", before) == re.findall(r"\[\d+\]", after)


@pytest.fixture(scope="module")
def pool() -> list[str]:
    return augment.name_pool(data.load_specs([ROOT / "generated"]))


def test_the_pool_holds_the_apps_names_but_no_app_bare_number_or_state(pool) -> None:
    assert "BBQ Potato Chips" in pool and "Priya Patel" in pool
    assert not {"Shopping", "Settings", "Messages", "On", "2"} & set(pool)
    assert pool == sorted(pool)
