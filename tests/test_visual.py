"""Compile-time visuals: similarity measures, text sampling, screen cuts, assets, the look file."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("PIL")
from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

from phoneworld.errors import PhoneworldError  # noqa: E402
from phoneworld.runtime.look import (  # noqa: E402
    Item,
    ListLook,
    Look,
    Mark,
    ScreenLook,
    Style,
    load_look,
    look_from_json,
    look_to_json,
)
from phoneworld.spec.ast import ListOf, View  # noqa: E402
from phoneworld.ui.node import Node  # noqa: E402
from phoneworld.visual.assets import encode_assets  # noqa: E402
from phoneworld.visual.compare import edge_similarity, ssim, typicality  # noqa: E402
from phoneworld.visual.extract import extract_screen, pick_recording, screen_pixels  # noqa: E402
from phoneworld.visual.sample import background_and_ink, text_style  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _font(size: int):
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        pytest.skip("DejaVu Sans is not installed")


def _screen(rows: int = 4, seed: int = 0) -> Image.Image:
    """A phone-like screen: a coloured toolbar with a title, rows of text with dividers."""
    img = Image.new("RGB", (1080, 1920), "white")
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 1080, 200), fill=(26, 115, 232))
    d.text((48, 70), "Title", fill="white", font=_font(60))
    rng = np.random.default_rng(seed)
    for i in range(rows):
        y = 240 + i * 180
        d.text((48, y + 50), f"Row {i} " + "x" * int(rng.integers(3, 12)), fill=(32, 33, 36),
               font=_font(44))
        d.line((0, y + 178, 1080, y + 178), fill=(218, 220, 224), width=3)
    return img


# -- similarity ---------------------------------------------------------------------------------

def test_a_screen_is_like_itself_and_unlike_a_blank_one():
    a = _screen()
    assert edge_similarity(a, a) == pytest.approx(1.0)
    assert ssim(a, a) == pytest.approx(1.0)
    blank = Image.new("RGB", a.size, "white")
    assert edge_similarity(a, blank) < 0.35
    # Another screen of the same app sits between.
    assert edge_similarity(a, blank) < edge_similarity(a, _screen(rows=7, seed=3)) < 0.95


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**16))
def test_edge_similarity_is_symmetric_and_bounded(seed):
    a, b = _screen(seed=seed), _screen(rows=seed % 6, seed=seed + 1)
    s = edge_similarity(a, b)
    assert 0.0 <= s <= 1.0
    assert s == pytest.approx(edge_similarity(b, a))


# -- sampling text --------------------------------------------------------------------------------

@pytest.mark.parametrize("size,color,bg", [(44, (32, 33, 36), (255, 255, 255)),
                                           (60, (255, 255, 255), (26, 115, 232)),
                                           (30, (218, 57, 56), (250, 250, 250))])
def test_text_style_reads_size_and_colour(size, color, bg):
    img = Image.new("RGB", (600, 200), bg)
    ImageDraw.Draw(img).text((20, 40), "Shopping list", fill=color, font=_font(size))
    px = np.asarray(img)
    style, got_bg, ink = text_style(px, (10, 20, 590, 180), "Shopping list")
    assert np.abs(got_bg - bg).max() < 4
    assert ink is not None and ink[0] <= 22 and ink[1] <= 40 + size * 0.3
    assert abs(style.size - size) / size < 0.2, style
    got = [int(style.color[i:i + 2], 16) for i in (1, 3, 5)]
    assert max(abs(g - c) for g, c in zip(got, color, strict=True)) < 40


def test_an_outline_or_underline_is_not_ink():
    img = Image.new("RGB", (400, 120), "white")
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, 399, 119), radius=20, outline=(218, 57, 56), width=3)
    _, ink = background_and_ink(np.asarray(img), (0, 0, 400, 120))
    assert ink is None
    d.text((40, 30), "Tuto", fill=(218, 57, 56), font=_font(40))
    _, ink = background_and_ink(np.asarray(img), (0, 0, 400, 120))
    assert ink is not None and ink[0] >= 30 and ink[2] <= 200


@pytest.mark.parametrize("field", [True, False])
def test_a_fields_leading_icon_is_not_its_texts_ink(field):
    """An add field's plus before its hint: in a text field the ink (what typed text
    wipes) starts at the hint, and the icon stays; elsewhere it is the text's."""
    img = Image.new("RGB", (900, 110), "white")
    d = ImageDraw.Draw(img)
    d.rectangle((30, 53, 70, 57), fill=(95, 99, 104))  # the plus: 41 x 41
    d.rectangle((48, 35, 52, 75), fill=(95, 99, 104))
    d.text((120, 30), "Add", fill=(150, 150, 150), font=_font(44))
    px = np.asarray(img)
    _, _, ink = text_style(px, (0, 0, 900, 110), "Add", field=field)
    assert ink is not None and (ink[0] >= 115 if field else ink[0] <= 30)
    # A first word is no icon: a word space is far narrower than the gap after one.
    img = Image.new("RGB", (900, 110), "white")
    ImageDraw.Draw(img).text((30, 30), "a b milk", fill=(32, 33, 36), font=_font(44))
    _, _, ink = text_style(np.asarray(img), (0, 0, 900, 110), "a b milk", field=True)
    assert ink is not None and ink[0] <= 33


