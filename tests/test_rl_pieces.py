"""Tokens cut into their BPE pieces: the same text, the same scored text, seeded."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("tokenizers")
pytest.importorskip("transformers")

pytestmark = pytest.mark.usefixtures("one_thread")

TEXTS = ['"Oat Milk" [9] clickable "$3.49"', "Reason: click \"Dairy & Eggs\" [10]",
         "Task: Add Oat Milk to the cart.", "Network & internet", "Connected devices"] * 20


@pytest.fixture(scope="module")
def tok():
    from rl.model import train_tokenizer

    return train_tokenizer(TEXTS, vocab_size=600)


def test_a_merged_token_s_parents_spell_it(tok) -> None:
    from rl.pieces import merge_parents

    parents = merge_parents(tok)
    assert len(parents) > 50
    for whole, (left, right) in parents.items():
        assert tok.convert_ids_to_tokens(whole) == "".join(tok.convert_ids_to_tokens([left, right]))


@settings(max_examples=40, deadline=None)
@given(text=st.sampled_from(TEXTS + ["Bluetooth on", "Wi-Fi: HomeNet", "Storage 62% used"]),
       p=st.floats(0.0, 1.0), seed=st.integers(0, 2**16))
def test_cut_tokens_spell_the_same_text_and_score_the_same_reply(tok, text, p, seed) -> None:
    from rl.pieces import IGNORED, cut, merge_parents

    prompt = tok(text, add_special_tokens=False)["input_ids"]
    answer = tok(" " + text, add_special_tokens=False)["input_ids"]
    ids, labels = prompt + answer, [IGNORED] * len(prompt) + answer
    new_ids, new_labels = cut(ids, labels, merge_parents(tok), p, random.Random(seed))
    assert tok.decode(new_ids) == tok.decode(ids)
    assert len(new_labels) == len(new_ids) >= len(ids)
    scored = [t for t, lab in zip(new_ids, new_labels, strict=True) if lab != IGNORED]
    assert tok.decode(scored) == tok.decode(answer)
    assert all(lab in (IGNORED, t) for t, lab in zip(new_ids, new_labels, strict=True))


def test_no_cut_at_zero_and_every_cut_at_one(tok) -> None:
    from rl.pieces import cut, merge_parents

    parents = merge_parents(tok)
    ids = tok("Connected devices", add_special_tokens=False)["input_ids"]
    assert any(i in parents for i in ids)
    assert cut(ids, None, parents, 0.0, random.Random(0)) == (ids, None)
    bytes_only, _ = cut(ids, None, parents, 1.0, random.Random(0))
    assert not any(i in parents for i in bytes_only)
    assert len(bytes_only) == len("Connected devices")


def test_a_dataset_is_cut_the_same_for_a_seed_and_kept_to_its_length(tok) -> None:
    from datasets import Dataset

    from rl.pieces import cut_dataset

    rows = [{"input_ids": tok(t)["input_ids"], "labels": tok(t)["input_ids"]} for t in TEXTS]
    ds = Dataset.from_list(rows)
    a, b = cut_dataset(ds, tok, 0.3, 7, 12), cut_dataset(ds, tok, 0.3, 7, 12)
    c = cut_dataset(ds, tok, 0.3, 8, None)
    assert a["input_ids"] == b["input_ids"] and a["labels"] == b["labels"]
    assert a["input_ids"] != c["input_ids"]
    assert max(len(r) for r in a["input_ids"]) <= 12
    assert sum(map(len, c["input_ids"])) > sum(map(len, ds["input_ids"]))
    assert cut_dataset(ds, tok, 0.0, 7, 12) is ds


def test_sft_trains_on_cut_examples(micro, tmp_path, monkeypatch) -> None:
    """`train_sft(cut_tokens=...)` hands the trainer the cut dataset: longer rows, the same
    text, and the loss still goes down."""
    pytest.importorskip("trl")
    import rl.pieces
    from rl.sft import train_sft

    seen = []
    real = rl.pieces.cut_dataset

    def spy(ds, tok_, p, seed, max_length):  # noqa: ANN001, ANN202
        out = real(ds, tok_, p, seed, max_length)
        seen.append((sum(map(len, ds["input_ids"])), sum(map(len, out["input_ids"]))))
        return out

    monkeypatch.setattr(rl.pieces, "cut_dataset", spy)
    folder, _, _, examples = micro
    final, losses = train_sft(folder, examples, tmp_path, steps=12, lr=3e-3, batch=4,
                              max_length=512, save_steps=100, progress=False,
                              cut_tokens=0.3)
    assert (final / "config.json").is_file()
    assert seen and seen[0][1] > seen[0][0]
    assert losses[-1] < losses[0] - 0.5



def test_a_token_is_cut_alike_wherever_it_stands_in_a_row(tok) -> None:
    from rl.pieces import cut, merge_parents

    parents = merge_parents(tok)
    word = tok(" Connected", add_special_tokens=False)["input_ids"]
    ids = (word + tok(" devices", add_special_tokens=False)["input_ids"]) * 6
    for seed in range(20):
        new, _ = cut(ids, None, parents, 0.5, random.Random(seed))
        third = len(new) // 6
        assert new == new[:third] * 6
