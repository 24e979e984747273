"""The policy's prompts and the tolerant reading of its output (no torch needed)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rl.policy import (
    MAX_NOTES,
    messages,
    notes,
    read_action,
    reply,
    screen_text,
    step_line,
    why,
)

ELEMENTS = [
    {"index": 0, "text": "Corner Shop", "class": "android.widget.TextView",
     "bounds": [0, 0, 1080, 200]},
    {"index": 1, "class": "android.widget.LinearLayout", "resource_id": "com.x:id/item",
     "clickable": True, "bounds": [0, 300, 1080, 500]},
    {"index": 2, "text": "Bakery", "class": "android.widget.TextView",
     "bounds": [100, 320, 700, 380]},
    {"index": 3, "text": "4 products", "class": "android.widget.TextView",
     "bounds": [100, 400, 700, 460]},
    {"index": 4, "text": "Wi-Fi", "checkable": True, "checked": False,
     "bounds": [0, 600, 1080, 700]},
]


def test_screen_folds_text_into_its_clickable() -> None:
    text = screen_text(ELEMENTS)
    assert text.splitlines() == ['"Corner Shop" [0]', '"Bakery" [1] clickable "4 products"',
                                 '"Wi-Fi" [4] unchecked']
    bare = [{"index": 0, "resource_id": "com.x:id/results", "scrollable": True,
             "bounds": [0, 0, 10, 10]}, {"index": 1, "bounds": [20, 20, 30, 30]}]
    assert screen_text(bare).splitlines() == ["id=results [0] scrollable", "[1]"]


def test_phonebuddy_screen_has_grid_points() -> None:
    assert "@500,167" in screen_text(ELEMENTS, "phonebuddy")


def test_prompt_holds_task_screen_and_last_k_actions() -> None:
    hist = [json.dumps({"action_type": "click", "index": i}) for i in range(5)]
    msgs = messages("Open Bakery.", ELEMENTS, hist, k=2)
    user = msgs[-1]["content"]
    assert [m["role"] for m in msgs] == ["system", "user"]
    assert "Task: Open Bakery." in user and '"Bakery"' in user
    assert '"index": 4' in user and '"index": 3' in user and '"index": 2' not in user
    assert "none" in messages("x", ELEMENTS, [])[-1]["content"]


def test_task_last_moves_the_task_next_to_the_reply_and_changes_nothing_else() -> None:
    first = messages("Open Bakery.", ELEMENTS, ["a"], noted=["4 products"])[-1]["content"]
    last = messages("Open Bakery.", ELEMENTS, ["a"], noted=["4 products"],
                    task_last=True)[-1]["content"]
    assert first.startswith("Task: Open Bakery.\n")
    assert last.startswith('Notes: "4 products"\n')
    assert last.endswith("\nPrevious steps:\na\nTask: Open Bakery.")
    assert sorted(first.splitlines()) == sorted(last.splitlines())  # the same hints too


@pytest.mark.parametrize("text, want", [
    ('{"action_type": "click", "index": 1}', {"action_type": "click", "index": 1}),
    ('Reasoning first.\nAction: {"action_type": "navigate_back"}',
     {"action_type": "navigate_back"}),
    ("```json\n{'action_type': 'input_text', 'text': 'milk', 'index': 2}\n```",
     {"action_type": "input_text", "text": "milk", "index": 2}),
    ('<tool_call>{"name": "click", "arguments": {"coordinate": [500, 250]}}</tool_call>',
     {"action_type": "click", "x": 540, "y": 600}),
    ('<tool_call>{"name": "finish", "arguments": {"status": "success"}}</tool_call>',
     {"action_type": "status", "goal_status": "complete"}),
])
def test_read_action_accepts_both_formats(text: str, want: dict) -> None:
    got = read_action(text, "androidworld", 1080, 2400)
    assert got is not None and {k: got[k] for k in want} == want


@pytest.mark.parametrize("text", ["", "I am not sure", '{"action_type": "fly"}',
                                  '{"action_type": "click", "index": -3}', "{{{{", "\x00"])
def test_invalid_output_is_none(text: str) -> None:
    assert read_action(text) is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_read_action_never_raises(text: str) -> None:
    out = read_action(text)
    assert out is None or "action_type" in out


@pytest.mark.parametrize("fmt", ["androidworld", "phonebuddy"])
@pytest.mark.parametrize("action", [
    {"action_type": "click", "index": 1}, {"action_type": "navigate_back"},
    {"action_type": "answer", "text": "4 products"},
    {"action_type": "status", "goal_status": "complete"},
    {"action_type": "input_text", "text": "oat milk", "index": 1},
])
def test_reply_round_trips(fmt: str, action: dict) -> None:
    got = read_action(reply(action, fmt, elements=ELEMENTS), fmt)
    assert got is not None and got["action_type"] == action["action_type"]
    if fmt == "androidworld":
        assert got == action


@pytest.mark.parametrize("fmt, reason", [("androidworld", False), ("phonebuddy", False),
                                         ("androidworld", True)])
def test_demo_examples_replay_to_success_in_both_formats(fmt: str, reason: bool) -> None:
    """A demo turned into examples, read back from its replies, still passes its check;
    with reasons, the prompts' previous actions stay actions only."""
    from rl import data
    from tests import rl_toy as toy
    from tests.rl_fixtures import APP

    specs = data.load_specs([APP])
    backend = data.target(specs)
    for task in toy.sample_tasks(specs, 4, 1):
        examples = data.replay_examples(backend, task, data.demo_actions(
            toy.make_demo(specs, task)), fmt, reason=reason)
        assert examples
        said = [ex["messages"][-1]["content"] for ex in examples]
        assert all(s.startswith("Reason: ") == reason for s in said)
        assert "Reason" not in examples[-1]["messages"][1]["content"]
        backend.reset(None, task)
        from phoneworld.runtime.actions import Action

        for ex in examples:
            a = read_action(ex["messages"][-1]["content"], fmt, backend.width, backend.height)
            backend.step(Action.parse(a))
        assert backend.check(task)[0]


