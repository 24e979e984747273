"""A dialog's list grows with its rows (`runtime.dialog`), as Android's AlertDialog does."""

from __future__ import annotations

from dataclasses import replace

from phoneworld.runtime import Machine
from phoneworld.runtime.compose import _compose, compose
from phoneworld.runtime.expr import Scope
from phoneworld.runtime.layout import plan_screen
from phoneworld.runtime.look import Item, ListLook, Look, Mark, ScreenLook
from phoneworld.runtime.render import Frame, render_boxes
from phoneworld.spec.ast import Compare, Const, ListOf, Ref, View
from tests.shop import shop_spec

PLATE = "0123456789abcdef.webp"
# A dialog centred at y 1150 on a 2400-pixel screen: the status bar is 100 high, the
# navigation bar 200, and the dialog may grow to [100, 2200).
TITLE = View(cls="android.widget.TextView", bounds=(100, 870, 980, 950), text=Const("Pick"))
ROW = View(cls="android.widget.CheckedTextView", bounds=(40, 950, 1040, 1050),
           text=Ref(("item", "name")), flags=("clickable", "checkable"))
BUTTON = View(cls="android.widget.Button", bounds=(800, 1170, 1000, 1250),
              text=Const("CANCEL"), flags=("clickable",))


def dialog(rows: int, *, top: int = 850, bottom: int = 1450) -> Machine:
    """The shop with its home screen a dialog listing its first `rows` products (the
    layout and look recorded with two)."""
    lst = View(cls="android.widget.ListView", bounds=(40, 950, 1040, 1150), name="choices",
               children=(ROW,), items=ListOf("product", pitch=100, where=Compare(
                   "<=", Ref(("item", "id")), Const(rows))))
    panel = View(cls="android.widget.LinearLayout", bounds=(40, top, 1040, bottom),
                 children=(TITLE, lst, BUTTON))
    root = View(cls="android.widget.FrameLayout", bounds=(10, top - 30, 1070, bottom + 30),
                children=(panel,))
    spec = shop_spec()
    screens = tuple(replace(s, root=root, window=root.bounds) if s.name == "home" else s
                    for s in spec.screens)
    items = tuple(Item((40, y, 1040, y + 100), (name, "\u2610"),
                       (Mark((0, 0, 1000, 100), name, False, (100, 30, 500, 70)),))
                  for y, name in ((950, "Oat milk"), (1050, "Rye bread")))
    look = ScreenLook(plate=PLATE, marks=(Mark(TITLE.bounds, "Pick", None, (100, 880, 300, 940)),
                                          Mark(BUTTON.bounds, "CANCEL", None,
                                               (820, 1180, 980, 1240))),
                      lists=(ListLook(lst.bounds, "#ffffff", items),))
    m = Machine(replace(spec, screens=tuple(s for s in screens if s.name != "results"),
                        transitions=tuple(t for t in spec.transitions
                                          if t.screen not in ("home", "results")),
                        look=Look({"home": look})))
    m.reset()
    return m


def shown(m: Machine) -> dict[str, tuple[int, int, int, int]]:
    return {e["text"]: tuple(e["bounds"]) for e in m.observe() if e["text"]}


def test_a_dialog_shown_with_more_rows_than_recorded_grows_to_show_them_all():
    m = dialog(6)
    got = shown(m)
    names = [e["text"] for e in m.observe() if e["class"] == "android.widget.CheckedTextView"]
    assert len(names) == 6  # all six, none cut off (the list does not scroll)
    # Four rows more: 400 pixels, half above and half below, the dialog staying centred.
    assert got["Pick"] == (100, 670, 980, 750)
    assert got["CANCEL"] == (800, 1370, 1000, 1450)
    rows = sorted(b for t, b in got.items() if t in names)
    assert rows[0] == (40, 750, 1040, 850) and rows[-1] == (40, 1250, 1040, 1350)
    lst = next(e for e in m.observe() if e["class"] == "android.widget.ListView")
    assert lst["bounds"] == [40, 750, 1040, 1350]
    assert m.rendered().boxes[0].bounds == (10, 620, 1070, 1680)


