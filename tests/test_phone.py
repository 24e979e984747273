from __future__ import annotations

import pytest

from phoneworld.apps import load_app
from phoneworld.errors import InvalidAction
from phoneworld.runtime import Phone
from tests.conftest import ROOT

GEN = ROOT / "generated"


@pytest.fixture(scope="module")
def specs():
    return [load_app(GEN / a).spec for a in ("shopping", "messages", "settings")]


def test_launcher_open_app_home_and_state_kept(specs):
    phone = Phone(specs)
    out = phone.reset()
    assert phone.screen == "launcher:home" and phone.package == "com.android.launcher3"
    icons = [e for e in out.elements if e["clickable"]]
    assert [e["text"] for e in icons] == [s.label for s in specs]
    assert "Shopping" in [e["text"] for e in icons]  # as tasks name it
    phone.step({"action_type": "click", "index": icons[1]["index"]})
    assert phone.foreground == "messages" and 'package="com.example.messages"' in \
        phone.observe("xml")
    start = phone.screen
    els = phone.observe("elements")
    clickable = [e for e in els if e["clickable"]]
    phone.step({"action_type": "click", "index": clickable[-1]["index"]})
    moved = phone.screen
    phone.step({"action_type": "navigate_home"})
    assert phone.screen == "launcher:home"
    phone.step({"action_type": "open_app", "app_name": "Settings"})
    assert phone.foreground == "settings"
    phone.step({"action_type": "open_app", "app_name": "com.example.messages"})
    assert phone.screen == moved  # the app was where it was left
    phone.reset(app="messages")
    assert phone.screen == start


def test_unknown_app_suggests_a_name(specs):
    phone = Phone(specs)
    phone.reset()
    with pytest.raises(InvalidAction, match="did you mean 'shopping'"):
        phone.step({"action_type": "open_app", "app_name": "shoping"})


def test_snapshot_restore_covers_every_app(specs):
    phone = Phone(specs)
    phone.reset(app="shopping")
    snap = phone.snapshot()
    xml = phone.observe("xml")
    phone.step({"action_type": "open_app", "app_name": "settings"})
    phone.step({"action_type": "click", "index": 0})
    phone.restore(snap)
    assert phone.foreground == "shopping" and phone.observe("xml") == xml