@pytest.mark.parametrize("action, reason", [
    ({"action_type": "click", "index": 1}, 'click "Bakery" [1]'),  # a row: its words
    ({"action_type": "click", "index": 4}, 'click "Wi-Fi" [4]'),
    ({"action_type": "open_app", "app_name": "shopping"}, 'open_app "shopping"'),
    ({"action_type": "scroll", "direction": "up"}, "scroll up"),
    ({"action_type": "answer", "text": "4"}, "answer"),
])
def test_reason_names_the_target_and_still_reads_as_the_action(action, reason) -> None:
    for fmt in ("androidworld", "phonebuddy"):
        text = reply(action, fmt, elements=ELEMENTS, reason=True)
        assert text.startswith(f"Reason: {reason}\nAction: ")
        got = read_action(text, fmt)
        plain = read_action(reply(action, fmt, elements=ELEMENTS), fmt)
        assert got == plain and got is not None


def test_a_reason_names_each_line_as_the_screen_shows_it() -> None:
    """`click "<label>" [i]` copies the start of the line it acts on, on every screen of
    the example apps: the index is where the same words stood."""
    from rl import data
    from tests.rl_fixtures import ROOT

    specs = data.load_specs([ROOT / "generated"])
    backend = data.target(specs)
    seen = 0
    for task in data.sample(specs, 12, 0):
        els = backend.reset(None, task).elements
        screen = screen_text(els)
        if screen.endswith("..."):  # cut short: not every line is there
            continue
        for e in els:
            if e.get("clickable"):
                said = why({"action_type": "click", "index": e["index"]}, els, index=True)
                target = said.split(" ", 1)[1]
                assert any(line.startswith(target + " ") or line == target
                           for line in screen.splitlines()), (said, screen)
                seen += 1
    assert seen > 20


def test_history_lists_what_each_step_did_not_its_index() -> None:
    assert step_line({"action_type": "click", "index": 1}, ELEMENTS) == 'click "Bakery"'
    assert step_line({"action_type": "click", "x": 500, "y": 430}, ELEMENTS) == \
        'click "4 products"'  # a point: the smallest element under it
    assert step_line({"action_type": "input_text", "index": 4, "text": "milk"},
                     ELEMENTS) == 'input_text "Wi-Fi" "milk"'
    assert step_line({"action_type": "open_app", "app_name": "messages"}, ELEMENTS) == \
        'open_app "messages"'
    assert step_line({"action_type": "navigate_back"}, ELEMENTS) == "navigate_back"
    assert step_line(None, ELEMENTS, "I think\nI'm done") == "invalid: I think I'm done"
    user = messages("x", ELEMENTS, ["a", "b", "c"], k=2)[-1]["content"]
    assert user.endswith("Previous steps:\nb\nc")


