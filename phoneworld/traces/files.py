"""Reading trace files: regular files inside the trace folder, bounded in size.

A trace folder is untrusted. Readers list and read through these helpers, so that

- a symbolic link that leads out of the trace folder is skipped (with a warning), never
  followed: files elsewhere on the machine are not compiled in;
- anything that is not a regular file (a FIFO, `/dev/zero`, a socket) is skipped, and is
  never opened in a way that could block;
- a file is read once however many links lead to it, and never past `MAX_FILE_BYTES`.

    entries(folder, folder, notes)  ->  [folder/0.xml, folder/1.xml]
    notes == ["2.xml: skipped, a symbolic link to a file outside the trace folder"]
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from phoneworld.limits import MAX_FILE_BYTES, size


class UnsafeFile(OSError):
    """A trace file that is not read: outside the folder, or not a regular file.

    An OSError, so a reader that tolerates unreadable files tolerates these alike.
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(reason)
        self.strerror = reason
        self.filename = str(path)


class TooLarge(UnsafeFile):
    """A trace file over `MAX_FILE_BYTES`: an error where the file is needed."""


def refusal(file: Path, root: Path | None) -> str | None:
    """Why `file` may not be read as part of the trace in `root` (None when it may).

    A missing file is not refused here: readers say how they miss it.
    """
    try:
        st = file.lstat()
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    link = stat.S_ISLNK(st.st_mode)
    if link or root is not None:
        try:
            real = file.resolve(strict=True)
        except (OSError, RuntimeError):
            return "a symbolic link that leads nowhere (or in a loop)"
        if root is not None and not _inside(real, root):  # a link, a linked folder, `..`
            return f"a {'symbolic link to a ' if link else ''}file outside the trace folder"
        try:
            st = real.stat()
        except OSError:
            return None
    if stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode):
        return None
    return f"not a regular file (a {_kind(st.st_mode)})"


def usable(file: Path, root: Path | None) -> bool:
    """True for a regular file that may be read as part of the trace in `root`."""
    return file.is_file() and refusal(file, root) is None


def read_bytes(file: Path, root: Path | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular trace file inside `root`, at most `limit` of them.

    Raises:
        UnsafeFile: the file leaves `root`, is not a regular file, or is over `limit`.
        OSError: it cannot be read.
    """
    with _open(file, root) as (fh, st):
        if st.st_size > limit:
            raise TooLarge(file, f"{size(st.st_size)} is over the limit of {size(limit)} "
                                 f"per trace file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(file, f"over the limit of {size(limit)} per trace file")
    return data


def read_head(file: Path, root: Path | None, n: int) -> bytes:
    """The first `n` bytes of a regular trace file inside `root` (for sniffing formats)."""
    with _open(file, root) as (fh, _):
        return fh.read(n)


@contextlib.contextmanager
def _open(file: Path, root: Path | None) -> Iterator[tuple[BinaryIO, os.stat_result]]:
    why = refusal(file, root)
    if why:
        raise UnsafeFile(file, why)
    # O_NONBLOCK: a FIFO swapped in after the check must not block the open.
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(file, f"not a regular file (a {_kind(st.st_mode)})")
        yield fh, st


def entries(folder: Path, root: Path, notes: list[str] | None = None,
            keep: Callable[[Path], bool] = lambda p: True) -> list[Path]:
    """The entries of `folder` that `keep` wants and may be read, sorted by name.

    Links out of `root`, special files and second names of one file are left out, each
    with a note (relative to `root`).
    """
    try:
        listed = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    wanted = [e for e in listed if keep(e)]
    why: dict[Path, str | None] = {e: refusal(e, root) for e in wanted}
    seen: dict[Path, Path] = {}
    for entry in sorted(wanted, key=lambda e: e.is_symlink()):  # a file's own name first
        if why[entry] is None:
            real = entry.resolve()
            if real in seen:
                why[entry] = f"another name of {_rel(seen[real], root)} (read once)"
            else:
                seen[real] = entry
    out: list[Path] = []
    for entry in wanted:
        if why[entry] is None:
            out.append(entry)
        elif notes is not None:
            notes.append(f"{_rel(entry, root)}: skipped, {why[entry]}")
    return out


def _inside(real: Path, root: Path) -> bool:
    base = root.resolve()
    return real == base or base in real.parents


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                       (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISDIR, "folder")):
        if test(mode):
            return name
    return "special file"
