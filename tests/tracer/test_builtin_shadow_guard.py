"""Each builtin a trace loads from the compiled function's globals is guarded "not shadowed by a
global" once, however often it is loaded, and the guard still catches a later shadowing global."""

from typing import Any

import tracer
import tracer.runtime as torch


def uses_len_often(x: Any, xs: list[Any]) -> Any:
    for _ in range(len(xs)):
        x = x + len(xs)
    return x * len(xs)


def test_one_guard_per_shadowable_builtin() -> None:
    explanation = tracer.explain(uses_len_often)(torch.ones(2), [1, 2, 3])
    absent = [g for g in explanation.guards if "not in G" in g]
    assert absent == ["'len' not in G", "'range' not in G"]


def test_shadowing_global_recompiles() -> None:
    tracer.reset()
    compiled = tracer.compile(uses_len_often)
    assert compiled(torch.ones(2), [1, 2]).tolist() == [10.0, 10.0]
    globals()["len"] = lambda xs: 1
    try:
        assert compiled(torch.ones(2), [1, 2]).tolist() == [2.0, 2.0]
        assert compiled.compile_count == 2
    finally:
        del globals()["len"]
