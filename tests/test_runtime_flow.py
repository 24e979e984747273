"""A horizontal list as tall as several of its rows is a flow (`runtime.flow`): inline
content, a web page's language links, its rows wrapping onto lines."""

from __future__ import annotations

from phoneworld.runtime import Machine
from phoneworld.runtime.flow import flow, line_pitch
from phoneworld.spec.ast import ListOf, Ref, View
from tests.shop import home_as


def links(height: int) -> Machine:
    """The shop's home screen a list of its products' names, 300 pixels each, side by
    side in a list 1000 wide and `height` high (rows 60 high)."""
    link = View(cls="android.view.View", bounds=(40, 400, 340, 460), text=Ref(("item", "name")),
                flags=("clickable",))
    lst = View(cls="android.view.View", bounds=(40, 400, 1040, 400 + height), name="links",
               children=(link,), items=ListOf("product", pitch=300, axis="horizontal"))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(lst,))
    m = Machine(home_as(root))
    m.reset()
    return m


def test_a_flow_wraps_its_rows_onto_lines_spread_over_its_height():
    m = links(280)  # eight rows, three to a line: three lines, 110 apart in 280
    got = [tuple(e["bounds"]) for e in m.observe() if e["text"] and e["clickable"]]
    assert len(got) == 8
    assert got[:4] == [(40, 400, 340, 460), (340, 400, 640, 460), (640, 400, 940, 460),
                       (40, 510, 340, 570)]
    assert got[-1] == (340, 620, 640, 680)


def test_a_list_one_row_high_stays_one_line():
    m = links(60)
    got = [tuple(e["bounds"]) for e in m.observe() if e["text"] and e["clickable"]]
    assert got == [(40, 400, 340, 460), (340, 400, 640, 460), (640, 400, 940, 460),
                   (940, 400, 1040, 460)]  # the fourth cut off at the list's end


def test_flow_lines_and_their_pitch():
    steps = [(0, 300), (-200, 100), (0, 300), (0, 300), (0, 300)]
    assert flow(steps, 300, 0, 1000) == [(0, 0), (300, 0), (400, 0), (700, 0), (0, 1)]
    assert flow([(0, 1200)], 1200, 0, 1000) == [(0, 0)]  # alone on its line, cut short
    assert line_pitch(1, 60, 400) == 60
    assert line_pitch(3, 60, 280) == 110
    assert line_pitch(3, 60, 400) == 120  # at most twice a row's height
    assert line_pitch(9, 60, 400) == 60  # at least a row's height
