"""`sum` of floats: since 3.12 CPython compensates the rounding errors of a run of floats (and
ints) from the start, so a traced `+` one item at a time would differ in the last digits; the
run is summed by CPython itself (variables/sum_builtin.py), the rest added by `+` as CPython's
generic path does. Traced whole (fullgraph) on every version."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tests.differential.helpers import check


def floats(x: Any) -> Any:
    return sum([0.1] * 10), sum((1.0, 3.0084089924481234, -1.0)), x


def ints_then_floats(x: Any) -> Any:
    return sum([1, 2, 1e100, 1.0, -1e100]), x


def float_start(x: Any) -> Any:
    return sum([1e16, 1.0, 1.0], 0.5), sum([], 0.25), x


def floats_then_a_tensor(x: Any) -> Any:
    return sum([0.1, 0.2, 0.3, x]), sum([x, 0.1, 0.2])


def errors_where_cpython_does(x: Any) -> Any:
    pulled = []

    def items() -> Any:
        for v in (0.5, 1.5, "a", 2.5):
            pulled.append(v)
            yield v

    try:
        sum(items())
    except TypeError as e:
        return str(e), pulled, x
    return None


@pytest.mark.parametrize(
    "fn",
    [floats, ints_then_floats, float_start, floats_then_a_tensor, errors_where_cpython_does],
    ids=lambda fn: fn.__name__,
)
def test_sum_as_cpython(fn: Any) -> None:
    check(fn, torch.ones(3))
