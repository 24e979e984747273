"""Grounded decoding: typed, answered and noted text comes from what the agent saw."""

from __future__ import annotations

import json
import re

import pytest

from rl.ground import inside, sources_of
from tests.rl_fixtures import _one_thread, micro  # noqa: F401


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


def test_sampled_text_is_a_whole_piece_of_what_was_seen(micro) -> None:  # noqa: F811
    """An untrained model samples freely, yet every value it closes stands in the sources
    as whole words, and every value it has not closed yet is a piece of one."""
    torch = pytest.importorskip("torch")
    from rl.ground import Grounded
    from rl.model import load_policy, prompt_ids

    folder = micro[0]
    model, tok = load_policy(folder)
    model.eval()
    seen = ["Tell me the price of Oat Milk.", "$3.49", "Oat Milk", "2 items"]
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: " + seen[0]}])
    head = tok('{"action_type": "answer", "text": "')["input_ids"]
    ids = torch.tensor([prompt + head])
    whole = "\x00".join(seen)
    closed = 0
    for seed in range(12):
        torch.manual_seed(seed)
        with torch.no_grad():
            out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=True,
                                 max_new_tokens=12, top_k=0, pad_token_id=tok.pad_token_id,
                                 prefix_allowed_tokens_fn=Grounded(tok, len(prompt), [seen]))
        text = tok.decode(out[0, len(prompt) + len(head):].tolist(), skip_special_tokens=True)
        value, sep, _ = text.partition('"')
        value = json.loads(f'"{value}"') if not value.endswith("\\") else value
        if sep:
            closed += 1
            assert value.strip() and re.search(
                r"(?<![\w.])" + re.escape(value) + r"(?!\w|\.\w)", whole), text
        else:
            assert value in whole, text
    assert closed > 0
