"""Warning filters changed for the length of a block without touching the user's "shown once"
registries, and safely when two threads compile at once.

`warnings.catch_warnings()` and `simplefilter()` tell the interpreter the filters changed
(`warnings._filters_mutated()`), and that makes every module's `__warningregistry__` stale:
the next warning at each location clears its module's registry, so a warning the `default`
action had shown once at a line is shown again. A compile that used them would make every
such warning of the user's program come out once more after each compile, which plain Python
never does.

So the compile path swaps `warnings.filters` itself and puts the user's list back: the C warning
code reads the module's `filters` on every warning, and the registries stay valid because
nothing here writes one. The filters put in place never write a registry either: `always`
records nothing, and the `ignore` for compile()'s SyntaxWarning has no registry to write
(compile() warns without one).

Filters are the process's, not a thread's, and two functions may compile at once in two threads
(each function has its own lock). Blocks that overlap in time (nested, or in two threads) share
one saved copy of the user's filters and `showwarning`, put back when the last block ends,
whatever order they end in; a block that ends while a later one is still open leaves that one's
filters in place. (`catch_warnings()` restores what it saw on entry, so two overlapping ones
ending out of order leave the first one's filters installed for good.)

What this gives up: a registry is consulted before any filter, so a warning at a location whose
registry already holds it is not seen by the trace (`trace_warnings`). Only a location that warns
both inside a trace and outside one, under the `default` action, can hold it: the tracer's own
lines run inside traces alone, and an op the graph runs again warns again from that same
location, as plain Python would.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

ALWAYS: tuple[tuple[Any, ...], ...] = (("always", None, Warning, None, 0),)
"""Every warning reaches `showwarning`, whatever the user's filters say, and none is recorded
in a registry."""

NO_SYNTAX_WARNINGS: tuple[tuple[Any, ...], ...] = (("ignore", None, SyntaxWarning, None, 0),)
"""compile()'s SyntaxWarnings dropped (`1 is x` in generated code is valid, and meant)."""

Recorder = Callable[[warnings.WarningMessage], None]

_lock = threading.Lock()
_open = 0
"""Blocks open now, in every thread."""
_saved: tuple[Any, Any] = (None, None)
"""The user's filter list and `showwarning`, saved by the first of the blocks now open."""
_recorders: dict[int, Recorder] = {}
"""By thread ident: where that thread's warnings go while it records (`recorder=`)."""


@contextlib.contextmanager
def filters_swapped(
    first: Sequence[tuple[Any, ...]], *, keep_user: bool, recorder: Recorder | None = None
) -> Iterator[None]:
    """Inside the block the filters are `first`, followed by the user's own when `keep_user`.
    With a `recorder`, every warning this thread shows inside the block goes to it instead
    (other threads' are shown by the user's `showwarning`)."""
    global _open, _saved
    thread = threading.get_ident()
    with _lock:
        if _open == 0:
            _saved = (warnings.filters, warnings.showwarning)
            warnings.showwarning = _show
        _open += 1
        mine = [*first, *_saved[0]] if keep_user else list(first)
        replaced = warnings.filters
        warnings.filters = mine
        outer_recorder = _recorders.get(thread)
        if recorder is not None:
            _recorders[thread] = recorder
    try:
        yield
    finally:
        with _lock:
            _open -= 1
            if outer_recorder is None:
                _recorders.pop(thread, None)
            else:
                _recorders[thread] = outer_recorder
            if _open == 0:
                warnings.filters, warnings.showwarning = _saved
                _saved = (None, None)
            elif warnings.filters is mine:  # the block it replaced is still open
                warnings.filters = replaced


def _show(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """`showwarning` while blocks are open: to the thread's recorder, else the user's."""
    recorder = _recorders.get(threading.get_ident())
    if recorder is None:
        # (the user's, or, when the last block closed as this warning was being shown, the
        # one just put back)
        shown = _saved[1] or warnings.showwarning
        shown(message, category, filename, lineno, file, line)
        return
    recorder(warnings.WarningMessage(message, category, filename, lineno, file, line))
