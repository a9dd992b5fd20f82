"""Mode-free implementations of the ops model code needs: activations, softmax, normalization,
losses, `max`/`min` along a dim, `einsum`, `bmm`, and the shape ops `flatten`, `expand`,
`repeat`, `chunk`, `split`.

Most are compositions of `aten` ops (so FakeTensor propagation and dtype rules come with them);
the others run their meta function in `meta_nn` first, return a FakeTensor when an input is
fake, and compute with `kernels`. Floats are computed as the composed ops compute them, so
results agree with torch's fused kernels to about float32 rounding, not bit for bit.
"""

from __future__ import annotations

import builtins
import itertools
import math
from collections.abc import Sequence
from typing import Any

from tracer.runtime import aten, kernels, meta, meta_nn, return_types
from tracer.runtime import dtypes as dt
from tracer.runtime.aten import _fake, _grad, _store, _unary_float
from tracer.runtime.dtypes import Scalar, dtype
from tracer.runtime.factories import bernoulli_mask
from tracer.runtime.fake import is_fake
from tracer.runtime.meta import Operand, Shape
from tracer.runtime.tensor import Tensor

# ---------------------------------------------------------------- elementwise


def erf(input: Tensor) -> Tensor:
    return _unary_float("erf", input)


def rsqrt(input: Tensor) -> Tensor:
    return _unary_float("rsqrt", input)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _unary_float("gelu" if approximate == "none" else "gelu_tanh", input)


def silu(input: Tensor) -> Tensor:
    return _unary_float("silu", input)


def clamp(input: Tensor, min: Operand | None = None, max: Operand | None = None) -> Tensor:
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    result = input
    if min is not None:
        result = aten.maximum(result, min)
    if max is not None:
        result = aten.minimum(result, max)
    return result


def clip(input: Tensor, min: Operand | None = None, max: Operand | None = None) -> Tensor:
    """`clamp` under its other name."""
    return clamp(input, min, max)


def masked_fill(input: Tensor, mask: Tensor, value: Operand) -> Tensor:
    """`value` (a number or a 0-d tensor) where `mask` is true, in `input`'s dtype."""
    meta_nn.masked_fill(input, mask)
    if isinstance(value, Tensor):
        if value._shape:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{len(value._shape)} dimension(s)."
            )
        if is_fake(value):
            return _fake(input._shape, input._dtype, input, value)
        value = value._scalar()
    if is_fake(input, mask):
        return _fake(input._shape, input._dtype, input)
    assert input._data is not None and mask._data is not None
    fill = kernels.convert_scalar(value, input._dtype)
    where = kernels.expand(mask._data, mask._shape, input._shape)
    values = [fill if m else x for m, x in zip(where, input._data, strict=True)]
    return Tensor._make(values, input._shape, input._dtype, _grad(input._dtype, input))


# ---------------------------------------------------------------- reductions


