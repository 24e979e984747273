"""Region-by-region agreement of a mock's screenshot with a recording (`visual.regions`):
what the edge measure is blind to (a text's size, an icon left out, a fill's colour)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from phoneworld.ui.node import Node  # noqa: E402
from phoneworld.visual.compare import edge_similarity  # noqa: E402
from phoneworld.visual.regions import ink_match, line_height, region_scores, regions  # noqa: E402

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
BAR = (0, 0, 1080, 200)
TITLE = (48, 230, 700, 330)
ICON = (900, 240, 1000, 340)


def _font(size: int):
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        pytest.skip("Liberation Sans is not installed")


def _root() -> Node:
    return Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        Node(class_name="android.view.ViewGroup", bounds=BAR),
        Node(class_name="android.widget.TextView", text="Holiday photos", bounds=TITLE),
        Node(class_name="android.widget.ImageView", content_desc="Share", bounds=ICON)))


def _screen(text_size: int = 60, bar=(26, 115, 232), icon: bool = True) -> np.ndarray:
    img = Image.new("RGB", (1080, 1920), "white")
    d = ImageDraw.Draw(img)
    d.rectangle(BAR, fill=bar)
    d.text((TITLE[0], TITLE[1] + 10), "Holiday photos", fill=(32, 33, 36),
           font=_font(text_size))
    if icon:
        d.ellipse((915, 255, 985, 325), outline=(95, 99, 104), width=8)
        d.line((930, 290, 970, 290), fill=(95, 99, 104), width=8)
    return np.asarray(img)


def test_the_regions_of_a_hierarchy_by_class():
    got = list(regions(_root(), 1080, 1920))
    assert ("text", TITLE) in got and ("icon", ICON) in got and ("fill", BAR) in got
    assert ("fill", (0, 0, 1080, 1920)) in got


def test_the_same_screen_agrees_everywhere_and_a_blank_one_nowhere():
    rec = _screen()
    assert region_scores(rec, rec, _root()) == {"text": 1.0, "icon": 1.0, "fill": 1.0}
    blank = np.full_like(rec, 255)
    got = region_scores(blank, rec, _root())
    assert got["text"] == 0.0 and got["icon"] == 0.0 and got["fill"] == 0.5  # the page: white


def test_each_look_regression_shows_in_its_own_class():
    """A title drawn at two thirds of its size, a toolbar in grey, an icon left out: the
    edge measure drops for each alike and cannot say which; the region class of each
    drops (a third, a half, all) and the others stay whole."""
    rec = _screen()
    small, grey, bare = _screen(text_size=40), _screen(bar=(241, 243, 244)), _screen(icon=False)
    assert region_scores(small, rec, _root()) == {
        "text": pytest.approx(2 / 3, abs=0.08), "icon": 1.0, "fill": 1.0}
    assert region_scores(grey, rec, _root()) == {"text": 1.0, "icon": 1.0, "fill": 0.5}
    assert region_scores(bare, rec, _root()) == {"text": 1.0, "icon": 0.0, "fill": 1.0}
    assert all(0.6 < edge_similarity(m, rec) < 0.9 for m in (small, grey, bare))


def test_ink_within_a_few_pixels_matches():
    a = np.zeros((40, 40), dtype=bool)
    a[10:30, 20] = True
    b = np.roll(a, 2, axis=1)
    assert ink_match(a, b) == 1.0 and ink_match(a, np.roll(a, 6, axis=1)) == 0.0
    assert ink_match(a, np.zeros_like(a)) == 0.0 and ink_match(b & False, a & False) is None
    assert line_height(a) == 20 and line_height(np.zeros_like(a)) == 0
