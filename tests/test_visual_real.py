"""Recorded looks on the real shared traces: every run with screenshots compiles to screens
drawn on its pixels, within the byte cap, that show state changes and look like the app."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import statistics
from collections import Counter

import pytest

pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from phoneworld.apps import load_app  # noqa: E402
from phoneworld.compiler import compile_traces  # noqa: E402
from phoneworld.runtime import Machine  # noqa: E402
from phoneworld.runtime.compose import compose  # noqa: E402
from phoneworld.runtime.compose_rows import subtree  # noqa: E402
from phoneworld.runtime.regions import regions, within  # noqa: E402
from phoneworld.runtime.widgets import kind, switch_label  # noqa: E402
from tests.conftest import SHARED_TRACES  # noqa: E402

SHOTS = (".jpg", ".png")


def _folders_with_screenshots() -> list[str]:
    if not SHARED_TRACES.is_dir():
        return []
    out = []
    for fmt in sorted(p for p in SHARED_TRACES.iterdir() if p.is_dir()):
        for app in sorted(p for p in fmt.iterdir() if p.is_dir()):
            # Whole-screen recordings (DroidBot's views/ crops alone are not screens).
            if any(f.suffix in SHOTS and f.parent.name != "views" for f in app.rglob("*")):
                out.append(f"{fmt.name}/{app.name}")
    return out


FOLDERS = _folders_with_screenshots()


_COMPILED: dict[str, object] = {}


def _compile(folder: str, tmp_path_factory):
    """The shared folder compiled (once per test session): (app folder, recordings,
    compiled app), or the error it failed with."""
    if folder not in _COMPILED:
        dest = tmp_path_factory.mktemp(folder.replace("/", "_"))
        try:
            (app,) = compile_traces(SHARED_TRACES / folder, dest)
            _COMPILED[folder] = (dest / app.name, app.recordings, app)
        except Exception as err:  # another part's bug: its own tests report it
            _COMPILED[folder] = err
    return _COMPILED[folder]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    if not FOLDERS:
        pytest.skip("../shared/traces is not here")
    out = {}
    for folder in FOLDERS:
        got = _compile(folder, tmp_path_factory)
        if isinstance(got, Exception):
            raise got
        out[folder] = got[:2]
    return out


def test_the_shared_traces_with_screenshots_are_found():
    if not SHARED_TRACES.is_dir():
        pytest.skip("../shared/traces is not here")
    assert {"droidbot/qqmusic", "droidbot/wikipedia", "droidbot/onelist",
            "droidbot/activitylauncher", "llamatouch/duolingo"} <= set(FOLDERS)


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_recorded_screen_gets_a_plate_within_the_cap(compiled, folder):
    path, _ = compiled[folder]
    report = json.loads((path / "compile_report.json").read_text())
    visual = report["visual"]
    assert visual["screens"] >= 1 and visual["warnings"] == []
    assert visual["assets"]["bytes"] <= visual["assets"]["cap"] == 5_000_000
    assert visual["assets"]["dropped"] == []
    files = sorted((path / "assets").iterdir())
    assert len(files) == visual["assets"]["files"]
    assert sum(f.stat().st_size for f in files) == visual["assets"]["bytes"]
    for f in files:  # named by content
        assert re.fullmatch(r"[0-9a-f]{16}\.webp", f.name)
    spec = load_app(path).spec
    assert set(spec.look.screens) <= {s.name for s in spec.screens}
    # The comparison page shows each of them, and the preview draws on its plate.
    page = (path / "visual.html").read_text()
    for name, sl in spec.look.screens.items():
        assert f"screens/{name}.html" in page
        preview = (path / "screens" / f"{name}.html").read_text()
        assert '<base href="../">' in preview and f"assets/{sl.plate}" in preview


@pytest.mark.parametrize("folder", FOLDERS)
def test_the_first_rendering_mostly_holds_on_its_plate(compiled, folder):
    """The plate is the recording most like the mock's first rendering: most of what the
    mock shows is in its pixels already, and little is drawn over it."""
    spec = load_app(compiled[folder][0]).spec
    m = Machine(spec)
    m.reset()
    quiet = total = 0
    for name in spec.look.screens:
        m.jump(name)
        r = m.outcome().rendering
        c = compose(r.look, r.boxes, (r.width, r.height))
        shown = [i for i, b in enumerate(r.boxes) if b.text]
        quiet += sum(1 for i in shown if i in c.quiet)
        total += len(shown)
    assert total == 0 or quiet / total >= 0.5, (quiet, total)


def _area(r) -> int:
    return max(0, r[2] - r[0]) * max(0, r[3] - r[1])


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_text_a_cut_row_keeps_is_never_wiped(compiled, folder):
    """A list row's box whose text the plate shows (quiet) keeps its glyphs: no wipe
    painted after the cuts of recorded rows covers most of it. (Wikipedia's language
    links and sidebar record a text twice, by a link and the text inside it; the copy no
    box showed was wiped over the one kept: "English" cut to "E", the sidebar's rows
    blank.)"""
    spec = load_app(compiled[folder][0]).spec
    m = Machine(spec)
    m.reset()
    for name in spec.look.screens:
        m.jump(name)
        r = m.outcome().rendering
        c = compose(r.look, r.boxes, (r.width, r.height))
        cuts = [k for k, p in enumerate(c.paints) if p.image]
        if not cuts:
            continue
        wipes = [p.rect for p in c.paints[cuts[-1] + 1:] if p.color]
        in_rows = {j for b in r.boxes if b.list_key is not None for k in b.children
                   for j in subtree(r.boxes, k)}
        for i in in_rows:
            b = r.boxes[i]
            if i not in c.quiet or not b.text.strip() or not _area(b.bounds):
                continue
            x1, y1, x2, y2 = b.bounds
            for w in wipes:
                over = (max(x1, w[0]), max(y1, w[1]), min(x2, w[2]), min(y2, w[3]))
                assert 2 * _area(over) <= _area(b.bounds), (name, b.text, b.bounds, w)


def _typable(spec):
    for s in spec.look.screens:
        m = Machine(spec)
        m.reset()
        m.jump(s)
        for e in m.observe():
            if e["editable"]:
                return m, e
    return None, None


def test_typed_text_shows_and_the_recorded_text_is_wiped(compiled):
    for folder in FOLDERS:
        spec = load_app(compiled[folder][0]).spec
        m, field = _typable(spec)
        if m is None:
            continue
        before = m.observe("html")
        m.step({"action_type": "input_text", "text": "Zebra <i>42</i>", "index": field["index"]})
        r = m.outcome().rendering
        c = compose(r.look, r.boxes, (r.width, r.height))
        (i,) = [i for i, b in enumerate(r.boxes) if b.text == "Zebra <i>42</i>"]
        assert i in c.styles and i not in c.quiet
        page = m.observe("html")
        assert "Zebra &lt;i&gt;42&lt;/i&gt;</span>" in page and page != before
        if field["text"]:  # a hint or recorded text was there: painted over
            assert any(p.color for p in c.paints)
        return
    pytest.skip("no shared app with a look has a text field")


def test_a_flipped_switch_is_drawn_in_its_new_state(compiled):
    """On a real app's recorded screen: a check widget whose state a tap flips is drawn
    anew (the recorded one wiped), not left as the recording shows it."""
    for folder in FOLDERS:
        spec = load_app(compiled[folder][0]).spec
        for name in spec.look.screens:
            m = Machine(spec)
            m.reset()
            m.jump(name)
            for e in m.observe():
                if not e["checkable"] or not e["clickable"]:
                    continue
                before = e["checked"]
                m.step({"action_type": "click", "index": e["index"]})
                if m.screen != name:
                    break
                r = m.outcome().rendering
                flipped = [i for i, b in enumerate(r.boxes) if b.checkable
                           and b.bounds == tuple(e["bounds"]) and b.checked != before
                           and not any(g.bounds == b.bounds for g in r.look.gauges)]
                if not flipped:
                    continue
                c = compose(r.look, r.boxes, (r.width, r.height))
                assert flipped[0] in c.styles and flipped[0] not in c.quiet
                state = ' on"' if not before else '"'
                assert f'class="ind track{state}' in m.observe("html") or \
                    f'class="ind box{state}' in m.observe("html")
                return
    pytest.skip("no check widget of a recorded screen flips on a tap")


def test_a_screenshot_of_the_mock_looks_like_its_recordings(compiled):
    """The issue's measure on a few screens per app (benchmarks/visual.py does all):
    edge similarity of the mock's first rendering against each recording of the screen."""
    from phoneworld.serve.screenshots import Screenshotter, browser_missing, chromium_path
    from phoneworld.visual.compare import edge_similarity
    from phoneworld.visual.extract import screen_pixels

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    shots = Screenshotter()
    means = {}
    try:
        for folder in FOLDERS:
            path, recs = compiled[folder]
            spec = load_app(path).spec
            shots.assets = spec.look.asset
            m = Machine(spec)
            m.reset()
            scores = []
            for name in sorted(spec.look.screens)[:4]:
                png = shots.shot(m.preview(name), width=spec.width, height=spec.height)
                assert Image.open(io.BytesIO(png)).size == (spec.width, spec.height)
                for r in recs[name][:4]:
                    rec = screen_pixels(Image.open(r.screenshot), spec.width, spec.height)
                    scores.append(edge_similarity(png, rec))
            means[folder] = statistics.mean(scores)
    finally:
        shots.close()
    print({k: round(v, 3) for k, v in means.items()})
    assert all(v >= 0.5 for v in means.values()), means
    assert statistics.mean(means.values()) >= 0.7, means


