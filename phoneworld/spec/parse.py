"""Read `.pw` text into an `AppSpec` (lark LALR over `phoneworld/grammars/phoneworld.lark`).

    parse('app shop { package "com.example.shop" start home } screen home P0 {...}')
      ->  AppSpec(name='shop', package='com.example.shop', start='home', screens=(...))
    parse_expr('count(cart where qty > 1) >= 2')  ->  Compare('>=', Call('count', ...), ...)

One parser serves both, with two start symbols: `start` (a whole spec) and `expr` (one
expression: a checker's condition, a screen predicate). The grammar ships inside the
package, and the parser is built once per process, never cached on disk (a cache file in
a shared temp folder is a file anyone could have planted).

A syntax error is a `SpecSyntaxError` that reads `file:line:col: message`, then the source
line and a caret under the spot, with what was expected in plain words and a "did you
mean" for a misspelt keyword.
"""

from __future__ import annotations

import functools
import re
from importlib.resources import files

from lark import Lark
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)

from phoneworld.errors import SpecSyntaxError, did_you_mean
from phoneworld.spec.ast import AppSpec, Expr
from phoneworld.spec.transform import BuildError, Positions, ToAst

GRAMMAR = files("phoneworld") / "grammars" / "phoneworld.lark"
"""The grammar file, package data (readable from a wheel as from a checkout)."""
STARTS = ("start", "expr")

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DESCRIBE = {  # terminals that are patterns, as a person would name them
    "NAME": "a name", "STRING": "a string", "INTEGER": "a number", "DECIMAL": "a number",
    "CLASSNAME": "a class name", "PRIORITY": "a priority (P0, P1, P2)",
    "$END": "end of file",
}
_MAX_EXPECTED = 24
_CONTEXT = 100  # characters of a long source line shown around the error


@functools.lru_cache(maxsize=1)
def grammar() -> Lark:
    """The spec grammar's parser, built once per process (about 0.2 s)."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=True, start=list(STARTS))


def keywords() -> frozenset[str]:
    """Every keyword of the language (`app`, `screen`, `tap`, ...)."""
    return frozenset(t.pattern.value for t in grammar().terminals
                     if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value))


def parse(text: str, filename: str = "<spec>") -> AppSpec:
    """Parse spec text; raise `SpecSyntaxError` with `file:line:col`, the line and a caret."""
    return parse_with_positions(text, filename)[0]


def parse_with_positions(text: str, filename: str = "<spec>") -> tuple[AppSpec, Positions]:
    """Like `parse`, and also where each node was written (for `check`'s messages)."""
    builder = ToAst()
    return _build(text, filename, "start", builder), builder.positions


def parse_expr(text: str, filename: str = "<expression>") -> Expr:
    """One expression of the spec language; `SpecSyntaxError` as `parse` raises it."""
    return _build(text, filename, "expr", ToAst())


def _build(text: str, filename: str, start: str, builder: ToAst):
    try:
        tree = grammar().parse(text, start=start)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, filename, start) from err
    try:
        return builder.transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, BuildError):
            e = err.orig_exc
            raise syntax_error(filename, text, e.line, e.column, e.message) from err
        if isinstance(err.orig_exc, RecursionError):  # the limit hit inside a rule's callback
            raise _too_deep(filename) from err
        raise
    except RecursionError as err:
        raise _too_deep(filename) from err


def _too_deep(filename: str) -> SpecSyntaxError:
    return SpecSyntaxError(f"{filename}: expressions or views nest too deeply")


def syntax_error(filename: str, text: str, line: int, column: int,
                 message: str) -> SpecSyntaxError:
    """`file:line:col: message`, then the source line and a caret under `column`."""
    err = SpecSyntaxError(f"{filename}:{line}:{column}: {message}\n"
                          f"{source_excerpt(text, line, column)}")
    err.filename, err.line, err.column = filename, line, column
    return err


