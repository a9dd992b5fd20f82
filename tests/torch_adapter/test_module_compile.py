"""`tracer.compile(model)` on a real torch.nn.Module (issue 24, point 4): the module's forward
compiled with the module as `self`, its parameters and buffers graph inputs; the result equals
eager torch, the graphs equal Dynamo's on `torch.compile(model)`, the second call hits, a new
parameter value does not recompile, a submodule of another type or a change of training mode
does, with the reason, as in Dynamo; a hook makes the call run eagerly, hook included."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tracer.api import CompiledModule
from tracer.testing import CompileCounter

MODELS = (
    "linear",
    "layernorm",
    "embedding",
    "sequential",
    "mlp",
    "embedding and layernorm",
    "transformer block",
    "buffer and attribute",
    "dropout, eval",
)


@pytest.mark.parametrize("name", MODELS)
def test_compiled_model_agrees_with_eager_and_dynamo(name: str) -> None:
    real_torch()
    from tests.torch_adapter.module_programs import model

    module, x = model(name)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(module)(x)
    assert comparison.results_agree, comparison
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons
    assert any("L['self']._" in guard for guard in comparison.modetrace.guards)


@pytest.mark.parametrize("name", MODELS)
def test_compiled_model_hits_on_the_second_call(name: str) -> None:
    torch = real_torch()
    from tests.torch_adapter.module_programs import model

    module, x = model(name)
    compiled = tracer.compile(module)
    assert isinstance(compiled, CompiledModule)
    with CompileCounter() as counter:
        first = compiled(x)
        second = compiled(x)
    assert counter.compiles == 1 and counter.graph_breaks == 0
    expected = module(x)
    for got in (first, second):
        assert torch.allclose(got, expected, rtol=1e-6, atol=1e-6)
        assert got.requires_grad == expected.requires_grad
    graph = compiled.entries[0].graph
    inputs = [node.name for node in graph.graph.placeholders]
    params = sum(1 for _ in module.parameters()) + sum(1 for _ in module.buffers())
    assert len(inputs) == params + 1  # every parameter and buffer is a graph input


def _recompiles(
    change: Callable[[Any], Any], make: Callable[[], tuple[Any, Any]]
) -> tuple[int, int, list[str]]:
    """(modetrace's recompiles, Dynamo's, modetrace's reasons) for: call, `change(module)`,
    call again."""
    torch = real_torch()
    from torch._dynamo.testing import CompileCounter as DynamoCounter

    module, x = make()
    compiled = tracer.compile(module)
    with CompileCounter() as counter:
        compiled(x)
        change(module)
        torch.manual_seed(1)
        got = compiled(x)
    torch.manual_seed(1)
    assert torch.allclose(got, module(x), atol=1e-6)

    module, x = make()
    torch._dynamo.reset()
    dynamo_counter = DynamoCounter()
    dynamo_compiled = torch.compile(module, backend=dynamo_counter)
    dynamo_compiled(x)
    change(module)
    dynamo_compiled(x)
    torch._dynamo.reset()
    return counter.recompiles, dynamo_counter.frame_count - 1, compiled.last_miss_reasons or []


def _mlp() -> tuple[Any, Any]:
    from tests.torch_adapter.module_programs import model

    return model("dropout, eval")


def test_a_new_parameter_value_does_not_recompile() -> None:
    torch = real_torch()

    def change(module: Any) -> None:
        with torch.no_grad():
            module.fc1.weight.add_(1.0)

    assert _recompiles(change, _mlp)[:2] == (0, 0)


def test_a_submodule_of_the_same_type_does_not_recompile() -> None:
    """Its parameters are read where they are now (`L['self']._modules['fc2']._parameters`):
    the graph runs on the new ones, in Dynamo too."""
    torch = real_torch()

    def change(module: Any) -> None:
        module.fc2 = torch.nn.Linear(8, 2)

    assert _recompiles(change, _mlp)[:2] == (0, 0)


def test_a_submodule_of_another_type_recompiles_with_the_reason() -> None:
    torch = real_torch()

    def change(module: Any) -> None:
        module.fc2 = torch.nn.Sequential(torch.nn.Linear(8, 2))

    mine, dynamo, reasons = _recompiles(change, _mlp)
    assert (mine, dynamo) == (1, 1)
    assert any(
        "type(L['self']._modules['fc2']) is Linear (actual Sequential)" in r for r in reasons
    )


def test_training_mode_recompiles_with_the_reason() -> None:
    mine, dynamo, reasons = _recompiles(lambda module: module.train(), _mlp)
    assert (mine, dynamo) == (1, 1)
    assert any("L['self']._modules['drop'].training == False (actual True)" in r for r in reasons)


def test_a_hook_runs_the_call_eagerly_with_the_hook() -> None:
    torch = real_torch()
    from tests.torch_adapter.module_programs import model

    module, x = model("mlp")
    compiled = tracer.compile(module)
    compiled(x)
    seen: list[str] = []
    handle = module.register_forward_hook(lambda m, args, out: seen.append("hook"))
    assert torch.equal(compiled(x), module(x)) and seen == ["hook", "hook"]
    assert compiled.eager_reason == "a hook is registered on the module (_forward_hooks)"
    handle.remove()
    compiled(x)
    assert compiled.eager_reason is None and len(compiled.entries) == 1


@pytest.mark.parametrize(
    ("register", "reason"),
    [
        (lambda m, t: m.register_forward_hook(lambda *a: None), "on the module (_forward_hooks)"),
        (
            lambda m, t: m.register_forward_pre_hook(lambda *a: None),
            "on the module (_forward_pre_hooks)",
        ),
        (
            lambda m, t: m.register_full_backward_hook(lambda *a: None),
            "on the module (_backward_hooks)",
        ),
        (
            lambda m, t: m.register_full_backward_pre_hook(lambda *a: None),
            "on the module (_backward_pre_hooks)",
        ),
        (
            lambda m, t: t.nn.modules.module.register_module_forward_hook(lambda *a: None),
            "for every module (_global_forward_hooks)",
        ),
        (
            lambda m, t: t.nn.modules.module.register_module_forward_pre_hook(lambda *a: None),
            "for every module (_global_forward_pre_hooks)",
        ),
        (
            lambda m, t: t.nn.modules.module.register_module_full_backward_hook(lambda *a: None),
            "for every module (_global_backward_hooks)",
        ),
        (
            lambda m, t: t.nn.modules.module.register_module_full_backward_pre_hook(
                lambda *a: None
            ),
            "for every module (_global_backward_pre_hooks)",
        ),
    ],
    ids=["forward", "forward_pre", "backward", "backward_pre"]
    + ["global " + n for n in ("forward", "forward_pre", "backward", "backward_pre")],
)
def test_each_kind_of_hook_runs_the_call_eagerly_with_its_reason(
    register: Callable[[Any, Any], Any], reason: str
) -> None:
    """`CompiledModule` tests every hook dict `Module._call_impl` tests, at each call."""
    torch = real_torch()
    from tests.torch_adapter.module_programs import model

    module, x = model("mlp")
    compiled = tracer.compile(module)
    compiled(x)
    assert compiled.eager_reason is None
    handle = register(module, torch)
    try:
        assert torch.equal(compiled(x), module(x))
        assert compiled.eager_reason == f"a hook is registered {reason}"
    finally:
        handle.remove()
    compiled(x)
    assert compiled.eager_reason is None and len(compiled.entries) == 1
