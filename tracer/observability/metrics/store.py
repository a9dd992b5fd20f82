"""The metrics store: every compile as rows of a SQLite database that outlives the process.

`MODETRACE_METRICS_DB=path` (read when tracer is imported) or `tracer.metrics_store(path)`
writes three tables, the ones PyTorch's fleet tooling queries:

- `dynamo_compile`: one row per CompilationMetrics record, one column per field (generated from
  the dataclass, so a new field gets a column; lists and dicts are JSON text), plus `run_id`,
  `seq` (the record's number in its run) and `pid`. `(run_id, seq)` is the key.
- `pt2_compile_events`: one row per timed phase of a compile (`entire_frame_compile`,
  `bytecode_tracing`, `build_guards`, ...): compile id, phase, start and duration in µs, thread,
  metadata. A view: the rows are in `compile_phases`, which names its compile by `run_id` and
  `seq` only; the view takes the compile id from the compile's `dynamo_compile` row.
- `recompile_reasons`: one row per cache entry whose guard failed, for each recompile: the
  entry, guard kind, source, expected, actual and the user line that installed the guard.

Writing is batched (NOTE [store batches]); every write is one transaction, so a reader or a
killed writer never sees half a compile. Several processes may write one file: WAL mode, a busy
timeout and a retry. A store that cannot write (read-only path, a directory, a full disk) warns
once per process and drops its rows; compiles are never affected.

The schema is versioned with `PRAGMA user_version` (NOTE [schema versions]).
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import itertools
import json
import os
import sqlite3
import threading
import time
import typing
import uuid
import warnings
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from tracer.observability.events import Span, get_chromium_event_logger
from tracer.observability.metrics import compilation
from tracer.observability.metrics.compilation import CompilationMetrics, Layout

ENV_VAR = "MODETRACE_METRICS_DB"
FORMAT = "modetrace metrics"
"""The `format` row of `modetrace_meta`: what tells a metrics database from any other."""
SCHEMA_VERSION = 3
DEFAULT_BATCH = 32
"""Compiles per transaction (NOTE [store batches]); `make bench`'s store line uses the same."""
DEFAULT_INTERVAL_S = 2.0
BUSY_TIMEOUT_S = 10.0
RETRIES = 3

_events = get_chromium_event_logger()


class StoreError(Exception):
    """A database the store cannot use, said in one line (no such file, not a metrics
    database, a newer schema)."""


# -- the schema ----------------------------------------------------------------------------------
def _base_type(annotation: Any) -> Any:
    """`int` for `int | None`, `list` for `list[str] | None`."""
    kinds = [a for a in typing.get_args(annotation) if a is not type(None)] or [annotation]
    return typing.get_origin(kinds[0]) or kinds[0]


_SQL_TYPES = {int: "INTEGER", bool: "INTEGER", float: "REAL", str: "TEXT"}
"""Anything else is JSON text."""
_HINTS = typing.get_type_hints(CompilationMetrics)
_BASES = {f.name: _base_type(_HINTS[f.name]) for f in dataclasses.fields(CompilationMetrics)}
COLUMNS: dict[str, str] = {name: _SQL_TYPES.get(base, "TEXT") for name, base in _BASES.items()}
"""Every CompilationMetrics field and its column's type (lists and dicts: JSON in TEXT)."""
JSON_COLUMNS = frozenset(name for name, base in _BASES.items() if base not in _SQL_TYPES)
BOOL_COLUMNS = frozenset(name for name, base in _BASES.items() if base is bool)

EVENT_COLUMNS = (
    *("run_id", "seq", "compile_id", "phase", "start_us", "duration_us", "thread", "metadata"),
)
"""The columns of the `pt2_compile_events` view."""
PHASE_COLUMNS = tuple(name for name in EVENT_COLUMNS if name != "compile_id")
"""The columns of `compile_phases`, the table behind `pt2_compile_events` (version 3)."""
REASON_COLUMNS = (
    *("run_id", "seq", "compile_id", "cache_entry", "guard_kind", "source", "expected"),
    *("actual", "user_location"),
)


