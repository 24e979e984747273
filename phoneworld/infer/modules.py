"""Recognise PhoneWorld's reusable UI modules in a screen, each with the reason it was seen.

    View tree with an EditText + submit transition + list  ->  {"search": ..., "list": ...}

The matchers read the screen's inferred view tree and its data bindings, so every module
comes with a one-line explanation for the compile report. A screen can hold several.
"""

from __future__ import annotations

import re

from phoneworld.spec.ast import View
from phoneworld.spec.walk import views as all_views

_MEDIA = re.compile(r"\b(play|pause|next|previous|prev|seek|shuffle|repeat|rewind|forward)\b",
                    re.I)
_SEARCH = re.compile(r"search|query|find", re.I)
_SEND = re.compile(r"\b(send|post|reply|comment)\b", re.I)
_DIALOG_IDS = ("alertTitle", "android:id/button1", "android:id/button2", "parentPanel",
               "buttonPanel")


def _words(v: View) -> str:
    return f"{v.id} {_literal(v.desc)} {_literal(v.text)}"


def _literal(e: object) -> str:
    """A literal text's words; nothing for a binding."""
    value = getattr(e, "value", "")
    return value if isinstance(value, str) else ""


def recognise(root: View, lists: dict, param: str | None, flag_of: dict,
              screen: str) -> dict[str, str]:
    """Module name -> why, for one screen."""
    views = list(all_views(root))
    found: dict[str, str] = {}
    edits = [v for v in views if "editable" in v.flags]
    if lists:
        found["list"] = f"{len(lists)} list(s): " + ", ".join(sorted(lc.table for lc in
                                                                    lists.values()))
    if param:
        found["detail"] = f"shows one row of {param} (entered by tapping a list item)"
    if any(_SEARCH.search(_words(v)) for v in edits):
        found["search"] = "a text field named like search/query"
    if len(edits) >= 2:
        found["form"] = f"{len(edits)} text fields: " + ", ".join(v.name or v.id for v in edits)
    if edits and any(_SEND.search(_words(v)) for v in views if "clickable" in v.flags):
        found["messaging"] = "a text field and a send/post/reply button"
    toggles = [k for (s, k) in flag_of if s == screen]
    item_toggles = [lc.table for lc in lists.values() if lc.checkable]
    if toggles or item_toggles:
        found["settings"] = f"{len(toggles) + len(item_toggles)} checkable setting(s)"
    selected = [v for v in views if "selected" in v.flags]
    for v in views:
        clickable_kids = [c for c in v.children if "clickable" in c.flags]
        if len(clickable_kids) >= 3 and any("selected" in c.flags for c in v.children) \
                and v.items is None:
            found["tabs"] = f"{len(clickable_kids)} tabs in {v.id or v.cls}"
            break
    else:
        if selected and any("tab" in (v.id + v.cls).lower() for v in views):
            found["tabs"] = "a selected tab"
    if any(any(d in v.id for d in _DIALOG_IDS) for v in views):
        found["dialog"] = "alert dialog ids (alertTitle / button1 / button2)"
    media = [v for v in views if "clickable" in v.flags and _MEDIA.search(_words(v))]
    if len(media) >= 2:
        found["media"] = f"{len(media)} media controls"
    if any(("cart" in _words(v).lower() or "favo" in _words(v).lower()
            or "bag" in _words(v).lower()) for v in views if "clickable" in v.flags):
        found["collection"] = "add/remove controls for a collection (cart, favourites)"
    return found
