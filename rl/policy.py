"""The policy's input and output: one chat prompt per step, one action per reply.

    messages(instruction, elements, history, fmt="androidworld")
      -> [{"role": "system", ...},
          {"role": "user", "content": 'Task: Open Cart.\\nScreen:\\n[0] TextView "Corner
              Shop"\\n[1] ImageButton desc="Search" id=action_search clickable\\n...\\n'
              'Previous steps:\\nopen_app "shopping"'}]
    reply({"action_type": "click", "index": 7}, "androidworld")
      -> '{"action_type": "click", "index": 7}'
    read_action('Action: {"action_type": "click", "index": 7}', "androidworld", 1080, 2400)
      -> {"action_type": "click", "index": 7}
    read_action("I think I'm done", ...) -> None      # an invalid step, never an exception

Every step's prompt stands alone (task, notes, current screen, the last k steps), so
the context stays bounded however long the episode. Notes are the agent's memory: a reply
may start with `Note: "Brightness" [4] "60%"` (a value read on this screen, after the line
it stands on) and every later prompt of the episode lists it, so a value found in one app
can be typed or answered in another. The
PhoneBuddy format shows each element's centre on the 0-1000 grid and answers with a
`<tool_call>`; AndroidWorld answers with JSON and element indices. Screens are cut at
`MAX_SCREEN_CHARS`.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

FORMATS = ("androidworld", "phonebuddy")
MAX_SCREEN_CHARS = 4000
MAX_NOTES = 4  # the latest notes a prompt shows
HISTORY = 6  # the previous steps a prompt lists
_FLAGS = ("clickable", "editable", "scrollable")
HINTS = True  # mark screen lines that share words with the task (see `screen_text`)
MAX_MARKS = 3
# Words too common in task wordings to point at anything on a screen.
_STOP = frozenset("""a an the and or of to in on at for from with by is it its me my you
your this that then there what when how many much does do say says tell answer reply after
before first finally end using look check find found up out please make sure show shown
read written under""".split())

SYSTEM = {
    "androidworld": "You operate an Android phone. Reply with one action as JSON: click, "
                    "long_press, input_text, scroll, navigate_back, open_app, answer or "
                    "status, with an element index where one is needed.",
    "phonebuddy": "You operate an Android phone. Reply with one tool call: click, type, "
                  "scroll, button_press, open_app, output or finish; points are on a "
                  "0-1000 grid.",
}


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown action format {fmt!r}; choose from {', '.join(FORMATS)}")


def screen_text(elements: Sequence[Mapping[str, Any]], fmt: str = "androidworld",
                width: int = 1080, height: int = 2400, task: str = "") -> str:
    """The element list as compact lines: label, index, flags, the other words (and, for
    PhoneBuddy, the centre on the 0-1000 grid).

    A line starts with its label, the words a reason names it by (see `why`), with the
    index right after it (`"Bakery" [6] clickable "4 products"`): a reply that has
    written `click "Bakery" [` finds the index where the same words stood on the screen,
    a plain copy. The words of a plain text element inside a clickable one are folded
    into the clickable one's line, so what to tap and what it says sit together and the
    prompt stays short. A line without words is labelled by its id (`id=results`).
    With `task` (and `HINTS` on), a line that shares words with it starts with a `*` per
    shared word, up to `MAX_MARKS` (`** "Oat Milk" [9]` for "Remove Oat Milk"): the
    match a policy would otherwise have to learn to make, made for it; the words are those
    that can name something (`keywords`: no "the", "what", "tell" ...). A row of a list
    carries its place in the list as the screen shows it (`#3`, see `Line.row`), so "at
    which position is X?" and "which entry is number 3?" are read off the screen, as a
    person counts them, not guessed.
    """
    _check(fmt)
    out, size = [], 0
    wanted = keywords(task) if HINTS else set()
    for line in screen_lines(elements):
        parts = [marks(wanted, [json.loads(w) for w in line.words]), line.label,
                 f"[{line.index}]", *line.flags, f"#{line.row}" if line.row else "",
                 *line.words[1:]]
        if fmt == "phonebuddy" and len(line.bounds) == 4:
            b = line.bounds
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            parts.append(f"@{round(cx * 1000 / max(width, 1))},"
                         f"{round(cy * 1000 / max(height, 1))}")
        text = " ".join(p for p in parts if p)
        size += len(text) + 1
        if size > MAX_SCREEN_CHARS:
            out.append("...")
            break
        out.append(text)
    return "\n".join(out)


@dataclass
class Line:
    """One line of a screen's text (`screen_text`): an element, with the words of the plain
    texts folded into it."""

    index: int
    bounds: list[int]
    flags: list[str]
    words: list[str]  # JSON-quoted
    rid: str
    row: int | None = None  # its place among the rows of the list it stands in (`_rows`)
    first: int = 1  # a list's: the place of its first row shown (`PLACE`; 0: unknown)

    @property
    def label(self) -> str:
        """The words a reason names the line by: its first words, else its id."""
        if self.words:
            return self.words[0]
        return f"id={self.rid}" if self.rid else ""


def screen_lines(elements: Sequence[Mapping[str, Any]]) -> list[Line]:
    """The screen's lines: one per element, except plain text inside a clickable, whose
    words join the clickable's line."""
    lines: list[Line] = []
    open_: list[Line] = []  # the enclosing clickables
    for i, e in enumerate(elements):
        b = list(e.get("bounds") or [0, 0, 0, 0])
        while open_ and not _inside(b, open_[-1].bounds):
            open_.pop()
        words = [json.dumps(str(w), ensure_ascii=False) for w in element_words(e)]
        flags = [f for f in _FLAGS if e.get(f)]
        if e.get("checkable"):
            flags.append("checked" if e.get("checked") else "unchecked")
        if open_ and not flags:
            open_[-1].words.extend(w for w in words if w not in open_[-1].words)
            continue
        rid = str(e.get("resource_id") or "").rsplit(":id/", 1)[-1]
        lines.append(Line(int(e.get("index", i)), b, flags, words, rid,
                          first=int(e.get(PLACE, 1))))
        if e.get("clickable"):
            open_.append(lines[-1])
    _rows(lines)
    return lines