def _create_v1(con: sqlite3.Connection) -> None:
    """Version 1: the meta table and the three tables."""
    columns = ", ".join(f'"{name}" {kind}' for name, kind in COLUMNS.items())
    con.execute("CREATE TABLE modetrace_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO modetrace_meta VALUES ('format', ?)", (FORMAT,))
    con.execute(
        "CREATE TABLE dynamo_compile (run_id TEXT NOT NULL, seq INTEGER NOT NULL, "
        f"pid INTEGER NOT NULL, {columns}, PRIMARY KEY (run_id, seq))"
    )
    con.execute(
        "CREATE TABLE pt2_compile_events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, "
        "compile_id TEXT, phase TEXT NOT NULL, start_us INTEGER NOT NULL, "
        "duration_us INTEGER NOT NULL, thread INTEGER, metadata TEXT)"
    )
    con.execute(
        "CREATE TABLE recompile_reasons (run_id TEXT NOT NULL, seq INTEGER NOT NULL, "
        "compile_id TEXT, cache_entry TEXT, guard_kind TEXT, source TEXT, expected TEXT, "
        "actual TEXT, user_location TEXT)"
    )


def _add_v2_indexes(con: sqlite3.Connection) -> None:
    """Version 2: the index the recompiles report groups by (guard kind and source). The phase
    rows get none: every compile writes several of them, and an index would make each write
    maintain it (its measured cost is in benchmarks/README.md, the metrics store section)."""
    con.execute("CREATE INDEX recompile_reasons_by_guard ON recompile_reasons (guard_kind, source)")


def _phases_as_view_v3(con: sqlite3.Connection) -> None:
    """Version 3: the phase rows move to `compile_phases`, without the compile id their
    compile's `dynamo_compile` row has (a phase row bound it as a text, which cost as much as
    binding four integers); `pt2_compile_events` becomes the view that joins it back, with the
    same columns as before (benchmarks/README.md, branch store6)."""
    own = ", ".join(PHASE_COLUMNS)
    con.execute(
        "CREATE TABLE compile_phases (run_id TEXT NOT NULL, seq INTEGER NOT NULL, "
        "phase TEXT NOT NULL, start_us INTEGER NOT NULL, duration_us INTEGER NOT NULL, "
        "thread INTEGER, metadata TEXT)"
    )
    con.execute(
        f"INSERT INTO compile_phases ({own}) SELECT {own} FROM pt2_compile_events ORDER BY rowid"
    )
    con.execute("DROP TABLE pt2_compile_events")
    shown = ", ".join(
        "c.compile_id" if name == "compile_id" else f"p.{name}" for name in EVENT_COLUMNS
    )
    con.execute(
        f"CREATE VIEW pt2_compile_events AS SELECT {shown} FROM compile_phases p "
        "LEFT JOIN dynamo_compile c ON c.run_id = p.run_id AND c.seq = p.seq"
    )


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    *(_create_v1, _add_v2_indexes, _phases_as_view_v3),
)
"""`MIGRATIONS[v]` takes a database from schema version v to v + 1."""
assert len(MIGRATIONS) == SCHEMA_VERSION

# NOTE [schema versions]: `PRAGMA user_version` is the schema version; 0 means no schema yet.
# Opening a file runs the steps from its version up to SCHEMA_VERSION in one transaction that
# holds the write lock (so two processes opening a new file at once create it once). Columns
# of `dynamo_compile` follow CompilationMetrics without a version step: a field added since the
# file was written gets its column on open (older rows read NULL there). Refused, without
# writing anything: a file that is not SQLite, a version-0 file that already has tables (some
# other database, or a layout from before versions), a file whose `modetrace_meta` does not say
# FORMAT, and a version newer than this modetrace knows.