def _every_folder() -> list[str]:
    if not SHARED_TRACES.is_dir():
        return []
    return [f"{fmt.name}/{app.name}" for fmt in sorted(SHARED_TRACES.iterdir()) if fmt.is_dir()
            for app in sorted(fmt.iterdir()) if app.is_dir()]


@pytest.mark.parametrize("folder", _every_folder())
def test_material_pages_draw_each_text_once_and_fit_it(tmp_path_factory, folder):
    """Without a look (as for apps recorded without screenshots), every screen of every
    shared app: each text is drawn once, in its box, at a legible size."""
    import dataclasses
    import html as html_lib

    got = _compile(folder, tmp_path_factory)
    if isinstance(got, Exception):
        pytest.skip(f"{folder} does not compile here: {got}")
    spec = dataclasses.replace(got[2].spec, look=None)
    m = Machine(spec)
    m.reset()
    for s in spec.screens:
        r = m.jump(s.name).rendering
        page = r.html
        spans = re.findall(r"<span(?: style=\"[^\"]*\")?>([^<]*)</span>", page)
        # a switch shows its label without its state word (`widgets.switch_label`)
        texts = Counter(switch_label(b.text, b.checked) if kind(b, not b.children) == "switch"
                        else b.text for b in r.boxes if b.text)
        drawn = Counter(html_lib.unescape(t) for t in spans if t != "12:00")
        assert not drawn - texts, s.name  # none twice, none for descriptions
        # Each once, but a narrow switch's on/off word, which its track shows.
        switches = Counter(switch_label(b.text, b.checked) for b in r.boxes
                           if b.text and kind(b, not b.children) == "switch")
        # And but a list's row wholly past its ancestors (a web page's under the
        # browser's toolbar: `runtime.regions`).
        rs = regions(r.boxes)
        hidden = Counter(b.text for i, b in enumerate(r.boxes)
                         if b.text and within(b.bounds, rs[i]) is None)
        assert not (texts - drawn) - switches - hidden, s.name
        sizes = [float(x) for x in re.findall(r"font-size:([\d.]+)px", page)]
        assert all(x >= 4.0 for x in sizes), (s.name, min(sizes))


