"""A dialog's option that becomes what its row shows (a settings row's summary): the
`choices` pass and the spec it gives."""

from __future__ import annotations

from phoneworld.replay import shown_texts
from phoneworld.runtime import Machine
from phoneworld.spec.ast import AppSpec, Compare, Ref
from phoneworld.spec.check import check
from phoneworld.spec.emit import emit
from phoneworld.spec.parse import parse
from tests.infer_fixtures import App, facts, rows, screen, title

OPTIONS = [("System",), ("Light",), ("Dark",)]


def _settings(theme: str, size: str = "Small"):
    return screen(title("Settings"), rows("list", [("Theme", theme), ("Size", size)]))


def _dialog(options=OPTIONS):
    return screen(title("Choose"), rows("options", options, y=600, pitch=150))


def _trace(picks: list[int]):
    app = App().show(_settings("System"))
    theme = "System"
    for pick in picks:
        app = app.tap(1, 0).show(_dialog()).tap(1, pick)
        theme = OPTIONS[pick][0]
        app = app.show(_settings(theme))
    return app.trace()


def _spec(f) -> AppSpec:
    return AppSpec(name="app", package=f.graph.package, start=f.graph.start,
                   width=f.graph.width, height=f.graph.height, title="app", source="",
                   tables=f.tables, flags=f.flags, screens=f.views, transitions=f.transitions)


def test_an_option_that_the_row_then_shows_is_written_into_the_row():
    f = facts(_trace([2, 1, 2]))
    (pick,) = [t for t in f.transitions if any(e.op == "update" for e in t.effects)]
    (eff,) = [e for e in pick.effects if e.op == "update"]
    (table,) = [t for t in f.tables if t.name == eff.target]
    assert table.kind == "state" and eff.where == Compare("==", Ref(("id",)),
                                                          Ref(("param", "id")))
    ((column, value),) = eff.values
    assert value.path[0] == "item" and column != "title"
    text = emit(_spec(f))
    check(parse(text))
    m = Machine(parse(text))
    m.reset()
    assert "System" in shown_texts(m.observe("node"))
    m.step({"action_type": "click", "index": _index(m, "Theme")})
    m.step({"action_type": "click", "index": _index(m, "Light")})
    shown = shown_texts(m.observe("node"))
    assert "Settings" in shown and "Light" in shown and "System" not in shown


def test_an_option_the_row_never_showed_is_no_choice():
    """Tapping an option leads back, but the row kept its value: a plain way back."""
    app = App().show(_settings("System"))
    for pick in (1, 2):
        app = app.tap(1, 0).show(_dialog()).tap(1, pick).show(_settings("System"))
    f = facts(app.trace())
    assert not [t for t in f.transitions if any(e.op == "update" for e in t.effects)]


def _index(m: Machine, text: str) -> int:
    return next(e["index"] for e in m.observe("elements") if e.get("text") == text)


def test_replay_places_state_rows_as_recorded_before_each_step(tmp_path):
    """After a choice, the row shows it on every later step: replay starts each step
    with the rows of state lists as the recording showed them."""
    from phoneworld.apps import load_app
    from phoneworld.compiler import compile_app
    from phoneworld.replay import replay

    app = App().show(_settings("System"))
    for pick in (2, 1):
        app = app.tap(1, 0).show(_dialog()).tap(1, pick).show(_settings(OPTIONS[pick][0]))
    trace = app.tap(0).show(_settings("Light")).tap(0).show(_settings("Light")).trace()
    for name, data in compile_app("prefs", [trace], "t").files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    result = replay([trace], load_app(tmp_path))
    assert result["fidelity"] == 1.0 and result["text_recall"] == 1.0


def _radios(ticked: str):
    from tests.infer_fixtures import W, _n

    kids = [_n("CheckedTextView", "text1", t, (0, 600 + 150 * i, W, 750 + 150 * i),
               clickable=True, checkable=True, checked=t == ticked)
            for i, (t,) in enumerate(OPTIONS)]
    return screen(title("Choose"), _n("ListView", "options", "", (0, 600, W, 1200), kids,
                                      scrollable=True))


def test_a_single_choice_list_ticks_the_option_chosen():
    """activitylauncher's Theme dialog ticks the theme in use: after "Dark", the dialog
    opened on that row again shows "Dark" ticked and "System" not."""
    app = App().show(_settings("System"))
    theme = "System"
    for pick in (2, 1, 2):
        app = app.tap(1, 0).show(_radios(theme)).tap(1, pick)
        theme = OPTIONS[pick][0]
        app = app.show(_settings(theme))
    f = facts(app.trace())
    (pick,) = [t for t in f.transitions if any(e.op == "update" for e in t.effects)]
    assert len([e for e in pick.effects if e.op == "update"]) == 2
    m = Machine(parse(emit(_spec(f))))
    m.reset()
    m.step({"action_type": "click", "index": _index(m, "Theme")})
    ticks = {e["text"]: e["checked"] for e in m.observe("elements") if e["checkable"]}
    assert ticks == {"System": True, "Light": False, "Dark": False}
    m.step({"action_type": "click", "index": _index(m, "Dark")})
    m.step({"action_type": "click", "index": _index(m, "Theme")})
    ticks = {e["text"]: e["checked"] for e in m.observe("elements") if e["checkable"]}
    assert ticks == {"System": False, "Light": False, "Dark": True}


