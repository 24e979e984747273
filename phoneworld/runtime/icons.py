"""Material-like icons for views that the recording shows only as an image.

    icon_for("Navigate up", "toolbar_back")   -> "back"
    svg("back", "#5f6368")                    -> '<svg viewBox="0 0 24 24" ...>...</svg>'

An icon is picked by words of the view's content description and resource id (and of
its clickable ancestor's, for the image inside a tab or a button); the SVG paths are
simple shapes drawn for phoneworld on Material's 24-unit grid. Only these fixed strings
reach a page as markup; a view's description reaches it as escaped text.
"""

from __future__ import annotations

import re

from markupsafe import Markup

PATHS = {
    "back": "M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20z",
    "menu": "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z",
    "more": "M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 2a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm0 6a2 2 0 "
            "1 0 0 4 2 2 0 0 0 0-4z",
    "search": "M10 4a6 6 0 1 0 3.9 10.6l5.3 5.3 1.4-1.4-5.3-5.3A6 6 0 0 0 10 4zm0 2a4 4 0 1 "
              "1 0 8 4 4 0 0 1 0-8z",
    "close": "M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 "
             "17.6 13.4 12z",
    "add": "M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6z",
    "remove": "M19 13H5v-2h14z",
    "share": "M18 16a3 3 0 0 0-2 .8L8.9 12.7a3 3 0 0 0 0-1.4L16 7.2A3 3 0 1 0 15 5a3 3 0 0 0 "
             ".1.7L8 9.8a3 3 0 1 0 0 4.4l7.1 4.1A3 3 0 1 0 18 16z",
    "settings": "M12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7zM19.4 13l2-1.5-2-3.5-2.4 1a7.5 "
                "7.5 0 0 0-2-1.2L14.5 5h-5L9 7.8a7.5 7.5 0 0 0-2 1.2L4.6 8l-2 3.5 2 1.5v0a7.5 "
                "7.5 0 0 0 0 1l-2 1.5 2 3.5 2.4-1a7.5 7.5 0 0 0 2 1.2l.5 2.8h5l.5-2.8a7.5 "
                "7.5 0 0 0 2-1.2l2.4 1 2-3.5-2-1.5a7.5 7.5 0 0 0 0-1z",
    "favorite": "M12 21l-1.5-1.3C5 15 2 12.3 2 8.5 2 5.4 4.4 3 7.5 3c1.7 0 3.4.8 4.5 2.1C13.1 "
                "3.8 14.8 3 16.5 3 19.6 3 22 5.4 22 8.5c0 3.8-3 6.5-8.5 11.2z",
    "star": "M12 17.3 18.2 21l-1.6-7L22 9.2l-7.2-.6L12 2 9.2 8.6 2 9.2 7.5 14l-1.7 7z",
    "cart": "M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM7.2 14h9.5a2 "
            "2 0 0 0 1.8-1l3.5-7H5.2L4.3 4H1v2h2l3.6 7.6L5.2 16H19v-2z",
    "home": "M10 20v-6h4v6h5v-8h3L12 3 2 12h3v8z",
    "person": "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm0 2c-2.7 0-8 1.3-8 4v2h16v-2c0-2.7-5.3-4-8-4z",
    "delete": "M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6zM19 4h-3.5l-1-1h-5l-1 1H5v2h14z",
    "edit": "M3 17.2V21h3.8L17.8 9.9l-3.7-3.7zM20.7 7a1 1 0 0 0 0-1.4l-2.3-2.3a1 1 0 0 0-1.4 0"
            "l-1.8 1.8 3.7 3.7z",
    "play": "M8 5v14l11-7z",
    "pause": "M6 19h4V5H6zm8-14v14h4V5z",
    "chevron": "M10 6 8.6 7.4 13.2 12l-4.6 4.6L10 18l6-6z",
    "expand": "M16.6 8.6 12 13.2 7.4 8.6 6 10l6 6 6-6z",
    "check": "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z",
    "list": "M3 13h2v-2H3zm0 4h2v-2H3zm0-8h2V7H3zm4 4h14v-2H7zm0 4h14v-2H7zM7 7v2h14V7z",
    "bell": "M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6v-5c0-3.1-1.6-5.6-4.5-6.3V4a1.5 1.5 0 "
            "0 0-3 0v.7C7.6 5.4 6 7.9 6 11v5l-2 2v1h16v-1z",
    "refresh": "M17.6 6.4A8 8 0 1 0 19.7 14h-2.1A6 6 0 1 1 12 6c1.7 0 3.1.7 4.2 1.8L13 11h7V4z",
    "mic": "M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5.3-3a5.3 5.3 0 0 1-10.6 0H5"
           "a7 7 0 0 0 6 6.9V21h2v-3.1a7 7 0 0 0 6-6.9z",
    "image": "M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5 "
             "13.5l2.5 3 3.5-4.5 4.5 6H5z",
    "dot": "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16z",
    "signal": "M2 22h20V2z",
    "wifi": "M12 21 1 9.5a16 16 0 0 1 22 0z",
    "battery": "M16 4h-2V2h-4v2H8a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V5a1 1 0 0 "
               "0-1-1z",
    "nav_back": "M17 3.5 6 12l11 8.5z",
    "nav_home": "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z",
    "nav_recent": "M4 4h16v16H4z",
}