def open_database(path: str | os.PathLike[str], *, create: bool = False) -> sqlite3.Connection:
    """A connection to the metrics database at `path`, migrated to SCHEMA_VERSION.

    Raises StoreError (one line) for a missing file (unless `create`), a file that is not a
    metrics database or one with a newer schema; sqlite3.Error / OSError when the file cannot
    be opened or written at all.
    """
    text = os.fspath(path)
    if not create and not Path(text).is_file():
        what = "is a directory" if Path(text).is_dir() else "no such file"
        raise StoreError(f"{text}: {what}")
    con = sqlite3.connect(
        text, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    try:
        try:
            version = con.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{text}: not a modetrace metrics database ({e})") from None
        if version != SCHEMA_VERSION or _missing_columns(con):
            _migrate(con, text)
        else:
            _check_format(con, text, _tables(con))
        if create:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        con.close()
        raise
    return con


def _tables(con: sqlite3.Connection) -> set[str]:
    rows = con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


def _check_format(con: sqlite3.Connection, path: str, tables: set[str]) -> None:
    marker = None
    if "modetrace_meta" in tables:
        row = con.execute("SELECT value FROM modetrace_meta WHERE key = 'format'").fetchone()
        marker = row and row[0]
    if marker != FORMAT:
        raise StoreError(f"{path}: not a modetrace metrics database (no modetrace_meta format row)")


def _missing_columns(con: sqlite3.Connection) -> list[str]:
    have = {row[1] for row in con.execute("PRAGMA table_info(dynamo_compile)")}
    return [name for name in COLUMNS if name not in have] if have else []


def _migrate(con: sqlite3.Connection, path: str) -> None:
    """Bring the file to SCHEMA_VERSION under the write lock (NOTE [schema versions])."""
    con.execute("BEGIN IMMEDIATE")
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        tables = _tables(con)
        if version == 0 and tables:
            shown = ", ".join(sorted(tables)[:4])
            raise StoreError(
                f"{path}: not a modetrace metrics database (schema version 0 with tables {shown})"
            )
        if version > 0:
            _check_format(con, path, tables)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{path}: metrics schema version {version} is newer than this modetrace reads "
                f"({SCHEMA_VERSION}); use a newer modetrace or another file"
            )
        for step in MIGRATIONS[version:]:
            step(con)
        for name in _missing_columns(con):
            con.execute(f'ALTER TABLE dynamo_compile ADD COLUMN "{name}" {COLUMNS[name]}')
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


# -- writing -------------------------------------------------------------------------------------
class Captured(Protocol):
    """What the store receives for each compile: the record's field names (a layout shared by
    the records that set the same fields) and values, built on read."""

    def fields(self) -> tuple[Layout, tuple[Any, ...]]: ...


_Pending = tuple[int, Captured, list[Span]]
_Rows = list[tuple[str, tuple[str, ...], list[Any]]]
"""Rows to insert, grouped by table and columns: the table, the columns, and the rows' values
one row after the other in one list, without the run id and pid (`_insert`)."""


MAX_BINDS = 999
"""The most values one statement binds: SQLite's limit before version 3.32 (32766 since)."""


@functools.lru_cache(maxsize=64)
def _insert(table: str, columns: tuple[str, ...], rows: int) -> str:
    """The INSERT of `rows` rows of `columns` into `table`, in one statement. Its parameters
    are plain `?`, bound from a sequence in order: first the run id and the pid where `columns`
    has them, once for every row of the statement (NOTE [store batches]), then each row's values
    of the other columns. The rows are a VALUES list the INSERT selects from, so the shared
    values are selected once, and a phase row's `start_us` and `duration_us` are computed there
    from its start and end in ns."""
    shared = [name for name in _SHARED if name in columns]
    own = [name for name in columns if name not in shared]
    phases = table == "compile_phases"
    selected = ["?" for _ in shared]
    for k, name in enumerate(own, 1):  # VALUES names its columns column1, column2, ...
        if phases and name == "start_us":
            selected.append(f"column{k} / 1000")
        elif phases and name == "duration_us":  # its value is the end, after the start
            selected.append(f"(column{k} - column{k - 1}) / 1000")
        else:
            selected.append(f"column{k}")
    row = f"({', '.join('?' for _ in own)})"
    names = ", ".join(f'"{name}"' for name in (*shared, *own))
    return (
        f"INSERT INTO {table} ({names}) SELECT {', '.join(selected)} "
        f"FROM (VALUES {', '.join(itertools.repeat(row, rows))})"
    )


