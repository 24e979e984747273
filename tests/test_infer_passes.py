"""Each inference pass on its own, on small recorded apps (tests/infer_fixtures.py)."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from phoneworld.infer.app import PASSES
from phoneworld.infer.lists import drill_downs
from phoneworld.infer.representatives import most_opened
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import BinOp, BoolOp, Call, Compare, Const, Ref
from tests.infer_fixtures import (
    App,
    W,
    _n,
    button,
    centre,
    edit,
    facts,
    label,
    rows,
    screen,
    screen_of,
    switch,
    title,
)

LIST = "FrameLayout/RecyclerView#list"
GOODS = [("Milk", "$2"), ("Eggs", "$3"), ("Bread", "$1")]


def _home(items=GOODS):
    return screen(title("Shop"), rows("list", items))


def _detail(name: str, price: str):
    return screen(title(name), label("price", price, 200), button("add", "Add", 400))


def _shop():
    """home -> Milk -> back -> Eggs: a list whose rows open one detail screen."""
    return (App().show(_home()).tap(1, 0).show(_detail("Milk", "$2")).back()
            .show(_home()).tap(1, 1).show(_detail("Eggs", "$3")).trace())


def _folders():
    """A file chooser: tapping a folder row replaces the list on the same screen."""
    top = screen(title("Files"), rows("list", [("Music",), ("Photos",), ("Docs",)]))
    music = screen(title("Files"), rows("list", [("a.mp3",), ("b.mp3",), ("c.mp3",)]))
    return App().show(top).tap(1, 0).show(music).trace()


def test_the_passes_are_listed_once_each_in_order():
    names = [n for n, _ in PASSES]
    assert len(names) == len(set(names))
    assert names.index("parameters") < names.index("rows") < names.index("details") \
        < names.index("tables") < names.index("transitions") < names.index("layouts")
    # (#21) numbers that follow the state are bound into the layouts: they need the effects
    assert names.index("transitions") < names.index("derived") < names.index("layouts")


@pytest.mark.parametrize("until", [n for n, _ in PASSES])
def test_every_pass_leaves_the_facts_it_was_given_as_they_were(until):
    before = facts(_shop(), _folders(), until=until)

    def state(f):
        return ({k: copy.deepcopy(dict(v)) for k, v in f.lists.items()}, dict(f.params),
                dict(f.provenance.effects), dict(f.created), f.tables, f.views)

    kept = state(before)
    after = dict(PASSES)[until](before)
    assert state(before) == kept
    assert dataclasses.is_dataclass(after) and after is not before


def test_representative_is_the_observation_that_holds_the_recorded_widgets():
    # The first home observation lacks the button that a later one was tapped on.
    tr = (App().show(screen(title("Shop"), rows("list", GOODS)))
          .back().show(screen(title("Shop"), rows("list", GOODS), button("cart", "Cart", 2200)))
          .tap(2).show(_detail("Cart", "$0")).trace())
    f = facts(tr, until="representatives")
    home = f.screens[screen_of(f, 0, 0)]
    assert home.rep == ObsRef(trace=0, index=1)
    assert "cart" in home.names.values()
    assert len(set(home.names.values())) == len(home.names)


def test_a_dialog_is_laid_out_from_its_fullest_recording():
    from tests.infer_fixtures import _n

    def dialog(items):
        lst = rows("list", items, y=800, pitch=100)
        top = 800 - 100
        return _n("FrameLayout", "", "", (100, top, 980, 800 + 100 * len(items)), [
            _n("TextView", "alertTitle", "Open", (100, top, 980, 800)), lst])
    tr = (App().show(dialog([("a/",), ("b/",)])).tap(1, 0)
          .show(dialog([("x",), ("y",), ("z",), ("w",)])).trace())
    f = facts(tr, until="representatives")
    (info,) = f.screens.values()
    assert info.rep == ObsRef(trace=0, index=1)


def _settings_dialogs():
    """A settings list whose rows open one dialog: twice on Theme (three choices), then
    once on Language (five choices, the fuller dialog)."""
    def settings():
        return screen(title("Settings"), rows("list", [("Theme",), ("Language",)]))

    def dialog(name, choices):
        lst = rows("choices", [(c,) for c in choices], y=800, pitch=100)
        return _n("FrameLayout", "", "", (100, 700, 980, 800 + 100 * len(choices)), [
            _n("TextView", "alertTitle", name, (100, 700, 980, 800)), lst])
    themes = [("Light",), ("Dark",), ("System",)]
    app = App().show(settings())
    for _ in range(2):
        app = app.tap(1, 0).show(dialog("Theme", [t[0] for t in themes])).back() \
            .show(settings())
    return app.tap(1, 1).show(dialog("Language", ["English", "Deutsch", "Français",
                                                  "Español", "Italiano"])).trace()


def test_a_screen_opened_on_several_rows_is_drawn_from_the_row_opened_most():
    """(#22) The fullest recording is the Language dialog, but the dialog was opened on
    Theme twice: its layout and the row it is previewed with are Theme's."""
    tr = _settings_dialogs()
    rows_known = facts(tr, until="rows")
    dialog = screen_of(rows_known, 0, 1)
    assert screen_of(rows_known, 0, 5) == dialog  # one screen for both dialogs
    assert rows_known.screens[dialog].rep == ObsRef(trace=0, index=5)  # Language
    f = facts(tr, until="opened rows")
    info = f.screens[dialog]
    assert info.rep in (ObsRef(trace=0, index=1), ObsRef(trace=0, index=3))
    assert f.ctx_of[info.rep] == 1  # the Theme row
    assert info.root.at((0,)).text == "Theme" and "alertTitle" in str(info.keys)
    assert {s.name: s.opened for s in facts(tr).views}[dialog] == 1
    # A screen shown with one row only keeps its representative.
    assert facts(_shop(), until="opened rows").screens == facts(_shop(), until="rows").screens


def test_a_representative_that_shows_no_row_stays():
    """A folder dialog laid out at its root (no row) keeps that layout, however often
    one of its folders was opened: none is not a row the screen was opened with."""
    def dialog(items):
        lst = rows("list", items, y=800, pitch=100)
        return _n("FrameLayout", "", "", (100, 700, 980, 800 + 100 * len(items)), [
            _n("TextView", "alertTitle", "Open", (100, 700, 980, 800)), lst])
    top = [("a/",), ("b/",), ("c/",), ("d/",), ("e/",)]
    app = App()
    for _ in range(2):
        app = app.show(dialog(top)).tap(1, 0).show(dialog([("x",), ("y",)])).back()
    tr = app.show(dialog(top)).trace()
    f = facts(tr, until="rows")
    (info,) = f.screens.values()
    assert f.ctx_of[info.rep] is None  # the fullest: the root
    assert sum(v is not None for v in f.ctx_of.values()) >= 2  # rows, more often
    assert facts(tr, until="opened rows").screens == f.screens


def test_the_row_opened_most_breaks_ties_by_the_representative_then_the_lowest():
    assert most_opened([4, 4, 5], 5) == 4
    assert most_opened([4, 5], 5) == 5
    assert most_opened([5, 4], 7) == 4
    assert most_opened([], 3) == 3


def test_lists_become_tables_with_unique_names():
    long = "x" * 60
    tr = App().show(screen(title("A"), rows(long, GOODS), rows(long + "y", GOODS, y=1200))
                    ).trace()
    f = facts(tr, until="lists")
    (mine,) = f.lists.values()
    tables = [lc.table for lc in mine.values()]
    assert len(tables) == 2 and len(set(tables)) == 2
    assert all(not lc.rows for lc in mine.values())  # rows come in a later pass


def test_a_screen_entered_from_list_rows_is_parameterised_by_that_list():
    f = facts(_shop(), until="parameters")
    assert f.params == {screen_of(f, 0, 1): (screen_of(f, 0, 0), LIST)}


def test_a_drill_down_parameterises_the_list_own_screen():
    f = facts(_folders(), until="parameters")
    home = screen_of(f, 0, 0)
    assert screen_of(f, 0, 1) == home
    assert drill_downs(f) == {(home, LIST): 1}
    assert f.params == {home: (home, LIST)}
    # Same screen, same list, but most items stay: scrolling, not a drill-down.
    more = App().show(_home()).tap(1, 0).show(_home(GOODS + [("Jam", "$4")])).trace()
    assert not drill_downs(facts(more, until="parameters"))


def test_rows_are_collected_in_order_with_the_row_each_screen_shows():
    f = facts(_shop(), until="rows")
    home, detail = screen_of(f, 0, 0), screen_of(f, 0, 1)
    lc = f.lists[home][LIST]
    assert [r[2:] for r in lc.rows] == [["Milk", "$2"], ["Eggs", "$3"], ["Bread", "$1"]]
    assert f.tapped == {(0, 0): 1, (0, 2): 2}
    assert f.ctx_of[ObsRef(trace=0, index=1)] == 1 and f.ctx_of[ObsRef(trace=0, index=3)] == 2
    assert f.row_ids[ObsRef(trace=0, index=0)] == {LIST: (1, 2, 3)}
    assert detail not in f.row_ids[ObsRef(trace=0, index=1)]


def test_drill_down_rows_belong_to_the_folder_they_were_seen_in():
    f = facts(_folders(), until="rows")
    (lc,) = f.lists[screen_of(f, 0, 0)].values()
    assert [(r[1], r[2]) for r in lc.rows] == [
        (None, "Music"), (None, "Photos"), (None, "Docs"),
        (1, "a.mp3"), (1, "b.mp3"), (1, "c.mp3")]


def _chat():
    msgs = [("Hi",), ("How are you",)]
    chat = screen(title("Ann"), rows("list", msgs), edit("msg", 2100), button("send", "Send",
                                                                                2250))
    after = screen(title("Ann"), rows("list", msgs + [("See you",)]), edit("msg", 2100),
                   button("send", "Send", 2250))
    return App().show(chat).type("See you", 2).show(chat).tap(3).show(after).trace()


def test_a_typed_text_that_appears_as_a_new_row_is_a_send():
    f = facts(_chat(), until="sends")
    ((key, (lkey, field, field_key, rid)),) = f.sends.items()
    assert key[2] == "tap" and lkey == LIST and field == 0 and rid == 3
    assert field_key.endswith("EditText#msg")
    assert f.created == {f.lists[key[0]][LIST].table: frozenset({3})}


def _cart(step: str):
    before = screen(title("Cart"), rows("list", [("Milk", "1"), ("Eggs", "2")],
                                        row_buttons=("plus", "remove")))
    after = {"remove": [("Eggs", "2")], "plus": [("Milk", "2"), ("Eggs", "2")]}[step]
    button_at = {"plus": 2, "remove": 3}[step]
    return (App().show(before).tap(1, 0, button_at)
            .show(screen(title("Cart"), rows("list", after, row_buttons=("plus", "remove"))))
            .trace())


def test_a_row_that_vanished_after_its_remove_button_is_a_delete():
    f = facts(_cart("remove"), until="row edits")
    assert list(f.edits.values()) == [("delete", LIST)]


def test_a_list_gone_once_its_only_row_is_tapped_is_no_delete():
    # a drop-down of one choice closes once it is picked: nothing was deleted
    one = screen(title("Where to"), rows("list", [("Use my location",)]))
    tr = App().show(one).tap(1, 0).show(screen(title("Where to"), rows("list", []))).trace()
    assert facts(tr, until="row edits").edits == {}
    # a row tapped itself gone from among others is one
    two = screen(title("Where to"), rows("list", [("Use my location",), ("Home",)]))
    tr = App().show(two).tap(1, 0).show(screen(title("Where to"), rows("list", [("Home",)]))) \
        .trace()
    assert list(facts(tr, until="row edits").edits.values()) == [("delete", LIST)]


def test_a_row_edit_stays_with_the_rows_whose_tap_stayed():
    # uber's suggestions: "Use my location" vanished once tapped; a place opens its page
    places = [("Use my location",), ("Home",), ("Work",)]
    after = screen(title("Where to"), rows("list", places[1:]))
    tr = (App().show(screen(title("Where to"), rows("list", places))).tap(1, 0).show(after)
          .tap(1, 0).show(_detail("Home", "$2")).back().show(after)
          .tap(1, 1).show(_detail("Work", "$3")).trace())
    f = facts(tr)
    taps = [t for t in f.transitions if t.action == "tap" and t.screen == screen_of(f, 0, 0)]
    assert {t.target: [e.op for e in t.effects] for t in taps} == {
        "stay": ["delete"], screen_of(f, 0, 2): []}


def test_a_row_number_that_moved_after_a_tap_is_an_update_by_that_step():
    f = facts(_cart("plus"), until="row edits")
    assert list(f.edits.values()) == [("update", LIST, 1, 1)]
    # ("Milk", "2") is the Milk row after the step, not a row of its own.
    assert not f.created
    assert [r[2:] for r in f.lists[screen_of(f, 0, 0)][LIST].rows] == [["Milk", "1"],
                                                                       ["Eggs", "2"]]


def test_a_row_cut_by_the_list_edge_is_the_row_it_shows_part_of():
    full = rows("list", [("Milk", "$2"), ("Eggs", "$3")], y=400, pitch=200)
    # Scrolled: Milk's price is cut off at the top, Eggs shows whole, Jam is cut at the
    # bottom (its price out of view) and then seen whole.
    top = full.model_copy(update={"bounds": (0, 450, 1080, 900), "children": (
        rows("list", [("Milk",)], y=450, pitch=100).children[0],
        rows("list", [("Eggs", "$3")], y=550, pitch=200).children[0],
        rows("list", [("Jam",)], y=750, pitch=150).children[0])})
    whole = rows("list", [("Jam", "$4")], y=400)
    tr = (App().show(screen(title("Shop"), full)).back().show(screen(title("Shop"), top))
          .back().show(screen(title("Shop"), whole)).trace())
    f = facts(tr, until="rows")
    assert [r[2:] for r in f.lists[screen_of(f, 0, 0)][LIST].rows] == [
        ["Milk", "$2"], ["Eggs", "$3"], ["Jam", "$4"]]


def test_a_switch_flipped_or_a_summary_changed_in_place_is_the_same_row():
    def prefs(wifi, theme):
        return screen(title("Settings"), rows("list", [("Wi-Fi", wifi), ("Theme", theme),
                                                       ("About", "v1")]))
    tr = (App().show(prefs("Off", "Light")).back().show(prefs("Off", "Dark")).back()
          .show(prefs("On", "Dark")).trace())
    f = facts(tr, until="rows")
    lc = f.lists[screen_of(f, 0, 0)][LIST]
    assert [r[2:] for r in lc.rows] == [["Wi-Fi", "Off"], ["Theme", "Light"], ["About", "v1"]]
    assert f.shown[ObsRef(trace=0, index=2)][LIST][1] == ("Theme", "Dark")
    # A list scrolled to other rows is other rows, even where one text repeats.
    tr = (App().show(screen(title("Inbox"), rows("list", [("Ann", "Hi"), ("Bob", "Yo")])))
          .back().show(screen(title("Inbox"), rows("list", [("Ann", "Bye"), ("Cy", "Hm")])))
          .trace())
    f = facts(tr, until="rows")
    assert len(f.lists[screen_of(f, 0, 0)][LIST].rows) == 4


def test_columns_are_named_from_ids_and_never_reserved():
    tr = App().show(screen(title("A"), rows("list", [("a", "b")]))).trace()
    f = facts(tr, until="columns")
    (lc,) = f.lists[screen_of(f, 0, 0)].values()
    assert lc.columns == ["f1", "f2"]


def test_detail_texts_bind_to_the_row_columns_or_new_ones():
    def detail(name, price, stock):
        return screen(title(name), label("price", price, 200), label("stock", stock, 300))
    tr = (App().show(_home()).tap(1, 0).show(detail("Milk", "$2", "4 left")).back()
          .show(_home()).tap(1, 1).show(detail("Eggs", "$3", "9 left")).trace())
    f = facts(tr, until="details")
    (bound,) = f.details.values()
    assert bound["FrameLayout/TextView#title"] == Ref(("param", "f1"))
    assert bound["FrameLayout/TextView#price"] == Ref(("param", "f2"))
    assert bound["FrameLayout/TextView#stock"] == Ref(("param", "d_stock"))
    lc = f.lists[screen_of(f, 0, 0)][LIST]
    assert [r[-1] for r in lc.rows] == ["4 left", "9 left", ""]


def test_a_title_and_subtitle_without_ids_bind_by_their_place():
    # messages' conversation header: two TextViews without ids, told apart by their own
    # texts, so each conversation named them anew and the title stayed the one recorded
    # first ("Sam Rivera" over every conversation).
    def detail(name, phone):
        return screen(_n("TextView", "", name, (0, 0, W, 80)),
                      _n("TextView", "", phone, (0, 80, W, 150)))
    tr = (App().show(_home()).tap(1, 0).show(detail("Milk", "+1 555")).back()
          .show(_home()).tap(1, 1).show(detail("Eggs", "+1 666")).trace())
    f = facts(tr, until="details")
    (bound,) = f.details.values()
    assert sorted(bound.values(), key=str) == [Ref(("param", "d_text_view")),
                                               Ref(("param", "f1"))]
    lc = f.lists[screen_of(f, 0, 0)][LIST]
    assert [r[-1] for r in lc.rows] == ["+1 555", "+1 666", ""]


def test_texts_seen_with_one_row_only_stay_literal_unless_they_are_its_texts():
    tr = App().show(_home()).tap(1, 1).show(_detail("Eggs", "$3")).trace()
    f = facts(tr, until="details")
    (bound,) = f.details.values()
    assert bound == {"FrameLayout/TextView#title": Ref(("param", "f1")),
                     "FrameLayout/TextView#price": Ref(("param", "f2"))}  # "Add" stays


def test_a_bound_text_shows_what_the_screen_always_showed_without_a_row():
    # A folder dialog: opened on its root (no row) it says "Files", in a folder its name.
    def folder(name, items):
        return screen(title(name), rows("list", items))
    top = [("Music",), ("Photos",)]
    tr = (App().show(folder("Files", top)).tap(1, 0)
          .show(folder("Music", [("a.mp3",), ("b.mp3",)])).trace())
    again = App().show(folder("Files", top)).tap(1, 1).show(folder("Photos", [
        ("c.jpg",), ("d.jpg",)])).trace()
    f = facts(tr, again, until="details")
    (bound,) = f.details.values()
    assert bound["FrameLayout/TextView#title"] == Call(
        "otherwise", args=(Ref(("param", "f1")), Const("Files")))


def test_a_screen_is_laid_out_as_most_visits_saw_it_not_as_a_tap_on_it_left_it():
    # The form is first seen with an error under it, then three times as it mostly
    # looks; and a submit on it once left the error again.
    def form(error=""):
        return screen(title("Checkout"), button("pay", "Pay", 300), label("err", error, 500))
    home = screen(title("Shop"), button("go", "Checkout", 300))
    tr = (App().show(home).tap(1).show(form("Required")).back().show(home).tap(1)
          .show(form()).back().show(home).tap(1).show(form()).back().show(home).tap(1)
          .show(form()).tap(1).show(form("Required")).trace())
    f = facts(tr, until="representatives")
    info = f.screens[screen_of(f, 0, 1)]
    assert "Required" not in {n.text for _, n in info.root.walk()}


def _settings():
    on = screen(title("Settings"), switch("wifi", True, 300))
    off = screen(title("Settings"), switch("wifi", False, 300))
    return App().show(on).tap(1).show(off).trace()


def test_checkable_views_are_flags_with_their_first_state_and_flips_are_toggles():
    f = facts(_settings(), until="toggles")
    (flag,) = f.flags
    assert flag.initial is True and flag.type == "bool"
    ((key, effects),) = f.toggles.items()
    assert key[2] == "tap" and effects == (("flag", flag.name),)


def test_tables_leave_out_rows_made_by_recorded_actions():
    f = facts(_chat(), until="tables")
    (table,) = f.tables
    assert table.kind == "state"
    assert [r[2] for r in table.rows] == ["Hi", "How are you"]
    f = facts(_shop(), until="tables")
    assert [t.kind for t in f.tables] == ["content"]


def test_layouts_bind_lists_details_and_flags():
    f = facts(_shop(), until="layouts")
    views = {v.name: v for v in f.views}
    detail = views[screen_of(f, 0, 1)]
    assert detail.param == "main_list" and "detail" in detail.modules
    texts = [v.text for v in _walk(detail.root) if v.text is not None]
    assert Ref(("param", "f1")) in texts
    home = views[screen_of(f, 0, 0)]
    (lst,) = [v for v in _walk(home.root) if v.items is not None]
    assert lst.items.table == "main_list" and len(lst.children) == 1  # the item template
    f = facts(_settings(), until="layouts")
    (sw,) = [v for v in _walk(f.views[0].root) if "checkable" in v.flags]
    assert sw.checked == Ref((f.flags[0].name,))


def test_a_list_of_mixed_rows_is_drawn_from_its_typical_row_with_the_others_texts():
    from tests.infer_fixtures import _n

    def song(y, name, artist, comment=""):
        kids = [_n("TextView", "name", name, (0, y, 600, y + 100)),
                _n("TextView", "artist", artist, (0, y + 100, 600, y + 200))]
        if comment:
            kids.append(_n("LinearLayout", "box", "", (0, y + 200, 1080, y + 300), [
                _n("TextView", "comment", comment, (0, y + 200, 1080, y + 300))]))
        return _n("LinearLayout", "song", "", (0, y, 1080, y + (300 if comment else 200)),
                  kids, clickable=True)

    def album(songs_at, name="Blue"):
        header = _n("TextView", "header", f"Album: {name}", (0, 400, 1080, 500))
        kids = [header, *(song(y, n, a, c) for y, (n, a, c) in songs_at)]
        return screen(title("Album"), _n("RecyclerView", "list", "", (0, 400, 1080, 2400),
                                         kids, scrollable=True))
    tr = (App().show(album([(500, ("One", "Ann", "")), (700, ("Two", "Bob", "great")),
                            (1000, ("Three", "Cy", ""))])).back()
          .show(album([(500, ("Four", "Di", "nice")), (800, ("Five", "Ed", ""))], "Red"))
          .trace())
    f = facts(tr, until="layouts")
    (view,) = f.views
    (lst,) = [v for v in _walk(view.root) if v.items is not None]
    (template,) = lst.children
    bound = {v.text.path[-1] for v in _walk(template) if isinstance(v.text, Ref)}
    # The typical row (name, artist) with the header's and the comment's texts added.
    assert bound == {"name", "artist", "header", "comment"}
    assert template.id.endswith("id/song")
    assert not any("clickable" in v.flags for v in template.children[2:])


def test_a_tapped_button_of_another_row_type_keeps_its_own_target():
    """(#21) qqmusic's album: the list's template is a song row; the header row above the
    songs holds a share button ("Share" in a clickable box) whose tap opened the share
    sheet. The template keeps that box, clickable and named, and the tap is on it (on a
    row that shows its text), not on the whole row; so does a clickable text of the header
    (the artist's name); a song row still opens the song."""
    from phoneworld.infer.app import infer_app
    from phoneworld.infer.graph import build_graph
    from phoneworld.runtime import Machine
    from tests.infer_fixtures import _n

    def song(y, name):
        return _n("LinearLayout", "song", "", (0, y, 1080, y + 200), [
            _n("TextView", "name", name, (0, y, 600, y + 100)),
            _n("TextView", "artist", "Ann", (0, y + 100, 600, y + 200))], clickable=True)

    def album():
        head = _n("LinearLayout", "head", "", (0, 400, 1080, 900), [
            _n("TextView", "album", "Blue", (0, 400, 1080, 500)),
            _n("TextView", "artist_link", "Ann", (0, 600, 300, 700), clickable=True),
            _n("LinearLayout", "share", "", (800, 750, 1080, 850), [
                _n("TextView", "share_text", "Share", (900, 760, 1080, 840))],
               clickable=True)], clickable=True)
        return screen(title("Album"), _n("RecyclerView", "list", "", (0, 400, 1080, 2400),
                                         [head, *(song(900 + 200 * i, f"Song {i}")
                                                  for i in range(4))], scrollable=True))
    sheet = screen(title("Share to"), button("wechat", "WeChat", 400))
    artist = screen(title("Artist"), button("follow", "Follow", 400))
    tr = (App().show(album()).tap(1, 0, 2).show(sheet, ".Share").back()
          .show(album()).tap(1, 2).show(_detail("Song 1", "$1"), ".Song").back()
          .show(album()).tap(1, 0, 1).show(artist, ".Artist").trace())
    spec, _ = infer_app("app", build_graph("app", [tr]), [tr])
    album_screen = spec.start
    (share,) = [t for t in spec.transitions if t.screen == album_screen
                and t.target == "share"] or [None]
    assert share is not None and share.widget == "share", spec.transitions
    assert share.when == Compare("!=", Ref(("item", "share_text")), _const(""))
    m = Machine(spec)
    m.reset()
    (box,) = [e for e in m.observe("elements") if e["clickable"] and e["bounds"][0] == 800]
    m.step({"action_type": "click", "index": box["index"]})
    assert m.screen == "share"
    # A clickable text of the header is its own tapped view: it keeps its tap too.
    (link,) = [t for t in spec.transitions if t.screen == album_screen
               and t.target == "artist"]
    assert link.widget == "artist_link"
    m.reset()
    m.step({"action_type": "click", "x": 150, "y": 650})
    assert m.screen == "artist"
    m.reset()
    m.step({"action_type": "click", "x": 300, "y": 1200})  # Song 1
    assert m.screen == "song" and "Song 1" in [e["text"] for e in m.observe("elements")]


def test_a_text_field_shows_its_hint_not_what_was_typed_into_it_once():
    def page(text, *more):
        labels = [label(f"l{i}", f"Line {i}", 600 + 100 * i) for i in range(8)]
        return screen(title("Notes"), edit("note", 300, text), *labels, *more)
    # The layout comes from the one recording with the Save button, typed into.
    tr = (App().show(page("Add a note")).back().show(page("Add a note")).type("Milk", 1)
          .show(page("Milk", button("save", "Save", 500))).tap(10)
          .show(page("Add a note")).trace())
    f = facts(tr, until="layouts")
    (view,) = f.views
    (field,) = [v for v in _walk(view.root) if "editable" in v.flags]
    assert field.text == _const("Add a note")


def test_a_search_box_quoting_a_query_typed_on_the_screen_before_shows_its_hint():
    def results(text, place):
        return screen(title("Places"), edit("q", 300, text), button("pick", place, 500))
    home = screen(title("Home"), edit("where", 300, "Where to?"))
    # Typed on home; the results screen quotes it, and is laid out from that recording.
    tr = (App().show(home).type("Humanoid", 1).show(results('"Humanoid"', "Humanoid Store"))
          .tap(2).show(home).trace())
    again = App().show(results("Search for places", "Home")).back().show(home).trace()
    f = facts(tr, again, until="layouts")
    view = next(v for v in f.views if v.name == screen_of(f, 0, 1))
    (field,) = [v for v in _walk(view.root) if "editable" in v.flags]
    assert field.text == _const("Search for places")


def _walk(v):
    yield v
    for c in v.children:
        yield from _walk(c)


def test_row_effects_are_inserts_deletes_and_updates():
    (eff,) = facts(_chat(), until="row effects").effects.values()
    assert eff.op == "insert" and dict(eff.values)["f1"] == Ref(("input", "msg"))
    (eff,) = facts(_cart("remove"), until="row effects").effects.values()
    assert eff.op == "delete"
    (eff,) = facts(_cart("plus"), until="row effects").effects.values()
    assert eff.op == "update" and eff.values[0][0] == "f2"


def test_transitions_carry_the_row_and_split_by_row_where_targets_differ():
    f = facts(_shop())
    (tap,) = [t for t in f.transitions if t.action == "tap"]
    assert tap.with_param == Ref(("item",)) and tap.target == screen_of(f, 0, 1)
    # Rows 1 and 3 open the detail, row 2 opens a settings screen: a `when` on row 2.
    other = screen(title("Settings"), switch("wifi", True, 300))
    tr = (App().show(_home()).tap(1, 0).show(_detail("Milk", "$2")).back()
          .show(_home()).tap(1, 2).show(_detail("Bread", "$1")).back()
          .show(_home()).tap(1, 1).show(other, ".Settings").trace())
    f = facts(tr)
    taps = [t for t in f.transitions if t.action == "tap" and t.screen == screen_of(f, 0, 0)]
    assert len(taps) == 2
    assert taps[0].when == Compare("==", Ref(("item", "id")), _const(2))
    assert taps[0].target == screen_of(f, 0, 5) and taps[1].when is None
    assert not isinstance(taps[0].when, BoolOp)


def test_a_scroll_is_a_transition_only_where_scrolls_along_the_list_mostly_left():
    other = screen(title("Settings"), switch("wifi", True, 300))
    # Down twice stayed; a sideways swipe (which scrolls nothing) once left.
    tr = (App().show(_home()).scroll("down", 1).show(_home()).scroll("down", 1)
          .show(_home()).scroll("left", 1).show(other, ".Settings").trace())
    f = facts(tr)
    assert not [t for t in f.transitions if t.action == "scroll"]
    # A list whose scrolling down opened another screen (a pager) keeps that transition.
    tr = (App().show(_home()).scroll("down", 1).show(other, ".Settings").back()
          .show(_home()).scroll("down", 1).show(other, ".Settings").trace())
    (t,) = [t for t in facts(tr).transitions if t.action == "scroll"]
    assert t.target == screen_of(facts(tr), 0, 1)


def test_a_row_swiped_across_the_list_is_a_swipe_that_carries_the_row():
    from phoneworld.runtime import Machine

    many = [(f"Item {i}", f"${i}") for i in range(9)]  # row 5 is under the list's centre
    spec_tr = (App().show(_home(many)).scroll("left", 1).show(_detail("Item 5", "$5"))
               .back().show(_home(many)).scroll("right", 1).show(_detail("Item 5", "$5"))
               .trace())
    f = facts(spec_tr)
    (t,) = [t for t in f.transitions if t.action == "swipe"]
    assert t.target == screen_of(f, 0, 1) and t.with_param == Ref(("item",))
    # The mock does it too: a sideways scroll swipes the row at the list's centre.
    from phoneworld.infer.app import infer_app
    from phoneworld.infer.graph import build_graph

    spec, _ = infer_app("app", build_graph("app", [spec_tr]), [spec_tr])
    m = Machine(spec)
    m.reset()
    m.step({"action_type": "scroll", "direction": "left"})
    assert m.screen == t.target and "Item 5" in [e["text"] for e in m.observe("elements")]
    m.reset()
    m.step({"action_type": "scroll", "direction": "down"})
    assert m.screen == spec.start


def test_a_swiped_row_is_the_row_the_screen_it_opened_shows():
    """(#21) onelist: DroidBot recorded the list unscrolled (one state file per state_str)
    while the device showed it scrolled, so the row under the list's centre in the
    recording ("Item 5") is not the row swiped; the editor it opened shows "Item 7": that
    row is the one swiped, and the editor's title is its name, not a column of its own."""
    many = [(f"Item {i}", f"${i}") for i in range(9)]
    tr = (App().show(_home(many)).scroll("left", 1).show(_detail("Item 7", "$7"))
          .back().show(_home(many)).scroll("left", 1).show(_detail("Item 2", "$2"))
          .back().show(_home(many)).scroll("left", 1).show(_detail("Item 5", "$5"))
          .trace())
    f = facts(tr, until="details")
    lc = f.lists[screen_of(f, 0, 0)]["FrameLayout/RecyclerView#list"]
    names = {r[0]: r[2] for r in lc.rows}
    assert [names[f.tapped[(0, k)]] for k in (0, 2, 4)] == ["Item 7", "Item 2", "Item 5"]
    detail = f.details[screen_of(f, 0, 1)]
    assert Ref(("param", "f1")) in detail.values()
    # A screen that shows none of the list's rows keeps the row hit.
    other = screen(title("Settings"), switch("wifi", True, 300))
    tr = App().show(_home(many)).scroll("left", 1).show(other, ".Settings").trace()
    f = facts(tr, until="rows")
    lc = f.lists[screen_of(f, 0, 0)]["FrameLayout/RecyclerView#list"]
    assert lc.rows[f.tapped[(0, 0)] - 1][2] == "Item 5"
    # Nor does one that shows a row of another kind (activitylauncher: "Create shortcut"
    # opens the launcher's page naming the shortcut after the dialog's heading row).
    menu = screen(title("Menu"), rows("list", [("Launcher", ""), ("", "Create shortcut")]))
    tr = (App().show(menu).tap(1, 1).show(screen(title("Launcher"), button("add", "Add", 400)),
                                         ".Add").trace())
    f = facts(tr, until="rows")
    lc = f.lists[screen_of(f, 0, 0)]["FrameLayout/RecyclerView#list"]
    assert lc.rows[f.tapped[(0, 0)] - 1][3] == "Create shortcut"


def _const(v):
    from phoneworld.spec.ast import Const

    return Const(v)


def _chooser(loads: bool):
    """An editor opens a file chooser; each choice returns to the editor, which shows
    the chosen file's text (`loads`), or, as a settings dialog would, only changes a
    row of the screen's own list."""
    files = [("a.txt",), ("b.txt",)]

    def editor(text: str):
        if loads:
            return screen(title("Editor"), edit("code", 200, text), button("open", "Open", 400))
        return screen(title("Editor"), button("open", "Open", 200),
                      rows("prefs", [("Theme", text)], y=600))

    chooser = screen(title("Open"), rows("files", files))
    app = App().show(editor("")).tap(2 if loads else 1).show(chooser).tap(1, 0)
    app.show(editor("alpha")).tap(2 if loads else 1).show(chooser).tap(1, 1)
    return app.show(editor("beta")).trace()


def test_a_choice_that_loads_its_item_into_the_screen_below_parameterises_it():
    f = facts(_chooser(loads=True), until="parameters")
    editor, dialog = screen_of(f, 0, 0), screen_of(f, 0, 1)
    assert f.params == {editor: (dialog, "FrameLayout/RecyclerView#files")}
    f = facts(_chooser(loads=True), until="details")
    assert f.details[editor]  # the editor's text follows the chosen file
    assert not facts(_chooser(loads=False), until="parameters").params


def test_a_screen_left_only_by_itself_gets_a_timed_transition():
    """An ad shown after the launch moves on to home with no event between the two
    observations (the tap on it changed nothing): `on ad wait -> home`. Home, left by a
    tap, is no timed screen, nor is a screen also left by an action elsewhere."""
    ad = screen(title("Advertisement"), button("skip", "5", 400))
    tr = (App().show(ad).tap(1).show(ad).show(_home()).tap(1, 0)
          .show(_detail("Milk", "$2")).trace())
    f = facts(tr, until="timed")
    ad_name, home = screen_of(f, 0, 0), screen_of(f, 0, 2)
    (timed,) = [t for t in f.transitions if t.action == "wait"]
    assert (timed.screen, timed.widget, timed.target, timed.count) == (ad_name, "", home, 1)
    assert f"{ad_name} wait" in f.provenance.effects
    # The same ad, once left by a tap that opened home: a late screen, not a timer.
    again = (App().show(ad).tap(1).show(_home()).trace())
    assert not [t for t in facts(tr, again, until="timed").transitions if t.action == "wait"]


def test_a_gap_to_two_different_screens_is_no_timer():
    ad = screen(title("Advertisement"), button("skip", "5", 400))
    one = App().show(ad).tap(1).show(ad).show(_home()).trace()
    other = App().show(ad).tap(1).show(ad).show(_detail("Milk", "$2")).trace()
    assert not [t for t in facts(one, other, until="timed").transitions
                if t.action == "wait"]


def test_a_recorded_wait_that_changed_the_screen_is_a_timer_too():
    from phoneworld.traces.model import Action

    ad = screen(title("Advertisement"), button("skip", "5", 400))
    app = App().show(ad)
    tr = app._act(Action(kind="wait")).show(_home()).tap(1, 0).show(_detail("Milk", "$2"))
    f = facts(tr.trace(), until="timed")
    (timed,) = [t for t in f.transitions if t.action == "wait"]
    assert (timed.screen, timed.target) == (screen_of(f, 0, 0), screen_of(f, 0, 1))


def test_a_back_key_on_the_first_screen_that_shows_a_new_one_is_the_app_moving_on():
    """Back on the first screen leaves the app; where a new screen of the app came instead,
    the splash had moved on by itself (qqmusic): `on splash wait -> ad`. A back from a
    detail screen to the list below it is a back, and times nothing."""
    splash = screen(title("Loading"))
    ad = screen(title("Advertisement"), button("skip", "5", 400))
    tr = (App().show(splash).back().show(ad).tap(1).show(_home()).tap(1, 0)
          .show(_detail("Milk", "$2")).back().show(_home()).trace())
    f = facts(tr, until="timed")
    timed = {t.screen: t.target for t in f.transitions if t.action == "wait"}
    assert timed == {screen_of(f, 0, 0): screen_of(f, 0, 1)}


def test_a_row_recorded_again_under_another_parent_opens_what_its_twin_opened():
    """onelist's Settings was recorded opened on a list (rows 1-7) and without one (rows
    8-14, the ones the mock shows): a tap on row 7 "Show last release note" opened the
    release note, so a tap on row 14, which reads the same, opens it too; a row that
    reads otherwise, or was itself tapped to elsewhere, keeps its own target."""
    from types import SimpleNamespace

    from phoneworld.infer.rules import _row_variants

    rows = [[1, 1, "Theme", "Auto"], [7, 1, "Show last release note", ""],
            [8, None, "Theme", "Light"], [14, None, "Show last release note", ""],
            [15, None, "About", ""]]
    ts = [SimpleNamespace(item=True, target="dialog", examples=[(0, 1), (0, 2)], count=2),
          SimpleNamespace(item=True, target="note", examples=[(0, 3)], count=1)]
    tapped = {(0, 1): 1, (0, 2): 8, (0, 3): 7}
    ((target, when, count),) = _row_variants(ts, "dialog", tapped, rows)
    assert target == "note" and count == 1
    assert when == BoolOp("or", (Compare("==", Ref(("item", "id")), Const(7)),
                                 Compare("==", Ref(("item", "id")), Const(14))))


def test_a_label_in_a_row_whose_tap_stayed_does_what_a_tap_on_the_row_does():
    """onelist's Settings: a tap on a heading row's title did nothing, a tap beside the
    text of "Show last release note" opened its page. The title (named, inside every row)
    takes a press first in the mock: were it to stay, no row would open by its text."""
    from phoneworld.traces.model import Action

    def home():  # rows that are not clickable: a tap lands on the deepest view
        root = _home()
        rs = root.children[1]
        plain = [r.model_copy(update={"clickable": False}) for r in rs.children]
        return root.model_copy(update={"children": (
            root.children[0], rs.model_copy(update={"children": tuple(plain)}))})

    def tap(app, x, y):
        return app._act(Action(kind="tap", x=x, y=y))

    row_y = centre(home().at((1, 0)))[1]
    app = tap(App().show(home()), 800, row_y).show(_detail("Milk", "$2")).back()
    app = tap(app.show(home()), *centre(home().at((1, 2, 0)))).show(home())
    f = facts(app.trace())
    taps = {t.widget: t for t in f.transitions
            if t.action == "tap" and t.screen == screen_of(f, 0, 0)}
    assert len(taps) == 2, taps
    row, label = (taps[w] for w in sorted(taps, key=len))
    assert row.target == label.target == screen_of(f, 0, 1)
    assert label.with_param == Ref(("item",))


def test_a_description_saying_the_rows_name_follows_the_row():
    # messages' contact photo "Ben Okafor photo": seen with one row, it says that row's
    # name with words around it, so another contact's photo says its own name.
    def detail(name, price, desc):
        photo = _n("ImageView", "photo", "", (0, 150, W, 200))
        photo = photo.model_copy(update={"content_desc": desc})
        return screen(title(name), label("price", price, 200), photo,
                      _n("ImageButton", "", "", (0, 300, 100, 400)).model_copy(
                          update={"content_desc": "Milky way"}))
    tr = App().show(_home()).tap(1, 0).show(detail("Milk", "$2", "Milk photo")).trace()
    f = facts(tr, until="details")
    (bound,) = f.details.values()
    photo = next(k for k in bound if k.startswith("desc ") and "photo" in k)
    assert bound[photo] == BinOp("+", Ref(("param", "f1")), Const(" photo"))
    assert not any("ImageButton" in k for k in bound)  # "Milk" inside "Milky": a literal
    # Seen with two rows, the words around must be the same on both.
    tr = (App().show(_home()).tap(1, 0).show(detail("Milk", "$2", "Milk photo")).back()
          .show(_home()).tap(1, 1).show(detail("Eggs", "$3", "Photo of Eggs")).trace())
    f = facts(tr, until="details")
    (bound,) = f.details.values()
    assert not any(k.startswith("desc ") for k in bound)


SONGS = [("Song A",), ("Song B",)]
BAR = "FrameLayout/RecyclerView#bar"
REVIEWS = "FrameLayout/RecyclerView#reviews"


def _with_bar(bar_on_home: bool):
    """home -> Milk -> back -> Eggs; each detail lists its own reviews, and a player bar
    (a list of songs) lies at the bottom of the details, and of home where `bar_on_home`."""
    def bar():
        return rows("bar", SONGS, y=2000, pitch=100)

    def detail(name, said):
        return screen(title(name), rows("reviews", said, y=300, pitch=200), bar())

    home = screen(title("Shop"), rows("list", GOODS, pitch=200), *([bar()] if bar_on_home
                                                                   else []))
    return (App().show(home).tap(1, 0).show(detail("Milk", [("Fresh",), ("Cold",)])).back()
            .show(home).tap(1, 1).show(detail("Eggs", [("Brown",)])).trace())


def test_a_list_that_shows_the_same_rows_whatever_the_screen_row_is_not_that_rows_list():
    f = facts(_with_bar(True), until="layouts")
    detail = screen_of(f, 0, 1)
    assert f.params[detail][0] == screen_of(f, 0, 0)
    bar, reviews = f.lists[detail][BAR], f.lists[detail][REVIEWS]
    assert [(r[1], r[2]) for r in bar.rows] == [(None, "Song A"), (None, "Song B")]
    assert [(r[1], r[2]) for r in reviews.rows] == [(1, "Fresh"), (1, "Cold"), (2, "Brown")]
    lists = {v.items.table: v.items for v in _walk(next(v for v in f.views
                                                        if v.name == detail).root)
             if v.items is not None}
    assert lists[bar.table].where is None  # drawn whatever row the screen shows
    assert lists[reviews.table].where == Compare("==", Ref(("item", "ctx")),
                                                 Ref(("param", "id")))


def test_a_list_seen_on_one_screen_under_one_row_stays_that_rows_list():
    # The bar only on the details, and the same songs under both rows: two rows showed
    # the same bar, so it is still not theirs; one row seen alone says nothing.
    f = facts(_with_bar(False), until="rows")
    assert all(r[1] is None for r in f.lists[screen_of(f, 0, 1)][BAR].rows)
    one = App().show(screen(title("Shop"), rows("list", GOODS))).tap(1, 0).show(
        screen(title("Milk"), rows("bar", SONGS, y=2000, pitch=100))).trace()
    f = facts(one, until="rows")
    assert [r[1] for r in f.lists[screen_of(f, 0, 1)][BAR].rows] == [1, 1]


def _page() -> object:
    """A page drawn in a web view: a title, a small button, and the page itself, one
    clickable view over most of the display (the recording's hits land on it)."""
    return screen(title("Legal"), button("help", "Help", 160),
                  _n("FrameLayout", "map", "", (0, 300, W, 2400), clickable=True))


def test_a_tap_on_a_backdrop_that_led_somewhere_is_the_way_there():
    """uber's legal page: taps on the page (a web view whose links the hierarchy lacks)
    mostly did nothing, and twice opened the trip map, which nothing else reaches: the
    taps that led somewhere are the rule, the ones that did nothing were no event. A
    small button's stays still outvote its one-off leave, and a backdrop tap that left
    once for a screen reached anyway stays a stay."""
    trip = screen(title("Trip"), label("where", "Where to?", 300))
    other = screen(title("Other"), label("x", "Other page", 300))
    tr = App().show(_page())
    for _ in range(3):
        tr = tr.tap(2).show(_page())
    tr = tr.tap(2).show(trip, ".Trip").back().show(_page()).tap(2).show(trip, ".Trip")
    tr = tr.back().show(_page())
    for _ in range(3):
        tr = tr.tap(1).show(_page())
    tr = tr.tap(1).show(other, ".Other").trace()
    f = facts(tr)
    page, trip_screen = screen_of(f, 0, 0), screen_of(f, 0, 4)
    taps = {t.widget: t.target for t in f.transitions if t.screen == page and
            t.action == "tap"}
    assert taps["map"] == trip_screen
    assert taps["help"] == "stay"
    # Once to a screen the button reaches anyway: the stays stand.
    tr = App().show(_page()).tap(1).show(trip, ".Trip").back().show(_page())
    tr = tr.tap(1).show(trip, ".Trip").back().show(_page())
    for _ in range(3):
        tr = tr.tap(2).show(_page())
    tr = tr.tap(2).show(trip, ".Trip").trace()
    f = facts(tr)
    taps = {t.widget: t.target for t in f.transitions if t.screen == screen_of(f, 0, 0)
            and t.action == "tap"}
    assert taps == {"help": screen_of(f, 0, 1), "map": "stay"}


def test_the_start_is_where_the_steps_first_show_the_app():
    """A recording cut out of a longer one may store first a state it comes back to
    later (qqmusic's second half stores the share sheet first, yet starts on a feedback
    page and goes back from it): the app starts where its steps first are."""
    home = screen(title("Home"), button("go", "Settings", 600))
    settings = screen(title("Settings"), label("about", "About", 600), activity=".Settings")
    feedback = screen(title("Feedback"), label("say", "Say something", 600),
                      activity=".Feedback")
    from phoneworld.infer.graph import build_graph
    from phoneworld.traces.model import Action, Step

    tr = App().show(home).show(settings).show(feedback).trace()
    tr = tr.model_copy(update={"steps": (
        Step(before=2, after=0, action=Action(kind="key", key="back")),
        Step(before=0, after=1, action=Action(kind="tap", x=540, y=640)))})
    g = build_graph("app", [tr])
    where = {o.index: s.name for s in g.screens for o in s.observations}
    assert g.start == where[2]
    # With no steps, the first stored observation is the start.
    assert build_graph("app", [tr.model_copy(update={"steps": ()})]).start == where[0]
