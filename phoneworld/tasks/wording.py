"""Picking and filling a template's phrasings: holes, quotes, and the app's words in ours.

    fill("How much is {n}?", {"n": "Oat Milk"}) == "How much is Oat Milk?"
    fill("Open {n}.", {"n": "View source code"}) == "Open “View source code”."
    pick(instruction, instance_id)   -> the same phrasing for the same id

An app's text goes into an instruction as a name where it reads as one, quoted where it
would read as words of ours (`reads_as_words`); `{{` and `}}` are literal braces.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from phoneworld.tasks.sentences import end_mark, tidy

SEPARATOR = " | "
_HOLE = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_]*)\}")

_VERBS = frozenset({"turn", "switch", "enable", "disable", "make", "add", "put", "please",
                    "remove", "take", "delete", "open", "go", "show", "navigate", "press",
                    "get", "first", "what", "how", "which", "when", "find", "look", "tell",
                    "check", "read", "using", "in", "before", "send", "text", "write",
                    "post", "tap", "use", "besides", "search", "fill", "enter", "type",
                    "create", "on", "set", "change", "choose", "select", "start", "bring",
                    "pick", "count"})


def variants(instruction: str) -> list[str]:
    """A template's phrasings."""
    return [v.strip() for v in instruction.split(SEPARATOR) if v.strip()] or [instruction]


def join(phrasings: list[str] | tuple[str, ...]) -> str:
    """Phrasings as one template instruction."""
    return SEPARATOR.join(phrasings)


def pick(instruction: str, key: str) -> str:
    """The phrasing an instance with id `key` uses (always the same for the same id)."""
    vs = variants(instruction)
    h = int.from_bytes(hashlib.sha1(key.encode()).digest()[:4], "big")
    return vs[h % len(vs)]


_STUTTER = re.compile(r"\b((enable|disable)\s+[“\"]?(enable|disable|turn|switch|show|hide|"
                      r"allow|use)|turn (on|off)\s+[“\"]?turn|show me\s+[“\"]?show|"
                      r"open\s+[“\"]?open)\b", re.I)
"""A verb of ours on a label that starts with one ("Disable Enable privileged mode")."""


def pick_filled(instruction: str, key: str, values: dict[str, object]) -> str:
    """`pick`, filled with `values`, among the phrasings that do not stutter when filled
    ("Disable Enable privileged mode" gives way to "Turn off Enable privileged mode");
    the same for the same id."""
    texts = [fill(v, values) for v in variants(instruction)]
    readable = [t for t in texts if not _STUTTER.search(t)] or texts
    h = int.from_bytes(hashlib.sha1(key.encode()).digest()[:4], "big")
    return readable[h % len(readable)]


def fill(template: str, values: dict[str, object]) -> str:
    """`template` with `{p}` holes replaced by values and `{{`/`}}` as braces."""
    def one(m: re.Match[str]) -> str:
        if m.group(0) == "{{":
            return "{"
        if m.group(0) == "}}":
            return "}"
        v = str(values.get(m.group(1), m.group(0)))
        if template[m.start() - 1:m.start()] == "“":
            return v  # typed or sent text: as the checker wants it, spaces and all
        v = v.strip()  # a name: "I have a question about my rating " shows no space
        if reads_as_words(v):
            # A sentence of the app's ("Yes! What time?", a to-do item, "I found an
            # item") inside ours, or a name that reads as words of ours ("Open
            # default."): quoted.
            return f"“{v}”"
        return v
    return tidy(_HOLE.sub(one, template))


@lru_cache(maxsize=1 << 14)  # an app's few thousand texts, filled into every template
def reads_as_words(value: str) -> bool:
    """Whether an app's text reads as words of its own inside an instruction, not as a
    name: a sentence, a name that reads as words of ours ("default", lower case, or
    starting with a verb of ours: "Tap Show last release note to open it", "Switch
    Enable privileged mode off"), a name of several words in sentence case, whose end a
    reader cannot see ("What is written under View source code?", "Go to Select a day
    and time."), or one with brackets, a colon or a dash between spaces, or starting
    with no letter or digit, which would read as words or marks of ours ("与你无关
    (DJ版)", "Starts at: 20:00", "Greenlight Oakland - Edgewater", ".ShortcutActivity")."""
    v = value.strip()
    return is_sentence(v) or v[:1].islower() or any(ch in _BRACKETS for ch in v) or \
        any(f" {d} " in v for d in _DASHES) or \
        not v[:1].isalnum() or (" " in v and v.split(" ", 1)[0].lower() in _VERBS) or \
        any(w[:1].islower() for w in v.split()[1:])


