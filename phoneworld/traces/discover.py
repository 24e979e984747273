"""Find trace folders under a path and read each with the reader its contents call for.

The most specific formats are tried first; a folder claimed by a reader is not searched
further.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from phoneworld.errors import TraceError
from phoneworld.traces import droidbot, llamatouch, native, rico, uiautomator
from phoneworld.traces.model import Trace

READERS: tuple[tuple[str, ModuleType], ...] = (
    ("phoneworld", native),
    ("llamatouch", llamatouch),
    ("droidbot", droidbot),
    ("rico", rico),
    ("uiautomator", uiautomator),
)

def find_traces(path: Path) -> list[tuple[str, Path]]:
    """The (format, location) of every trace under `path`, in a stable order."""
    path = Path(path)
    if not path.exists():
        raise TraceError(path, "no such file or folder")
    if path.is_file():
        if uiautomator.detect(path):
            return [("uiautomator", path)]
        raise TraceError(path, "not a trace: expected a folder, or a uiautomator/Appium "
                               "XML dump")
    found: list[tuple[str, Path]] = []
    _search(path, found)
    if not found:
        raise TraceError(path, "no traces found (looked for phoneworld trace.json, "
                               "LlamaTouch, DroidBot, Rico and uiautomator/Appium XML)")
    return found


def _search(folder: Path, found: list[tuple[str, Path]]) -> None:
    for name, reader in READERS:
        if reader.detect(folder):
            found.append((name, folder))
            return
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir()
                          and not p.name.startswith("."))
    except OSError as err:
        raise TraceError(folder, f"cannot list folder: {err.strerror or err}") from err
    for child in children:
        _search(child, found)


def read_trace_folder(fmt: str, path: Path) -> list[Trace]:
    """Read one trace location with the reader for `fmt`."""
    reader = dict(READERS)[fmt]
    return reader.read(path)


def read_traces(path: Path | str) -> list[Trace]:
    """Read every trace under `path` (a trace folder, a dump, or a folder of them)."""
    traces: list[Trace] = []
    for fmt, location in find_traces(Path(path)):
        traces.extend(read_trace_folder(fmt, location))
    return traces
