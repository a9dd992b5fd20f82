"""Tensor factories (`tensor`, `zeros`, `arange`, `rand`...): the mode-free implementations.

`tensor()` infers bool, then int64, then the default float32 from the Python values, as torch
does. Random factories draw from one module-level `random.Random`; `manual_seed` reseeds it, so
samples are reproducible. `*_like` factories of a FakeTensor return a FakeTensor.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from tracer.runtime import dtypes as dt
from tracer.runtime import kernels, meta
from tracer.runtime.dtypes import Scalar, dtype
from tracer.runtime.fake import FakeTensor
from tracer.runtime.tensor import Tensor

# torch's default generator starts from this seed, so unseeded runs repeat too.
DEFAULT_SEED = 67280421310721
_RNG = random.Random(DEFAULT_SEED)
_BELOW_ONE_F32 = 1.0 - 2.0**-24


def _shape(size: Sequence[Any]) -> meta.Shape:
    shape = meta.size_args(size)
    for s in shape:
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {meta.format_shape(shape)}"
            )
    return shape


def _filled(shape: meta.Shape, value: Scalar, dtype: dtype, requires_grad: bool) -> Tensor:
    stored = kernels.convert_scalar(value, dtype)
    return Tensor._make([stored] * meta.numel(shape), shape, dtype, requires_grad)


# ---------------------------------------------------------------- from Python data


def _flatten(data: Any, depth: int, out: list[Any]) -> meta.Shape:
    """Append the scalars of nested sequences to `out`; return the shape they form."""
    if isinstance(data, Tensor):
        out.extend(data._values())
        return data._shape
    if not isinstance(data, list | tuple):
        out.append(data)
        return ()
    if not data:
        return (0,)
    inner = _flatten(data[0], depth + 1, out)
    for item in data[1:]:
        got = _flatten(item, depth + 1, out)
        if got != inner:
            expected = inner[0] if inner else "a scalar"
            found = got[0] if got else "a scalar"
            raise ValueError(
                f"expected sequence of length {expected} at dim {depth + 1} (got {found})"
            )
    return (len(data), *inner)


def _infer_dtype(values: list[Any]) -> dtype:
    kinds = {dt.scalar_dtype(v).category for v in values}
    if not kinds or dt.FLOATING in kinds:
        return dt.float32
    return dt.int64 if dt.INTEGRAL in kinds else dt.bool_


def tensor(data: Any, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    if isinstance(data, Tensor) and data._data is None:
        return FakeTensor(data._shape, dtype or data._dtype, requires_grad)
    values: list[Any] = []
    shape = _flatten(data, 0, values)
    if isinstance(data, Tensor) and dtype is None:
        dtype = data._dtype
    target = dtype or _infer_dtype(values)
    return Tensor._make(kernels.coerce(values, target), shape, target, requires_grad)


# ---------------------------------------------------------------- filled


def zeros(*size: Any, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _filled(_shape(size), 0, dtype or dt.float32, requires_grad)


def ones(*size: Any, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _filled(_shape(size), 1, dtype or dt.float32, requires_grad)


def full(
    size: Sequence[int],
    fill_value: Scalar,
    *,
    dtype: dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    return _filled(_shape([size]), fill_value, dtype or dt.scalar_dtype(fill_value), requires_grad)


def arange(
    start: Scalar,
    end: Scalar | None = None,
    step: Scalar = 1,
    *,
    dtype: dtype | None = None,
    requires_grad: bool = False,
) -> Tensor:
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    integral = all(isinstance(v, int) for v in (start, end, step))
    target = dtype or (dt.int64 if integral else dt.float32)
    n = -((start - end) // step) if integral else math.ceil((end - start) / step)
    values = [start + i * step for i in range(int(n))]
    return Tensor._make(kernels.coerce(values, target), (int(n),), target, requires_grad)


def _like(input: Tensor, value: Scalar, dtype: dtype | None, requires_grad: bool) -> Tensor:
    target = dtype or input._dtype
    if input._data is None:
        return FakeTensor(input._shape, target, requires_grad)
    return _filled(input._shape, value, target, requires_grad)


def zeros_like(input: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _like(input, 0, dtype, requires_grad)


def ones_like(input: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _like(input, 1, dtype, requires_grad)


def empty_like(input: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Zeros: modetrace has no uninitialized memory to hand out."""
    return _like(input, 0, dtype, requires_grad)


# ---------------------------------------------------------------- random


def manual_seed(seed: int) -> random.Random:
    _RNG.seed(seed)
    return _RNG


def _random(size: Sequence[Any], dtype: dtype | None, draw: Any, grad: bool) -> Tensor:
    shape = _shape(size)
    target = dtype or dt.float32
    _check_uniform(target)
    values = kernels.coerce([draw() for _ in range(meta.numel(shape))], target)
    return Tensor._make(values, shape, target, grad)


def rand(*size: Any, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Uniform on [0, 1): float32 rounding could reach 1.0, so those draws are clamped below."""
    t = _random(size, dtype, _RNG.random, requires_grad)
    if t._data is not None and t._dtype is dt.float32:
        t._data = [min(v, _BELOW_ONE_F32) for v in t._data]
    return t


def randn(*size: Any, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    return _random(size, dtype, lambda: _RNG.gauss(0.0, 1.0), requires_grad)


def _check_uniform(target: dtype) -> None:
    if not target.is_floating_point:
        raise RuntimeError(f"\"check_uniform_bounds\" not implemented for '{target.short_name}'")


def rand_like(input: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    _check_uniform(dtype or input._dtype)
    if input._data is None:
        return FakeTensor(input._shape, dtype or input._dtype, requires_grad)
    return rand(*input._shape, dtype=dtype or input._dtype, requires_grad=requires_grad)


def randn_like(input: Tensor, *, dtype: dtype | None = None, requires_grad: bool = False) -> Tensor:
    _check_uniform(dtype or input._dtype)
    if input._data is None:
        return FakeTensor(input._shape, dtype or input._dtype, requires_grad)
    return randn(*input._shape, dtype=dtype or input._dtype, requires_grad=requires_grad)


def bernoulli_mask(n: int, keep: float) -> list[bool]:
    """n draws, each True with probability `keep` (dropout's mask)."""
    return [_RNG.random() < keep for _ in range(n)]


def uniform_values(n: int, low: float, high: float) -> list[float]:
    """n draws uniform on [low, high) (`nn.init.uniform_`)."""
    return [low + (high - low) * _RNG.random() for _ in range(n)]


def normal_values(n: int, mean: float, std: float) -> list[float]:
    """n draws from a normal distribution (`nn.init.normal_`)."""
    return [_RNG.gauss(mean, std) for _ in range(n)]
