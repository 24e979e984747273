"""Numbers that taps step (a font size, a quantity) and switches whose text says their
state: the `steppers` and `switch texts` passes, the spec they give, and replay."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.apps import load_app
from phoneworld.compiler import compile_app
from phoneworld.replay import replay, shown_texts
from phoneworld.runtime import Machine
from phoneworld.spec.ast import AppSpec, BinOp, Call, Compare, Const, Ref
from phoneworld.spec.check import check
from phoneworld.spec.emit import emit
from phoneworld.spec.parse import parse
from tests.infer_fixtures import App, _n, button, facts, label, screen, title

SIZE = "com.example.app:id/size"


def _sizes(texts: list[str], taps: list[int]):
    """A settings screen showing a text size, with A- (child 2) and A+ (child 3)."""
    def shot(text):
        return screen(title("Text"), label("size", text, 200), button("minus", "A-", 400),
                      button("plus", "A+", 600))
    app = App().show(shot(texts[0]))
    for tap, text in zip(taps, texts[1:], strict=True):
        app = app.tap(tap).show(shot(text))
    return app.trace()


STEPPED = _sizes(["100% (Default)", "110%", "120%", "130%", "130%", "120%", "130%"],
                 [3, 3, 3, 3, 2, 3])


def _size_view(f):
    (s,) = f.views
    stack = [s.root]
    while stack:
        v = stack.pop()
        if v.id == SIZE:
            return v
        stack.extend(v.children)
    raise AssertionError("no size view")


def test_a_number_taps_step_by_a_constant_is_a_number_flag_with_its_format():
    f = facts(STEPPED)
    (flag,) = [x for x in f.flags if x.type == "int"]
    assert flag.initial == 100 and "size" in flag.name
    text = _size_view(f).text
    size = Ref((flag.name,))
    assert text == Call("choose", args=(
        Compare("==", size, Const(100)), Const("100% (Default)"),
        BinOp("+", Call("fixed", args=(size, Const(0))), Const("%"))))
    steps = [t for t in f.transitions if t.effects]
    plus = [t for t in steps if t.widget == "plus"]
    minus = [t for t in steps if t.widget == "minus"]
    # A+ stopped at 130: it steps while that holds, else changes nothing
    assert len(plus) == 1 and plus[0].when is not None
    assert [t for t in f.transitions if t.widget == "plus"][-1].effects == ()
    assert len(minus) == 1 and minus[0].when is None  # never seen at a bound


def _spec(f) -> AppSpec:
    return AppSpec(name="app", package=f.graph.package, start=f.graph.start,
                   width=f.graph.width, height=f.graph.height, title="app", source="",
                   tables=f.tables, flags=f.flags, screens=f.views,
                   transitions=f.transitions)


def test_the_spec_runs_steps_and_holds_at_the_bound_and_reads_back_the_same():
    spec = _spec(facts(STEPPED))
    text = emit(spec)
    assert emit(parse(text)) == text
    check(parse(text))
    m = Machine(parse(text))
    m.reset()
    assert "100% (Default)" in shown_texts(m.observe("node"))
    seen = []
    for _ in range(4):
        m.step({"action_type": "click", "index": _index(m, "A+")})
        seen.append(next(t for t in shown_texts(m.observe("node")) if "%" in t))
    assert seen == ["110%", "120%", "130%", "130%"]
    m.step({"action_type": "click", "index": _index(m, "A-")})
    assert "120%" in shown_texts(m.observe("node"))


def _index(m: Machine, text: str) -> int:
    return next(e["index"] for e in m.observe("elements") if e.get("text") == text)


def test_a_number_that_changed_by_other_amounts_or_while_away_is_no_stepper():
    uneven = _sizes(["1", "2", "4"], [3, 3])
    assert not [x for x in facts(uneven).flags if x.type != "bool"]
    # the number moved while the app was on another screen (a clock, a sync)
    def shot(text):
        return screen(title("Text"), label("size", text, 200), button("plus", "A+", 600),
                      button("open", "Open", 800))
    away = (App().show(shot("1")).tap(2).show(shot("2")).tap(2).show(shot("3")).tap(3)
            .show(screen(title("Other"), button("x", "X", 400))).back().show(shot("7"))
            .trace())
    assert not [x for x in facts(away).flags if x.type != "bool"]


def _dim(checked: bool):
    sw = _n("Switch", "dim", f"Dimming {'ON' if checked else 'OFF'}", (0, 300, 1080, 400),
            clickable=True, checkable=True, checked=checked)
    return screen(title("Display"), sw)


def test_a_switch_whose_text_says_its_state_shows_the_text_of_its_flag():
    trace = App().show(_dim(True)).tap(1).show(_dim(False)).tap(1).show(_dim(True)).trace()
    f = facts(trace)
    (flag,) = f.flags
    (s,) = f.views
    (sw,) = [v for v in s.root.children if v.id.endswith("dim")]
    assert sw.text == Call("choose", args=(Ref((flag.name,)), Const("Dimming ON"),
                                           Const("Dimming OFF")))
    # tasks still call the switch by its words (its state word is taken off there)
    from phoneworld.tasks.labels import label_of
    assert label_of(sw) == "Dimming ON"
    # one text whatever the state: a plain literal
    plain = App().show(_dim(True)).trace()
    (s,) = facts(plain).views
    assert [v.text for v in s.root.children if v.id.endswith("dim")] == [Const("Dimming ON")]


def test_replay_places_flags_as_recorded_before_each_step(tmp_path):
    """Each step starts from the recorded state: the size and the switch as the
    recording showed them, so every step's texts are the recorded ones."""
    def shot(size: str, dim: bool):
        return screen(title("Text"), label("size", size, 200), button("plus", "A+", 600),
                      _dim(dim).children[1])
    trace = (App().show(shot("10", True)).tap(2).show(shot("11", True)).tap(3)
             .show(shot("11", False)).tap(2).show(shot("12", False)).tap(3)
             .show(shot("12", True)).tap(2).show(shot("13", True)).trace())
    for name, data in compile_app("display", [trace], "t").files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    result = replay([trace], load_app(tmp_path))
    assert result["fidelity"] == 1.0 and result["text_recall"] == 1.0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.integers(0, 50), step=st.sampled_from([1, 2, 5, 10]),
       top=st.integers(2, 6), taps=st.lists(st.booleans(), min_size=3, max_size=12))
