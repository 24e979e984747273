"""Read an action out of a model's raw output text, tolerating the usual formatting noise.

    parse_action('Reason: the cart icon.\\nAction: {"action_type": "click", "index": 7}')
        -> {"action_type": "click", "index": 7}
    parse_action("<think>...</think><tool_call>{'name': 'click', 'arguments': "
                 "{'coordinate': [500, 250]}}</tool_call>", width=1080, height=2400)
        -> {"action_type": "click", "x": 540, "y": 600}
    parse_action("```\\ntype(text='oat milk', coordinate=(500, 80))\\n```", width=..., height=...)
    parse_action("navigate_back")  -> {"action_type": "navigate_back"}

Accepted: AndroidWorld JSON actions (pixels or element index); PhoneBuddy tool calls as
JSON (`{"name", "arguments"}` and the other shapes `formats.split_call` takes) or as a
Python-style call `click(coordinate=[500, 250])` (points on the 0-1000 grid, mapped with
`width` and `height`); a bare no-argument action name (`back`, `home`, `enter`, `wait`).
Noise that is removed: `<think>` blocks, `<tool_call>`/`<action>` tags, code fences,
`Action:` labels, prose around the action, single quotes, Python literals, trailing
commas, unquoted keys, doubled braces. Where several actions appear, the last one counts
(reasoning often quotes examples first). Nothing found, or an action that does not
validate, raises `InvalidAction` with a short excerpt of the text.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from typing import Any

from phoneworld.agent.formats import TOOLS, is_tool_call, map_call, split_call, tool_name
from phoneworld.errors import InvalidAction
from phoneworld.runtime.actions import ACTION_TYPES, Action

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.S | re.I)
_TAGGED = re.compile(r"<(tool_call|function_call|action|answer_action|command)>(.*?)</\1>",
                     re.S | re.I)
_FENCE = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n?(.*?)```", re.S)
_LABEL = re.compile(r"(?:^|\n)[ \t>*#_]*(?:final[ \t]+|next[ \t]+)?action[ \t]*(?:\*\*)?"
                    r"[ \t]*[:：]", re.I)
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'",
                         "\u2019": "'", "\uff1a": ":", "\uff0c": ","})
_CALL = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*)\s*\(")
_BARE = {"back": "navigate_back", "navigate_back": "navigate_back", "press_back": "navigate_back",
         "home": "navigate_home", "navigate_home": "navigate_home",
         "press_home": "navigate_home", "enter": "keyboard_enter",
         "keyboard_enter": "keyboard_enter", "press_enter": "keyboard_enter", "wait": "wait"}
_KNOWN = {*ACTION_TYPES, "tap", "type", "input", "drag", "swipe", "button_press", "press",
          "press_back", "press_home", "press_enter", "finish", "finished", "output", "back",
          "home", "enter", "long_click", "open", "launch", "terminate", "do", "system_button",
          "key", "input_text", "type_text", "double_click", "left_click", "sleep", "done"}
_TOOL_NAMES = {*TOOLS, "back", "home", "enter"}
_EXCERPT = 80


def parse_action(text: str, *, width: int | None = None,
                 height: int | None = None) -> dict[str, Any]:
    """The AndroidWorld JSON action (a dict, validated) that `text` asks for.

    `width` and `height` (the screen's, in pixels) map PhoneBuddy's 0-1000 points;
    without them a PhoneBuddy call with a point raises `InvalidAction`.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not isinstance(text, str):
        raise InvalidAction(f"expected text, not {type(text).__name__}", field="action")
    found = _find(_clean(text))
    if found is None:
        raise InvalidAction(f"no action found in {_excerpt(text)}: expected an AndroidWorld "
                            f'JSON action like {{"action_type": "click", "index": 3}} or a '
                            f"tool call like click(coordinate=[500, 300])", field="action")
    kind, value = found
    if kind == "json":
        if is_tool_call(value):
            name, args = split_call(value)
            return _tool(name, args, width, height)
        return Action.parse(value).as_dict()
    name, args = value
    return _tool(name, args, width, height)


def _tool(name: str, args: dict[str, Any], width: int | None,
          height: int | None) -> dict[str, Any]:
    return Action.parse(map_call(tool_name(name), name, args, width, height)).as_dict()


def _clean(text: str) -> str:
    text = text.translate(_QUOTES)
    text = _THINK.sub(" ", text)
    # An unclosed or leading-only think block: keep what follows its end.
    low = text.lower()
    for tag in ("</think>", "</thinking>", "</reasoning>"):
        i = low.rfind(tag)
        if i >= 0 and not _in_string(text, i):  # (not one the action types)
            text, low = text[i + len(tag):], low[i + len(tag):]
    return text.strip()


def _in_string(text: str, i: int) -> bool:
    """Whether position `i` lies inside a JSON string of the object opened last before
    it (an odd count of unescaped quotes since that `{`)."""
    j = text.rfind("{", 0, i)
    return j >= 0 and len(re.findall(r'(?<!\\)"', text[j:i])) % 2 == 1


def _regions(text: str) -> list[str]:
    """Where to look, most specific first: tagged blocks, fenced blocks, the text after
    the last `Action:` label, then everything."""
    out = [m.group(2) for m in _TAGGED.finditer(text)][::-1]
    out += [m.group(1) for m in _FENCE.finditer(text)][::-1]
    labels = list(_LABEL.finditer(text))
    if labels:
        out.append(text[labels[-1].end():])
    out.append(text)
    return out


def _find(text: str) -> tuple[str, Any] | None:
    for region in _regions(text):
        region = region.strip()
        if not region:
            continue
        found = _last_json(region) or _last_call(region) or _bare(region)
        if found is not None:
            return found
    return None


# -- JSON objects ----------------------------------------------------------------------------

def _last_json(text: str) -> tuple[str, Any] | None:
    best = None
    for span in _objects(text):
        obj = _loads(span)
        if isinstance(obj, dict) and _looks_like_action(obj):
            best = ("json", obj)
    return best


def _looks_like_action(d: dict) -> bool:
    if "action_type" in d:
        return True
    if not is_tool_call(d):
        return False
    try:
        name, _ = split_call(d)
    except InvalidAction:
        return False
    return tool_name(name) in _tool_names()


def _tool_names() -> set[str]:
    return _TOOL_NAMES


_CLOSER = {"(": ")", "[": "]", "{": "}"}


def _brackets(text: str, start: int = 0, *, kinds: str = "([{",
              prose: bool = False) -> Iterator[tuple[int, str, int]]:
    """(index, bracket, depth after it) for each bracket of `kinds` or its closer in `text`
    from `start`, skipping quoted strings.

    A quote opens only inside brackets; with `prose`, an apostrophe between two letters
    ("don't") opens none; a closer with nothing open is not yielded.
    """
    closers = {_CLOSER[k] for k in kinds}
    depth, quote, escape = 0, "", False
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            if escape:
                escape = False
            elif c == "\\":
                escape = True
            elif c == quote:
                quote = ""
        elif c in "\"'":
            if depth and not (prose and c == "'" and 0 < i < len(text) - 1
                              and text[i - 1].isalnum() and text[i + 1].isalnum()):
                quote = c
        elif c in kinds:
            depth += 1
            yield i, c, depth
        elif c in closers and depth:
            depth -= 1
            yield i, c, depth


def _objects(text: str) -> list[str]:
    """Every outermost balanced `{...}` in `text` (quotes respected)."""
    out, start = [], 0
    for i, c, depth in _brackets(text, kinds="{", prose=True):
        if c == "{" and depth == 1:
            start = i
        elif depth == 0:
            out.append(text[start:i + 1])
    return out


_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*)\s*:")
_JSON_WORDS = {"true": "True", "false": "False", "null": "None"}


