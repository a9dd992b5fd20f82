"""Hypothesis strategies and numpy bridges shared by the runtime tests."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tracer.runtime as torch

# The runtime's property tests each cover one op family with many parametrizations; a third of
# the profile's examples per test keeps the directory within its time budget in every profile.
scaled = settings(max_examples=max(10, settings().max_examples // 3))

NP_DTYPE = {
    torch.float32: np.float32,
    torch.float64: np.float64,
    torch.int64: np.int64,
    torch.bool: np.bool_,
}
DTYPES = list(NP_DTYPE)

shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
nonempty_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)


def elements(dtype: torch.dtype, *, finite: bool = False) -> st.SearchStrategy[Any]:
    """Values of a dtype; ints stay small enough that products never leave int64."""
    if dtype is torch.float32:
        return st.floats(width=32, allow_nan=not finite, allow_infinity=not finite)
    if dtype is torch.float64:
        return st.floats(allow_nan=not finite, allow_infinity=not finite)
    if dtype is torch.int64:
        return st.integers(-(2**20), 2**20)
    return st.booleans()


def arrays(
    dtype: torch.dtype, shape: Any = shapes, *, finite: bool = False, elems: Any = None
) -> st.SearchStrategy[np.ndarray[Any, Any]]:
    return hnp.arrays(
        NP_DTYPE[dtype], shape, elements=elements(dtype, finite=finite) if elems is None else elems
    )


def from_numpy(a: np.ndarray[Any, Any]) -> torch.Tensor:
    dtype = {v: k for k, v in NP_DTYPE.items()}[a.dtype.type]
    return torch.tensor(a.ravel().tolist(), dtype=dtype).reshape(a.shape)


def to_numpy(t: torch.Tensor) -> np.ndarray[Any, Any]:
    return np.array(t.reshape(-1).tolist(), dtype=NP_DTYPE[t.dtype]).reshape(tuple(t.shape))


def assert_same_array(t: torch.Tensor, expected: np.ndarray[Any, Any]) -> None:
    """Bit-for-bit agreement (NaNs in the same places) with the numpy oracle."""
    got = to_numpy(t)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(got, expected)


def assert_close_array(
    t: torch.Tensor, expected: np.ndarray[Any, Any], rtol: float = 2e-6, atol: float = 1e-6
) -> None:
    got = to_numpy(t)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)


@st.composite
def broadcastable_pair(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shapes_, _ = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    return shapes_[0], shapes_[1]


@st.composite
def dims_of(draw: st.DrawFn, ndim: int) -> int | tuple[int, ...] | None:
    """A reduction `dim` argument: None, one (possibly negative) dim, or a tuple of them."""
    if ndim == 0:
        return draw(st.sampled_from([None, 0, -1, ()]))
    choice = draw(st.sampled_from(["none", "int", "tuple"]))
    if choice == "none":
        return None
    if choice == "int":
        return draw(st.integers(-ndim, ndim - 1))
    picked = draw(st.lists(st.integers(0, ndim - 1), unique=True, min_size=1, max_size=ndim))
    return tuple(d - ndim if draw(st.booleans()) else d for d in picked)


def bits(value: Any) -> Any:
    """A float by its bits (so -0.0 differs from 0.0, and NaNs with the same payload compare
    equal); anything else by its type and value: results compared bit for bit."""
    return ("f", struct.pack("<d", value)) if type(value) is float else (type(value), value)
