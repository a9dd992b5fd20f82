# ruff: noqa: B009, B905, C406, C408, C414, C419
# The sample functions call the builtins on purpose (getattr with a constant name, dict(...),
# list(tuple(...)), zip without strict): the builtin call itself is what is traced.
"""Builtins (len, isinstance, issubclass, range, enumerate, zip, reversed, sorted, min, max, abs,
sum, all, any, getattr, hasattr, tuple, list, dict, set, bool, int, float, str), the math module
and the operator module, applied to constants and tensors."""

from __future__ import annotations

import math
import operator

from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tests.differential.helpers import FAST, check
from tests.differential.strategies import (
    mixed_lists,
    small_floats,
    small_ints,
    tensor_lists,
    tensors,
)


class Box:
    size = 3

    def __init__(self, value):
        self.value = value


def builtin_len_isinstance(xs, x):
    return (
        len(xs),
        len(x.shape),
        isinstance(x, torch.Tensor),
        isinstance(xs, list),
        isinstance(xs, (tuple, dict)),
        isinstance(len(xs), int),
        issubclass(bool, int),
        issubclass(type(x), torch.Tensor),
        issubclass(list, (dict, tuple)),
    )


def builtin_iterators(ns):
    return (
        list(range(len(ns))),
        list(enumerate(ns)),
        list(zip(ns, reversed(ns))),
        list(reversed(ns)),
        sorted(ns),
        sorted(ns, reverse=True),
        tuple(range(1, 7, 2)),
    )


def builtin_numeric(ns, p):
    return (
        min(ns),
        max(ns),
        min(3, p),
        max(p, -1, 2),
        min(ns, key=abs),
        abs(p),
        sum(ns),
        sum(ns, 10),
        all(ns),
        any(ns),
        all(n > -9 for n in [1]) if False else all([n > 0 for n in ns]),
        round(p, 2),
        divmod(len(ns), 2),
        pow(2, len(ns)),
    )


def builtin_tensor_sum_min_max(xs):
    return sum(xs), sum(xs, xs[0]), abs(xs[0]), max(len(xs), 1)


def builtin_getattr_hasattr(b, x):
    return (
        getattr(b, "value"),
        getattr(b, "missing", 7),
        getattr(b, "size"),
        hasattr(b, "value"),
        hasattr(b, "nothing"),
        getattr(x, "ndim"),
        hasattr(x, "shape"),
    )


def builtin_conversions(ns, p, s):
    return (
        tuple(ns),
        list(tuple(ns)),
        dict(a=1, b=len(ns)),
        dict([("x", p), ("y", 2)]),
        dict(zip("abc", ns)),
        sorted(set(ns)),
        len(set(ns)),
        bool(ns),
        bool(p),
        int(p),
        int("12"),
        float(len(ns)),
        float(p),
        str(p),
        str(len(ns)),
        str(s),
        int(True),
    )


def builtin_conversions_of_metadata(x):
    return tuple(x.shape), list(x.shape), int(x.ndim), float(x.numel()), str(x.dtype), bool(x.ndim)


def math_functions(p, n):
    q = abs(p) + 1
    return (
        math.sqrt(q),
        math.floor(p),
        math.ceil(p),
        math.exp(p / 4),
        math.log(q),
        math.log2(q),
        math.sin(p),
        math.cos(p),
        math.pi,
        math.e,
        math.inf > p,
        math.isnan(p),
        math.isfinite(p),
        math.prod([n, 2, 3]),
        math.factorial(abs(n)),
        math.gcd(n, 6),
        math.fabs(p),
        math.copysign(1.0, p),
        math.trunc(p),
    )


def math_on_shapes(x):
    return math.prod(x.shape), math.sqrt(x.numel()), x * math.pi


def operator_functions(a, b, x):
    return (
        operator.add(a, b),
        operator.sub(a, b),
        operator.mul(a, b),
        operator.neg(a),
        operator.lt(a, b),
        operator.eq(a, b),
        operator.not_(a),
        operator.and_(a, b),
        operator.or_(a, b),
        operator.xor(a, b),
        operator.getitem([a, b], 1),
        operator.add(x, a),
        operator.mul(x, x),
        operator.truediv(x, 2),
        operator.neg(x),
    )


def builtin_sorted_with_key(ns):
    return sorted(ns, key=abs), min(ns, key=abs)


def builtin_getattr_default_on_tensor(x):
    return getattr(x, "nope", None), getattr(x, "ndim", -1)


def builtin_set_returned(ns):
    return set(ns)


def range_membership(n, k):
    r = range(1, n, 2)
    return k in r, len(r), r[-1] if r else None


def operator_getters(a, b, x):
    return operator.itemgetter(0)([b, a]), operator.attrgetter("ndim")(x)


