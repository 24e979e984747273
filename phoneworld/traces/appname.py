"""An app's name as people see it (on the launcher, in task wording), from its traces.

    launcher row "Duolingo" tapped, then com.duolingo shows   -> "Duolingo" (launcher)
    de.szalkowski.activitylauncher shows "Activity Launcher"   -> "Activity Launcher" (shown)
    co.spoonme, no text that spells it                          -> "Spoonme" (package)

In the order of how sure it is:

1. **launcher**: the text of the row tapped on another app's screen (a launcher, an app
   drawer) right before the app came to the front, a word of it spelling a part of the
   package (as in 2);
2. **shown**: a name the app shows that spells a part of its package, letters and digits
   alone, case aside ("Activity Launcher" for `activitylauncher`, "AJShA" out of "AJShA
   Android Java Shell App" for `ajsha`), or the start of one ("Uber" for `ubercab`):
   written as a name (not lower case), one to four words of a title or a label (a text
   of at most five words: a name inside running text, a company in a licence, is not
   the app's) on two observations or more, or once as a view's whole text; the whole
   part before its start, then the most often shown (its spellings together, one not in
   capitals before one in capitals), then the first;
3. **package**: the package's last part that is not a build's flavour (`dev`, `debug`),
   one the app's activities or view classes also name where there is one ("Skype" for
   `com.skype.raider`, whose views are `com.skype.android...`), capitalised ("Spoonme"
   for `co.spoonme`: words run together stay so), the report saying so;
4. the folder's name, where the traces name no package, and for phoneworld's own
   recordings (whose folders are named by whoever recorded the app) where no launcher
   row opened it: 2 and 3 are not tried there.

Trace text is data: a name is cut to `_LONGEST` characters and never holds a line break.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from phoneworld.traces.model import Trace

_FLAVOURS = frozenset({"dev", "debug", "beta", "alpha", "free", "pro", "lite", "app",
                       "android", "mobile", "client", "release", "internal", "nightly"})
"""Package parts that name a build or the platform, not the app (`org.wikipedia.dev`)."""
_OWNERS = frozenset({"com", "org", "net", "io", "de", "co", "me", "app", "github",
                     "gitlab", "android", "google"})
"""Package parts that name where the code lives, never the app."""
_LONGEST = 40
_WORDS = 4
_LEAST = 3
"""A shown name spells at least this many letters and digits of a package part."""
_TWICE = 2
"""A shown name is seen on at least this many observations, or as the whole text of a
view (a logo, a title) once."""
_SQUASH = re.compile(r"[\W_]+")
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def app_title(traces: Sequence[Trace], folder: str) -> tuple[str, str]:
    """(the app's name, how it was found: "launcher", "shown", "package" or "folder")."""
    if not traces:
        return folder, "folder"
    package = Counter(t.app for t in traces).most_common(1)[0][0]
    name = _launcher_row(traces, package)
    if name:
        return name, "launcher"
    if all(t.format == "phoneworld" for t in traces):
        return folder, "folder"
    for how, name in (("shown", _shown_name(traces, package)),
                      ("package", _from_package(package, traces))):
        if name:
            return name, how
    return folder, "folder"


def _launcher_row(traces: Sequence[Trace], package: str) -> str:
    """The text of the row tapped on another app's screen right before the app showed,
    where a word of it spells a part of the package (a launcher's "Duolingo", not a
    permission dialog's "CONTINUE")."""
    for t in traces:
        for s in t.steps:
            before = t.observations[s.before]
            after = t.observations[s.after] if s.after is not None else None
            if s.action.kind != "tap" or not before.foreign or before.root is None or \
                    after is None or after.foreign or after.root is None or \
                    s.action.target is None:
                continue
            try:
                node = before.root.at(s.action.target)
            except (IndexError, LookupError):
                continue
            name = _clean(node.text or node.content_desc or _inner_text(node))
            if name and _spells_part(name, package):
                return name
    return ""


def _spells_part(name: str, package: str) -> bool:
    """Whether a word of `name` spells a part of `package` or the start of one ("Uber"
    of "Uber Driver" for `com.ubercab.driver`), case and marks aside."""
    parts = [p.lower() for p in package.split(".")[1:]]
    for w in name.split():
        w = _SQUASH.sub("", w).lower()
        if len(w) >= _LEAST and any(p == w or (len(w) > _LEAST and p.startswith(w))
                                    for p in parts):
            return True
    return False


def _inner_text(node) -> str:
    """The one text inside a tapped row (an icon and its label), else ""."""
    texts = [n.text or n.content_desc for _, n in node.walk() if n.text or n.content_desc]
    return texts[0] if len(texts) == 1 else ""


def _shown_name(traces: Sequence[Trace], package: str) -> str:
    """The name the app's own screens show for a part of its package (see the module)."""
    parts = [p.lower() for p in package.split(".")[1:] if p.lower() not in _OWNERS]
    if not parts:
        return ""
    seen: Counter[str] = Counter()
    first: dict[str, int] = {}
    for t in traces:
        for o in t.observations:
            if o.foreign or o.root is None:
                continue
            here: dict[str, int] = {}
            for _, node in o.root.walk():
                for text in (node.text, node.content_desc):
                    whole = _clean(_EDGE.sub("", text))
                    for name in _spans(text):
                        here[name] = max(here.get(name, 0), _TWICE if name == whole else 1)
            for name in sorted(here):
                seen[name] += here[name]
                first.setdefault(name, len(first))
    spelt: Counter[str] = Counter()
    for name, n in seen.items():
        spelt[_SQUASH.sub("", name).lower()] += n
    best: tuple | None = None
    for name in seen:
        squashed = _SQUASH.sub("", name).lower()
        if spelt[squashed] < _TWICE:
            continue  # once, in a footer ("Tencent. All Rights Reserved."): not its name
        for p in parts:
            whole = squashed == p
            if not whole and not (len(squashed) >= _LEAST + 1 and p.startswith(squashed)):
                continue
            key = (not whole, -spelt[squashed], name.isupper(), -seen[name], first[name])
            if best is None or key < best[0]:
                best = (key, name)
    return best[1] if best else ""


def _spans(text: str) -> list[str]:
    """Runs of one to `_WORDS` words of a title or label, written as a name (not lower
    case); none of running text."""
    words = [_EDGE.sub("", w) for w in text.split()]
    if len(words) > _WORDS + 1:
        return []
    out = []
    for i, w in enumerate(words):
        if not w or w[:1].islower():
            continue
        for j in range(i + 1, min(len(words), i + _WORDS) + 1):
            if not words[j - 1]:
                break
            name = _clean(" ".join(words[i:j]))
            if len(_SQUASH.sub("", name)) >= _LEAST:
                out.append(name)
    return out


def _from_package(package: str, traces: Sequence[Trace]) -> str:
    """The package's last part that names the app, capitalised ("Spoonme"): of those
    that are no owner's or flavour's, the last one the app's activities or view classes
    also name (`com.skype.raider` runs `com.skype.android...`: "Skype"), else the last."""
    parts = [p for p in package.split(".")[1:] if p.isidentifier()]
    named = [p for p in parts if p.lower() not in _FLAVOURS | _OWNERS]
    spaces: set[str] = set()
    for t in traces:
        for o in t.observations:
            if o.foreign or o.root is None:
                continue
            spaces.update(o.activity.rsplit("/", 1)[-1].split("."))
            spaces.update(x for _, n in o.root.walk() for x in n.class_name.split(".")[:-1])
    last = ([p for p in named if p in spaces] or named or parts or [""])[-1]
    last = last.replace("_", " ").strip()
    head = _shown_head(last, traces)
    if head and len(last) - len(head) >= _LEAST:  # "QQ" shown, "music" the rest
        return _clean(f"{head} {last[len(head)].upper()}{last[len(head) + 1:]}")
    return _clean(head + last[len(head):] if head else last[:1].upper() + last[1:])


_CAPITALS = re.compile(r"(?<![A-Za-z])[A-Z0-9]*[A-Z][A-Z0-9]*(?![A-Za-z])")


def _shown_head(part: str, traces: Sequence[Trace]) -> str:
    """The longest start of a package part (two letters or more) that the app's own
    screens show as a word of capitals on `_TWICE` observations or more (qqmusic's "QQ"
    in QQ好友, 下载QQ: `com.tencent.qqmusic` is "QQ Music" where it shows no name of
    its own), written so; "" for none."""
    seen: Counter[str] = Counter()
    for t in traces:
        for o in t.observations:
            if o.foreign or o.root is None:
                continue
            seen.update({w for _, n in o.root.walk() for x in (n.text, n.content_desc)
                         for w in _CAPITALS.findall(x or "")
                         if len(w) >= 2 and part.lower().startswith(w.lower())})
    heads = [w for w, n in seen.items() if n >= _TWICE]
    return max(heads, key=lambda w: (len(w), w)) if heads else ""


def _clean(text: str) -> str:
    """A name as one line of at most `_LONGEST` characters, "" for none."""
    s = " ".join(text.split())
    return s if 0 < len(s) <= _LONGEST else ""
