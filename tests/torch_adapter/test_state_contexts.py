"""`torch.autocast` and `torch.inference_mode` blocks inside compiled functions on real torch
(variables/state_contexts.py): each block an enter node and an exit node of the graph, as
Dynamo records them; results equal eager torch's (dtype, requires_grad and whether they are
inference tensors included), the state afterwards is eager's, and the graphs equal Dynamo's.
What is not modeled (a break inside a block, a block entered by hand and left open, the
decorator form) runs eagerly, with eager's errors and warnings."""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tracer.testing import CompileCounter

NAMES = (
    "autocast block",
    "autocast bfloat16 linear",
    "autocast float16",
    "autocast disabled",
    "autocast empty",
    "inference block",
    "inference_mode(False) under no_grad",
    "autocast and inference",
    "no_grad inside inference",
)


@pytest.fixture(autouse=True)
def _state_restored() -> Any:
    torch = real_torch()
    before = (
        torch.is_grad_enabled(),
        torch.get_autocast_dtype("cpu"),
        torch.is_autocast_cache_enabled(),
    )
    yield
    torch.set_grad_enabled(before[0])
    torch.set_autocast_dtype("cpu", before[1])
    torch.set_autocast_cache_enabled(before[2])


def _state(torch: Any) -> tuple[Any, ...]:
    return (
        torch.is_grad_enabled(),
        torch.is_inference_mode_enabled(),
        torch.is_autocast_enabled("cpu"),
        torch.get_autocast_dtype("cpu"),
        torch.is_autocast_cache_enabled(),
    )


def _inputs(torch: Any) -> tuple[Any, Any]:
    torch.manual_seed(0)
    return torch.randn(4, 8, requires_grad=True), torch.randn(8, 3)


def _names(explanation: Any) -> list[str]:
    return [
        getattr(node.target, "__name__", str(node.target))
        for node in explanation.graphs[0].graph.nodes
        if node.op in ("call_function", "call_method")
    ]


@pytest.mark.parametrize("grad_at_call", [True, False], ids=["grad", "no_grad"])
@pytest.mark.parametrize("name", NAMES)
def test_a_block_agrees_with_eager_and_dynamo(name: str, grad_at_call: bool) -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import FUNCTIONS

    assert tuple(FUNCTIONS) == NAMES
    x, w = _inputs(torch)
    torch.set_grad_enabled(grad_at_call)
    before = _state(torch)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(FUNCTIONS[name])(x, w)
    assert comparison.results_agree, comparison  # dtype, requires_grad, is_inference too
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons
    assert _state(torch) == before


def test_the_nodes_and_their_arguments() -> None:
    """autocast's enter node gets the four values its constructor resolved (the device's
    autocast dtype for a dtype not given), and each exit node the context its enter returned."""
    torch = real_torch()
    from tests.torch_adapter.state_programs import autocast_and_inference, autocast_block

    x, w = _inputs(torch)
    explanation = tracer.explain(autocast_block)(x, w)
    assert _names(explanation) == [
        "_enter_autocast", "mm", "add", "_exit_autocast", "float", "mul",
    ]  # fmt: skip
    nodes = [n for n in explanation.graphs[0].graph.nodes if n.op == "call_function"]
    assert nodes[0].args == ("cpu", torch.get_autocast_dtype("cpu"), True, True)
    assert nodes[3].args == (nodes[0],)
    explanation = tracer.explain(autocast_and_inference)(x, w)
    assert _names(explanation) == [
        "_enter_autocast", "_enter_inference_mode", "mm", "_exit_inference_mode", "mm",
        "_exit_autocast",
    ]  # fmt: skip


def test_each_call_hits_and_results_are_eager_s() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import autocast_and_inference, inference_block

    x, w = _inputs(torch)
    for fn in (inference_block, autocast_and_inference):
        compiled = tracer.compile(fn)
        with CompileCounter() as counter:
            results = [compiled(x, w) for _ in range(3)]
        assert counter.compiles == 1 and counter.recompiles == 0 and counter.graph_breaks == 0
        expected = fn(x, w)
        for got in results:
            for a, b in zip(got, expected, strict=True):
                if isinstance(b, torch.Tensor):
                    assert torch.equal(a, b) and a.dtype == b.dtype
                    assert (a.requires_grad, a.is_inference()) == (
                        b.requires_grad,
                        b.is_inference(),
                    )
                else:
                    assert a == b


