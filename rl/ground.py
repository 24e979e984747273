"""Grounded decoding: what a reply types, answers or notes comes from what the agent saw.

    allowed = Grounded(tok, prompt_len, [sources_of(task.instruction, elements, noted), ...])
    model.generate(..., prefix_allowed_tokens_fn=allowed)

A policy can only know a value it has read: in the task, in its notes, or on the screen.
While a reply is inside such free text (the `"text": "` or `"app_name": "` of an action,
or a `Note: "` line) only the tokens that keep the text a piece of one of those sources
may come next, and the closing quote only once the text stands there as whole words;
everywhere else the model is free. This is decoding with a constraint (a logits mask
through transformers' `prefix_allowed_tokens_fn`), not a repair of the reply afterwards:
the model still picks which value, and an action that names the wrong one still fails.
It is an option of evaluation and rollouts (`--grounded`, on by default).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from rl.policy import _words

_OPEN = re.compile(r'(?:"(?:text|app_name)":\s*"|^Note:\s*")((?:[^"\\]|\\.)*)$', re.S | re.M)


def sources_of(instruction: str, elements: Sequence[Mapping[str, Any]],
               noted: Sequence[str] = ()) -> list[str]:
    """What the agent can see at a step: the task, its notes, every word on the screen."""
    return [instruction, *noted, *(w for e in elements for w in _words(e))]


def _escaped(sources: Sequence[str]) -> str:
    """The sources as they read inside a JSON string, apart from each other."""
    return "\x00".join(json.dumps(s, ensure_ascii=False)[1:-1] for s in sources)


@lru_cache(maxsize=4)  # holds the tokenizer, so a cached entry is never another's
def _pieces(tok: Any) -> tuple[list[str], list[int]]:
    """Each token's text and every token id (per tokenizer, once)."""
    n = len(tok)
    return [tok.decode([i]) for i in range(n)], list(range(n))


def inside(reply: str) -> str | None:
    """The free text a partial reply is in the middle of (JSON-escaped), else None."""
    found = list(_OPEN.finditer(reply))
    m = found[-1] if found else None
    return m.group(1) if m and m.end() == len(reply) else None


class Grounded:
    """A `prefix_allowed_tokens_fn` for one left-padded batch (see the module docstring)."""

    def __init__(self, tok: Any, prompt_len: int, sources: Sequence[Sequence[str]]) -> None:
        self.tok = tok
        self.start = prompt_len
        self.seen = [_escaped(s) for s in sources]
        self.pieces, self.every = _pieces(tok)

    def __call__(self, row: int, ids: Any) -> list[int]:
        said = self.tok.decode(ids[self.start:].tolist(), skip_special_tokens=True)
        part = inside(said)
        if part is None:
            return self.every
        allowed = self.allowed(part, self.seen[row])
        return allowed or self.every  # nothing fits (a split character): leave it free

    def allowed(self, part: str, seen: str) -> list[int]:
        """Tokens that may follow the free text `part`, given what was seen."""
        out = []
        for i, piece in enumerate(self.pieces):
            if not piece:
                continue
            text = part + piece
            q = _close(text, len(part))
            if q is None:
                if "\x00" not in text and text in seen and _starts(text, seen):
                    out.append(i)
            elif text[:q].strip() and text[:q] in seen and _whole(text[:q], seen):
                out.append(i)
        return out


def _starts(value: str, seen: str) -> bool:
    """Whether `value` stands somewhere in `seen` at the start of a word: then it can
    always be finished as whole words (at the latest where its source ends)."""
    return re.search(r"(?<![\w.])" + re.escape(value), seen) is not None


def _whole(value: str, seen: str) -> bool:
    """Whether `value` stands somewhere in `seen` as whole words ("$1.49", not "$1." or
    "$1")."""
    return re.search(r"(?<![\w.])" + re.escape(value) + r"(?!\w|\.\w)", seen) is not None


def _close(text: str, start: int) -> int | None:
    """Where the first unescaped quote at or after `start` is, if any."""
    i = start
    while True:
        q = text.find('"', i)
        if q < 0:
            return None
        slashes = len(text[:q]) - len(text[:q].rstrip("\\"))
        if slashes % 2 == 0:
            return q
        i = q + 1
