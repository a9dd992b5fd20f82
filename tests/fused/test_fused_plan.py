"""The fused backend's output is a data plan: JSON that loads back into the same kernels, and
the kernels are visible in explain, in MODETRACE_LOGS=output_code and in the structured log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.fused.checking import close
from tracer.fused import FusedPlan, plan_of
from tracer.observability import logs, trace_log


def f(x: Any, y: Any) -> Any:
    z = (x @ y).relu()
    return z + (x > 0).float(), (x.long() * 3).sum(), (x.T * 2).sum(0)


def test_plan_round_trips_through_json_and_loads_to_the_same_function() -> None:
    x, y = torch.randn(3, 3), torch.randn(3, 3)
    explanation = tracer.explain(f, backend="fused")(x, y)
    plan = plan_of(explanation.graphs[0])
    assert plan is not None and plan.portable  # runtime calls included: nothing pickled
    text = plan.to_json()
    again = FusedPlan.from_json(text)
    assert again.to_json() == text
    graph_args = [x, y]  # the graph's placeholders, in order
    close(plan.load()(*graph_args), again.load()(*graph_args))


def test_plan_of_another_version_is_refused() -> None:
    data = {"format": "modetrace-fused-plan", "version": 999}
    with pytest.raises(ValueError, match="not a fused plan"):
        FusedPlan.from_json(json.dumps(data))


def test_kernels_in_explain_logs_and_structured_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def g(x: Any) -> Any:
        return (x.sin() + 1).sum(-1)

    x = torch.randn(2, 3)
    explanation = tracer.explain(g, backend="fused")(x)
    (kernels,) = explanation.kernels_per_graph
    assert kernels.count == 1 and kernels.sources[0].startswith("def kernel_0(")
    assert "kernel_0(" in kernels.forward

    logs.set_logs("output_code")
    try:
        tracer.reset()
        tracer.compile(g, backend="fused")(x)
    finally:
        logs.set_logs()
    err = capsys.readouterr().err
    assert "[modetrace.output_code]" in err and "def kernel_0(" in err

    tracer.reset()
    with trace_log.tracing_to(tmp_path) as log:
        tracer.compile(g, backend="fused")(x)
    text = Path(log).read_text()
    assert '"name": "fused_output_code"' in text and '"name": "fused_plan"' in text
