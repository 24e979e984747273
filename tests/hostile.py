"""Hostile trace inputs, built deterministically: the fuzz corpus, the limit tests and
`benchmarks/hostile.py` share them.

    deep_xml(129)              one view nested 129 levels (one past MAX_DEPTH)
    wide_xml(4000, same_id=1)  4,000 sibling buttons sharing one resource id
    native_trace(folder, xml)  a phoneworld trace folder of two observations of `xml`
"""

from __future__ import annotations

import json
from pathlib import Path

_ATTRS = ('index="0" text={text} resource-id="com.x:id/{rid}" class="android.widget.{cls}" '
          'package="com.x" content-desc="" checkable="false" checked="false" '
          'clickable="{click}" enabled="true" focusable="false" focused="false" '
          'scrollable="false" long-clickable="false" password="false" selected="false" '
          'bounds="{bounds}"')
_HEAD = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"


def node(*, text: str = "", rid: str = "v", cls: str = "FrameLayout", click: bool = False,
         bounds: str = "[0,0][1080,2400]", close: bool = True) -> str:
    """One `<node …>` element (self-closing, or opened for children when not `close`)."""
    from xml.sax.saxutils import quoteattr

    attrs = _ATTRS.format(text=quoteattr(text), rid=rid, cls=cls, bounds=bounds,
                          click="true" if click else "false")
    return f"<node {attrs}{' />' if close else '>'}"


def deep_xml(depth: int) -> bytes:
    """A dump of one chain of `depth` nested views, a button at the bottom."""
    chain = node(rid="f", close=False) * (depth - 1)
    leaf = node(rid="b", cls="Button", click=True, text="OK")
    return (_HEAD + chain + leaf + "</node>" * (depth - 1) + "</hierarchy>").encode()


def wide_xml(children: int, *, same_id: bool = True, pad: int = 0) -> bytes:
    """A dump whose root holds `children` clickable buttons (sharing one id, or not);
    `pad` characters of text on each make the file as large as wanted."""
    kids = "".join(node(rid="b" if same_id else f"b{i}", cls="Button", click=True,
                        text=f"item {i} " + "x" * pad,
                        bounds=f"[0,{i % 2400}][1080,{i % 2400 + 1}]")
                   for i in range(children))
    return (_HEAD + node(rid="root", cls="LinearLayout", close=False) + kids
            + "</node></hierarchy>").encode()


def native_trace(folder: Path, xml: bytes, *, steps: int = 2, manifest: dict | None = None
                 ) -> Path:
    """A phoneworld trace folder showing `xml` `steps` times, tapping the screen's centre."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for k in range(steps):
        (folder / f"{k:03d}.xml").write_bytes(xml)
        entries.append({"observation": f"{k:03d}.xml", "activity": "com.x/.Main",
                        "action": {"kind": "tap", "x": 540, "y": 1200}
                        if k + 1 < steps else None})
    doc = {"format": "phoneworld-trace", "version": 1, "app": "com.x",
           "instruction": "Tap OK", "answer": None, "screen": [1080, 2400], "steps": entries}
    doc.update(manifest or {})
    (folder / "trace.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder


def deep_view_list(depth: int) -> list[dict]:
    """A DroidBot/LlamaTouch flat view list whose views form one chain `depth` long."""
    views = []
    for i in range(depth):
        views.append({"temp_id": i, "parent": i - 1, "children": [i + 1] if i + 1 < depth
                      else [], "class": "android.widget.FrameLayout", "package": "com.x",
                      "bounds": [[0, 0], [1080, 2400]], "visible": True, "enabled": True,
                      "resource_id": "com.x:id/f", "text": None,
                      "view_str": f"v{i}", "clickable": i + 1 == depth})
    return views


def droidbot_trace(folder: Path, views: list[dict]) -> Path:
    """A DroidBot output folder: two states showing `views`, one touch between them."""
    (folder / "states").mkdir(parents=True, exist_ok=True)
    (folder / "events").mkdir(exist_ok=True)
    for k, tag in enumerate(("2024-01-01_000001", "2024-01-01_000002")):
        state = {"tag": tag, "state_str": f"s{k}", "foreground_activity": "com.x/.Main",
                 "width": 1080, "height": 2400, "views": views}
        (folder / "states" / f"state_{tag}.json").write_text(json.dumps(state))
    event = {"tag": "2024-01-01_000001", "event": {"event_type": "touch", "x": 540,
                                                   "y": 1200},
             "start_state": "s0", "stop_state": "s1", "event_str": "touch"}
    (folder / "events" / "event_2024-01-01_000001.json").write_text(json.dumps(event))
    (folder / "utg.js").write_text('var utg = {"app_package": "com.x", "nodes": []}')
    return folder