def test_the_autocast_dtype_a_block_defaults_to_is_guarded() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import autocast_block, autocast_float16

    x, w = _inputs(torch)
    compiled = tracer.compile(autocast_block)
    assert compiled(x, w)[1] == torch.bfloat16
    torch.set_autocast_dtype("cpu", torch.float16)
    with CompileCounter() as counter:
        assert compiled(x, w)[1] == torch.float16 == autocast_block(x, w)[1]
    assert counter.recompiles == 1
    assert any("autocast_dtype[cpu]" in reason for reason in compiled.last_miss_reasons or [])
    torch.set_autocast_cache_enabled(False)
    with CompileCounter() as counter:
        compiled(x, w)
    assert counter.recompiles == 1
    # a block given its dtype and cache flag does not read them
    explicit = tracer.compile(autocast_float16)
    explicit(x, w)
    torch.set_autocast_dtype("cpu", torch.bfloat16)
    torch.set_autocast_cache_enabled(True)
    with CompileCounter() as counter:
        explicit(x, w)
    assert counter.recompiles == 0


def test_a_mode_sees_what_it_sees_eagerly() -> None:
    """autocast's and inference_mode's enter and exit hand a mode nothing; the ops inside
    reach it as eagerly, and compute in the block's state under it."""
    torch = real_torch()
    from tests.torch_adapter.grad_programs import Names
    from tests.torch_adapter.state_programs import autocast_and_inference

    x, w = _inputs(torch)
    with Names() as eager:
        expected = autocast_and_inference(x, w)
    compiled = tracer.compile(autocast_and_inference)
    with CompileCounter() as counter, Names() as seen:
        got = compiled(x, w)
    assert counter.compiles == 1 and counter.graph_breaks == 0
    assert seen.names == eager.names and "mm" in eager.names
    assert got[0].dtype == expected[0].dtype == torch.bfloat16
    assert [t.is_inference() for t in got] == [t.is_inference() for t in expected] == [True, False]


def test_a_module_under_autocast_agrees_with_dynamo() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import AutocastMLP

    torch.manual_seed(0)
    model, x = AutocastMLP(), torch.randn(5, 8)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(model)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    ops = comparison.modetrace.ops_per_graph[0]
    assert ops[0] == "enter_autocast" and "exit_autocast" in ops, ops
    compiled = tracer.compile(model)
    got = compiled(x)
    assert got.dtype == torch.float32 and torch.equal(got, model(x))


def test_a_break_inside_a_block_runs_the_frame_eagerly() -> None:
    """As Dynamo, which cannot break inside these context managers either."""
    torch = real_torch()
    from tests.torch_adapter.state_programs import break_inside_autocast

    x, w = _inputs(torch)
    compiled = tracer.compile(break_inside_autocast)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        got = compiled(x, w)
        explanation = tracer.explain(break_inside_autocast)(x, w)
    assert out.getvalue() == "inside\ninside\n"
    with contextlib.redirect_stdout(io.StringIO()):
        expected = break_inside_autocast(x, w)
    for a, b in zip(got, expected, strict=True):
        assert torch.equal(a, b) and a.dtype == torch.bfloat16
    assert explanation.graph_count == 0
    assert "with block of autocast" in str(explanation.break_reasons[0])
    assert not torch.is_autocast_enabled("cpu")


def test_a_block_left_open_runs_the_frame_eagerly() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import entered_by_hand

    x, w = _inputs(torch)
    compiled = tracer.compile(entered_by_hand)
    try:
        got = compiled(x, w)
        assert torch.is_autocast_enabled("cpu")  # left on, as eagerly
    finally:
        torch.set_autocast_enabled("cpu", False)
        torch.autocast_decrement_nesting()
    assert got.dtype == torch.bfloat16
    assert compiled.entries[0].break_reason is not None
    assert "still open" in str(compiled.entries[0].break_reason)


