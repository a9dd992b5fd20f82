"""if/else on constants and on tensor metadata (shape, dtype, dim, ndim, len), ternaries,
short-circuit boolean operators: every branch is decided at trace time."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import tracer.runtime as torch
from tests.differential.helpers import FAST, check
from tests.differential.strategies import small_ints, tensors

DEBUG = False


def branch_on_constant_flag(x, flag, k):
    if flag:
        y = x * k
    else:
        y = x - k
    if k > 3:
        y = y + 1
    elif k < -3:
        y = y - 1
    else:
        y = -y
    return y


def branch_on_shape(x):
    if x.shape[0] > 2:
        return x[1:]
    if x.shape[0] == 2:
        return x * 2
    return x + 1


def branch_on_dtype(x):
    if x.dtype == torch.float32:
        return x.to(torch.float64), "f32"
    elif x.dtype is torch.float64:
        return x * 0.5, "f64"
    elif x.is_floating_point():
        return x, "other float"
    return x.float() + 1, "int"


def branch_on_dim(x):
    if x.dim() == 0:
        return x + 1
    if x.ndim == 1:
        return x.unsqueeze(0)
    if len(x) > 1 and x.dim() >= 2:
        return x.sum(0)
    return x.reshape(-1)


def branch_on_size_and_numel(x):
    out = x
    if x.numel() == 0:
        out = x.reshape(-1)
    elif x.size(-1) == 1:
        out = x.squeeze(-1)
    elif x.shape[-1] > 1 and x.size()[-1] <= 3:
        out = x.transpose(0, -1)
    return out


def branch_on_size_numel(x):
    if x.shape.numel() > 4:
        return x.reshape(-1)
    return x


def ternary_and_boolops(x, a, b):
    y = x * 2 if a > b else x - 2
    z = (a and b) or 7
    w = a > 0 and b > 0
    v = not (a or b)
    return y, z, w, v, (x.ndim > 1 and x.shape[1]) or None


def optional_argument(x, scale=None, bias=None):
    if scale is not None:
        x = x * scale
    if bias is None:
        return x
    return x + bias


def branch_on_global_flag(x):
    if DEBUG:
        return x * 0
    return x + 1


def nested_branches(x, mode):
    if mode == "add":
        if x.ndim:
            return x + x
        return x + 1
    elif mode in ("mul", "times"):
        return x * x
    elif mode.startswith("neg"):
        return -x
    return x


@FAST
@given(x=tensors(), flag=st.booleans(), k=small_ints)
def test_branch_on_constant_flag(x, flag, k):
    check(branch_on_constant_flag, x, flag, k)


@FAST
@given(x=tensors(min_dims=1))
def test_branch_on_shape(x):
    check(branch_on_shape, x)


@FAST
@given(x=tensors())
def test_branch_on_dtype(x):
    check(branch_on_dtype, x)


@FAST
@given(x=tensors())
def test_branch_on_dim(x):
    check(branch_on_dim, x)


@FAST
@given(x=tensors(min_dims=1))
def test_branch_on_size_and_numel(x):
    check(branch_on_size_and_numel, x)


@FAST
@given(x=tensors(), a=small_ints, b=small_ints)
def test_ternary_and_boolops(x, a, b):
    check(ternary_and_boolops, x, a, b)


@FAST
@given(
    x=tensors(dtype=torch.float32),
    scale=st.none() | small_ints,
    bias=st.none() | tensors(dtype=torch.float32, shape=()),
)
def test_optional_argument(x, scale, bias):
    check(optional_argument, x, scale, bias=bias)


@FAST
@given(x=tensors())
def test_branch_on_global_flag(x):
    check(branch_on_global_flag, x)


@FAST
@given(x=tensors(), mode=st.sampled_from(["add", "mul", "times", "neg", "negate", "other"]))
def test_nested_branches(x, mode):
    check(nested_branches, x, mode)


@FAST
@given(x=tensors())
def test_branch_on_size_numel(x):
    check(branch_on_size_numel, x)
