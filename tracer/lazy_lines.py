"""A `linecache` entry whose text is rendered on first read (the emitted dispatcher's).

The emitted dispatcher (tracer.dispatch_emit) has no text until someone reads it: a traceback,
a debugger, a test. Its entry renders it then, and leaves `linecache` when the dispatcher's
code goes.
"""

from __future__ import annotations

import linecache
import types
import weakref
from collections.abc import Callable
from typing import Any, Self


class _LinesRef(weakref.ref):  # type: ignore[type-arg]
    """A weak reference to a dispatcher's code that drops the code's `linecache` entry."""

    __slots__ = ("filename",)
    filename: str

    def __new__(cls, code: types.CodeType, filename: str) -> Self:
        ref = super().__new__(cls, code, _drop_lines)
        ref.filename = filename
        return ref  # (weakref.ref's own __init__ only checks its arguments)


def _drop_lines(ref: _LinesRef) -> None:
    linecache.cache.pop(ref.filename, None)


class LazyLines(tuple):  # type: ignore[type-arg]
    """A `linecache` entry whose lines are rendered on first read.

    linecache's own lazy entries (`(get_source,)`) are never loaded for `<...>` file names,
    which CPython's `updatecache` skips. This is a full entry instead, `(size, None, lines,
    name)` with mtime None (so `checkcache` keeps it, without reading it), whose `[2]`, the
    only item `getlines` reads, renders the text the first time."""

    _render: Callable[[], str]
    _lines: list[str] | None
    _code: weakref.ref[types.CodeType] | None

    def __new__(cls, filename: str, render: Callable[[], str]) -> Self:
        entry = super().__new__(cls, (0, None, [], filename))
        entry._render = render
        entry._lines = None
        entry._code = None
        return entry

    def forget_with(self, code: types.CodeType) -> None:
        """Leave `linecache` when `code` goes. The entry holds the weak reference whose
        callback removes it, so the reference lives exactly as long as it is needed (a
        `weakref.finalize` does the same through a registry, at several times the cost, made
        and run, on every install)."""
        self._code = _LinesRef(code, super().__getitem__(3))

    def __getitem__(self, index: Any) -> Any:
        if index == 2:
            if self._lines is None:
                self._lines = self._render().splitlines(keepends=True)
            return self._lines
        return super().__getitem__(index)

    def __repr__(self) -> str:
        state = "rendered" if self._lines is not None else "not rendered yet"
        return f"<LazyLines {super().__getitem__(3)}: {state}>"
