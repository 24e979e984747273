"""Putting a new folder in place of an old one atomically, and clearing what a killed
writer left behind.

    out/.shop.pw-tmp-x1  (built, locked)  <-renameat2(RENAME_EXCHANGE)->  out/shop

The new tree is built in a hidden sibling (`hidden_folder`) and exchanged with the old one
in one call (`swap_in`), so at every instant `out/shop` is the old app or the new one. A
run killed midway leaves only a hidden `.shop.pw-tmp-*` folder (or, where the exchange is
unsupported, `.shop.pw-old-*`), which loaders skip and `clean_leftovers` removes (putting a
moved-aside old app back). Writers lock their hidden folders, so a cleaner never touches
a live one.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no locks, leftovers are cleaned by name only
    fcntl = None  # type: ignore[assignment]

_TAG = "pw-"
_LEFTOVER = re.compile(r"\.(?P<name>.+)\.pw-(?P<kind>tmp|old)-[A-Za-z0-9_]+")


def swap_in(new: Path, folder: Path) -> None:
    """Put `new` at `folder`; what was there ends up at `new`'s name (deleted by the caller)."""
    if not folder.exists():
        os.rename(new, folder)
        return
    if _exchange(new, folder):
        return
    # No atomic exchange here: move the old tree aside (locked, so that a cleaner puts it
    # back if this process dies before the second rename) and put it back on any failure.
    old = folder.parent / f".{folder.name}.{_TAG}old-{os.urandom(4).hex()}"
    with _try_lock(folder):  # held already when it is our own new tree (undoing a swap)
        os.rename(folder, old)
        try:
            os.rename(new, folder)
        except BaseException:
            os.rename(old, folder)
            raise
        os.rename(old, new)  # the caller deletes `new`, which now holds the old tree


@contextlib.contextmanager
def hidden_folder(folder: Path) -> Iterator[Path]:
    """A new, locked, hidden sibling `.NAME.pw-tmp-XXXX` of `folder`, removed on the way out."""
    path = Path(tempfile.mkdtemp(prefix=f".{folder.name}.{_TAG}tmp-", dir=folder.parent))
    try:
        path.chmod(0o755)  # mkdtemp makes it private; generated apps are ordinary files
        with _locked(path):
            yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on a folder (it follows the folder through renames)."""
    if fcntl is None:
        yield
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def clean_leftovers(parent: Path) -> list[str]:
    """Remove the hidden folders that killed writers left in `parent`; returns their names.

    A folder a live writer holds is left alone. An old app moved aside (`.NAME.pw-old-*`)
    whose place is empty is put back rather than deleted.
    """
    cleaned: list[str] = []
    try:
        entries = sorted(Path(parent).iterdir(), key=lambda p: p.name)
    except OSError:
        return cleaned
    for kind in ("old", "tmp"):  # restore moved-aside apps before deleting anything
        for entry in entries:
            m = _LEFTOVER.fullmatch(entry.name)
            if not m or m["kind"] != kind or entry.is_symlink() or not entry.is_dir():
                continue
            with _try_lock(entry) as free:
                if not free:
                    continue
                home = entry.parent / m["name"]
                if kind == "old" and not home.exists():
                    os.rename(entry, home)
                else:
                    shutil.rmtree(entry, ignore_errors=True)
                cleaned.append(entry.name)
    return cleaned


@contextlib.contextmanager
def _try_lock(path: Path) -> Iterator[bool]:
    if fcntl is None:
        yield True
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one step (Linux `renameat2(RENAME_EXCHANGE)`).

    False where the system or file system cannot; raises OSError for any other failure.
    """
    libc = _libc()
    if libc is None:
        return False
    if libc.renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b),
                      _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


_LIBC: list = []


def _libc():
    if not _LIBC:
        try:
            lib = ctypes.CDLL(None, use_errno=True)
            fn = lib.renameat2
            fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                           ctypes.c_uint]
            fn.restype = ctypes.c_int
        except (OSError, AttributeError):
            lib = None
        _LIBC.append(lib)
    return _LIBC[0]
