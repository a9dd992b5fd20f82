"""FakeTensor: a Tensor with shape, dtype and requires_grad but no values.

Ops given any fake input run only their meta function and return a fake, so tracing can
propagate metadata (and hit the same shape errors) without computing. Anything that needs the
values raises DataDependentError, which a tracer turns into a graph break.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, NoReturn

from tracer.runtime import dtypes as dt
from tracer.runtime.tensor import Tensor


class DataDependentError(RuntimeError):
    """An operation needed the values of a FakeTensor (`item`, `bool(t)`, printing values...)."""


class FakeTensor(Tensor):
    """Tensor metadata without data.

    >>> FakeTensor((2, 3), dt.float32)
    FakeTensor(float32[2, 3])
    """

    __slots__ = ()

    def __init__(
        self,
        shape: Sequence[int],
        dtype: dt.dtype = dt.float32,
        requires_grad: builtins.bool = False,
    ) -> None:
        self._data = None
        self._shape = tuple(shape)
        self._dtype = dtype
        self.requires_grad = requires_grad

    @classmethod
    def from_tensor(cls, t: Tensor) -> FakeTensor:
        return cls(t._shape, t._dtype, t.requires_grad)

    def _values(self) -> NoReturn:
        raise DataDependentError(
            f"cannot read the values of {self!r}: the operation depends on tensor data"
        )

    def __format__(self, spec: str) -> str:
        return format(repr(self), spec)

    def __repr__(self) -> str:
        grad = ", requires_grad=True" if self.requires_grad else ""
        return f"FakeTensor({self._dtype.name}[{', '.join(map(str, self._shape))}]{grad})"


def is_fake(*values: Any) -> builtins.bool:
    """True if any argument is a tensor without data."""
    for v in values:
        if isinstance(v, Tensor) and v._storage.values is None:  # (as `Tensor.is_fake`)
            return True
    return False
