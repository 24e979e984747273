"""Replay's measures on their own: node bags, shown texts, text recall, 70/30 splits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from phoneworld.replay import node_bag, recall, shown_texts, split_trace
from phoneworld.traces import read_traces
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.node import Node
from tests.conftest import ROOT


def _tree() -> Node:
    bar = Node(class_name="android.widget.FrameLayout", package="com.android.systemui",
               bounds=(0, 0, 1080, 60), children=(
                   Node(class_name="android.widget.TextView", text="12:45",
                        package="com.android.systemui", bounds=(0, 0, 100, 60)),))
    app = Node(class_name="android.widget.FrameLayout", package="a", bounds=(0, 60, 1080, 2400),
               children=(
                   Node(class_name="android.widget.LinearLayout", bounds=(0, 60, 1080, 400)),
                   Node(class_name="android.widget.TextView", text="Inbox", package="a",
                        bounds=(0, 60, 500, 200)),
                   Node(class_name="android.widget.ImageButton", content_desc="Search",
                        package="a", bounds=(900, 60, 1080, 200)),
                   Node(class_name="android.widget.TextView", text="gone", package="a",
                        visible=False, bounds=(0, 300, 500, 400)),
                   Node(class_name="android.widget.TextView", text="flat", package="a",
                        bounds=(0, 500, 500, 500))))
    return Node(class_name="hierarchy", children=(bar, app))


def test_similarity_counts_only_nodes_with_a_text_a_description_or_an_id():
    bag = node_bag(_tree())
    assert ("android.widget.LinearLayout", "", "", "") not in bag
    assert bag[("android.widget.TextView", "", "Inbox", "")] == 1
    assert bag[("android.widget.ImageButton", "", "", "Search")] == 1
    assert not any(k[2] == "12:45" for k in bag)  # the status bar is not the app's


def test_shown_texts_are_the_visible_texts_and_descriptions_of_the_app():
    assert shown_texts(_tree()) == {"Inbox", "Search"}
    assert recall({"Inbox"}, {"Inbox", "Search"}) == 0.5
    assert recall({"x"}, set()) is None


def _trace(n: int) -> Trace:
    obs = tuple(Observation(root=Node(class_name="V", text=str(i)), width=1, height=1,
                            source=f"{i}.xml") for i in range(n + 1))
    steps = tuple(Step(before=i, after=i + 1 if i % 3 else None,
                       action=Action(kind="tap", x=i, y=i)) for i in range(n))
    return Trace(format="phoneworld", name="t", app="a", source="t", observations=obs,
                 steps=steps)


@given(st.integers(1, 40))
def test_a_70_30_split_keeps_every_step_once_with_its_own_observations(n):
    trace = _trace(n)
    head, tail = split_trace(trace)
    assert len(head.steps) == round(n * 0.7) and len(head.steps) + len(tail.steps) == n
    for part, offset in ((head, 0), (tail, len(head.steps))):
        for k, step in enumerate(part.steps):
            orig = trace.steps[offset + k]
            assert part.observations[step.before] == trace.observations[orig.before]
            if orig.after is None:
                assert step.after is None
            else:
                assert part.observations[step.after] == trace.observations[orig.after]
    # The head holds nothing that only the tail showed.
    shown = {trace.observations[s.before].root.text for s in trace.steps[:len(head.steps)]}
    shown |= {trace.observations[s.after].root.text for s in trace.steps[:len(head.steps)]
              if s.after is not None}
    assert {o.root.text for o in head.observations} == shown


def test_split_of_a_real_trace_reads_back():
    (trace, *_) = read_traces(ROOT / "traces" / "shopping")
    head, tail = split_trace(trace, 0.5)
    assert head.steps and tail.steps
    assert all(s.before < len(head.observations) for s in head.steps)
