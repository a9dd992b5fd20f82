"""`tracer.compile` of an nn.Module, a bound method and a callable object (issue 23 point 2):
the module's forward compiles whole with `self` as an input, parameters are graph inputs (new
values do not recompile), attributes forward reads are guarded (a change recompiles, and says
which), and the Done-means model file agrees with eager and with real torch."""

from __future__ import annotations

import types
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.real_torch import real_torch
from tests.runtime.test_model_file import build
from tracer.exc import UserError
from tracer.testing import assert_same_behavior

nn, F = torch.nn, torch.nn.functional


def model_and_input() -> tuple[Any, Any]:
    torch.manual_seed(0)
    return build(torch), torch.randn(3, 4)


def test_compiled_model_matches_eager_whole_and_hits() -> None:
    model, x = model_and_input()
    compiled = tracer.compile(model)
    with torch.no_grad():
        expected = model(x).tolist()
        first = compiled(x).tolist()
        second = compiled(x).tolist()
    for got in (first, second):
        for row_got, row_expected in zip(got, expected, strict=True):
            assert all(abs(a - b) <= 1e-5 for a, b in zip(row_got, row_expected, strict=True))
    assert compiled.compile_count == 1  # the second call hit
    (entry,) = compiled.entries
    assert entry.break_reason is None
    assert "L['self']._modules['up']._parameters['weight']" in str(entry.guards)


def test_module_as_argument_same_behavior() -> None:
    model, x = model_and_input()

    def run(m: Any, x: Any) -> Any:
        with torch.no_grad():
            return m(x)

    compiled = tracer.compile(run)
    assert_same_behavior(compiled, model, x)
    assert [entry.break_reason for entry in compiled.entries] == [None]


def test_new_parameter_values_do_not_recompile() -> None:
    model, x = model_and_input()
    compiled = tracer.compile(model)
    with torch.no_grad():
        compiled(x)
        model.up.weight.mul_(2.0)
        model.load_state_dict({k: v * 0.5 for k, v in model.state_dict().items()})
        assert compiled(x).tolist() == model(x).tolist()
    assert compiled.compile_count == 1


def test_changed_attribute_recompiles_with_a_reason() -> None:
    model, x = model_and_input()
    compiled = tracer.compile(model)
    with torch.no_grad():
        compiled(x)
        model.norm.eps = 1e-3
        assert compiled(x).tolist() == model(x).tolist()
    assert compiled.compile_count == 2
    (reason,) = compiled.last_miss_reasons
    assert "L['self']._modules['norm'].eps == 1e-05 (actual 0.001)" in reason


def test_train_mode_is_guarded() -> None:
    """Dropout reads `self.training`: switching to train recompiles (and breaks: dropout in
    train mode reads the random generator), switching back hits the first entry."""
    model, x = model_and_input()
    compiled = tracer.compile(model)
    with torch.no_grad():
        compiled(x)
        model.train()
        compiled(x)
        (reason,) = compiled.last_miss_reasons
        model.eval()
        compiled(x)
    assert compiled.compile_count == 2
    assert "L['self']._modules['drop'].training == False (actual True)" in reason


def test_replaced_forward_runs_eagerly_with_a_reason() -> None:
    model, x = model_and_input()
    compiled = tracer.compile(model)
    with torch.no_grad():
        compiled(x)
        model.forward = lambda x: x * 2  # an instance attribute: model(x) calls it
        assert compiled(x).tolist() == (x * 2).tolist()
    assert compiled.eager_reason is not None and "`forward` of its own" in compiled.eager_reason


class Scaler:
    def __init__(self, k: float) -> None:
        self.k = k

    def scale(self, x: Any) -> Any:
        return x * self.k

    def __call__(self, x: Any) -> Any:
        return x + self.k


def test_compile_bound_method() -> None:
    obj = Scaler(2.0)
    compiled = tracer.compile(obj.scale)
    assert isinstance(compiled, types.MethodType) and compiled.__self__ is obj
    x = torch.ones(2)
    assert compiled(x).tolist() == [2.0, 2.0]
    obj.k = 3.0
    assert compiled(x).tolist() == [3.0, 3.0]
    assert compiled.compile_count == 2
    assert "L['self'].k == 2.0 (actual 3.0)" in compiled.last_miss_reasons[0]


def test_compile_callable_object() -> None:
    obj = Scaler(2.0)
    compiled = tracer.compile(obj)
    x = torch.ones(2)
    assert compiled(x).tolist() == [3.0, 3.0]
    assert compiled(x).tolist() == [3.0, 3.0]
    assert compiled.compile_count == 1


