"""functools wrappers in traced code: `functools.partial` (made in the frame, or an input),
`functools.wraps`-decorated functions, and `functools.lru_cache` wrappers (a call is one graph
break that resumes)."""

from __future__ import annotations

import functools

import pytest

import tracer
from tests.differential.helpers import check
from tests.differential.opcodes import assert_traced_whole, assert_uses


def scale(x, factor, *, offset=0):
    return x * factor + offset


def make_and_call_partial(x):
    double = functools.partial(scale, factor=2)
    shifted = functools.partial(double, offset=1)  # a partial of a partial is flattened
    triple = functools.partial(scale, x, 3)
    return double(x), shifted(x), triple(), shifted(x, offset=5), shifted.func is scale


def partial_errors(x):
    return functools.partial()


def partial_returned(x):
    return functools.partial(scale, x)


ADD_TEN = functools.partial(scale, factor=1, offset=10)


def partial_input(x, p):
    return p(x), ADD_TEN(x), p.args


def test_partial_made_in_the_frame():
    assert_uses(make_and_call_partial, "CALL")
    assert_traced_whole(make_and_call_partial, 3)
    check(make_and_call_partial, 3)
    check(partial_errors, 3)
    assert_traced_whole(partial_returned, 3)
    assert tracer.compile(partial_returned, fullgraph=True)(3)(2) == 6


def test_partial_inputs_guarded_by_identity():
    p = functools.partial(scale, 2)
    assert_traced_whole(partial_input, 3, p)
    check(partial_input, 3, p)
    compiled = tracer.compile(partial_input)
    assert compiled(3, p) == partial_input(3, p)
    q = functools.partial(scale, 5)
    assert compiled(3, q) == partial_input(3, q)


def logged(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args) + 1

    return inner


@logged
def plus(x, y):
    return x + y


def calls_wrapped(x):
    return plus(x, 2), plus.__name__


def test_wraps_decorated():
    assert_traced_whole(calls_wrapped, 3)
    check(calls_wrapped, 3)


@functools.cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def calls_cached(x):
    y = x + 1
    return fib(y) + y


def test_lru_cache_call_is_one_break_that_resumes():
    explanation = tracer.explain(calls_cached)(5)
    assert [b.kind for b in explanation.break_reasons] == ["lru-cache"]
    assert "functools.lru_cache wrapper" in explanation.break_reasons[0].explanation
    fib.cache_clear()
    eager = [calls_cached(5), calls_cached(5), fib.cache_info()]
    fib.cache_clear()
    compiled = tracer.compile(calls_cached)
    assert [compiled(5), compiled(5), fib.cache_info()] == eager
    with pytest.raises(tracer.Unsupported, match="lru-cache|lru_cache"):
        tracer.compile(calls_cached, fullgraph=True)(5)