def test_a_note_is_read_back_and_shown_in_every_later_prompt() -> None:
    action = {"action_type": "open_app", "app_name": "messages"}
    for reason in (False, True):
        text = reply(action, elements=ELEMENTS, reason=reason, note=['4 "products"'])
        assert text.startswith('Note: "4 \\"products\\""\n')
        assert notes(text) == ['4 "products"']
        assert read_action(text) == action
    assert notes('Note: "a"\nNote: broken\nNote: 3\nAction: {}') == ["a"]
    for fmt in ("androidworld", "phonebuddy"):  # the history shows what the step did
        said = reply(action, fmt, elements=ELEMENTS, reason=True, note=["4"])
        assert step_line(read_action(said, fmt), ELEMENTS) == 'open_app "messages"'
    assert "Notes" not in messages("x", ELEMENTS)[-1]["content"]
    shown = [str(i) for i in range(MAX_NOTES + 2)]
    user = messages("x", ELEMENTS, noted=shown)[-1]["content"]
    assert user.splitlines()[1] == "Notes: " + " ".join(f'"{n}"' for n in shown[-MAX_NOTES:])


def test_a_value_read_in_one_app_is_noted_where_it_shows_and_kept_until_used() -> None:
    """A cross-app demo types or answers what it read screens earlier: its examples note
    the value on the first screen showing it, and every later prompt holds it, so the
    value is always in the prompt or the reply itself when it is used."""
    from rl import data
    from tests.rl_fixtures import ROOT

    specs = data.load_specs([ROOT / "generated"])
    tasks = [t for t in data.sample(specs, 60, 3) if t.kind == "cross_app"][:4]
    assert tasks
    from phoneworld.tasks import make_demo

    for task in tasks:
        actions = data.demo_actions(make_demo(list(specs), task))
        found = data.found_values(task.instruction, actions)
        assert found
        examples = data.replay_examples(data.target(specs), task, actions, reason=True)
        assert examples
        said = [ex["messages"][-1]["content"] for ex in examples]
        assert sorted(n for s in said for n in notes(s)) == sorted(found)
        for ex, s in zip(examples, said, strict=True):
            a = read_action(s)
            if a.get("text") in found:
                assert a["text"] in notes(s) or f'"{a["text"]}"' in ex["messages"][1][
                    "content"].split("\nScreen:")[0]


def test_demos_planned_in_processes_are_the_same_examples_in_the_same_order() -> None:
    from rl import data
    from tests.rl_fixtures import APP

    specs = data.load_specs([APP])
    tasks = data.sample(specs, 5, 2)
    alone = data.demo_examples(specs, tasks, reason=True)
    assert alone and data.demo_examples(specs, tasks, reason=True, workers=2) == alone
    last = data.demo_examples(specs, tasks, reason=True, workers=2, task_last=True)
    assert len(last) == len(alone)
    for a, b in zip(alone, last, strict=True):  # the layout reaches the worker processes
        head, rest = a["messages"][1]["content"].split("\n", 1)
        assert b["messages"][1]["content"] == rest + "\n" + head and b["messages"][2] == a[
            "messages"][2]


def test_anchored_notes_are_a_setting_that_reaches_the_worker_processes() -> None:
    from rl import data, policy
    from tests.rl_fixtures import APP

    specs = data.load_specs([APP])
    tasks = [t for t in data.sample(specs, 60, 2) if t.kind == "information"][:3]
    plain = data.demo_examples(specs, tasks, reason=True)
    here = data.demo_examples(specs, tasks, reason=True, anchored=True)
    assert data.demo_examples(specs, tasks, reason=True, workers=2, anchored=True) == here
    said = [(a["messages"][-1]["content"], b["messages"][-1]["content"])
            for a, b in zip(plain, here, strict=True)]
    noted = [(a, b) for a, b in said if a.startswith("Note: ")]
    assert noted and all(re.match(r'Note: "[^"]*" \[\d+\] "', b) for _, b in noted)
    assert all(notes(a) == notes(b) for a, b in noted)  # the same values, now anchored
    assert all(a == b for a, b in said if not a.startswith("Note: "))
    assert policy.ANCHORED is False  # set for the demos only
    with policy.anchoring(True):
        assert policy.ANCHORED is True
    assert policy.ANCHORED is False