def _rows(lines: Sequence[Line]) -> None:
    """Number the rows of each list on the screen from the place of its first row shown
    (`Line.first`: 1, unless `carry_places` carried it over a scroll; 0 leaves the list
    unnumbered, its place unknown)."""
    for lst, rows in _lists(lines):
        if lst.first > 0:
            for n, r in enumerate(rows, lst.first):
                r.row = n


def _lists(lines: Sequence[Line]) -> list[tuple[Line, list[Line]]]:
    """Each list on the screen with its rows, top to bottom.

    A list is a scrollable line; its rows are the clickable lines it holds (each with the
    texts folded into it), not those inside a nearer list or another row, when they stand
    one under the other (a button floating over them is none): a strip of tabs side by
    side is no list a person counts, and lists whose rows are plain texts are left out
    (two texts of one row would count twice). A list needs two rows."""
    lists = [ln for ln in lines if "scrollable" in ln.flags and len(ln.bounds) == 4]
    if not lists:
        return []
    held: dict[int, list[Line]] = {}
    for ln in lines:
        if "clickable" not in ln.flags or ln in lists:
            continue
        around = [c for c in lists if _inside(ln.bounds, c.bounds)]
        if around:
            inner = min(around, key=lambda c: _area(c.bounds))
            held.setdefault(id(inner), []).append(ln)
    out = []
    for lst in lists:
        rows = held.get(id(lst), [])
        rows = [r for r in rows if not any(o is not r and _inside(r.bounds, o.bounds)
                                           for o in rows)]
        # a button floating over the rows (Messages' "Start chat") is none of them
        rows = [r for r in rows if not any(_area(o.bounds) > _area(r.bounds) and
                                           _overlap(r.bounds, o.bounds) for o in rows)]
        stacked = all(b.bounds[1] >= a.bounds[3] - 2 for a, b in itertools.pairwise(rows))
        if len(rows) >= 2 and stacked:
            out.append((lst, rows))
    return out