def test_views_drawn_over_a_text_are_not_its_ink():
    img = Image.new("RGB", (800, 150), "white")
    d = ImageDraw.Draw(img)
    d.text((20, 50), "Milk", fill="black", font=_font(40))
    d.ellipse((700, 20, 780, 130), fill="black")  # an icon inside the text view's bounds
    _, ink = background_and_ink(np.asarray(img), (0, 0, 800, 150))
    assert ink[2] > 700
    _, ink = background_and_ink(np.asarray(img), (0, 0, 800, 150), [(690, 10, 790, 140)])
    assert ink[2] < 200


def test_a_grey_screen_has_no_accent():
    from phoneworld.visual.sample import accent

    assert accent(np.asarray(Image.new("RGB", (100, 100), (120, 120, 120)))) == ""
    assert accent(np.asarray(_screen())) == "#1a73e8"


def test_screen_pixels_scale_to_the_app_and_keep_the_top():
    tall = Image.new("RGB", (540, 1170), "black")
    tall.paste(Image.new("RGB", (540, 960), "white"), (0, 0))
    px = screen_pixels(tall, 1080, 1920)
    assert px.shape == (1920, 1080, 3) and px[1900, 500].min() > 200


# -- cutting a screen ----------------------------------------------------------------------------

def _recorded(texts: list[str]) -> tuple[Node, np.ndarray]:
    img = Image.new("RGB", (1080, 1920), "white")
    d = ImageDraw.Draw(img)
    d.text((48, 70), "Groceries", fill="black", font=_font(56))
    rows = []
    for i, t in enumerate(texts):
        y = 300 + i * 150
        d.ellipse((40, y + 50, 90, y + 100), fill=(26, 115, 232))
        d.text((120, y + 45), t, fill=(32, 33, 36), font=_font(44))
        rows.append(Node(class_name="android.widget.LinearLayout", bounds=(0, y, 1080, y + 150),
                         children=(Node(class_name="android.widget.ImageView",
                                        bounds=(40, y + 50, 90, y + 100)),
                                   Node(class_name="android.widget.TextView", text=t,
                                        bounds=(110, y + 30, 1040, y + 120)))))
    lst = Node(class_name="androidx.recyclerview.widget.RecyclerView",
               bounds=(0, 300, 1080, 1800), scrollable=True, children=tuple(rows))
    root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        Node(class_name="android.widget.TextView", text="Groceries", bounds=(40, 60, 600, 150)),
        lst))
    return root, np.asarray(img)


def _spec_root() -> View:
    row = View(cls="android.widget.LinearLayout", bounds=(0, 300, 1080, 450), children=(
        View(cls="android.widget.ImageView", bounds=(40, 350, 90, 400)),
        View(cls="android.widget.TextView", bounds=(110, 330, 1040, 420))))
    lst = View(cls="androidx.recyclerview.widget.RecyclerView", bounds=(0, 300, 1080, 1800),
               items=ListOf(table="t", pitch=150), children=(row,))
    return View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        View(cls="android.widget.TextView", bounds=(40, 60, 600, 150)), lst))


