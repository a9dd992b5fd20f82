"""Graph inputs whose sources share a prefix (`L['net'].layers['a'].w` and `...['a'].b`, as a
module's parameters share `L['self']._modules['fc']._parameters`): the compiled frame reads
the shared part once into a temporary (PyCodegen.load_sources) and the result is eager's, in
a frame traced whole and in one with a graph break (the resume path builds its frame too)."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


class Layer:
    def __init__(self, scale: float) -> None:
        self.w = torch.ones(2) * scale
        self.b = torch.ones(2) + scale


class Net:
    def __init__(self) -> None:
        self.layers = {"a": Layer(2.0), "b": Layer(3.0)}


def forward(net: Net, x: Any) -> Any:
    a = net.layers["a"]
    b = net.layers["b"]
    return x * a.w + a.b + b.w * b.b


def forward_with_a_break(net: Net, x: Any) -> Any:
    y = x * net.layers["a"].w + net.layers["a"].b
    print("break")
    return y + net.layers["b"].w


def _attr_reads(compiled: Any, name: str) -> int:
    """How many times the frame reads attribute `name` while loading the graph's inputs."""
    (entry,) = compiled.entries
    assert entry.bytecode is not None
    names = [i.name for i in entry.bytecode]
    graph_call = names.index("CALL")
    loads = entry.bytecode[:graph_call]
    return sum(1 for i in loads if i.name == "LOAD_ATTR" and name in str(i.arg))


def test_shared_prefixes_are_read_once_and_the_result_is_eager() -> None:
    assert_same_behavior(forward, Net(), torch.ones(2))
    tracer.reset()
    compiled = tracer.compile(forward, fullgraph=True)
    net, x = Net(), torch.ones(2)
    assert compiled(net, x).tolist() == forward(net, x).tolist()
    assert _attr_reads(compiled, "layers") == 1  # four parameters, one read of `layers`
    assert _attr_reads(compiled, "w") == 2 and _attr_reads(compiled, "b") == 2


def test_shared_prefixes_before_a_graph_break() -> None:
    assert_same_behavior(forward_with_a_break, Net(), torch.ones(2))
    tracer.reset()
    compiled = tracer.compile(forward_with_a_break)
    net, x = Net(), torch.ones(2)
    assert compiled(net, x).tolist() == forward_with_a_break(net, x).tolist()
    assert _attr_reads(compiled, "layers") == 1  # `layers['a']` read once for `w` and `b`


class LoggedLayer:
    """A layer that notes in a log when it dies."""

    def __init__(self, log: list[str]) -> None:
        self.w = torch.ones(2)
        self.b = torch.ones(2)
        self.log = log

    def __del__(self) -> None:
        self.log.append("gone")


def delete_before_a_break(net: Net, x: Any, log: list[str]) -> Any:
    y = x * net.layers["a"].w + net.layers["a"].b
    del net.layers["a"]
    print(log)  # the break: eager code's layer is gone by now
    return y


def test_a_kept_read_is_released_before_the_graph_runs() -> None:
    """`L['net'].layers['a']` is kept while the graph's inputs load, then deleted: after the
    layer is deleted (replayed before the break), nothing in the frame keeps it alive."""
    log: list[str] = []
    net = Net()
    net.layers["a"] = LoggedLayer(log)
    assert_same_behavior(delete_before_a_break, net, torch.ones(2), log)
    tracer.reset()
    compiled = tracer.compile(delete_before_a_break)
    log.clear()
    net.layers["a"] = LoggedLayer(log)
    compiled(net, torch.ones(2), log)
    assert _attr_reads(compiled, "layers") == 1  # the layer is read once for `w` and `b`