def _taps_that_stay(compiled, screens=lambda look: True):
    """Every tap on a clickable element of a recorded screen (of each shared folder, where
    `screens(its look)` holds) after which the app is still on that screen, from a fresh
    machine each: (folder, spec, screen name, its look, the rendering before the tap, the
    machine after it)."""
    for folder in FOLDERS:
        spec = load_app(compiled[folder][0]).spec
        for name, sl in sorted(spec.look.screens.items()):
            if not screens(sl):
                continue
            first = Machine(spec)
            first.reset()
            first.jump(name)
            for index in [e["index"] for e in first.observe() if e["clickable"]]:
                m = Machine(spec)
                m.reset()
                m.jump(name)
                before = m.outcome().rendering
                m.step({"action_type": "click", "index": index})
                if m.screen == name:
                    yield folder, spec, name, sl, before, m


def test_a_bar_beside_a_stepped_number_or_a_flipped_icon_toggle_is_drawn_as_recorded(
        compiled):
    """A seek bar whose number a tap steps (wikipedia's font size), an icon toggle a tap
    flips (its password eye): once the number or state differs from the plate's, the
    picture is painted as a recording showed it beside the new number or in the new
    state (the thumb moved, the eye struck through), or a bar covered where no recording
    did: never the plate's picture."""
    from phoneworld.runtime.compose import _value
    from phoneworld.serve.frame import decode_rgb

    found = set()
    for _, spec, _, sl, _, m in _taps_that_stay(compiled, lambda look: bool(look.gauges)):
        r = m.outcome().rendering
        for g in sl.gauges:
            value = next((_value(b) for b in r.boxes if b.bounds == g.follows), None)
            plate = next((x.text or ("\u2611" if x.checked else "\u2610")
                          for x in sl.marks_at.get(g.follows, ())), None)
            if value in (None, plate):
                continue
            found.add("toggle" if g.follows == g.bounds else "bar")
            c = compose(r.look, r.boxes, (r.width, r.height))
            (p,) = [p for p in c.paints if p.rect == g.bounds and (p.image or
                                                                   p.color == g.bg)]
            want = dict(g.variants).get(value)
            if want is None:
                assert p.color == g.bg and not p.image and g.follows != g.bounds
                continue
            assert p.image == want and p.origin == g.bounds[:2]
            if g.follows == g.bounds:  # not drawn again as a check box
                (i,) = [i for i, b in enumerate(r.boxes) if b.bounds == g.bounds]
                assert i in c.quiet
            # The variant is a recording's picture there, and not the plate's.
            x1, y1, x2, y2 = g.bounds
            plate_px = decode_rgb(spec.look.asset(sl.plate))[y1:y2, x1:x2]
            px = decode_rgb(spec.look.asset(want))
            assert px.shape == plate_px.shape
            assert (abs(px.astype(int) - plate_px).max(axis=2) > 40).mean() > 0.005
    if not found:
        pytest.skip("no shared app has a bar beside a stepped number or an icon toggle")


