"""How an instruction ends where it quotes the app's words at its end (`sentences`), and
everyone who decides it asks that one module."""

from __future__ import annotations

import dataclasses

from phoneworld.tasks import wording as W
from phoneworld.tasks.crossapp import on_phone
from phoneworld.tasks.labels import _not_a_place
from phoneworld.tasks.sample import instances
from phoneworld.tasks.sentences import close, end_mark, is_question, open_end, tidy


def test_a_quote_that_ends_with_its_own_mark_ends_the_sentence():
    """aeondroid's row “Show usage toasts?” asked about: one "?", not "?”?"."""
    assert tidy("What is written under “Show usage toasts?”?") == \
        "What is written under “Show usage toasts?”"
    assert tidy("Turn on “Show usage toasts?”.") == "Turn on “Show usage toasts?”"
    assert tidy("Start editing “Enjoy the app !”.") == "Start editing “Enjoy the app !”"
    assert tidy("Send “Hi.”.") == "Send “Hi.”"
    assert tidy("Send “Hi.”. Then go home.") == "Send “Hi.” Then go home."
    assert tidy("Post “好的！”.") == "Post “好的！”"


def test_a_mark_that_does_not_serve_stays():
    """A question quoting a statement keeps its "?"; a text trailing off keeps ours; a
    quote in the middle of a sentence, or with no mark, is left alone; the quote's own
    words never change (a typed text is typed as quoted)."""
    for text in ("Is “Swipe left to delete it.”?", "Open “Loading…”.", "Open “Theme”.",
                 "Type “Yes?” and press Enter.", "What does “Disclaimer” say?"):
        assert tidy(text) == text


def test_how_a_sentence_ends_looks_inside_a_closing_quote():
    assert end_mark("What is written under “Show usage toasts?”") == "?"
    assert end_mark("Turn on Wi-Fi.") == "." and end_mark("Open “Theme”") == ""
    assert end_mark("Read me “这是什么？”") == "?"
    assert is_question("What is written under “Show usage toasts?”")
    assert not is_question("Read me the text below “Starts at: 20:00”.")
    assert open_end("Turn on Wi-Fi.") == "Turn on Wi-Fi"
    assert open_end("What is written under “Show usage toasts?”") == \
        "What is written under “Show usage toasts?”"
    assert close("what is written under “Show usage toasts?”", "?") == \
        "what is written under “Show usage toasts?”"
    assert close("turn on Wi-Fi.", "?") == "turn on Wi-Fi?"


def test_filling_a_template_ends_it_once():
    """A value quoted by `fill` (a sentence of the app's) at the end of a question."""
    assert W.fill("What is written under {n}?", {"n": "Yes! What time?"}) == \
        "What is written under “Yes! What time?”"
    assert W.words("What is written under “{head}”?", {"head": "Dark Theme?"}) == \
        "What is written under “Dark Theme?”"
    assert W.is_sentence("He said “Hi.”") and not W.is_sentence("“Theme”")


def test_on_a_phone_a_quoted_question_is_asked_once():
    from tests.tasks_fixtures import phone_specs

    specs = phone_specs()
    base = next(i for s in specs for i in instances(s) if i.kind == "information")
    inst = dataclasses.replace(base, instruction="What is written under “Show usage toasts?”")
    text = on_phone(inst, specs).instruction
    assert text.count("?") == 1 and "?”?" not in text, text
    # a change of a switch whose label asks is no question: "Turn off “Dark Theme?”"
    change = next(i for s in specs for i in instances(s) if i.kind == "state")
    for n in range(20):
        inst = dataclasses.replace(change, id=f"{change.id}{n}",
                                   instruction="Turn off “Dark Theme?”")
        text = on_phone(inst, specs).instruction
        assert "(Look in" not in text and text.count("?") == 1 and "?”." not in text, text


def test_a_label_that_is_a_sentence_names_no_place():
    """In any language: "Got it!", "确定！"; and the English words of closing buttons."""
    assert _not_a_place("Got it!") and _not_a_place("确定！") and _not_a_place("OK")
    assert not _not_a_place("Settings") and not _not_a_place("专辑")


def test_a_name_that_starts_with_a_verb_of_ours_is_quoted():
    """onelist's row "Show last release note", activitylauncher's "Enable privileged
    mode": "Tap “Show last release note” to open it", not "Tap Show last release note"."""
    assert W.fill("Tap {n} to open it.", {"n": "Show last release note"}) == \
        "Tap “Show last release note” to open it."
    assert W.reads_as_words("Enable privileged mode") and W.reads_as_words("In the news")
    for name in ("Settings", "Search", "Theme", "Dark Theme", "App Version", "专辑"):
        assert not W.reads_as_words(name), name


def test_a_name_of_several_words_in_sentence_case_is_quoted():
    """A reader cannot see where "View source code" ends in "What is written under View
    source code?": a name whose later words are in lower case is quoted, in a row's hole
    and as a screen's name ("Go to “Select a day and time”."); in quotes of our own it is
    not quoted twice."""
    assert W.fill("What is written under {n}?", {"n": "View source code"}) == \
        "What is written under “View source code”?"
    for name in ("Hide private activities", "Default storage folder", "Wi-Fi calling"):
        assert W.reads_as_words(name), name
    assert W.words("Go to {screen}.", {"screen": "Select a day and time"}) == \
        "Go to “Select a day and time”."
    assert W.words("Open {screen} and enable “{label}”.",
                   {"screen": "Settings", "label": "Show link previews"}) == \
        "Open Settings and enable “Show link previews”."
    assert W.words("Tap “{screen}”.", {"screen": "Add list"}) == "Tap “Add list”."


def test_a_name_with_a_dash_between_words_is_quoted():
    """uber's "Greenlight Oakland - Edgewater": "Tell me what is shown next to Greenlight
    Oakland - Edgewater, then ..." reads the dash as ours; a hyphen inside a word does
    not ("Wi-Fi")."""
    assert W.fill("What is shown next to {n}?", {"n": "Greenlight Oakland - Edgewater"}) \
        == "What is shown next to “Greenlight Oakland - Edgewater”?"
    assert not W.reads_as_words("Wi-Fi") and not W.reads_as_words("Android-stelsel")


def test_joined_instructions_neither_stutter_nor_plead_in_the_middle():
    """On a phone: no "Open Aeondroid and open Settings", no "... and please tell me",
    no "and" run into another; composites join no two "and"s either."""
    from phoneworld.spec.ast import Const, Task
    from phoneworld.tasks.composite import Base, Names, _pair
    from tests.tasks_fixtures import phone_specs

    specs = phone_specs()
    navigation = next(i for s in specs for i in instances(s) if i.kind == "navigation")
    for n in range(30):
        for said in ("Open Settings.", "Please tell me the summary of Theme, and then go "
                     "to About.", "Tap “SAVE” and add “Hello World” to the list."):
            inst = dataclasses.replace(navigation, id=f"{navigation.id}{n}", instruction=said)
            text = on_phone(inst, specs).instruction
            assert not text.lower().startswith("open ") or \
                not text.split(" and ", 1)[1].startswith(("open", "tap")), text
            assert "and please" not in text, text
    t = Task(name="a", kind="state", instruction="x", condition=Const(True))
    a = Base(t, clauses=("tap “SAVE”, type “Hello World” and press “OK”",), touches="a")
    b = Base(Task(name="b", kind="navigation", instruction="y", condition=Const(True)),
             clauses=("tap the “LOAD” button",), touches="b")
    for text in W.variants(_pair(a, b, Names(specs[0])).instruction):
        assert text.count(" and ") <= 1 or ", and then" in text, text
