"""An operator no operand handles raises CPython's own TypeError, word for word: the symbol as
CPython spells it (`+`, `+=`, `** or pow()`), and comparisons as "'<' not supported between
instances of ..."."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


class P:
    def __init__(self, v: Any) -> None:
        self.v = v


def _iadd(p: Any) -> Any:
    p += 1
    return p


def _ipow(p: Any) -> Any:
    p **= 2
    return p


def _imatmul(p: Any) -> Any:
    p @= 2
    return p


OPERATIONS: dict[str, Callable[[Any], Any]] = {
    "add": lambda p: p + 1,
    "radd": lambda p: 1 + p,
    "pow": lambda p: p**2,
    "matmul": lambda p: p @ p,
    "iadd": _iadd,
    "ipow": _ipow,
    "imatmul": _imatmul,
    "lt": lambda p: p < P(2),
    "ge": lambda p: p >= 1,
}


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_operator_errors_are_cpythons(name: str) -> None:
    op = OPERATIONS[name]

    def f(t: Any) -> Any:
        return op(P(t))

    with pytest.raises(TypeError):
        f(torch.ones(2))
    assert_same_behavior(f, torch.ones(2))  # the same TypeError, word for word