def test_demos_open_an_app_by_the_name_the_task_and_the_launcher_show() -> None:
    from rl import data
    from tests.rl_fixtures import ROOT

    specs = data.load_specs([ROOT / "generated"])
    tasks = [t for t in data.sample(specs, 40, 2) if t.kind == "cross_app"][:3]
    opened = 0
    for ex in data.demo_examples(specs, tasks, reason=True):
        a = read_action(ex["messages"][-1]["content"])
        if a["action_type"] != "open_app":
            continue
        user = ex["messages"][1]["content"]
        assert a["app_name"] in user.split("\n")[0]  # the task's word for it
        if "Previous steps:\nnone" in user:  # from the launcher: its icon says the same
            assert f'"{a["app_name"]}" [' in user
        opened += 1
    assert opened >= 2 * len(tasks)


def test_lines_that_share_words_with_the_task_are_marked(monkeypatch) -> None:
    import rl.policy

    lines = screen_text(ELEMENTS, task="What does Bakery show? Open the corner shop.")
    assert lines.splitlines() == ['** "Corner Shop" [0]', '* "Bakery" [1] clickable '
                                  '"4 products"', '"Wi-Fi" [4] unchecked']
    assert "*" not in screen_text(ELEMENTS, task="What is in the shop on it?"[:14])
    assert "*" not in screen_text(ELEMENTS)  # no task, no marks
    assert "* " in messages("Find the Bakery.", ELEMENTS)[-1]["content"]
    monkeypatch.setattr(rl.policy, "HINTS", False)
    assert "*" not in screen_text(ELEMENTS, task="Open Bakery.")


def test_marks_read_a_line_s_words_not_their_json_escapes() -> None:
    two = [{"index": 0, "text": "Two\nlines", "bounds": [0, 0, 10, 10]}]
    assert screen_text(two, task="Read the lines.").startswith("* ")


def test_a_note_is_anchored_to_the_line_the_task_names() -> None:
    from rl.policy import anchor

    rows = [{"index": 0, "text": "Sea Salt Potato Chips", "clickable": True,
             "bounds": [0, 0, 1080, 100]},
            {"index": 1, "text": "8 oz", "bounds": [0, 10, 500, 90]},
            {"index": 2, "text": "BBQ Potato Chips", "clickable": True,
             "bounds": [0, 100, 1080, 200]},
            {"index": 3, "text": "8 oz", "bounds": [0, 110, 500, 190]}]
    task = "What is the unit of BBQ Potato Chips?"
    assert anchor(rows, "8 oz", task) == '"BBQ Potato Chips" [2]'
    assert anchor(rows, "8 oz") == '"Sea Salt Potato Chips" [0]'  # a tie: the first
    assert anchor(rows, "Chip") is None  # only whole words
    said = reply({"action_type": "answer", "text": "8 oz"}, elements=rows, reason=True,
                 note=[('"BBQ Potato Chips" [2]', "8 oz")])
    assert said.startswith('Note: "BBQ Potato Chips" [2] "8 oz"\nReason: answer\n')
    assert notes(said) == ["8 oz"] and read_action(said)["text"] == "8 oz"
    assert notes('Note: "a" [2] "b \\"c\\""\nNote: "a" [2] b') == ['b "c"']


def test_demo_notes_are_anchored_only_when_switched_on(monkeypatch) -> None:
    from rl import data, policy

    rows = [{"index": 0, "text": "Oat Milk", "clickable": True, "bounds": [0, 0, 1080, 100]},
            {"index": 1, "text": "$3.49", "bounds": [0, 10, 500, 90]}]
    assert data._anchored(rows, "$3.49", "Price of Oat Milk?") == "$3.49"  # the default
    monkeypatch.setattr(policy, "ANCHORED", True)
    assert data._anchored(rows, "$3.49", "Price of Oat Milk?") == ('"Oat Milk" [0]', "$3.49")
    assert data._anchored(rows, "$9", "x") == "$9"  # no line shows it


