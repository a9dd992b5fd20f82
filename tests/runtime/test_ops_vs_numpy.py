"""Values against numpy: exact for + - * / on float32/int64, within tolerance elsewhere."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tracer.runtime as torch
from tests.runtime.strategies import (
    arrays,
    assert_close_array,
    assert_same_array,
    broadcastable_pair,
    dims_of,
    from_numpy,
    nonempty_shapes,
    scaled,
    shapes,
)

# name -> (function form, method form, operator form, numpy oracle)
ARITH: dict[str, tuple[Callable[..., Any], ...]] = {
    "add": (torch.add, torch.Tensor.add, operator.add, np.add),
    "sub": (torch.sub, torch.Tensor.sub, operator.sub, np.subtract),
    "mul": (torch.mul, torch.Tensor.mul, operator.mul, np.multiply),
    "div": (torch.div, torch.Tensor.div, operator.truediv, np.divide),
}
COMPARE = {
    "eq": (torch.eq, operator.eq, np.equal),
    "ne": (torch.ne, operator.ne, np.not_equal),
    "lt": (torch.lt, operator.lt, np.less),
    "le": (torch.le, operator.le, np.less_equal),
    "gt": (torch.gt, operator.gt, np.greater),
    "ge": (torch.ge, operator.ge, np.greater_equal),
}


def numpy_div(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """torch's true division: integers are divided in the default float32."""
    if a.dtype.kind != "f":
        a, b = a.astype(np.float32), b.astype(np.float32)
    return np.divide(a, b)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64], ids=str)
@scaled
@given(name=st.sampled_from(list(ARITH)), form=st.sampled_from([0, 1, 2]), data=st.data())
def test_arithmetic_is_exact(name: str, form: int, dtype: torch.dtype, data: Any) -> None:
    """Function, method and operator forms, broadcasting, inf and nan included."""
    sa, sb = data.draw(broadcastable_pair())
    a, b = data.draw(arrays(dtype, sa)), data.draw(arrays(dtype, sb))
    oracle = numpy_div if name == "div" else ARITH[name][3]
    with np.errstate(all="ignore"):
        expected = oracle(a, b)
    got = ARITH[name][form](from_numpy(a), from_numpy(b))
    assert_same_array(got, np.asarray(expected))


@scaled
@given(
    name=st.sampled_from(list(ARITH)),
    a=arrays(torch.float32),
    scalar=st.floats(-1e6, 1e6, width=32),
)
def test_arithmetic_with_python_scalar_is_exact(name: str, a: Any, scalar: float) -> None:
    oracle = ARITH[name][3]
    with np.errstate(all="ignore"):
        expected = oracle(a, np.float32(scalar)).astype(np.float32)
        reflected = oracle(np.float32(scalar), a).astype(np.float32)
    assert_same_array(ARITH[name][2](from_numpy(a), scalar), expected)
    assert_same_array(ARITH[name][2](scalar, from_numpy(a)), reflected)


@scaled
@given(
    name=st.sampled_from(list(COMPARE)),
    dtype=st.sampled_from([torch.float32, torch.int64, torch.bool]),
    data=st.data(),
)
def test_comparisons(name: str, dtype: torch.dtype, data: Any) -> None:
    sa, sb = data.draw(broadcastable_pair())
    a, b = data.draw(arrays(dtype, sa)), data.draw(arrays(dtype, sb))
    fn, op, oracle = COMPARE[name]
    expected = oracle(a, b)
    assert_same_array(fn(from_numpy(a), from_numpy(b)), expected)
    assert_same_array(op(from_numpy(a), from_numpy(b)), expected)


@scaled
@given(
    pair=st.sampled_from([(torch.maximum, np.maximum), (torch.minimum, np.minimum)]),
    data=st.data(),
)
def test_maximum_minimum_propagate_nan(pair: Any, data: Any) -> None:
    fn, oracle = pair
    sa, sb = data.draw(broadcastable_pair())
    a, b = data.draw(arrays(torch.float32, sa)), data.draw(arrays(torch.float32, sb))
    assert_same_array(fn(from_numpy(a), from_numpy(b)), oracle(a, b))


UNARY = {
    "exp": (np.exp, st.floats(-100, 100, width=32)),
    "log": (np.log, st.floats(-10, 1e6, width=32)),
    "sqrt": (np.sqrt, st.floats(-10, 1e6, width=32)),
    "sin": (np.sin, st.floats(-100, 100, width=32)),
    "cos": (np.cos, st.floats(-100, 100, width=32)),
    "tanh": (np.tanh, st.floats(-20, 20, width=32)),
    "sigmoid": (lambda a: (1 / (1 + np.exp(-a.astype(np.float64)))).astype(np.float32), None),
}


@scaled
@given(name=st.sampled_from(list(UNARY)), data=st.data())
def test_unary_float_ops(name: str, data: Any) -> None:
    oracle, elems = UNARY[name]
    a = data.draw(
        arrays(torch.float32, elems=st.floats(-200, 200, width=32) if elems is None else elems)
    )
    with np.errstate(all="ignore"):
        expected = oracle(a)
    t = from_numpy(a)
    assert_close_array(getattr(torch, name)(t), expected)
    assert_close_array(getattr(t, name)(), expected)


