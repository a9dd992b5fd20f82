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
    (entry,) = compiled.entries
    assert entry.bytecode is not None
    return sum(1 for i in entry.bytecode if i.name == "LOAD_ATTR" and name in str(i.arg))


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