_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("back", ("back", "navigate up", "up", "返回", "后退")),
    ("close", ("close", "cancel", "dismiss", "关闭", "取消")),
    ("search", ("search", "find", "搜索", "查找")),
    ("menu", ("menu", "drawer", "hamburger", "菜单")),
    ("more", ("more", "overflow", "options", "更多")),
    ("cart", ("cart", "basket", "bag", "购物车")),
    ("home", ("home", "首页", "主页")),
    ("person", ("account", "profile", "user", "me", "login", "avatar", "我的", "账号")),
    ("favorite", ("favourite", "favorite", "like", "heart", "喜欢", "收藏")),
    ("star", ("star", "rate", "rating")),
    ("share", ("share", "分享")),
    ("settings", ("setting", "settings", "preference", "preferences", "gear", "设置")),
    ("bell", ("notification", "notifications", "alert", "bell", "通知")),
    ("delete", ("delete", "remove", "trash", "discard", "删除")),
    ("remove", ("decrease", "minus", "subtract")),
    ("add", ("add", "new", "create", "plus", "increase", "compose", "添加", "新建")),
    ("edit", ("edit", "rename", "pencil", "编辑")),
    ("pause", ("pause", "暂停")),
    ("play", ("play", "播放")),
    ("refresh", ("refresh", "reload", "sync", "刷新")),
    ("mic", ("voice", "mic", "speak", "语音")),
    ("list", ("list", "orders", "queue", "playlist", "列表")),
    ("check", ("done", "confirm", "ok", "save", "完成", "确定")),
    ("expand", ("expand", "dropdown", "展开")),
    ("chevron", ("chevron", "arrow", "next", "forward", "detail")),
)


def icon_for(*labels: str) -> str:
    """The icon whose words the labels (content descriptions, resource ids) name first;
    `dot` where none does. Whole words only (`up` is not in `support`)."""
    for label in labels:
        if not label:
            continue
        text = re.sub(r"([a-z])([A-Z])", r"\1 \2", label.rsplit("/", 1)[-1]).lower()
        words = set(re.split(r"[^0-9a-z\u0080-\uffff]+", text))
        for name, keys in _WORDS:
            for k in keys:
                if (k in words) if k.isascii() and " " not in k else (k in text):
                    return name
    return "dot"


def svg(name: str, color: str, size: str = "") -> Markup:
    """Icon `name` as inline SVG in `color` (a `#rrggbb` colour), filling its box (or
    `size` CSS pixels square)."""
    path = PATHS.get(name, PATHS["dot"])
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
        color = "#5f6368"
    dim = f' width="{float(size):.1f}" height="{float(size):.1f}"' if size else ""
    return Markup(f'<svg viewBox="0 0 24 24"{dim} aria-hidden="true"><path fill="{color}" '
                  f'fill-rule="evenodd" d="{path}"/></svg>')
