"""Screen abstraction: neither merge distinct screens nor split one screen by its content."""

from __future__ import annotations

import json
from collections import defaultdict

from phoneworld.infer.graph import build_graph
from phoneworld.infer.screens import group_observations, rank
from phoneworld.ir.model import ScreenGraph
from phoneworld.traces import read_traces
from phoneworld.ui.skeleton import selected_tabs, skeleton
from tests.conftest import ROOT, shared


def _screens_by(traces, key):
    screens, where = group_observations(traces)
    truth, inverse = defaultdict(set), defaultdict(set)
    for ref, screen in where.items():
        k = key(traces[ref.trace].observations[ref.index])
        truth[k].add(screen)
        inverse[screen].add(k)
    return truth, inverse


def test_droidbot_content_free_states_are_never_split(shared_traces):
    # DroidBot's own content-free state hash: the same layout whatever the texts say.
    for app in ("ajsha", "qqmusic"):
        folder = shared("droidbot", app)
        (trace,) = read_traces(folder)

        def key(o, folder=folder):
            state = json.loads((folder / o.source).read_text())
            return state["state_str_content_free"], o.activity

        truth, _ = _screens_by([trace], key)
        assert all(len(s) == 1 for s in truth.values()), app


def test_example_tabs_and_activities_are_never_merged():
    for app in ("shopping", "messages", "settings"):
        traces = read_traces(ROOT / "traces" / app)
        _, inverse = _screens_by(traces, lambda o: (o.activity, selected_tabs(o.root)))
        assert all(len(k) == 1 for k in inverse.values()), app


def test_list_length_and_scroll_position_do_not_split_a_screen():
    traces = read_traces(ROOT / "traces" / "shopping")
    truth, _ = _screens_by(traces, lambda o: o.activity)
    # Categories hold 3-8 products and are scrolled: one category screen.
    assert len(truth["com.example.shop.CategoryActivity"]) == 1
    assert len(truth["com.example.shop.ProductActivity"]) == 1
    messages = read_traces(ROOT / "traces" / "messages")
    truth, _ = _screens_by(messages, lambda o: o.activity)
    # Threads of every length, scrolled or not: one conversation screen.
    assert len(truth["com.example.messages.ConversationActivity"]) == 1


def test_skeleton_ignores_texts_and_list_items():
    (trace,) = read_traces(ROOT / "traces" / "shopping" / "add_two_greek_yogurts")
    roots = [o.root for o in trace.observations]
    assert all(skeleton(r) == skeleton(r) for r in roots)
    texts_changed = roots[0].model_copy(update={"children": tuple(
        c.model_copy(update={"text": "changed"}) for c in roots[0].children)})
    assert skeleton(texts_changed) == skeleton(roots[0])


def test_priorities_follow_visits_and_foreign_screens_are_p2(shared_traces):
    traces = read_traces(shared("droidbot", "ajsha"))
    graph = build_graph("ajsha", traces)
    visits = {s.name: len(s.observations) for s in graph.screens}
    top = max((s for s in graph.screens if not s.foreign), key=lambda s: visits[s.name])
    assert top.priority == "P0" and graph.screen(graph.start).priority == "P0"
    assert all(s.priority == "P2" for s in graph.screens if s.foreign)
    assert rank(graph.screens, graph.start) == list(graph.screens)  # idempotent


def test_graph_is_deterministic_and_has_a_stable_json_form(shared_traces):
    traces = read_traces(shared("droidbot", "qqmusic"))
    a, b = build_graph("q", traces), build_graph("q", traces)
    assert a.model_dump_json() == b.model_dump_json()
    assert ScreenGraph.model_validate_json(a.model_dump_json()) == a
    assert a.start in a.reachable()
    assert any(t.item for t in a.transitions)  # list items carry their row


def _single_activity_app():
    """One activity: a toolbar, a bottom bar of five destinations and a drawer frame stay
    while the content under them swaps between three fragments; the home fragment's
    clock, list length and scroll position change between visits."""
    from tests.infer_fixtures import App, _n, button, label, rows, title

    def tab(i, d):
        box = (i * 216, 2200, i * 216 + 216, 2400)
        return _n("FrameLayout", f"nav_{d}", "", box, [
            _n("ImageView", "icon", "", box), _n("TextView", "label", d.title(), box)],
            clickable=True)

    bar = _n("ViewGroup", "toolbar", "", (0, 0, 1080, 150), [
        _n("ImageButton", "drawer_toggle", "", (0, 0, 150, 150), clickable=True), title("App"),
        _n("TextView", "subtitle", "Ann's music", (150, 100, 700, 150)),
        *(_n("ImageButton", a, "", (700 + i * 120, 0, 820 + i * 120, 150), clickable=True)
          for i, a in enumerate(("cast", "share", "overflow")))])
    nav = _n("LinearLayout", "bottom_nav", "", (0, 2200, 1080, 2400), [
        tab(i, d) for i, d in enumerate(("home", "search", "library", "profile", "more"))])
    frame = [bar, nav]

    def screen(*content):
        body = _n("FrameLayout", "nav_host", "", (0, 150, 1080, 2200), [
            _n("LinearLayout", "", "", (0, 150, 1080, 2200), content)])
        return _n("FrameLayout", "", "", (0, 0, 1080, 2400), [*frame, body])

    def home(clock, n, first):
        items = [(f"Song {i}", "3:0" + str(i)) for i in range(first, first + n)]
        return screen(label("clock", clock, 200), rows("songs", items, y=300))

    search = screen(_n("EditText", "query", "", (0, 200, 1080, 300), editable=True),
                    label("hint", "Search songs", 400), button("voice", "Speak", 500))
    profile = screen(label("name", "Ann", 200), label("followers", "12 followers", 300),
                     button("edit_profile", "Edit", 400), switch_like())
    app = (App().show(home("10:41", 5, 0)).tap(1, 1).show(search).tap(1, 0)
           .show(home("10:42", 8, 3)).tap(1, 3).show(profile).tap(1, 0)
           .show(home("10:43", 3, 6)))
    return app.trace(), ["home", "search", "home", "profile", "home"]


