"""Kernels on the values that break naive arithmetic, against independent references kept here:
NaNs of every sign and payload, infinities, -0.0, float64 and float32 subnormals, values at and
past float32's range, ints past 2**53 and past float's range, and bools. Floats are compared by
their bits (and type); errors by type and message."""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.runtime.strategies import bits
from tracer.runtime import kernels, meta

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


def outcome(fn: Any, *args: Any) -> Any:
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001
        return ("raises", type(e), str(e))
    return [bits(v) for v in result]


def sums_outcome(fn: Any, *args: Any) -> Any:
    """`outcome`, with every NaN alike: which operand's payload a NaN + NaN keeps depends on
    how the C compiler ordered the addition, in `sum` and in `float.__add__` alike."""
    found = outcome(fn, *args)
    if isinstance(found, tuple):
        return found
    return ["nan" if b[0] == "f" and (v := struct.unpack("<d", b[1])[0]) != v else b for b in found]


# ---------------------------------------------------------------- round_f32


def numpy_float32(values: list[float]) -> list[float]:
    """The reference: numpy's conversion of doubles to float32, read back as doubles."""
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN are expected here
        result: list[float] = np.array(values, dtype=np.float64).astype(np.float32).tolist()
    return result


@given(st.lists(FLOATS, max_size=300))
@example([math.nan] * 40)
@example([1e39] * 32)
def test_round_f32_is_numpys_float32(values: list[float]) -> None:
    assert outcome(kernels.round_f32, values) == outcome(numpy_float32, values)


@pytest.mark.parametrize("value", SPECIAL_INTS + [True, False])
def test_round_f32_of_ints_is_the_rounding_of_their_float(value: int) -> None:
    """An int is rounded as its nearest double is; one past float's range cannot be stored."""
    try:
        as_double = float(value)
    except OverflowError:
        with pytest.raises(OverflowError):
            kernels.round_f32([value])
        return
    assert outcome(kernels.round_f32, [value]) == outcome(numpy_float32, [as_double])


def test_round_f32_refuses_non_numbers() -> None:
    with pytest.raises(TypeError):
        kernels.round_f32([0.5, "x"])


# ---------------------------------------------------------------- matmul


def textbook_matmul(a: list[Any], b: list[Any], n: int, k: int, m: int) -> list[Any]:
    """out[i, j] = a[i, 0] * b[0, j] + ... + a[i, k-1] * b[k-1, j], summed left to right from 0."""
    out = []
    for i in range(n):
        for j in range(m):
            acc: Any = 0
            for p in range(k):
                acc = acc + a[i * k + p] * b[p * m + j]
            out.append(acc)
    return out


@given(st.integers(0, 5), st.integers(0, 9), st.integers(0, 5), st.data())
def test_matmul_is_the_textbook_sum_on_floats(n: int, k: int, m: int, data: st.DataObject) -> None:
    a = data.draw(st.lists(FLOATS, min_size=n * k, max_size=n * k))
    b = data.draw(st.lists(FLOATS, min_size=k * m, max_size=k * m))
    assert sums_outcome(kernels.matmul, a, b, n, k, m) == sums_outcome(
        textbook_matmul, a, b, n, k, m
    )


@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4), st.data())
def test_matmul_is_the_textbook_sum_on_numbers(n: int, k: int, m: int, data: st.DataObject) -> None:
    a = data.draw(st.lists(NUMBERS, min_size=n * k, max_size=n * k))
    b = data.draw(st.lists(NUMBERS, min_size=k * m, max_size=k * m))
    assert sums_outcome(kernels.matmul, a, b, n, k, m) == sums_outcome(
        textbook_matmul, a, b, n, k, m
    )


def test_matmul_does_not_compensate_rounding() -> None:
    """1e16 + 1.0 rounds to 1e16, so the textbook sum is 0.0 on every version; 3.12's `sum`
    compensates and would give 1.0 (the kernel used it before)."""
    a = [1e16, 1.0, -1e16]
    assert kernels.matmul(a, [1.0, 1.0, 1.0], 1, 3, 1) == textbook_matmul(a, [1.0] * 3, 1, 3, 1)
    assert kernels.matmul(a, [1.0, 1.0, 1.0], 1, 3, 1) == [0.0]


def test_float_matmul_of_minus_zeros_is_plus_zero() -> None:
    """Products that are all -0.0 sum to 0.0 (the sum starts from 0), not -0.0."""
    assert bits(kernels.matmul([-0.0, 0.0], [0.0, -0.0], 1, 2, 1)[0]) == bits(0.0)


# ---------------------------------------------------------------- promotion


def test_result_type_refuses_a_non_number_operand() -> None:
    with pytest.raises(TypeError, match="expected a Tensor or a Python number"):
        meta.result_type(torch.ones(2), "x")


# ---------------------------------------------------------------- amax


def reference_amax(values: list[Any]) -> Any:
    """NaN if any value is NaN, else the first of the largest values (as `max` picks)."""
    if any(math.isnan(v) for v in values):
        return math.nan
    largest = values[0]
    for v in values[1:]:
        largest = max(largest, v)  # the first of equal values stays
    return largest


@given(st.lists(FLOATS, min_size=1, max_size=40))
@example([1.0, math.nan])  # a NaN after the first element: `max` alone would skip it
@example([1.7976931348623157e308, 1.7976931348623157e308, -math.inf])  # NaN sum, no NaN
@example([math.inf, -math.inf, 0.0])
@example([-0.0, 0.0])
def test_amax_is_nan_exactly_when_a_value_is(values: list[float]) -> None:
    assert [bits(kernels.amax(values))] == [bits(reference_amax(values))]


@given(st.lists(st.one_of(st.integers(-(2**63), 2**63 - 1), st.booleans()), min_size=1))
def test_amax_of_ints_and_bools(values: list[int]) -> None:
    assert [bits(kernels.amax(values))] == [bits(reference_amax(values))]
