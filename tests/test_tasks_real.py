"""Tasks on every shared real app: worded in the app's own words, with verified demos.

Each folder of ../shared/traces/<format>/ is compiled afresh; every instance of every
template must say only what the app shows (no identifier from a resource id or a screen
name, every quoted text one the app shows or the recordings typed), and a sample of
them must get a demo that replays to success.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from phoneworld.compiler import compile_traces
from phoneworld.spec.ast import AppSpec, BoolOp, Const, View
from phoneworld.spec.walk import walk
from phoneworld.tasks import make_demo
from phoneworld.tasks.composite import entered_screens, goal_params, two_rows
from phoneworld.tasks.instances import holes_of
from phoneworld.tasks.labels import (
    MAX_WORDS,
    is_code,
    is_transient,
    label_of,
    picture_names,
    screen_labels,
    unglued,
    web_row_names,
    without_site,
)
from phoneworld.tasks.sample import instances
from phoneworld.tasks.schema import reads
from tests.conftest import SHARED_TRACES

FOLDERS = sorted(p for p in SHARED_TRACES.glob("*/*") if p.is_dir()) \
    if SHARED_TRACES.is_dir() else []
_QUOTED = re.compile(r"“([^”]*)”")
_PLACE = re.compile(r"(?:Go to|Show me|Navigate to the) “([^”]*)”")
_IN_THE_LIST = re.compile(r"\bin the list[.?,;]")
_GO = re.compile(r"(?:Go to|Show me|Navigate to) ")
_IDENTIFIER = re.compile(r"\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b")


def _app_words(spec: AppSpec) -> set[str]:
    """Every text the app holds: its tables' cells and its views' fixed texts (also the
    ones a view chooses between: a switch's "Dimming ON" / "Dimming OFF")."""
    out = {str(v) for t in spec.tables for r in t.rows for v in r if isinstance(v, str)}
    stack: list[View] = [s.root for s in spec.screens]
    pictures = picture_names(spec)
    while stack:
        v = stack.pop()
        out.add(unglued(v, label_of(v), pictures))  # "Leave Now" of its icons' names
        for e in (v.text, v.desc):
            for x in walk(e) if e is not None else ():
                if isinstance(x, Const) and isinstance(x.value, str):
                    out.add(x.value)
        stack.extend(v.children)
    out |= set(web_row_names(spec).values())  # a web row without its icons' names
    return {" ".join(w.split()) for w in out}


@pytest.mark.parametrize("folder", FOLDERS or [None],
                         ids=[f"{p.parent.name}/{p.name}" for p in FOLDERS] or ["none"])
def test_real_app_tasks_use_the_apps_words_and_replay(folder: Path | None, tmp_path):
    if folder is None:
        pytest.skip("../shared/traces is not here")
    (app,) = compile_traces(folder, tmp_path)
    spec = app.spec
    texts = _app_words(spec)
    screens = {s.name for s in spec.screens}
    found = instances(spec)
    for inst in found:
        said = inst.instruction
        for quoted in _QUOTED.findall(said):
            q = " ".join(quoted.split())
            # a switch's text without the state it showed ("Image dimming ... ON"), or
            # the label of a label and its value ("Ends at" of "Ends at: 2023-10-19 ...")
            assert q in texts or {f"{q} ON", f"{q} OFF"} & texts or any(
                t.startswith((f"{q}:", f"{q}：", f"{q} ")) for t in texts), (quoted, said)
        for word in _IDENTIFIER.findall(said):  # an id, unless the app shows it as text
            assert any(word in t for t in texts), (word, said)
            assert word not in screens, (word, said)
    # (#21) A sentence of the app's (a tip, a to-do item) is named as no place.
    for inst in found:
        for place in _PLACE.findall(inst.instruction):
            assert not (place.rstrip()[-1:] in ".!?" or len(place.split()) > MAX_WORDS), \
                inst.instruction
    # A dialog (a window over the screen under it) is opened, never gone to: no
    # navigation to one reads "Go to Language." or "Show me Language.".
    dialogs = {s.name for s in spec.screens if s.window is not None} - {
        t.screen for t in spec.transitions if t.screen == t.target and t.with_param}
    # (a dialog that opens one level deeper from its own rows, a file dialog's folder,
    # is gone into)
    into = {t.name for t in spec.tasks if t.kind == "navigation" and any(
        isinstance(e, Const) and e.value in dialogs for e in walk(t.condition))}
    for inst in found:
        if inst.template in into:
            assert not _GO.match(inst.instruction), inst.instruction
    # A row's number is asked on the screen of its list, not "in the list" (which one?).
    for inst in found:
        assert not _IN_THE_LIST.search(inst.instruction), inst.instruction
    # (#21) No row is called by code (activitylauncher's ".TrampolineActivity") or by a
    # text the recordings typed (uber's "Humanoid", a search's echo).
    params = {t.name: t.params for t in spec.tasks}
    shown = {t.name: holes_of(t) for t in spec.tasks}
    picked = {str(v).casefold() for t in spec.tables if t.name.endswith("_picked_typed")
              for r in t.rows for v in r[1:] if isinstance(v, str)}  # a picker's options
    typed_words = {str(v).casefold() for t in spec.tables if t.name.endswith("_typed")
                   for r in t.rows for v in r[1:] if isinstance(v, str)} - picked
    for inst in found:
        for p in params[inst.template]:
            value = inst.params[p.name]
            if not p.table.endswith("_typed"):  # nor answered by code
                assert not is_code(value), (inst.instruction, value)
            if p.name in shown[inst.template] and not p.table.endswith("_typed"):
                assert str(value).casefold() not in typed_words, inst.instruction
        assert not any(is_code(q) for q in _QUOTED.findall(inst.instruction)), \
            inst.instruction
    # (#21) No composite asks to type one text twice, into two fields.
    for inst in found:
        typed = [inst.params[p.name] for p in params[inst.template]
                 if p.table.endswith("_typed")]
        assert len(typed) == len(set(typed)), inst.instruction
    # (#21) A composite's two goals on rows of one table are on two rows, each named.
    by_name = {t.name: t for t in spec.tasks}
    for inst in found:
        t = by_name[inst.template]
        for table in two_rows(t):
            rows = [tuple(inst.params[p.name] for p in goal if p.table == table and
                          p.name in shown[t.name]) for goal in goal_params(t)]
            assert all(rows) and rows[0] != rows[1], inst.instruction
    # (#21) A place is called by what it is: not by its web site's name ("Legal | Uber"),
    # nor by the app's own name on the launcher icon that opened it ("Duolingo").
    app_name = spec.title or spec.name
    for label, kind in screen_labels(spec).values():
        assert without_site(label, app_name) == label, label
        assert kind == "title" or label.casefold() != app_name.casefold(), label
    # (#21) What the app shows while it loads ("Fetching... Your current location",
    # "Loading") names no row and answers nothing; a paragraph of several lines names
    # nothing either; a list is never named by a button's own words ("in the “Confirm
    # Destination” list": the button that opens its page says what it does).
    buttons = [label for label, kind in screen_labels(spec).values() if kind == "button"]
    for inst in found:
        for value in inst.params.values():
            assert not (isinstance(value, str) and is_transient(value)), inst.instruction
        for p in params[inst.template]:
            if p.name in shown[inst.template] and not p.table.endswith("_typed"):
                assert "\n" not in str(inst.params[p.name]).strip(), inst.instruction
        for label in buttons:
            assert f"“{label}” list" not in inst.instruction, inst.instruction
            assert not re.search(rf"list on “?{re.escape(label)}\b", inst.instruction), \
                inst.instruction
    # (#21) A change, then a page: the page is one some other page opens (not the page
    # the app opened on, which only backing out of everything reaches again).
    entered = entered_screens(spec)
    for t in spec.tasks:
        if t.kind == "composite" and isinstance(t.condition, BoolOp):
            first, second = t.condition.items[0], t.condition.items[-1]
            if "screen" in reads(second) and "screen" not in reads(first) and \
                    "answer" not in reads(first):
                pages = {x.value for x in walk(second) if isinstance(x, Const)} & screens
                assert pages <= entered, t.name
    sample = random.Random(0).sample(found, min(4, len(found)))
    for inst in sample:
        demo = make_demo([spec], inst)
        assert demo is not None and demo.verified, inst.instruction
