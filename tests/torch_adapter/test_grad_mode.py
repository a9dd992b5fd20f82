"""Grad mode changed inside a compiled function on real torch (issue 24): traced whole as the
runtime world traces it (variables/grad_mode.py), each change a `torch._C._set_grad_enabled`
node of the graph; results equal eager torch's, requires_grad and grad_fn included, grad mode
afterwards is eager's, and the graphs equal Dynamo's (which coalesces the changes the same way)."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tracer.testing import CompileCounter

NAMES = (
    "no_grad block",
    "set_grad_enabled calls",
    "set_grad_enabled block",
    "enable_grad inside no_grad",
    "mixed",
    "reads grad mode",
    "empty no_grad",
    "by hand",
    "leaves it off",
)


@pytest.fixture(autouse=True)
def _grad_mode_restored() -> Any:
    torch = real_torch()
    before = torch.is_grad_enabled()
    yield
    torch.set_grad_enabled(before)


@pytest.mark.parametrize("grad_at_call", [True, False], ids=["grad", "no_grad"])
@pytest.mark.parametrize("name", NAMES)
def test_grad_mode_change_agrees_with_eager_and_dynamo(name: str, grad_at_call: bool) -> None:
    torch = real_torch()
    from tests.torch_adapter.grad_programs import FUNCTIONS

    assert tuple(FUNCTIONS) == NAMES
    x = torch.randn(2, 3, requires_grad=True)
    torch.set_grad_enabled(grad_at_call)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(FUNCTIONS[name])(x)
    assert comparison.results_agree, comparison  # requires_grad and grad_fn too
    assert comparison.grad_modes_agree, comparison
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons


def test_the_graph_records_each_change() -> None:
    torch = real_torch()
    from tests.torch_adapter.grad_programs import mixed

    explanation = tracer.explain(mixed)(torch.ones(3, requires_grad=True))
    names = [getattr(t, "__name__", t) for t in _targets(explanation)]
    assert names == ["_set_grad_enabled", "mul", "add", "_set_grad_enabled", "sin"]
    calls = [n.args for n in explanation.graphs[0].graph.nodes if n.op == "call_function"]
    assert calls[0] == (False,) and calls[-1] == (True,)


def _targets(explanation: Any) -> list[Any]:
    return [n.target for n in explanation.graphs[0].graph.nodes if n.op != "placeholder"][:-1]


def test_compiled_results_require_grad_as_eager_and_hit_on_the_second_call() -> None:
    torch = real_torch()
    from tests.torch_adapter.grad_programs import enable_grad_inside_no_grad

    compiled = tracer.compile(enable_grad_inside_no_grad)
    x = torch.randn(3, requires_grad=True)
    with CompileCounter() as counter:
        first = compiled(x)
        second = compiled(x)
    assert counter.compiles == 1 and counter.recompiles == 0
    eager = enable_grad_inside_no_grad(x)
    for got in (first, second):
        assert [t.requires_grad for t in got] == [t.requires_grad for t in eager]
        assert [t.grad_fn is None for t in got] == [True, False, True]
    got[1].sum().backward()  # the graph's result is part of torch's autograd graph
    assert torch.equal(x.grad, torch.full((3,), 4.0))


def test_a_mode_sees_the_changes_as_eagerly() -> None:
    torch = real_torch()
    from tests.torch_adapter.grad_programs import Names, mixed

    x = torch.ones(3, requires_grad=True)
    with Names() as eager:
        expected = mixed(x)
    compiled = tracer.compile(mixed)
    with CompileCounter() as counter, Names() as seen:
        got = compiled(x)
    assert counter.compiles == 1 and counter.graph_breaks == 0
    assert seen.names == eager.names and eager.names.count("_set_grad_enabled") == 6
    assert [t.requires_grad for t in got] == [t.requires_grad for t in expected]


def test_a_module_updating_a_buffer_under_no_grad() -> None:
    torch = real_torch()
    from tests.torch_adapter.grad_programs import Tracked, call

    torch.manual_seed(0)
    eager_model, compiled_model = Tracked(), Tracked()
    compiled_model.load_state_dict(eager_model.state_dict())
    compiled = tracer.compile(call)
    x = torch.randn(4, 3)
    for _ in range(2):
        expected = call(eager_model, x)
        got = compiled(compiled_model, x)
        assert torch.allclose(got, expected, atol=1e-6) and got.requires_grad
        assert torch.allclose(compiled_model.mean, eager_model.mean, atol=1e-6)
        assert not compiled_model.mean.requires_grad
    assert len(compiled.entries) == 1 and compiled.entries[0].break_reason is None
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(call)(Tracked(), x)
    assert comparison.results_agree and comparison.same_graphs, comparison


def test_grad_mode_at_the_call_still_recompiles() -> None:
    torch = real_torch()
    from tests.torch_adapter.grad_programs import no_grad_block

    compiled = tracer.compile(no_grad_block)
    x = torch.ones(3, requires_grad=True)
    with CompileCounter() as counter:
        compiled(x)
        with torch.no_grad():
            result = compiled(x)
    assert counter.recompiles == 1
    assert not any(t.requires_grad for t in result)
    assert any("grad_enabled == True" in r for r in compiled.last_miss_reasons or [])


def test_a_break_inside_a_grad_mode_block_resumes_inside_it() -> None:
    """As Dynamo, the frame resumes inside the block (2 graphs, the same tensor ops): the break
    runs in the block's mode and the resume function ends the block with a real context's
    `__exit__`. Where the graphs set the mode differs (notes/torch-adapter.md): Dynamo's first
    graph sets it back at its end and its resume function enters the block again; modetrace's
    first graph leaves the block's mode set, and its second graph has only the exit."""
    torch = real_torch()
    from tests.torch_adapter.grad_programs import break_inside_no_grad

    x = torch.ones(3, requires_grad=True)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(break_inside_no_grad)(x)
    assert comparison.results_agree and comparison.grad_modes_agree, comparison
    assert comparison.modetrace.graph_count == comparison.dynamo.graph_count == 2
    tensor_ops = [
        [op for op in ops if op != "set_grad_enabled"]
        for ops in (*comparison.modetrace.ops_per_graph, *comparison.dynamo.ops_per_graph)
    ]
    assert tensor_ops[:2] == tensor_ops[2:] == [["mul", "add"], ["mul"]], comparison
    out = io.StringIO()
    compiled = tracer.compile(break_inside_no_grad)
    with contextlib.redirect_stdout(out):
        for _ in range(2):
            y, w = compiled(x)
            assert y.requires_grad and not w.requires_grad and torch.is_grad_enabled()
    assert out.getvalue() == "inside\ninside\n"