def _arg_reduce(
    x: Tensor, dim: int, keepdim: bool, op: str
) -> tuple[list[Any] | None, list[int] | None, Shape]:
    """Values and positions of the best element along `dim` (None for a fake)."""
    d, shape = meta_nn.dim_reduce(x, dim, keepdim, op)
    if x._data is None:
        return None, None, shape
    data = x._data
    if x._shape:
        walk = meta.reduction_walk(x._shape, (d,))
        if walk is not None:
            data = kernels.gather(data, 0, walk)
    chunk = x._shape[d] if x._shape else 1
    better = kernels.greater if op in ("max", "argmax") else kernels.less
    values, indices = kernels.arg_reduce(data, chunk, len(data) // chunk if chunk else 0, better)
    return values, indices, shape


def _max_or_min(
    op: str, input: Tensor, dim: Any, keepdim: bool, elementwise: Any, everywhere: Any
) -> Any:
    if dim is None:
        if not meta.numel(input._shape):
            raise RuntimeError(
                f"{op}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return everywhere(input, (), False)
    if isinstance(dim, Tensor):
        return elementwise(input, dim)
    values, indices, shape = _arg_reduce(input, dim, keepdim, op)
    pair_type = return_types.max if op == "max" else return_types.min
    if values is None or indices is None:
        return pair_type((_fake(shape, input._dtype, input), _fake(shape, dt.int64)))
    return pair_type(
        (
            Tensor._make(values, shape, input._dtype, _grad(input._dtype, input)),
            Tensor._make(indices, shape, dt.int64),
        )
    )


def max(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    """`max(x)`: the largest element; `max(x, dim)`: (values, indices); `max(x, other)`:
    `maximum`."""
    return _max_or_min("max", input, dim, keepdim, aten.maximum, aten.amax)


def min(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return _max_or_min("min", input, dim, keepdim, aten.minimum, amin)


def amin(input: Tensor, dim: int | Sequence[int] = (), keepdim: bool = False) -> Tensor:
    """The smallest is the negated largest of the negated values (of bools: the complements)."""
    flip = aten.bitwise_not if input._dtype is dt.bool_ else aten.neg
    return flip(aten.amax(flip(input), dim, keepdim))


def _arg(op: str, input: Tensor, dim: int | None, keepdim: bool) -> Tensor:
    if dim is None:
        flat = aten.reshape(input, (-1,))
        _, indices, _ = _arg_reduce(flat, 0, False, op)
        shape: Shape = (1,) * len(input._shape) if keepdim else ()
    else:
        _, indices, shape = _arg_reduce(input, dim, keepdim, op)
    if indices is None:
        return _fake(shape, dt.int64)
    return Tensor._make(indices, shape, dt.int64)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    return _arg("argmax", input, dim, keepdim)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    return _arg("argmin", input, dim, keepdim)


def var(
    input: Tensor,
    dim: int | Sequence[int] | None = None,
    unbiased: bool = True,
    keepdim: bool = False,
    *,
    correction: Scalar | None = None,
) -> Tensor:
    """Sum of squared deviations over (count - correction); correction 1 unless `unbiased`
    is False (0). Fewer elements than the correction give nan or inf, as in torch."""
    dims = meta.reduction_dims(input._shape, dim)
    if correction is None:
        correction = 1 if unbiased else 0
    n = meta.numel(tuple(input._shape[d] for d in dims))
    centered = aten.sub(input, aten.mean(input, dims, True))
    squares = aten.sum(aten.mul(centered, centered), dims, keepdim)
    return aten.div(squares, builtins.max(n - correction, 0))


def std(
    input: Tensor,
    dim: int | Sequence[int] | None = None,
    unbiased: bool = True,
    keepdim: bool = False,
    *,
    correction: Scalar | None = None,
) -> Tensor:
    return aten.sqrt(var(input, dim, unbiased, keepdim, correction=correction))


# ---------------------------------------------------------------- softmax


def _with_dtype(input: Tensor, dtype: dtype | None) -> Tensor:
    return input if dtype is None else aten.to(input, dtype)


def softmax(input: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    x = _with_dtype(input, dtype)
    meta_nn.softmax_input(x, "softmax")
    shifted = aten.sub(x, aten.amax(x, dim, True))
    e = aten.exp(shifted)
    return aten.div(e, aten.sum(e, dim, True))


def log_softmax(input: Tensor, dim: int, dtype: dtype | None = None) -> Tensor:
    x = _with_dtype(input, dtype)
    meta_nn.softmax_input(x, "log_softmax")
    shifted = aten.sub(x, aten.amax(x, dim, True))
    return aten.sub(shifted, aten.log(aten.sum(aten.exp(shifted), dim, True)))


# ---------------------------------------------------------------- linear algebra


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    shape = meta_nn.bmm(input, mat2)
    if is_fake(input, mat2) or shape[0] == 0:
        if not is_fake(input, mat2):
            return Tensor._make([], shape, input._dtype)
        return _fake(shape, input._dtype, input, mat2)
    return aten.stack(
        [aten.matmul(aten.getitem(input, b), aten.getitem(mat2, b)) for b in range(shape[0])]
    )


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (no ellipsis); `einsum(eq, [a, b])` works as `einsum(eq, a, b)`."""
    tensors: list[Tensor] = (
        list(operands[0])
        if len(operands) == 1 and isinstance(operands[0], list | tuple)
        else list(operands)
    )
    terms, output, sizes = meta_nn.einsum(equation, tensors)
    out = meta.result_type(*tensors)
    shape = tuple(sizes[c] for c in output)
    if is_fake(*tensors):
        return _fake(shape, out, *tensors)
    data = [kernels.convert(t._values(), t._dtype, out) for t in tensors]
    values = kernels.einsum(data, terms, output, sizes)
    return Tensor._make(_store(values, out, True), shape, out, _grad(out, *tensors))


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias, over any leading dims of `input`."""
    w_t = aten.transpose(weight, 0, 1) if len(weight._shape) == 2 else weight
    if len(input._shape) <= 2:
        out = aten.matmul(input, w_t)
    else:
        flat = aten.reshape(input, (-1, input._shape[-1]))
        product = aten.matmul(flat, w_t)
        out = aten.reshape(product, (*input._shape[:-1], *product._shape[1:]))
    return out if bias is None else aten.add(out, bias)


# ---------------------------------------------------------------- shapes


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if not input._shape:
        return aten.reshape(input, (1,))
    ndim = len(input._shape)
    start, end = meta.wrap_dim(start_dim, ndim), meta.wrap_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    middle = meta.numel(input._shape[start : end + 1])
    return aten.reshape(input, (*input._shape[:start], middle, *input._shape[end + 1 :]))


def expand(input: Tensor, sizes: Sequence[int]) -> Tensor:
    """A view repeating size-1 dims (no copy: writing it writes the base)."""
    shape = meta_nn.expand(input, tuple(sizes))
    padded = (1,) * (len(shape) - len(input._shape)) + input._shape
    order = kernels.expand(list(range(meta.numel(input._shape))), padded, shape)
    return input._view_as(shape, order, input.requires_grad)


def repeat(input: Tensor, repeats: Sequence[int]) -> Tensor:
    """A copy tiling the tensor `repeats[i]` times along dim i."""
    shape = meta_nn.repeat(input, tuple(repeats))
    padded = (1,) * (len(repeats) - len(input._shape)) + input._shape
    interleaved = tuple(x for s in padded for x in (1, s))
    tiled = tuple(x for s, r in zip(padded, repeats, strict=True) for x in (r, s))
    view = expand(aten.reshape(input, interleaved), tiled)
    return aten.reshape(aten.clone(view), shape)


def split(
    tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0
) -> tuple[Tensor, ...]:
    """Views of consecutive pieces along `dim`."""
    d, sizes = meta_nn.split_sizes(tensor, split_size_or_sections, dim)
    before = (slice(None),) * d
    pieces = []
    start = 0
    for size in sizes:
        pieces.append(aten.getitem(tensor, (*before, slice(start, start + size))))
        start += size
    return tuple(pieces)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    size = meta_nn.chunk_size(input, chunks, dim)
    if size == 0:
        return tuple(split(input, 0, dim)) if chunks else ()
    return split(input, size, dim)


# ---------------------------------------------------------------- normalization, embedding


def layer_norm(
    input: Tensor,
    normalized_shape: Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """(x - mean) / sqrt(biased variance + eps) over the trailing dims, then * weight + bias."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    dims = meta_nn.layer_norm(input, shape)
    centered = aten.sub(input, aten.mean(input, dims, True))
    variance = aten.mean(aten.mul(centered, centered), dims, True)
    out = aten.mul(centered, rsqrt(aten.add(variance, eps)))
    if weight is not None:
        out = aten.mul(out, weight)
    return out if bias is None else aten.add(out, bias)


def embedding(input: Tensor, weight: Tensor) -> Tensor:
    """Row `i` of `weight` for each index `i` in `input`."""
    shape = meta_nn.embedding(input, weight)
    if is_fake(input, weight):
        return _fake(shape, weight._dtype, weight)
    rows, width = weight._shape
    data = weight._values()
    values: list[Any] = []
    for i in input._values():
        if not 0 <= i < rows:
            raise IndexError("index out of range in self")
        values.extend(data[i * width : (i + 1) * width])
    return Tensor._make(values, shape, weight._dtype, _grad(weight._dtype, weight))


def pad(
    input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
) -> Tensor:
    """Constant padding (`pad` lists (before, after) pairs from the last dim backwards;
    negative amounts crop)."""
    per_dim = meta_nn.pad(input, pad, mode)
    shape = tuple(s + b + a for s, (b, a) in zip(input._shape, per_dim, strict=True))
    if input._data is None:
        return _fake(shape, input._dtype, input)
    fill = kernels.convert_scalar(0 if value is None else value, input._dtype)
    data = input._data
    strides = meta.contiguous_strides(input._shape)
    values = []
    for out_index in itertools.product(*(range(s) for s in shape)):
        offset = 0
        for o, (before, _), size, stride in zip(
            out_index, per_dim, input._shape, strides, strict=True
        ):
            source = o - before
            if not 0 <= source < size:
                break
            offset += source * stride
        else:
            values.append(data[offset])
            continue
        values.append(fill)
    return Tensor._make(values, shape, input._dtype, _grad(input._dtype, input))


# ---------------------------------------------------------------- losses and dropout


def _reduce_loss(losses: Tensor, reduction: str) -> Tensor:
    meta_nn.loss_reduction(losses._shape, reduction)
    if reduction == "none":
        return losses
    return aten.sum(losses) if reduction == "sum" else aten.mean(losses)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    diff = aten.sub(input, target)
    return _reduce_loss(aten.mul(diff, diff), reduction)


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Negative log-likelihood of class indices `target` under softmax(`input`) along dim 1
    (or dim 0 for a single unbatched sample); `weight` and `label_smoothing` are not
    supported."""
    if weight is not None or label_smoothing:
        raise NotImplementedError("modetrace cross_entropy supports no weight or label smoothing")
    if target._dtype is not dt.int64:
        raise NotImplementedError("modetrace cross_entropy supports class-index targets only")
    class_dim = 1 if len(input._shape) >= 2 else 0
    log_probs = log_softmax(input, class_dim)
    meta_nn.loss_reduction((), reduction)
    picked_shape = target._shape
    if is_fake(log_probs, target):
        shape = picked_shape if reduction == "none" else ()
        return _fake(shape, input._dtype, input)
    if len(input._shape) > 2:
        raise NotImplementedError("modetrace cross_entropy supports (N, C) or (C,) inputs only")
    classes = input._shape[class_dim]
    data = log_probs._values()
    losses, kept = [], 0
    for row, t in enumerate(target._values() if class_dim else [target._values()[0]]):
        if t == ignore_index:
            losses.append(0.0)
            continue
        if not 0 <= t < classes:
            raise IndexError(f"Target {t} is out of bounds.")
        losses.append(-data[row * classes + t])
        kept += 1
    out = input._dtype
    grad = _grad(out, input)
    if reduction == "none":
        return Tensor._make(_store(losses, out, True), picked_shape, out, grad)
    total = math.fsum(losses)
    value = total if reduction == "sum" else (total / kept if kept else math.nan)
    return Tensor._make(_store([value], out, True), (), out, grad)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Training: each element zeroed with probability `p` (drawn from the generator
    `manual_seed` seeds), the rest scaled by 1/(1-p); otherwise `input` itself."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training:
        return input
    if input._data is None:
        return _fake(input._shape, input._dtype, input)
    keep = bernoulli_mask(meta.numel(input._shape), 1.0 - p)
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    values = [x * scale if k else 0.0 * x for x, k in zip(input._data, keep, strict=True)]
    result = Tensor._make(
        _store(values, input._dtype, True), input._shape, input._dtype, _grad(input._dtype, input)
    )
    if inplace:
        input._write(result._data)
        return input
    return result
