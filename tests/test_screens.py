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
