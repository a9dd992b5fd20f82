"""Where a fused kernel rounds to float32, and how it sums (notes/fused-backend.md): a float32
value that becomes a tensor is rounded by its kernel, row by row, so every reader sees what the
tensor holds and `forward` makes the tensor of the kernel's buffer as it is; a float32 sum or
mean of values the kernel computed in double adds them in double (Python's `sum`), while a
sum of eager's values, and every float64 sum, is the runtime's correctly rounded `total`."""

from __future__ import annotations

import math
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.fused.checking import close
from tracer.fused import plan_of
from tracer.fused.lowering import mean_in_double
from tracer.runtime import kernels
from tracer.testing import assert_same_behavior

INF = math.inf

SPECIAL_ROWS = [
    [],
    [0.0],
    [-0.0],
    [-0.0, -0.0],
    [-0.0, 0.0],
    [0.0, -0.0, -0.0],
    [1.5, -1.5],
    [-1.5, 1.5, -0.0],
    [INF, 1.0],
    [-INF, 1.0],
    [INF, -INF],
    [math.nan, 1.0],
    [1.0, math.nan, INF],
    [1e308, 1e308, -1e308],
    [0.1, 0.2, 0.3],
]


def same(a: float, b: float) -> bool:
    """Equal as eager's values are compared: nan is nan, and the sign of a zero counts."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@pytest.mark.parametrize("row", SPECIAL_ROWS, ids=repr)
def test_pythons_sum_gives_the_runtimes_zeros_infinities_and_nans(row: list[float]) -> None:
    """On every row whose correctly rounded sum is exact in double (zeros, infinities, nan,
    an overflow), Python's `sum` and `mean_in_double` give what the runtime's `total` and
    `mean` give, down to the sign of a zero; on the others, nearly the same value."""
    for mine, runtime in ((sum, kernels.total), (mean_in_double, kernels.mean)):
        expected, actual = float(runtime(row)), mine(row)
        if row == [0.1, 0.2, 0.3]:
            assert actual == pytest.approx(expected, rel=1e-15)
        else:
            assert same(float(actual), expected), (mine.__name__, row, actual, expected)


def only_kernel(fn: Any, *args: Any) -> tuple[str, str]:
    """The source of the graph's one kernel, and its forward."""
    plan = plan_of(tracer.explain(fn, backend="fused")(*args).graphs[0])
    assert plan is not None and len(plan.kernels) == 1
    return plan.kernels[0].source, plan.forward


def kernel_sources(fn: Any, *args: Any) -> str:
    plan = plan_of(tracer.explain(fn, backend="fused")(*args).graphs[0])
    assert plan is not None
    return "".join(k.source for k in plan.kernels)


def softmax(x: Any) -> Any:
    e = torch.exp(x - x.amax(-1, keepdim=True))
    return e / e.sum(-1, keepdim=True)


def test_a_float32_output_is_rounded_in_its_kernel_row_by_row() -> None:
    x = torch.randn(5, 7)
    tracer.reset()
    close(softmax(x), tracer.compile(softmax, backend="fused", fullgraph=True)(x))
    source, forward = only_kernel(softmax, x)
    assert "r_div = round_f32([" in source  # the output's row, rounded as it is computed
    assert "round_f32" not in forward  # the tensor is made of the kernel's buffer as it is
    result = tracer.compile(softmax, backend="fused")(x)
    assert result._data == kernels.round_f32(result._data)  # float32 values
    assert result._data is not x._data


def test_a_float32_output_read_by_a_later_kernel_is_read_rounded() -> None:
    """`y` is an output, and a reduction in another kernel (it needs `y` in another loop
    order, with reordering off) reads it: it reads the rounded values the tensor holds, so
    the sum is the same as the sum of the returned tensor, in the same order."""

    def f(x: Any) -> Any:
        y = x.T * 3.0 + 0.1
        return y, y.sum(0)

    x = torch.randn(6, 4)
    backend = tracer.backends.fused_backend(reorder_loops=False)
    plan = plan_of(tracer.explain(f, backend=backend)(x).graphs[0])
    assert plan is not None and len(plan.kernels) == 2
    tracer.reset()
    y, s = tracer.compile(f, backend=backend, fullgraph=True)(x)
    close(f(x), (y, s))
    columns = [[y._data[r * 6 + c] for r in range(4)] for c in range(6)]
    assert s._data == kernels.round_f32([sum(col) for col in columns])


def test_float32_sums_of_computed_values_add_in_double_sums_of_eager_values_round_correctly() -> (
    None
):
    def f(x: Any) -> Any:
        return (x * 2.0 + 1.0).sum(-1), x.sum(-1), (x * 2.0 + 1.0).mean(-1), x.mean(-1)

    x = torch.randn(3, 8)
    tracer.reset()
    close(f(x), tracer.compile(f, backend="fused", fullgraph=True)(x))
    source = kernel_sources(f, x)
    assert source.count("to_float32(sum(") == 1 and source.count("mean_in_double(") == 1
    assert source.count("total(") == 1 and source.count("to_float32(mean(") == 1

    def sums_only(x: Any) -> Any:
        return x.sum(-1), x.mean(-1)

    assert_same_behavior(sums_only, x, backend="fused", compile_options={"fullgraph": True})
    # float64: the kernel computes the chain exactly as eager does, so it sums as eager does
    x64 = x.to(torch.float64)
    source = kernel_sources(f, x64)
    assert "sum(" not in source.replace("total(", "") and "in_double" not in source
    assert_same_behavior(f, x64, backend="fused", compile_options={"fullgraph": True})


def test_a_float32_sum_of_computed_zeros_keeps_eagers_sign() -> None:
    """Every element of `x * 0.0 - 0.0` is a zero whose sign is the sign of x; the
    correctly rounded sum of any zeros is +0.0 (`math.fsum`), and so is Python's `sum`."""

    def f(x: Any) -> Any:
        z = x * 0.0 - 0.0
        return z.sum(-1), z.mean(-1), z.sum(0)

    x = torch.tensor([[-1.0, -2.0, -3.0], [1.0, -2.0, 3.0], [-0.5, 0.0, -4.0]])
    outcome = assert_same_behavior(f, x, backend="fused", compile_options={"fullgraph": True})
    signs = [math.copysign(1.0, v) for v in outcome.result[0]._data]
    assert signs == [1.0, 1.0, 1.0]
    assert "to_float32(sum(" in kernel_sources(f, x)
