"""A list's rows draw only inside the list's ancestors (`runtime.regions`): a web page's
list that runs on under the browser's toolbar is cut at the page's end, on screen; the
dump keeps the rows' bounds, as a recording does."""

from __future__ import annotations

import re

from phoneworld.runtime import Machine
from phoneworld.runtime.compose import compose
from phoneworld.runtime.look import Item, ListLook, Look, Mark, ScreenLook
from phoneworld.runtime.regions import EVERYWHERE, regions
from phoneworld.spec.ast import Const, ListOf, Ref, View
from tests.shop import home_as

PLATE = "0123456789abcdef.webp"
SCALE = 412 / 1080


def page(look: Look | None = None) -> Machine:
    """The shop's home: a page (ending at y 1800) whose list of products, rows 250 high,
    runs on to 2000, under a toolbar drawn after it from 1800 to 2000."""
    row = View(cls="android.view.View", bounds=(40, 400, 1040, 650), flags=("clickable",),
               children=(View(cls="android.view.View", bounds=(80, 420, 1000, 630),
                              text=Ref(("item", "name"))),))
    lst = View(cls="android.widget.ListView", bounds=(40, 400, 1040, 2000), name="links",
               children=(row,), items=ListOf("product", pitch=250))
    web = View(cls="android.webkit.WebView", bounds=(0, 0, 1080, 1800), children=(lst,))
    bar = View(cls="android.view.ViewGroup", bounds=(0, 1800, 1080, 2000), children=(
        View(cls="android.widget.TextView", bounds=(40, 1850, 600, 1950), text=Const("Toolbar")),))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
                children=(web, bar))
    m = Machine(home_as(root, look=look))
    m.reset()
    return m


def test_rows_past_the_page_keep_their_bounds_but_draw_only_on_the_page():
    m = page()
    got = {e["text"]: tuple(e["bounds"]) for e in m.observe() if e["text"]}
    assert got["Apples"] == (80, 1670, 1000, 1880)  # the sixth row, partly past 1800
    assert got["Pears"] == (80, 1920, 1000, 2000)  # the seventh, wholly past it
    html = m.observe("html")
    assert ">Pears</span>" not in html and ">Toolbar</span>" in html
    cut = re.search(r'clip-path:inset\(0\.0px 0\.0px ([\d.]+)px 0\.0px\)" aria-label="Apples"',
                    html)
    assert cut is not None and abs(float(cut.group(1)) - 80 * SCALE) < 0.2
    assert html.count("clip-path") == 2  # Apples' row and its text; Pears' draw nothing


def test_regions_are_the_lists_ancestors_for_its_rows_and_everywhere_else():
    r = page().rendered()
    rs = regions(r.boxes)
    lst = next(i for i, b in enumerate(r.boxes) if b.list_key is not None)
    assert rs[lst] == EVERYWHERE  # views outside lists draw as recorded
    for i in r.boxes[lst].children:
        assert rs[i] == (0, 0, 1080, 1800)
        assert all(rs[j] == (0, 0, 1080, 1800) for j in r.boxes[i].children)
    bar = next(i for i, b in enumerate(r.boxes) if b.text == "Toolbar")
    assert rs[bar] == EVERYWHERE


def test_a_web_pages_own_nodes_do_not_clip_a_list_the_webview_does():
    """A drop-down's menu (a list) shows past its field, the node holding it in the
    page: HTML does not clip; the WebView around the page does."""
    row = View(cls="android.view.View", bounds=(40, 400, 1040, 500),
               text=Ref(("item", "name")))
    lst = View(cls="android.widget.ListView", bounds=(40, 400, 1040, 1300), name="menu",
               children=(row,), items=ListOf("product", pitch=100))
    field = View(cls="android.view.View", bounds=(40, 300, 1040, 400), children=(lst,))
    web = View(cls="android.webkit.WebView", bounds=(0, 0, 1080, 1000), children=(field,))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(web,))
    m = Machine(home_as(root))
    m.reset()
    r = m.rendered()
    rs = regions(r.boxes)
    rows = [i for i, b in enumerate(r.boxes) if b.text]
    assert len(rows) == 8 and all(rs[i] == (0, 0, 1080, 1000) for i in rows)


def test_a_lists_paints_stop_at_its_ancestors_end():
    """The recording had Butter where the mock shows Apples, partly past the page: its
    wipe stops at the page's end, as the toolbar's text is left as recorded."""
    items = (Item((40, 1650, 1040, 1900), ("Butter",),
                  (Mark((40, 20, 960, 230), "Butter", None, (40, 80, 300, 170)),)),
             Item((40, 1900, 1040, 2000), ("Pears",),
                  (Mark((40, 20, 960, 100), "Pears", None, (40, 40, 300, 100)),)))
    look = ScreenLook(plate=PLATE, lists=(ListLook((40, 400, 1040, 2000), "#ffffff", items),),
                      marks=(Mark((40, 1850, 600, 1950), "Toolbar", None, (40, 1860, 300, 1940)),))
    m = page(Look({"home": look}))
    r = m.rendered()
    c = compose(r.look, r.boxes, (1080, 2400))
    assert c.paints and all(p.rect[3] <= 1800 for p in c.paints)
    assert any(p.color and p.rect[1] == 1650 for p in c.paints)  # Butter wiped, on the page
    assert {r.boxes[i].text for i in c.quiet} >= {"Toolbar", "Pears"}
