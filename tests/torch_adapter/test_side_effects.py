"""Side effects on real torch tensors: a list mutated with tensors the graph computed is
replayed after the graph, and the explain's side-effect lines describe those tensors (dtype and
shape read through the tensor world: torch's fake tensors are not the runtime's)."""

from __future__ import annotations

from typing import Any

import tracer
from tests.real_torch import real_torch


def fill(x: Any, out: list[Any]) -> Any:
    out.clear()
    out.append(x * 2)
    out.append(x.sin())
    return out[0] + 1


def test_a_list_of_computed_tensors_is_replayed_and_described() -> None:
    torch = real_torch()
    x = torch.arange(3.0)
    eager_out: list[Any] = [1]
    expected = fill(x, eager_out)
    out: list[Any] = [1]
    explanation = tracer.explain(fill)(x, out)
    assert explanation.graph_count == 1 and not explanation.break_reasons
    assert torch.equal(explanation.result, expected)
    assert len(out) == 2 and all(map(torch.equal, out, eager_out))
    described = "\n".join(explanation.side_effects)
    assert "<tensor mul: float32[3]>" in described, described