def test_extract_screen_marks_texts_and_lists_with_a_blank_sprite():
    root, px = _recorded(["Milk", "Bread", "Eggs"])
    cut = extract_screen(_spec_root(), root, px, "t/0.xml")
    assert [m.text for m in cut.marks] == ["Groceries"]  # list rows are the list's
    assert cut.accent == "#1a73e8"  # the row icons' blue
    (lst, sprite), = cut.lists
    assert [i.texts for i in lst.items] == [("Milk",), ("Bread",), ("Eggs",)]
    assert lst.bg == "#ffffff" and lst.sprite_size == (1080, 150)
    assert sprite.shape == (150, 1080, 3)
    # The sprite keeps the row's icon and loses its text.
    assert sprite[75, 65].tolist() == [26, 115, 232]
    assert sprite[50:120, 120:400].min() > 240
    (m,) = lst.sprite_marks
    assert m.bounds == (110, 30, 1040, 120) and m.style.size > 30


def test_a_text_under_a_full_screen_scrim_keeps_its_ink():
    """A leaf that covers a whole text (a bottom sheet's touch-outside scrim, recorded
    as one empty view over the screen) is not drawn over it: the text's mark still finds
    its ink, so a changed text wipes the recorded one (wikipedia's "100% (Default)")."""
    root, px = _recorded(["Milk"])
    scrim = Node(class_name="android.view.View", bounds=(0, 0, 1080, 1920), clickable=True)
    root = Node(class_name=root.class_name, bounds=root.bounds,
                children=(scrim, *root.children))
    (m,) = extract_screen(_spec_root(), root, px, "t/0.xml").marks
    assert m.text == "Groceries" and m.ink != (0, 0, 0, 0)
    assert m.ink[0] >= 40 and m.ink[2] <= 600 and m.style.size > 30


@pytest.mark.parametrize("first", [True, False])
def test_a_picture_drawn_before_a_text_and_ending_inside_it_is_its_background(first):
    """A picture larger than a text both ways, drawn before it, that covers only its
    upper part (a panel's picture ending inside a player bar's title drawn over its
    edge: qqmusic) is what the text is drawn on: the text keeps its ink, so a new title
    wipes the recorded one. Drawn after the text, it is over the text: its part is not
    the text's ink (a small picture drawn before, an icon, still is not either)."""
    root, px = _recorded(["Milk"])
    panel = Node(class_name="android.widget.ImageView", bounds=(0, 0, 1080, 95))
    text, lst = root.children
    kids = (panel, text, lst) if first else (text, panel, lst)
    root = Node(class_name=root.class_name, bounds=root.bounds, children=kids)
    (m,) = extract_screen(_spec_root(), root, px, "t/0.xml").marks
    assert m.text == "Groceries"
    assert (m.ink != (0, 0, 0, 0) and m.ink[1] < 85) if first else m.ink[1] >= 91


def test_a_list_recorded_empty_borrows_its_sprite_from_another_recording():
    from phoneworld.visual.extract import borrow_sprites

    empty_root, empty_px = _recorded([])
    cut = extract_screen(_spec_root(), empty_root, empty_px, "t/0.xml")
    ((lst, sprite),) = cut.lists
    assert lst.items == () and sprite is None
    root, px = _recorded(["Milk", "Bread"])
    cut = borrow_sprites(cut, _spec_root(), root, px)
    ((lst, sprite),) = cut.lists
    assert lst.items == () and sprite.shape == (150, 1080, 3)  # the plate's rows stay
    assert [m.text for m in lst.sprite_marks] == ["Milk"]
    assert cut.plate is empty_px


def test_the_recording_most_like_the_mock_is_picked():
    a, _ = _recorded(["Milk", "Bread"])
    b, _ = _recorded(["Tea"])
    shown = {((40, 60, 600, 150), "Groceries"), ((110, 330, 1040, 420), "Tea")}
    assert pick_recording(shown, [a, b]) == 1
    assert pick_recording(set(), [a, b]) == 0


def test_of_recordings_as_like_the_mock_the_most_typical_picture_is_picked():
    a, _ = _recorded(["Milk", "Bread"])
    b, _ = _recorded(["Tea"])
    shown = {((40, 60, 600, 150), "Groceries"), ((110, 330, 1040, 420), "Tea")}
    # No text tells them apart: the picture most like the others is the plate.
    assert pick_recording(set(), [a, a, a], typical=[0.3, 0.8, 0.5]) == 1
    # Typicality does not outweigh the mock's own texts.
    assert pick_recording(shown, [a, b], typical=[1.0, 0.0]) == 1