def _list_screen(rows: list[str], *, across: bool = False) -> list[dict]:
    """A title, a badge, then a scrollable list of clickable rows (each a layout with a
    text inside), one under the other, or side by side with `across`."""
    els = [{"index": 0, "text": "Account", "bounds": [0, 0, 1080, 100]},
           {"index": 1, "text": "3", "bounds": [900, 0, 1000, 100]},
           {"index": 2, "resource_id": "com.x:id/list", "scrollable": True,
            "bounds": [0, 200, 1080, 2000]}]
    for n, name in enumerate(rows):
        b = [n * 200, 200, n * 200 + 200, 400] if across else [0, 200 + 200 * n, 1080,
                                                                 400 + 200 * n]
        els += [{"index": len(els), "clickable": True, "bounds": b},
                {"index": len(els) + 1, "text": name, "bounds": [b[0] + 10, b[1] + 10,
                                                                 b[2] - 10, b[3] - 10]}]
    return els


def test_the_rows_of_a_list_show_their_place() -> None:
    """"At which position is X?" is read off the screen: each clickable row of a list
    (not a strip of tabs side by side, nor a row inside another) carries `#n`."""
    from rl.policy import screen_lines

    els = _list_screen(["Favourites", "Addresses", "Payment methods"])
    lines = screen_text(els).splitlines()
    assert lines[3:] == ['"Favourites" [3] clickable #1', '"Addresses" [5] clickable #2',
                         '"Payment methods" [7] clickable #3']
    assert "#" not in screen_text(_list_screen(["Chats", "Contacts"], across=True))
    assert "#" not in screen_text(_list_screen(["Alone"]))  # one row is no list
    assert "#" not in screen_text(ELEMENTS)  # rows outside any list
    inner = els + [{"index": 9, "text": "Edit", "clickable": True,
                    "bounds": [900, 420, 1000, 480]}]  # a button inside row 2
    assert [ln.row for ln in screen_lines(inner)][3:] == [1, 2, 3, None]


def test_a_place_is_noted_on_the_row_the_task_names_not_where_a_badge_shows_it() -> None:
    from rl.data import _shows
    from rl.ground import seen_at
    from rl.policy import reads

    els = _list_screen(["Favourites", "Addresses", "Payment methods"])
    task = "At which position is Payment methods in the list on Account?"
    assert reads(els, task, "3") and _shows(els, "3", task)
    assert not reads(els, task, "2")
    # the badge's "3" is no place: a task naming another row does not read it there
    assert not _shows(els, "3", "At which position is Addresses in the list on Account?")
    assert _shows(els, "3")  # without a task: any whole "3", as before
    assert "3" in seen_at(task, els).screen  # grounding lets a note copy the place


@pytest.mark.parametrize("task, places", [
    ("What is entry number 4 in the list on Corner Shop?", {4}),
    ("Which entry of the list on Account comes at position 5?", {5}),
    ("In the list on Contacts, which entry is number 11?", {11}),
    ("In the list on Orders, at which position is Order #10452?", set()),
    ("Call number 555-0142.", set()),
    ("Set the quantity to 2.", set()),
])
def test_the_places_a_task_names_are_its_entry_numbers(task, places) -> None:
    from rl.policy import named_places

    assert named_places(task) == places


def test_a_name_asked_by_its_place_is_noted_beside_that_place() -> None:
    """"Which entry is number 1 on Contacts?": not where another list shows that name
    second (a chat list in another order), only beside `#1`."""
    from rl.data import _shows

    task = "In the list on Contacts, which entry is number 1?"
    assert not _shows(_list_screen(["Cara", "Alice", "Ben"]), "Alice", task)
    assert _shows(_list_screen(["Alice", "Ben", "Cara"]), "Alice", task)
    assert _shows(_list_screen(["Cara", "Alice", "Ben"]), "Alice")  # no place: anywhere


def _priced_list() -> list[dict]:
    """Search results: a title, then rows of a name, a size and a price."""
    els = [{"index": 0, "text": "8 results", "bounds": [0, 0, 1080, 100]},
           {"index": 1, "resource_id": "com.x:id/results", "scrollable": True,
            "bounds": [0, 200, 1080, 2000]}]
    for n, (name, price) in enumerate([("Sea Salt Potato Chips", "$2.99"),
                                       ("Tortilla Chips", "$3.49"),
                                       ("Roasted Almonds", "$6.99")]):
        top = 200 + 300 * n
        els += [{"index": len(els), "clickable": True, "bounds": [0, top, 1080, top + 300]},
                {"index": len(els) + 1, "text": name, "bounds": [10, top + 10, 800, top + 100]},
                {"index": len(els) + 2, "text": price, "bounds": [10, top + 110, 800,
                                                                   top + 200]}]
    return els