@FAST
@given(xs=mixed_lists(), x=tensors())
def test_builtin_len_isinstance(xs, x):
    check(builtin_len_isinstance, xs, x)


@FAST
@given(ns=st.lists(small_ints, max_size=5))
def test_builtin_iterators(ns):
    check(builtin_iterators, ns)


@FAST
@given(ns=st.lists(small_ints, min_size=1, max_size=5), p=small_floats)
def test_builtin_numeric(ns, p):
    check(builtin_numeric, ns, p)


@FAST
@given(xs=tensor_lists(min_size=1))
def test_builtin_tensor_sum_min_max(xs):
    check(builtin_tensor_sum_min_max, xs)


@FAST
@given(b=st.builds(Box, small_ints), x=tensors())
def test_builtin_getattr_hasattr(b, x):
    check(builtin_getattr_hasattr, b, x)


@FAST
@given(ns=st.lists(small_ints, max_size=3), p=small_floats, s=st.text("ab", max_size=3))
def test_builtin_conversions(ns, p, s):
    check(builtin_conversions, ns, p, s)


@FAST
@given(x=tensors())
def test_builtin_conversions_of_metadata(x):
    check(builtin_conversions_of_metadata, x)


@FAST
@given(p=small_floats, n=small_ints)
def test_math_functions(p, n):
    check(math_functions, p, n)


@FAST
@given(x=tensors(dtype=torch.float32))
def test_math_on_shapes(x):
    check(math_on_shapes, x)


@FAST
@given(a=small_ints, b=small_ints, x=tensors(dtype=torch.float64))
def test_operator_functions(a, b, x):
    check(operator_functions, a, b, x)


@FAST
@given(ns=st.lists(small_ints, min_size=1, max_size=5))
def test_builtin_sorted_with_key(ns):
    check(builtin_sorted_with_key, ns)


@FAST
@given(x=tensors())
def test_builtin_getattr_default_on_tensor(x):
    check(builtin_getattr_default_on_tensor, x)


def test_builtin_set_returned_keeps_iteration_order():
    check(builtin_set_returned, [-3, 5])


@FAST
@given(ns=st.lists(st.integers(0, 7), max_size=5))
def test_builtin_set_returned_without_collisions(ns):
    # Values 0..7 land in distinct slots of a small set's table, so order is insertion-independent;
    # the colliding case is the xfail above.
    check(builtin_set_returned, ns)


@FAST
@given(a=small_ints, b=small_ints, x=tensors())
def test_operator_getters(a, b, x):
    check(operator_getters, a, b, x)


@FAST
@given(n=st.integers(0, 8), k=small_ints)
def test_range_membership(n, k):
    check(range_membership, n, k)


def missing_on_builtins(x):
    """An attribute a builtin type or function lacks is missing for good (neither it nor its
    type can gain one): `hasattr(type(x), "__dataclass_fields__")`, as `dataclasses` asks of
    every field value, used to break the frame."""
    try:
        message = str(int.nope)
    except AttributeError as e:
        message = str(e)
    return (
        hasattr(type(x), "__dataclass_fields__"),
        hasattr(len, "__wrapped__"),
        getattr(str, "nothing", x),
        hasattr(ValueError, "code"),
        message,
    )


def test_an_attribute_missing_on_a_builtin_is_missing_for_good():
    check(missing_on_builtins, 3)
    check(missing_on_builtins, 2.5)


SCALE = 2


def _scaled(x):
    return x * SCALE


def operator_call(x):
    return operator.call(_scaled, x), operator.call(len, [x, x]), operator.call(max, x, 3)


def test_operator_call_is_the_call_it_makes():
    """`operator.call(f, ...)` (3.11) was folded like a pure function, running `f` once
    while tracing: a user function's answer (reading a global) and `time.time()` were kept."""
    global SCALE
    check(operator_call, 5)
    tracer.reset()
    compiled = tracer.compile(operator_call)
    assert compiled(5) == operator_call(5) == (10, 2, 5)
    SCALE = 3
    try:
        assert compiled(5) == operator_call(5) == (15, 2, 5)
    finally:
        SCALE = 2


def _takes(*args):
    return args


def star_of_a_non_iterable(x):
    """`f(*1)` and `[*1]`: CPython names the star (and the callee), where iterating the value
    would only say "'int' object is not iterable"."""
    errors = []
    for attempt in (
        lambda: _takes(*x),
        lambda: [*x],
        lambda: (*x,),
        lambda: _takes(1, *x),
        lambda: len(*x),
    ):
        try:
            attempt()
        except TypeError as e:
            errors.append(str(e))
    return errors


def test_a_star_of_a_non_iterable_names_the_star():
    check(star_of_a_non_iterable, 1)
    check(star_of_a_non_iterable, None)