PLACE = "place_from"
"""An element's key (a list's) set by `carry_places`: the place of its first row shown."""

Shown = dict[str, tuple[int, tuple[str, ...]]]
"""What a screen's lists showed: per list (its label), the place of its first row shown
and its rows' labels, top to bottom."""


def carry_places(elements: Sequence[Mapping[str, Any]], before: Shown | None = None
                 ) -> tuple[list[Mapping[str, Any]], Shown]:
    """A step's elements with each list's places carried over the scroll before it, and
    what its lists show now (for the next step).

    A person counts a list's rows from its top and keeps counting as it scrolls: where
    the step before was a scroll (`before`, that step's `Shown`) and a list's rows shown
    now overlap those it showed then (the same labels in the same order), its first row
    shown takes its place from them ("Diego Ramirez", #5 before a scroll, is #5 at the
    top after it); a list scrolled out of every row it showed has no known place (0:
    unnumbered). Without `before` (the first step, or one after a tap), a list's first row
    shown is 1. Only the lists' elements change (`PLACE`); the others are the same
    objects."""
    lines = screen_lines(elements)
    out = list(elements)
    now: Shown = {}
    at = {int(e.get("index", i)): i for i, e in enumerate(elements)}
    for lst, rows in _lists(lines):
        labels = tuple(r.label for r in rows)
        first = 1
        if before and lst.label in before:
            was_first, was = before[lst.label]
            first = _aligned(was_first, was, labels) or 0
        now[lst.label] = (first, labels)
        if first != 1 and lst.index in at:
            out[at[lst.index]] = {**elements[at[lst.index]], PLACE: first}
    return out, now


def _aligned(first: int, was: Sequence[str], labels: Sequence[str]) -> int | None:
    """The place of `labels[0]` where a list showed `was` from place `first`: the shift
    with the most rows in common, all of them the same (the nearest on a tie)."""
    best: tuple[int, int] | None = None  # (rows in common, -|shift|)
    place = None
    for d in range(-(len(labels) - 1), len(was)):
        pairs = [(labels[j], was[j + d]) for j in range(len(labels)) if 0 <= j + d < len(was)]
        if not pairs or first + d < 1 or any(a != b for a, b in pairs):
            continue
        score = (len(pairs), -abs(d))
        if best is None or score > best:
            best, place = score, first + d
    return place


def reads(elements: Sequence[Mapping[str, Any]], task: str, value: str) -> bool:
    """Whether the screen shows the number `value` where the task points: whole among
    the words of a line that shares words with the task ("Fruit & Vegetables" … "7
    products" for "how many products…?"), or as the place (`#3`) of the list row that
    shares the most ("at which position is Bakery?"). A number shown on a line the task
    does not name (a cart's badge "2") is not what it asked."""
    wanted = keywords(task)
    whole = whole_word(value)
    scored = [(shared_words(wanted, [json.loads(w) for w in ln.words]), ln)
              for ln in screen_lines(elements)]
    if any(n and any(whole.search(json.loads(w)) for w in ln.words) for n, ln in scored):
        return True
    best = max((n for n, ln in scored if ln.row), default=0)
    return best > 0 and any(n == best and str(ln.row) == value for n, ln in scored if ln.row)


