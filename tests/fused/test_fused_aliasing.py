"""backend="fused" returns views where eager does (issue 25): an output that is a view of a
graph input, of another output or of an intermediate shares storage and version counter as in
eager, so writing it afterwards writes what eager's write writes.

Each case runs eagerly and compiled (twice: the second call is the cache hit) on fresh copies
of the inputs, then writes every floating output in turn (`mul_` then `add_`, so overlapping
writes depend on their order), and compares the inputs and outputs afterwards, which of them
are the same object or share a storage, their element positions in it and their versions."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given

import tracer
import tracer.runtime as torch
from tests.fused.checking import close
from tests.fused.programs import build, programs
from tracer.fused import FusedPlan, plan_of


def _facts(tensors: list[Any]) -> dict[str, Any]:
    """What aliasing eager decides: identity, shared storage, positions in it, versions."""
    return {
        "same object": [[a is b for b in tensors] for a in tensors],
        "same storage": [[a._storage is b._storage for b in tensors] for a in tensors],
        "positions": [t._view for t in tensors],
        "versions": [t._version for t in tensors],
    }


def _run_and_write(fn: Callable[..., Any], args: tuple[Any, ...]) -> dict[str, Any]:
    inputs = list(args)
    result = fn(*args)
    outputs = list(result) if isinstance(result, tuple) else [result]
    tensors = [t for t in inputs + outputs if isinstance(t, torch.Tensor)]
    before = _facts(tensors)
    for i, out in enumerate(outputs):
        if isinstance(out, torch.Tensor) and out.dtype.is_floating_point:
            out.mul_(2)
            out.add_(i + 1)
    return {"before": before, "after": _facts(tensors), "tensors": tensors}


def assert_aliasing_like_eager(fn: Callable[..., Any], *args: Any) -> None:
    expected = _run_and_write(fn, copy.deepcopy(args))
    scale = max(
        (abs(v) for t in expected["tensors"] for v in t._data if isinstance(v, float)),
        default=0.0,
    )
    scale = scale if math.isfinite(scale) else 0.0
    tracer.reset()
    compiled = tracer.compile(fn, backend="fused", fullgraph=True)
    for call in ("first call", "second call"):
        actual = _run_and_write(compiled, copy.deepcopy(args))
        assert actual["before"] == expected["before"], call
        assert actual["after"] == expected["after"], call
        for i, (e, a) in enumerate(zip(expected["tensors"], actual["tensors"], strict=True)):
            close(e, a, f"{call}: tensor {i} after the writes", scale)


DTYPES = [torch.float32, torch.float64]


def _input(dtype: Any, transposed: bool, rows: int = 2, cols: int = 3) -> Any:
    if transposed:
        return torch.randn(cols, rows, dtype=dtype).T
    return torch.randn(rows, cols, dtype=dtype)


def views_of_an_input(x: Any) -> Any:
    return x.reshape(-1), x.transpose(0, 1), x[0]


def views_of_another_output(x: Any) -> Any:
    y = x * 2.0 + 1.0
    return y, y.T, y.unsqueeze(0), y.view(-1), y.permute(1, 0)


def views_of_one_intermediate(x: Any) -> Any:
    y = x.sin()
    return y.T, y.unsqueeze(1), y.squeeze()


def reshapes_of_transposed_values(x: Any) -> Any:
    # eager copies where the elements are scattered: a reshape of a transposed input or result
    return x.T.reshape(-1), (x * 3.0).T.reshape(3, 2), (x + 1.0).reshape(6)


def a_chain_of_views(x: Any) -> Any:
    return x.T.unsqueeze(0).squeeze(0).permute(1, 0).unsqueeze(-1), x.contiguous()


def contiguous_returns_its_input(x: Any) -> Any:
    y = x.relu()
    return x.contiguous(), y, y.contiguous()


def a_view_read_by_a_kernel_too(x: Any) -> Any:
    t = x.T
    return t, (t * 2.0).sum(0), t.exp()


def a_view_read_by_a_runtime_call(x: Any) -> Any:
    y = x.exp()
    return x.T[0], y.T[1], x.unsqueeze(0).expand(2, 2, 3)


def a_view_of_a_reduction(x: Any) -> Any:
    s = x.sum(0, keepdim=True)
    return s, s.squeeze(0), (x - s).T


def in_place_writes(x: Any) -> Any:
    t = x.T
    t.add_(1.0)
    return t, x * 2.0, x.reshape(-1)


CASES = [
    views_of_an_input,
    views_of_another_output,
    views_of_one_intermediate,
    reshapes_of_transposed_values,
    a_chain_of_views,
    contiguous_returns_its_input,
    a_view_read_by_a_kernel_too,
    a_view_read_by_a_runtime_call,
    a_view_of_a_reduction,
    in_place_writes,
]


@pytest.mark.parametrize("transposed", [False, True], ids=["contiguous", "transposed"])
@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_outputs_alias_as_in_eager(fn: Callable[..., Any], dtype: Any, transposed: bool) -> None:
    assert_aliasing_like_eager(fn, _input(dtype, transposed))


def test_the_issue_reproducer() -> None:
    """Writing each output of `views_of_an_input` writes the input, as in eager."""
    for dtype in DTYPES:
        x = torch.ones(2, 3, dtype=dtype)
        tracer.reset()
        for out in tracer.compile(views_of_an_input, backend="fused", fullgraph=True)(x):
            out.mul_(2)
        assert x.tolist() == [[8.0, 8.0, 8.0], [4.0, 4.0, 4.0]]


def test_views_of_a_fused_value_still_fuse() -> None:
    """The pointwise chain under the views is one kernel; the views are the runtime's."""

    def f(x: Any, y: Any) -> Any:
        z = (x * 2.0 + y).sin()
        return z.T, z.reshape(-1)

    x, y = torch.randn(3, 4), torch.randn(4)
    assert_aliasing_like_eager(f, x, y)
    tracer.reset()
    (kernels,) = tracer.explain(f, backend="fused")(x, y).kernels_per_graph
    assert kernels.count == 1
    assert "T = tensor_T(sin)" in kernels.forward
    assert "reshape = tensor_reshape(sin, -1)" in kernels.forward


def test_a_plan_with_runtime_views_round_trips_as_data() -> None:
    """The views are runtime ops the plan names as data (`x.T` is a property's getter), so a
    cache can store the plan, and the loaded plan returns views too."""
    x = torch.randn(2, 3)
    tracer.reset()
    gm = tracer.explain(a_view_read_by_a_runtime_call, backend="fused")(x).graphs[0]
    plan = plan_of(gm)
    assert plan is not None and plan.portable
    assert plan.forward_globals["tensor_T"] == {"kind": "op", "owner": "tensor", "name": "T"}
    outputs = FusedPlan.from_json(plan.to_json()).load()(x)
    assert [out._storage is x._storage for out in outputs] == [True, False, True]


@given(programs())
def test_generated_programs_alias_as_in_eager(program: tuple[str, list[Any]]) -> None:
    source, args = program
    try:
        assert_aliasing_like_eager(build(source), *args)
    except AssertionError as e:
        raise AssertionError(f"{e}\n{source}") from e