def is_sentence(value: str) -> bool:
    """Whether an app's text is a sentence rather than a name ("Yes! What time?", a to-do
    item "Swipe an item left to delete it", "I found an item"): it ends as one, is long,
    or speaks in the first person."""
    v = value.strip()
    return end_mark(v) != "" or len(v.split()) > _LONG or v.split(" ", 1)[0] in _FIRST_PERSON


_BRACKETS = frozenset("()[]（）【】:：")
_DASHES = ("-", "–", "—")
_FIRST_PERSON = frozenset({"I", "I'm", "I’m", "I've", "I’ve", "I'd", "I’d"})
_LONG = 4
"""Words a value may have and still read as a name inside an instruction."""


def rename_holes(template: str, names: dict[str, str]) -> str:
    """`template` with holes renamed (`{n}` -> `{n2}`), literal braces left alone."""
    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        return m.group(0) if name is None or name not in names else "{" + names[name] + "}"
    return _HOLE.sub(one, template)


def literal(text: str) -> str:
    """Text from an app (a label) made safe inside a template: braces doubled, no `|`."""
    return " ".join(text.replace("{", "{{").replace("}", "}}").replace("|", "/").split())


def words(phrase: str, fill: dict[str, str], **holes: str) -> str:
    """A phrase with its role holes renamed (`{n}` -> the parameter's name), then the app's
    words filled in as literal text: "Go to {screen} and enable “{label}”." with
    {"screen": "Settings", "label": "Wi-Fi"}. A screen's name outside quotes is quoted
    where it reads as words (`reads_as_words`: "Go to “Select a day and time”.")."""
    out = rename_holes(phrase, holes)
    for key, value in fill.items():
        hole = "{" + key + "}"
        named = literal(value)
        if key in _NAMES and (reads_as_words(value) or isinstance(value, Called)):
            quoted = f"“{named}”"
            out = re.sub("(?<!“)" + re.escape(hole), lambda _, q=quoted: q, out)
        out = out.replace(hole, named)
    return tidy(out)


_NAMES = frozenset({"screen", "form"})
"""The holes `words` fills with a screen's name, quoted where it reads as words."""


class Called(str):
    """A screen's name that says what the page asks a person to do, not what the place
    is: its title is also the label of a button on it (qqmusic's page titled 下载QQ,
    "Download QQ", over its 下载QQ button; wikipedia's "Log in" over "LOG IN"). Quoted
    wherever it names the place ("Go to “下载QQ”.", "on the “Log in” screen"), as a name
    that reads as words is; a plain `str` otherwise."""


def lower_first(sentence: str) -> str:
    """`Turn on X.` -> `turn on X` when it starts with one of our own verbs."""
    s = sentence.strip()
    s = s[:-1] if s.endswith(".") else s
    first = s.split(" ", 1)[0]
    if first.lower() in _VERBS:
        return s[:1].lower() + s[1:]
    return s


def starts_with_verb(clause: str) -> bool:
    """Whether a clause starts with one of our own verbs ("set “Font size” to 110%")."""
    return clause.split(" ", 1)[0].lower() in _VERBS


def unplease(clause: str) -> str:
    """A clause without the "please" that opens a request: it goes in the middle of one
    ("... and then add", not "... and then please add")."""
    return clause[len("please "):] if clause.lower().startswith("please ") else clause


def upper_first(s: str) -> str:
    return s[:1].upper() + s[1:]


def holes(template: str) -> list[str]:
    """The parameter names a template's holes use, in order."""
    return [m for m in _HOLE.findall(template) if m]
