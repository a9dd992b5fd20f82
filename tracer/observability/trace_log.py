"""The structured trace log: one JSON record per line, in the format the real `tlparse` reads.

Off unless `MODETRACE_TRACE=<dir>` is set (read at first use) or `enable(dir)` is called; while off,
every call returns at once, doing nothing, so call sites need no guard of their own. Records carry
the current compile id; the time spent writing them is summed per compile for the metrics.
The line grammar, envelope and string table are described in TLPARSE_FORMAT.md (shared notes).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

from tracer.observability.compile_context import CompileId, current_compile_id

ENV_VAR = "MODETRACE_TRACE"
_ROOT = Path(__file__).resolve().parent.parent
_RESERVED = frozenset(
    {"rank", "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt", "severity"}
    | {"timestamp", "pathname", "thread", "subgraph_name", "has_payload", "stack"}
)
_ENCODINGS = ("string", "json")

Metadata = dict[str, Any] | Callable[[], dict[str, Any]] | None
Payload = str | list[Any] | dict[str, Any] | Callable[[], str | list[Any] | dict[str, Any] | None]


class FrameLike(Protocol):
    """What `user_stack_to_json` reads: the shape of `traceback.FrameSummary`."""

    @property
    def filename(self) -> str: ...
    @property
    def lineno(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def line(self) -> str | None: ...


class _Writer:
    """One open log file plus its string table (interned ids are only meaningful per file)."""

    def __init__(self, path: Path, strings: dict[str, int]) -> None:
        self.path = path
        self.strings = strings
        mode = "a" if strings else "w"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open(mode, encoding="utf-8", buffering=1)

    def __repr__(self) -> str:
        return f"_Writer({str(self.path)!r}, {len(self.strings)} strings)"


# `_active` is what every call checks first. It starts True meaning "not decided yet": the first
# call reads the environment and settles it; afterwards it is exactly "enabled and not suspended".
_active = True
_decided = False
_directory: Path | None = None
_writer: _Writer | None = None
_tables: dict[Path, dict[str, int]] = {}
_announced: set[Path] = set()
_overhead_ns: dict[str, int] = {}
_lock = threading.RLock()


def _decide() -> bool:
    global _active, _decided, _directory
    with _lock:
        if not _decided:
            _decided = True
            where = os.environ.get(ENV_VAR, "")
            _directory = Path(where) if where else None
            _active = _directory is not None
    return _active


def enable(directory: str | os.PathLike[str]) -> str:
    """Write the log under `directory` from now on; returns the log file's path."""
    global _active, _decided, _directory
    with _lock:
        new = Path(directory)
        if new != _directory:
            _close()
        _directory, _decided, _active = new, True, True
        path = log_path()
        assert path is not None
        return path


def disable() -> None:
    """Stop logging and close the file (the environment is not read again)."""
    global _active, _decided, _directory
    with _lock:
        _close()
        _directory, _decided, _active = None, True, False


@contextmanager
def tracing_to(directory: str | os.PathLike[str]) -> Iterator[str]:
    """`enable(directory)` for the body, then back to the previous state (tests, one-off runs)."""
    global _active, _decided, _directory
    with _lock:
        saved = _active, _decided, _directory
    path = enable(directory)
    try:
        yield path
    finally:
        with _lock:
            _close()
            _active, _decided, _directory = saved


def _close() -> None:
    global _writer
    if _writer is not None:
        _writer.file.close()
        _writer = None


def is_enabled() -> bool:
    return _active and _decide()


def log_path() -> str | None:
    """The file this process logs to (`<dir>/dedicated_log_modetrace_<pid>.log`), or None if off."""
    if not is_enabled() or _directory is None:
        return None
    return str(_directory / f"dedicated_log_modetrace_{os.getpid()}.log")


@contextmanager
def suspended() -> Iterator[None]:
    """Make every call a no-op for the body (used by `metrics.disabled()` for benchmarks)."""
    global _active
    with _lock:
        saved = _active
        _active = False
    try:
        yield
    finally:
        with _lock:
            _active = saved


def announce() -> None:
    """Say on stderr where the log goes, once per file, now: a program that prints (the demo)
    calls it before its own output, so the line is not printed in the middle of it at the
    first record, where it is said otherwise."""
    path = log_path()
    with _lock:
        if path is not None and Path(path) not in _announced:
            _announced.add(Path(path))
            print(f"modetrace: structured trace log at {path}", file=sys.stderr, flush=True)


def _open_writer() -> _Writer | None:
    """The log file's writer, opened at first need; None when it can't be (its directory is a
    file, say, or not writable): then the log is off for the rest of the process, said once
    in one line, and the compiled code runs on without it."""
    global _writer
    path = Path(log_path() or "")
    if _writer is None or _writer.path != path:
        _close()
        try:
            _writer = _Writer(path, _tables.setdefault(path, {}))
        except OSError as e:
            disable()
            warnings.warn(
                f"modetrace: no structured trace log: cannot write {path} ({e.strerror})",
                stacklevel=2,
            )
            return None
        announce()
    return _writer


