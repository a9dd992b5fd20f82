"""The runtime's cheaper kernels against copies of the versions they replaced (kept here as the
reference), bit for bit on generated inputs with special values: NaNs of every sign and payload,
infinities, -0.0, float64 and float32 subnormals, values at and past float32's range, ints past
2**53 and past float's range, bools, and data long enough for each route of `round_f32`.
Results are compared by their bits (and type); errors by type and message."""

from __future__ import annotations

import math
import operator
import struct
from array import array
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from tests.runtime.strategies import bits
from tracer.runtime import aten, kernels
from tracer.runtime import dtypes as dt
from tracer.runtime.dtypes import Scalar, dtype
from tracer.runtime.fake import FakeTensor
from tracer.runtime.tensor import Tensor

# ---------------------------------------------------------------- the replaced versions


def main_round_f32(values: Any) -> list[Any]:
    return array("f", values).tolist()


_MAIN_COERCE: dict[dtype, Any] = {
    dt.float32: main_round_f32,
    dt.float64: lambda v: [float(x) for x in v],
    dt.int64: lambda v: [x if type(x) is int else kernels._to_int(x) for x in v],
    dt.bool_: lambda v: [bool(x) for x in v],
}


def main_convert_scalar(value: Scalar, dst: dtype) -> Scalar:
    result: Scalar = _MAIN_COERCE[dst]([value])[0]
    return result


def main_matmul(a: list[Any], b: list[Any], n: int, k: int, m: int) -> list[Any]:
    if k == 0:
        return [0] * (n * m)
    rows = [a[i * k : (i + 1) * k] for i in range(n)]
    cols = [b[j::m] for j in range(m)]
    return [sum(map(operator.mul, row, col)) for row in rows for col in cols]


def main_relu(x: Tensor) -> Tensor:
    out = x._dtype
    if out is dt.bool_:
        return aten._unary(x, out, lambda d: d)
    zero = 0.0 if out.is_floating_point else 0
    return aten._unary(x, out, lambda d: [v if v > 0 or v != v else zero for v in d])  # noqa: PLR0124


def main_sum_all(x: Tensor) -> Tensor:
    """The general reduction, which the whole-tensor float sum used to take."""
    dims = tuple(range(len(x._shape)))
    return aten._reduce(x, dims, aten.meta.sum(x, dims, False), kernels.total, True)


# ---------------------------------------------------------------- inputs


def _from_bits(pattern: int) -> float:
    value: float = struct.unpack("<d", pattern.to_bytes(8, "little"))[0]
    return value


NANS = [
    _from_bits(p)
    for p in (
        0x7FF8000000000000,  # the usual quiet NaN
        0xFFF8000000000000,  # negative
        0x7FF0000000000001,  # signaling, smallest payload
        0x7FF4000000000000,  # signaling, payload in float32's bits
        0x7FFFFFFFFFFFFFFF,  # largest payload
        0xFFF0DEADBEEF0001,  # negative signaling with a payload
    )
]
F32_MAX = 3.4028234663852886e38
SPECIAL_FLOATS = [
    *NANS,
    0.0,
    -0.0,
    math.inf,
    -math.inf,
    5e-324,  # smallest float64 subnormal: float32 0.0
    -2.2250738585072014e-308,
    1.401298464324817e-45,  # smallest float32 subnormal
    7.006492321624085e-46,  # half of it: a tie, to even (0)
    1.0000001e-45,
    1.1754942106924411e-38,  # largest float32 subnormal
    F32_MAX,
    -F32_MAX,
    3.4028235677973366e38,  # past float32's max by less than half an ulp: rounds to it
    3.4028235677973367e38,  # the halfway point: rounds to inf
    1e39,
    -1e300,
    1.7976931348623157e308,
    0.1,
    1.0 + 2.0**-24,  # a tie between float32 neighbours
    1.0 + 3 * 2.0**-24,
]
SPECIAL_INTS = [
    0,
    1,
    -1,
    2**24,
    2**24 + 1,
    -(2**24) - 1,
    2**53 + 1,
    2**127,
    2**128,
    2**128 - 2**103,  # float32's max exactly
    2**1023,
    2**1024,  # past float's range: OverflowError
    -(2**2000),
]
FLOATS = st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(), st.floats(width=32))
NUMBERS = st.one_of(
    FLOATS,
    st.sampled_from(SPECIAL_INTS),
    st.integers(-(2**60), 2**60),
    st.integers(-(2**25), 2**25),
    st.booleans(),
)
# Sizes on both sides of the packing threshold, and up to a few hundred values.
SIZES = st.one_of(
    st.integers(0, 8),
    st.integers(kernels.PACKED_FROM - 2, kernels.PACKED_FROM + 2),
    st.integers(0, 300),
)


def outcome(fn: Any, *args: Any) -> Any:
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001
        return ("raises", type(e), str(e))
    if isinstance(result, Tensor):
        data = None if result._data is None else [bits(v) for v in result._data]
        return (type(result), result._shape, result._dtype, result.requires_grad, data)
    if isinstance(result, list):
        return [bits(v) for v in result]
    return bits(result)


@st.composite
def number_lists(draw: st.DrawFn, elements: st.SearchStrategy[Any] = NUMBERS) -> list[Any]:
    return draw(st.lists(elements, min_size=(n := draw(SIZES)), max_size=n))


# ---------------------------------------------------------------- round_f32


