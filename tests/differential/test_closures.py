"""Closures: reading enclosing variables, nested closures, cells written with `nonlocal` inside
the traced frame, and compiled functions that are themselves closures over cells."""

from __future__ import annotations

import pytest
from hypothesis import given

import tracer
from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensor_lists, tensors


def make_adder(k):
    def add(x):
        return x + k

    return add


def make_nested(k):
    offset = k * 2

    def middle(x):
        scale = k + 1

        def inner(y):
            return y * scale + offset

        return inner(x) - offset

    return middle


def make_tensor_closure(t):
    def use(x):
        return x * 0 + t.sum()

    return use


def read_enclosing(x, k):
    base = k + 1

    def inner(y):
        return y * base

    return inner(x)


def nested_closures(x, k):
    a = k

    def level1(y):
        b = a + 1

        def level2(z):
            return z * a + b

        return level2(y) + level1_const

    level1_const = 3
    return level1(x)


def closure_nonlocal_write(x, n):
    count = 0

    def bump(v):
        nonlocal count
        count += 1
        return v + count

    for _ in range(n):
        x = bump(x)
    return x, count


def closure_factory_inside(xs, k):
    adders = [make_adder(i + k) for i in range(3)]
    return [add(x) for add in adders for x in xs]


def closure_over_loop_variable(x):
    fns = []
    for i in range(3):
        fns.append(lambda v, i=i: v * i)  # noqa: PERF401
    late = [lambda v: v + j for j in range(3)]  # noqa: B023  (late binding on purpose)
    return [f(x) for f in fns], [f(x) for f in late]


ADD_THREE = make_adder(3)
NESTED = make_nested(2)


@FAST
@given(x=tensors(), k=small_ints)
def test_read_enclosing(x, k):
    check(read_enclosing, x, k)


@FAST
@given(x=tensors(), k=small_ints)
def test_nested_closures(x, k):
    check(nested_closures, x, k)


@FAST
@given(x=tensors(), n=small_ints.map(abs))
def test_closure_nonlocal_write(x, n):
    check(closure_nonlocal_write, x, n)


@FAST
@given(xs=tensor_lists(max_size=2), k=small_ints)
def test_closure_factory_inside(xs, k):
    check(closure_factory_inside, xs, k)


@FAST
@given(x=tensors())
def test_closure_over_loop_variable(x):
    check(closure_over_loop_variable, x)


@FAST
@given(x=tensors())
def test_compiled_function_is_a_closure(x):
    check(ADD_THREE, x)
    check(NESTED, x)


@FAST
@given(x=tensors(dtype=None), t=tensors())
def test_compiled_closure_over_tensor_cell(x, t):
    check(make_tensor_closure(t), x)


def _two_with_default(x, k=1):
    return x + k


def _kw_default(x, *, k=1):
    return x + k


def _missing_argument():
    try:
        return _two_with_default()  # TypeError while `x` has no default
    except TypeError as e:
        return str(e)


def _missing_keyword():
    return _kw_default(1)


def test_which_parameters_have_defaults_is_guarded():
    """A call that leaves a parameter to its default binds by which parameters have one: the
    length of `__defaults__` and the names of `__kwdefaults__`, both writable, are guarded
    (a missing argument's TypeError depends on it, and no default's value was read)."""
    compiled = tracer.compile(_missing_argument)
    saved = _two_with_default.__defaults__
    try:
        assert compiled() == _missing_argument()
        _two_with_default.__defaults__ = (1, 1)  # now `x` has a default too
        assert compiled() == _missing_argument() == 2
        _two_with_default.__defaults__ = None
        assert compiled() == _missing_argument()
    finally:
        _two_with_default.__defaults__ = saved
    compiled = tracer.compile(_missing_keyword)
    saved_kw = _kw_default.__kwdefaults__
    try:
        assert compiled() == _missing_keyword() == 2
        _kw_default.__kwdefaults__ = None
        with pytest.raises(TypeError) as eager:
            _missing_keyword()
        with pytest.raises(TypeError) as traced:
            compiled()
        assert str(traced.value) == str(eager.value)
    finally:
        _kw_default.__kwdefaults__ = saved_kw


def test_a_binding_errors_function_name_is_guarded():
    """CPython names the function in a binding error by its `__qualname__`, which is
    writable: a rename misses the entry that raised it."""
    compiled = tracer.compile(_missing_argument)
    saved = _two_with_default.__qualname__
    try:
        assert compiled() == _missing_argument()
        _two_with_default.__qualname__ = "renamed"
        assert compiled() == _missing_argument()
        assert _missing_argument().startswith("renamed()")
    finally:
        _two_with_default.__qualname__ = saved