def structured_logging_overhead_us(compile_id: CompileId | None = None) -> int:
    """µs spent writing this compile's records (all attempts); the current compile by default."""
    cid = compile_id if compile_id is not None else current_compile_id()
    return 0 if cid is None else _overhead_ns.get(cid.key, 0) // 1000


def reset_overhead(compile_id: CompileId) -> None:
    """Start this compile's overhead at zero (compile ids restart after `tracer.reset()`)."""
    _overhead_ns.pop(compile_id.key, None)


def intern_string(text: str) -> int:
    """The string-table index of `text`, writing its `{"str": [text, i]}` line on first use."""
    with _lock:
        if not is_enabled():
            return -1
        writer = _open_writer()
        if writer is None:
            return -1
        index = writer.strings.get(text)
        if index is None:
            index = writer.strings[text] = len(writer.strings)
            writer.file.write(_prefix(sys._getframe(1)) + json.dumps({"str": [text, index]}) + "\n")
        return index


def user_stack_to_json(frames: Iterable[FrameLike]) -> list[dict[str, Any]]:
    """Frames (oldest first) as tlparse stack entries with interned filenames."""
    return [
        {"line": f.lineno or 0, "name": f.name, "filename": intern_string(f.filename)}
        | ({"loc": f.line} if f.line else {})
        for f in frames
    ]


def trace_structured(
    name: str,
    metadata: Metadata = None,
    payload: Payload | None = None,
    *,
    expect_trace_id: bool = True,
    record_overhead: bool = True,
) -> None:
    """Write one `{name: metadata, frame_id, ...}` record, with `payload` on TAB lines after it.

    Callables are evaluated only when logging is on, so expensive metadata costs nothing when off.
    Without a current compile id and with `expect_trace_id`, the caller's stack is attached instead.
    """
    if not _active:
        return
    _emit(name, metadata, payload, expect_trace_id, record_overhead, sys._getframe(1))


def trace_artifact(name: str, encoding: str, payload: Payload) -> None:
    """An `artifact` record; tlparse saves it as `<name>_N.txt` ("string") or `.json` ("json")."""
    if not _active:
        return
    if encoding not in _ENCODINGS:
        raise ValueError(f"artifact encoding must be one of {_ENCODINGS}, got {encoding!r}")
    metadata = {"name": name, "encoding": encoding}
    _emit("artifact", metadata, payload, True, True, sys._getframe(1))


def _emit(
    name: str,
    metadata: Metadata,
    payload: Payload | None,
    expect_trace_id: bool,
    record_overhead: bool,
    caller: FrameType,
) -> None:
    if not _decide():
        return
    if name in _RESERVED:
        raise ValueError(f"{name!r} is a reserved envelope key, not an event name")
    started = time.perf_counter_ns()
    cid = current_compile_id()
    with _lock:
        record: dict[str, Any] = {name: (metadata() if callable(metadata) else metadata) or {}}
        if cid is not None:
            record |= {
                "frame_id": cid.frame_id,
                "frame_compile_id": cid.frame_compile_id,
                "attempt": cid.attempt,
            }
        elif expect_trace_id:
            record["stack"] = user_stack_to_json(traceback.extract_stack(caller))
        text = _payload_text(payload() if callable(payload) else payload)
        if text is not None:
            record["has_payload"] = hashlib.md5(text.encode("utf-8")).hexdigest()
        line = _prefix(caller) + json.dumps(record, default=_jsonable)
        if text is not None:
            line += "".join(f"\n\t{part}" for part in text.split("\n"))
        writer = _open_writer()
        if writer is not None:
            writer.file.write(line + "\n")

        if cid is not None and record_overhead:
            elapsed = time.perf_counter_ns() - started
            _overhead_ns[cid.key] = _overhead_ns.get(cid.key, 0) + elapsed


def _payload_text(payload: str | list[Any] | dict[str, Any] | None) -> str | None:
    if payload is None or isinstance(payload, str):
        return payload
    if isinstance(payload, list):
        return "[\n" + ",\n".join(json.dumps(item, default=_jsonable) for item in payload) + "\n]"
    return json.dumps(payload, indent=0, default=_jsonable)


def _jsonable(value: object) -> object:
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    return str(value)


def _prefix(caller: FrameType) -> str:
    """`V1202 15:20:07.889123 4242 tracer/convert_frame.py:120] `: glog shape, 6-digit fraction."""
    now = time.time_ns()
    seconds, nanos = divmod(now, 1_000_000_000)
    stamp = time.strftime("%m%d %H:%M:%S", time.localtime(seconds))
    shown = _shown_path(caller.f_code.co_filename)
    return f"V{stamp}.{nanos // 1000:06d} {os.getpid()} {shown}:{caller.f_lineno}] "


@functools.lru_cache(maxsize=256)
def _shown_path(filename: str) -> str:
    """Repo-relative like torch's module-relative paths; tlparse's pathname may not contain ':'."""
    try:
        shown = str(Path(filename).relative_to(_ROOT))
    except ValueError:
        shown = filename
    return shown.replace(":", "_")
