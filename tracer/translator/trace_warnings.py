"""Warnings emitted while tracing. The tracer runs some operations for real on constants
(`bool(NotImplemented)`, `int()` of an object whose `__int__` returns an int subclass): one that
warns would warn once, at trace time, from the tracer's own frame, and the compiled code would
never warn, where plain Python warns at that line on every call. So during a trace every warning of
the tracing thread is recorded instead of shown (under `always`, so no filter hides one), and the
step loop breaks at the instruction that warned: the frame then runs that instruction as plain
Python, which emits the warning where and when Python does.
"""

from __future__ import annotations

import warnings
from contextlib import AbstractContextManager
from typing import NoReturn

from tracer.exc import unimplemented
from tracer.warning_filters import ALWAYS, filters_swapped


def recording_warnings(seen: list[warnings.WarningMessage]) -> AbstractContextManager[None]:
    """Append each warning this thread emits inside the block to `seen` (the trace's
    `OutputGraph.trace_warnings`, which the step loop checks), whatever the user's filters say;
    other threads' warnings are shown as before. The filters are swapped, not changed with
    `catch_warnings()`, which would make every "shown once" registry of the user's modules
    stale (see tracer.warning_filters)."""
    return filters_swapped(ALWAYS, keep_user=False, recorder=seen.append)


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
