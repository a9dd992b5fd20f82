"""Grad mode: `no_grad`, `enable_grad`, `set_grad_enabled`, `is_grad_enabled`.

modetrace has no autograd: grad mode decides only whether op results carry `requires_grad`
(an op's result requires grad when grad mode is on and a floating input requires grad; views
keep their base's flag, as in torch). The flag is per thread, as torch's. The context managers
also decorate functions: `@torch.no_grad()` (or `@torch.no_grad`) runs the function inside.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from tracer.runtime import _C
from tracer.runtime.overridable import function_op

F = TypeVar("F", bound=Callable[..., Any])


class _GradState(threading.local):
    def __init__(self) -> None:
        self.enabled = True


_STATE = _GradState()


def is_grad_enabled() -> bool:
    """Also the reader of the runtime's part of the global state a GLOBAL_STATE guard pins
    (`grad_enabled`)."""
    return _STATE.enabled


@function_op
def _set_grad_enabled(mode: bool) -> None:
    _STATE.enabled = mode


_C._set_grad_enabled = _set_grad_enabled
_set = _set_grad_enabled


class _GradModeContext:
    """Enter: remember the current mode and set `self._target`; exit: restore it. Calling an
    instance on a function decorates it (a fresh context per call, so recursion nests)."""

    _target = True

    def __init__(self) -> None:
        self._saved: list[bool] = []

    def __enter__(self) -> None:
        self._saved.append(_STATE.enabled)
        _set(self._target)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        _set(self._saved.pop())

    def _fresh(self) -> _GradModeContext:
        return type(self)()

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with self._fresh():
                return fn(*args, **kwargs)

        return decorated  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<torch.{type(self).__name__}>"


class _NoParamDecorator(_GradModeContext):
    """`@torch.no_grad` without parentheses decorates too, as torch allows."""

    def __new__(cls, fn: Callable[..., Any] | None = None) -> Any:
        self = super().__new__(cls)
        if fn is None:
            return self
        _GradModeContext.__init__(self)
        return self(fn)


class no_grad(_NoParamDecorator):
    """Op results do not require grad inside."""

    _target = False


class enable_grad(_NoParamDecorator):
    """Op results require grad (as their inputs do) inside, even within `no_grad`."""

    _target = True


class set_grad_enabled(_GradModeContext):
    """Sets grad mode when constructed (as torch's does, so a plain call works too); as a
    context manager it restores the mode from before construction on exit."""

    def __init__(self, mode: bool) -> None:
        super().__init__()
        self._target = mode
        self._before = _STATE.enabled
        _set(mode)

    def __enter__(self) -> None:
        self._saved.append(self._before)

    def __call__(self, fn: F) -> F:
        _set(self._before)  # decorating does not change the mode now
        return super().__call__(fn)

    def _fresh(self) -> _GradModeContext:
        return set_grad_enabled(self._target)
