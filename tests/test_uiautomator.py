from __future__ import annotations

import shutil

import pytest

from phoneworld.errors import TraceError
from phoneworld.traces import read_traces, uiautomator
from tests.conftest import DATA, shared

SMALL = DATA / "uiautomator" / "small.xml"


def test_single_dump_is_one_observation_trace():
    (trace,) = read_traces(SMALL)
    assert trace.format == "uiautomator"
    assert trace.app == "com.example.app"
    assert len(trace.observations) == 1 and trace.steps == ()
    assert (trace.observations[0].width, trace.observations[0].height) == (1080, 2400)


def test_numbered_sequence_is_ordered_naturally(tmp_path):
    for n in (10, 2, 1):
        shutil.copy(SMALL, tmp_path / f"dump_{n}.xml")
    (trace,) = uiautomator.read(tmp_path)
    assert [o.source for o in trace.observations] == ["dump_1.xml", "dump_2.xml", "dump_10.xml"]
    assert any("no recorded actions" in w for w in trace.warnings)


def test_broken_dump_in_sequence_is_a_warning_alone_an_error(tmp_path):
    shutil.copy(SMALL, tmp_path / "1.xml")
    (tmp_path / "2.xml").write_bytes(b"<hierarchy><node bounds='[0,0][1,1]'")
    (trace,) = uiautomator.read(tmp_path)
    assert len(trace.observations) == 1
    assert any("2.xml: skipped" in w for w in trace.warnings)
    with pytest.raises(TraceError, match="2.xml: not well-formed"):
        uiautomator.read(tmp_path / "2.xml")


def test_appium_spoon_live(shared_traces):
    (trace,) = read_traces(shared("appium", "spoon_live"))
    assert trace.format == "appium"
    assert trace.app == "co.spoonme"
    assert len(trace.observations) == 2 and len(trace.steps) == 0
    assert all((o.width, o.height) == (1080, 2420) for o in trace.observations)
    assert any("no recorded actions" in w for w in trace.warnings)


def test_old_appium_attribute_set_with_instance(tmp_path):
    f = tmp_path / "old.xml"
    f.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">'
        '<android.widget.FrameLayout index="0" instance="0" package="com.old.app" '
        'class="android.widget.FrameLayout" bounds="[0,0][720,1280]" clickable="false">'
        '<android.widget.Button index="0" instance="0" text="OK" resource-id="com.old.app:id/ok"'
        ' class="android.widget.Button" bounds="[10,10][200,100]" clickable="true"/>'
        '</android.widget.FrameLayout></hierarchy>')
    (trace,) = read_traces(f)
    assert trace.format == "appium"
    button = trace.observations[0].root.children[0]
    assert (button.class_name, button.text, button.clickable) == ("android.widget.Button", "OK",
                                                                  True)