def switch_like():
    from tests.infer_fixtures import switch

    return switch("private", False, 600)


def test_fragments_under_one_frame_are_told_apart_and_a_clock_splits_nothing():
    trace, truth = _single_activity_app()
    screens, where = group_observations([trace])
    got = [where[r] for r in sorted(where, key=lambda r: r.index)]
    # The same fragment is one screen; different fragments are different screens.
    assert len(set(got)) == 3
    assert all((got[i] == got[j]) == (truth[i] == truth[j])
               for i in range(len(got)) for j in range(len(got)))
    # Plain Jaccard (no chrome) would have merged search and profile into home.
    from phoneworld.ui.skeleton import similarity

    skels = [skeleton(o.root) for o in trace.observations]
    assert similarity(skels[0], skels[3]) >= 0.7 > similarity(
        skels[0], skels[3], chrome=frozenset.intersection(*skels))


def test_a_transient_snackbar_or_an_empty_list_does_not_make_a_new_screen():
    from tests.infer_fixtures import App, _n

    trace, _ = _single_activity_app()
    home = trace.observations[0].root
    body = home.children[2]
    inner = body.children[0]
    snack = _n("LinearLayout", "snackbar", "", (0, 2000, 1080, 2150), [
        _n("TextView", "snackbar_text", "Added to library", (0, 2000, 800, 2150)),
        _n("Button", "snackbar_action", "Undo", (800, 2000, 1080, 2150), clickable=True)])
    with_snack = home.model_copy(update={"children": (*home.children[:2], body.model_copy(
        update={"children": (inner.model_copy(update={"children": (*inner.children, snack)}),)}
    ))})
    app = App()
    for o in trace.observations:
        app.show(o.root).back()
    app.show(with_snack)
    screens, where = group_observations([app.trace()])
    first, last = (where[r] for r in sorted(where, key=lambda r: r.index)[::len(where) - 1])
    assert first == last and len(screens) == 3


def test_chrome_is_what_most_distinct_skeletons_share():
    from phoneworld.ui.skeleton import chrome

    a, b, c, d, e = (frozenset(s) for s in ("xyz1", "xyz2", "xyz3", "xyz4", "xy5"))
    # The screen seen most (a, ten times) does not make its own content chrome.
    assert chrome([a] * 10 + [b, c, d, e]) == frozenset("xyz")
    assert chrome([a] * 10 + [b, e]) == frozenset("xy")


def test_a_form_whose_helper_line_became_an_error_line_is_one_screen():
    from tests.infer_fixtures import App, button, edit, label, screen, title

    def form(*lines):
        fields = [edit(f"field{i}", 200 + 120 * i) for i in range(8)]
        rest = [label(f"legal{i}", "Terms", 1400 + 60 * i) for i in range(6)]
        return screen(title("Sign up"), *fields, *lines, *rest, button("next", "Next", 2000))
    tr = (App().show(form(label("helper", "Pick a name", 1200), label("tip", "8+", 1300)))
          .tap(17).show(form(label("error", "Name taken", 1200),
                             label("error_icon", "!", 1300))).trace())
    screens, _ = group_observations([tr])
    assert len(screens) == 1


def test_a_page_that_swapped_its_buttons_in_place_is_another_screen():
    """Same layout, other labels on what can be tapped (a web page that swapped its
    panel, an app switched to another language): two screens. A detail page of another
    item (other texts, the same buttons) and a clock or a price (digits): one."""
    from tests.infer_fixtures import App, button, label, screen, title

    def page(heading, *buttons, price="$8.62"):
        return screen(title(heading), label("price", price, 200),
                      *(button(f"b{i}", b, 400 + 150 * i) for i, b in enumerate(buttons)))
    tr = (App().show(page("Book", "Confirm", "Cancel", "Map"))
          .show(page("Book", "Request ride", "Close", "Payment"))
          .show(page("Book", "Confirm", "Cancel", "Map", price="$11.30"))
          .show(page("Milk", "Confirm", "Cancel", "Map")).trace())
    _, where = group_observations([tr])
    names = [where[r] for r in sorted(where, key=lambda r: r.index)]
    assert names[0] != names[1] and names[0] == names[2] == names[3]


