"""A page read back as layers: the paints on a plate as `compose` made them, every div that
draws with its rectangle, and nothing a trace's text could forge."""

from __future__ import annotations

import pytest

from phoneworld.runtime import Machine
from phoneworld.runtime.compose import compose
from phoneworld.runtime.layers import page_layers
from tests.test_page import PLATE, _fill_cart, looked
from tests.test_runtime import shop_spec, tap


def _paints(m: Machine):
    r = m.outcome().rendering
    return compose(r.look, r.boxes, (r.width, r.height)).paints


def _states():
    """Looked shop screens in changed states: as recorded, typed text (twice), a flipped
    switch, a removed row, a row drawn on the sprite."""
    yield looked("home")
    m = looked("home")
    m.step({"action_type": "input_text", "text": "oat <b>milk</b>", "index": 3})
    yield m
    m = looked("home")
    m.step({"action_type": "input_text", "text": "rye", "index": 3})
    yield m
    m = looked("settings")
    tap(m, "Notifications")
    yield m
    m = looked("cart", _fill_cart)
    first = [e for e in m.observe() if e["class"].endswith("LinearLayout")][0]
    m.step({"action_type": "long_press", "index": first["index"]})
    yield m
    m = looked("cart", _fill_cart)
    m.jump("detail", m.row_ids("product")[6])
    for _ in range(4):
        tap(m, "Add to cart")
    m.jump("cart")
    yield m


@pytest.mark.parametrize("n", range(6))
def test_paints_on_a_plate_read_back_as_compose_made_them(n):
    m = list(_states())[n]
    pl = page_layers(m.observe("html"), (1080, 2400))
    assert pl is not None and pl.plate == PLATE
    assert list(pl.paints) == _paints(m)
    overlay = pl.overlay()
    assert 'class="plate"' not in overlay and 'class="p"' not in overlay
    assert "background: transparent" in overlay
    drawn = [lay for lay in pl.layers if not lay.blank]
    r = m.outcome().rendering
    c = compose(r.look, r.boxes, (r.width, r.height))
    assert len(drawn) == len(c.styles)  # a div per box drawn on the plate, no more


def test_a_material_page_is_every_div_with_its_rectangle():
    m = Machine(shop_spec())
    m.reset()
    r = m.outcome().rendering
    pl = page_layers(m.observe("html"), (r.width, r.height))
    assert pl is not None and pl.plate == "" and pl.paints == ()
    assert pl.overlay() == m.observe("html").replace(
        "</style>", "body, .phone { background: transparent; }\n</style>", 1)
    boxes = [lay for lay in pl.layers if lay.key.startswith('<div class="v')]
    assert len(boxes) == len(r.boxes)
    for lay, b in zip(boxes, r.boxes, strict=True):
        x1, y1, x2, y2 = b.bounds
        # Its box with the margin a shadow may take (4 CSS pixels: 10.5 app pixels).
        assert lay.rect[0] <= x1 - 10 and lay.rect[2] >= x2 + 10
        assert lay.rect[1] <= y1 - 10 and lay.rect[3] >= y2 + 10
        assert lay.rect[0] >= x1 - 12 and lay.rect[3] <= y2 + 12
        if b.text:
            assert not lay.blank


def test_what_is_not_drawn_does_not_count():
    """Element indexes and labels change with the list above them, not the pixels."""
    m = Machine(shop_spec())
    m.reset()
    pl = page_layers(m.observe("html"), (1080, 2400))
    assert all("data-index" not in lay.key and "aria-label" not in lay.key
               for lay in pl.layers)
    assert any(lay.blank for lay in pl.layers) and any(not lay.blank for lay in pl.layers)


def test_a_text_cannot_forge_a_layer():
    m = looked("home")
    forged = ('\n<div class="p" style="left:0.0px;top:0.0px;width:412.0px;height:915.0px;'
              'background:#ff0000"></div>\n')
    m.step({"action_type": "input_text", "text": forged, "index": 3})
    pl = page_layers(m.observe("html"), (1080, 2400))
    assert pl is not None
    assert all(p.color != "#ff0000" for p in pl.paints)
    assert sum("&lt;div" in lay.key for lay in pl.layers) == 1


@pytest.mark.parametrize("page", [
    "", "<html></html>", "<!doctype html><body>hi</body>",
    '<div class="phone" data-screen="x"\n style="">\n<div class="v" style="left:1px">',
])
def test_a_page_of_another_shape_is_none(page):
    assert page_layers(page, (1080, 2400)) is None


def test_divs_read_before_read_the_same_again():
    """`page_layers` keeps each div's reading (by its text and the app's scale): pages of
    changed states read at two sizes, in turn, each read as a first reading reads it."""
    from phoneworld.runtime import layers

    pages = [m.observe("html") for m in _states()]
    sizes = [(1080, 2400), (720, 1600)]
    got = [page_layers(p, s) for p in pages for s in sizes]
    again = [page_layers(p, s) for p in reversed(pages) for s in reversed(sizes)][::-1]
    layers._layer_of.cache_clear()
    layers._paint_of.cache_clear()
    fresh = [page_layers(p, s) for p in pages for s in sizes]
    assert got == fresh and again == fresh
    assert fresh[0].layers != fresh[1].layers  # (another scale: other rectangles)
