"""Texts that are a label and a value ("Ends at: 2023-10-19 00:48:07"), asked by the label.

    pair_label(["Ends at: 21:00", "Ends at: 22:00"]) == ("Ends at", "Ends at: ")
    answered("v", ("Ends at", "Ends at: "))  ->  answer ~ v or "Ends at: " + answer ~ v

Language-free: every row's text is the same words, then a colon (any script's) or a date,
time or number, then a value, the values not all one. Such a text is asked for by its
label ("What does “Ends at” show ...?"), and its value alone answers.
"""

from __future__ import annotations

import re

from phoneworld.spec.ast import BinOp, BoolOp, Compare, Const, Expr, Ref
from phoneworld.tasks import wording as W
from phoneworld.tasks.labels import readable

_PAIR = re.compile(r"(?P<label>[^\W\d][^:：\n]{0,39}?)\s*[:：]\s*(?P<value>\S.*)", re.S)
"""A text that is a label, a colon and a value ("Ends at: 2023-10-19 00:48:07")."""
_LABELLED_NUMBER = re.compile(
    r"(?P<label>[^\W\d][^\d\n]{0,39}?)\s+(?P<value>[-+]?\d[\d\s.,:/-]*\d|\d)")
"""A label and a date, time or number after it, with nothing else ("Updated 2023-10-19",
"Version 1.4.2")."""


def pair_label(values: list) -> tuple[str, str] | None:
    """(label, the text before each value) where every readable value of a column is the
    same label with a value after it (`_PAIR`, `_LABELLED_NUMBER`), the values not all the
    same; None otherwise."""
    texts = [str(x).strip() for x in values if readable(x)]
    if len(texts) < 2:
        return None
    for form in (_PAIR, _LABELLED_NUMBER):
        matches = [form.fullmatch(x) for x in texts]
        if not all(matches):
            continue
        prefixes = {x[:m.start("value")] for x, m in zip(texts, matches, strict=True)}
        labels = {m.group("label").strip() for m in matches if m}
        if len(prefixes) == 1 and len(labels) == 1 and \
                len({m.group("value") for m in matches if m}) >= 2:
            return labels.pop(), prefixes.pop()
    return None


def pair_phrases(phrases: tuple, label: tuple[str, str]) -> tuple:
    """`phrases` (questions, object) with the pair's label written in."""
    questions, obj = phrases
    fill = {"label": label[0]}
    return [W.words(q, fill) for q in questions], W.words(obj, fill)


def answered(v: str, label: tuple[str, str] | None) -> Expr:
    """`answer ~ v`; for a label/value text, or its value alone after the label's words
    (`"Ends at: " + answer ~ v`)."""
    whole = Compare("~", Ref(("answer",)), Ref((v,)))
    if label is None:
        return whole
    return BoolOp("or", (whole, Compare("~", BinOp("+", Const(label[1]), Ref(("answer",))),
                                        Ref((v,)))))
