"""backend="fused" computes what eager computes (within float tolerance: notes/fused-backend.md)
and raises the same exceptions, on generated programs and on the shapes that are corners:
0-d, size-1 and transposed inputs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given

import tracer
import tracer.runtime as torch
from tests.fused.checking import close
from tests.fused.programs import build, programs
from tracer.fused import plan_of


def run_both(fn: Any, *args: Any) -> tuple[Any, Any, tracer.explain]:
    tracer.reset()
    expected = fn(*args)
    compiled = tracer.compile(fn, backend="fused", fullgraph=True)
    first = compiled(*args)
    second = compiled(*args)
    close(expected, first)
    close(expected, second)
    return expected, first, compiled


@given(programs())
def test_generated_programs_match_eager(program: tuple[str, list[Any]]) -> None:
    source, args = program
    fn = build(source)
    try:
        run_both(fn, *args)
    except AssertionError as e:
        raise AssertionError(f"{e}\n{source}") from e


@given(programs(shape_error=True))
def test_generated_shape_errors_match_eager(program: tuple[str, list[Any]]) -> None:
    source, args = program
    fn = build(source)
    with pytest.raises(RuntimeError) as eager:
        fn(*args)
    tracer.reset()
    with pytest.raises(RuntimeError) as fused:
        tracer.compile(fn, backend="fused")(*args)
    assert type(fused.value) is type(eager.value)
    assert str(fused.value) == str(eager.value)


def kernel_count(fn: Any, *args: Any) -> list[int]:
    return [k.count for k in tracer.explain(fn, backend="fused")(*args).kernels_per_graph]


def test_pointwise_chain_is_one_kernel_without_intermediates() -> None:
    def f(x: Any, y: Any) -> Any:
        return ((x * 2 + y).sin() - 1).relu() * y

    x, y = torch.randn(4, 5), torch.randn(5)
    run_both(f, x, y)
    explanation = tracer.explain(f, backend="fused")(x, y)
    (kernels,) = explanation.kernels_per_graph
    assert kernels.count == 1
    assert "zip(" in kernels.sources[0]  # contiguous reads walk their rows
    rows = re.findall(r"^\s+r_\w+ = ", kernels.sources[0], re.MULTILINE)
    assert len(rows) == 1  # one row computed per iteration: no intermediate values


def test_softmax_and_layer_norm_fuse_reductions_with_pointwise() -> None:
    def softmax(x: Any) -> Any:
        e = torch.exp(x - x.amax(-1, keepdim=True))
        return e / e.sum(-1, keepdim=True)

    def layer_norm(x: Any, w: Any, b: Any) -> Any:
        mu = x.mean(-1, keepdim=True)
        d = x - mu
        var = (d * d).mean(-1, keepdim=True)
        return d / torch.sqrt(var + 1e-5) * w + b

    x = torch.randn(6, 8)
    run_both(softmax, x)
    assert kernel_count(softmax, x) == [1]
    w, b = torch.randn(8), torch.randn(8)
    run_both(layer_norm, x, w, b)
    assert kernel_count(layer_norm, x, w, b) == [1]


def test_zero_dim_size_one_and_transposed_inputs() -> None:
    def f(s: Any, one: Any, t: Any) -> Any:
        return (t.T * s + one).sum(0), (s * 3).sigmoid(), one.amax(-1)

    run_both(f, torch.tensor(0.5), torch.randn(1, 1), torch.randn(3, 2))


def test_reordering_fuses_transposed_pointwise_with_its_reduction() -> None:
    def f(x: Any) -> Any:
        y = x.T * 2.0 + 1.0
        return y, y.sum(0)

    x = torch.randn(5, 5)
    run_both(f, x)
    explanation = tracer.explain(f, backend="fused")(x)
    assert [k.count for k in explanation.kernels_per_graph] == [1]
    plan = plan_of(explanation.graphs[0])
    assert plan is not None and plan.stats["reordered"] == 1


def test_unlowered_ops_run_as_runtime_calls() -> None:
    def f(x: Any, y: Any) -> Any:
        z = (x @ y).relu()
        return z + (x > 0).float(), (x.long() * 3).sum()

    run_both(f, torch.randn(3, 3), torch.randn(3, 3))


def test_requires_grad_flows_like_eager() -> None:
    def f(x: Any, y: Any) -> Any:
        return x * y, (y * 2).sum()

    x = torch.randn(2, 2)
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    run_both(f, x, y)
