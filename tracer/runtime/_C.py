# ruff: noqa: N999  (torch spells this module `_C`)
"""The per-thread torch-function mode stack, under the names torch keeps in `torch._C`.

Invariant: `_STATE.dispatch` is the live stack list while dispatch is enabled and an empty
tuple inside `DisableTorchFunction`, so an op decides "no mode to call" with one truth test.
The stack list itself is never replaced, only mutated, so holders of it stay current.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Self


class _ModeState(threading.local):
    """One thread's mode stack (bottom first) and the view of it that dispatch reads."""

    def __init__(self) -> None:
        self.stack: list[Any] = []
        self.dispatch: Sequence[Any] = self.stack

    def __repr__(self) -> str:
        enabled = self.dispatch is self.stack
        return f"_ModeState(stack={self.stack!r}, enabled={enabled})"


_STATE = _ModeState()

_set_grad_enabled: Callable[[bool], None]
"""Set grad mode (a public op: a mode sees `no_grad` enter and exit as calls to it, as in
torch); defined in `grad_mode`, which sets it here."""


def _torch_function_mode_stack() -> list[Any]:
    """The live stack list of this thread, bottom first (modetrace's guards read it)."""
    return _STATE.stack


def _set_torch_function_mode_stack(modes: Sequence[Any]) -> None:
    """Replace this thread's stack contents in place (the list object stays the same)."""
    _STATE.stack[:] = modes


def _push_on_torch_function_stack(mode: Any) -> None:
    _STATE.stack.append(mode)


def _pop_torch_function_stack() -> Any:
    stack = _STATE.stack
    if not stack:
        raise RuntimeError("Trying to pop from an empty torch function mode stack")
    return stack.pop()


def _len_torch_function_stack() -> int:
    return len(_STATE.stack)


def _get_function_stack_at(level: int) -> Any:
    """The mode at `level`, 0 being the bottom; negative levels count from the top."""
    stack = _STATE.stack
    if not -len(stack) <= level < len(stack):
        raise IndexError(
            f"torch function mode stack index {level} is out of range for a stack of "
            f"length {len(stack)}"
        )
    return stack[level]


def _is_torch_function_mode_enabled() -> bool:
    """True when an op called now would go to a mode: modes exist and dispatch is not disabled."""
    return bool(_STATE.dispatch)


def _is_torch_function_enabled() -> bool:
    """False inside `DisableTorchFunction`: ops go to no mode, whatever the stack holds."""
    return _STATE.dispatch is _STATE.stack


class DisableTorchFunction:
    """Inside it no op dispatches to any mode; the stack itself is kept and may still change.

    Re-entrant and nestable: each enter remembers what dispatch looked like before it.
    """

    def __init__(self) -> None:
        self._saved: list[Sequence[Any]] = []

    def __enter__(self) -> Self:
        self._saved.append(_STATE.dispatch)
        _STATE.dispatch = ()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        _STATE.dispatch = self._saved.pop()

    def __repr__(self) -> str:
        return f"DisableTorchFunction(active={bool(self._saved)})"