def test_a_recorded_stepper_plays_back_as_recorded(start, step, top, taps):
    """Any recording of a counter stepped up (+) and down (-) by one amount, held at its
    largest value: the inferred app shows, after each tap, the recorded number."""
    high = start + top * step
    values, v = [start], start
    for up in taps:
        v = min(v + step, high) if up else max(v - step, start)
        values.append(v)
    steps = [x - y for x, y in zip(values[1:], values, strict=False)]
    if sum(d != 0 for d in steps) < 2 or len(set(values)) < 2:
        return
    trace = _sizes([f"{x} pt" for x in values], [3 if up else 2 for up in taps])
    spec = _spec(facts(trace))
    m = Machine(parse(emit(spec)))
    m.reset()
    for up, want in zip(taps, values[1:], strict=True):
        m.step({"action_type": "click", "index": _index(m, "A+" if up else "A-")})
        assert f"{want} pt" in shown_texts(m.observe("node"))


def _switch_rows(states: list[bool]):
    kids = []
    for i, on in enumerate(states):
        top = 400 + i * 200
        cells = [_n("TextView", "title", f"Option {i}", (0, top, 600, top + 200)),
                 _n("Switch", "switch_widget", "ON" if on else "OFF", (800, top, 1080, top + 200),
                    checkable=True, checked=on)]
        kids.append(_n("LinearLayout", "row", "", (0, top, 1080, top + 200), cells,
                       clickable=True))
    return screen(title("Prefs"), _n("RecyclerView", "list", "", (0, 400, 1080, 2400), kids,
                                     scrollable=True))


def test_a_list_switch_whose_text_says_its_state_turns_its_text_with_it():
    trace = (App().show(_switch_rows([True, False])).tap(1, 0)
             .show(_switch_rows([False, False])).tap(1, 1).show(_switch_rows([False, True]))
             .trace())
    m = Machine(parse(emit(_spec(facts(trace)))))
    m.reset()
    texts = [e.get("text") for e in m.observe("elements")]
    assert texts.count("ON") == 1 and texts.count("OFF") == 1
    m.step({"action_type": "click", "index": _index(m, "Option 0")})
    assert [e.get("text") for e in m.observe("elements")].count("OFF") == 2
    m.step({"action_type": "click", "index": _index(m, "Option 1")})
    m.step({"action_type": "click", "index": _index(m, "Option 0")})
    assert [e.get("text") for e in m.observe("elements")].count("ON") == 2


def test_replay_places_list_switches_as_recorded(tmp_path):
    """Each step starts with the rows' switches checked as recorded: a tap then turns
    the one it hits, text and all, as the recording shows."""
    trace = (App().show(_switch_rows([True, False])).tap(1, 0)
             .show(_switch_rows([False, False])).tap(1, 1).show(_switch_rows([False, True]))
             .tap(1, 0).show(_switch_rows([True, True])).tap(1, 1)
             .show(_switch_rows([True, False])).trace())
    for name, data in compile_app("prefs", [trace], "t").files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    result = replay([trace], load_app(tmp_path))
    assert result["fidelity"] == 1.0 and result["text_recall"] == 1.0
