"""`+x`, `//`, `%`, `~`, `&`, `|`, `^`, `<<`, `>>` on runtime tensors: values against numpy,
and values, dtypes and errors against real torch for every operand pairing of a small pool
(integers with zeros and negatives, floats with inf, nan and -0.0, bools, Python scalars)."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tracer.runtime as torch
from tests.real_torch import real_torch

INTS = [7, -7, 0, 5, -1, 3]
DIVISORS = [2, -2, 3, 1, -4, 5]
FLOATS = [7.5, -7.5, 0.0, math.inf, -0.0, math.nan]
FLOAT_DIVISORS = [2.0, -2.0, 0.0, 3.0, math.inf, -0.5]
BOOLS = [True, False, True, True, False, False]
SHIFTS = [1, 0, 62, 64, -1, 3]

BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "//": operator.floordiv,
    "%": operator.mod,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "floor_divide": lambda a, b: a.floor_divide(b),
    "remainder": lambda a, b: a.remainder(b),
    "bitwise_and": lambda a, b: a.bitwise_and(b),
    "bitwise_left_shift": lambda a, b: a.bitwise_left_shift(b),
}
UNARY: dict[str, Callable[[Any], Any]] = {
    "+": operator.pos,
    "~": operator.invert,
    "positive": lambda a: a.positive(),
    "bitwise_not": lambda a: a.bitwise_not(),
}


def pool(lib: Any) -> dict[str, Any]:
    """Operands by label: tensors of each dtype, and Python scalars."""
    return {
        "ints": lib.tensor(INTS),
        "divisors": lib.tensor(DIVISORS),
        "shifts": lib.tensor(SHIFTS),
        "floats": lib.tensor(FLOATS),
        "float_divisors": lib.tensor(FLOAT_DIVISORS),
        "doubles": lib.tensor(FLOATS, dtype=lib.float64),
        "bools": lib.tensor(BOOLS),
        "int0d": lib.tensor(3),
        "2": 2,
        "0": 0,
        "-1": -1,
        "2.5": 2.5,
        "True": True,
        "inf": math.inf,
    }


def outcome(fn: Callable[[], Any]) -> Any:
    """A result as (dtype name, values with nan spelled out), or the exception's type and
    message."""
    try:
        result = fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    if result is NotImplemented:
        return "NotImplemented"
    values = result.tolist()
    flat = values if isinstance(values, list) else [values]
    shown = [
        "nan" if isinstance(v, float) and math.isnan(v) else (v, math.copysign(1, v)) for v in flat
    ]
    return str(result.dtype).removeprefix("torch."), shown


def pairs() -> list[tuple[str, str, str]]:
    labels = list(pool(torch))
    return [
        (op, a, b)
        for op in BINARY
        for a in labels
        for b in labels
        if not (isinstance(pool(torch)[a], int | float) and isinstance(pool(torch)[b], int | float))
        and not (op.isidentifier() and not isinstance(pool(torch)[a], torch.Tensor))
    ]


def test_binary_operators_match_torch() -> None:
    real = real_torch()
    mine, theirs = pool(torch), pool(real)
    mismatches = []
    for op, a, b in pairs():
        fn = BINARY[op]
        got = outcome(lambda: fn(mine[a], mine[b]))  # noqa: B023
        want = outcome(lambda: fn(theirs[a], theirs[b]))  # noqa: B023
        if got != want:
            mismatches.append((f"{a} {op} {b}", got, want))
    assert mismatches == []


def test_unary_operators_match_torch() -> None:
    real = real_torch()
    mine, theirs = pool(torch), pool(real)
    for op, fn in UNARY.items():
        for label, value in mine.items():
            if isinstance(value, torch.Tensor):
                got = outcome(lambda: fn(value))  # noqa: B023
                assert got == outcome(lambda: fn(theirs[label])), (op, label)  # noqa: B023


def test_function_forms_match_torch() -> None:
    real = real_torch()
    names = ["floor_divide", "remainder", "bitwise_and", "bitwise_or", "bitwise_xor"]
    names += ["bitwise_left_shift", "bitwise_right_shift"]
    mine, theirs = pool(torch), pool(real)
    for name in names:
        for a, b in [("ints", "divisors"), ("ints", "2"), ("floats", "float_divisors")]:
            got = outcome(lambda: getattr(torch, name)(mine[a], mine[b]))  # noqa: B023
            want = outcome(lambda: getattr(real, name)(theirs[a], theirs[b]))  # noqa: B023
            assert got == want, (name, a, b)
    for name in ["positive", "bitwise_not"]:
        for label in ["ints", "bools", "floats"]:
            got = outcome(lambda: getattr(torch, name)(mine[label]))  # noqa: B023
            assert got == outcome(lambda: getattr(real, name)(theirs[label])), (name, label)  # noqa: B023


NUMPY = {
    "//": np.floor_divide,
    "%": np.remainder,
    "&": np.bitwise_and,
    "|": np.bitwise_or,
    "^": np.bitwise_xor,
}


@pytest.mark.parametrize("op", list(NUMPY))
def test_integer_operators_match_numpy(op: str) -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(-1000, 1000, size=(4, 5))
    b = rng.integers(1, 50, size=(5,)) * rng.choice([-1, 1], size=(5,))
    got = BINARY[op](torch.tensor(a.tolist()), torch.tensor(b.tolist()))
    assert got.tolist() == NUMPY[op](a, b).tolist()
    assert (~torch.tensor(a.tolist())).tolist() == np.invert(a).tolist()
    small = rng.integers(0, 62, size=(5,))
    shifted = torch.tensor(a.tolist()) >> torch.tensor(small.tolist())
    assert shifted.tolist() == np.right_shift(a, small).tolist()


def test_float_floor_divide_and_remainder_match_numpy() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(scale=100, size=(3, 4))
    b = rng.normal(scale=10, size=(4,))
    x, y = (
        torch.tensor(a.tolist(), dtype=torch.float64),
        torch.tensor(b.tolist(), dtype=torch.float64),
    )
    np.testing.assert_allclose((x // y).tolist(), np.floor_divide(a, b))
    np.testing.assert_allclose((x % y).tolist(), np.remainder(a, b), atol=1e-9)
