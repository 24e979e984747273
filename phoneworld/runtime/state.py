"""An app's data in SQLite: content tables, state tables and flags, with exact reset.

The database is built once per spec (`initial_image`) and serialised; `reset` puts those
bytes back with `deserialize`, which takes microseconds and restores the initial state
bit for bit. Reads go through a per-table row cache (content tables never change, state
tables are small), so rendering a screen costs no SQL once the data is warm; what was
read in the initial data stays cached across resets.

`State.version` names the data's content: the same number means the same rows and flags,
so what is computed from the data (a rendered screen) can be kept under it. Every write
moves to the version that (version, write) led to before in any `State` of the same spec,
if any, so replaying the same writes from a reset meets the same versions again, in this
episode, a later one, or another machine's; a reset returns to the initial version.
What was read at a version (rows, keys, flags) is kept under it for every `State` of the
spec (`Versions.reads`), and an image loaded at a known version reaches SQLite only when
SQL is needed (a write, a read not kept): a planner that restores hundreds of snapshots
a second mostly meets data it has read before, often the very data it holds.

    State(spec).rows("product")   -> [{"id": 1, "name": "Oat milk", "price": "$3.49"}, ...]
    state.insert("cart", {"product": 1, "qty": 1}); state.reset()   # cart empty again

Table and column names come from the spec (and so, indirectly, from traces): they are
always quoted as identifiers; values are always bound parameters, never SQL text.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from phoneworld.spec.ast import AppSpec, ColumnType, Table, Value

Row = dict[str, Value]

_SQL_TYPES: dict[str, str] = {"text": "TEXT", "int": "INTEGER", "real": "REAL", "bool": "INTEGER"}
_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1
_TRUE = frozenset({"true", "1", "yes", "on"})
_VERSIONS = itertools.count(1)
"""Version numbers, unique in the process: one names one content, whichever `State` has it."""
_CHAIN_LIMIT = 4096
"""(version, write) -> version pairs kept per spec (forgetting them only costs reuse)."""
_READS_LIMIT = 4096
"""Versions whose reads are kept per spec (forgetting them only costs SQL)."""


class Versions:
    """The versions of one spec's data, shared by all its `State`s: `app` names the spec
    (for keys that must not meet another spec's), `initial` its initial data, and `chain`
    maps (version, write) to the version it led to."""

    __slots__ = ("app", "initial", "chain", "reads", "dumps")

    def __init__(self) -> None:
        self.app = next(_VERSIONS)
        self.initial = next(_VERSIONS)
        self.chain: dict[tuple[int, tuple], int] = {}
        self.reads: dict[int, _Reads] = {}
        """version -> what `State`s read at it (the same content: the same reads)."""
        self.dumps: dict[int, dict[str, list[tuple[Value, ...]]]] = {}
        """version -> `State.dump` at it (a demo's check of what else it changed dumps
        the data it ends in, twice per demo and often the same data)."""

    def reads_at(self, version: int) -> _Reads:
        """The reads kept at `version` (empty ones the first time)."""
        got = self.reads.get(version)
        if got is None:
            if len(self.reads) >= _READS_LIMIT:
                self.reads.clear()
            got = self.reads[version] = _Reads()
        return got


class _Reads:
    """What was read at one version: rows (with rowids) and key indexes by table, and
    the flags once read. Shared and never changed but by adding what is read; a write
    moves to another version's."""

    __slots__ = ("rows", "keys", "flags")

    def __init__(self, rows: dict | None = None, keys: dict | None = None,
                 flags: dict | None = None) -> None:
        self.rows: dict[str, tuple[list[int], list[Row]]] = rows or {}
        self.keys: dict[str, dict[Value, Row]] = keys or {}
        self.flags: dict[str, Value] | None = flags


@lru_cache(maxsize=64)
def versions(spec: AppSpec) -> Versions:
    """The version registry of `spec` (one per spec, shared like `initial_image`)."""
    return Versions()


def quote(name: str) -> str:
    """Quote `name` as an SQLite identifier: `a"b` -> `"a""b"`."""
    return '"' + name.replace('"', '""') + '"'


def coerce(value: Value, type_: ColumnType) -> Value:
    """Convert a value to a column's type where that is lossless; keep it as given otherwise.

    `coerce("3", "int") == 3`, `coerce("true", "bool") is True`, `coerce(3, "text") == "3"`.
    """
    if value is None:
        return None
    if type_ == "bool":
        if isinstance(value, str):
            return value.strip().lower() in _TRUE
        return bool(value)
    if type_ == "text":
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)
    if isinstance(value, bool):
        return int(value)
    try:
        if type_ == "int":
            if isinstance(value, int):
                return value if _I64_MIN <= value <= _I64_MAX else float(value)
            f = float(value)
            return int(f) if f.is_integer() and _I64_MIN <= f <= _I64_MAX else f
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return value