def test_compile_method_of_a_module() -> None:
    class Twice(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lin = nn.Linear(2, 2)

        def forward(self, x: Any) -> Any:
            return self.lin(x)

        def twice(self, x: Any) -> Any:
            return self.lin(self.lin(x))

    torch.manual_seed(0)
    model = Twice()
    compiled = tracer.compile(model.twice)
    x = torch.ones(1, 2)
    assert compiled(x).tolist() == model.twice(x).tolist()
    assert compiled.entries[0].break_reason is None


def test_parameters_keep_their_type_in_the_trace() -> None:
    def inspect(m: Any, x: Any) -> Any:
        w = m.weight
        return isinstance(w, nn.Parameter), type(w).__name__, w.requires_grad, x + 1

    compiled = tracer.compile(inspect)
    assert_same_behavior(compiled, nn.Linear(2, 2), torch.ones(2))
    assert [entry.break_reason for entry in compiled.entries] == [None]


def test_refused_targets_say_what_compile_accepts() -> None:
    with pytest.raises(UserError, match="a bound method, an nn.Module"):
        tracer.compile(len)


def test_missing_submodule_raises_the_runtime_error() -> None:
    class Broken(nn.Module):
        def forward(self, x: Any) -> Any:
            return self.missing(x)

    compiled = tracer.compile(Broken())
    with pytest.raises(AttributeError, match="'Broken' object has no attribute 'missing'"):
        compiled(torch.ones(2))
    assert_same_behavior(lambda m, x: m(x), Broken(), torch.ones(2))


def names_compiled(state: dict[str, list[Any]], x: list[Any]) -> tuple[Any, list[str]]:
    """The Done-means model run compiled with `tracer.runtime`, and what a mode saw."""
    model = build(torch)
    model.load_state_dict({k: torch.tensor(v) for k, v in state.items()})
    seen: list[str] = []

    class Names(torch.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    compiled = tracer.compile(model)
    inputs = torch.tensor(x)
    with Names(), torch.no_grad():
        out = compiled(inputs)
    assert [entry.break_reason for entry in compiled.entries] == [None]
    return out.tolist(), seen


def test_compiled_model_agrees_with_torch_and_its_mode_names() -> None:
    from tests.runtime.test_model_file import run

    real = real_torch()
    real.manual_seed(0)
    weights = {k: v.tolist() for k, v in build(real).state_dict().items()}
    x = real.randn(3, 4).tolist()
    expected, torch_names = run(real, weights, x)
    got, compiled_names = names_compiled(weights, x)
    for row_got, row_expected in zip(got, expected, strict=True):
        assert all(abs(a - b) <= 1e-5 for a, b in zip(row_got, row_expected, strict=True))
    _, eager_names = run(torch, weights, x)
    assert compiled_names == eager_names == torch_names
    assert "layer_norm" in compiled_names and "add_" in compiled_names


def test_explain_and_trace_take_a_module() -> None:
    model, x = model_and_input()
    with torch.no_grad():
        explanation = tracer.explain(model)(x)
    assert (explanation.graph_count, explanation.graph_break_count) == (1, 0)
    assert explanation.ops_per_graph[0][:3] == ["layer_norm", "linear", "gelu"]
    traced = tracer.trace(model)(x)
    assert traced.check(x)
    model.norm.eps = 0.1
    assert not traced.check(x)
    assert "L['self']._modules['norm'].eps == 1e-05 (actual 0.1)" in str(traced.failure(x))


class Residual(nn.Module):
    """A model class at module level: its forward reads `torch` and `F` as globals."""

    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = 0.5

    def forward(self, x: Any) -> Any:
        h = F.gelu(self.lin(x)) * self.scale
        h.add_(x)
        return torch.softmax(h, dim=-1)


def test_same_behavior_of_a_compiled_module_and_method() -> None:
    torch.manual_seed(0)
    x = torch.randn(3, 4)
    with torch.no_grad():
        assert_same_behavior(tracer.compile(Residual()), x)
        assert_same_behavior(Residual(), x)  # compiled by the kit: forward with self
    assert_same_behavior(tracer.compile(Scaler(2.0).scale), torch.ones(2))
    assert_same_behavior(Scaler(2.0), torch.ones(2))


class Containers(nn.Module):
    """Sequential, ModuleList, ModuleDict, a buffer written in place, an embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4))
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 2), "b": nn.Identity()})
        self.register_buffer("count", torch.zeros(1))
        self.emb = nn.Embedding(10, 4)

    def forward(self, x: Any, idx: Any) -> Any:
        h = self.seq(x) + self.emb(idx)
        for block in self.blocks:
            h = F.silu(block(h))
        self.count.add_(1)
        return self.heads["a"](h), self.heads["b"](h), len(self.blocks), self.training


@pytest.mark.parametrize("grad", [True, False])
def test_containers_buffers_and_embeddings_trace_whole(grad: bool) -> None:
    torch.manual_seed(0)
    x, idx = torch.randn(3, 4), torch.tensor([1, 2, 3])
    with torch.set_grad_enabled(grad):
        assert_same_behavior(Containers().eval(), x, idx)
        explanation = tracer.explain(Containers())(x, idx)
    assert (explanation.graph_count, explanation.graph_break_count) == (1, 0)
