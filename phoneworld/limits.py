"""The limits on what phoneworld reads, builds and holds (the README lists them).

One set for the whole pipeline: a trace that stays within them compiles, and the app it
compiles to parses, checks, builds, runs and serves; what passes one is refused with one
message naming the file and the limit.

    MAX_DEPTH  128 views nested (the real traces reach 39; Appium's dumps stop at 70)

Recursive code downstream (the spec transformer, renderers) is safe at this depth.
"""

from __future__ import annotations

MAX_DEPTH = 128
"""Views nested in one hierarchy, the root counting as 1."""

MAX_CHILDREN = 5_000
"""Children of one view (the real traces reach 195)."""

MAX_NODES = 20_000
"""Views in one observation (the real traces reach 1,364)."""

MAX_FILE_BYTES = 64 << 20
"""Bytes of any one trace file read (the real traces reach 4 MB, a DroidBot utg.js)."""

MAX_TEXT = 100_000
"""Characters of one string of a trace: a view's text, description or id, an instruction
(the real traces reach 9,928)."""

MAX_TYPED = 10_000
"""Characters a text field of a running app holds; typing past it is refused."""


def size(n: int) -> str:
    """`67108864` -> `64 MiB`, for messages."""
    return f"{n >> 20} MiB" if n >= 1 << 20 and not n % (1 << 20) else f"{n:,} bytes"


class LimitError(ValueError):
    """Input past one of these limits; readers add the file it is in."""


def check_text(value: str, what: str) -> str:
    """`value` itself, or a LimitError when it is longer than MAX_TEXT."""
    if len(value) > MAX_TEXT:
        raise LimitError(f"{what} is {len(value):,} characters, over the limit of {MAX_TEXT:,}")
    return value
