"""notes/fused-backend.md stays true: the graphs, kernels and forward it shows are what the
fused backend makes of its examples today, with and without loop reordering."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.backends import fused_backend
from tracer.fused import FusedPlan, plan_of

NOTE = Path(__file__).resolve().parent.parent.parent / "notes" / "fused-backend.md"


def softmax(x: Any) -> Any:
    e = torch.exp(x - x.amax(-1, keepdim=True))
    return e / e.sum(-1, keepdim=True)


def transposed_sum(x: Any) -> Any:
    y = x.T * 2.0 + 1.0
    return y, y.sum(0)


def views_of_a_result(x: Any, y: Any) -> Any:
    z = (x * 2.0 + y).sin()
    return z.T, z.reshape(-1)


def indented(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.strip("\n").splitlines())


def compiled(fn: Any, *args: Any, backend: Any = "fused") -> tuple[str, FusedPlan]:
    explanation = tracer.explain(fn, backend=backend)(*args)
    gm = explanation.graphs[0]
    plan = plan_of(gm)
    assert plan is not None
    return gm.code, plan


def test_note_shows_what_the_backend_makes_of_its_examples() -> None:
    note = NOTE.read_text()
    graph, plan = compiled(softmax, torch.randn(4, 8))
    assert len(plan.kernels) == 1
    for shown in (graph, plan.kernels[0].source, plan.forward):
        assert indented(shown) in note, shown
    graph, plan = compiled(transposed_sum, torch.randn(3, 3))
    assert len(plan.kernels) == 1 and plan.stats["reordered"] == 1
    assert indented(graph) in note
    assert indented(plan.kernels[0].source) in note
    _, unordered = compiled(
        transposed_sum, torch.randn(3, 3), backend=fused_backend(reorder_loops=False)
    )
    assert len(unordered.kernels) == 2
    assert indented("\n".join(k.source for k in unordered.kernels)) in note
    _, plan = compiled(views_of_a_result, torch.randn(3, 4), torch.randn(4))
    assert indented(plan.forward) in note
