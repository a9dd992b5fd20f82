"""`math.fsum` over a generator or a list built in the frame: items pulled one at a time and
summed by CPython (variables/builtin.py `fsum_of`). Before, "fsum() with non-constant
argument LocalGeneratorObjectVariable" (statistics.correlation, covariance,
linear_regression in the corpus)."""

from __future__ import annotations

import dis
import math

import pytest

from tracer.testing import CompileCounter, assert_same_behavior


def spread(xs, ys):
    xbar = math.fsum(xs) / len(xs)
    return math.fsum((x - xbar) * y for x, y in zip(xs, ys, strict=True)), math.fsum(
        [x * 0.1 for x in xs]
    )


def pulls(xs):
    seen = []

    def gen():
        for x in xs:
            seen.append(x)
            yield x

    try:
        total = math.fsum(gen())
    except TypeError as e:
        total = str(e)
    return total, seen


def test_the_function_calls_fsum_on_a_generator() -> None:
    assert "fsum" in {i.argval for i in dis.get_instructions(spread)}


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (spread, ([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])),
        (spread, ([0.1] * 10, [1e100, 1.0, -1e100, 1, 1, 1, 1, 1, 1, 1])),
        (pulls, ([1.5, 2, True],)),
        (pulls, ([1.5, "a", 2.0],)),
        (pulls, ([],)),
    ],
)
def test_fsum_of_iterables_traces_whole(fn, args) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *args)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)
