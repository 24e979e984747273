"""Questions about texts a pattern tells apart: an email address, a web address, a version.

    aeondroid's About dialog shows "Version 1.0.3", "https://github.com/phora/AeonDroid"
    and "phora.public@outlook.com", each the only one of its form there
      ->  task ask_email_main_about_aeon information
              "What email address does About AeonDroid give? | ..."
              { answer ~ "phora.public@outlook.com" }
          task ask_version_main_about_aeon information
              "Which version does About AeonDroid show? | ..."
              { answer ~ "Version 1.0.3" or answer ~ "1.0.3" }

A label names no such text (an About page lists them under no heading), but its form says
what it is, in any language: `name@host.tld`, `https://host.tld`, `www.host.tld` or
`host.tld/...` (a file's `notes.txt` is none), and a version number of three parts or
more ("1.0.3", "v2.7.50330-dev") alone or after one word.
Only fixed texts of the app's own screens a person gets to, outside lists, no field; the
screen is named by its label (`labels`), or, where the app shows one text of that form
in all, by none ("What email address does the app give?"). A screen that shows two texts
of one form asks about neither.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from phoneworld.spec.ast import AppSpec, BoolOp, Compare, Const, Ref, Task
from phoneworld.spec.walk import own_root
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.browse import Template
from phoneworld.tasks.labels import const_text, fixed_texts
from phoneworld.tasks.reach import Reach

_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}$")
_WEB = re.compile(r"^(https?://)?[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(/\S*)?$")
_VERSION = re.compile(r"^(\S+\s)?(v?(\d+(\.\d+){2,3})([-+.~][\w.-]*)?)$", re.I)
_MAX_CHARS = 80
"""A longer text is a link to read no one asks about (a search's whole query)."""
FORMS = ("email", "web", "version")


def form_of(text: str) -> tuple[str, str] | None:
    """(form, the part of it a person may answer with alone) for a text of a known form:
    ("version", "1.0.3") for "Version 1.0.3"; None for any other text."""
    t = text.strip()
    if len(t) > _MAX_CHARS:
        return None
    if _EMAIL.match(t):
        return "email", t
    if _WEB.match(t) and (t.startswith(("http", "www.")) or "/" in t):  # not "notes.txt"
        return "web", re.sub(r"^https?://(www\.)?", "", t).rstrip("/")
    m = _VERSION.match(t)
    if m and (m.group(1) is None or any(ch.isalpha() for ch in m.group(1))) and \
            not _date_or_address(m.group(3), bool(m.group(5))):
        return "version", m.group(3)
    return None


def _date_or_address(number: str, suffix: bool) -> bool:
    """Whether dotted numbers are a date ("13.10.2022", "2022.10.13") or an IP address
    ("104.28.217.50"), not a version."""
    parts = number.split(".")
    if len(parts) == 3 and any(len(p) == 4 and p[:2] in ("19", "20") for p in parts[::2]) \
            and len(parts[1]) <= 2:
        return True
    return len(parts) == 4 and not suffix and all(int(p) <= 255 for p in parts)


def form_questions(spec: AppSpec, labels: dict[str, str], reach: Reach) -> Iterator[Template]:
    """One question per (screen, form) where the screen shows one text of that form
    (see the module docstring); `labels` names the screens."""
    found: list[tuple[str, str, str, str]] = []  # (screen, form, text, short form)
    for s in spec.screens:
        if s.foreign or s.name not in reach.screens:
            continue
        here: dict[str, list[tuple[str, str]]] = {}
        for v in fixed_texts(own_root(s)):  # (a dialog's own, not the page under it)
            text = const_text(v.text)
            got = form_of(text) if "editable" not in v.flags else None
            if got is not None and reach.anywhere(text):
                here.setdefault(got[0], []).append((text, got[1]))
        for form, texts in sorted(here.items()):
            if len({t for t, _ in texts}) == 1:
                found.append((s.name, form, *texts[0]))
    in_app: dict[str, set[str]] = {}
    for _, form, text, _ in found:
        in_app.setdefault(form, set()).add(text)
    for screen, form, text, short in found:
        where = labels.get(screen, "")
        if not where and len(in_app[form]) > 1:
            continue  # which of the app's addresses: no words to say it
        questions, obj = P.FORM_ON[form] if where else P.FORM_ANYWHERE[form]
        fill = {"screen": where}
        said = [Compare("~", Ref(("answer",)), Const(x)) for x in dict.fromkeys((text, short))]
        task = Task(name=f"ask_{form}_{screen}", kind="information",
                    instruction=W.join([W.words(q, fill) for q in questions]),
                    condition=said[0] if len(said) == 1 else BoolOp("or", tuple(said)))
        yield Template(task, asks=W.words(obj, fill), screen=screen)