def test_a_list_row_whose_switch_flips_keeps_its_recorded_texts(compiled):
    """A settings row whose switch a tap flips is cut from its own recording (its title
    and summary as recorded, quiet), not from another row recorded in the new state
    with this row's texts redrawn in that row's styles."""
    from phoneworld.runtime.compose_rows import subtree

    found = 0
    for folder, _, name, _, before, m in _taps_that_stay(compiled):
        was = {b.bounds: (b.text, b.checked) for b in before.boxes}
        r = m.outcome().rendering
        c = None
        for lst in [b for b in r.boxes if b.list_key is not None
                    and b.bounds in r.look.lists_at]:
            for row in lst.children:
                sub = subtree(r.boxes, row)
                if not any(r.boxes[j].checkable and r.boxes[j].bounds in was
                           and was[r.boxes[j].bounds][1] != r.boxes[j].checked
                           for j in sub):
                    continue
                c = c or compose(r.look, r.boxes, (r.width, r.height))
                same = [j for j in sub if r.boxes[j].text.strip()
                        and not r.boxes[j].checkable
                        and was.get(r.boxes[j].bounds, ("",))[0] == r.boxes[j].text]
                found += bool(same)
                assert all(j in c.quiet for j in same), \
                    (folder, name, [r.boxes[j].text for j in same if j not in c.quiet])
    if not found:
        pytest.skip("no list row of a recorded screen has a switch a tap flips")