def test_typicality_scores_the_odd_picture_out_lowest():
    light = [np.full((60, 40), 250.0) for _ in range(3)]
    for i, g in enumerate(light):
        g[10 + i:20 + i, 5:35] = 30.0  # a dark block, one row apart in each
    dark = np.full((60, 40), 40.0)
    dark[40:50, 5:35] = 240.0
    scores = typicality([*light, dark])
    assert scores.index(min(scores)) == 3 and all(0.0 <= s <= 1.0 for s in scores)
    assert typicality([dark]) == [1.0]
    # Against a subset: each scored against the others of it alone.
    assert typicality([*light, dark], among=[0])[0] == 1.0


# -- assets and the look file --------------------------------------------------------------------

def test_assets_are_content_addressed_deduplicated_and_capped():
    px = np.asarray(_screen())
    store = encode_assets({"a": px, "b": px.copy(), "c": px[:200]})
    assert store.names["a"] == store.names["b"] != store.names["c"]
    assert len(store.files) == 2 and store.report["quality"] == 80
    assert encode_assets({"a": px, "c": px[:200]}).files == store.files  # deterministic
    big = sum(len(v) for v in store.files.values())
    small = encode_assets({"a": px, "c": px[:200]}, cap=big // 2)
    assert small.report["bytes"] <= big // 2 and small.report["scale"] <= 1.0
    assert small.report["quality"] < 80
    none = encode_assets({"a": px}, cap=10)
    assert none.files == {} and none.report["dropped"] == ["a"]


def _look() -> Look:
    mark = Mark(bounds=(0, 0, 10, 10), text="<b>hi</b>", checked=None, ink=(1, 1, 9, 9),
                bg="#ffffff", style=Style(size=20.5, color="#202124", weight=700))
    lst = ListLook(bounds=(0, 100, 100, 300), bg="#fafafa", sprite="ab" * 8 + ".webp",
                   sprite_size=(100, 50),
                   items=(Item((0, 100, 100, 150), ("a", "\u2611")),), sprite_marks=(mark,))
    return Look(screens={"main": ScreenLook(plate="cd" * 8 + ".webp", marks=(mark,),
                                            lists=(lst,), source="x/0.xml")})


def test_the_look_round_trips_through_json():
    look = _look()
    data = json.loads(json.dumps(look_to_json(look)))
    back = look_from_json(data)
    assert back.screens == look.screens
    assert back.screens["main"].marks_at[(0, 0, 10, 10)][0].text == "<b>hi</b>"


@pytest.mark.parametrize("field,bad", [
    ("plate", "../../etc/passwd"), ("plate", "x.webp"), ("plate", "AB" * 8 + ".webp"),
    ("plate", "ab" * 8 + ".svg"), ("align", "left;background:url(//x.example/a)"),
    ("color", "red;x:y"), ("accent", "#12345g")])
def test_a_look_with_anything_but_hashed_images_and_plain_styles_is_refused(tmp_path, field,
                                                                           bad):
    data = look_to_json(_look())
    screen = data["screens"]["main"]
    if field in ("plate", "accent"):
        screen[field] = bad
    else:
        screen["marks"][0]["style"][field] = bad
    (tmp_path / "look.json").write_text(json.dumps(data))
    with pytest.raises(PhoneworldError, match="look.json"):
        load_look(tmp_path)


def test_a_look_with_a_missing_asset_names_it(tmp_path):
    (tmp_path / "look.json").write_text(json.dumps(look_to_json(_look())))
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / ("ab" * 8 + ".webp")).write_bytes(b"x")
    with pytest.raises(PhoneworldError, match="cdcdcdcdcdcdcdcd.webp is missing"):
        load_look(tmp_path)
    assert load_look(tmp_path / "nowhere") is None


# -- building an app's look ----------------------------------------------------------------------

def _one_screen_spec():
    from phoneworld.spec.ast import AppSpec, Const, Screen

    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        View(cls="android.widget.TextView", bounds=(40, 60, 600, 150), text=Const("Groceries")),))
    return AppSpec(name="g", package="p", start="s", width=1080, height=1920,
                   screens=(Screen("s", "P0", root),))


def _obs(text: str, shot: str, source: str):
    from phoneworld.traces.model import Observation

    root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        Node(class_name="android.widget.TextView", text=text, bounds=(40, 60, 600, 150)),))
    return Observation(root=root, width=1080, height=1920, screenshot=shot, source=source)


