"""The runtime's shortcuts for the commonest real-tensor ops (aten._plain_binary, the plain
arms of aten._unary_float and aten.matmul, kernels.sigmoid_all, the repeat-based
kernels.elementwise and the sliced kernels.matmul) must give what the general path gives, bit for
bit: same values (NaNs, infinities and the sign of zero included), dtype, shape, requires_grad
and type, or the same error. Each op runs twice, once with the shortcuts turned off."""

from __future__ import annotations

import contextlib
import math
import operator
from collections.abc import Iterator
from typing import Any
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.runtime.strategies import bits
from tracer.runtime import aten, kernels
from tracer.runtime import dtypes as dt
from tracer.runtime.fake import FakeTensor
from tracer.runtime.tensor import Tensor

from .strategies import scaled

DTYPES = [dt.float32, dt.float32, dt.float64, dt.int64, dt.bool_]
SHAPES = [(), (1,), (3,), (3,), (2, 3), (3, 2), (3, 3), (0,), (1, 3)]
SPECIAL = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e308, -1e-310, 3.4e38, 1.5, -2.0, 7]
NUMBERS = st.one_of(
    st.sampled_from([*SPECIAL, 0, 1, -3, True, False, 2**70, -(2**2000)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**40), 2**40),
)


def values_of(dtype: dt.dtype) -> st.SearchStrategy[Any]:
    if dtype.is_floating_point:
        return st.one_of(st.sampled_from(SPECIAL), st.floats(allow_nan=True))
    if dtype is dt.int64:
        return st.integers(-(2**20), 2**20)
    return st.booleans()


@st.composite
def tensors(draw: st.DrawFn, shape: tuple[int, ...] | None = None, fake: bool = True) -> Any:
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from(SHAPES)) if shape is None else shape
    grad = dtype.is_floating_point and draw(st.booleans())
    if fake and draw(st.integers(0, 9)) == 0:
        return FakeTensor(shape, dtype, grad)
    values = [draw(values_of(dtype)) for _ in range(math.prod(shape))]
    return Tensor(values, shape, dtype, grad)


def outcome(fn: Any, *args: Any) -> Any:
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001
        return ("raises", type(e), str(e))
    data = None if result._data is None else [bits(v) for v in result._data]
    return (type(result), result._shape, result._dtype, result.requires_grad, data)


@contextlib.contextmanager
def general_path() -> Iterator[None]:
    """The shortcuts off."""
    with (
        mock.patch.object(aten, "_plain_binary", lambda *a: None),
        mock.patch.object(aten, "_plain_unary_float", lambda *a: None),
        mock.patch.object(aten, "_plain_matmul", lambda *a: None),
        mock.patch.object(kernels, "UNARY_FLOAT_LISTS", {}),
    ):
        yield


def both(fn: Any, *args: Any) -> tuple[Any, Any]:
    fast = outcome(fn, *args)
    with general_path():
        general = outcome(fn, *args)
    return fast, general


BINARY = [aten.add, aten.sub, aten.mul, aten.div, torch.add, operator.add, operator.truediv]


@scaled
@given(st.sampled_from(BINARY), st.data())
def test_plain_binary_is_the_general_path(fn: Any, data: st.DataObject) -> None:
    a = data.draw(tensors())
    same_shape = data.draw(tensors(a._shape))
    b = data.draw(st.one_of(st.just(same_shape), tensors(), NUMBERS))
    if data.draw(st.booleans()):
        a, b = b, a
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = data.draw(tensors())
    fast, general = both(fn, a, b)
    assert fast == general


@scaled
@given(st.sampled_from(["exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid"]), tensors())
def test_plain_unary_is_the_general_path(name: str, x: Any) -> None:
    fn = getattr(aten, name)
    fast, general = both(fn, x)
    assert fast == general


@scaled
@given(st.data())
def test_plain_matmul_is_the_general_path(data: st.DataObject) -> None:
    n, k, m = (data.draw(st.integers(0, 4)) for _ in range(3))
    a = data.draw(tensors(data.draw(st.sampled_from([(n, k), (k,), (n, k + 1)]))))
    b = data.draw(tensors(data.draw(st.sampled_from([(k, m), (k,), (k, m)]))))
    fast, general = both(aten.matmul, a, b)
    assert fast == general


def test_shortcuts_are_taken_for_the_plain_cases() -> None:
    """They must not silently answer nothing."""
    x, y = Tensor([1.0, 2.0], (2,), dt.float32), Tensor([3.0, 4.0], (2,), dt.float32)
    assert aten._plain_binary(operator.add, x, y) is not None
    assert aten._plain_binary(operator.mul, 2, x) is not None
    m = Tensor([1.0, 2.0, 3.0, 4.0], (2, 2), dt.float64)
    with mock.patch.object(aten.meta, "matmul", side_effect=AssertionError("general path")):
        aten.matmul(m, m)
    with mock.patch.object(aten.meta, "unary_float", side_effect=AssertionError("general path")):
        aten.sigmoid(x)


def old_matmul(a: list[Any], b: list[Any], n: int, k: int, m: int) -> list[Any]:
    rows = [a[i * k : (i + 1) * k] for i in range(n)]
    cols = [b[j::m] for j in range(m)]
    return [sum(map(operator.mul, row, col)) for row in rows for col in cols]


def old_elementwise(fn: Any, a: Any, b: Any, n: int) -> list[Any]:
    if isinstance(a, list):
        if isinstance(b, list):
            return list(map(fn, a, b))
        return [fn(x, b) for x in a]
    if isinstance(b, list):
        return [fn(a, y) for y in b]
    return [fn(a, b)] * n


ELEMENTS = st.one_of(st.sampled_from(SPECIAL), st.floats(), st.integers(-9, 9), st.booleans())


@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4), st.data())
def test_matmul_kernel_is_the_old_kernel(n: int, k: int, m: int, data: st.DataObject) -> None:
    a = data.draw(st.lists(ELEMENTS, min_size=n * k, max_size=n * k))
    b = data.draw(st.lists(ELEMENTS, min_size=k * m, max_size=k * m))
    assert [bits(v) for v in kernels.matmul(a, b, n, k, m)] == [
        bits(v) for v in old_matmul(a, b, n, k, m)
    ]


@given(
    st.sampled_from([operator.add, operator.sub, operator.mul, kernels.div, kernels.maximum]),
    st.one_of(st.lists(ELEMENTS, min_size=3, max_size=3), ELEMENTS),
    st.one_of(st.lists(ELEMENTS, min_size=3, max_size=3), ELEMENTS),
)
def test_elementwise_kernel_is_the_old_kernel(fn: Any, a: Any, b: Any) -> None:
    assert [bits(v) for v in kernels.elementwise(fn, a, b, 3)] == [
        bits(v) for v in old_elementwise(fn, a, b, 3)
    ]


@given(st.lists(st.one_of(st.sampled_from(SPECIAL), st.floats(), st.floats(-800, 800))))
def test_sigmoid_all_is_sigmoid_per_element(xs: list[float]) -> None:
    assert [bits(v) for v in kernels.sigmoid_all(xs)] == [bits(kernels.sigmoid(x)) for x in xs]
