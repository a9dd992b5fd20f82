"""binary_op folds two plain scalar constants itself, without going through `fold`'s checks:
that is sound only because every operator it can be handed is on the pure-function table."""

import operator

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior
from tracer.translator.operators import BINARY_OP_TABLE, COMPARE_TABLE
from variables.builtin import BINARY_OPERATORS
from variables.pure_calls import PURE_FUNCTIONS


def test_every_operator_binary_op_receives_is_pure() -> None:
    handed = set(BINARY_OP_TABLE) | set(COMPARE_TABLE.values()) | BINARY_OPERATORS
    assert handed <= PURE_FUNCTIONS


def scalars(x, n, s):
    a = n + 1
    b = n // 3 - n % 3
    c = s * 2 + "!"
    d = 2.5**n
    e = n < 4 and n != 3
    f = operator.add(n, 0.5)
    n += 1
    n <<= 2
    return x * (a + b + d + f + n + len(c)) + (1 if e else 0)


@pytest.mark.parametrize("n", [0, 2, 7])
def test_scalar_folding_matches_python(n: int) -> None:
    assert_same_behavior(scalars, torch.ones(2), n, "ab")


def divides(x, n):
    return x * (1 / n)


def test_scalar_folding_raises_the_users_error() -> None:
    assert_same_behavior(divides, torch.ones(2), 0)