def test_an_exception_inside_a_block_is_eager_s_and_the_state_is_restored() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import raises_inside

    x, w = _inputs(torch)
    compiled = tracer.compile(raises_inside)
    for _ in range(2):
        with pytest.raises(ValueError, match=r"^inside, 4 rows$"):
            compiled(x, w)
        assert not torch.is_inference_mode_enabled() and torch.is_grad_enabled()


def test_eager_errors_and_warnings_of_the_constructor() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import unknown_device, unsupported_dtype

    x, w = _inputs(torch)
    with pytest.raises(RuntimeError) as eager:
        unknown_device(x, w)
    with pytest.raises(RuntimeError) as compiled:
        tracer.compile(unknown_device)(x, w)
    assert str(compiled.value) == str(eager.value)
    for _ in range(2):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = tracer.compile(unsupported_dtype)(x, w)
        assert [str(m.message).splitlines()[0] for m in seen] == [
            "In CPU autocast, but the target dtype is not supported. Disabling autocast."
        ]
        assert got.dtype == torch.float32


def test_a_change_of_grad_mode_inside_inference_mode_runs_the_frame_eagerly() -> None:
    """Dynamo traces it (1 graph); modetrace's fake runs enter inference mode around each op,
    which would turn grad mode off under the `enable_grad` (notes/torch-adapter.md)."""
    torch = real_torch()
    from tests.torch_adapter.state_programs import enable_grad_inside_inference

    x, w = _inputs(torch)
    got = tracer.compile(enable_grad_inside_inference)(x, w)
    expected = enable_grad_inside_inference(x, w)
    assert torch.equal(got, expected) and got.requires_grad == expected.requires_grad
    assert got.is_inference() == expected.is_inference()
    explanation = tracer.explain(enable_grad_inside_inference)(x, w)
    assert explanation.graph_count == 0
    assert "inside a torch.inference_mode block" in str(explanation.break_reasons[0])


def test_inference_mode_decorating_a_function_made_in_the_frame() -> None:
    """`torch.inference_mode(fn)` breaks (its argument is a function made in the trace); the
    call of what it returns is traced by the resume function, its block an enter and an exit
    node. (Dynamo 2.13's explain fails on this function with an internal AssertionError.)"""
    torch = real_torch()
    from tests.torch_adapter.state_programs import inference_mode_decorating

    x, w = _inputs(torch)
    compiled = tracer.compile(inference_mode_decorating)
    for _ in range(2):
        got, expected = compiled(x, w), inference_mode_decorating(x, w)
        assert torch.equal(got, expected)
        assert (got.requires_grad, got.is_inference()) == (False, True)
        assert expected.is_inference()
    explanation = tracer.explain(inference_mode_decorating)(x, w)
    assert explanation.graph_count == 1 and explanation.graph_break_count == 1
    assert _names(explanation) == ["_enter_inference_mode", "mul", "_exit_inference_mode"]


def test_a_function_decorated_with_inference_mode_is_traced() -> None:
    torch = real_torch()
    from tests.torch_adapter.state_programs import calls_an_inference_mode_function

    x, w = _inputs(torch)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(calls_an_inference_mode_function)(x, w)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1


def test_is_inference_inside_a_block_is_traced() -> None:
    """Dynamo breaks at `t.is_inference()` ("Encountered tensor.is_inference() during
    tracing": 2 graphs); modetrace's fake runs enter inference mode, so the fake result is an
    inference tensor and the question is answered while tracing: 1 graph."""
    torch = real_torch()
    from tests.torch_adapter.state_programs import asks_is_inference

    x, w = _inputs(torch)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(asks_is_inference)(x, w)
    assert comparison.results_agree, comparison
    assert comparison.modetrace.graph_count == 1 and comparison.dynamo.graph_count == 2
    got = tracer.compile(asks_is_inference)(x, w)
    assert got[1:] == asks_is_inference(x, w)[1:] == (True, False)
