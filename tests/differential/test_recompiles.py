"""Guards: changing a property the trace read (type, dtype, shape, a constant's value, a list's
length, a global) recompiles and returns the eager result; changing one it never read (tensor
values, an unused argument, an unread list item) hits the cache. Bad compile arguments raise
UserError at decoration time."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tests.differential.helpers import FAST
from tests.differential.strategies import small_ints, tensors
from tracer.testing import compare

FACTOR = 2


def add_one(x):
    return x + 1


def scale_by(x, k):
    return x * k


def sum_list(xs):
    total = 0
    for v in xs:
        total = total + v
    return total


def first_item(xs):
    return xs[0] * 2


def ignores_second(x, unused):
    return x - 1


def uses_global(x):
    return x * FACTOR


def shape_branch(x):
    if x.shape[0] > 1:
        return x[1:]
    return x


def same_as_eager(fn, compiled, *args):
    compare(fn(*args), compiled(*args), "return", {}, {})


def spec(t):
    return (type(t), t.dtype, tuple(t.shape))


@FAST
@given(a=tensors(), b=tensors())
def test_tensor_dtype_or_shape_change_recompiles(a, b):
    compiled = tracer.compile(add_one)
    same_as_eager(add_one, compiled, a)
    assert len(compiled.entries) == 1
    same_as_eager(add_one, compiled, b)
    assert len(compiled.entries) == (1 if spec(a) == spec(b) else 2)


@FAST
@given(a=tensors(dtype=torch.float32), b=tensors(dtype=torch.float64))
def test_dtype_change_recompiles(a, b):
    compiled = tracer.compile(add_one)
    same_as_eager(add_one, compiled, a)
    same_as_eager(add_one, compiled, b.reshape(tuple(a.shape)) if b.numel() == a.numel() else b)
    assert len(compiled.entries) == 2


@FAST
@given(x=tensors(min_dims=1, min_side=1), extra=st.integers(1, 3))
def test_shape_change_recompiles(x, extra):
    compiled = tracer.compile(shape_branch)
    same_as_eager(shape_branch, compiled, x)
    bigger = torch.zeros(x.shape[0] + extra, *x.shape[1:], dtype=x.dtype)
    same_as_eager(shape_branch, compiled, bigger)
    assert len(compiled.entries) == 2


@FAST
@given(x=tensors(), k1=small_ints, k2=small_ints)
def test_constant_value_change_recompiles(x, k1, k2):
    compiled = tracer.compile(scale_by)
    same_as_eager(scale_by, compiled, x, k1)
    same_as_eager(scale_by, compiled, x, k2)
    assert len(compiled.entries) == (1 if k1 == k2 else 2)


@FAST
@given(x=tensors(), k=small_ints)
def test_type_change_recompiles(x, k):
    compiled = tracer.compile(scale_by)
    same_as_eager(scale_by, compiled, x, k)
    same_as_eager(scale_by, compiled, x, float(k) + 0.5)
    assert len(compiled.entries) == 2
    same_as_eager(scale_by, compiled, x, x)
    assert len(compiled.entries) == 3


@FAST
@given(x=tensors())
def test_input_type_change_tensor_to_list_recompiles(x):
    compiled = tracer.compile(sum_list)
    same_as_eager(sum_list, compiled, [x, x])
    same_as_eager(sum_list, compiled, (x, x))
    assert len(compiled.entries) == 2


@FAST
@given(x=tensors(), n=st.integers(0, 3), m=st.integers(0, 3))
def test_list_length_change_recompiles(x, n, m):
    compiled = tracer.compile(sum_list)
    same_as_eager(sum_list, compiled, [x] * n)
    same_as_eager(sum_list, compiled, [x] * m)
    assert len(compiled.entries) == (1 if n == m else 2)


@FAST
@given(x=tensors(), k=small_ints.filter(lambda v: v != 2))
def test_global_change_recompiles(x, k):
    global FACTOR
    compiled = tracer.compile(uses_global)
    try:
        FACTOR = 2
        same_as_eager(uses_global, compiled, x)
        FACTOR = k
        same_as_eager(uses_global, compiled, x)
        assert len(compiled.entries) == 2
        FACTOR = 2
        same_as_eager(uses_global, compiled, x)
        assert len(compiled.entries) == 2
    finally:
        FACTOR = 2


@FAST
@given(a=tensors(), data=st.data())
def test_tensor_values_change_does_not_recompile(a, data):
    b = data.draw(tensors(dtype=a.dtype, shape=tuple(a.shape)))
    compiled = tracer.compile(add_one)
    same_as_eager(add_one, compiled, a)
    same_as_eager(add_one, compiled, b)
    assert len(compiled.entries) == 1


@FAST
@given(x=tensors(), u1=st.one_of(small_ints, st.text(max_size=3), tensors()), u2=small_ints)
def test_unused_argument_change_does_not_recompile(x, u1, u2):
    compiled = tracer.compile(ignores_second)
    same_as_eager(ignores_second, compiled, x, u1)
    same_as_eager(ignores_second, compiled, x, u2)
    assert len(compiled.entries) == 1


@FAST
@given(x=tensors(), a=small_ints, b=st.one_of(small_ints, st.text(max_size=3), tensors()))
def test_unread_list_item_change_does_not_recompile(x, a, b):
    compiled = tracer.compile(first_item)
    same_as_eager(first_item, compiled, [x, a])
    same_as_eager(first_item, compiled, [x, b])
    assert len(compiled.entries) == 1


@FAST
@given(x=tensors(), k=small_ints)
def test_recompiled_entries_are_all_reused(x, k):
    assume(k != 0)
    compiled = tracer.compile(scale_by)
    for value in (k, 0, k, 0):
        same_as_eager(scale_by, compiled, x, value)
    assert len(compiled.entries) == 2


def with_default(x, k=2):
    return x * k


def with_kwonly_default(x, *, k=2):
    return x * k


@pytest.mark.parametrize("fn", [with_default, with_kwonly_default])
def test_changing_defaults_after_compile(fn):
    saved = fn.__defaults__, fn.__kwdefaults__
    try:
        compiled = tracer.compile(fn, fullgraph=True)
        x = torch.tensor([1.0, 2.0])
        same_as_eager(fn, compiled, x)
        if fn.__defaults__:
            fn.__defaults__ = (7,)
        else:
            fn.__kwdefaults__ = {"k": 7}
        same_as_eager(fn, compiled, x)
    finally:
        fn.__defaults__, fn.__kwdefaults__ = saved


@pytest.mark.parametrize("target", [42, "add_one", None.__class__, print, [add_one]])
def test_compile_rejects_non_functions(target):
    with pytest.raises(tracer.UserError):
        tracer.compile(target)


def test_compile_rejects_unknown_backend():
    with pytest.raises(tracer.UserError, match="backend"):
        tracer.compile(add_one, backend="no-such-backend")
    with pytest.raises(tracer.UserError, match="backend"):
        tracer.compile(backend="no-such-backend")


@pytest.mark.parametrize("limit", [-1, -100, 1.5, "3", True])
def test_compile_rejects_bad_recompile_limit(limit):
    with pytest.raises(tracer.UserError, match="recompile_limit"):
        tracer.compile(add_one, recompile_limit=limit)
    with pytest.raises(tracer.UserError, match="recompile_limit"):
        tracer.compile(recompile_limit=limit)


# --- functions given new code between calls (`__code__` is writable) ---------------------------


def code_pool_plus_one(x):
    return x + 1


def code_pool_double(x):
    return x * 2


def code_pool_shift(x):
    return x - 3


CODE_POOL = [code_pool_plus_one.__code__, code_pool_double.__code__, code_pool_shift.__code__]


def swapped_inner(x):
    return x + 1


def swapped_outer(x):
    return swapped_inner(x) * 2 + swapped_inner(x + 1)


@FAST
@given(
    x=tensors(dtype=torch.float32),
    steps=st.lists(
        st.tuples(st.sampled_from(["inner", "outer", "none"]), st.integers(0, 2)), max_size=6
    ),
)
def test_functions_given_new_code_between_calls_run_the_new_code(x, steps):
    """Each step gives the helper, or the compiled function itself, one of three bodies (or
    leaves them), then calls: the compiled result is always the eager one."""
    saved = swapped_inner.__code__, swapped_outer.__code__
    try:
        compiled = tracer.compile(swapped_outer)
        same_as_eager(swapped_outer, compiled, x)
        for which, body in steps:
            if which == "inner":
                swapped_inner.__code__ = CODE_POOL[body]
            elif which == "outer":
                swapped_outer.__code__ = CODE_POOL[body]
            same_as_eager(swapped_outer, compiled, x)
    finally:
        swapped_inner.__code__, swapped_outer.__code__ = saved
