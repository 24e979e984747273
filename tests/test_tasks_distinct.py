"""The same question from two templates is drawn once; `labels.readable`."""

from __future__ import annotations

from phoneworld.spec.ast import Compare, Const, Ref, Task
from phoneworld.tasks.checkers import Goal
from phoneworld.tasks.instances import TaskInstance
from phoneworld.tasks.labels import readable
from phoneworld.tasks.sample import _distinct


def _ask(template: str, text: str, params: dict, n: str = "n", v: str = "v") -> TaskInstance:
    cond = Compare("~", Ref(("answer",)), Ref((v,)) if params else Const("8000 Edgewater"))
    bound = {n: params["n"], v: params["v"]} if params else {}
    return TaskInstance(id=f"app/{template}#{text}", kind="information", instruction=text,
                        apps=("app",), params=bound, template=template,
                        goals=(Goal("app", cond, tuple(bound.items())),))


def _templates(*names: str) -> list[Task]:
    return [Task(name=x, kind="information", instruction="", condition=Const(True))
            for x in names]


def test_a_question_two_templates_ask_alike_is_drawn_once():
    """uber's "What is written under Greenlight Oakland - Edgewater?" from the list of
    locations and from the page of one: one task, whatever the words or hole names."""
    row = {"n": "Greenlight Oakland - Edgewater", "v": "8000 Edgewater"}
    a = _ask("read_a", "What is written under Greenlight Oakland - Edgewater?", row)
    b = _ask("read_b", "Read me the text below Greenlight Oakland - Edgewater.", row,
             n="n2", v="v2")
    other = _ask("read_b", "What is written under Greenlight Fremont?",
                 {"n": "Greenlight Fremont", "v": "8000 Edgewater"}, n="n2", v="v2")
    ta, tb = _templates("read_a", "read_b")
    assert _distinct([(ta, [a]), (tb, [b, other])]) == [(ta, [a]), (tb, [other])]


def test_fixed_texts_with_one_answer_are_two_questions():
    """spoon_live: two headings over the same name: the words say which is asked."""
    a = _ask("read_1", "What does it say under “A”?", {})
    b = _ask("read_6", "What does it say under “B”?", {})
    ta, tb = _templates("read_1", "read_6")
    assert _distinct([(ta, [a]), (tb, [b])]) == [(ta, [a]), (tb, [b])]


def test_readable_values_are_whole_texts_or_numbers():
    assert readable("Wi-Fi") and readable(3) and readable(0.0) and readable("0.0")
    for v in ("", "  ", "Settings…", "Read more...", "-.--", "N/A", None, True, False, [1]):
        assert not readable(v)
