"""Arithmetic on symbolic scalars (ints made dynamic by a recompile or `dynamic=True`, floats
under `specialize_float=False`) that raises, or changes type, for some values only (found by the
exactness hunt; `variables/sym.py`):

- a raise the example made was not guarded: `0 ** -2` raised on every later call, `0 ** 0` too;
- the graph runs before the side effects are replayed and outside the frame's handlers: `a // b`
  after `xs.append(a)` left `xs` unchanged (after a mode push, the stack), inside `try` it
  escaped the `except`;
- an unused `a // b` or `math.sqrt(x)` was dropped with the graph, so it never raised;
- `n ** e` is an int or a float by the sign of `e`, `min(n, x)` either operand's type, a
  negative float to a fractional power complex: the trace kept the example's type;
- a symbolic int passed to a tensor op other than arithmetic on it (`t[i]`, `t.reshape(i,
  -1)`, `torch.ones(i)`) fixed the result's static shape, or the op's error, by its example:
  `len(torch.ones(n))` returned the first value's length, `t[i]` named the first index.

Each function is compiled once and called with several arguments in turn, each call compared
with plain Python (`assert_same_behavior(..., compiled=...)`).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.runtime import _C
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import assert_same_behavior

AUTOMATIC: dict[str, Any] = {}
"""Default options: an int whose value changes becomes a graph input on the recompile."""
DYNAMIC: dict[str, Any] = {"dynamic": True, "specialize_float": False}


def check_calls(fn: Any, calls: list[tuple[Any, ...]], options: dict[str, Any]) -> None:
    compiled = tracer.compile(fn, **options)
    for args in calls:
        assert_same_behavior(fn, *args, compiled=compiled)


def power(a: int, b: int) -> Any:
    return a**b


def power_type(a: int, b: int) -> Any:
    r = a**b
    return type(r).__name__, r


def div_after_append(xs: list[int], a: int, b: int) -> Any:
    xs.append(a)
    return a // b


def div_in_try(xs: list[str], a: int, b: int) -> Any:
    try:
        return a // b
    except ZeroDivisionError as e:
        xs.append(str(e))
        return xs


class Recording(TorchFunctionMode):
    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


def div_after_push(a: int, b: int) -> Any:
    _C._push_on_torch_function_stack(Recording())
    return a // b


def unused_div(a: int, b: int) -> Any:
    a // b  # raises for b == 0, used or not
    return 1


def smaller_type(a: int, x: float) -> Any:
    return type(min(a, x)).__name__


def unused_sqrt(x: float) -> Any:
    math.sqrt(x)
    return 1


def float_power_type(x: float, y: float) -> Any:
    return type(x**y).__name__


INT_CASES = [
    (power, [(0, 3), (0, -2), (0, 0), (0, 1)]),
    (power, [(0, -2), (0, 0)]),
    (power_type, [(2, 3), (2, 4), (2, -1)]),
    (div_after_append, [([], 1, 2), ([], 3, 4), ([], 1, 0)]),
    (div_in_try, [([], 1, 2), ([], 3, 4), ([], 1, 0)]),
    (div_after_push, [(1, 2), (3, 4), (1, 0)]),
    (unused_div, [(1, 2), (3, 4), (1, 0)]),
    (smaller_type, [(1, 2.0), (3, 2.5), (1, 0.5)]),
]


@pytest.mark.parametrize(("fn", "calls"), INT_CASES, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("options", [AUTOMATIC, DYNAMIC], ids=["automatic", "dynamic"])
def test_symbolic_int_raises_as_eager(fn: Any, calls: Any, options: dict[str, Any]) -> None:
    check_calls(fn, calls, options)


@pytest.mark.parametrize(
    ("fn", "calls"),
    [
        (unused_sqrt, [(1.0,), (2.0,), (-1.0,)]),
        (float_power_type, [(2.0, 3.0), (2.5, 0.5), (-8.0, 0.5)]),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_symbolic_float_raises_as_eager(fn: Any, calls: Any) -> None:
    check_calls(fn, calls, DYNAMIC)


def test_division_without_side_effects_stays_symbolic() -> None:
    """With nothing to replay and no handler around it, the division stays in the graph and
    raises from there: one compile serves every divisor, zero included."""
    compiled = tracer.compile(unused_div, **DYNAMIC)
    for args in [(1, 2), (3, 4), (1, 0), (5, 7)]:
        assert_same_behavior(unused_div, *args, compiled=compiled)
    assert len(compiled.entries) == 1


def tensor_index(i: int, t: Any) -> Any:
    return t[i]


def tensor_index_after_append(xs: list[int], i: int, t: Any) -> Any:
    xs.append(i)
    return t[i]


def tensor_index_unused(i: int, t: Any) -> Any:
    t[i]
    return 1


def reshaped_rows(i: int, t: Any) -> Any:
    return t.reshape(i, -1).shape[0]


def ones_length(i: int, t: Any) -> Any:
    return len(torch.ones(i))


T2, T6 = torch.ones(2), torch.ones(6)
TENSOR_CASES = [
    (tensor_index, [(0, T2), (5, T2), (7, T2), (1, T2)]),
    (tensor_index_after_append, [([], 0, T2), ([], 1, T2), ([], 5, T2)]),
    (tensor_index_unused, [(0, T2), (1, T2), (5, T2)]),
    (reshaped_rows, [(1, T6), (2, T6), (3, T6)]),
    (ones_length, [(1, T6), (2, T6), (3, T6)]),
]


@pytest.mark.parametrize(("fn", "calls"), TENSOR_CASES, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("options", [AUTOMATIC, DYNAMIC], ids=["automatic", "dynamic"])
def test_symbolic_int_in_tensor_op(fn: Any, calls: Any, options: dict[str, Any]) -> None:
    check_calls(fn, calls, options)


def scale(t: Any, n: int) -> Any:
    return t * n + 1, n / (t + 1), n - t, t > n


def test_tensor_arithmetic_keeps_the_scalar_symbolic() -> None:
    compiled = tracer.compile(scale, dynamic=True)
    for n in (1, 2, 0, -3):
        assert_same_behavior(scale, T2, n, compiled=compiled)
    assert len(compiled.entries) == 1


# -- a number a float tensor cannot hold: the fake run raises as the real op does --------------
HUGE = 10**400


def times_huge_after_append(xs: list[int], t: Any) -> Any:
    xs.append(1)
    return t * HUGE


def times_huge_unused(t: Any) -> Any:
    t * HUGE
    return 1


def where_huge(xs: list[int], t: Any) -> Any:
    xs.append(1)
    return torch.where(t > 0, t, HUGE)


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (times_huge_after_append, ([], T2)),
        (times_huge_unused, (T2,)),
        (where_huge, ([], T2)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_number_too_large_for_the_tensor(fn: Any, args: tuple[Any, ...]) -> None:
    assert_same_behavior(fn, *args)


def symbolic_times_after_append(xs: list[int], n: int, t: Any) -> Any:
    xs.append(n)
    return t * n


def symbolic_times_unused(n: int, t: Any) -> Any:
    t * n
    return 1


@pytest.mark.parametrize(
    ("fn", "calls"),
    [
        (symbolic_times_after_append, [([], 1, T2), ([], 2, T2), ([], HUGE, T2)]),
        (symbolic_times_unused, [(1, T2), (2, T2), (HUGE, T2)]),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
@pytest.mark.parametrize("options", [AUTOMATIC, DYNAMIC], ids=["automatic", "dynamic"])
def test_symbolic_int_too_large_for_the_tensor(
    fn: Any, calls: Any, options: dict[str, Any]
) -> None:
    check_calls(fn, calls, options)
