"""Mode-free implementations of the in-place ops (`add_`, `copy_`, `fill_`, `x[i] = v`...).

Each computes its out-of-place result with `aten` (so meta checks and fake propagation are the
out-of-place op's), checks that the result fits the tensor written (same shape: only the other
operand broadcasts; a dtype the tensor's can hold), then `Tensor._write`s it: through a view to
the base's storage, counting one version. A FakeTensor written counts a version too.
Grad mode: a result that requires grad makes the written tensor require grad. (torch also
refuses in-place writes to a leaf that requires grad outside no_grad; modetrace does not track
leaves, so it does not.)
"""

from __future__ import annotations

from typing import Any

from tracer.runtime import aten, aten_nn, kernels, meta
from tracer.runtime.dtypes import Scalar
from tracer.runtime.meta import Operand
from tracer.runtime.tensor import Tensor


def _assign(self: Tensor, result: Tensor) -> Tensor:
    if result._shape != self._shape:
        raise RuntimeError(
            f"output with shape {meta.format_shape(self._shape)} doesn't match the broadcast "
            f"shape {meta.format_shape(result._shape)}"
        )
    if result._dtype.category > self._dtype.category:
        raise RuntimeError(
            f"result type {result._dtype.short_name} can't be cast to the desired output type "
            f"{self._dtype.short_name}"
        )
    data = result._data
    self._write(None if data is None else kernels.convert(data, result._dtype, self._dtype))
    if result.requires_grad and self._dtype.is_floating_point:
        self.requires_grad = True
    return self


def add_(self: Tensor, other: Operand, *, alpha: Scalar = 1) -> Tensor:
    return _assign(self, aten.add(self, other, alpha=alpha))


def sub_(self: Tensor, other: Operand, *, alpha: Scalar = 1) -> Tensor:
    return _assign(self, aten.sub(self, other, alpha=alpha))


def mul_(self: Tensor, other: Operand) -> Tensor:
    return _assign(self, aten.mul(self, other))


def div_(self: Tensor, other: Operand) -> Tensor:
    return _assign(self, aten.div(self, other))


def clamp_(self: Tensor, min: Operand | None = None, max: Operand | None = None) -> Tensor:
    return _assign(self, aten_nn.clamp(self, min, max))


def relu_(self: Tensor) -> Tensor:
    return _assign(self, aten.relu(self))


def exp_(self: Tensor) -> Tensor:
    return _assign(self, aten.exp(self))


def masked_fill_(self: Tensor, mask: Tensor, value: Operand) -> Tensor:
    return _assign(self, aten_nn.masked_fill(self, mask, value))


def copy_(self: Tensor, src: Tensor) -> Tensor:
    """`src`'s values (broadcast to this shape) in this tensor's dtype, whatever `src`'s."""
    shape = meta.broadcast_shapes(self._shape, src._shape)
    if shape != self._shape:
        raise RuntimeError(
            f"output with shape {meta.format_shape(self._shape)} doesn't match the broadcast "
            f"shape {meta.format_shape(shape)}"
        )
    data = src._data
    if data is not None and self._data is not None:
        data = kernels.expand(kernels.convert(data, src._dtype, self._dtype), src._shape, shape)
    else:
        data = None
    self._write(data)
    if src.requires_grad and self._dtype.is_floating_point and aten._grad(src._dtype, src):
        self.requires_grad = True
    return self


def fill_(self: Tensor, value: Operand) -> Tensor:
    if isinstance(value, Tensor):
        if value._shape:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{len(value._shape)} dimensions."
            )
        return copy_(self, value)
    stored = kernels.convert_scalar(value, self._dtype)
    self._write(None if self._data is None else [stored] * meta.numel(self._shape))
    return self


def zero_(self: Tensor) -> Tensor:
    return fill_(self, 0)


def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    if requires_grad and not self._dtype.is_floating_point:
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    self.requires_grad = requires_grad
    return self


def setitem(self: Tensor, index: Any, value: Any) -> None:
    """`x[index] = value`: fill or copy into the view `x[index]`."""
    target = aten.getitem(self, index)
    if isinstance(value, Tensor):
        copy_(target, value)
    else:
        fill_(target, value)
