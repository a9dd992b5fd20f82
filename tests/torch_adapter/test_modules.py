"""nn.Modules on real torch (issue 24, point 4): a module passed to a compiled function is
called through its `forward`, its parameters and buffers are graph inputs; the result equals
eager torch and the graphs equal Dynamo's (Linear, Sequential, an MLP, Embedding and LayerNorm,
a transformer block with F.scaled_dot_product_attention, a buffer and a plain attribute,
MultiheadAttention, convolution and norm layers, a TransformerDecoderLayer, and a
TransformerEncoderLayer in eval mode, with and without grad: its fused path, and GRU and LSTM
cells called in a loop)."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch

NAMES = (
    "linear",
    "sequential",
    "mlp",
    "embedding and layernorm",
    "transformer block",
    "buffer and attribute",
    "multi-head attention",
    "nn layers",
    "transformer decoder layer",
    "transformer encoder layer, eval",
    "transformer encoder layer, inference",
    "recurrent cells in a loop",
)


@pytest.mark.parametrize("name", NAMES)
def test_module_agrees_with_eager_and_dynamo(name: str) -> None:
    real_torch()
    from tests.torch_adapter import module_programs

    assert module_programs.NAMES == NAMES
    fn, *args = module_programs.make(name)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(fn)(*args)
    assert comparison.results_agree, comparison
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons


def test_parameters_are_guarded_inputs_and_a_hook_falls_back() -> None:
    torch = real_torch()
    from tests.torch_adapter.module_programs import call

    model = torch.nn.Linear(3, 2)
    x = torch.randn(2, 3)
    explanation = tracer.explain(call)(model, x)
    guards = "\n".join(explanation.guards)
    assert "type(L['model']._parameters['weight']) is Parameter" in guards
    # one FACTS_MATCH on the module: what `Module.__call__` tests before calling forward
    assert "len(L['model']._forward_hooks) == 0" in guards
    assert "L['model']._compiled_call_impl is None and " in guards
    module_globals = "sys.modules['torch.nn.modules.module'].__dict__"
    assert f"{module_globals} is <dict object>" in guards  # `Module.__call__.__globals__`
    assert f"len({module_globals}['_global_forward_hooks']) == 0" in guards
    assert torch.equal(explanation.result, model(x))

    seen: list[str] = []
    model.register_forward_hook(lambda module, args, out: seen.append("hook"))
    compiled = tracer.compile(call)
    result = compiled(model, x)
    assert torch.equal(result, model(x))
    assert seen == ["hook", "hook"]  # the compiled call ran the hook, as eager does
    assert "a hook is registered" in str(tracer.explain(call)(model, x).break_reasons[0])


def test_a_changed_parameter_shape_recompiles() -> None:
    torch = real_torch()
    from tests.torch_adapter.module_programs import call

    compiled = tracer.compile(call)
    compiled(torch.nn.Linear(3, 2), torch.randn(2, 3))
    compiled(torch.nn.Linear(3, 4), torch.randn(2, 3))
    assert any(
        "_parameters['bias'].shape == (2,) (actual (4,))" in r
        for r in compiled.last_miss_reasons or []
    )


def test_a_global_hook_registered_after_the_compile_is_seen() -> None:
    """The global hook dicts are guarded once, in `Module.__call__`'s module: a hook for every
    module, registered after the compile, misses the guard and runs, as eagerly."""
    torch = real_torch()
    from tests.torch_adapter.module_programs import make

    fn, model, x = make("mlp")
    compiled = tracer.compile(fn)
    compiled(model, x)
    seen: list[str] = []
    handle = torch.nn.modules.module.register_module_forward_hook(
        lambda module, args, out: seen.append(type(module).__name__)
    )
    try:
        result = compiled(model, x)
    finally:
        handle.remove()
    assert seen == ["Linear", "Linear", "MLP"]
    assert torch.allclose(result, model(x))
    assert any("_global_forward_hooks" in r for r in compiled.last_miss_reasons or [])


def test_a_name_put_into_an_earlier_module_dict_is_seen() -> None:
    """`Module.__getattr__` looks in `_parameters`, then `_buffers`, then `_modules`: a trace
    that found `scale` among the buffers holds only while no parameter of that name appears
    (written straight into `_parameters`, which `register_parameter` would refuse), and one
    that found a submodule only while no parameter or buffer of its name does."""
    torch = real_torch()
    from torch import nn

    class Scaled(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("scale", torch.ones(2))
            self.inner = nn.Identity()

        def forward(self, x: Any) -> Any:
            return self.inner(x) * self.scale

    model, x = Scaled(), torch.arange(2.0)
    compiled = tracer.compile(model)
    assert torch.equal(compiled(x), model(x))
    model._parameters["scale"] = nn.Parameter(torch.full((2,), 5.0), requires_grad=False)
    assert torch.equal(compiled(x), model(x))  # x * 5, the parameter eager finds first
    reasons = compiled.compiled.last_miss_reasons or []
    assert any("L['self']._parameters" in r for r in reasons), reasons
    model._buffers["inner"] = torch.full((2,), 3.0)  # now `self.inner` is a tensor: not callable
    with pytest.raises(TypeError) as eager:
        model(x)
    with pytest.raises(TypeError) as traced:
        compiled(x)
    assert str(traced.value) == str(eager.value)


def test_a_class_attribute_of_a_module_s_name_is_what_eager_reads() -> None:
    """Ordinary lookup finds a class attribute before `Module.__getattr__` is asked: one
    there when the module is compiled is what the trace reads, and one set on the class (or
    on `nn.Module`) afterwards misses the guards."""
    torch = real_torch()
    from torch import nn

    class Scaled(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("scale", torch.ones(2))

        def forward(self, x: Any) -> Any:
            return x * self.scale

    model, other, x = Scaled(), Scaled(), torch.arange(2.0)
    compiled = tracer.compile(model)
    assert torch.equal(compiled(x), model(x))
    try:
        Scaled.scale = 7.0  # type: ignore[attr-defined]
        assert torch.equal(compiled(x), torch.tensor([0.0, 7.0]))
        del Scaled.scale  # type: ignore[attr-defined]
        assert torch.equal(compiled(x), model(x))
        nn.Module.scale = 3.0  # type: ignore[attr-defined]
        assert torch.equal(compiled(x), torch.tensor([0.0, 3.0]))
        fresh = tracer.compile(other)  # the class attribute there when it compiles
        assert torch.equal(fresh(x), torch.tensor([0.0, 3.0]))
    finally:
        if "scale" in vars(nn.Module):
            del nn.Module.scale  # type: ignore[attr-defined]
        if "scale" in vars(Scaled):
            del Scaled.scale  # type: ignore[attr-defined]


def eval_then_call(model: Any, x: Any) -> Any:
    model.eval()
    return model(x)


def counts_calls(model: Any, x: Any) -> Any:
    model.calls = model.calls + 1
    model.note = None
    return model(x) * model.calls


def test_a_constant_stored_on_a_module_inside_the_frame() -> None:
    """`model.eval()` inside a compiled function (`Module.train` stores `self.training` on the
    module and each child) and a counter of the user's: torch's `Module.__setattr__` puts a
    constant in the instance dict when no parameter, buffer or submodule has its name, which
    the trace models (the three dicts guarded to lack it). Before, tracing
    `Module.__setattr__` broke at `self.__dict__` and the frame ran eagerly; now 1 graph, as
    Dynamo's."""
    torch = real_torch()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5))
    x = torch.randn(2, 3)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(eval_then_call)(model, x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons
    compiled = tracer.compile(eval_then_call)
    for _ in range(2):
        model.train()
        assert torch.equal(compiled(model, x), model(x))  # dropout off: eval mode
        assert not model.training and not any(m.training for m in model)
    model.calls = 0
    compiled = tracer.compile(counts_calls)
    for expected in (1, 2, 3):
        got = compiled(model, x)
        assert model.calls == expected and model.note is None
        assert torch.equal(got, model(x) * expected)
    assert compiled.entries[0].break_reason is None


def optional_parts(model: Any, x: Any) -> Any:
    y = model(x)
    if hasattr(model, "bias") and model.bias is not None:
        y = y + 1
    return y * getattr(model, "scale", 2.0)


def test_a_missing_module_attribute_is_torch_s_attribute_error() -> None:
    """`Module.__getattr__` looks in the parameters, buffers and submodules, then raises
    AttributeError: modeled (the three dicts guarded to lack the name), so `hasattr` and
    `getattr` with a default are answered while tracing; an attribute set later misses."""
    torch = real_torch()
    x = torch.randn(2, 3)
    compiled = tracer.compile(optional_parts)
    for model in (torch.nn.Linear(3, 3), torch.nn.Sequential(torch.nn.ReLU())):
        assert torch.equal(compiled(model, x), optional_parts(model, x))
        assert not tracer.explain(optional_parts)(model, x).break_reasons
    model.scale = 5.0
    assert torch.equal(compiled(model, x), optional_parts(model, x))

    def missing(m: Any) -> Any:
        return m.nothing_here

    with pytest.raises(AttributeError, match="^'Linear' object has no attribute 'nothing_here'$"):
        tracer.compile(missing)(torch.nn.Linear(2, 2))
