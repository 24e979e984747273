"""Plain hierarchy dumps: one uiautomator/Appium XML file, or a numbered sequence of them.

A sequence is a folder of dumps ordered by the number in each name (`2.xml` before
`10.xml`). Plain dumps record no actions, so such a trace has observations and no
steps (reported as a warning when there are several).
"""

from __future__ import annotations

import re
from pathlib import Path

from phoneworld.errors import TraceError
from phoneworld.traces.assemble import assemble, foreground_package
from phoneworld.traces.files import entries, read_bytes, read_head
from phoneworld.traces.model import Observation, Trace
from phoneworld.ui.hierarchy import HierarchyError, parse_hierarchy

_NUM = re.compile(r"(\d+)")


def looks_like_dump(file: Path, root: Path | None = None) -> bool:
    """Cheap check on the first bytes: an XML file whose root is a view hierarchy."""
    if file.suffix.lower() != ".xml" or not file.is_file():
        return False
    try:
        head = read_head(file, root, 1024)
    except OSError:
        return False
    return b"<hierarchy" in head or b"<node" in head or (b"<android." in head)


def dumps_in(folder: Path, notes: list[str] | None = None) -> list[Path]:
    """The dumps in `folder`, in the order of the numbers in their names; links out of the
    folder and special files are left out (noted in `notes`)."""
    xml = entries(folder, folder, notes, keep=lambda f: f.suffix.lower() == ".xml")
    return sorted((f for f in xml if looks_like_dump(f, folder)), key=_natural_key)


def _natural_key(p: Path):
    return [int(t) if t.isdigit() else t for t in _NUM.split(p.name)]


def detect(path: Path) -> bool:
    if path.is_file():
        return looks_like_dump(path) or path.suffix.lower() == ".xml"
    return path.is_dir() and bool(dumps_in(path))


def read(path: Path) -> list[Trace]:
    warnings: list[str] = []
    files = [path] if path.is_file() else dumps_in(path, warnings)
    if not files:
        raise TraceError(path, "no uiautomator or Appium XML dumps here")
    observations: list[Observation] = []
    dialects: set[str] = set()
    base = path.parent if path.is_file() else path
    for file in files:
        try:
            data = read_bytes(file, None if path.is_file() else base)  # a file named: read
            root, attrs = parse_hierarchy(data)
        except OSError as err:
            raise TraceError(file, f"cannot read: {err.strerror or err}") from err
        except HierarchyError as err:
            if len(files) == 1:
                raise TraceError(file, str(err)) from err
            warnings.append(f"{file.name}: skipped, {err}")
            continue
        dialects.add("appium" if attrs.get("class") == "hierarchy" or b"<node" not in data[:4096]
                     else "uiautomator")
        width = _int(attrs.get("width")) or root.bounds[2]
        height = _int(attrs.get("height")) or root.bounds[3]
        if attrs.get("rotation") in {"1", "3"} and width < height:
            width, height = height, width
        observations.append(Observation(
            root=root, width=width, height=height, package=foreground_package(root),
            source=str(file.relative_to(base)),
        ))
    if not observations:
        raise TraceError(path, "none of the XML dumps here could be read: " + "; ".join(warnings))
    if len(observations) > 1:
        warnings.append(f"{len(observations)} dumps but no recorded actions between them")
    fmt = "appium" if dialects == {"appium"} else "uiautomator"
    name = path.stem if path.is_file() else path.name
    return [assemble(format=fmt, name=name, source=str(path), observations=observations,
                     steps=(), warnings=warnings)]


def _int(v: str | None) -> int:
    try:
        return int(v) if v is not None else 0
    except ValueError:
        return 0