def named_rows(lines: Sequence[Line], task: str) -> list[Line] | None:
    """The lines a note may read where the task names rows of a list, else None.

    A row is named when every word of its label that can name something is the task's
    ("Tortilla Chips" for "How much does Tortilla Chips cost?", not "Sea Salt Potato
    Chips"). When some rows are named and no line outside a list shares more words with
    the task than they do (`marks`' stars), what the task asks about stands on a named
    row (its words, the lines inside it such as its switch, its place `#n`), not on the
    row beside it: those are returned (all of them: a composite may name two). Elsewhere
    (a detail screen, whose title names the product above the price on another line)
    None: the whole screen. Of the 1,671 notes of the seed-0 demos, 993 are written where
    this applies and 985 (99.2%) copy a named row's words or place; the 8 others read a
    row the task names by its place in another list ("which entry is number 13 in the
    list on Contacts") or a price a clipped row does not show."""
    wanted = keywords(task) if HINTS else set()
    if not wanted:
        return None
    scored = [(shared_words(wanted, [json.loads(w) for w in ln.words]), ln) for ln in lines]
    named = [(n, ln) for n, ln in scored if n and ln.row
             and set() < keywords(json.loads(ln.words[0])) <= wanted]
    if not named or any(n > max(m for m, _ in named) for n, ln in scored if not ln.row):
        return None
    rows = [ln for _, ln in named]
    return [ln for ln in lines if ln in rows or any(
        len(ln.bounds) == 4 and _inside(ln.bounds, r.bounds) for r in rows)]


def names_something(lines: Sequence[Line], task: str) -> bool:
    """Whether a line of the screen shares a word with the task (a `*` hint), or the
    task has no word that can name anything."""
    wanted = keywords(task)
    return not wanted or any(shared_words(wanted, [json.loads(w) for w in ln.words])
                             for ln in lines)


_PLACE_WORDS = re.compile(r"(?<!\w)(?:number|position|no\.)\s+(\d+)(?![\w.,-]\d|\w)", re.I)


def named_places(task: str) -> set[int]:
    """The places in a list the task names ("entry number 4", "at position 5"): the
    rows a person counts to, whose `#4` a note of the row's name is read beside."""
    return {int(n) for n in _PLACE_WORDS.findall(task)}


def whole_word(value: str) -> re.Pattern[str]:
    """A pattern finding `value` whole in a text: not "1" inside "12 oz" or "1.5"."""
    return re.compile(r"(?<![\w.])" + re.escape(value) + r"(?![\w])")


def keywords(text: str) -> set[str]:
    """The words of `text` that can name something on a screen (lower case)."""
    return {w for w in re.findall(r"[^\W_]+", text.lower()) if len(w) > 1 and w not in _STOP}


def shared_words(wanted: set[str], words: Sequence[str]) -> int:
    """How many of the keywords `wanted` a line's words (unquoted) hold."""
    return len(wanted & {k for w in words for k in keywords(w)})


def marks(wanted: set[str], words: Sequence[str]) -> str:
    """A line's `*` hints: one per keyword of the task it holds, up to `MAX_MARKS`."""
    return "*" * min(shared_words(wanted, words), MAX_MARKS)


def element_words(e: Mapping[str, Any]) -> list[str]:
    """An element's words: its text, then its description when that says something else."""
    text = str(e.get("text") or "")
    desc = str(e.get("content_desc") or "")
    return [w for w in (text, desc if desc != text else "") if w]


def _area(b: Sequence[int]) -> int:
    return (b[2] - b[0]) * (b[3] - b[1])


