"""Hit-testing: on a recorded tree as Android dispatches a touch; by cells as a scan of
every box does, edges included."""

from __future__ import annotations

from phoneworld.runtime import Machine
from phoneworld.ui.hierarchy import parse_hierarchy
from phoneworld.ui.hits import HitTester, hit_test, scan
from phoneworld.ui.node import Node
from tests.conftest import DATA
from tests.shop import shop_spec, tap

SMALL = (DATA / "uiautomator" / "small.xml").read_bytes()


def test_hit_test_prefers_clickable_ancestor_over_label():
    root, _ = parse_hierarchy(SMALL)
    assert hit_test(root, 100, 150) == (0,)          # the label inside the row -> the row
    assert hit_test(root, 950, 440) == (1,)          # the switch
    assert hit_test(root, 10, 1000) == ()            # only the root contains it
    assert hit_test(root, 550, 750) == ()            # inverted bounds never match
    assert hit_test(root, 5000, 5000) is None


def _points(boxes):
    """Every box edge and its neighbours, on both axes, crossed."""
    xs = sorted({v + d for b in boxes for v in (b.bounds[0], b.bounds[2]) for d in (-1, 0, 1)})
    ys = sorted({v + d for b in boxes for v in (b.bounds[1], b.bounds[3]) for d in (-1, 0, 1)})
    return [(x, y) for x in xs for y in ys]


def test_cells_answer_as_the_scan_does():
    m = Machine(shop_spec())
    m.reset()
    screens = [m.outcome().rendering]
    tap(m, "Rye bread")
    screens.append(m.outcome().rendering)
    m.step({"action_type": "scroll", "direction": "down"})
    for r in screens:
        boxes = r.boxes
        tester = HitTester(boxes)
        points = _points(boxes)
        assert any(scan(boxes, x, y) is None for x, y in points)  # misses are answered too
        for _ in range(2):  # the first touches scan, later ones use the cells
            assert [tester.hit(x, y) for x, y in points] == [scan(boxes, x, y)
                                                            for x, y in points]



class _Box:
    def __init__(self, bounds, children=(), clickable=False):
        self.bounds, self.children, self.clickable = bounds, list(children), clickable
        self.long_clickable = self.checkable = False


def _tree(boxes, i=0):
    b = boxes[i]
    return Node(bounds=b.bounds, clickable=b.clickable,
                children=tuple(_tree(boxes, c) for c in b.children))


def test_a_view_drawn_on_top_takes_the_touch_over_a_deeper_one_below():
    # A list whose clickable row lies under a page drawn over it (a later sibling) with a
    # clickable button: Android hands the touch to the page, never to the hidden row,
    # though the row is nested deeper; the page's label goes to the page, and where the
    # page does not reach, the row gets it. Boxes and the tree answer alike.
    boxes = [
        _Box((0, 0, 100, 200), (1, 4)),                  # 0 root
        _Box((0, 0, 100, 200), (2,)),                    # 1 list
        _Box((0, 0, 100, 200), (3,)),                    # 2 list item
        _Box((0, 0, 100, 200), clickable=True),          # 3 row, deepest
        _Box((0, 0, 100, 100), (5, 6), clickable=True),  # 4 page over the list
        _Box((60, 10, 90, 40), clickable=True),          # 5 its share button
        _Box((10, 10, 50, 40)),                          # 6 its label
    ]
    root = _tree(boxes)
    tester = HitTester(boxes)
    for (x, y), want, path in [((70, 20), 5, (1, 0)), ((20, 20), 4, (1,)),
                               ((20, 150), 3, (0, 0, 0)), ((150, 20), None, None)]:
        for _ in range(4):  # scans, then cells
            assert tester.hit(x, y) == want
        assert hit_test(root, x, y) == path