def _connect() -> sqlite3.Connection:
    # Autocommit: every effect is its own statement, and (de)serialise never meets an
    # open transaction.
    return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)


@lru_cache(maxsize=64)
def initial_image(spec: AppSpec) -> bytes:
    """The serialised initial database of `spec` (built once per spec, then shared)."""
    conn = _connect()
    try:
        for table in spec.tables:
            cols = ", ".join(f"{quote(c.name)} {_SQL_TYPES[c.type]}" for c in table.columns)
            conn.execute(f"CREATE TABLE {quote(table.name)} ({cols})")
            if table.rows:
                marks = ", ".join("?" * len(table.columns))
                types = [c.type for c in table.columns]
                conn.executemany(
                    f"INSERT INTO {quote(table.name)} VALUES ({marks})",
                    ([coerce(v, t) for v, t in zip(row, types, strict=True)] for row in table.rows),
                )
        conn.execute("CREATE TABLE flags (name TEXT PRIMARY KEY, value)")
        conn.executemany("INSERT INTO flags VALUES (?, ?)",
                         ((f.name, _stored(coerce(f.initial, f.type))) for f in spec.flags))
        return conn.serialize()
    finally:
        conn.close()


def _stored(value: Value) -> Value:
    """The form SQLite keeps: bools as 0/1, integers beyond 64 bits as reals."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int) and not _I64_MIN <= value <= _I64_MAX:
        return float(value)
    return value


@lru_cache(maxsize=64)
def _layout(spec: AppSpec) -> tuple[dict, dict, dict, dict, dict]:
    """What every `State` of `spec` reads of its tables and flags (shared, not changed):
    tables and flag types by name, column types, bool columns, and the largest integer
    key of each table's initial rows (a row inserted later never takes the key of one
    deleted from them: what the spec says of that row, such as its recorded size in a
    list, is not the new row's)."""
    return ({t.name: t for t in spec.tables}, {f.name: f.type for f in spec.flags},
            {t.name: {c.name: c.type for c in t.columns} for t in spec.tables},
            {t.name: [i for i, c in enumerate(t.columns) if c.type == "bool"]
             for t in spec.tables},
            {t.name: max((r[0] for r in t.rows if type(r[0]) is int), default=0)
             for t in spec.tables})


