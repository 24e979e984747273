"""The same question from two templates is drawn once; `labels.readable`."""

from __future__ import annotations

from phoneworld.spec.ast import AppSpec, Compare, Const, Ref, Task
from phoneworld.tasks.checkers import Goal
from phoneworld.tasks.instances import TaskInstance
from phoneworld.tasks.labels import readable
from phoneworld.tasks.sample import _distinct

_APP = AppSpec(name="app", package="app", start="main")
"""An app with no tables: the questions read no cells (`asked.answer_cells`)."""


def _template(name: str, instruction: str) -> Task:
    return Task(name=name, kind="information", instruction=instruction,
                condition=Const(True))


def _ask(t: Task, row: dict, n: str = "n", v: str = "v") -> TaskInstance:
    """An instance of `t` asking about `row` ({"n": name, "v": answer}; {} for a fixed
    text), its holes called `n` and `v`."""
    cond = Compare("~", Ref(("answer",)), Ref((v,)) if row else Const("8000 Edgewater"))
    bound = {n: row["n"], v: row["v"]} if row else {}
    return TaskInstance(id=f"app/{t.name}#{row}", kind="information",
                        instruction=t.instruction.split(" | ")[0], apps=("app",),
                        params=bound, template=t.name,
                        goals=(Goal("app", cond, tuple(bound.items())),))


def test_a_question_two_templates_ask_alike_is_drawn_once():
    """uber's "What is written under Greenlight Oakland - Edgewater?" from the list of
    locations and from the page of one: one task, whatever the hole names."""
    ta = _template("ask_a", "What does the subtitle of {n} say? | What is written under {n}?")
    tb = _template("read_b", "What is written under {n2}? | Read me the text below {n2}.")
    row = {"n": "Greenlight Oakland - Edgewater", "v": "8000 Edgewater"}
    other = {"n": "Greenlight Fremont", "v": "8000 Edgewater"}
    a, b, c = _ask(ta, row), _ask(tb, row, "n2", "v2"), _ask(tb, other, "n2", "v2")
    assert _distinct(_APP, [(ta, [a]), (tb, [b, c])]) == [(ta, [a]), (tb, [c])]


def test_questions_worded_apart_are_two_whatever_the_answer():
    """shopping's "What is the total of Bananas?" and "How much does Bananas cost?" say
    the same amount for one banana but ask two things; spoon_live's two headings over
    the same name are two questions."""
    price = _template("ask_price", "How much does {n} cost?")
    total = _template("ask_total", "What is the total of {n2}?")
    row = {"n": "Bananas", "v": "$0.99"}
    a, b = _ask(price, row), _ask(total, row, "n2", "v2")
    assert _distinct(_APP, [(price, [a]), (total, [b])]) == [(price, [a]), (total, [b])]
    one, six = (_template("read_1", "What does it say under “A”?"),
                _template("read_6", "What does it say under “B”?"))
    a, b = _ask(one, {}), _ask(six, {})
    assert _distinct(_APP, [(one, [a]), (six, [b])]) == [(one, [a]), (six, [b])]


def test_a_question_that_reads_a_cell_an_earlier_one_read_is_drawn_once():
    """settings' "What is written under Font size?" (the row's summary) and "Which option
    is selected for Font size?" (the option its dialog ticks, and writes into that
    summary) read one cell for one answer: one task. shopping's "What is the total of
    Bananas?" and "How much does Bananas cost?" answer "$1.29" from two cells (a cart
    row's, a product's): two."""
    from phoneworld.tasks.asked import answer_cells
    from phoneworld.tasks.instances import draw
    from phoneworld.tasks.sample import instances
    from tests.tasks_fixtures import example

    spec = example("settings")
    drawn = [(t, draw(spec, t)) for t in spec.tasks]
    asked = {i.instruction: answer_cells(spec, t, i) for t, items in drawn for i in items
             if "Font size" in i.instruction and i.kind == "information"}
    summary = next(c for q, c in asked.items() if q.endswith("under “Font size”?") or
                   "summary of “Font size”" in q)
    selected = next(c for q, c in asked.items() if "option" in q)
    assert selected and selected <= summary, asked
    kept = [i.instruction for i in instances(spec) if i.kind == "information" and
            "Font size" in i.instruction and not i.template.startswith("count_")]
    assert len(kept) == 1 and "option" not in kept[0], kept
    shop = [i.instruction for i in instances(example("shopping"))]
    assert "What is the total of Bananas?" in shop and "How much does Bananas cost?" in shop


def test_readable_values_are_whole_texts_or_numbers():
    assert readable("Wi-Fi") and readable(3) and readable(0.0) and readable("0.0")
    for v in ("", "  ", "Settings…", "Read more...", "-.--", "N/A", None, True, False, [1]):
        assert not readable(v)
