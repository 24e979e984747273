"""Trace readers: every supported recording format in, the same `Trace` out.

`read_traces(path)` finds the trace folders (or files) under `path`, detects each one's
format from its contents and reads it (see `phoneworld.traces.discover`).
"""

from __future__ import annotations

from pathlib import Path

from phoneworld.errors import TraceError
from phoneworld.traces.model import Action, Observation, Step, Trace

__all__ = ["Action", "Observation", "Step", "Trace", "TraceError", "read_traces"]


def read_traces(path: Path | str, notes: list[str] | None = None) -> list[Trace]:
    """Read every trace under `path` (a trace folder, a dump, or a folder of them).

    Folders skipped while searching (links out of `path`, loops) are noted in `notes`.
    """
    from phoneworld.traces.discover import read_traces as _read

    return _read(path, notes)