def test_a_dialog_with_the_rows_it_was_recorded_with_is_laid_out_as_recorded():
    m = dialog(2)
    r = m.rendered()
    spec = m.spec
    home = next(s for s in spec.screens if s.name == "home")
    frame = Frame("home")
    scope = Scope(m.state, screen="home")
    assert plan_screen(home, (1080, 2400)).window is not None  # a dialog
    plain = render_boxes(plan_screen(home), frame, scope)  # no growing at all
    assert [(b.bounds, b.text, b.path) for b in r.boxes] == \
        [(b.bounds, b.text, b.path) for b in plain]
    assert compose(r.look, r.boxes, (1080, 2400)) == _compose(r.look, r.boxes, (1080, 2400))


def test_a_dialog_grows_no_further_than_the_screen_then_its_list_scrolls():
    m = dialog(8, top=300, bottom=2000)  # centred at 1150; may grow by 340 at most
    r = m.rendered()
    assert r.boxes[0].bounds == (10, 100, 1070, 2200)
    lst = next(b for b in r.boxes if b.list_key is not None)
    assert lst.bounds == (40, 780, 1040, 1320)
    assert lst.list_max > 0  # the rest is a scroll away


def test_the_grown_dialog_is_drawn_from_its_plate_moved_with_it():
    m = dialog(6)
    r = m.rendered()
    c = compose(r.look, r.boxes, (1080, 2400))
    # The title and the button are where the plate shows them, moved: nothing to draw.
    quiet = {r.boxes[i].text for i in c.quiet}
    assert {"Pick", "CANCEL", "Oat milk", "Rye bread"} <= quiet
    cuts = [p for p in c.paints if p.image == PLATE]
    # The window above the list's end moves up 200, the part below it down 200.
    assert cuts[0].rect == (10, 620, 1070, 950) and cuts[0].origin == (0, -200)
    assert cuts[1].rect == (10, 1350, 1070, 1680) and cuts[1].origin == (0, 200)
    # A new row is cut from the recorded row most like it, where the plate has it.
    row = next(p for p in cuts if p.rect == (40, 1250, 1040, 1350))
    src = row.rect[1] - row.origin[1]
    assert src in (950, 1050)
    # The list's background fills the space between.
    assert any(p.color == "#ffffff" and p.rect == (40, 950, 1040, 1350) for p in c.paints)


def test_a_full_screen_list_never_grows():
    spec = shop_spec()
    m = Machine(spec)
    m.reset()
    home = next(s for s in spec.screens if s.name == "home")
    assert plan_screen(home, (spec.width, spec.height)).window is None


def test_a_window_as_wide_as_the_screen_is_no_dialog():
    """An activity between the status and navigation bars (its window [0, 72, 1080,
    1776] of 1920) is no dialog: its list scrolls as recorded."""
    m = dialog(6)
    home = next(s for s in m.spec.screens if s.name == "home")
    wide = replace(home, root=replace(home.root, bounds=(0, 72, 1080, 1776)),
                   window=(0, 72, 1080, 1776))
    assert plan_screen(wide, (1080, 1920)).window is None
    assert plan_screen(home, (1080, 2400)).window is not None


def test_only_a_screen_the_spec_calls_a_dialog_grows_and_only_from_its_root():
    """Whether a screen is a dialog is the spec's (`Screen.window`, found by the
    compiler's `ui.dialogs`), not guessed again from where its root lies: a centred
    root the spec gives no window is laid out as recorded, and so is a window drawn
    inside the page's own (its root the whole screen: it does not move)."""
    m = dialog(6)
    home = next(s for s in m.spec.screens if s.name == "home")
    assert plan_screen(home, (1080, 2400)).window is not None
    assert plan_screen(replace(home, window=None), (1080, 2400)).window is None
    inside = replace(home, root=replace(home.root, bounds=(0, 0, 1080, 2400)))
    assert plan_screen(inside, (1080, 2400)).window is None
    plain = Machine(replace(m.spec, screens=tuple(
        replace(s, window=None) if s.name == "home" else s for s in m.spec.screens)))
    plain.reset()
    names = [e["text"] for e in plain.observe()
             if e["class"] == "android.widget.CheckedTextView"]
    assert len(names) < 6  # the list scrolls as recorded


def test_a_grown_dialogs_rows_are_filtered_once_to_measure_and_draw(monkeypatch):
    import phoneworld.runtime.render as render

    calls = []
    real = render.filter_rows

    def counted(table, *args, **kwargs):
        calls.append(table)
        return real(table, *args, **kwargs)

    monkeypatch.setattr(render, "filter_rows", counted)
    m = dialog(6)
    assert len([e for e in m.observe() if e["class"] == "android.widget.CheckedTextView"]) == 6
    assert calls == ["product"]
