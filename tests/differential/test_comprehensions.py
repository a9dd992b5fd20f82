"""List, dict and set comprehensions (nested functions in 3.11), nested and conditional ones."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.differential.helpers import FAST, check
from tests.differential.strategies import mixed_dicts, small_ints, tensor_lists, tensors


def list_comprehension(xs):
    return [x * 2 for x in xs]


def dict_comprehension(xs):
    return {f"t{i}": x + i for i, x in enumerate(xs)}


def set_comprehension(ns):
    return {n % 3 for n in ns}, sorted({abs(n) for n in ns})


def conditional_comprehension(xs, ns):
    return [x for i, x in enumerate(xs) if i % 2 == 0], [n for n in ns if n > 0 if n != 3]


def comprehension_with_ternary(xs, ns):
    return [x if i else -x for i, x in enumerate(xs)], [n if n > 1 else -n for n in ns]


def nested_comprehension(xs, n):
    return [[x * j for j in range(n)] for x in xs], [(i, j) for i in range(n) for j in range(i)]


def comprehension_reads_enclosing(xs, k):
    scale = k + 1
    return [x * scale + k for x in xs]


def comprehension_over_dict(d):
    return {k: v for k, v in d.items() if not isinstance(v, int)}, [k.upper() for k in d]


def comprehension_over_tensor_rows(x):
    return [row.sum() for row in x], [x[i] for i in range(x.shape[0])]


@FAST
@given(xs=tensor_lists())
def test_list_comprehension(xs):
    check(list_comprehension, xs)


@FAST
@given(xs=tensor_lists())
def test_dict_comprehension(xs):
    check(dict_comprehension, xs)


@FAST
@given(ns=st.lists(small_ints, max_size=6))
def test_set_comprehension(ns):
    check(set_comprehension, ns)


@FAST
@given(xs=tensor_lists(), ns=st.lists(small_ints, max_size=6))
def test_conditional_comprehension(xs, ns):
    check(conditional_comprehension, xs, ns)


@FAST
@given(xs=tensor_lists(), ns=st.lists(small_ints, max_size=6))
def test_comprehension_with_ternary(xs, ns):
    check(comprehension_with_ternary, xs, ns)


@FAST
@given(xs=tensor_lists(max_size=3), n=st.integers(0, 3))
def test_nested_comprehension(xs, n):
    check(nested_comprehension, xs, n)


@FAST
@given(xs=tensor_lists(), k=small_ints)
def test_comprehension_reads_enclosing(xs, k):
    check(comprehension_reads_enclosing, xs, k)


@FAST
@given(d=mixed_dicts())
def test_comprehension_over_dict(d):
    check(comprehension_over_dict, d)


@FAST
@given(x=tensors(min_dims=1, max_dims=2, min_side=1))
def test_comprehension_over_tensor_rows(x):
    check(comprehension_over_tensor_rows, x)
