"""Drawing task instances: counts, kinds, seeds, ids that read back, natural wording."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from phoneworld.tasks import TaskInstance, find_task, sample_tasks
from phoneworld.tasks.instances import draw, why_not
from phoneworld.tasks.labels import screen_labels
from phoneworld.tasks.sample import _distinct
from phoneworld.tasks.sentences import end_mark
from tests.tasks_fixtures import EXAMPLES, example, phone_specs, tiny_shop


def _same(a: TaskInstance, b: TaskInstance) -> bool:
    return (a.id, a.kind, a.instruction, a.apps, a.params, a.template) == \
        (b.id, b.kind, b.instruction, b.apps, b.params, b.template)


def test_shopping_has_200_distinct_instances_of_3_kinds_from_seed_0():
    spec = example("shopping")
    tasks = sample_tasks([spec], 200, 0)
    assert len(tasks) == 200 and len({t.id for t in tasks}) == 200
    kinds = Counter(t.kind for t in tasks)
    assert len(kinds) >= 3 and {"state", "information", "navigation"} <= set(kinds)
    again = sample_tasks([spec], 200, 0)
    assert [t.id for t in tasks] == [t.id for t in again]
    assert all(_same(a, b) for a, b in zip(tasks, again, strict=True))
    other = sample_tasks([spec], 200, 1)
    assert [t.id for t in other] != [t.id for t in tasks]


def test_a_small_n_still_has_every_kind():
    kinds = {t.kind for t in sample_tasks([example("shopping")], 8, 3)}
    assert kinds == {"state", "information", "navigation", "composite"}


def test_sampling_stops_when_there_is_no_more():
    spec = tiny_shop()
    everything = sample_tasks([spec], 10_000, 0)
    # (less the questions another asks already: "Is Bluetooth on or off?" reads the
    # summary "Read me the summary of Bluetooth." reads, `sample._distinct`)
    total = sum(len(items) for _, items in
                _distinct(spec, [(t, draw(spec, t)) for t in spec.tasks]))
    assert len(everything) == total == len({t.id for t in everything})
    assert total == sum(len(draw(spec, t)) for t in spec.tasks) - 2
    assert sample_tasks([spec], 0, 0) == []
    with pytest.raises(ValueError):
        sample_tasks([spec], -1, 0)


@pytest.mark.parametrize("apps", [["shopping"], ["messages"], ["settings"],
                                  ["shopping", "messages", "settings"]])
def test_ids_read_back(apps):
    specs = [example(a) for a in apps]
    for t in sample_tasks(specs, 80, 5):
        assert _same(find_task(specs, t.id), t)


def test_unknown_ids_say_what_is_wrong():
    specs = [example("shopping")]
    with pytest.raises(LookupError, match="not a task id"):
        find_task(specs, "nonsense")
    with pytest.raises(LookupError, match="no app 'nope'"):
        find_task(specs, "nope/open_main_cart#97d170e1")
    with pytest.raises(LookupError, match="did you mean 'open_main_cart'"):
        find_task(specs, "shopping/open_main_crt#97d170e1")
    with pytest.raises(LookupError, match="no instance"):
        find_task(specs, "shopping/open_main_cart#00000000")


def test_instructions_read_naturally():
    for specs in ([example("shopping")], phone_specs(), [tiny_shop()]):
        for t in sample_tasks(specs, 300, 0):
            text = t.instruction
            assert text and text == text.strip() and text[0].isupper(), text
            assert not re.search(r"\{[a-z_0-9]*\}|\?\?|\.\.| \| |\s[.,?]", text), text
            # (a quote's own "!" or "?" ends it: "... under “Thank you, Jane!”")
            assert text[-1] in ".?)" or end_mark(text) in ("!", "?"), text
            if t.kind == "information":  # a question names what it is about: a row's
                # value, a heading the screen shows ("under “License”"), or the screen
                # that shows it ("the email address on Account")
                assert any(isinstance(v, str) and v in text for v in t.params.values()) or \
                    re.search(r"“[^”]+”", text) or any(
                        f"on {label}" in text for s in specs
                        for label, _ in screen_labels(s).values()), text


def test_a_phone_names_the_app_and_joins_apps():
    specs = phone_specs()
    tasks = sample_tasks(specs, 120, 0)
    kinds = Counter(t.kind for t in tasks)
    assert kinds["cross_app"] >= 10
    titles = {"shopping": "Shopping", "messages": "Messages", "settings": "Settings"}
    for t in tasks:
        for app in t.apps:
            assert titles[app] in t.instruction, t.instruction
        if t.kind == "cross_app":
            assert len(set(t.apps)) == 2
            assert all(k.split(".", 1)[0] in t.apps for k in t.params)
            if ">" in t.id:  # what was found is typed in the other app: one goal, there
                assert [g.app for g in t.goals] == [t.apps[1]] and t.typed
            else:  # what was found is the answer
                assert t.goals[0].wants_answer and not t.goals[1].wants_answer


def test_goals_already_reached_are_not_drawn():
    spec = tiny_shop()
    on = {t.params["n"] for t in draw(spec, _template(spec, "turn_on_setting"))}
    off = {t.params["n"] for t in draw(spec, _template(spec, "turn_off_setting"))}
    assert on == {"Bluetooth", "Airplane mode"} and off == {"Wi-Fi"}
    removable = {t.params["n"] for t in draw(spec, _template(spec, "remove_from_cart"))}
    assert removable == {"Bread"}  # the one row in the cart after a reset
    # and the rule that left each out is said (benchmarks/halves.py prints it)
    assert why_not(spec, _template(spec, "turn_off_setting"))[
        "goal holds after a reset"] == 2
    assert why_not(spec, _template(spec, "turn_on_setting"))[
        "goal holds after a reset"] == 1


@pytest.mark.parametrize("twin_on", [False, True])
def test_ambiguous_rows_are_not_drawn(twin_on):
    """"Turn on Bluetooth" with a second Bluetooth row, off or already on: a person cannot
    tell which row is meant, so the task is not drawn (the other row being out of the
    running does not make the words name one row)."""
    spec = tiny_shop()
    setting = next(t for t in spec.tables if t.name == "setting")
    twin = dataclasses.replace(setting, rows=(*setting.rows, (4, "Bluetooth", "On", twin_on)))
    spec = dataclasses.replace(spec, tables=tuple(twin if t.name == "setting" else t
                                                  for t in spec.tables))
    names = {t.params["n"] for t in draw(spec, _template(spec, "turn_on_setting"))}
    assert names == {"Airplane mode"}
    assert why_not(spec, _template(spec, "turn_on_setting"))[
        "the same words for other rows"] == 1


def _template(spec, name):
    return next(t for t in spec.tasks if t.name == name)


@pytest.mark.parametrize("app", ["shopping", "messages", "settings"])
def test_composites_do_not_swamp_the_other_kinds(app):
    """At most as many composite instances as all the others, and each composite
    template keeps some before any keeps a second row."""
    from phoneworld.tasks.sample import instances

    spec = example(app)
    found = instances(spec)
    kinds = Counter(i.kind for i in found)
    others = sum(n for k, n in kinds.items() if k != "composite")
    assert 0 < kinds["composite"] <= others
    # (a template whose every instance another asks alike draws none: `_distinct`)
    drawn = {t.name: items
             for t, items in _distinct(spec, [(t, draw(spec, t)) for t in spec.tasks])}
    composite = [t for t in spec.tasks if t.kind == "composite" and drawn[t.name]]
    kept = Counter(i.template for i in found if i.kind == "composite")
    if kinds["composite"] >= len(composite):
        assert set(kept) == {t.name for t in composite}
    cut = [t.name for t in composite if kept[t.name] < len(drawn[t.name])]
    assert all(kept[n] >= max(kept.values()) - 1 for n in cut)  # a row at a time
    assert {i.id for i in found} <= {i.id for t in spec.tasks for i in draw(spec, t)}


def test_a_label_that_starts_with_a_verb_is_not_said_after_the_same_verb():
    """A switch called "Enable privileged mode" is never "Disable Enable privileged mode";
    a phrasing that does not stutter is used, the same one for the same id."""
    from phoneworld.tasks import phrases as P
    from phoneworld.tasks import wording as W

    said = {W.pick_filled(W.join(P.TURN_OFF), str(k), {"n": "Enable privileged mode"})
            for k in range(40)}
    assert said and not any(s.startswith("Disable") for s in said)
    assert "Disable Wi-Fi." in {W.pick_filled(W.join(P.TURN_OFF), str(k), {"n": "Wi-Fi"})
                                for k in range(40)}
    assert W.pick_filled(W.join(P.TURN_OFF), "7", {"n": "Enable x"}) == W.pick_filled(
        W.join(P.TURN_OFF), "7", {"n": "Enable x"})


@pytest.mark.parametrize("app", EXAMPLES)
def test_a_drawn_instance_is_the_instance_of_its_values(app):
    """A drawing judges once per template what its values do not change (the form of its
    instances): each instance is the one `instance` makes of its values, question
    subjects and typed texts included."""
    from phoneworld.tasks.instances import instance

    spec = example(app)
    for t in spec.tasks:
        for i in draw(spec, t)[::3]:
            assert instance(spec, t, i.params) == i