class State:
    """The mutable data of one machine: a private in-memory SQLite database plus read caches."""

    def __init__(self, spec: AppSpec) -> None:
        tables, flag_types, self._types, self._bools, self._seeded = _layout(spec)
        self.tables: dict[str, Table] = tables
        self.flag_types: dict[str, ColumnType] = flag_types
        self._image = initial_image(spec)
        self._conn: sqlite3.Connection | None = None
        """Opened when SQL is first needed (a machine that only reads data read before at
        its versions never opens one)."""
        self._held: bytes | None = None
        """The image the database equals (None once written to since it was loaded)."""
        self._unloaded = False
        """Whether `_held` is still to be put into SQLite (`load` defers it)."""
        self.versions = versions(spec)
        self._initial_version = self.versions.initial
        self.version = self._initial_version
        """The content's number (see the module docstring)."""
        self._reads = _Reads()
        self.reset()

    @property
    def conn(self) -> sqlite3.Connection:
        """The SQLite connection, holding the current data (for SQL queries)."""
        if self._conn is None:
            self._conn = _connect()
        if self._unloaded:
            self._conn.deserialize(self._held)  # type: ignore[arg-type]
            self._unloaded = False
        return self._conn

    # -- whole-database operations ------------------------------------------------------

    def reset(self) -> None:
        """Restore the initial data exactly."""
        self.load(self._image)

    def image(self) -> bytes:
        """The database as bytes (for snapshots)."""
        if self._held is None:
            self._held = self.conn.serialize()
        return self._held

    def load(self, image: bytes, version: int | None = None) -> None:
        """Replace the database by `image` (from `image()` or the initial one); `version`
        is the `version` the image was taken at, where known. Data at a known version is
        put into SQLite only when SQL needs it, and not at all where it is already."""
        if version is None and image is self._image:
            version = self._initial_version
        if version is None:
            self.version = next(_VERSIONS)
            self._unloaded = False
            if self._conn is None:
                self._conn = _connect()
            self._conn.deserialize(image)
        elif version != self.version or self._held is None:
            self.version = version
            self._unloaded = True
        self._held = image
        self._reads = self.versions.reads_at(self.version)
        if self._reads.flags is None:
            self._reads.flags = self._read_flags()

    def _read_flags(self) -> dict[str, Value]:
        types = self.flag_types
        return {name: (bool(v) if types.get(name) == "bool" and v is not None else v)
                for name, v in self.conn.execute("SELECT name, value FROM flags")}

    def dump(self) -> dict[str, list[tuple[Value, ...]]]:
        """Every table's rows in storage order, flags included (for tests and diffs)."""
        dumps = self.versions.dumps
        got = dumps.get(self.version)
        if got is None:
            if len(dumps) >= _READS_LIMIT:
                dumps.clear()
            names = [*self.tables, "flags"]
            got = dumps[self.version] = {
                n: self.conn.execute(f"SELECT * FROM {quote(n)} ORDER BY rowid").fetchall()
                for n in names}
        return {n: list(rows) for n, rows in got.items()}

    def sql(self) -> str:
        """The database as SQL statements, the same text for the same data."""
        return "\n".join(self.conn.iterdump())

    # -- reads ----------------------------------------------------------------------------

    def flag(self, name: str) -> Value:
        return self._reads.flags[name]  # type: ignore[index]

    @property
    def flags(self) -> Mapping[str, Value]:
        return self._reads.flags  # type: ignore[return-value]

    def rows(self, table: str) -> list[Row]:
        """The rows of `table` in insertion order, as column -> value dicts (do not mutate)."""
        return self._load(table)[1]

    def rowids(self, table: str) -> list[int]:
        """SQLite rowids parallel to `rows(table)`."""
        return self._load(table)[0]

    def by_key(self, table: str, key: Value) -> Row | None:
        """The first row of `table` whose key (first column) equals `key`."""
        index = self._reads.keys.get(table)
        if index is None:
            first = self.tables[table].columns[0].name
            index = {}
            for row in self.rows(table):
                index.setdefault(row[first], row)
            self._reads.keys[table] = index
        return index.get(key)

    def _load(self, table: str) -> tuple[list[int], list[Row]]:
        cached = self._reads.rows.get(table)
        if cached is None:
            cols = [c.name for c in self.tables[table].columns]
            bools = self._bools[table]
            ids: list[int] = []
            rows: list[Row] = []
            for rowid, *values in self.conn.execute(
                    f"SELECT _rowid_, * FROM {quote(table)} ORDER BY _rowid_"):
                for i in bools:
                    if values[i] is not None:
                        values[i] = bool(values[i])
                ids.append(rowid)
                rows.append(dict(zip(cols, values, strict=True)))
            cached = self._reads.rows[table] = (ids, rows)
        return cached

    # -- writes ---------------------------------------------------------------------------

    def set_flag(self, name: str, value: Value) -> None:
        value = coerce(value, self.flag_types[name])
        stored = _stored(value)
        self.conn.execute("UPDATE flags SET value = ? WHERE name = ?", (stored, name))
        was = self._reads
        self._advance(("flag", name, _typed((stored,))),
                      lambda: _Reads(dict(was.rows), dict(was.keys),
                                     {**(was.flags or {}), name: value}))

    def insert(self, table: str, values: Mapping[str, Value]) -> None:
        """Insert one row; an omitted integer key gets the next number above every key
        it holds and every key of its initial rows (a deleted initial row's key is not
        reused)."""
        types = self._types[table]
        row = {c: coerce(v, types[c]) for c, v in values.items()}
        key = self.tables[table].columns[0]
        if key.name not in row and key.type == "int":
            keys = [r[key.name] for r in self.rows(table) if isinstance(r[key.name], int)]
            row[key.name] = max([*keys, self._seeded[table]]) + 1
        cols = ", ".join(quote(c) for c in row)
        marks = ", ".join("?" * len(row))
        stored = [_stored(v) for v in row.values()]
        self.conn.execute(f"INSERT INTO {quote(table)} ({cols}) VALUES ({marks})", stored)
        self._dirty(table, ("insert", table, tuple(row), _typed(stored)))

    def update(self, table: str, rowid: int, values: Mapping[str, Value]) -> None:
        if not values:
            return
        types = self._types[table]
        sets = ", ".join(f"{quote(c)} = ?" for c in values)
        params = [_stored(coerce(v, types[c])) for c, v in values.items()]
        self.conn.execute(f"UPDATE {quote(table)} SET {sets} WHERE _rowid_ = ?", [*params, rowid])
        self._dirty(table, ("update", table, rowid, tuple(values), _typed(params)))

    def delete(self, table: str, rowids: Iterable[int]) -> None:
        ids = [(i,) for i in rowids]
        if ids:
            self.conn.executemany(f"DELETE FROM {quote(table)} WHERE _rowid_ = ?", ids)
            self._dirty(table, ("delete", table, tuple(ids)))

    def clear(self, table: str) -> None:
        self.conn.execute(f"DELETE FROM {quote(table)}")
        self._dirty(table, ("clear", table))

    def _dirty(self, table: str, write: tuple) -> None:
        was = self._reads
        self._advance(write, lambda: _Reads(
            {t: v for t, v in was.rows.items() if t != table},
            {t: v for t, v in was.keys.items() if t != table}, was.flags))

    def _advance(self, write: tuple, after: Callable[[], _Reads]) -> None:
        """Move `version` past `write`: to the version it led to before, else a new one.
        `after` gives what is still known of the data after the write (the reads of the
        tables it left alone), where the new version has none kept."""
        self._held = None
        key = (self.version, write)
        chain = self.versions.chain
        try:
            version = chain.get(key)
        except TypeError:  # an unhashable stored value: a content never met again
            self.version = next(_VERSIONS)
            self._reads = after()
            return
        if version is None:
            # Threads may race here: each then gets a number of its own, which is still
            # the name of one content (just not shared).
            if len(chain) >= _CHAIN_LIMIT:
                chain.clear()
            version = chain[key] = next(_VERSIONS)
        self.version = version
        kept = self.versions.reads.get(version)
        if kept is None or kept.flags is None:
            kept = self.versions.reads_at(version)
            fresh = after()
            kept.rows.update(fresh.rows)
            kept.keys.update(fresh.keys)
            kept.flags = fresh.flags
        self._reads = kept


def _typed(values: Iterable[Value]) -> tuple[tuple[type, Value], ...]:
    # With their types: 1, 1.0 and True are equal keys but not the same stored value.
    return tuple((type(v), v) for v in values)
