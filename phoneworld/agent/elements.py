"""The element list of a screen as text, for agents that read text.

    format_elements([{"index": 3, "class": "android.widget.Button", "text": "Add to cart",
                      "resource_id": "com.shop:id/add", "clickable": True, ...}])
        -> '[3] Button "Add to cart" id=add clickable [40,2180][1040,2290]'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

_FLAGS = ("clickable", "editable", "checkable", "scrollable")


def format_elements(elements: Sequence[Mapping[str, Any]]) -> str:
    """The element list as text, one line per element (see the module docstring)."""
    lines = []
    for e in elements:
        cls = str(e.get("class") or "").rsplit(".", 1)[-1] or "View"
        parts = [f"[{e.get('index', len(lines))}]", cls]
        text = e.get("text")
        if text:
            parts.append(json.dumps(str(text), ensure_ascii=False))
        desc = e.get("content_desc")
        if desc and desc != text:
            parts.append("desc=" + json.dumps(str(desc), ensure_ascii=False))
        rid = str(e.get("resource_id") or "")
        if rid:
            parts.append("id=" + rid.rsplit(":id/", 1)[-1])
        parts += [f for f in _FLAGS if e.get(f)]
        if e.get("checkable"):
            parts.append("checked" if e.get("checked") else "unchecked")
        b = e.get("bounds")
        if b and len(b) == 4:
            parts.append(f"[{b[0]},{b[1]}][{b[2]},{b[3]}]")
        lines.append(" ".join(parts))
    return "\n".join(lines)
