"""Calls to user functions: module-level helpers, defaults, keyword and keyword-only arguments,
*args/**kwargs, f(*xs), f(**d), recursion, nested definitions and lambdas: all inlined."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensor_lists, tensors


def helper_scale(x, k=2):
    return x * k


def helper_affine(x, w=1, *, b=0, clamp=False):
    y = x * w + b
    if clamp:
        y = y.relu()
    return y


def helper_varargs(*args, **kwargs):
    total = 0
    for a in args:
        total = total + a
    for key in sorted(kwargs):
        total = total + kwargs[key]
    return total, len(args), tuple(kwargs)


def helper_kwonly_defaults(x, *, times=1, label="out"):
    return {label: x * times}


def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


def tensor_power(x, n):
    if n == 0:
        return x * 0 + 1
    return x * tensor_power(x, n - 1)


def call_helper_with_defaults(x, k):
    return helper_scale(x), helper_scale(x, k), helper_scale(x, k=k), helper_scale(k=3, x=x)


def call_with_keyword_only(x, k, clamp):
    return (
        helper_affine(x),
        helper_affine(x, k, b=1),
        helper_affine(x, w=k, b=k, clamp=clamp),
        helper_kwonly_defaults(x, times=k),
        helper_kwonly_defaults(x - 1, label="y"),
    )


def call_varargs(x, y, k):
    return helper_varargs(), helper_varargs(x, y), helper_varargs(x, k, a=y, b=k)


def call_star_unpacking(xs, x):
    opts = {"b": 1, "clamp": True}
    return helper_varargs(*xs), helper_affine(x, *[2], **opts), helper_varargs(*xs, **{"z": x})  # noqa: PIE804


def call_double_star(x, d):
    return helper_varargs(x, **d)


def call_recursion(x, n):
    return factorial(n), tensor_power(x, n)


def nested_definition(x, k):
    def inner(y, m=k):
        return y * m + 1

    def outer(y):
        return inner(y) - inner(y, 2)

    return outer(x), inner(x, m=3)


def call_lambdas(x, k):
    double = lambda v: v * 2  # noqa: E731
    add_k = lambda v, extra=0: v + k + extra  # noqa: E731
    return double(x), add_k(x), add_k(x, extra=1), (lambda *a: len(a))(1, 2, 3)  # noqa: PLC3002


def call_higher_order(xs, k):
    def apply(fn, items):
        return [fn(i) for i in items]

    return apply(lambda t: t + k, xs), apply(helper_scale, xs), list(map(abs, xs))


@FAST
@given(x=tensors(), k=small_ints)
def test_call_helper_with_defaults(x, k):
    check(call_helper_with_defaults, x, k)


@FAST
@given(x=tensors(), k=small_ints, clamp=st.booleans())
def test_call_with_keyword_only(x, k, clamp):
    check(call_with_keyword_only, x, k, clamp)


@FAST
@given(x=tensors(shape=(2,)), y=tensors(shape=(2,)), k=small_ints)
def test_call_varargs(x, y, k):
    check(call_varargs, x, y, k)


@FAST
@given(xs=tensor_lists(min_size=1))
def test_call_star_unpacking(xs):
    check(call_star_unpacking, xs, xs[0])


@FAST
@given(x=tensors(shape=(2,)), d=st.dictionaries(st.sampled_from("abc"), small_ints, max_size=3))
def test_call_double_star(x, d):
    check(call_double_star, x, d)


@FAST
@given(x=tensors(), n=st.integers(0, 4))
def test_call_recursion(x, n):
    check(call_recursion, x, n)


@FAST
@given(x=tensors(), k=small_ints)
def test_nested_definition(x, k):
    check(nested_definition, x, k)


@FAST
@given(x=tensors(), k=small_ints)
def test_call_lambdas(x, k):
    check(call_lambdas, x, k)


@FAST
@given(xs=tensor_lists(), k=small_ints)
def test_call_higher_order(xs, k):
    check(call_higher_order, xs, k)


@FAST
@given(x=tensors())
def test_compile_a_lambda_directly(x):
    # make_binder used to generate `def <lambda>(t):` from co_name and raise SyntaxError.
    check(lambda t: t + 1, x)