def test_a_look_is_built_from_readable_screenshots_inside_the_trace(tmp_path):
    from phoneworld.traces.model import Trace
    from phoneworld.visual.build import build_look, recordings_by_screen

    folder = tmp_path / "tr"
    folder.mkdir()
    _screen().save(folder / "0.png")
    (folder / "1.png").write_bytes(b"\x89PNG not really")
    _screen().save(tmp_path / "outside.png")
    trace = Trace(format="phoneworld", name="tr", app="p", source="tr", observations=(
        _obs("Other", "0.png", "0.xml"), _obs("Groceries", "1.png", "1.xml"),
        _obs("Groceries", "../outside.png", "2.xml")))
    recs = recordings_by_screen({"s": ["tr/0.xml", "tr/1.xml", "tr/2.xml"]}, [trace],
                                [folder])
    # A trace names files in its own folder only.
    assert [r.source for r in recs["s"]] == ["tr/0.xml", "tr/1.xml"]
    spec = _one_screen_spec()
    look, files, report = build_look(spec, recs)
    # The best match (1.png, the same text) cannot be read: the next one is used.
    assert look.screens["s"].source == "tr/0.xml"
    assert len(report["warnings"]) == 1 and "1.png" in report["warnings"][0]
    assert report["screens"] == 1 and report["assets"]["bytes"] > 0
    assert set(files) == {"look.json", "visual.html", *(f"assets/{n}" for n in look.names())}
    again = build_look(spec, recs)[1]
    assert again == files  # byte for byte
    assert build_look(spec, {"s": []})[0] is None


def test_a_landscape_screenshot_of_a_portrait_app_is_left_out(tmp_path):
    from phoneworld.traces.model import Trace
    from phoneworld.visual.build import build_look, recordings_by_screen

    _screen().rotate(90, expand=True).save(tmp_path / "0.png")
    trace = Trace(format="phoneworld", name="tr", app="p", source="tr",
                  observations=(_obs("Groceries", "0.png", "0.xml"),))
    recs = recordings_by_screen({"s": ["tr/0.xml"]}, [trace], [tmp_path])
    look, files, report = build_look(_one_screen_spec(), recs)
    assert look is None and files == {}
    assert "1920x1080, the screen 1080x1920" in report["warnings"][0]


def test_a_list_of_another_size_in_the_recording_is_found_by_its_id():
    root, px = _recorded(["Milk"])
    lst = root.children[1]
    moved = root.model_copy(update={"children": (root.children[0], lst.model_copy(update={
        "bounds": (0, 300, 1080, 1500), "resource_id": "p:id/items"}))})
    view = _spec_root()
    lv = view.children[1]
    spec_root = View(cls=view.cls, bounds=view.bounds, children=(
        view.children[0], View(cls=lv.cls, bounds=lv.bounds, id="p:id/items", items=lv.items,
                               children=lv.children)))
    ((look, _),) = extract_screen(spec_root, moved, px, "t/0.xml").lists
    assert look.bounds == (0, 300, 1080, 1800) and [i.texts for i in look.items] == [("Milk",)]


def test_a_list_without_an_id_that_holds_fewer_rows_is_found_by_its_top_edge():
    """(#22) onelist's overflow menu: recorded with two of its three items, the list
    (no id) shorter than the spec's; found, its third row is drawn on the list's sprite
    rather than as a text floating under the menu. A list elsewhere is not taken."""
    root, px = _recorded(["Milk"])
    lst = root.children[1]
    shorter = root.model_copy(update={"children": (root.children[0], lst.model_copy(
        update={"bounds": (0, 300, 1080, 1500)}))})
    ((look, sprite),) = extract_screen(_spec_root(), shorter, px, "t/0.xml").lists
    assert look.bounds == (0, 300, 1080, 1800) and [i.texts for i in look.items] == [("Milk",)]
    assert sprite is not None
    lower = root.model_copy(update={"children": (root.children[0], lst.model_copy(
        update={"bounds": (0, 450, 1080, 1500)}))})
    assert extract_screen(_spec_root(), lower, px, "t/0.xml").lists == ()