def _overlap(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether two boxes share some area."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _inside(b: Sequence[int], outer: Sequence[int]) -> bool:
    return (len(b) == 4 and len(outer) == 4 and outer[0] <= b[0] and b[2] <= outer[2]
            and outer[1] <= b[1] and b[3] <= outer[3])


def reply(action: Mapping[str, Any], fmt: str = "androidworld", *,
          elements: Sequence[Mapping[str, Any]] | None = None, width: int = 1080,
          height: int = 2400, reason: bool = False,
          note: Sequence[str | tuple[str, str]] = ()) -> str:
    """The text the policy should write for `action` (an AndroidWorld action dict).

    With `reason`, the action is preceded by a one-line reason naming what it acts on
    (`Reason: click "Bakery"`), M3A's "Reason: ... Action: ..." form: the model first
    writes the words it is after, copied from the task, then finds them on the screen,
    which is easier to learn than jumping from the task to an index in one token.
    `note` puts what the agent read on this screen first (`Note: "60%"`; an (anchor,
    value) pair as `Note: "Brightness" [4] "60%"`, see `anchor`): the prompts
    of the later steps show it under `Notes:` (see `notes`), so a value found in one app
    can still be typed or answered screens later.
    """
    from phoneworld.runtime.actions import Action

    _check(fmt)
    # Canonical key order, so a demo's history and a rollout's read the same.
    a = Action.parse(dict(action)).as_dict()
    a = {k: v for k, v in a.items() if v is not None}
    if fmt == "androidworld":
        text = json.dumps(a, ensure_ascii=False)
    else:
        from phoneworld.agent.formats import to_phonebuddy

        call = to_phonebuddy(a, width, height, elements=elements)
        text = "<tool_call>" + json.dumps(call, ensure_ascii=False) + "</tool_call>"
    head = "".join(f"Note: {_note(n)}\n" for n in note)
    if not reason:
        return head + text
    return f"{head}Reason: {why(a, elements or (), index=True)}\nAction: {text}"


def _note(n: str | tuple[str, str]) -> str:
    """A note's text: its value quoted, after its line's anchor when it has one."""
    if isinstance(n, tuple):
        return f"{n[0]} {json.dumps(str(n[1]), ensure_ascii=False)}"
    return json.dumps(str(n), ensure_ascii=False)


# One JSON string (escapes included), as notes and replies quote values.
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def notes(text: str) -> list[str]:
    """The values a reply notes, in order: the last quoted text of each `Note:` line
    (`Note: "8 oz"`, or anchored to its line, `Note: "BBQ Potato Chips" [9] "8 oz"`);
    malformed ones are skipped."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("Note:"):
            continue
        rest = line[5:].strip()
        quoted = QUOTED.findall(rest)
        if not quoted or not rest.endswith(quoted[-1]):
            continue
        try:
            value = json.loads(quoted[-1])
        except ValueError:
            continue
        if isinstance(value, str) and value:
            out.append(value)
    return out


ANCHORED = False  # on: a demo's note names the line it read the value on (`anchor`)


@contextmanager
def anchoring(on: bool) -> Iterator[None]:
    """`ANCHORED` set to `on` while the block runs (a run's `anchored` setting: the demos
    it writes and the grounding its plays use), then as it was."""
    global ANCHORED
    was, ANCHORED = ANCHORED, bool(on)
    try:
        yield
    finally:
        ANCHORED = was


def anchor(elements: Sequence[Mapping[str, Any]], value: str, task: str = "") -> str | None:
    """The anchor of a note of `value`: the label and index of the screen line that shows
    it (`"BBQ Potato Chips" [9]`), of those that do the one sharing most words with the
    task (the first on a tie), as `screen_text` writes them; None when no labelled line
    shows it whole. A policy that names the line first copies the value from that line,
    not from another row that happens to be near it."""
    whole = whole_word(value)
    wanted = keywords(task)
    best, hits = None, -1
    for line in screen_lines(elements):
        words = [json.loads(w) for w in line.words]
        if not words or not any(whole.search(w) for w in words):
            continue
        n = shared_words(wanted, words)
        if n > hits:
            best, hits = f"{line.label} [{line.index}]", n
    return best


def why(action: Mapping[str, Any], elements: Sequence[Mapping[str, Any]], *,
        index: bool = False, lines: Sequence[Line] | None = None) -> str:
    """A short reason for `action`: its type and the label of the screen line it acts on
    (the app, for `open_app`); with `index`, that line's index after it, as the screen
    shows them (`click "Bakery" [6]`). `lines` are the screen's `screen_lines`, when the
    caller has them already."""
    kind = str(action.get("action_type"))
    if kind == "scroll":
        kind += " " + str(action.get("direction") or "down")
    if kind == "open_app" and action.get("app_name"):
        return f"{kind} {json.dumps(str(action['app_name']), ensure_ascii=False)}"
    i = action.get("index")
    if i is None and action.get("x") is not None and action.get("y") is not None:
        i = under(elements, action["x"], action["y"])
    if i is None or not 0 <= int(i) < len(elements):
        return kind
    i = int(i)
    found = [ln for ln in (screen_lines(elements) if lines is None else lines)
             if ln.index == i]
    if found:
        label = found[0].label
    else:  # text folded into a clickable's line: its own words
        label = next((json.dumps(w, ensure_ascii=False) for w in element_words(elements[i])),
                     "")
    where = f" [{i}]" if index else ""
    return f"{kind} {label}{where}" if label else f"{kind}{where}"


def step_line(action: Mapping[str, Any] | None, elements: Sequence[Mapping[str, Any]],
              said: str = "") -> str:
    """How later prompts list a step: what it did and to what (`click "Bakery"`,
    `input_text "Search" "milk"`), as M3A's step summaries do, since an index means
    nothing once its screen is gone. A reply that named no action is listed as it was
    written (`said`, cut short)."""
    if action is None:
        return "invalid: " + " ".join(said.split())[:60]
    line = why(action, elements)
    if action.get("action_type") == "input_text":
        line += " " + json.dumps(str(action.get("text") or ""), ensure_ascii=False)
    return line


def under(elements: Sequence[Mapping[str, Any]], x: float, y: float) -> int | None:
    """The index of the smallest element whose bounds hold the point, if any."""
    best, area = None, None
    for i, e in enumerate(elements):
        b = e.get("bounds")
        if not b or len(b) != 4 or not (b[0] <= x <= b[2] and b[1] <= y <= b[3]):
            continue
        size = _area(b)
        if area is None or size < area:
            best, area = int(e.get("index", i)), size
    return best


def messages(instruction: str, elements: Sequence[Mapping[str, Any]],
             history: Sequence[str] = (), fmt: str = "androidworld", *, k: int = HISTORY,
             width: int = 1080, height: int = 2400, noted: Sequence[str] = (),
             task_last: bool = False) -> list[dict[str, str]]:
    """The chat prompt of one step: the task, what the agent noted so far (every step's
    notes, however long ago), the screen, and the last `k` steps (`step_line`s).

    With `task_last` the task line closes the prompt instead of opening it, next to the
    reply: the tiny model's first reply token then finds the task a few dozen positions
    back rather than a whole screen back (the same lines and hints otherwise)."""
    _check(fmt)
    user = "" if task_last else f"Task: {instruction}\n"
    if noted:
        user += "Notes: " + " ".join(json.dumps(str(n), ensure_ascii=False)
                                     for n in list(noted)[-MAX_NOTES:]) + "\n"
    user += f"Screen:\n{screen_text(elements, fmt, width, height, instruction)}"
    recent = list(history)[-k:] if k > 0 else []
    user += "\nPrevious steps:\n" + ("\n".join(recent) if recent else "none")
    if task_last:
        user += f"\nTask: {instruction}"
    return [{"role": "system", "content": SYSTEM[fmt]}, {"role": "user", "content": user}]


def read_action(text: str, fmt: str = "androidworld", width: int = 1080,
                height: int = 2400) -> dict[str, Any] | None:
    """The AndroidWorld action `text` asks for, or None when it names no valid action.

    Tolerant of either format whatever `fmt` is, and of the noise models add (prose,
    fences, `<think>` blocks); it never raises.
    """
    from phoneworld.agent.parse import parse_action

    try:
        return parse_action(text, width=width, height=height)
    except Exception:  # an invalid step, whatever went wrong in reading it
        return None
