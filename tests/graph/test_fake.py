"""FakeTensorProp: metadata agrees with real runs node by node, and errors are the same."""

from __future__ import annotations

import operator
from typing import Any

import pytest

import tracer.runtime as torch
from tests.graph.runtime_helpers import RecordingMode, meta_of
from tracer.graph import FakeTensorProp, Graph, GraphModule, Interpreter, Node


class RecordingInterpreter(Interpreter):
    """A real run that keeps every node's value, to compare with the fake one."""

    def __init__(self, graph: Graph) -> None:
        super().__init__(graph)
        self.values: dict[str, Any] = {}

    def run_node(self, node: Node) -> Any:
        result = super().run_node(node)
        self.values[node.name] = result
        return result


def mixed_graph() -> Graph:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    add = g.call_function(torch.add, (x, y), {"alpha": 2})
    sin = g.call_method("sin", (add,))
    weight = g.add_constant(torch.tensor([1.0, 2.0, 3.0]), "weight")
    scaled = g.call_function(operator.mul, (sin, weight))
    total = g.call_method("sum", (scaled,), {"dim": 1, "keepdim": True})
    as_long = g.call_method("long", (total,))
    ones = g.call_function(torch.ones, (2, 1), {"dtype": torch.float64})
    mixed = g.call_function(operator.add, (as_long, ones))
    shape = g.call_method("size", (mixed, 0))
    g.output((mixed, scaled, shape))
    return g


def inputs() -> tuple[torch.Tensor, torch.Tensor]:
    return torch.tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]]), torch.tensor([1.0, -1.0, 0.0])


def test_every_node_gets_the_metadata_of_its_real_value() -> None:
    g = mixed_graph()
    real = RecordingInterpreter(g)
    real_out = real.run(*inputs())
    fake_out = FakeTensorProp(g).propagate(*inputs())
    for node in g.nodes:
        if node.op == "output":
            assert meta_of(node.meta["val"]) == meta_of(real_out)
            continue
        assert meta_of(node.meta["val"]) == meta_of(real.values[node.name]), node.name
    vals = [n.meta["val"] for n in g.nodes if n.op != "output"]
    tensors = [v for v in vals if isinstance(v, torch.Tensor)]
    assert tensors and all(isinstance(v, torch.FakeTensor) for v in tensors)
    assert meta_of(fake_out) == meta_of(real_out)
    assert fake_out[2] == 2  # size() is metadata, so it stays a real int


def test_propagated_graph_prints_types() -> None:
    g = mixed_graph()
    FakeTensorProp(g).propagate(*inputs())
    lines = str(g).splitlines()
    assert lines[1] == (
        "    %add : f32[2, 3] = call_function[target=add](args = (%x, %y), kwargs = {'alpha': 2})"
    )
    assert "    %long : i64[2, 1] = call_method[target=long](args = (%sum,))" in lines
    assert "    %size : int = call_method[target=size](args = (%add_1, 0))" in lines


def test_fake_inputs_are_accepted_as_is() -> None:
    g = mixed_graph()
    x = torch.FakeTensor((2, 3), torch.float64)
    y = torch.FakeTensor((3,), torch.float32)
    out = FakeTensorProp(g).propagate(x, y)
    assert g.placeholders[0].meta["val"] is x
    assert g.nodes[2].name == "add" and g.nodes[2].meta["val"].dtype == torch.float64
    assert tuple(out[0].shape) == (2, 1) and out[0].dtype == torch.float64


def broken_graph(method: bool) -> Graph:
    g = Graph()
    x, y = g.placeholder("x"), g.placeholder("y")
    bad = g.call_method("reshape", (x, 5)) if method else g.call_function(torch.add, (x, y))
    g.output(g.call_function(torch.sin, (bad,)))
    return g


@pytest.mark.parametrize("method", [False, True])
def test_errors_are_the_real_errors(method: bool) -> None:
    args = (torch.ones(2, 3), torch.ones(4))
    with pytest.raises(Exception) as real:
        GraphModule(broken_graph(method))(*args)
    with pytest.raises(Exception) as fake:
        FakeTensorProp(broken_graph(method)).propagate(*args)
    assert type(fake.value) is type(real.value) is RuntimeError
    assert str(fake.value) == str(real.value)


def test_data_dependent_values_raise_data_dependent_error() -> None:
    g = Graph()
    x = g.placeholder("x")
    g.output(g.call_method("item", (g.call_method("sum", (x,)),)))
    assert GraphModule(g)(torch.ones(2)) == 2.0
    with pytest.raises(torch.DataDependentError, match="depends on tensor data"):
        FakeTensorProp(g).propagate(torch.ones(2))


def test_propagation_ignores_torch_function_modes() -> None:
    g, args, one = mixed_graph(), inputs(), torch.ones(1)
    with RecordingMode() as mode:
        torch.sin(one)
        FakeTensorProp(g).propagate(*args)
    assert mode.calls == ["sin"]  # only the eager call above reached the mode
