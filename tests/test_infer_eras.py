"""One app, one language (#21): a recording that switches the app's language mid-run
gives a mock of one era, never a list of rows from both."""

from __future__ import annotations

from phoneworld.infer.eras import main_era
from tests.infer_fixtures import App, button, facts, label, rows, screen, title

EN = {"home": "Files", "rows": [("Downloads", "3 items"), ("Music", "12 items")],
      "settings": "Settings", "lang": "Language", "about": "About", "version": "Version"}
AF = {"home": "Lêers", "rows": [("Aflaaie", "3 items"), ("Musiek", "12 items")],
      "settings": "Instellings", "lang": "Taal", "about": "Oor", "version": "Weergawe"}


def _home(w):
    return screen(title(w["home"]), button("settings", w["settings"], 200),
                  button("about", w["about"], 300), rows("list", w["rows"], y=600))


def _settings(w):
    return screen(title(w["settings"]), button("lang", w["lang"], 200))


def _about(w):
    return screen(title(w["about"]), label("version", f"{w['version']} 1.2", 200))


def _round(app: App, w: dict) -> App:
    """home -> settings -> back -> about -> back: every screen visited twice or more."""
    return (app.show(_home(w), ".Main").tap(1).show(_settings(w), ".Settings").back()
            .show(_home(w), ".Main").tap(2).show(_about(w), ".About").back()
            .show(_home(w), ".Main").tap(1).show(_settings(w), ".Settings").back()
            .show(_home(w), ".Main").tap(2).show(_about(w), ".About").back())


def switched(before: int, after: int):
    """`before` rounds in English, a tap on "Language" that switches the app to
    Afrikaans, then `after` rounds in Afrikaans."""
    app = App()
    _rounds_then_switch(app, before, EN, AF)
    for _ in range(after):
        _round(app, AF)
    return app.show(_home(AF), ".Main").trace()


def _rounds_then_switch(app, rounds: int, frm: dict, to: dict) -> None:
    """`rounds` rounds in `frm`, then a tap on "Language" that switches the app to `to`."""
    for _ in range(rounds):
        _round(app, frm)
    app.show(_home(frm), ".Main").tap(1).show(_settings(frm), ".Settings").tap(1) \
        .show(_settings(to), ".Settings").back()


def _names(f) -> list[str]:
    (table,) = [t for t in f.tables if t.rows]
    return [r[2] for r in table.rows]


def test_a_list_recorded_in_two_languages_gives_rows_in_one():
    f = facts(switched(2, 1), until="tables")
    assert _names(f) == ["Downloads", "Music"]


def test_the_era_most_visits_show_is_the_one_kept():
    f = facts(switched(1, 2), until="tables")
    assert _names(f) == ["Aflaaie", "Musiek"]


def test_the_kept_era_lays_out_the_screens_too():
    f = facts(switched(2, 1), until="representatives")
    texts = {n.text for info in f.screens.values() for _, n in info.root.walk() if n.text}
    assert {"Files", "Settings", "About"} <= texts
    assert not texts & {"Lêers", "Instellings", "Oor", "Aflaaie"}


def test_new_content_on_one_screen_is_no_other_era():
    """A list that shows other rows later (a refresh) changes one screen, not the app."""
    app = App()
    for items in (EN["rows"], EN["rows"], [("Photos", "4 items"), ("Docs", "1 item")]):
        w = {**EN, "rows": items}
        _round(app, w)
        _round(app, w)
    f = facts(app.trace(), until="eras")
    assert len(f.where) == sum(len(t.observations) for t in f.traces)
    assert set(_names(facts(app.trace(), until="tables"))) >= {"Downloads", "Photos"}


def test_a_clock_that_moves_on_every_screen_is_no_other_era():
    """Digits are masked: "Version 1.2" -> "Version 1.3" everywhere is not a language."""
    app = App()
    for v in ("1.2", "1.3"):
        w = {**EN, "version": f"Version {v}", "settings": f"Settings {v}", "home": f"Files {v}"}
        _round(app, w)
        _round(app, w)
    f = facts(app.trace(), until="eras")
    assert len(f.where) == sum(len(t.observations) for t in f.traces)


def test_the_other_era_is_left_to_no_screen_and_no_look():
    f = facts(switched(2, 1), until="representatives")
    kept = {r.index for r in f.where}
    n = len(f.traces[0].observations)
    assert max(kept) < n - 5 and all(i in kept for i in range(10))
    shots = {x for refs in f.provenance.screens.values() for x in refs}
    assert all(int(x.split("/")[-1].split(".")[0]) in kept for x in shots)
    assert main_era(f).where == f.where  # a second look finds one era


