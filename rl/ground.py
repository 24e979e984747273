"""Grounded decoding: a reply names what is on the screen and copies what the agent saw.

    seen = [seen_at(task.instruction, elements, noted, apps=["Shopping", ...]), ...]
    model.generate(..., logits_processor=[Grounded(tok, prompt_len, seen).mask])
    # or prefix_allowed_tokens_fn=Grounded(...): the same limits, slower

A policy can only act on what is on its screen and only know a value it has read. While a
reply is writing

- its reason line (`Reason: click "Bakery" [6]`), only tokens that keep the line a
  reason this screen allows may come next: a verb with a line's label and index as
  `rl.policy.why` writes them, `navigate_back`, `status`, `answer`, or `open_app` with
  the label of an app the backend has (one the task names, if it names any);
- its action (`Action: {...}`), only the action that reason names, up to the text it
  types or answers (in the AndroidWorld format; a PhoneBuddy tool call is left free);
- a note (`Note: "Oat Milk" [9] "$3.49"`), only the label and index of a screen line,
  then a piece of that line's words (a plain `Note: "` with no anchors: of the screen's,
  or where the task names rows of a list, of those rows: `rl.policy.named_rows`);
- a typed or opened text (`"text": "`, `"app_name": "`), only a piece of the task or of
  the notes (those of earlier steps and those of this reply): the agent types what the
  task says or what it noted where it read it;
- an answer, only a piece of the notes: the agent reports what it read, and notes it
  where it read it (every answer of the demos is a note but counts); with no notes, only
  a number, what it counted ("how many options does “Font size” offer?"). A piece of the
  task is no answer: a tiny model copies the task's product name after noting its price;
- no note at all on a screen none of whose lines shares a word with the task (no `*`
  hint, `rl.policy.names_something`): what the task asks about is not there, so the
  agent acts (1,747 of the 1,750 notes of the seed-0 demos are written where a line
  shares one; an SFT model noted "Drinks" on the first screen for "What date is shown
  for Order #10483?");

and a free text closes only once it stands there as whole words; an action ends the
reply. Everywhere else (which line comes next) the model is free. This is decoding with a
constraint (a logits mask through transformers' `prefix_allowed_tokens_fn`), not a repair
of the reply afterwards: the model still picks which line, which value and which action,
and a wrong one still fails. It is an option of evaluation and rollouts (`--grounded`,
on by default). A plain list of strings instead of a `Seen` grounds every free text in
all of them and leaves reasons and actions free.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rl import policy
from rl.policy import element_words, notes, reply, screen_lines, why

_FIELD = re.compile(r'(?:"(text|app_name)":\s*"|^(Note):\s*")((?:[^"\\]|\\.)*)$', re.S | re.M)
_TARGETED = ("click", "long_press", "input_text")
_DIRECTIONS = ("down", "up", "right", "left")
_ANCHORED = re.compile(r'"(?:[^"\\]|\\.)*" \[(\d+)\] "(.*)$', re.S)  # in a note's value
_ANSWER = '"action_type": "answer"'
_COUNTS = tuple(map(str, range(1000)))  # what an answer with no notes may be
_FREE = "\x01"  # stands for a free text in an action's template
_UNNOTED = ("Reason: ", '{"action_type": ', "<tool_call>")  # how a reply with no note starts


@dataclass
class Seen:
    """What the agent can see at one step, split by what each part of a reply may copy."""

    task: str
    notes: list[str] = field(default_factory=list)
    screen: list[str] = field(default_factory=list)  # every word on the screen
    reasons: list[str] = field(default_factory=list)  # every reason line it allows
    fmt: str = "androidworld"  # the action format (PhoneBuddy's actions are left free)
    # A note's anchors (`"Oat Milk" [9] `) and, by line index, the words it may copy.
    anchors: list[str] = field(default_factory=list)
    lines: dict[int, list[str]] = field(default_factory=dict)
    # Whether a note may be written here: some line shares a word with the task.
    readable: bool = True


def sources_of(instruction: str, elements: Sequence[Mapping[str, Any]],
               noted: Sequence[str] = ()) -> list[str]:
    """What the agent can see at a step: the task, its notes, every word on the screen."""
    return [instruction, *noted, *(w for e in elements for w in element_words(e))]


def seen_at(instruction: str, elements: Sequence[Mapping[str, Any]],
            noted: Sequence[str] = (), apps: Sequence[str] = (),
            fmt: str = "androidworld") -> Seen:
    """A step's `Seen`: the task, the notes, the screen's words and every reason line the
    screen allows (`reasons`), where the apps it may open are those of `apps` the task
    names (all of them when it names none)."""
    named = [a for a in apps if re.search(rf"(?<!\w){re.escape(a)}(?!\w)", instruction)]
    drawn = screen_lines(elements)
    lines = {ln.index: [json.loads(w) for w in ln.words] for ln in drawn if ln.words}
    rows = policy.named_rows(drawn, instruction)
    if rows is None:  # a note copies any word of the screen, or a row's place (`#3`)
        shown = [w for e in elements for w in element_words(e)]
        shown += sorted({str(ln.row) for ln in drawn if ln.row})
    else:  # ... or of the rows the task names
        shown = [json.loads(w) for ln in rows for w in ln.words]
        shown += sorted({str(ln.row) for ln in rows if ln.row})
    return Seen(instruction, list(noted), shown,
                reasons(elements, named or apps), fmt,
                sorted({f"{json.dumps(w[0], ensure_ascii=False)} [{i}] "
                        for i, w in lines.items()}) if policy.ANCHORED else [], lines,
                policy.names_something(drawn, instruction))


def reasons(elements: Sequence[Mapping[str, Any]], apps: Sequence[str] = ()) -> list[str]:
    """Every reason line `rl.policy.reply` can write on this screen, sorted. Without
    `apps`, a reason that opens an app is left free (`open_app ` alone stands for it)."""
    out = {"navigate_back", "status", "answer", *(f"scroll {d}" for d in _DIRECTIONS)}
    lines = screen_lines(elements)
    for i in sorted({ln.index for ln in lines if 0 <= ln.index < len(elements)}):
        for kind in _TARGETED:
            out.add(why({"action_type": kind, "index": i}, elements, index=True, lines=lines))
        for d in _DIRECTIONS:
            out.add(why({"action_type": "scroll", "index": i, "direction": d}, elements,
                        index=True, lines=lines))
    out.update(why({"action_type": "open_app", "app_name": a}, ()) for a in apps)
    if not apps:
        out.add("open_app ")
    return sorted(out)


def action_of(reason: str) -> str | None:
    """The start of the action a reason line names (`Action: ` left off), up to the
    opening quote of what it types or answers; None for a line that is no reason."""
    verb, _, rest = reason.partition(" ")
    where = re.search(r"\[(\d+)\]$", rest)
    a: dict[str, Any] = {"action_type": verb}
    if verb in _TARGETED or (verb == "scroll" and where):
        if not where:
            return None
        a["index"] = int(where.group(1))
    if verb == "scroll":
        a["direction"] = rest.split(" ", 1)[0] or "down"
    elif verb == "open_app":
        try:
            a["app_name"] = json.loads(rest)
        except ValueError:
            return None
    elif verb in ("input_text", "answer"):
        a["text"] = _FREE
    elif verb == "status":
        a["goal_status"] = "complete"
    elif verb not in ("click", "long_press", "navigate_back"):
        return None
    try:
        text = reply(a)
    except Exception:  # not an action the runtime knows
        return None
    cut = text.find(json.dumps(_FREE)[1:-1])
    return text if cut < 0 else text[:cut]


def inside(reply_: str) -> str | None:
    """The free text a partial reply is in the middle of (JSON-escaped), else None."""
    at = _field(reply_)
    return at[1] if at else None


def _field(said: str) -> tuple[str, str] | None:
    """(which free text, what of it is written) when `said` ends inside one."""
    found = list(_FIELD.finditer(said))
    m = found[-1] if found else None
    if not m or m.end() != len(said):
        return None
    return (m.group(1) or m.group(2)), m.group(3)


def _escaped(sources: Sequence[str]) -> str:
    """The sources as they read inside a JSON string, apart from each other."""
    return "\x00".join(json.dumps(s, ensure_ascii=False)[1:-1] for s in sources)


@lru_cache(maxsize=4)  # holds the tokenizer, so a cached entry is never another's
def token_pieces(tok: Any) -> tuple[list[str], list[int], dict[str, list[int]], int]:
    """Each token's text, every token id, the ids of each text, the longest text."""
    n = len(tok)
    pieces = [tok.decode([i]) for i in range(n)]
    ids: dict[str, list[int]] = {}
    for i, p in enumerate(pieces):
        if p:
            ids.setdefault(p, []).append(i)
    return pieces, list(range(n)), ids, max(map(len, pieces), default=1)