def _loads(s: str) -> Any:
    """JSON, else the same after repairs, else a Python literal."""
    while s.startswith("{{") and s.endswith("}}"):
        s = s[1:-1]
    for candidate in (s, _TRAILING_COMMA.sub(r"\1", s)):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    fixed = _BARE_KEY.sub(r'\1"\2":', _TRAILING_COMMA.sub(r"\1", s))
    try:
        return json.loads(fixed)
    except ValueError:
        pass
    py = re.sub(r"\b(true|false|null)\b", lambda m: _JSON_WORDS[m.group(1)], fixed)
    try:
        return ast.literal_eval(py)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None


# -- function-call syntax -----------------------------------------------------------------------

_POSITIONAL = {
    "click": ("coordinate",), "long_press": ("coordinate",), "type": ("text", "coordinate"),
    "scroll": ("direction", "coordinate"), "drag": ("start", "end"),
    "button_press": ("button",), "open_app": ("app_name",), "output": ("text",),
    "finish": ("status",), "wait": ("seconds",),
}


def _last_call(text: str) -> tuple[str, Any] | None:
    best = None
    for m in _CALL.finditer(text):
        name = m.group(1).rsplit(".", 1)[-1]
        if name.lower() not in _KNOWN and tool_name(name) not in _tool_names():
            continue
        end = _close_paren(text, m.end() - 1)
        if end is None:
            continue
        parsed = _call_args(text[m.end():end])
        if parsed is None:
            continue
        positional, keywords = parsed
        if name.lower() == "do":  # AutoGLM: do(action="Tap", element=[x, y])
            inner = keywords.pop("action", None)
            if not isinstance(inner, str):
                continue
            name = inner
            if "element" in keywords:
                keywords["coordinate"] = keywords.pop("element")
        best = ("call", (name, _with_positional(name, positional, keywords)))
    return best


def _with_positional(name: str, positional: list[Any], keywords: dict[str, Any]) -> dict:
    tool = tool_name(name)
    args = dict(keywords)
    if tool in ("click", "long_press") and len(positional) == 2 and all(
            isinstance(v, (int, float)) for v in positional):
        positional = [list(positional)]
    if tool == "drag" and len(positional) == 4:
        positional = [positional[:2], positional[2:]]
    if tool == "scroll" and positional and not isinstance(positional[0], str):
        positional = positional[::-1]  # scroll((x, y), "down")
    for key, v in zip(_POSITIONAL.get(tool, ()), positional, strict=False):
        args.setdefault(key, v)
    return args


def _close_paren(text: str, open_at: int) -> int | None:
    return next((i for i, _, depth in _brackets(text, open_at) if depth == 0), None)


def _call_args(inner: str) -> tuple[list[Any], dict[str, Any]] | None:
    inner = re.sub(r"\b(true|false|null)\b", lambda m: _JSON_WORDS[m.group(1)], inner)
    try:
        node = ast.parse(f"f({inner})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Call):
        return None
    try:
        positional = [_value(a) for a in node.args]
        keywords = {k.arg: _value(k.value) for k in node.keywords if k.arg}
    except ValueError:
        return None
    return positional, keywords


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Name):  # direction=down
        return node.id
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError) as err:
        raise ValueError(str(err)) from err


def _bare(text: str) -> tuple[str, Any] | None:
    word = text.strip().strip("`'\".!;*_ ").strip().lower().replace(" ", "_").replace("-", "_")
    if word in _BARE:
        return "json", {"action_type": _BARE[word]}
    return None


def _excerpt(text: str) -> str:
    t = " ".join(text.split())
    return repr(t if len(t) <= _EXCERPT else t[:_EXCERPT - 3] + "...")