def _unwritten(picks: tuple[int, ...], ticked: tuple[str, ...] = ("System",)):
    """A settings row that never shows its option, and a dialog whose tick moves: the
    dialog opened again after a pick shows that pick ticked."""
    from tests.infer_fixtures import W, _n

    def radios(on: tuple[str, ...]):
        kids = [_n("CheckedTextView", "text1", t, (0, 600 + 150 * i, W, 750 + 150 * i),
                   clickable=True, checkable=True, checked=t in on)
                for i, (t,) in enumerate(OPTIONS)]
        return screen(title("Choose"), _n("ListView", "options", "", (0, 600, W, 1200),
                                          kids, scrollable=True))

    app = App().show(_settings("Style"))
    for pick in picks:
        app = app.tap(1, 0).show(radios(ticked)).tap(1, pick).show(_settings("Style"))
        ticked = (OPTIONS[pick][0],)
    return facts(app.trace())


def test_a_single_choice_list_that_writes_nothing_still_moves_its_tick():
    """aeondroid's "Planetary hours indicator style": the row shows no option, but the
    dialog ticks the one chosen (and unticks the others) next time it is opened."""
    f = _unwritten((2, 1))
    (pick,) = [t for t in f.transitions if any(e.op == "update" for e in t.effects)]
    (eff,) = pick.effects
    assert eff.values[0][0] == "checked" and eff.where == Compare(
        "==", Ref(("ctx",)), Ref(("param", "id")))
    m = Machine(parse(emit(_spec(f))))
    m.reset()
    m.step({"action_type": "click", "index": _index(m, "Theme")})
    m.step({"action_type": "click", "index": _index(m, "Dark")})
    m.step({"action_type": "click", "index": _index(m, "Theme")})
    ticks = {e["text"]: e["checked"] for e in m.observe("elements") if e["checkable"]}
    assert ticks == {"System": False, "Light": False, "Dark": True}


def test_a_tick_recorded_moving_is_a_single_choice_not_a_switch_per_option():
    """settings' font-size dialog stays open after a tap and shows the tick moved (the
    toggles saw "Large" flip on): the tap ticks "Large" and unticks the rest, and a second
    tap on it keeps it ticked, where a flip per option made "Turn off Large." a task."""
    from tests.infer_fixtures import W, _n

    def radios(on: str):
        kids = [_n("CheckedTextView", "text1", t, (0, 600 + 150 * i, W, 750 + 150 * i),
                   clickable=True, checkable=True, checked=t == on)
                for i, (t,) in enumerate(OPTIONS)]
        return screen(title("Choose"), _n("ListView", "options", "", (0, 600, W, 1200),
                                          kids, scrollable=True))

    app = (App().show(_settings("Style")).tap(1, 0).show(radios("System")).tap(1, 2)
           .show(radios("Dark")).back().show(_settings("Style")))
    f = facts(app.trace())
    (pick,) = [t for t in f.transitions if any(e.op == "update" for e in t.effects)]
    (eff,) = pick.effects
    assert eff.where == Compare("==", Ref(("ctx",)), Ref(("param", "id")))
    m = Machine(parse(emit(_spec(f))))
    m.reset()
    m.step({"action_type": "click", "index": _index(m, "Theme")})
    for _ in range(2):
        m.step({"action_type": "click", "index": _index(m, "Light")})
        ticks = {e["text"]: e["checked"] for e in m.observe("elements") if e["checkable"]}
        assert ticks == {"System": False, "Light": True, "Dark": False}


def test_a_list_with_two_ticks_is_no_single_choice():
    """Two options ticked at once: a multiple choice, whose tap ticks nothing else."""
    f = _unwritten((2, 1), ticked=("System", "Light"))
    assert not [t for t in f.transitions if any(e.op == "update" for e in t.effects)]


def test_a_choice_on_a_page_opened_on_a_row_keeps_that_row():
    """onelist's Settings was opened on a row of another list: after a dialog's option
    closes the dialog, the page still shows the row it was opened on. Its rows are not
    recorded again under no row (a copy of "Theme" that no dialog lists options for), and
    the option is seen written into its row: a choice."""
    home = screen(title("Lists"), rows("lists", [("Groceries",), ("Work",)]))

    def page(theme: str):
        return screen(title("List settings"),
                      rows("list", [("Theme", theme), ("Size", "Small")]))

    app = App().show(home).tap(1, 0).show(page("System"))
    for pick in (2, 1, 2):
        app = app.tap(1, 0).show(_dialog()).tap(1, pick).show(page(OPTIONS[pick][0]))
    f = facts(app.trace())
    (table,) = [t for t in f.tables if any(r[2:3] == ("Size",) for r in t.rows)]
    assert all(r[1] is not None for r in table.rows) and \
        sum(r[2] == "Theme" for r in table.rows) == 1
    (pick,) = [t for t in f.transitions if any(e.op == "update" and e.target == table.name
                                               for e in t.effects)]
    assert pick.target != pick.screen
