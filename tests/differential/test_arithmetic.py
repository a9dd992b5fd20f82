"""Arithmetic and comparisons: constant folding, every binary operator and its in-place form,
unary operators, chained comparisons, and tensor ops in function, method and operator form."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.differential.helpers import FAST, check
from tests.differential.strategies import (
    broadcastable_pairs,
    float_tensors,
    floats,
    matmul_pairs,
    nonzero_ints,
    shift_amounts,
    small_floats,
    small_ints,
    tensors,
)
from tracer.testing import assert_same_behavior

# ----------------------------------------------------------------------- constants (folded)


def literal_arithmetic():
    a = 3
    b = 4
    return (
        a * b + 7 // 2 - 2**3 % 5,
        1.5 * 2 - 0.25,
        10 / 4,
        -7 // 2,
        -7 % 3,
        2**-1,
        (a << 3) | (b >> 1) ^ 0b1010 & 0xFF,
        -a,
        +b,
        ~a,
        not a,
        a < b < 10,
        a == a * 1.0 != a + 1,
    )


def int_binops(a, b):
    return (
        a + b,
        a - b,
        a * b,
        a / b,
        a // b,
        a % b,
        a**2,
        b ** abs(a),
        a & b,
        a | b,
        a ^ b,
        divmod(a, b),
    )


def int_shifts(a, s):
    return a << s, a >> s, (a << s) >> s


def int_inplace(a, b, s):
    x = a
    x += b
    x -= 3
    x *= b
    x //= b
    x %= 7
    x **= 2
    x &= 0xFF
    x |= b
    x ^= a
    x <<= s
    x >>= 1
    y = a
    y /= b
    return x, y


def float_binops(p, q):
    return p + q, p - q, p * q, p / q, p // q, p % q, abs(p) ** 0.5, -p, +p, p**2


def float_inplace(p, q):
    r = p
    r += q
    r -= 1.5
    r *= q
    r /= q
    r //= 0.75
    r %= 3.0
    r **= 2
    return r


def mixed_int_float(a, p):
    return a + p, a * p, p - a, a / 2, a // 2.0, True + a, False * p


def unary_ops(a, p, flag):
    return -a, +a, ~a, not a, -p, +p, not p, not flag, -flag


def invert_bool(flag):
    # Python 3.12 deprecates `~` on a bool: the trace breaks at the instruction that warned,
    # so that the warning comes from the user's line on every call (not fullgraph there)
    return ~flag


def chained_comparisons(a, b, c):
    return (
        a < b < c,
        a <= b <= c,
        a < b > c,
        a == b == c,
        a != b != c,
        a < b == c,
        0 <= a < 10,
        a is not None,
    )


def float_comparisons(p, q):
    return p < q, p <= q, p > q, p >= q, p == q, p != q, -1.0 < p < 1.0


@FAST
@given(a=small_ints, b=nonzero_ints)
def test_int_binops(a, b):
    check(int_binops, a, b)


@FAST
@given(a=small_ints, s=shift_amounts)
def test_int_shifts(a, s):
    check(int_shifts, a, s)


@FAST
@given(a=small_ints, b=nonzero_ints, s=shift_amounts)
def test_int_inplace(a, b, s):
    check(int_inplace, a, b, s)


@FAST
@given(p=floats, q=floats.filter(lambda v: abs(v) > 1e-3))
def test_float_binops(p, q):
    check(float_binops, p, q)


@FAST
@given(p=small_floats, q=small_floats.filter(lambda v: abs(v) > 1e-3))
def test_float_inplace(p, q):
    check(float_inplace, p, q)


@FAST
@given(a=small_ints, p=small_floats)
def test_mixed_int_float(a, p):
    check(mixed_int_float, a, p)


@FAST
@given(a=small_ints, p=small_floats, flag=st.booleans())
def test_unary_ops(a, p, flag):
    check(unary_ops, a, p, flag)


@FAST
@given(flag=st.booleans())
def test_invert_bool(flag):
    assert_same_behavior(invert_bool, flag)


@FAST
@given(a=small_ints, b=small_ints, c=small_ints)
def test_chained_comparisons(a, b, c):
    check(chained_comparisons, a, b, c)


@FAST
@given(p=small_floats, q=small_floats)
def test_float_comparisons(p, q):
    check(float_comparisons, p, q)


def test_literal_arithmetic_is_folded():
    check(literal_arithmetic)


# ----------------------------------------------------------------------- tensor binary ops


def tensor_operators(x, y):
    return x + y, x - y, x * y, x / y, x == y, x != y, x < y, x <= y, x > y, x >= y


def tensor_scalar_operators(x, c):
    return x + c, c + x, x - c, 1 - x, c * x, x * 2.5, x / 2, 1.0 / (x * x + 1), x**2


def tensor_rpow(x):
    return 2**x, 0.5**x, x**0.5 if False else x**1


def tensor_inplace(x, y):
    z = x
    z += y
    z -= 1
    z *= y
    z /= 2
    z **= 2
    return z, x


def tensor_unary_operators(x):
    return -x, abs(x), -abs(x), abs(-x), -x * 1


def tensor_methods(x, y):
    return (
        x.add(y),
        x.sub(y),
        x.mul(y),
        x.div(y),
        x.maximum(y),
        x.minimum(y),
        x.eq(y),
        x.ne(y),
        x.lt(y),
        x.le(y),
        x.gt(y),
        x.ge(y),
        x.add(y, alpha=2),
    )


def tensor_functions(x, y):
    return (
        torch.add(x, y),
        torch.sub(x, y),
        torch.mul(x, y),
        torch.div(x, y),
        torch.maximum(x, y),
        torch.minimum(x, y),
        torch.eq(x, y),
        torch.lt(x, y),
        torch.where(torch.gt(x, y), x, y),
    )


def tensor_function_add_only(x, y):
    return torch.add(x, y)


def tensor_unary_methods(x):
    return (
        x.neg(),
        x.abs(),
        x.relu(),
        x.exp(),
        x.sin(),
        x.cos(),
        x.tanh(),
        x.sigmoid(),
        x.abs().sqrt(),
        (x.abs() + 1).log(),
        x.pow(2),
    )


def tensor_unary_functions(x):
    return (
        torch.neg(x),
        torch.abs(x),
        torch.relu(x),
        torch.exp(x),
        torch.sin(x),
        torch.cos(x),
        torch.tanh(x),
        torch.sigmoid(x),
        torch.sqrt(torch.abs(x)),
        torch.log(torch.abs(x) + 1),
    )


def tensor_reductions_methods(x):
    return x.sum(), x.mean(), x.sum(0), x.mean(-1, keepdim=True), x.amax(0)


def tensor_matmul(x, w):
    return x @ w, x.matmul(w), torch.matmul(x, w)


def tensor_matmul_operator(x, w):
    y = x @ w
    y @= w.transpose(0, 1) @ w
    return y


def tensor_shape_methods(x):
    n = x.numel()
    return (
        x.reshape(-1),
        x.view(n),
        x.reshape(1, n),
        x.unsqueeze(0),
        x.unsqueeze(-1).squeeze(-1),
        x.transpose(0, -1),
        x.permute(*reversed(range(x.dim()))),
        x.clone(),
        x.to(torch.float64),
        x.float(),
        x.long(),
    )


def tensor_T_property(x):
    return x.T


def tensor_cat_stack(x, y):
    return torch.cat([x, y]), torch.stack((x, y)), torch.stack([x, y], 1)


def tensor_factories(x):
    n = x.shape[0]
    return (
        torch.zeros(n, 2) + torch.ones(n, 2),
        torch.arange(n),
        torch.full((n,), 3.0),
        torch.tensor([1, 2, n]),
        torch.ones_like(x) * x,
    )


def tensor_indexing(x):
    return x[0], x[:, 1], x[1:], x[-1], x[0, 0], x[:, :1], x[::2], x[..., 0], x[None].shape


@FAST
@given(pair=broadcastable_pairs())
def test_tensor_operators(pair):
    check(tensor_operators, *pair)


@FAST
@given(x=tensors(), c=st.one_of(small_ints, small_floats))
def test_tensor_scalar_operators(x, c):
    check(tensor_scalar_operators, x, c)


@FAST
@given(x=float_tensors())
def test_tensor_rpow(x):
    check(tensor_rpow, x)


@FAST
@given(pair=broadcastable_pairs(dtype=st.sampled_from([torch.float32, torch.float64])))
def test_tensor_inplace(pair):
    check(tensor_inplace, *pair)


@FAST
@given(x=tensors())
def test_tensor_unary_operators(x):
    check(tensor_unary_operators, x)


@FAST
@given(pair=broadcastable_pairs())
def test_tensor_methods(pair):
    check(tensor_methods, *pair)


@FAST
@given(pair=broadcastable_pairs())
def test_tensor_function_add(pair):
    check(tensor_function_add_only, *pair)


@FAST
@given(pair=broadcastable_pairs())
def test_tensor_functions(pair):
    check(tensor_functions, *pair)


@FAST
@given(x=float_tensors())
def test_tensor_unary_methods(x):
    check(tensor_unary_methods, x)


@FAST
@given(x=float_tensors())
def test_tensor_unary_functions(x):
    check(tensor_unary_functions, x)


@FAST
@given(x=float_tensors(min_dims=1, min_side=1))
def test_tensor_reductions(x):
    check(tensor_reductions_methods, x)


@FAST
@given(pair=matmul_pairs())
def test_tensor_matmul(pair):
    check(tensor_matmul, *pair)


@FAST
@given(pair=matmul_pairs())
def test_tensor_matmul_inplace_operator(pair):
    check(tensor_matmul_operator, *pair)


@FAST
@given(x=tensors(min_dims=1, min_side=1))
def test_tensor_shape_methods(x):
    check(tensor_shape_methods, x)


@FAST
@given(x=tensors(min_dims=1, min_side=1))
def test_tensor_cat_stack(x):
    check(tensor_cat_stack, x, x * 2)


@FAST
@given(x=tensors(min_dims=1, min_side=1))
def test_tensor_factories(x):
    check(tensor_factories, x)


@FAST
@given(x=tensors(min_dims=2, min_side=2))
def test_tensor_indexing(x):
    check(tensor_indexing, x)


@FAST
@given(x=tensors(min_dims=2, min_side=1))
def test_tensor_T_property(x):
    check(tensor_T_property, x)
