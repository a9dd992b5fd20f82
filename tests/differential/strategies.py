"""Small hypothesis strategies for the differential tests: runtime tensors, scalars, containers.

Tensors are small (at most 3 dims, sides 0-3, including 0-d) with finite values of moderate
magnitude, so every op stays finite-or-inf identically in eager and compiled runs.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

import tracer.runtime as torch

DTYPES = (torch.float32, torch.float64, torch.int64)
FLOAT_DTYPES = (torch.float32, torch.float64)

dtypes = st.sampled_from(DTYPES)
float_dtypes = st.sampled_from(FLOAT_DTYPES)

small_ints = st.integers(-8, 8)
nonzero_ints = st.integers(-8, 8).filter(bool)
shift_amounts = st.integers(0, 6)
floats = st.floats(-100.0, 100.0, allow_nan=False, allow_infinity=False)
small_floats = st.floats(-4.0, 4.0, allow_nan=False, allow_infinity=False)
scalars = st.one_of(small_ints, small_floats)
names = st.text(alphabet="abcxyz_", min_size=1, max_size=5)
words = st.text(alphabet="abc ,xyzABC", max_size=8)


def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 3) -> Any:
    return st.lists(st.integers(min_side, max_side), min_size=min_dims, max_size=max_dims).map(
        tuple
    )


def elements(dtype: torch.dtype) -> st.SearchStrategy[Any]:
    if dtype is torch.int64:
        return st.integers(-20, 20)
    if dtype is torch.float32:
        return st.floats(-50.0, 50.0, width=32, allow_nan=False, allow_infinity=False)
    return st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False)


@st.composite
def tensors(
    draw: st.DrawFn,
    dtype: Any = None,
    shape: Any = None,
    min_dims: int = 0,
    max_dims: int = 3,
    min_side: int = 0,
    max_side: int = 3,
) -> torch.Tensor:
    """A runtime tensor; `dtype`/`shape` may be fixed values or strategies."""
    if dtype is None:
        dtype = draw(dtypes)
    elif isinstance(dtype, st.SearchStrategy):
        dtype = draw(dtype)
    if shape is None:
        shape = draw(shapes(min_dims, max_dims, min_side, max_side))
    elif isinstance(shape, st.SearchStrategy):
        shape = draw(shape)
    n = math.prod(shape)
    values = draw(st.lists(elements(dtype), min_size=n, max_size=n))
    return torch.tensor(values, dtype=dtype).reshape(shape)


def float_tensors(**kwargs: Any) -> st.SearchStrategy[torch.Tensor]:
    return tensors(dtype=float_dtypes, **kwargs)


def nonempty_tensors(**kwargs: Any) -> st.SearchStrategy[torch.Tensor]:
    kwargs.setdefault("min_dims", 1)
    return tensors(min_side=1, **kwargs)


@st.composite
def broadcastable_shapes(draw: st.DrawFn, max_dims: int = 3) -> tuple[tuple[int, ...], ...]:
    """Two shapes that broadcast together (trailing dims equal, or one of them 1, or missing)."""
    full = draw(shapes(0, max_dims, 1, 3))
    out = []
    for _ in range(2):
        drop = draw(st.integers(0, len(full)))
        dims = [1 if draw(st.booleans()) else side for side in full[drop:]]
        out.append(tuple(dims))
    return out[0], out[1]


@st.composite
def broadcastable_pairs(
    draw: st.DrawFn, dtype: Any = None, same_dtype: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    a_shape, b_shape = draw(broadcastable_shapes())
    if dtype is None:
        dtype = dtypes
    da = draw(dtype) if isinstance(dtype, st.SearchStrategy) else dtype
    db = da if same_dtype else (draw(dtype) if isinstance(dtype, st.SearchStrategy) else dtype)
    return draw(tensors(dtype=da, shape=a_shape)), draw(tensors(dtype=db, shape=b_shape))


@st.composite
def matmul_pairs(draw: st.DrawFn, dtype: Any = None) -> tuple[torch.Tensor, torch.Tensor]:
    """(x, w) with x: (n, k) and w: (k, m) of one dtype."""
    d = draw(dtypes) if dtype is None else dtype
    n, k, m = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    x = draw(tensors(dtype=d, shape=(n, k)))
    w = draw(tensors(dtype=d, shape=(k, m)))
    return x, w


def tensor_lists(min_size: int = 0, max_size: int = 4, **kwargs: Any) -> Any:
    """A list of tensors of one shape and dtype (so they can be stacked and added)."""

    @st.composite
    def build(draw: st.DrawFn) -> list[torch.Tensor]:
        dtype = draw(dtypes)
        shape = draw(shapes(0, 2, 1, 3))
        n = draw(st.integers(min_size, max_size))
        return [draw(tensors(dtype=dtype, shape=shape, **kwargs)) for _ in range(n)]

    return build()


def mixed_lists(min_size: int = 0, max_size: int = 4) -> Any:
    """Short lists of tensors and scalars."""
    return st.lists(
        st.one_of(tensors(), small_ints, small_floats), min_size=min_size, max_size=max_size
    )


def mixed_tuples(min_size: int = 0, max_size: int = 4) -> Any:
    return mixed_lists(min_size, max_size).map(tuple)


def mixed_dicts(min_size: int = 0, max_size: int = 4) -> Any:
    """Short dicts with string keys and tensor or scalar values."""
    return st.dictionaries(
        names, st.one_of(tensors(), small_ints, small_floats), min_size=min_size, max_size=max_size
    )


def tensor_dicts(min_size: int = 1, max_size: int = 4) -> Any:
    """Dicts of same-shape, same-dtype tensors."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, torch.Tensor]:
        keys = draw(st.lists(names, min_size=min_size, max_size=max_size, unique=True))
        values = draw(tensor_lists(len(keys), len(keys)))
        return dict(zip(keys, values, strict=True))

    return build()