class Grounded:
    """A `prefix_allowed_tokens_fn` for one left-padded batch (see the module docstring)."""

    def __init__(self, tok: Any, prompt_len: int, seen: Sequence[Seen | Sequence[str]]
                 ) -> None:
        self.tok = tok
        self.start = prompt_len
        self.seen = list(seen)
        self.pieces, self.every, self.ids_of, self.longest = token_pieces(tok)
        # Per row, the reply positions where the allowed tokens all wrote one text (`one_text`):
        # a forced token is no choice of the policy's, so RL leaves it out of the update.
        self.forced: list[set[int]] = [set() for _ in self.seen]
        # Per row, the tokens each limited reply position allowed: RL scores a sampled
        # token against the distribution it was drawn from (renormalised over these).
        self.limits: list[dict[int, list[int]]] = [{} for _ in self.seen]

    def __call__(self, row: int, ids: Any) -> list[int]:
        return self.limit(row, ids) or self.every

    def mask(self, ids: Any, scores: Any) -> Any:
        """A `transformers` logits processor: the scores of the tokens a row may not write
        next set to -inf (rows with nothing to limit are left alone, which is much
        cheaper than masking every token of every row)."""
        for row in range(ids.shape[0]):
            allowed = self.limit(row, ids[row])
            if allowed:
                at = ids.shape[1] - self.start
                self.limits[row][at] = list(allowed)
                if self.one_text(allowed):
                    self.forced[row].add(at)
                keep = scores[row, allowed]
                scores[row] = float("-inf")
                scores[row, allowed] = keep
        return scores

    def one_text(self, allowed: Sequence[int]) -> bool:
        """Whether `allowed` tokens all write the same text, some of them more of it than
        others (a forced continuation, however the tokenizer splits it)."""
        texts = [self.pieces[i] for i in allowed]
        longest = max(texts, key=len)
        return all(longest.startswith(t) for t in texts)

    def limit(self, row: int, ids: Any) -> list[int] | None:
        """The tokens row `row` may write next, or None (or []) when it is free."""
        said = self.tok.decode(ids[self.start:].tolist(), skip_special_tokens=True)
        seen = self.seen[row]
        if isinstance(seen, Seen) and not seen.readable:
            ends = [s[len(said):] for s in _UNNOTED if s.startswith(said) and s != said]
            if ends:  # the start of a reply with no note: its reason or its action, and
                # a token may go on past it ("Reason: " is written "Reason", ":", " click")
                return [i for i, p in enumerate(self.pieces)
                        if p and any(e.startswith(p) or p.startswith(e) for e in ends)]
        line = said.rsplit("\n", 1)[-1]
        if isinstance(seen, Seen) and seen.fmt == "androidworld" and line.startswith("Action: "):
            named = re.search(r"^Reason: (.*)$", said, re.M)
            start = action_of(named.group(1)) if named else None
            part = line[len("Action: "):]
            if start is not None and start.startswith(part) and len(part) < len(start):
                return self.following([start[len(part):]])
            if start is not None and part.startswith(start):  # the action is written ...
                if not start.endswith('"'):  # ... whole: stop
                    return [self.tok.eos_token_id]
                rest = part[len(start):]
                q = _close(rest, 0)
                if q is not None:  # ... up to the end of its text: close it, then stop
                    end = '"}'[len(rest) - q:]
                    return (self.following([end]) if end else []) or [self.tok.eos_token_id]
        if isinstance(seen, Seen) and seen.anchors and line.startswith("Note: "):
            return self.note(line[len("Note: "):], seen)
        at = _field(said)
        if at is not None:
            kind, part = at
            if not isinstance(seen, Seen):
                sources: Sequence[str] = seen
            elif kind == "Note":
                sources = seen.screen
            elif kind == "text" and seen.fmt == "androidworld" and _ANSWER in line:
                sources = [*seen.notes, *notes(said)] or _COUNTS
            else:
                sources = [seen.task, *seen.notes, *notes(said)]
            tail = '"\n' if kind == "Note" else '"}'
            return self.allowed(part, _escaped(sources), tail)
        if not isinstance(seen, Seen) or not line.startswith("Reason: "):
            return None
        part = line[len("Reason: "):]
        if part.startswith("open_app ") and "open_app " in seen.reasons:
            return None
        ends = [r[len(part):] + "\n" for r in seen.reasons if r.startswith(part)]
        return self.following(ends)

    def note(self, part: str, seen: Seen) -> list[int] | None:
        """Tokens that may follow `part` of an anchored note: the rest of a line's anchor
        (`"Oat Milk" [9] `), then a piece of that line's words; free once closed."""
        m = _ANCHORED.match(part)
        if m is None:
            ends = [a[len(part):] + '"' for a in seen.anchors if a.startswith(part)]
            return self.following(ends) if ends else None
        if _close(m.group(2), 0) is not None:  # the value is closed: free
            return None
        return self.allowed(m.group(2), _escaped(seen.lines.get(int(m.group(1)), [])), '"\n')

    def following(self, ends: Sequence[str]) -> list[int]:
        """Tokens whose text starts one of `ends` (or is all of one)."""
        out: set[int] = set()
        for end in ends:
            for n in range(1, min(len(end), self.longest) + 1):
                out.update(self.ids_of.get(end[:n], ()))
        return sorted(out)

    def allowed(self, part: str, seen: str, tail: str = '"') -> list[int]:
        """Tokens that may follow the free text `part`, given what was seen; a token that
        closes it may go on only with what follows the text (`tail`, from its quote)."""
        out = []
        for i, piece in enumerate(self.pieces):
            # Cheap first (a C substring test): a token that does not close the text adds
            # a piece of it, which must then stand in `seen`; one that closes it holds the
            # quote. Most of the vocabulary fails both.
            if not piece or (piece not in seen and '"' not in piece):
                continue
            text = part + piece
            q = _close(text, len(part))
            if q is None:
                if "\x00" not in text and text in seen and _starts(text, seen):
                    out.append(i)
            elif text[:q].strip() and text[:q] in seen and _whole(text[:q], seen) \
                    and tail.startswith(text[q:]):
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
