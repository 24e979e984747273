"""One error root for every stage, so the CLI can catch exactly what a person can act on."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`"; did you mean 'cart'?"` when a known name is close to `name`, else `""`: the end
    of every message about a name that does not exist."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


class PhoneworldError(Exception):
    """Base of every error phoneworld reports to a person; carries the CLI's exit code."""

    exit_code = 1

    def show(self) -> str:
        return f"error: {self}"


class TraceError(PhoneworldError):
    """A trace file or folder that cannot be read.

    The message always names the file and, where there is one, the line or record.
    """

    exit_code = 2

    def __init__(self, path: object, message: str, *, line: int | None = None,
                 record: str | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.record = record
        self.message = message
        where = self.path
        if line is not None:
            where += f":{line}"
        if record is not None:
            where += f" [{record}]"
        super().__init__(f"{where}: {message}")


class SpecSyntaxError(PhoneworldError):
    """A `.pw` spec that does not parse."""

    exit_code = 3


class SpecError(PhoneworldError):
    """A `.pw` spec that parses but is not a valid app (collects every problem)."""

    exit_code = 3


class CodegenError(PhoneworldError):
    exit_code = 4


class InvalidAction(PhoneworldError):
    """An agent action that is malformed or cannot be applied; names the bad field."""

    exit_code = 5

    def __init__(self, message: str, *, field: str | None = None) -> None:
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


class DeviceError(PhoneworldError):
    exit_code = 6


class MissingExtra(PhoneworldError):
    """A command needs an optional part of phoneworld that is not installed: one line
    naming the extra to install."""

    exit_code = 8

    def __init__(self, what: str, extra: str, err: BaseException | None = None) -> None:
        self.extra = extra
        missing = f" ({err})" if err is not None else ""
        super().__init__(f"{what} needs the {extra} extra{missing}: "
                         f"pip install 'phoneworld[{extra}]'")


class OutputError(PhoneworldError):
    """An output folder phoneworld must not write to (an input, a file, someone's files)."""

    exit_code = 2