def _detail(title: str, seed: int) -> tuple[Node, np.ndarray]:
    """A detail screen: a title and an entity's photo (noise seeded per entity)."""
    img = Image.new("RGB", (1080, 1920), "white")
    ImageDraw.Draw(img).text((40, 60), title, fill="black", font=_font(56))
    px = np.asarray(img).copy()
    px[300:800, 100:900] = np.random.default_rng(seed).integers(0, 255, (500, 800, 3))
    root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        Node(class_name="android.widget.TextView", text=title, bounds=(40, 40, 800, 140)),
        Node(class_name="android.widget.ImageView", bounds=(100, 300, 900, 800)),
        Node(class_name="android.widget.ImageView", bounds=(950, 60, 1010, 120))))
    return root, px


def test_pictures_that_differ_between_entities_are_varying():
    from phoneworld.visual.extract import varying_pictures

    view = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920))
    root, px = _detail("Milk", 1)
    cut = extract_screen(view, root, px, "t/0.xml")
    other, opx = _detail("Bread", 2)
    assert varying_pictures(cut, root, px, other, opx).varying == ((100, 300, 900, 800),)
    same, spx = _detail("Milk again", 1)  # the same photo: not the entity's
    assert varying_pictures(cut, root, px, same, spx).varying == ()


def test_an_empty_field_that_looks_otherwise_focused_is_not_a_varying_picture():
    """(#22) wikipedia's "Create an account": its empty Email field, focused in one
    recording (a darker fill, a floating label), is a leaf without text like a photo,
    but it was greyed as an entity's stale picture once any text changed."""
    from phoneworld.visual.extract import varying_pictures

    def field(seed: int) -> tuple[Node, np.ndarray]:
        root, px = _detail("Create", seed)
        f = root.children[1].model_copy(update={"class_name": "android.widget.EditText",
                                                "editable": True})
        return root.model_copy(update={"children": (root.children[0], f,
                                                    root.children[2])}), px

    view = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920))
    root, px = field(1)
    other, opx = field(2)
    assert varying_pictures(extract_screen(view, root, px, "t/0.xml"), root, px, other,
                            opx).varying == ()
    # An empty view lying on a field that shows a text (its hint) is none either.
    def over(seed: int) -> tuple[Node, np.ndarray]:
        root, px = field(seed)
        f = root.children[1].model_copy(update={"text": "Email (Optional)"})
        empty = Node(class_name="android.widget.TextView", bounds=f.bounds)
        return root.model_copy(update={"children": (root.children[0], f, empty,
                                                    root.children[2])}), px

    root, px = over(1)
    other, opx = over(2)
    assert varying_pictures(extract_screen(view, root, px, "t/0.xml"), root, px, other,
                            opx).varying == ()


# -- pictures that follow a text ----------------------------------------------------------------

def _stepper_view():
    from phoneworld.spec.ast import Const, Ref

    row = View(cls="android.widget.LinearLayout", bounds=(0, 300, 1080, 400), children=(
        View(cls="android.widget.TextView", bounds=(0, 300, 100, 400), text=Const("T")),
        View(cls="android.widget.SeekBar", bounds=(100, 320, 900, 380))))
    return View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920), children=(
        View(cls="android.widget.LinearLayout", bounds=(0, 100, 1080, 400), children=(
            View(cls="android.widget.TextView", bounds=(40, 120, 1040, 200),
                 text=Ref(("size",))), row)),
        View(cls="android.widget.TextView", bounds=(40, 1500, 1040, 1600),
             text=Ref(("other",)))))


def _thumb_at(x: int) -> np.ndarray:
    px = np.full((1920, 1080, 3), 255, np.uint8)
    px[345:355, 100:x] = (26, 115, 232)  # the filled track
    px[330:370, x - 20:x + 20] = (26, 115, 232)  # the thumb
    return px


def test_a_bar_beside_a_bound_text_is_cut_once_per_text_it_followed():
    from phoneworld.visual.gauges import gauge_cut, gauge_views

    (bar, text), = gauge_views(_stepper_view())
    assert bar.cls.endswith("SeekBar") and text.bounds == (40, 120, 1040, 200)
    cut = gauge_cut(bar, text, [("100%", lambda: _thumb_at(300)),
                                ("130%", lambda: _thumb_at(540)), ("x", lambda: None)])
    assert cut is not None and [t for t, _ in cut.variants] == ["100%", "130%"]
    assert cut.variants[1][1].shape == (60, 800, 3) and cut.bg == "#ffffff"
    assert cut.variants[1][1][30, 440 - 100].tolist() == [26, 115, 232]
    # A bar that looks the same beside every text does not follow it.
    assert gauge_cut(bar, text, [("100%", lambda: _thumb_at(300)),
                                 ("130%", lambda: _thumb_at(300))]) is None
    assert gauge_cut(bar, text, [("100%", lambda: _thumb_at(300))]) is None