def _insert_rows(
    con: sqlite3.Connection,
    table: str,
    columns: tuple[str, ...],
    shared: tuple[str, int],
    values: list[Any],
) -> None:
    """Insert rows of `columns`, their `values` one row after the other, with statements of
    as many rows as MAX_BINDS allows (a statement run once per row pays sqlite3's work per
    statement for every row); `shared` is the run id and pid. The values are bound from a
    list, by position: binding by name would look each parameter's name up (sqlite3 searches
    the statement's names, so the cost grows with the statement's size)."""
    used = [value for name, value in zip(_SHARED, shared, strict=True) if name in columns]
    width = len(columns) - len(used)
    per_statement = max(1, (MAX_BINDS - len(used)) // width)
    step = per_statement * width
    for start in range(0, len(values), step):
        part = values[start : start + step]
        con.execute(_insert(table, columns, len(part) // width), [*used, *part])


_SHARED = ("run_id", "pid")
"""The columns every row of a statement shares the value of (`_insert_rows`'s `shared`)."""


_COMPILE_KEY = ("run_id", "seq", "pid")
_PLAIN_PHASE_COLUMNS = PHASE_COLUMNS[:-1]
"""A phase row without metadata (most of them): the column is left out, so it is NULL."""

# NOTE [store batches]: the compile path only queues what the record depends on (the captured
# record, built on read, and the compile's finished phase spans) and numbers it; rows are built
# and written when `batch` compiles are queued, when the oldest queued one is `interval_s` old
# (checked when the next compile queues), on `flush()`/`close()`, and at exit. One transaction
# per batch keeps a compile's cost a few percent of a small first call (`make bench` measures
# it); what a SIGKILL can lose is the queue, never a half-written compile. A forked child
# starts a run of its own and drops the parent's queue (the parent writes it). A row names the
# columns its compile has: a `dynamo_compile` row the fields in the record's values, a phase
# row its metadata only when the span has some; the columns a row leaves out are NULL. The
# batch's rows of one table and one set of columns go in one multi-row INSERT (split where it
# would bind more than MAX_BINDS values): usually one statement for the records, two for the
# phases. Its values are one flat list bound by position to plain `?` placeholders (binding by
# name costs several times as much a value, `_insert_rows`). The run id and pid every row has
# are bound once per statement (the INSERT selects them next to each row of its VALUES list),
# and a phase row binds its span's start and end in ns, from which SQLite computes `start_us`
# and `duration_us`: each value sqlite3 binds costs about as much as a line of Python.


class MetricsStore:
    """Queues each compile's rows and writes them in batches to the database at `path`.

    Also a context manager: `with tracer.metrics_store(path): ...` stores the compiles of the
    block and then stops storing (and writes what is queued).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        batch: int = DEFAULT_BATCH,
        interval_s: float = DEFAULT_INTERVAL_S,
    ) -> None:
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        self.path = os.fspath(path)
        self.batch = batch
        self.interval_s = interval_s
        self.written = 0
        """Compiles written so far by this store."""
        self.dropped = 0
        """Compiles that could not be written (the warning said why)."""
        self._lock = threading.Lock()
        self._pending: list[_Pending] = []
        self._oldest = 0.0
        self._con: sqlite3.Connection | None = None
        self._json_cells = _JsonCells()
        self._new_run()

    def __repr__(self) -> str:
        return f"MetricsStore({self.path!r}, run {self.run_id}, {len(self._pending)} queued)"

    def _new_run(self) -> None:
        self.run_id = uuid.uuid4().hex[:16]
        """Names this process's rows (with `seq`, the key of a compile)."""
        self.pid = os.getpid()
        self._seq = 0

    def add(self, captured: Captured) -> None:
        """Queue one finished compile (called where its record is completed)."""
        spans = _events.finished_compile_spans()
        with self._lock:
            now = time.monotonic()
            if not self._pending:
                self._oldest = now
            self._pending.append((self._seq, captured, spans))
            self._seq += 1
            if len(self._pending) >= self.batch or now - self._oldest >= self.interval_s:
                self._flush_locked()

    def flush(self) -> int:
        """Write everything queued now; returns how many compiles were written."""
        with self._lock:
            return self._flush_locked()

    def close(self) -> None:
        """Write what is queued and close the connection (the store can still be reused)."""
        with self._lock:
            self._flush_locked()
            if self._con is not None:
                self._con.close()
                self._con = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        uninstall(self)

    def _after_fork(self) -> None:
        self._lock = threading.Lock()
        self._pending = []
        self._con = None  # the parent's connection: never used in the child
        self._new_run()

    def _flush_locked(self) -> int:
        pending, self._pending = self._pending, []
        if not pending:
            return 0
        try:
            rows = _rows(pending, self._json_cells)
            self._write(rows)
        except (sqlite3.Error, OSError, StoreError) as e:
            self.dropped += len(pending)
            _warn_once(f"modetrace: cannot write compile metrics to {self.path}: {e}")
            return 0
        self.written += len(pending)
        return len(pending)

    def _write(self, rows: _Rows) -> None:
        """One transaction; a busy database is retried (after the busy timeout) RETRIES times."""
        for attempt in range(RETRIES):
            con = self._con
            if con is None:
                con = self._con = open_database(self.path, create=True)
            try:
                con.execute("BEGIN IMMEDIATE")
                shared = (self.run_id, self.pid)
                for table, columns, values in rows:
                    _insert_rows(con, table, columns, shared, values)
                con.execute("COMMIT")
                return
            except sqlite3.OperationalError as e:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                if "locked" not in str(e) and "busy" not in str(e) or attempt == RETRIES - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))


def _rows(pending: Sequence[_Pending], json_cells: _JsonCells) -> _Rows:
    """The three tables' rows for queued compiles: a `dynamo_compile` row per compile (those
    that set the same fields together), its phases in `compile_phases` (those with and
    without metadata apart) and its `recompile_reasons`."""
    compiles: dict[Layout, tuple[_Shape, list[Any]]] = {}
    phases: list[Any] = []
    described: list[Any] = []
    reasons: list[Any] = []
    for seq, captured, spans in pending:
        layout, values = captured.fields()
        group = compiles.get(layout)
        if group is None:
            group = compiles[layout] = (_shape(layout.names), [])
        (converted, at_cid, at_failures), cells = group
        row = len(cells)
        cells.append(seq)
        cells += values
        for k, name in converted:
            value = cells[row + k]
            if type(value) is bool:
                cells[row + k] = int(value)
            elif value is not None:
                cells[row + k] = json_cells.text(name, value)
        for span in spans:
            name = span.name
            # most phases add nothing after their start: `end_args()` would return `args`
            args = span.end_args() if span.added or span.later else span.args
            if len(args) > 1 or "compile_id" not in args:  # more than the compile's tag
                metadata = args.copy()
                metadata.pop("compile_id", None)  # the compile's row has it
                text = json_cells.text(("metadata", name), metadata)
                described += (seq, name, span.start_ns, span.end_ns, span.tid, text)
            else:
                phases += (seq, name, span.start_ns, span.end_ns, span.tid)
        failures = None if at_failures is None else values[at_failures]
        if failures:  # a recompile
            cid = None if at_cid is None else values[at_cid]
            for failure in failures:
                reasons += (seq, cid, *[failure.get(part) for part in _FAILURE_PARTS])
    rows: _Rows = [
        ("dynamo_compile", (*_COMPILE_KEY, *layout.names), cells)
        for layout, (_, cells) in compiles.items()
    ]
    others: _Rows = [
        ("compile_phases", _PLAIN_PHASE_COLUMNS, phases),
        ("compile_phases", PHASE_COLUMNS, described),
        ("recompile_reasons", REASON_COLUMNS, reasons),
    ]
    return rows + [(table, columns, found) for table, columns, found in others if found]


_FAILURE_PARTS = ("cache_entry", "kind", "source", "expected", "actual", "location")
"""A recompile's guard failure's keys, in the order of REASON_COLUMNS after the compile id."""
_CONVERTED = JSON_COLUMNS | BOOL_COLUMNS
"""The cells a row converts: lists and dicts to JSON text, bools to the ints 0 and 1 that
SQLite stores for them anyway (sqlite3 binds a bool only after a failed search for an adapter
for it, which costs as much as binding ten ints). A None pays the same search; the compile
path leaves a field it has no value for unset rather than setting it to None (a first compile's
recompile fields, tracer/convert_frame.py), so a row leaves its column out."""


_Shape = tuple[tuple[tuple[int, str], ...], int | None, int | None]


@functools.lru_cache(maxsize=64)
def _shape(names: tuple[str, ...]) -> _Shape:
    """For a record of the fields `names`: where its `dynamo_compile` row (`seq` first) has cells
    to convert, and their columns; where its values (without `seq`) hold the compile id and the
    recompile's guard failures (None when it has none)."""
    converted = tuple((k, name) for k, name in enumerate(names, 1) if name in _CONVERTED)
    at = {name: k for k, name in enumerate(names)}
    return converted, at.get("compile_id"), at.get("recompile_guard_failures")


_json = json.JSONEncoder(default=str).encode
"""JSON text of a value (one encoder for every cell: `json.dumps(default=...)` makes one a call)."""


class _JsonCells:
    """JSON text of the list and dict cells of `dynamo_compile` and of the phases' metadata.
    Most of them repeat from one compile to the next (the config, empty lists, the metadata of
    `entire_frame_compile`), and encoding them again was a third of what a compile's rows
    cost: the text of the last value of each column (or each phase's metadata) is kept and
    reused while the next value is the same object (the config snapshot compiles share while
    the config is unchanged) or an equal one (`==`, so a changed config is encoded again)."""

    def __init__(self) -> None:
        self._last: dict[Hashable, tuple[Any, str]] = {}

    def text(self, column: Hashable, value: Any) -> str:
        last = self._last.get(column)
        if last is not None and (
            last[0] is value or (type(last[0]) is type(value) and last[0] == value)
        ):
            return last[1]
        text = _json(value)
        self._last[column] = (value, text)
        return text


_warned = False


def _warn_once(message: str) -> None:
    """One warning per process: compiles go on, the store's rows are dropped."""
    global _warned
    if _warned:
        return
    _warned = True
    warnings.warn(
        f"{message}; compiles go on without storing their metrics (warned once per process)",
        RuntimeWarning,
        stacklevel=2,
    )


# -- the store in use ----------------------------------------------------------------------------
_installed: MetricsStore | None = None
_install_lock = threading.Lock()


def install(store: MetricsStore | None) -> MetricsStore | None:
    """Make `store` the one every compile goes to (None: stop storing); the previous store
    writes what it has queued and closes. Returns `store`."""
    global _installed
    with _install_lock:
        previous, _installed = _installed, store
        compilation.set_record_sink(None if store is None else store.add)
    if previous is not None and previous is not store:
        previous.close()
    return store


def uninstall(store: MetricsStore) -> None:
    """Stop storing into `store` (if it is the one in use) and close it."""
    with _install_lock:
        current = _installed
    if current is store:
        install(None)
    else:
        store.close()


def installed() -> MetricsStore | None:
    return _installed


def metrics_store(
    path: str | os.PathLike[str] | None,
    *,
    batch: int = DEFAULT_BATCH,
    interval_s: float = DEFAULT_INTERVAL_S,
) -> MetricsStore | None:
    """Store every compile from now on in the SQLite database at `path` (created if needed);
    `None` stops storing. Usable as `with tracer.metrics_store(path): ...`."""
    if path is None:
        return install(None)
    return install(MetricsStore(path, batch=batch, interval_s=interval_s))


def install_from_env() -> MetricsStore | None:
    """`MODETRACE_METRICS_DB=path`: store into `path` (read when tracer is imported)."""
    path = os.environ.get(ENV_VAR)
    return metrics_store(path) if path else None


def _close_at_exit() -> None:
    store = _installed
    if store is not None:
        store.close()


def _after_fork_in_child() -> None:
    store = _installed
    if store is not None:
        store._after_fork()


atexit.register(_close_at_exit)
os.register_at_fork(after_in_child=_after_fork_in_child)
