"""Taps that opened their screen too late for the recorder (`infer.timed`)."""

from __future__ import annotations

from tests.infer_fixtures import App, button, facts, label, rows, screen, screen_of, title


def _lists():
    return screen(title("Lists"), button("menu", "Menu", 200),
                  rows("lists", [("Tuto",), ("TODO",)]))


def _settings():
    return screen(title("Settings"), label("theme", "Theme", 300))


def _late(app: App) -> App:
    """A tap on "Menu" that stays, then a tap on the "Tuto" row on the very same
    observation that lands on Settings (the menu had opened it, late)."""
    return app.tap(1).show(_lists()).tap(2, 0).show(_settings()).back().show(_lists())


def _menu(f):
    return next(t for t in f.transitions if t.widget == "menu" and t.action == "tap")


def test_a_tap_that_opened_its_screen_late_opens_it():
    """onelist: "⌄" stayed three times, and twice the next tap, on a list row that
    otherwise stays, was credited with Settings: the menu opens Settings."""
    app = _late(_late(App().show(_lists())))
    app = app.tap(1).show(_lists()).tap(2, 1).show(_lists()).tap(2, 1).show(_lists())
    f = facts(app.trace(), until="timed")
    menu = _menu(f)
    assert (menu.target, menu.count) == (screen_of(f, 0, 2), 2)
    assert any("too late" in str(v) for v in f.provenance.effects.values())


def test_a_tap_that_leads_somewhere_on_its_own_is_not_credited_to_the_one_before():
    """The row reaches Settings right after a tap on "Menu", and once on its own too:
    it is the row that opens Settings; "Menu" stays."""
    app = _late(_late(App().show(_lists())))
    app = app.tap(2, 0).show(_settings())
    assert _menu(facts(app.trace(), until="timed")).target == "stay"


def test_one_late_screen_is_no_rule():
    app = _late(App().show(_lists())).tap(2, 1).show(_lists()).tap(2, 1).show(_lists())
    assert _menu(facts(app.trace(), until="timed")).target == "stay"