def test_what_another_era_left_out_is_noted_with_its_observations_and_one_line():
    """The compile report says what the mock leaves out (`other_eras`), and replay leaves
    the steps taken on those observations out too (tests/test_replay_eras.py)."""
    trace = switched(2, 1)
    f = facts(trace, until="eras")
    first = 18  # 16 in English, home and settings, then settings in Afrikaans
    assert trace.observations[first].root.children[0].text == "Instellings"
    (note,) = f.provenance.eras.values()
    assert list(f.provenance.eras) == [trace.source]
    assert note["observations"] == tuple(f"{i}.xml" for i in range(first, 28))
    assert note["note"] == ("t: 10 observations after step 18 left out: another era of the "
                            "app (texts changed on 3 screens at once)")


def test_an_era_kept_from_the_middle_notes_both_ends():
    """Afrikaans, English twice as long, then German: the English era is kept, and the
    note says what went before it and after it."""
    de = {"home": "Dateien", "rows": [("Downloads", "3 items"), ("Musik", "12 items")],
          "settings": "Einstellungen", "lang": "Sprache", "about": "Über",
          "version": "Version"}
    app = App()
    for w, n in ((AF, 2), (EN, 4), (de, 2)):  # 16, 32 and 16 observations, 8 a round
        for _ in range(n):
            _round(app, w)
    f = facts(app.show(_home(de), ".Main").trace(), until="eras")
    (note,) = f.provenance.eras.values()
    # step 16 (the 16th) goes from the last Afrikaans observation to the first English
    # one, step 48 from the last English one to the first German one
    assert note["note"] == ("t: 33 observations before step 16 and after step 48 left "
                            "out: other eras of the app (texts changed on 3 and 3 screens "
                            "at once)")
    kept = {r.index for r in f.where}
    assert [f"{i}.xml" for i in range(len(f.traces[0].observations)) if i not in kept] == \
        list(note["observations"])


def test_one_era_notes_nothing():
    assert not facts(switched(0, 0), until="eras").provenance.eras


def _there_and_back(before: int, away: int, after: int, lang: dict = AF):
    """`before` rounds in English, a switch to `lang`, `away` rounds in it, a switch back
    to English (the same "Language" button, read in the other language), `after` rounds."""
    app = App()
    _rounds_then_switch(app, before, EN, lang)
    _rounds_then_switch(app, away, lang, EN)
    for _ in range(after):
        _round(app, EN)
    return app.show(_home(EN), ".Main").trace()


def test_a_switch_back_keeps_both_parts_of_the_main_era():
    """English, Afrikaans, English again: both English parts are the app the mock
    shows (three eras, two of them one), the Afrikaans one alone is left out."""
    trace = _there_and_back(2, 2, 1)
    f = facts(trace, until="eras")
    kept = {r.index for r in f.where}
    afrikaans = [i for i, o in enumerate(trace.observations)
                 if _said(o) & {"Lêers", "Instellings", "Oor"}]
    english = [i for i, o in enumerate(trace.observations) if i not in afrikaans]
    assert afrikaans and max(english) > max(afrikaans)  # English after Afrikaans, too
    assert set(english) <= kept and not set(afrikaans) & kept
    (note,) = f.provenance.eras.values()
    assert note["observations"] == tuple(f"{i}.xml" for i in afrikaans)
    assert note["note"] == ("t: 19 observations between steps 18 and 37 left out: "
                            "another era of the app (texts changed on 3 screens at once)")
    assert _names(facts(trace, until="tables")) == ["Downloads", "Music"]


def test_a_third_language_is_not_joined_to_the_main_one():
    """English, Afrikaans, German: the German era is no switch back, and is left out."""
    de = {"home": "Dateien", "rows": [("Herunterladen", "3 items"), ("Musik", "12 items")],
          "settings": "Einstellungen", "lang": "Sprache", "about": "Über",
          "version": "Weergawe"}
    app = App()
    for w, n in ((EN, 4), (AF, 2), (de, 2)):
        for _ in range(n):
            _round(app, w)
    f = facts(app.show(_home(de), ".Main").trace(), until="eras")
    kept = {r.index for r in f.where}
    assert kept == set(range(32))
    (note,) = f.provenance.eras.values()
    assert "other eras" in note["note"]


def test_an_era_too_short_to_compare_is_left_out():
    """Back in English for one visit of one screen the main era saw once: nothing says
    it is the main era's app (no screen visited twice in both), so it is left out."""
    app = App()
    for _ in range(3):
        _round(app, EN)
    for _ in range(2):
        _round(app, AF)
    trace = app.show(_about(EN), ".About").trace()
    f = facts(trace, until="eras")
    assert len(trace.observations) - 1 not in {r.index for r in f.where}


def _said(o) -> set[str]:
    return {n.text for _, n in o.root.walk() if n.text}