@given(number_lists())
@example([math.nan] * 40)
@example([2**1024] * 40)
@example([0.5] * 39 + [2**1024])
@example([1e39] * 32)
def test_round_f32_is_mains(values: list[Any]) -> None:
    assert outcome(kernels.round_f32, values) == outcome(main_round_f32, values)


@given(number_lists(FLOATS))
def test_round_f32_floats_is_mains(values: list[float]) -> None:
    n = len(values)
    assert outcome(kernels.round_f32_floats, n, iter(values)) == outcome(main_round_f32, values)
    assert outcome(kernels.round_f32_floats, n, tuple(values)) == outcome(main_round_f32, values)


@given(st.lists(st.one_of(NUMBERS, st.sampled_from(["x", None, 1j, b"1"])), min_size=32))
def test_round_f32_errors_are_mains(values: list[Any]) -> None:
    """A value neither can store raises what `array` raises, on either route."""
    assert outcome(kernels.round_f32, values) == outcome(main_round_f32, values)


def test_round_f32_takes_both_routes() -> None:
    """The threshold is where the routes change (so the tests above see both)."""
    with_array = kernels.PACKED_FROM - 1
    assert kernels.round_f32([0.1] * with_array) == main_round_f32([0.1] * with_array)
    packed = struct.unpack
    calls: list[int] = []

    def spy(form: str, data: bytes) -> Any:
        calls.append(len(data))
        return packed(form, data)

    kernels.unpack = spy  # type: ignore[assignment]
    try:
        kernels.round_f32([0.1] * with_array)
        assert calls == []
        kernels.round_f32([0.1] * (with_array + 1))
        assert calls == [4 * (with_array + 1)]
    finally:
        kernels.unpack = packed  # type: ignore[assignment]


# ---------------------------------------------------------------- convert_scalar


@given(NUMBERS, st.sampled_from(dt.ALL_DTYPES))
@example(2**24, dt.float32)
@example(-(2**24), dt.float32)
@example(2**24 + 1, dt.float32)
@example(2**1024, dt.float32)
@example(2**1024, dt.float64)
@example(True, dt.float32)
def test_convert_scalar_is_mains(value: Scalar, dst: dtype) -> None:
    assert outcome(kernels.convert_scalar, value, dst) == outcome(main_convert_scalar, value, dst)


# ---------------------------------------------------------------- matmul


@given(st.integers(0, 5), st.integers(0, 9), st.integers(0, 5), st.data())
def test_matmul_from_a_float_start_is_mains_on_floats(
    n: int, k: int, m: int, data: st.DataObject
) -> None:
    """Stored float32 data is always Python floats: from 0.0 the sums are main's, bit for
    bit, before and after rounding."""
    a = data.draw(st.lists(FLOATS, min_size=n * k, max_size=n * k))
    b = data.draw(st.lists(FLOATS, min_size=k * m, max_size=k * m))
    new = kernels.matmul(a, b, n, k, m, 0.0)
    old = main_matmul(a, b, n, k, m)
    assert [bits(v) for v in new] == [bits(v) for v in old]
    assert outcome(main_round_f32, new) == outcome(main_round_f32, old)


@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4), st.data())
def test_matmul_from_int_start_is_mains(n: int, k: int, m: int, data: st.DataObject) -> None:
    a = data.draw(st.lists(NUMBERS, min_size=n * k, max_size=n * k))
    b = data.draw(st.lists(NUMBERS, min_size=k * m, max_size=k * m))
    assert outcome(kernels.matmul, a, b, n, k, m) == outcome(main_matmul, a, b, n, k, m)


def test_float_matmul_of_sums_to_minus_zero() -> None:
    """Products that are all -0.0 sum to 0.0 from 0 and from 0.0 alike (not -0.0)."""
    assert bits(kernels.matmul([-0.0, 0.0], [0.0, -0.0], 1, 2, 1, 0.0)[0]) == bits(0.0)


# ---------------------------------------------------------------- whole-tensor sum


@st.composite
def float_tensors(draw: st.DrawFn) -> Tensor:
    dtype = draw(st.sampled_from([dt.float32, dt.float64]))
    shape = draw(st.sampled_from([(), (0,), (1,), (3,), (2, 0), (2, 3), (40,), (5, 8)]))
    values = draw(st.lists(FLOATS, min_size=math.prod(shape), max_size=math.prod(shape)))
    return Tensor(values, shape, dtype, draw(st.booleans()))


@given(float_tensors())
def test_whole_float_sum_is_the_general_reduction(x: Tensor) -> None:
    assert outcome(aten.sum, x) == outcome(main_sum_all, x)
    assert outcome(lambda t: t.sum(), x) == outcome(main_sum_all, x)


# ---------------------------------------------------------------- relu


@st.composite
def any_tensors(draw: st.DrawFn) -> Tensor:
    dtype = draw(st.sampled_from(dt.ALL_DTYPES))
    shape = draw(st.sampled_from([(), (0,), (3,), (2, 3), (40,)]))
    grad = dtype.is_floating_point and draw(st.booleans())
    if draw(st.integers(0, 9)) == 0:
        return FakeTensor(shape, dtype, grad)
    elements = FLOATS if dtype.is_floating_point else NUMBERS
    values = draw(st.lists(elements, min_size=math.prod(shape), max_size=math.prod(shape)))
    return Tensor(values, shape, dtype, grad)


@given(any_tensors())
def test_relu_is_mains(x: Tensor) -> None:
    assert outcome(aten.relu, x) == outcome(main_relu, x)
