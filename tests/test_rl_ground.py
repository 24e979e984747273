"""Grounded decoding: typed, answered and noted text comes from what the agent saw."""

from __future__ import annotations

import json
import re

import pytest

from rl.ground import inside, sources_of

pytestmark = pytest.mark.usefixtures("one_thread")


@pytest.mark.parametrize("said, part", [
    ('Reason: answer\nAction: {"action_type": "answer", "text": "$1.', "$1."),
    ('Note: "say \\"hi', 'say \\"hi'),
    ('Note: "x"\nReason: click', None),
    ('{"action_type": "answer", "text": "a"}', None),
    ('{"action_type": "click", "index": 3', None),
    ('{"action_type": "open_app", "app_name": "Sett', "Sett"),
])
def test_free_text_is_found_where_a_reply_is_in_the_middle_of_it(said, part) -> None:
    assert inside(said) == part


def test_what_an_agent_can_see_is_the_task_its_notes_and_the_screen() -> None:
    els = [{"text": "Oat Milk", "content_desc": "Oat Milk"}, {"content_desc": "Remove"}]
    assert sources_of("Buy it.", els, ["$3"]) == ["Buy it.", "$3", "Oat Milk", "Remove"]


def _sample(tok, model, prompt, head, allowed, seed, n=16):
    import torch

    ids = torch.tensor([prompt + tok(head)["input_ids"]])
    torch.manual_seed(seed)
    with torch.no_grad():
        out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=True,
                             max_new_tokens=n, top_k=0, pad_token_id=tok.pad_token_id,
                             prefix_allowed_tokens_fn=allowed)
    return tok.decode(out[0, len(prompt):].tolist(), skip_special_tokens=True)


def test_sampled_text_is_a_whole_piece_of_what_was_seen(micro) -> None:
    """An untrained model samples freely, yet every value it closes stands in the sources
    as whole words, and every value it has not closed yet is a piece of one."""
    pytest.importorskip("torch")
    from rl.ground import Grounded
    from rl.model import load_policy, prompt_ids

    folder = micro[0]
    model, tok = load_policy(folder)
    model.eval()
    seen = ["Tell me the price of Oat Milk.", "$3.49", "Oat Milk", "2 items"]
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: " + seen[0]}])
    head = '{"action_type": "answer", "text": "'
    whole = "\x00".join(seen)
    closed = 0
    for seed in range(12):
        text = _sample(tok, model, prompt, head, Grounded(tok, len(prompt), [seen]), seed,
                       n=12)[len(head):]
        value, sep, _ = text.partition('"')
        value = json.loads(f'"{value}"') if not value.endswith("\\") else value
        if sep:
            closed += 1
            assert value.strip() and re.search(
                r"(?<![\w.])" + re.escape(value) + r"(?!\w|\.\w)", whole), text
        else:
            assert value in whole, text
    assert closed > 0


SCREEN = [
    {"index": 0, "text": "Corner Shop", "bounds": [0, 0, 1080, 200]},
    {"index": 1, "text": "Bakery", "clickable": True, "bounds": [0, 300, 1080, 500]},
    {"index": 2, "text": "Search", "editable": True, "clickable": True,
     "bounds": [0, 600, 1080, 700]},
    {"index": 3, "resource_id": "com.x:id/results", "scrollable": True,
     "bounds": [0, 800, 1080, 2000]},
]


def test_reasons_are_what_the_screen_allows() -> None:
    from rl.ground import reasons

    allowed = reasons(SCREEN, ["Shopping", "Settings"])
    assert {'click "Bakery" [1]', 'input_text "Search" [2]', "scroll down id=results [3]",
            'open_app "Settings"', "navigate_back", "status", "answer"} <= set(allowed)
    assert allowed == sorted(allowed) and 'click "Bakery" [2]' not in allowed
    assert "open_app " not in allowed and "open_app " in reasons(SCREEN)  # no apps: free


def test_a_reason_names_a_line_the_screen_shows_not_a_text_folded_into_one() -> None:
    from rl.ground import reasons
    from rl.policy import screen_text

    row = [{"index": 0, "text": "", "clickable": True, "bounds": [0, 0, 1080, 200]},
           {"index": 1, "text": "Display", "bounds": [0, 0, 1080, 100]},
           {"index": 2, "text": "Dark theme, font size", "bounds": [0, 100, 1080, 200]}]
    assert screen_text(row) == '"Display" [0] clickable "Dark theme, font size"'
    allowed = reasons(row)
    assert 'click "Display" [0]' in allowed
    assert not any(r.endswith(("[1]", "[2]")) for r in allowed), allowed  # no index it shows