def test_gauges_round_trip_and_only_hashed_assets_are_taken():
    from phoneworld.runtime.look import Gauge

    g = Gauge(bounds=(100, 320, 900, 380), follows=(40, 120, 1040, 200), bg="#ffffff",
              variants=(("100% <b>", "ef" * 8 + ".webp"),))
    look = Look(screens={"main": ScreenLook(plate="cd" * 8 + ".webp", gauges=(g,))})
    data = json.loads(json.dumps(look_to_json(look)))
    assert look_from_json(data).screens == look.screens
    assert "ef" * 8 + ".webp" in look.names()
    assert "gauges" not in look_to_json(_look())["screens"]["main"]  # none: as before
    data["screens"]["main"]["gauges"][0]["variants"][0][1] = "../x.webp"
    with pytest.raises(ValueError, match="bad asset name"):
        look_from_json(data)


def test_an_icon_toggle_follows_its_own_check_state():
    from phoneworld.spec.ast import Const, Ref
    from phoneworld.visual.gauges import gauge_cut, gauge_views, recorded_texts

    eye = View(cls="android.widget.ImageButton", bounds=(900, 500, 1000, 600),
               checked=Ref(("show",)), flags=("clickable", "checkable"))
    fixed = View(cls="android.widget.CheckBox", bounds=(900, 700, 1000, 800),
                 checked=Const(True), flags=("checkable",))
    root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920),
                children=(eye, fixed))
    assert gauge_views(root) == [(eye, eye)]  # a literal check state never changes

    def rec(checked: bool) -> Node:
        return Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 1920),
                    children=(Node(class_name="android.widget.ImageButton", checkable=True,
                                   checked=checked, bounds=(900, 500, 1000, 600)),))

    assert recorded_texts(eye, eye, [rec(False), rec(True), Node()]) == \
        ["\u2610", "\u2611", None]
    off = np.full((1920, 1080, 3), 255, np.uint8)
    on = off.copy()
    on[540:560, 900:1000] = 90  # the eye struck through
    cut = gauge_cut(eye, eye, [("\u2610", lambda: off), ("\u2611", lambda: on)])
    assert cut is not None and cut.follows == cut.bounds == eye.bounds


def test_a_replaced_screen_look_indexes_its_own_marks_and_lists():
    from dataclasses import replace

    sl = _look().screens["main"]
    mark = Mark(bounds=(5, 5, 50, 50), text="new")
    lst = ListLook(bounds=(0, 400, 100, 500), bg="#ffffff")
    got = replace(sl, marks=(mark,), lists=(lst,))
    assert list(got.marks_at) == [(5, 5, 50, 50)] and list(got.lists_at) == [lst.bounds]
    assert list(sl.marks_at) == [(0, 0, 10, 10)]  # the original keeps its own


@pytest.mark.parametrize("size", [36, 52, 70])
def test_a_texts_size_reads_the_same_from_a_blurred_jpeg_as_from_sharp_pixels(size):
    """A device's screenshot is a JPEG of a scaled frame: its glyphs' edges are blurred
    over a row or two more. The size is read from where the glyphs are half covered, so
    the blur does not add to it (it did, 6-8% on the shared JPEG recordings: rows drawn
    anew at that size stood out larger than the recorded rows beside them)."""
    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                                  size)
    except OSError:
        pytest.skip("Liberation Sans is not installed")
    img = Image.new("RGB", (900, 200), (255, 255, 255))
    ImageDraw.Draw(img).text((20, 40), "System Default", fill=(33, 33, 33), font=font)
    blurred = io.BytesIO()
    img.filter(ImageFilter.GaussianBlur(1.0)).save(blurred, "JPEG", quality=80)
    sharp = text_style(np.asarray(img), (10, 20, 890, 180), "System Default")[0].size
    soft = text_style(np.asarray(Image.open(blurred).convert("RGB")), (10, 20, 890, 180),
                      "System Default")[0].size
    assert abs(soft - sharp) / sharp < 0.03, (sharp, soft)
    assert abs(sharp - size) / size < 0.06, sharp  # Liberation's ascenders are Roboto's, about
