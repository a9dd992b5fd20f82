"""More Tensor methods, a base class of `Tensor` (kept apart so no file grows past its
topic): the methods model code calls (`softmax`, `max(dim)`, `flatten`, `expand`...) and the
in-place ops (`add_`, `copy_`...), each a thin body over `aten_nn` or `aten_inplace`.

Those modules build Tensors, so they are imported by `load_ops()`, which `tensor` calls once
the Tensor class exists.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.runtime.dtypes import Scalar
from tracer.runtime.overridable import method_op, operator_method

if TYPE_CHECKING:  # imported for real by load_ops()
    from tracer.runtime import aten_inplace as _inplace  # noqa: TC004
    from tracer.runtime import aten_nn as _nn  # noqa: TC004
    from tracer.runtime import meta as _meta  # noqa: TC004
    from tracer.runtime.dtypes import dtype
    from tracer.runtime.tensor import Tensor

Dims = int | Sequence[int] | None


def load_ops() -> None:
    """Import the op implementations (called by `tensor` once Tensor exists)."""
    global _inplace, _nn, _meta
    from tracer.runtime import aten_inplace as _inplace
    from tracer.runtime import aten_nn as _nn
    from tracer.runtime import meta as _meta


class TensorMethods:
    """`self` is a Tensor in every method (typed Any: mypy cannot see the subclass here)."""

    __slots__ = ()

    # ------------------------------------------------------------ elementwise

    @method_op
    def rsqrt(self: Any) -> Tensor:
        return _nn.rsqrt(self)

    @method_op
    def erf(self: Any) -> Tensor:
        return _nn.erf(self)

    @method_op
    def clamp(self: Any, min: Any = None, max: Any = None) -> Tensor:
        return _nn.clamp(self, min, max)

    @method_op
    def clip(self: Any, min: Any = None, max: Any = None) -> Tensor:
        return _nn.clip(self, min, max)

    @method_op
    def masked_fill(self: Any, mask: Tensor, value: Any) -> Tensor:
        return _nn.masked_fill(self, mask, value)

    @method_op
    def softmax(self: Any, dim: int, dtype: dtype | None = None) -> Tensor:
        return _nn.softmax(self, dim, dtype)

    @method_op
    def log_softmax(self: Any, dim: int, dtype: dtype | None = None) -> Tensor:
        return _nn.log_softmax(self, dim, dtype)

    @method_op
    def bmm(self: Any, mat2: Tensor) -> Tensor:
        return _nn.bmm(self, mat2)

    @method_op
    def type_as(self: Any, other: Tensor) -> Tensor:
        result: Tensor = self.to(other._dtype)
        return result

    # ------------------------------------------------------------ reductions

    @method_op
    def max(self: Any, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        return _nn.max(self, dim, keepdim)

    @method_op
    def min(self: Any, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        return _nn.min(self, dim, keepdim)

    @method_op
    def amin(self: Any, dim: int | Sequence[int] = (), keepdim: builtins.bool = False) -> Tensor:
        return _nn.amin(self, dim, keepdim)

    @method_op
    def argmax(self: Any, dim: int | None = None, keepdim: builtins.bool = False) -> Tensor:
        return _nn.argmax(self, dim, keepdim)

    @method_op
    def argmin(self: Any, dim: int | None = None, keepdim: builtins.bool = False) -> Tensor:
        return _nn.argmin(self, dim, keepdim)

    @method_op
    def var(
        self: Any,
        dim: Dims = None,
        unbiased: builtins.bool = True,
        keepdim: builtins.bool = False,
        *,
        correction: Scalar | None = None,
    ) -> Tensor:
        return _nn.var(self, dim, unbiased, keepdim, correction=correction)

    @method_op
    def std(
        self: Any,
        dim: Dims = None,
        unbiased: builtins.bool = True,
        keepdim: builtins.bool = False,
        *,
        correction: Scalar | None = None,
    ) -> Tensor:
        return _nn.std(self, dim, unbiased, keepdim, correction=correction)

    # ------------------------------------------------------------ shapes

    @method_op
    def flatten(self: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        return _nn.flatten(self, start_dim, end_dim)

    @method_op
    def expand(self: Any, *sizes: Any) -> Tensor:
        return _nn.expand(self, _meta.size_args(sizes))

    @method_op
    def expand_as(self: Any, other: Tensor) -> Tensor:
        return _nn.expand(self, other._shape)

    @method_op
    def repeat(self: Any, *repeats: Any) -> Tensor:
        return _nn.repeat(self, _meta.size_args(repeats))

    @method_op
    def chunk(self: Any, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        return _nn.chunk(self, chunks, dim)

    @method_op
    def split(self: Any, split_size: int | Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
        return _nn.split(self, split_size, dim)

    # ------------------------------------------------------------ in-place

    @method_op
    def add_(self: Any, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor:
        return _inplace.add_(self, other, alpha=alpha)

    @method_op
    def sub_(self: Any, other: Tensor | Scalar, *, alpha: Scalar = 1) -> Tensor:
        return _inplace.sub_(self, other, alpha=alpha)

    @method_op
    def mul_(self: Any, other: Tensor | Scalar) -> Tensor:
        return _inplace.mul_(self, other)

    @method_op
    def div_(self: Any, other: Tensor | Scalar) -> Tensor:
        return _inplace.div_(self, other)

    @method_op
    def clamp_(self: Any, min: Any = None, max: Any = None) -> Tensor:
        return _inplace.clamp_(self, min, max)

    @method_op
    def relu_(self: Any) -> Tensor:
        return _inplace.relu_(self)

    @method_op
    def exp_(self: Any) -> Tensor:
        return _inplace.exp_(self)

    @method_op
    def masked_fill_(self: Any, mask: Tensor, value: Any) -> Tensor:
        return _inplace.masked_fill_(self, mask, value)

    @method_op
    def copy_(self: Any, src: Tensor) -> Tensor:
        return _inplace.copy_(self, src)

    @method_op
    def fill_(self: Any, value: Any) -> Tensor:
        return _inplace.fill_(self, value)

    @method_op
    def zero_(self: Any) -> Tensor:
        return _inplace.zero_(self)

    @method_op
    def requires_grad_(self: Any, requires_grad: builtins.bool = True) -> Tensor:
        return _inplace.requires_grad_(self, requires_grad)

    # `z += y` is `z.add_(y)`, as in torch (a mode sees `Tensor.add_`)
    __iadd__ = operator_method(add_, "__iadd__")
    __isub__ = operator_method(sub_, "__isub__")
    __imul__ = operator_method(mul_, "__imul__")
    __itruediv__ = operator_method(div_, "__itruediv__")