def test_a_note_reads_the_row_the_task_names_not_the_row_beside_it() -> None:
    """Where the task names a row of a list, its value stands on that row: the note may
    copy that row's words or place, not another row's (a partial match is no name)."""
    from rl.ground import seen_at
    from rl.policy import named_rows, screen_lines

    els = _priced_list()
    task = "How much does Tortilla Chips cost?"
    rows = named_rows(screen_lines(els), task)
    assert [json.loads(r.words[0]) for r in rows] == ["Tortilla Chips"]
    shown = seen_at(task, els).screen
    assert "$3.49" in shown and "2" in shown  # its price, its place
    assert "$2.99" not in shown and "$6.99" not in shown
    # a composite names two rows: both are read
    two = named_rows(screen_lines(els), "Buy Roasted Almonds, then tell me the price of "
                                        "Tortilla Chips")
    assert [json.loads(r.words[0]) for r in two] == ["Tortilla Chips", "Roasted Almonds"]
    # no row named (only partly, or by nothing): the whole screen
    assert named_rows(screen_lines(els), "Which chips are on sale?") is None
    assert "$6.99" in seen_at("Which chips are on sale?", els).screen
    # a best match that is no row (the title, as much as the row): the whole screen
    assert named_rows(screen_lines(els), "How many results are there for Tortilla "
                                         "Chips?") is not None  # the row leads
    assert named_rows(screen_lines(els), "How many results for Almonds?") is None  # a part
    # a row whose label names nothing ("#") is no name, whatever else it shares
    odd = [*els[:2], {**els[2], "bounds": [0, 200, 1080, 500]},
           {**els[3], "text": "#"}, {**els[4], "text": "Almonds $2.99"}, *els[5:]]
    assert named_rows(screen_lines(odd), "Price of Almonds?") is None
    # a line outside the list that shares more with the task than the named row: the
    # task is about it (a title, a total), so the whole screen
    titled = [{**els[0], "text": "Tortilla Chips results"}, *els[1:]]
    assert named_rows(screen_lines(titled), "How many Tortilla Chips results?") is None
    assert named_rows(screen_lines(titled), "How much are Tortilla Chips?") is not None


def test_a_button_floating_over_a_list_leaves_its_rows_numbered() -> None:
    from rl.policy import screen_lines

    els = _list_screen(["Mom", "Alice Chen", "Sam Rivera"])
    els.append({"index": 9, "text": "Start chat", "clickable": True,
                "bounds": [800, 700, 1000, 800]})  # over the third row
    assert [ln.row for ln in screen_lines(els)][3:] == [1, 2, 3, None]


def test_places_carry_over_a_scroll_as_a_person_keeps_counting() -> None:
    """After a scroll, a list's rows keep the places they had (the rows it still shows
    tell how far it moved); a list scrolled past every row it showed has no known place;
    without a scroll before, the first row shown is 1 again."""
    from rl.policy import carry_places, screen_lines, screen_text

    names = [f"Contact {c}" for c in "ABCDEFGHIJKLM"]
    top, down, far = (_list_screen(names[:9]), _list_screen(names[4:13]),
                      _list_screen(names[9:13]))
    els, shown = carry_places(top)
    assert els == top  # nothing carried: the same elements
    assert [ln.row for ln in screen_lines(els) if ln.row] == list(range(1, 10))
    els, after = carry_places(down, shown)
    rows = [ln.row for ln in screen_lines(els) if ln.row]
    assert rows == list(range(5, 14))
    assert '"Contact M" [19] clickable #13' in screen_text(els)
    again, _ = carry_places(down, after)  # at the end: a scroll that moved nothing
    assert [ln.row for ln in screen_lines(again) if ln.row] == list(range(5, 14))
    back, _ = carry_places(top, after)  # scrolled back up
    assert [ln.row for ln in screen_lines(back) if ln.row] == list(range(1, 10))
    lost, _ = carry_places(far, shown)  # nothing in common with what it showed
    assert not any(ln.row for ln in screen_lines(lost))
    assert [ln.row for ln in screen_lines(carry_places(far)[0]) if ln.row] == [1, 2, 3, 4]


def test_a_value_the_task_holds_only_inside_a_word_is_still_found() -> None:
    from rl.data import found_values

    acts = [{"action_type": "answer", "text": "1"}]
    assert found_values("At which position is Order #10483?", acts) == ["1"]
    assert found_values("Is 1 the answer?", acts) == []