@pytest.mark.parametrize("reason, start", [
    ('click "Bakery" [1]', '{"action_type": "click", "index": 1}'),
    ('input_text "Search" [2]', '{"action_type": "input_text", "index": 2, "text": "'),
    ("scroll up id=results [3]", '{"action_type": "scroll", "index": 3, "direction": "up"}'),
    ('open_app "Shopping"', '{"action_type": "open_app", "app_name": "Shopping"}'),
    ("answer", '{"action_type": "answer", "text": "'),
    ("navigate_back", '{"action_type": "navigate_back"}'),
    ("click", None), ("fly away", None), ('open_app "Shop', None),
])
def test_a_reason_names_its_action(reason, start) -> None:
    from rl.ground import action_of

    assert action_of(reason) == start


def test_a_sampled_reason_is_the_screens_and_its_action_follows_it(micro) -> None:
    """An untrained model samples freely, yet its reason line is one the screen allows
    (or the start of one) and the action after a reason is the one it names."""
    pytest.importorskip("torch")
    from rl.ground import Grounded, action_of, seen_at
    from rl.model import load_policy, prompt_ids

    model, tok = load_policy(micro[0])
    model.eval()
    seen = seen_at("Open Bakery.", SCREEN, apps=["Shopping"])
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: Open Bakery."}])
    for seed in range(6):
        allowed = Grounded(tok, len(prompt), [seen])
        said = _sample(tok, model, prompt, "Reason: ", allowed, seed)
        line = said.split("\n")[0][len("Reason: "):]
        assert any(r == line or ("\n" not in said and r.startswith(line))
                   for r in seen.reasons), said
        said = _sample(tok, model, prompt, 'Reason: click "Bakery" [1]\nAction: ', allowed,
                       seed, n=40)
        act, start = said.split("Action: ", 1)[1], action_of('click "Bakery" [1]')
        assert act.startswith(start) or start.startswith(act) and len(act) > 20, said


def test_typed_text_comes_from_the_task_and_notes_and_a_note_from_the_screen(
        micro) -> None:
    pytest.importorskip("torch")
    from rl.ground import Grounded, Seen
    from rl.model import load_policy, prompt_ids

    model, tok = load_policy(micro[0])
    model.eval()
    seen = Seen("Type hello there.", ["$3.49"], ["Oat Milk", "2 items"], [])
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: x"}])
    typed, noted = "\x00".join(["Type hello there.", "$3.49"]), "\x00".join(seen.screen)
    for seed in range(8):
        allowed = Grounded(tok, len(prompt), [seen])
        for head, whole in (('Reason: input_text "Search" [2]\nAction: {"action_type": '
                             '"input_text", "index": 2, "text": "', typed),
                            ('Note: "', noted)):
            said = _sample(tok, model, prompt, head, allowed, seed, n=10)[len(head):]
            value, sep, rest = said.partition('"')
            assert value in whole, said
            if sep:
                assert value.strip() and re.search(
                    r"(?<![\w.])" + re.escape(value) + r"(?!\w|\.\w)", whole), said
                if head.startswith("Reason"):  # the action is closed and the reply ends
                    assert rest in ("", "}"), said


def test_an_answer_is_what_was_noted_or_else_a_count(micro) -> None:
    """An answer copies a note, never the task (whose product name a tiny model copies
    after noting the price); with nothing noted it is a number: what was counted."""
    pytest.importorskip("torch")
    from rl.ground import Grounded, Seen
    from rl.model import load_policy, prompt_ids

    model, tok = load_policy(micro[0])
    model.eval()
    task = "How much does Oat Milk cost? Answer 12 items."
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: " + task}])
    head = 'Reason: answer\nAction: {"action_type": "answer", "text": "'
    for noted in (["$3.49"], []):
        seen = Seen(task, noted, ["Oat Milk", "$3.49", "2 items"], [])
        for seed in range(8):
            said = _sample(tok, model, prompt, head, Grounded(tok, len(prompt), [seen]),
                           seed, n=8)[len(head):]
            value, sep, _ = said.partition('"')
            if noted:
                assert value in "$3.49", said
            else:
                assert value == "" or value.isdigit(), said
                assert not sep or int(value) < 1000, said