def test_the_screenshot_shows_the_bar_recorded_beside_the_new_number(compiled):
    """End to end, through the browser's painter: after a tap steps the number a bar
    follows, the screenshot shows at the bar the pixels recorded beside the new number,
    not the plate's (and the array equals Chromium's whole capture there)."""
    from phoneworld.serve.frame import decode_rgb
    from phoneworld.serve.screenshots import Screenshotter, browser_missing, chromium_path

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    def bars(look):
        return [g for g in look.gauges if g.follows != g.bounds]

    for _, spec, _, sl, _, m in _taps_that_stay(compiled, lambda look: bool(bars(look))):
        r = m.outcome().rendering
        for g in bars(sl):
            text = next((b.text for b in r.boxes if b.bounds == g.follows), None)
            want = dict(g.variants).get(text or "")
            plate = next((x.text for x in sl.marks_at.get(g.follows, ())), None)
            if want is None or text == plate:
                continue
            shots = Screenshotter(assets=spec.look.asset)
            try:
                px = shots.pixels(m.observe("html"), width=spec.width,
                                  height=spec.height)
                whole = shots.pixels(m.observe("html") + "<!-- whole -->",
                                     width=spec.width, height=spec.height)
            finally:
                shots.close()
            x1, y1, x2, y2 = g.bounds
            bar = px[y1:y2, x1:x2].astype(int)
            assert (bar == decode_rgb(spec.look.asset(want))).all()
            plate_bar = decode_rgb(spec.look.asset(sl.plate))[y1:y2, x1:x2]
            assert (abs(bar - plate_bar).max(axis=2) > 40).mean() > 0.005
            assert abs(bar - whole[y1:y2, x1:x2]).max() <= 2
            return
    pytest.skip("no shared app has a bar beside a number a tap steps")


def test_a_flipped_switch_the_plate_shows_elsewhere_in_its_new_state_is_cut_from_there(
        compiled):
    """activitylauncher's settings: a row's switch turned off is drawn as the plate
    draws the other row's switch that was recorded off (same size and text), not
    redrawn in the Material look, and never left in its recorded state."""
    found = 0
    for _, _, _, _, before, m in _taps_that_stay(compiled):
        was = {b.bounds: b.checked for b in before.boxes if b.checkable}
        r = m.outcome().rendering
        c = compose(r.look, r.boxes, (r.width, r.height))
        marks = [*r.look.marks, *(
            dataclasses.replace(mk, bounds=(it.bounds[0] + mk.bounds[0],
                                            it.bounds[1] + mk.bounds[1],
                                            it.bounds[0] + mk.bounds[2],
                                            it.bounds[1] + mk.bounds[3]))
            for lst in r.look.lists for it in lst.items for mk in it.marks)]
        for i, b in enumerate(r.boxes):
            if not b.checkable or was.get(b.bounds, b.checked) == b.checked \
                    or any(g.bounds == b.bounds for g in r.look.gauges):
                continue
            w, h = b.bounds[2] - b.bounds[0], b.bounds[3] - b.bounds[1]
            donors = {mk.bounds[:2] for mk in marks if mk.checked == b.checked
                      and mk.text == b.text and mk.bounds[2] - mk.bounds[0] == w
                      and mk.bounds[3] - mk.bounds[1] == h}
            if not donors:
                assert i in c.styles  # drawn anew in its new state
                continue
            found += 1
            assert i in c.quiet and i not in c.styles
            (cut,) = [p for p in c.paints
                      if p.rect == b.bounds and p.image == r.look.plate]
            assert (b.bounds[0] - cut.origin[0], b.bounds[1] - cut.origin[1]) in donors
    if not found:
        pytest.skip("no recorded screen shows a flipped switch's new state elsewhere")


