"""Find trace folders under a path and read each with the reader its contents call for.

The most specific formats are tried first; a folder claimed by a reader is not searched
further. Hidden folders are not searched; neither are links out of the searched folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

from phoneworld.errors import TraceError
from phoneworld.traces import droidbot, llamatouch, native, rico, uiautomator
from phoneworld.traces.files import entries
from phoneworld.traces.model import Trace

READERS: tuple[tuple[str, ModuleType], ...] = (
    ("phoneworld", native),
    ("llamatouch", llamatouch),
    ("droidbot", droidbot),
    ("rico", rico),
    ("uiautomator", uiautomator),
)

def find_traces(path: Path, notes: list[str] | None = None) -> list[tuple[str, Path]]:
    """The (format, location) of every trace under `path`, in a stable order.

    Folders reached by a symbolic link out of `path`, or a second time (links in a loop),
    are skipped, each with a line in `notes`.
    """
    path = Path(path)
    if not path.exists():
        raise TraceError(path, "no such file or folder")
    if path.is_file():
        if uiautomator.detect(path):
            return [("uiautomator", path)]
        raise TraceError(path, "not a trace: expected a folder, or a uiautomator/Appium "
                               "XML dump")
    found: list[tuple[str, Path]] = []
    _search(path, path, found, {path.resolve()}, notes if notes is not None else [])
    if not found:
        raise TraceError(path, "no traces found (looked for phoneworld trace.json, "
                               "LlamaTouch, DroidBot, Rico and uiautomator/Appium XML)")
    return found


def _search(folder: Path, root: Path, found: list[tuple[str, Path]], visited: set[Path],
            notes: list[str]) -> None:
    for name, reader in READERS:
        if reader.detect(folder):
            found.append((name, folder))
            return
    if not folder.is_dir():
        raise TraceError(folder, "not a folder")
    try:
        os.listdir(folder)
    except OSError as err:
        raise TraceError(folder, f"cannot list folder: {err.strerror or err}") from err
    for child in entries(folder, root, notes, keep=_is_folder):
        real = child.resolve()
        if real in visited:
            notes.append(f"{child}: skipped, a link to a folder already read")
            continue
        visited.add(real)
        _search(child, root, found, visited, notes)


def _is_folder(p: Path) -> bool:
    return not p.name.startswith(".") and p.is_dir()


def read_trace_folder(fmt: str, path: Path) -> list[Trace]:
    """Read one trace location with the reader for `fmt`."""
    reader = dict(READERS)[fmt]
    return reader.read(path)


def read_traces(path: Path | str, notes: list[str] | None = None) -> list[Trace]:
    """Read every trace under `path` (a trace folder, a dump, or a folder of them)."""
    traces: list[Trace] = []
    for fmt, location in find_traces(Path(path), notes):
        traces.extend(read_trace_folder(fmt, location))
    return traces