def test_unary_float_ops_promote_integers_and_handle_domain_errors() -> None:
    assert torch.exp(torch.tensor([0, 1])).dtype is torch.float32
    assert torch.sqrt(torch.tensor([-1.0, 4.0])).tolist()[1] == 2.0
    assert np.isnan(torch.sqrt(torch.tensor([-1.0])).item())
    assert torch.log(torch.tensor([0.0])).item() == -np.inf
    assert torch.exp(torch.tensor([1000.0])).item() == np.inf
    assert torch.sigmoid(torch.tensor([-1000.0, 1000.0])).tolist() == [0.0, 1.0]


@scaled
@given(dtype=st.sampled_from([torch.float32, torch.int64]), data=st.data())
def test_neg_abs_relu(dtype: torch.dtype, data: Any) -> None:
    a = data.draw(arrays(dtype))
    t = from_numpy(a)
    assert_same_array(-t, np.negative(a))
    assert_same_array(abs(t), np.abs(a))
    assert_same_array(torch.relu(t), np.maximum(a, a.dtype.type(0)))


@scaled
@given(
    a=arrays(torch.float32, elems=st.floats(0.0625, 100, width=32)),
    e=st.floats(-3, 3, width=32),
)
def test_pow_float(a: Any, e: float) -> None:
    assert_close_array(from_numpy(a) ** e, np.power(a, np.float32(e)), rtol=1e-5)
    with np.errstate(all="ignore"):
        reflected = np.power(np.float32(e), a)
    assert_close_array(torch.pow(e, from_numpy(a)), reflected, rtol=1e-5)


@scaled
@given(a=arrays(torch.int64, elems=st.integers(-50, 50)), e=st.integers(0, 5))
def test_pow_int_is_exact(a: Any, e: int) -> None:
    assert_same_array(from_numpy(a) ** e, np.power(a, e))


@scaled
@given(dtype=st.sampled_from([torch.float32, torch.int64, torch.bool]), data=st.data())
def test_sum_and_amax(dtype: torch.dtype, data: Any) -> None:
    small = st.floats(-1e3, 1e3, width=32) if dtype is torch.float32 else None
    a = data.draw(arrays(dtype, elems=small))
    dim = data.draw(dims_of(a.ndim))
    keepdim = data.draw(st.booleans())
    axis = None if dim in (None, ()) or a.ndim == 0 else dim
    t = from_numpy(a)
    keep = keepdim and a.ndim > 0
    wide = a.astype(np.float64 if dtype is torch.float32 else np.int64)
    expected = np.asarray(np.sum(wide, axis=axis, keepdims=keep)).astype(wide.dtype)
    if dtype is torch.float32:
        expected = expected.astype(np.float32)
    assert_close_array(t.sum(dim, keepdim), expected, rtol=1e-6, atol=0)
    if a.size:
        largest = np.asarray(np.amax(a, axis=axis, keepdims=keep))
        assert_same_array(torch.amax(t, dim if dim is not None else (), keepdim), largest)


@scaled
@given(data=st.data())
def test_mean(data: Any) -> None:
    a = data.draw(arrays(torch.float32, nonempty_shapes, elems=st.floats(-1e3, 1e3, width=32)))
    dim = data.draw(dims_of(a.ndim))
    axis = None if dim in (None, ()) else dim
    expected = np.mean(a.astype(np.float64), axis=axis).astype(np.float32)
    assert_close_array(torch.mean(from_numpy(a), dim), np.asarray(expected), rtol=1e-5, atol=1e-4)


@scaled
@given(
    ranks=st.sampled_from([(1, 1), (1, 2), (2, 1), (2, 2)]),
    dtype=st.sampled_from([torch.float32, torch.int64]),
    data=st.data(),
)
def test_matmul(ranks: tuple[int, int], dtype: torch.dtype, data: Any) -> None:
    n, k, m = (data.draw(st.integers(1, 4)) for _ in range(3))
    sa = (k,) if ranks[0] == 1 else (n, k)
    sb = (k,) if ranks[1] == 1 else (k, m)
    elems = st.floats(-100, 100, width=32) if dtype is torch.float32 else None
    a, b = data.draw(arrays(dtype, sa, elems=elems)), data.draw(arrays(dtype, sb, elems=elems))
    expected = np.asarray(np.matmul(a, b))
    assert_close_array(from_numpy(a) @ from_numpy(b), expected, rtol=1e-5, atol=1e-3)
    assert_close_array(torch.matmul(from_numpy(a), from_numpy(b)), expected, 1e-5, 1e-3)