def test_qqmusics_my_page_and_album_page_hold_on_their_plates(compiled):
    """qqmusic's 我的 page and the album page over it, first rendered: nothing is painted
    over the page but the player bar (its bound song title over a wipe of the recorded
    one): the 我的 title and the search hint the recording holds twice stay, the icon row
    recorded inset from the list's sides is not moved, the album's songs are not cut by
    the 我的 list under them, nor the player bar by the edge of a row under it."""
    from phoneworld.runtime.layers import page_layers

    path, _ = compiled["droidbot/qqmusic"]
    spec = load_app(path).spec
    m = Machine(spec)
    m.reset()
    for name in ("app_starter_3", "app_starter_4"):
        sl = spec.look.screens[name]
        (bar,) = [lst for lst in sl.lists if lst.bounds[3] - lst.bounds[1] < 200]
        assert bar.sprite_marks and bar.sprite_marks[0].ink != (0, 0, 0, 0)
        paints = page_layers(m.preview(name), (spec.width, spec.height)).paints
        x1, y1, x2, y2 = bar.bounds
        songs = [p.rect for p in paints if p.rect[3] > 744
                 and not (x1 <= p.rect[0] and y1 <= p.rect[1] and p.rect[2] <= x2
                          and p.rect[3] <= y2)]
        assert songs == [], name


def test_qqmusics_player_bar_title_is_cut_where_its_cover_is_drawn_over_it(compiled):
    """The player bar's song title (a view that starts under the cover and the disc,
    which Android draws over it) is drawn anew from where the disc ends, not over the
    cover's pixels."""
    path, _ = compiled["droidbot/qqmusic"]
    spec = load_app(path).spec
    m = Machine(spec)
    m.reset()
    m.jump("app_starter_3")
    r = m.rendered()
    (i,) = [k for k, b in enumerate(r.boxes) if "\u00a0-\u00a0" in b.text
            and b.bounds[1] > 1800]
    x1 = r.boxes[i].bounds[0]
    cover = max(b.bounds[2] for b in r.boxes[i + 1:] if not b.children and not b.text
                and b.bounds[0] < x1 < b.bounds[2] < r.boxes[i].bounds[2])
    (line,) = [ln for ln in m.observe("html").splitlines()
               if f"<span>{r.boxes[i].text}</span>" in ln]
    inset = float(re.search(r"clip-path:inset\([\d.]+px [\d.]+px [\d.]+px ([\d.]+)px\)",
                            line)[1])
    assert inset >= (cover - x1) * 412 / spec.width - 0.1


def test_a_dialog_opened_on_a_row_is_previewed_with_a_row_its_recordings_show(compiled):
    """(#22) A dialog whose transitions admit any row of the list under it is shown with
    a row the recordings opened it with (the one its layout was recorded with, of the
    row it was opened with most), not the list's first: activitylauncher's Theme /
    Language dialog (a swipe on any Settings row admits the "Settings" heading: a dialog
    with no choices; six of its seven recordings are Theme's) and onelist's New folder
    dialog (the default of a menu whose first row is "Sort by...")."""
    for folder, screen, titles in (("droidbot/activitylauncher", "settings_theme",
                                    {"Theme"}),
                                   ("droidbot/onelist", "ext_documentsui_new_folder",
                                    {"New folder"})):
        spec = load_app(compiled[folder][0]).spec
        m = Machine(spec)
        m.reset()
        shown = m.preview(screen, "elements")
        title = [e["text"] for e in shown if e["resource_id"].endswith(":id/alertTitle")]
        assert len(title) == 1 and title[0] in titles, (folder, title)
        if title[0] != "New folder":  # the dialog lists its row's choices
            assert sum(e["resource_id"] == "android:id/text1" for e in shown) >= 3


