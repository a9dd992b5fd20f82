"""`math.sumprod(p, q)` (new in 3.12) over generators traces whole (variables/sum_builtin.py):
3.12's `statistics.covariance` and `linear_regression` call it on two generators, and before
each fell back ("sumprod() with non-constant argument"). Items are pulled as CPython pulls them
(one of p, then one of q), so a generator's side effects and the length error come in
CPython's order; an error CPython raises at some step falls back."""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior

pytestmark = pytest.mark.skipif(not hasattr(math, "sumprod"), reason="math.sumprod is new in 3.12")


def logged(tag: str, values: list[Any], log: list[Any]) -> Any:
    for v in values:
        log.append((tag, v))
        yield v
    log.append((tag, "done"))


def two_generators(xs: list[Any], ys: list[Any], log: list[Any]) -> Any:
    return math.sumprod(logged("p", xs, log), logged("q", ys, log)), len(log)


def caught(xs: list[Any], ys: list[Any], log: list[Any]) -> Any:
    try:
        return math.sumprod(logged("p", xs, log), logged("q", ys, log))
    except (OverflowError, TypeError) as e:
        return repr(e), log


def generator_and_list(xs: list[float]) -> Any:
    return math.sumprod((x - 0.5 for x in xs), xs)


def covariance(xs: list[int], ys: list[int]) -> Any:
    return statistics.covariance(xs, ys), statistics.linear_regression(xs, ys)


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (two_generators, ([1, 2, 3], [4, 5, 6], [])),
        (two_generators, ([1e16, 1.0, -1e16], [1.0, 1.0, 1.0], [])),  # compensated: 1.0
        (two_generators, ([1, 2, 3], [4, 5], [])),  # p pulled once more than q, then the error
        (two_generators, ([1, 2], [4, 5, 6], [])),
        (two_generators, ([], [], [])),
        (generator_and_list, ([0.1, 0.2, 0.3],)),
        (covariance, ([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])),
    ],
)
def test_sumprod_of_generators_traces_whole(fn: Any, args: tuple[Any, ...]) -> None:
    check(fn, *args)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (([10**400, 1.0, 2.0], [1, 1.0, 3.0], []), "sumprod() raises OverflowError at some step"),
        ((["a", "b"], [2, 3], []), "sumprod() raises TypeError at some step"),
    ],
)
def test_an_error_at_some_step_falls_back(args: tuple[Any, ...], reason: str) -> None:
    assert_same_behavior(caught, *args)
    explanation = tracer.explain(caught)(*args)
    assert reason in str(explanation.break_reasons[0])
