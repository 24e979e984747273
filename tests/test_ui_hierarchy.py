from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld.ui.hierarchy import (
    HierarchyError,
    parse_bounds,
    parse_hierarchy,
    to_uiautomator_xml,
)
from tests.conftest import DATA, shared

SMALL = (DATA / "uiautomator" / "small.xml").read_bytes()


def test_parse_small_dump_attributes():
    root, attrs = parse_hierarchy(SMALL)
    assert attrs == {"rotation": "0"}
    assert root.class_name == "android.widget.FrameLayout"
    assert root.bounds == (0, 0, 1080, 2400)
    row, switch, edit, inverted = root.children
    assert row.clickable and row.resource_id == "com.example.app:id/row"
    assert row.children[0].text == "Milk & <b>eggs</b>"
    assert switch.checkable and switch.checked and switch.content_desc == "Wi-Fi"
    assert edit.editable and edit.focused and edit.long_clickable
    assert inverted.bounds == (600, 700, 500, 800)


def test_xml_round_trip_is_exact_and_escapes_text():
    root, _ = parse_hierarchy(SMALL)
    xml = to_uiautomator_xml(root)
    assert "&lt;b&gt;" in xml and "<b>" not in xml
    again, _ = parse_hierarchy(xml.encode())
    assert again == root


@pytest.mark.parametrize("text", ["[0,0][1,1]", "[-5,3][10,20]"])
def test_parse_bounds_ok(text):
    assert len(parse_bounds(text)) == 4


@pytest.mark.parametrize("bad", ["", "0,0,1,1", "[0,0][1]", "[a,0][1,1]"])
def test_parse_bounds_rejects(bad):
    with pytest.raises(HierarchyError):
        parse_bounds(bad)


@pytest.mark.parametrize("data", [b"", b"   ", b"<hierarchy", b"not xml at all",
                                  b"<hierarchy rotation='0'></hierarchy>", b"<html/>",
                                  b"<!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>"
                                  b"<hierarchy><node text='&e;' bounds='[0,0][1,1]'/></hierarchy>"])
def test_bad_dumps_raise_hierarchy_error(data):
    with pytest.raises(HierarchyError):
        root, _ = parse_hierarchy(data)
        # An entity that was not resolved must not leak a file's contents either.
        assert "root:" not in root.text
        raise HierarchyError("parsed")


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_truncations_and_mutations_never_crash(data):
    cut = data.draw(st.integers(0, len(SMALL)))
    blob = bytearray(SMALL[:cut])
    for _ in range(data.draw(st.integers(0, 3))):
        if blob:
            i = data.draw(st.integers(0, len(blob) - 1))
            blob[i] = data.draw(st.integers(0, 255))
    try:
        parse_hierarchy(bytes(blob))
    except HierarchyError:
        pass


def test_real_appium_page_source_parses():
    root, attrs = parse_hierarchy(shared("appium", "spoon_live", "page_source.xml").read_bytes())
    assert attrs["width"] == "1080" and attrs["height"] == "2420"
    assert root.class_name == "android.widget.FrameLayout"
    assert root.package == "co.spoonme"
    assert sum(1 for _ in root.walk()) > 50
