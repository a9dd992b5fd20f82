"""Warnings emitted while tracing. The tracer runs some operations for real on constants
(`bool(NotImplemented)`, `int()` of an object whose `__int__` returns an int subclass): one that
warns would warn once, at trace time, from the tracer's own frame, and the compiled code would
never warn, where plain Python warns at that line on every call. So during a trace every warning
of the tracing thread is recorded instead of shown (`always`, so no filter or once-per-location
registry hides one), and the step loop breaks at the instruction that warned: the frame then
runs that instruction as plain Python, which emits the warning where and when Python does.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Iterator
from typing import Any, NoReturn

from tracer.exc import unimplemented


@contextlib.contextmanager
def recording_warnings(seen: list[warnings.WarningMessage]) -> Iterator[None]:
    """Append each warning this thread emits inside the block to `seen` (the trace's
    `OutputGraph.trace_warnings`, which the step loop checks); other threads' warnings are
    shown as before."""
    thread = threading.get_ident()
    with warnings.catch_warnings():
        shown_before = warnings.showwarning
        warnings.simplefilter("always")

        def record(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: Any = None,
            line: str | None = None,
        ) -> None:
            if threading.get_ident() != thread:
                shown_before(message, category, filename, lineno, file, line)
                return
            seen.append(warnings.WarningMessage(message, category, filename, lineno, file, line))

        warnings.showwarning = record
        yield


def break_on_warning(seen: list[warnings.WarningMessage]) -> NoReturn:
    """The instruction just traced warned: break here (the warning is dropped: the frame runs
    the instruction as plain Python, which warns again, as it should)."""
    first = seen[0]
    seen.clear()
    unimplemented(
        "trace-time-warning",
        f"{first.category.__name__}({str(first.message)!r}) was emitted while tracing this "
        "instruction: the compiled code would not emit it",
    )
