"""Torch-function modes: `TorchFunctionMode`, `BaseTorchFunctionMode` and the stack helpers.

A mode on the per-thread stack (see `_C`) sees every overridable op call as
`__torch_function__(func, types, args, kwargs)`. While its handler runs the mode is popped, so
ops called inside go to the next mode down (or run); it is pushed back even if the handler
raises. Modes must be exited in the reverse order they were entered.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any

from tracer.runtime import _C
from tracer.runtime.overridable import OpInfo, op_info

__all__ = [
    "BaseTorchFunctionMode",
    "OpInfo",
    "TorchFunctionMode",
    "_get_current_function_mode",
    "_get_current_function_mode_stack",
    "_pop_mode",
    "_pop_mode_temporarily",
    "_push_mode",
    "op_info",
]


class TorchFunctionMode:
    """Base class of modes: subclasses override `__torch_function__`; `with mode:` installs it."""

    def __init__(self) -> None:
        pass

    def __torch_function__(
        self,
        func: Callable[..., Any],
        types: tuple[type, ...],
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        raise NotImplementedError

    def __enter__(self) -> Any:
        _push_mode(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        stack = _C._torch_function_mode_stack()
        top = stack[-1] if stack else None
        if top is not self:
            raise RuntimeError(
                f"torch function mode {self!r} exited out of order: the top of the mode stack "
                f"is {top!r}; modes must exit in the reverse order they were entered"
            )
        _pop_mode()


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every op unchanged: subclass it to observe calls."""

    def __torch_function__(
        self,
        func: Callable[..., Any],
        types: tuple[type, ...],
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        return func(*args, **(kwargs or {}))


def _get_current_function_mode() -> Any:
    stack = _C._torch_function_mode_stack()
    return stack[-1] if stack else None


def _get_current_function_mode_stack() -> list[Any]:
    """A copy of the stack, bottom first."""
    return list(_C._torch_function_mode_stack())


def _push_mode(mode: Any) -> None:
    _C._push_on_torch_function_stack(mode)


def _pop_mode() -> Any:
    return _C._pop_torch_function_stack()


@contextlib.contextmanager
def _pop_mode_temporarily() -> Iterator[Any]:
    mode = _pop_mode()
    try:
        yield mode
    finally:
        _push_mode(mode)
