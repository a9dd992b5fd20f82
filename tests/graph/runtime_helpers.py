"""Shared pieces for the tests that run graphs on `tracer.runtime` tensors."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode


class RecordingMode(TorchFunctionMode):
    """Records the op names that reached mode dispatch, then runs them normally."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def __torch_function__(
        self,
        func: Any,
        types: tuple[type, ...],
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        self.calls.append(func.__modetrace_op__.name)
        return func(*args, **(kwargs or {}))


def canon(value: Any) -> Any:
    """Comparable form: tensors by shape, dtype and values (repr, so NaN equals NaN)."""
    if isinstance(value, torch.Tensor):
        return ("tensor", tuple(value.shape), value.dtype.name, repr(value.tolist()))
    if isinstance(value, tuple | list):
        return type(value)(canon(v) for v in value)
    return value


def meta_of(value: Any) -> Any:
    """What fake propagation must agree on: shape and dtype (and the type for non-tensors)."""
    if isinstance(value, torch.Tensor):
        return (tuple(value.shape), value.dtype)
    if isinstance(value, tuple | list):
        return type(value)(meta_of(v) for v in value)
    return type(value)