def test_a_bottom_navigation_item_that_takes_no_tap_is_still_the_selected_tab():
    """Android's bottom navigation makes its current item unclickable: it is the selected
    tab all the same (its siblings of its class are the tappable ones), so two tabs of
    one activity are two screens; a selected view alone among untappable ones is not."""
    from phoneworld.ui.node import Node

    def nav(current: int, clickable: bool = True):
        items = tuple(Node(class_name="android.widget.FrameLayout", content_desc=label,
                           bounds=(i * 200, 2000, i * 200 + 200, 2150), selected=i == current,
                           clickable=clickable and i != current)
                      for i, label in enumerate(["Explore", "History", "Edits"]))
        bar = Node(class_name="android.widget.LinearLayout", bounds=(0, 2000, 1080, 2150),
                   children=items)
        return Node(class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
                    children=(bar,))
    assert selected_tabs(nav(0)) != selected_tabs(nav(2))
    assert any("Edits" in t for t in selected_tabs(nav(2)))
    assert selected_tabs(nav(2, clickable=False)) == frozenset()


def test_a_page_with_a_body_of_its_own_under_one_toolbar_is_another_screen():
    """uber's "Profile Photo" (a picture in a scroll view) under the same frame and
    toolbar as a day picker (a list): each fills the page with a body the other lacks,
    so they are two screens, however few views each holds; the same page of another item
    (other texts, the same body) stays one."""
    from tests.infer_fixtures import App, H, W, _n, button, screen, title

    def page(heading, body):
        inner = _n("LinearLayout", "toolbar", "", (0, 0, W, 150),
                   [title(heading), button("back", "Back", 0)])
        for depth in range(8):  # the app's frame: most of either page's views
            inner = _n("FrameLayout", f"frame{depth}", "", (0, 0, W, H),
                       [inner, body] if depth == 0 else [inner])
        return screen(inner)

    def days(first):
        return _n("RecyclerView", "days", "", (0, 200, W, H), [
            _n("TextView", "day", f"{first} {i}", (0, 200 + 150 * i, W, 350 + 150 * i))
            for i in range(3)])
    photo = _n("ScrollView", "", "", (0, 200, W, H), [
        _n("ImageView", "image", "", (0, 200, W, 200 + W))])
    tr = (App().show(page("Select a day", days("October")))
          .show(page("Profile Photo", photo))
          .show(page("Select a day", days("November"))).trace())
    _, where = group_observations([tr])
    names = [where[r] for r in sorted(where, key=lambda r: r.index)]
    assert names[0] != names[1] and names[0] == names[2]



def test_replay_puts_a_page_with_a_body_of_its_own_on_the_screen_it_was_compiled_into():
    """The compiler's rule for pages with bodies of their own (above) is replay's too
    (`ui.bodies`): a recorded day picker is classified as the day picker, even where the
    Profile Photo page under the same toolbar resembles it more than the day picker's
    own rendering (which shows buttons the recording did not)."""
    from phoneworld.apps import GeneratedApp, ScreenEntry
    from phoneworld.ui.bodies import bodies
    from tests.infer_fixtures import App, H, W, _n, button, screen, title
    from tests.tasks_fixtures import example

    def page(heading, body, extra=()):
        inner = _n("LinearLayout", "toolbar", "", (0, 0, W, 150),
                   [title(heading), button("back", "Back", 0), *extra])
        for depth in range(8):
            inner = _n("FrameLayout", f"frame{depth}", "", (0, 0, W, H),
                       [inner, body] if depth == 0 else [inner])
        return screen(inner)

    days = _n("RecyclerView", "days", "", (0, 200, W, H), [
        _n("TextView", "day", f"October {i}", (0, 200 + 150 * i, W, 350 + 150 * i))
        for i in range(3)])
    photo = _n("ScrollView", "", "", (0, 200, W, H), [
        _n("ImageView", "image", "", (0, 200, W, 200 + W))])
    more = [button(f"b{i}", "", 0) for i in range(5)]
    tr = App().show(page("Select a day", days)).trace()
    (recorded,) = tr.observations

    def entry(name, node):
        return ScreenEntry(name=name, package=recorded.package, activity=recorded.activity,
                           foreign=False, skeleton=skeleton(node),
                           tabs=selected_tabs(node),
                           bodies=bodies(node, recorded.width, recorded.height))
    rendered = {"days": page("Select a day", days, more), "photo": page("", photo)}
    mock = GeneratedApp(path=ROOT, spec=example("shopping"),
                        screens=tuple(entry(n, v) for n, v in rendered.items()))
    assert mock.classify(recorded) == "days"