def test_the_apps_to_open_are_those_the_task_names() -> None:
    from rl.ground import seen_at

    apps = ["Shopping", "Settings", "Messages"]
    named = seen_at("Check in Settings, then text Dad in Messages.", SCREEN, apps=apps)
    assert [r for r in named.reasons if r.startswith("open_app")] == [
        'open_app "Messages"', 'open_app "Settings"']
    anything = seen_at("Text Dad.", SCREEN, apps=apps)
    assert len([r for r in anything.reasons if r.startswith("open_app")]) == 3


def test_a_phonebuddy_action_is_left_free_but_its_reason_is_not(micro) -> None:
    pytest.importorskip("torch")
    import torch

    from rl.ground import Grounded, seen_at
    from rl.model import load_policy

    _, tok = load_policy(micro[0])
    seen = seen_at("Open Bakery.", SCREEN, apps=["Shopping"], fmt="phonebuddy")
    limits = Grounded(tok, 0, [seen])
    acting = torch.tensor(tok('Reason: click "Bakery" [1]\nAction: ')["input_ids"])
    assert limits.limit(0, acting) is None
    reasoning = torch.tensor(tok('Reason: click "Bak')["input_ids"])
    assert limits.limit(0, reasoning)  # still one of the screen's reasons


ROWS = [
    {"index": 0, "text": "Sea Salt Potato Chips", "clickable": True, "bounds": [0, 0, 1080, 100]},
    {"index": 1, "text": "8 oz", "bounds": [0, 10, 500, 90]},
    {"index": 2, "text": "BBQ Potato Chips", "clickable": True, "bounds": [0, 100, 1080, 200]},
    {"index": 3, "text": "12 oz", "bounds": [0, 110, 500, 190]},
]


def test_a_note_names_a_line_then_copies_only_that_lines_words(micro, monkeypatch) -> None:
    """`Note: "BBQ Potato Chips" [2] "12 oz"`: the anchor is a line of the screen, and the
    value a whole piece of that line's words, never of another row's (`rl.policy.ANCHORED`
    on; off, a note copies any of the screen's words, as the test above checks)."""
    pytest.importorskip("torch")
    from rl import policy
    from rl.ground import Grounded, seen_at
    from rl.model import load_policy, prompt_ids

    assert seen_at("x", ROWS).anchors == [] or policy.ANCHORED
    monkeypatch.setattr(policy, "ANCHORED", True)
    model, tok = load_policy(micro[0])
    model.eval()
    seen = seen_at("What is the unit of BBQ Potato Chips?", ROWS)
    assert seen.anchors == ['"BBQ Potato Chips" [2] ', '"Sea Salt Potato Chips" [0] ']
    assert seen.lines[2] == ["BBQ Potato Chips", "12 oz"]
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: x"}])
    anchors = [f"Note: {a}" for a in seen.anchors]
    for seed in range(6):
        said = _sample(tok, model, prompt, "Note: ", Grounded(tok, len(prompt), [seen]),
                       seed, n=24).split("\n")[0]
        assert any(said.startswith(a) or a.startswith(said) for a in anchors), said
        head = 'Note: "BBQ Potato Chips" [2] "'
        value = _sample(tok, model, prompt, head, Grounded(tok, len(prompt), [seen]), seed,
                        n=8)[len(head):].split('"')[0]
        assert value in "BBQ Potato Chips\x0012 oz" and "8 oz" not in value, value


def test_no_note_where_no_line_shares_a_word_with_the_task(micro) -> None:
    """What the task asks about is not on a screen none of whose lines shares a word
    with it: a reply there may not start a note; where one line does, it is free."""
    torch = pytest.importorskip("torch")
    from rl.ground import Grounded, seen_at
    from rl.model import load_policy, prompt_ids

    model, tok = load_policy(micro[0])
    model.eval()
    els = [{"text": "Drinks", "clickable": True, "bounds": [0, 0, 100, 50]},
           {"text": "Bakery", "clickable": True, "bounds": [0, 50, 100, 100]}]
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: x"}])
    far = seen_at("What date is shown for Order #10483?", els)
    near = seen_at("How many products does Bakery have?", els)
    assert not far.readable and near.readable
    ids = torch.tensor(prompt)
    assert Grounded(tok, len(prompt), [near]).limit(0, ids) is None
    allowed = Grounded(tok, len(prompt), [far]).limit(0, ids)
    assert allowed and not {i for i in allowed if "Note: ".startswith(tok.decode([i]))}
    for seed in range(6):
        said = _sample(tok, model, prompt, "", Grounded(tok, len(prompt), [far]), seed, n=6)
        assert any(said.startswith(s) or s.startswith(said)
                   for s in ("Reason: ", '{"action_type": ', "<tool_call>")), said
