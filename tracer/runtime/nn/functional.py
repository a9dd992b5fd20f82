"""`torch.nn.functional`: the public, mode-overridable functions model code calls.

A mode sees each as `torch.nn.functional.<name>` (`func.__name__` is the name), as in torch,
and not the ops it is computed with (torch calls those with the mode popped). The
implementations are in `aten_nn`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracer.runtime import aten, aten_inplace, aten_nn
from tracer.runtime.dtypes import dtype
from tracer.runtime.overridable import functional_op
from tracer.runtime.tensor import Tensor


@functional_op
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return aten_inplace.relu_(input) if inplace else aten.relu(input)


@functional_op
def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: dtype | None = None
) -> Tensor:
    if dim is None:  # torch's deprecated implicit dim: 0 for 0-, 1- and 3-d inputs, else 1
        dim = 0 if len(input._shape) in (0, 1, 3) else 1
    return aten_nn.softmax(input, dim, dtype)


@functional_op
def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: dtype | None = None
) -> Tensor:
    if dim is None:
        dim = 0 if len(input._shape) in (0, 1, 3) else 1
    return aten_nn.log_softmax(input, dim, dtype)


@functional_op
def silu(input: Tensor, inplace: bool = False) -> Tensor:
    result = aten_nn.silu(input)
    return aten_inplace.copy_(input, result) if inplace else result


@functional_op
def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
) -> Tensor:
    if max_norm is not None:
        raise NotImplementedError("modetrace embedding does not support max_norm")
    return aten_nn.embedding(input, weight)


@functional_op
def pad(
    input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
) -> Tensor:
    return aten_nn.pad(input, pad, mode, value)


gelu = functional_op(aten_nn.gelu)
layer_norm = functional_op(aten_nn.layer_norm)
linear = functional_op(aten_nn.linear)
dropout = functional_op(aten_nn.dropout)
cross_entropy = functional_op(aten_nn.cross_entropy)
mse_loss = functional_op(aten_nn.mse_loss)

__all__ = [
    "cross_entropy",
    "dropout",
    "embedding",
    "gelu",
    "layer_norm",
    "linear",
    "log_softmax",
    "mse_loss",
    "pad",
    "relu",
    "silu",
    "softmax",
]
