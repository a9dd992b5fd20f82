"""tracer.testing.trace is tracer.trace; CompileCounter counts what happened inside its block."""

from __future__ import annotations

import sys

import tracer
import tracer.runtime as torch
import tracer.testing
from tracer.testing import CompileCounter, trace
from tracer.testing.values import tensor_of


def add_scaled(x, k):
    return x + k * 2


def breaks(x):
    print("graph break here")
    return x + 1


def test_trace_is_reexported():
    assert tracer.testing.trace is tracer.trace
    assert tracer.testing.TracedEntry is sys.modules["tracer.explain"].TracedEntry


def test_trace_gives_guards_check_failure_and_graph():
    x = tensor_of("float32[2]", [1.0, 2.0])
    entry = trace(add_scaled)(x, 3)
    kinds = {g.kind.name for g in entry.guards}
    assert {"TENSOR_MATCH", "EQUALS_MATCH"} <= kinds
    assert entry.check(tensor_of("float32[2]", [5.0, 6.0]), 3)
    assert not entry.check(x, 4)
    assert entry.failure(x, 4) is not None and "L['k'] == 3" in entry.failure(x, 4)
    assert entry.failure(x, 3) is None
    assert entry.graph is not None and entry.side_effects == []
    assert entry.entry.run(x, 3).tolist() == [7.0, 8.0]


def test_trace_does_not_run_or_cache():
    compiled = tracer.compile(add_scaled)
    trace(compiled)(torch.ones(1), 1)
    assert compiled.entries == ()


def test_compile_counter_counts_compiles_and_recompiles():
    f = tracer.compile(add_scaled)
    with CompileCounter() as counter:
        f(torch.ones(2), 1)
        f(torch.ones(2), 1)
        assert counter.compiles == 1
        f(torch.ones(2), 2)
    assert (counter.compiles, counter.recompiles, counter.graph_breaks) == (2, 1, 0)
    f(torch.ones(2), 3)
    assert counter.compiles == 2, "frozen when the block exits"
    assert "compiles=2" in repr(counter)


def test_compile_counter_counts_graph_breaks():
    with CompileCounter() as counter:
        tracer.compile(breaks)(torch.ones(1))
    assert counter.graph_breaks == 1
    assert counter.graph_break_reasons and "print" in counter.graph_break_reasons[0]


def test_compile_counter_ignores_earlier_compiles():
    tracer.compile(add_scaled)(torch.ones(1), 1)
    with CompileCounter() as counter:
        pass
    assert counter.summary() == {"compiles": 0, "recompiles": 0, "graph_breaks": 0}