@scaled
@given(data=st.data())
def test_where(data: Any) -> None:
    shape_list, _ = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3))
    cond = data.draw(arrays(torch.bool, shape_list[0]))
    a = data.draw(arrays(torch.int64, shape_list[1]))
    b = data.draw(arrays(torch.float32, shape_list[2], finite=True))
    got = torch.where(from_numpy(cond), from_numpy(a), from_numpy(b))
    assert_same_array(got, np.where(cond, a.astype(np.float32), b).astype(np.float32))


# ------------------------------------------------------------------ shape ops


@scaled
@given(a=arrays(torch.int64, shapes), data=st.data())
def test_reshape_with_inferred_dim(a: Any, data: Any) -> None:
    t = from_numpy(a)
    target = data.draw(st.sampled_from([(-1,), (a.size, -1) if a.size else (0, 1), a.shape[::-1]]))
    assert_same_array(t.reshape(target), a.reshape(target))
    assert_same_array(t.view(*target), a.reshape(target))


@scaled
@given(a=arrays(torch.int64, nonempty_shapes), data=st.data())
def test_permute_transpose(a: Any, data: Any) -> None:
    perm = data.draw(st.permutations(range(a.ndim)))
    d0, d1 = data.draw(st.integers(-a.ndim, a.ndim - 1)), data.draw(st.integers(0, a.ndim - 1))
    t = from_numpy(a)
    assert_same_array(t.permute(*perm), np.transpose(a, perm))
    assert_same_array(torch.permute(t, perm), np.transpose(a, perm))
    assert_same_array(t.transpose(d0, d1), np.swapaxes(a, d0, d1))


@scaled
@given(a=arrays(torch.int64, shapes), data=st.data())
def test_unsqueeze_squeeze(a: Any, data: Any) -> None:
    dim = data.draw(st.integers(-a.ndim - 1, a.ndim))
    t = from_numpy(a)
    assert_same_array(t.unsqueeze(dim), np.expand_dims(a, dim))
    assert_same_array(t.squeeze(), np.squeeze(a))
    if a.ndim:
        d = data.draw(st.integers(-a.ndim, a.ndim - 1))
        expected = np.squeeze(a, d) if a.shape[d] == 1 else a
        assert_same_array(t.squeeze(d), expected)


@scaled
@given(data=st.data())
def test_cat_and_stack(data: Any) -> None:
    base = data.draw(nonempty_shapes)
    dim = data.draw(st.integers(-len(base), len(base) - 1))
    parts = []
    for _ in range(data.draw(st.integers(1, 3))):
        shape = list(base)
        shape[dim] = data.draw(st.integers(0, 3))
        parts.append(data.draw(arrays(torch.int64, tuple(shape))))
    assert_same_array(torch.cat([from_numpy(p) for p in parts], dim), np.concatenate(parts, dim))
    same = [data.draw(arrays(torch.float32, base)) for _ in range(2)]
    sdim = data.draw(st.integers(-len(base) - 1, len(base)))
    assert_same_array(torch.stack([from_numpy(p) for p in same], sdim), np.stack(same, sdim))


@st.composite
def basic_index(draw: st.DrawFn, shape: tuple[int, ...]) -> Any:
    index = draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True, allow_ellipsis=True))
    items = index if isinstance(index, tuple) else (index,)
    fixed = [
        slice(it.start, it.stop, abs(it.step)) if isinstance(it, slice) and it.step else it
        for it in items
    ]  # torch allows only positive steps
    return tuple(fixed) if isinstance(index, tuple) else fixed[0]


@scaled
@given(a=arrays(torch.int64, shapes), data=st.data())
def test_getitem_matches_numpy(a: Any, data: Any) -> None:
    index = data.draw(basic_index(a.shape))
    assert_same_array(from_numpy(a)[index], np.asarray(a[index]))


def test_getitem_examples() -> None:
    y = torch.arange(12).reshape(3, 4)
    assert y[:, 1].tolist() == [1, 5, 9]
    assert y[-1].tolist() == [8, 9, 10, 11]
    assert y[::2, 1::2].tolist() == [[1, 3], [9, 11]]
    assert y[1, -1].item() == 7
    assert y[..., None].shape == (3, 4, 1)
    assert y[torch.tensor(2)].tolist() == [8, 9, 10, 11]


@scaled
@given(sa=shapes, sb=shapes)
def test_broadcast_errors_follow_numpy(sa: tuple[int, ...], sb: tuple[int, ...]) -> None:
    a, b = torch.zeros(sa), torch.ones(sb)
    try:
        expected = np.broadcast_shapes(sa, sb)
    except ValueError:
        with pytest.raises(RuntimeError) as info:
            a + b
        match = re.fullmatch(
            r"The size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) "
            r"at non-singleton dimension (\d+)",
            str(info.value),
        )
        assert match is not None, str(info.value)
        x, y, dim = map(int, match.groups())
        n = max(len(sa), len(sb))
        pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
        mismatched = [i for i in range(n) if pa[i] != pb[i] and 1 not in (pa[i], pb[i])]
        assert dim == mismatched[-1] and (x, y) == (pa[dim], pb[dim])
    else:
        assert (a + b).shape == expected
        assert (a * b).shape == expected
