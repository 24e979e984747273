"""Task templates synthesised from a spec: valid spec text, every kind, real parameters."""

from __future__ import annotations

import dataclasses

import pytest

from phoneworld.spec.ast import BoolOp, Call, Compare, Const, Not, Ref, Task
from phoneworld.spec.check import check
from phoneworld.spec.emit import emit
from phoneworld.spec.parse import parse
from phoneworld.tasks import sample_tasks, synthesize_tasks, templates
from phoneworld.tasks.instances import draw
from phoneworld.tasks.phrases import holes, variants
from phoneworld.tasks.schema import read_schema
from tests.tasks_fixtures import EXAMPLES, example, tiny_shop


def _spec(name: str):
    return tiny_shop() if name == "tiny" else example(name)


@pytest.mark.parametrize("name", [*EXAMPLES, "tiny"])
def test_templates_are_a_valid_task_section(name):
    spec = _spec(name)
    assert spec.tasks
    check(spec)  # every table, column, screen and parameter resolves
    assert parse(emit(spec)) == spec
    names = [t.name for t in spec.tasks]
    assert len(names) == len(set(names))
    columns = {c.name for t in spec.tables for c in t.columns}
    for t in spec.tasks:
        assert draw(spec, t), f"{t.name} has nothing to draw"
        texts = variants(t.instruction)
        assert len(texts) >= 2, t.name  # several phrasings
        params = {p.name for p in t.params}
        assert all(set(holes(v)) <= params for v in texts)
        assert not params & columns, f"{t.name}: a parameter shadows a column"


def test_synthesis_is_deterministic():
    spec = dataclasses.replace(example("shopping"), tasks=())
    assert synthesize_tasks(spec) == synthesize_tasks(spec) == example("shopping").tasks


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_app_has_questions_screens_and_composites(name):
    kinds = {t.kind for t in example(name).tasks}
    assert {"information", "navigation", "composite"} <= kinds
    if name != "messages":  # the compiler infers toggles there; sends in messages
        assert "state" in kinds


def test_state_templates_come_from_effects():
    by_name = {t.name: t for t in tiny_shop().tasks}
    # insert / delete: a collection that grows and shrinks
    assert "add_to_cart" in by_name and "remove_from_cart" in by_name
    add = by_name["add_to_cart"]
    assert [(p.table, p.column) for p in add.params] == [("product", "product_name"),
                                                         ("product", "id")]
    # toggles of flags, only towards the value they do not have after a reset
    assert "turn_off_notifications" in by_name and "turn_on_notifications" not in by_name
    assert "turn_on_dark_mode" in by_name
    # a switch per row of a state table
    assert {"turn_on_setting", "turn_off_setting"} <= set(by_name)
    assert "ask_product_price_product" in by_name
    assert by_name["open_cart"].kind == "navigation"
    # an insert of typed text: send a message the app holds to another thread
    send = by_name["send_to_message"]
    assert [(p.table, p.column) for p in send.params] == [
        ("contact", "contact_name"), ("contact", "id"), ("message", "message_text")]
    # an insert fired by a long press
    assert "add_to_favourite" in by_name


def test_schema_reads_entities_facts_and_screen_names():
    schema = read_schema(example("shopping"))
    products = schema.entity("category_product_list")
    assert products.name == "product_name" and products.noun == "product"
    assert {f.fact for f in products.fields} >= {"price", "size"}
    # a cart screen's totals are bound to its parameter, but they are not a cart item's
    cart = schema.entity("main_cart_cart_list")
    assert "d_cart_total" not in {f.column for f in cart.fields}
    assert schema.screen_label("main_cart") == "Cart"
    assert schema.screen_label("checkout") == "Checkout"


def test_a_written_task_section_is_used_as_is():
    wifi_on = BoolOp("and", (Compare("==", Ref(("title",)), Const("Wi-Fi")), Ref(("checked",))))
    mine = Task(name="wifi_off", kind="state", instruction="Switch off Wi-Fi | No Wi-Fi",
                condition=Not(Call("exists", table="setting", where=wifi_on)))
    spec = dataclasses.replace(tiny_shop(), tasks=(mine,))
    assert templates(spec) == (mine,)
    got = sample_tasks([spec], 10, 0)
    assert [t.template for t in got] == ["wifi_off"]
    assert got[0].instruction in ("Switch off Wi-Fi", "No Wi-Fi")
