"""Regions: captured pixels kept by the page head and the divs that meet a rectangle."""

from __future__ import annotations

import numpy as np

from phoneworld.runtime.layers import Layer, PageLayers
from phoneworld.serve.regions import Regions, cut, ground, meets, phone_style


def _page(*layers: Layer, head: str = "h") -> PageLayers:
    return PageLayers(head=head, plate="", paints=(), layers=layers, html="")


def test_a_key_holds_the_head_and_the_divs_that_draw_in_the_rectangle():
    a, b = Layer((0, 0, 10, 10), "a", False), Layer((50, 50, 60, 60), "b", False)
    quiet = Layer((0, 0, 10, 10), "q", True)
    r = (0, 0, 20, 20)
    assert Regions.key(_page(a, b), r, False) == Regions.key(_page(a), r, False)
    assert Regions.key(_page(a, quiet), r, False) == Regions.key(_page(a), r, False)
    assert Regions.key(_page(a), r, False) != Regions.key(_page(a, head="x"), r, False)
    assert Regions.key(_page(a), r, False) != Regions.key(_page(a), r, True)
    assert Regions.key(_page(a), r, False) != Regions.key(_page(), r, False)


def test_the_store_keeps_copies_within_its_limit_least_recently_used_first():
    regions = Regions(limit=300)
    one = np.ones((10, 10), np.uint8)
    regions.put("a", one)
    one[0, 0] = 9
    regions.put("b", np.zeros((10, 10), np.uint8))
    assert regions.get("a")[0, 0] == 1 and not regions.get("a").flags.writeable
    regions.put("c", np.zeros((10, 10), np.uint8))
    regions.put("d", np.zeros((10, 10), np.uint8))  # past 300 bytes: "b" goes
    assert regions.get("b") is None and regions.get("a") is not None and len(regions) == 3
    regions.put("big", np.zeros((20, 20), np.uint8))  # larger than the limit: not kept
    assert regions.get("big") is None and (regions.hits, regions.misses) == (3, 2)


def test_cut_and_meets():
    assert cut([(-5, -5, 10, 10), (0, 0, 10, 10), (200, 0, 300, 5), (5, 5, 5, 9)],
               (100, 100)) == [(0, 0, 10, 10)]
    assert meets((0, 0, 10, 10), (9, 9, 20, 20)) and not meets((0, 0, 10, 10), (10, 0, 20, 5))


def test_the_empty_phone_is_the_same_in_any_accent_unless_the_page_reads_it():
    head = ("<style>\nbody { margin: 0; }\n.phone { background: #fff; }\n"
            ".btn { background: var(--accent); }\n</style></head>\n<body>"
            '<div class="phone" \n style="width:412px;height:916px;--accent:#1a73e8">')
    other = head.replace("#1a73e8", "#d81b60")
    assert phone_style(head)[1] == "width:412px;height:916px;--accent:#1a73e8"
    assert ground(head) == ground(other) and "#1a73e8" not in ground(head)
    assert ground(head) != ground(head.replace("412px", "400px"))
    for reads in (".phone { background: var(--accent); }", "body{color:var(--accent)}",
                  "* { outline-color: var(--accent) }", ".phone::after { color: var(--a) }"):
        h = head.replace("</style>", reads + "</style>")
        assert ground(h) == h and ground(h) != ground(h.replace("#1a73e8", "#d81b60"))