def test_duolingos_lesson_row_is_not_painted_over_with_the_unit_headers_sprite(compiled):
    """Duolingo's course path: a unit header (green, 242 high), then a lesson button (375
    high, recorded with its popup's text hidden). The lesson row shares no text with a
    recorded row: the plate shows it as recorded, not the header's sprite (a green band
    with "START" on it)."""
    folder = "llamatouch/duolingo"
    if folder not in compiled:
        pytest.skip(f"{folder} is not among the shared traces")
    app = load_app(compiled[folder][0])
    m = Machine(app.spec)
    m.reset()
    (lst,) = app.spec.look.screens["login"].lists
    html = m.preview("login")
    assert lst.sprite is not None and f"assets/{lst.sprite}" not in html
    assert ">START</span>" in html  # the row's text is drawn all the same


def test_an_album_the_traces_hold_nothing_of_keeps_its_header_with_its_texts_wiped(compiled):
    """qqmusic's album page opened on an album the traces hold no songs or header of (its
    one list, header and songs, renders no row): the header (a row of another kind than
    the songs, at the list's start) keeps its pixels and loses its texts; the songs are
    wiped. The page is not a blank white one (the status bar wiped with it)."""
    from phoneworld.runtime.layers import page_layers

    path, _ = compiled["droidbot/qqmusic"]
    spec = load_app(path).spec
    m = Machine(spec)
    m.reset()
    sl = spec.look.screens["app_starter_4"]
    (page,) = [lst for lst in sl.lists if lst.bounds[1] == 0]
    head = page.items[0]
    assert head.texts and head.bounds[3] - head.bounds[1] > 2 * page.sprite_size[1]
    shown = m.preview("app_starter_4")
    table = next(s.param for s in spec.screens if s.name == "app_starter_4")
    others = []
    for rid in m.row_ids(table):
        m.jump("app_starter_4", rid)
        html = m.observe("html")
        if html.count("data-index") < shown.count("data-index") - 10:  # no album rows
            others.append(html)
    assert others
    for html in others:
        paints = page_layers(html, (spec.width, spec.height)).paints
        hx1, hy1, hx2, hy2 = head.bounds
        over = [p for p in paints if p.rect[0] <= hx1 and p.rect[1] <= hy1
                and p.rect[2] >= hx2 and p.rect[3] >= (hy1 + hy2) // 2]
        assert over == []
        inks = {p.rect for p in paints if p.color}
        assert all(mk.ink in inks for mk in head.marks if mk.text)
        assert any(p.rect == page.items[3].bounds for p in paints)  # a song wiped


def test_wikipedias_view_history_tab_is_shown_whole(compiled):
    """Wikipedia's privacy policy page (Firefox): the Read | Feedback | View history tabs
    lie in a list of the template's pitch, wider than the first tab: they are its
    recorded rows, shown as recorded, not cut from the plate at the pitch's places (the
    last one cut to "View hist" by the list's end)."""
    from phoneworld.runtime.layers import page_layers

    path, _ = compiled["droidbot/wikipedia"]
    spec = load_app(path).spec
    m = Machine(spec)
    m.reset()
    sl = spec.look.screens["ext_firefox_privacy_policy"]
    (tabs,) = [lst for lst in sl.lists
               if any("View history" in it.texts for it in lst.items)]
    paints = page_layers(m.preview("ext_firefox_privacy_policy"),
                         (spec.width, spec.height)).paints
    x1, y1, x2, y2 = tabs.bounds
    assert not [p for p in paints if p.rect[0] < x2 and x1 < p.rect[2]
                and p.rect[1] < y2 and y1 < p.rect[3]]
