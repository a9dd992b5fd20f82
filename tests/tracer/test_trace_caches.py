"""Globals and module attributes read again and again in one trace guard like a single read; a
stored global still wins; nothing outlives the trace, so rebinding a global or a module
attribute between compiles recompiles with the new value."""

import types
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.output_graph import OutputGraph

SCALE = 2
COUNTER = 0
settings = types.ModuleType("settings")
settings.k = 3  # type: ignore[attr-defined]


def helper(x: Any) -> Any:
    return x * SCALE


def reads_once(x: Any) -> Any:
    return helper(x)


def reads_often(x: Any) -> Any:
    return helper(helper(helper(x))) + SCALE


def test_repeated_global_reads_guard_like_one_read() -> None:
    once = tracer.explain(reads_once)(torch.ones(2)).guards
    often = tracer.explain(reads_often)(torch.ones(2)).guards
    assert sorted(g for g in often if "G[" in g) == sorted(g for g in once if "G[" in g)
    assert len([g for g in often if "G['SCALE']" in g]) == 1


def test_rebinding_a_global_between_compiles_recompiles() -> None:
    global SCALE
    tracer.reset()
    compiled = tracer.compile(reads_often)
    assert compiled(torch.ones(2)).tolist() == [10.0, 10.0]
    SCALE = 3
    try:
        assert compiled(torch.ones(2)).tolist() == [30.0, 30.0]
        assert compiled.compile_count == 2
        tracer.reset()  # a fresh compile after reset sees the new value too
        assert tracer.compile(reads_often)(torch.ones(2)).tolist() == [30.0, 30.0]
    finally:
        SCALE = 2


def test_rebinding_the_called_helper_recompiles() -> None:
    tracer.reset()
    compiled = tracer.compile(reads_often)
    assert compiled(torch.ones(2)).tolist() == [10.0, 10.0]
    original = globals()["helper"]
    globals()["helper"] = lambda x: x + 1
    try:
        assert compiled(torch.ones(2)).tolist() == [6.0, 6.0]
        assert compiled.compile_count == 2
    finally:
        globals()["helper"] = original


def bumps_counter(x: Any) -> Any:
    global COUNTER
    before = COUNTER
    COUNTER = before + 1
    return x + COUNTER + before + COUNTER


def test_a_stored_global_wins_over_the_cached_load() -> None:
    global COUNTER
    tracer.reset()
    COUNTER = 5
    try:
        assert tracer.compile(bumps_counter)(torch.zeros(1)).tolist() == [17.0]
        assert COUNTER == 6
    finally:
        COUNTER = 0


def shadows_len(xs: list[Any]) -> Any:
    return len(xs) + len(xs)


def test_shadowing_a_cached_builtin_between_compiles_recompiles() -> None:
    tracer.reset()
    compiled = tracer.compile(shadows_len)
    assert compiled([1, 2]) == 4
    globals()["len"] = lambda xs: 10
    try:
        assert compiled([1, 2]) == 20
        assert compiled.compile_count == 2
    finally:
        del globals()["len"]


def reads_module_attr(x: Any) -> Any:
    return x * settings.k + settings.k


def test_repeated_module_attribute_reads_guard_like_one() -> None:
    guards = tracer.explain(reads_module_attr)(torch.ones(2)).guards
    assert len([g for g in guards if "G['settings'].k" in g]) == 1


def test_rebinding_a_module_attribute_recompiles() -> None:
    tracer.reset()
    compiled = tracer.compile(reads_module_attr)
    assert compiled(torch.ones(2)).tolist() == [6.0, 6.0]
    settings.k = 4  # type: ignore[attr-defined]
    try:
        assert compiled(torch.ones(2)).tolist() == [8.0, 8.0]
        assert compiled.compile_count == 2
    finally:
        settings.k = 3  # type: ignore[attr-defined]


def test_release_empties_the_caches() -> None:
    output = OutputGraph(globals())
    assert hasattr(output, "graph_inputs")
    output.release()
    assert not hasattr(output, "graph_inputs")
