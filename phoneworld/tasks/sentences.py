"""How a sentence of ours ends, where it quotes the app's words at its end.

    end_mark("What is written under “Show usage toasts?”")   -> "?"
    end_mark("Turn on Wi-Fi.")                                -> "."
    close("What is written under “Show usage toasts?”", "?")  -> ... “Show usage toasts?”
    close("Turn on “Show usage toasts?”", ".")                -> ... “Show usage toasts?”
    close("Open “Enjoy the app !”", ".")                      -> ... “Enjoy the app !”
    tidy("What is written under “Show usage toasts?”?")       -> ... “Show usage toasts?”

A quoted text that ends with its own mark ends our sentence too: no second mark after the
quote where the quote's says enough (a "?" or "!" for any sentence, a "." for a statement).
A question that quotes a statement keeps its "?" (“Swipe left to delete it.”?). The
quote's own words are never changed: a typed text is typed as quoted.
"""

from __future__ import annotations

import re

MARKS = ".?!…。？！"
"""Marks that end a sentence, ours or the app's."""
_OURS = ".?!"
"""The marks our sentences end with."""
CLOSERS = "”’\"'»」』"
"""Closing quotes."""
_STACKED = re.compile(rf"([{re.escape(MARKS)}])([{re.escape(CLOSERS)}]+)([{_OURS}])(?=\s|$)")


def end_mark(text: str) -> str:
    """The mark a sentence ends with, looking inside a closing quote; "" for none."""
    t = text.rstrip()
    while t[-1:] and t[-1] in CLOSERS:
        t = t[:-1].rstrip()
    return _kind(t[-1]) if t[-1:] and t[-1] in MARKS else ""


def is_question(text: str) -> bool:
    """Whether a sentence asks (ends with "?", its own or a quote's)."""
    return end_mark(text) == "?"


def open_end(text: str) -> str:
    """`text` without the mark of ours that ends it (a quote's own mark stays)."""
    t = text.rstrip()
    return t[:-1].rstrip() if t[-1:] and t[-1] in _OURS else t


def close(text: str, mark: str) -> str:
    """`text` ended with `mark` in place of its own, unless a quote at its end already
    ends with a mark that serves (see the module docstring)."""
    return tidy(open_end(text) + mark)


def tidy(text: str) -> str:
    """`text` with no mark of ours stacked after a quote that ends with a mark serving
    for it, at the end of each sentence."""
    def one(m: re.Match[str]) -> str:
        inner, quote, ours = m.group(1), m.group(2), m.group(3)
        return inner + quote if _serves(inner, ours) else m.group(0)
    return _STACKED.sub(one, text)


def _serves(inner: str, ours: str) -> bool:
    """Whether a quote's final mark ends our sentence too: "?" and "!" end any; "." ends
    a statement; "…" ends none (the app's text trails off)."""
    kind = _kind(inner)
    return kind in "?!" or (kind == "." and ours == ".")


def _kind(mark: str) -> str:
    """A mark as one of ours ("？" -> "?"), "…" as itself."""
    return {"。": ".", "？": "?", "！": "!"}.get(mark, mark)
