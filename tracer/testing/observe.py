"""The parts of a call's outcome that are not values it leaves in its inputs or globals: what
it printed to stdout, the warnings it emitted, and what the iterators it handed back (or left
in its inputs) still hold. `assert_same_behavior` (behavior.py) records them for each run and
compares them between eager and compiled.

- **stdout**: `sys.stdout` is redirected into a buffer around the call (so the call's output
  never reaches the caller's stdout). Memory addresses (`0x7f...`) are blanked, since two runs
  never share them. A call that replaces `sys.stdout` itself and leaves it replaced is
  recorded too (`Observation.stdout_target`); the redirect puts the caller's back afterwards.
- **warnings**: every warning the call emits is recorded (`simplefilter("always")`, so the
  filters and once-per-location registries of earlier runs do not hide one from a later run):
  category, message and the location the warning names. The location is kept only when it
  names a line inside the call: a `stacklevel` that reaches past the called function names its
  caller, which in a compiled call is `CompiledFunction.__call__`'s frame and in an eager call
  the harness's; no pure-Python wrapper can hide that frame (notes/resume-functions.md), so
  there only category and message are compared. Warnings the compile machinery itself emits
  (recompile-limit and metrics-store warnings) are not the function's: they are emitted again
  to the caller's filters after the call, and not recorded.
- **iterators**: an iterator found after the call (a builtin iterator or a generator, in the
  return value, the inputs, globals or cells) is compared by what remains in it: each is
  consumed after the call, up to `ITERATOR_LIMIT` items, and its items (and the exception that
  stopped it, if any) are what the comparison sees. Consuming happens after the function has
  returned, so it never changes what the function saw; a generator's body that runs while
  being consumed prints and warns into the same outcome.
"""

from __future__ import annotations

import collections.abc
import contextlib
import dataclasses
import io
import re
import sys
import types
import warnings
from pathlib import Path
from typing import Any, Self

from tracer.testing.compare import attributes, walk

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")

ITERATOR_LIMIT = 1000
"""Items consumed from one iterator after the call (an endless one stops there)."""

_TRACER = Path(__file__).resolve().parent.parent
_MACHINERY = tuple(
    str(_TRACER / part) for part in ("cache", "observability", "graph_cache", "graph")
)
"""Where the compile machinery's own warnings come from (recompile limit, static shapes, the
metrics store, the graph cache): not the function's behavior."""


def blank_addresses(text: str) -> str:
    """`<A object at 0x7f3a...>` -> `<A object at 0x...>`: two runs never share addresses."""
    return _ADDRESS.sub("0x...", text)


@dataclasses.dataclass(frozen=True)
class WarningRecord:
    """One warning a call emitted. `location` is `file.py:12`, or None when the warning names a
    frame outside the call (its stacklevel reached the caller): then it is not compared."""

    category: type[Warning]
    message: str
    location: str | None

    def describe(self) -> str:
        where = self.location if self.location is not None else "the caller"
        return f"{self.category.__name__}({self.message!r}) at {where}"


class Observation:
    """A context manager around one call: what it printed (`stdout`), what sys.stdout it left
    when it replaced it (`stdout_target`, else None) and the warnings it emitted
    (`warnings`). Enter it in the frame that makes the call: that frame and its callers are
    "outside the call" for warning locations."""

    def __init__(self) -> None:
        self.stdout = ""
        self.stdout_target: Any = None
        self.warnings: list[WarningRecord] = []
        self._buffer = io.StringIO()
        self._stack = contextlib.ExitStack()
        self._caller: types.FrameType | None = None
        self._machinery: list[warnings.WarningMessage] = []

    def __enter__(self) -> Self:
        self._caller = sys._getframe(1)
        self._stack.enter_context(contextlib.redirect_stdout(self._buffer))
        self._stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("always")
        warnings.showwarning = self._record
        return self

    def __exit__(self, *exc: object) -> None:
        left = sys.stdout
        self._stack.close()
        self._caller = None
        self.stdout_target = None if left is self._buffer else left
        self.stdout = blank_addresses(self._buffer.getvalue())
        for w in self._machinery:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)

    def _record(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        """`warnings.showwarning` during the call: called from inside `warnings.warn`, so the
        emitting frame is the first one above the warnings module's."""
        emitter = sys._getframe(1)
        while emitter.f_back is not None and emitter.f_code.co_filename == warnings.__file__:
            emitter = emitter.f_back
        if emitter.f_code.co_filename.startswith(_MACHINERY):
            self._machinery.append(
                warnings.WarningMessage(message, category, filename, lineno, file, line)
            )
            return
        location = None if self._outside(filename, lineno) else f"{filename}:{lineno}"
        text = blank_addresses(str(message))
        self.warnings.append(WarningRecord(category, text, location))

    def _outside(self, filename: str, lineno: int) -> bool:
        """Does filename:lineno name the calling frame or one of its callers (or no frame at
        all: `sys:1`, a stacklevel past the top of the stack)?"""
        frame = self._caller
        while frame is not None:
            if frame.f_code.co_filename == filename and frame.f_lineno == lineno:
                return True
            frame = frame.f_back
        return filename == "sys"


@dataclasses.dataclass
class Remaining:
    """What was left in an iterator after the call: its items, up to ITERATOR_LIMIT
    (`more`: it had more), and the exception that ended it early, if one did."""

    items: list[Any]
    error: BaseException | None = None
    more: bool = False


def is_drainable(value: Any) -> bool:
    """A builtin iterator or a generator: an Iterator with no attributes of its own (an
    iterator class of the user's is compared attribute by attribute, as any object). Its
    type decides, not `isinstance`, which also asks the object's `__class__` (a class may set
    that to anything: test_super's `__class__ = 413`)."""
    return issubclass(type(value), collections.abc.Iterator) and attributes(value) is None


def drain_iterators(roots: dict[str, Any]) -> dict[int, Remaining]:
    """Consume every drainable iterator reachable from `roots` (in the order the roots and
    their contents are walked, then the iterators found among the items), keyed by id: the
    caller keeps the roots, so the ids stay valid."""
    found: dict[int, Remaining] = {}
    seen: set[int] = set()
    todo = [roots]
    while todo:
        for value, _ in walk(todo.pop(0), seen):
            if is_drainable(value) and id(value) not in found:
                remaining = found[id(value)] = _drain(value)
                todo.append({"": remaining.items})
    return found


def _drain(iterator: collections.abc.Iterator[Any]) -> Remaining:
    remaining = Remaining([])
    try:
        for item in iterator:
            if len(remaining.items) == ITERATOR_LIMIT:
                remaining.more = True
                break
            remaining.items.append(item)
    except Exception as e:  # noqa: BLE001 - how the iterator ended is part of the outcome
        remaining.error = e
    return remaining
