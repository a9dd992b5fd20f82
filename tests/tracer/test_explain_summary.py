"""`str(tracer.explain(f)(...))`: the counts, each break with its kind, reason, line and hints,
the ops of each graph and the graphs themselves, in the layout of Dynamo's ExplainOutput."""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

import tracer
import tracer.runtime as torch
from tests.real_torch import real_torch
from tracer.exc import BreakReason, UserLocation
from tracer.explain import Explanation


def prints_between(x: Any) -> Any:
    y = x.sin()
    print("between")
    return y + 1


def test_summary_shows_counts_breaks_ops_and_graphs() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        text = str(tracer.explain(prints_between)(torch.ones(2)))
    assert text.startswith("Graph Count: 2\nGraph Break Count: 1\nOp Count: 2\n")
    breaks = text[text.index("Break Reasons:") : text.index("Ops per Graph:")]
    assert "  Break Reason 1:\n    Kind: builtin-side-effect\n" in breaks
    assert "    Reason: call to builtin print is not supported\n" in breaks
    assert re.search(r'test_explain_summary\.py:\d+ in prints_between: print\("between"\)', breaks)
    ops = text[text.index("Ops per Graph:") : text.index("Graphs:")]
    assert ops == "Ops per Graph:\n  Ops 1:\n    sin\n  Ops 2:\n    add\n"
    graphs = text[text.index("Graphs:") : text.index("Guards:")]
    assert graphs.count("def forward(") == 2
    assert "  Graph 2:\n    def forward(" in graphs


def test_summary_lists_a_break_s_hints() -> None:
    location = UserLocation("/src/user.py", 7, "f", "x.item()")
    reason = BreakReason(
        "data-dependent", "Tensor.item() needs the value", ("use a mask",), location=location
    )
    explanation = Explanation(
        graph_count=0,
        graphs=[],
        graph_break_count=1,
        break_reasons=[reason],
        guards=[],
        side_effects=[],
        ops_per_graph=[],
        entries=[],
    )
    text = str(explanation)
    assert (
        "  Break Reason 1:\n"
        "    Kind: data-dependent\n"
        "    Reason: Tensor.item() needs the value\n"
        "    User Stack:\n"
        "      user.py:7 in f: x.item()\n"
        "    Hints:\n"
        "      - use a mask\n"
    ) in text


def test_summary_has_the_headings_of_dynamo_s_explain_output() -> None:
    torch_ = real_torch()

    def f(x: Any) -> Any:
        y = x.sin()
        print("between")
        return y + 1

    with contextlib.redirect_stdout(io.StringIO()):
        theirs = str(torch_._dynamo.explain(f)(torch_.ones(2)))
        ours = str(tracer.explain(prints_between)(torch.ones(2)))
    for heading in (
        "Graph Count",
        "Graph Break Count",
        "Op Count",
        "Break Reasons",
        "Ops per Graph",
    ):
        assert f"\n{heading}:" in f"\n{theirs}" and f"\n{heading}:" in f"\n{ours}"
    # Dynamo counts call_function nodes only (not `x.sin()`): the op counts differ
    for line in ("Graph Count: 2", "Graph Break Count: 1", "  Break Reason 1:", "  Ops 2:"):
        assert line in theirs and line in ours