def source_excerpt(text: str, line: int, column: int) -> str:
    """Line `line` of `text` and a caret line under `column` (both 1-based)."""
    lines = text.split("\n")
    src = lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""
    col = max(column - 1, 0)
    if len(src) > 2 * _CONTEXT:
        lo = max(0, min(col - _CONTEXT // 2, len(src) - _CONTEXT))
        src, col = src[lo:lo + _CONTEXT], col - lo
    src = "".join(c if c.isprintable() or c == "\t" else "\ufffd" for c in src)
    pad = "".join("\t" if c == "\t" else " " for c in src[:col])
    return f"{src}\n{pad}^"


# -- lark's errors, in words -----------------------------------------------------------------

def _syntax_error(err: UnexpectedInput, text: str, filename: str,
                  start: str = "start") -> SpecSyntaxError:
    at_end = isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END")
    if at_end:
        line, column = _end_of(text)
        expected = set(getattr(err, "expected", ()))
        message = "unexpected end of file"
    else:
        pos = err.token.start_pos if isinstance(err, UnexpectedToken) else err.pos_in_stream
        if isinstance(err, UnexpectedCharacters) and text[pos] == '"':
            line, column = _line_col(text, pos)
            return syntax_error(filename, text, line, column, "this string does not end "
                                "on its line, or has a bad \\ escape in it")
        word_at = _word_start(text, pos)  # `tapp`: lexed as `tap` + `p`, reported as `tapp`
        m = _WORD.match(text, word_at)
        word = m.group(0) if m else ""
        expected = _expected_at(text, word_at, start) or set(
            err.expected if isinstance(err, UnexpectedToken) else err.allowed or ())
        line, column = _line_col(text, word_at)
        message = f"unexpected {_describe(err, word)}"
    if expected:
        message += f", expected {_one_of(expected)}"
        if not at_end and word:
            message += did_you_mean(word, _keywords_among(expected) - {word})
    return syntax_error(filename, text, line, column, message)


def _describe(err: UnexpectedInput, word: str) -> str:
    if word:
        return f"'{word}'"
    if isinstance(err, UnexpectedToken):
        s = str(err.token)
        if err.token.type == "STRING":
            return f"string {s if len(s) <= 30 else s[:27] + '...'}"
        return f"'{s}'"
    char = getattr(err, "char", "")
    if char == "`":
        return "'`' (a name in backticks is lowercase letters, digits and _)"
    return f"character {char!r}"


def _expected_at(text: str, pos: int, start: str) -> set[str]:
    """Every terminal the parser would take at `pos` (lark's own set can leave out
    keywords that the contextual lexer folds into NAME)."""
    try:
        cursor = grammar().parse_interactive(text[:pos], start=start)
        cursor.exhaust_lexer()
        return set(cursor.accepts())
    except UnexpectedInput:
        return set()


def _one_of(expected: set[str]) -> str:
    words = sorted({_describe_terminal(t) for t in expected},
                   key=lambda w: (w.startswith("'"), w))
    if len(words) > _MAX_EXPECTED:
        words = words[:_MAX_EXPECTED] + [f"{len(words) - _MAX_EXPECTED} more"]
    if len(words) == 1:
        return words[0]
    return "one of: " + ", ".join(words[:-1]) + " or " + words[-1]


def _describe_terminal(name: str) -> str:
    return _DESCRIBE.get(name) or _literals().get(name) or name.lower()


@functools.lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    return {t.name: f"'{t.pattern.value}'" for t in grammar().terminals
            if t.pattern.type == "str"}


def _keywords_among(expected: set[str]) -> set[str]:
    return {w[1:-1] for w in map(_describe_terminal, expected)
            if w.startswith("'") and _WORD.fullmatch(w[1:-1])}


def _word_start(text: str, pos: int) -> int:
    """The start of the word `pos` is inside of (`pos` itself when it starts one)."""
    if pos >= len(text) or not _is_word_char(text[pos]):
        return pos
    while pos > 0 and _is_word_char(text[pos - 1]):
        pos -= 1
    return pos


def _is_word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


def _line_col(text: str, pos: int) -> tuple[int, int]:
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _end_of(text: str) -> tuple[int, int]:
    """Line and column just after the last character that is not white space."""
    body = text.rstrip()
    line = body.count("\n") + 1
    return line, len(body) - (body.rfind("\n") + 1) + 1
