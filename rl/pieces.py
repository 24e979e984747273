"""Tokens cut into their pieces (BPE-dropout on token ids): words of apps never trained on.

    parents = merge_parents(tok)                          # id of "Oat" -> ids of "O", "at"
    ids, labels = cut(ids, labels, parents, p=0.1, rng=random.Random(0))
    dataset = cut_dataset(trainer.train_dataset, tok, p=0.1, seed=0, max_length=768)

The tiny tokenizer is trained on the training apps' text, so nearly every word they show
is one token, and the pieces those tokens were merged from never reach the model: an app
it never trained on spells its words in exactly those pieces (a settings screen's tokens
were 30% pieces no SFT example held, where a shopping screen's were 8%), and the model
reads and writes them as noise. Cutting a share of the examples' tokens into the two
tokens their byte-level BPE merge joined (again, with the same chance, for each piece)
shows the model every word also spelled in pieces, in the prompt and in the reply it
writes. This is BPE-dropout (Provilkov et al., 2020) done on ids after trl has tokenized
the chat, with a seeded `random.Random`, so a run's examples are the same bytes every
time (the tokenizers library's own dropout draws from an unseeded generator).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

IGNORED = -100
"""The label of a position that carries no loss (trl's and transformers')."""


def merge_parents(tok: Any) -> dict[int, tuple[int, int]]:
    """Each merged token's id -> the ids of the two tokens its BPE merge joined."""
    model = json.loads(tok.backend_tokenizer.to_str())["model"]
    if model.get("type") != "BPE":
        return {}
    vocab = model["vocab"]
    out: dict[int, tuple[int, int]] = {}
    for merge in model["merges"]:
        left, right = merge.split(" ", 1) if isinstance(merge, str) else merge
        whole = vocab.get(left + right)
        if whole is not None and left in vocab and right in vocab and whole not in out:
            out[whole] = (vocab[left], vocab[right])
    return out


def _pieces(token: int, parents: dict[int, tuple[int, int]], p: float,
            rng: random.Random) -> list[int]:
    """`token`, or with chance `p` its two parents, each cut again the same way."""
    if token not in parents or rng.random() >= p:
        return [token]
    left, right = parents[token]
    return _pieces(left, parents, p, rng) + _pieces(right, parents, p, rng)


def cut(ids: Sequence[int], labels: Sequence[int] | None, parents: dict[int, tuple[int, int]],
        p: float, rng: random.Random) -> tuple[list[int], list[int] | None]:
    """(`ids` with tokens cut into pieces, `labels` to match): a piece of a scored token is
    scored as its own id, a piece of an unscored one stays unscored. A token is cut the
    same way wherever it stands in `ids`: a name in the task, on the screen and in the
    reply is one sequence of pieces, so copying it stays a match of equal tokens (cut
    apart independently, the seed-0 model solved 2% of Shopping, where whole it solved
    82%)."""
    out_ids: list[int] = []
    out_labels: list[int] | None = None if labels is None else []
    drawn: dict[int, list[int]] = {}
    for i, token in enumerate(ids):
        if int(token) not in drawn:
            drawn[int(token)] = _pieces(int(token), parents, p, rng)
        parts = drawn[int(token)]
        out_ids.extend(parts)
        if out_labels is not None and labels is not None:
            out_labels.extend(parts if labels[i] != IGNORED else [IGNORED] * len(parts))
    return out_ids, out_labels


def cut_dataset(dataset: Any, tok: Any, p: float, seed: int, max_length: int | None) -> Any:
    """A tokenized SFT dataset (`input_ids`, optional `labels`) with `p` of its tokens cut
    (`cut`), rows in order with one `random.Random(seed)`, cut again to `max_length`."""
    parents = merge_parents(tok)
    if p <= 0 or not parents:
        return dataset
    from datasets import Dataset

    rng = random.Random(seed)
    has_labels = "labels" in dataset.column_names
    rows = []
    for row in dataset:
        ids, labels = cut(row["input_ids"], row["labels"] if has_labels else None,
                          parents, p, rng)
        ids = ids[:max_length] if max_length else ids
        rows.append({"input_ids": ids} if labels is None else
                    {"input_ids": ids, "labels": labels[:len(ids)]})
    return Dataset.from_list(rows)
