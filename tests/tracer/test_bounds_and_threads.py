"""Tracing is bounded (instruction budget, inline depth) and compiles are thread-safe."""

import threading

import tracer
import tracer.runtime as torch
from tracer import config
from tracer.testing import assert_same_behavior


def long_loop(x):
    for _ in range(1000):
        x = x + 1
    return x


def recurse(x, n):
    if n == 0:
        return x
    return recurse(x + 1, n - 1)


def test_instruction_budget_falls_back_with_a_reason() -> None:
    with config.patch(instruction_budget=500):
        explanation = tracer.explain(long_loop)(torch.ones(2))
    assert explanation.graph_break_count == 1
    [reason] = explanation.break_reasons
    assert reason.kind == "instruction-budget"
    assert "500 instructions" in str(reason) and "test_bounds_and_threads.py" in str(reason)
    with config.patch(instruction_budget=500):
        assert_same_behavior(long_loop, torch.ones(2))


def test_inline_depth_limit_falls_back_with_a_reason() -> None:
    with config.patch(inline_depth_limit=4):
        explanation = tracer.explain(recurse)(torch.ones(2), 10)
        assert_same_behavior(recurse, torch.ones(2), 10)
    # the break is inside an inlined call: the compiled frame's call of `recurse` is the
    # break, and that call compiles as its own frame, which meets the limit again deeper
    assert {r.kind for r in explanation.break_reasons} == {"inline-depth"}
    assert explanation.graph_count > 0
    assert "depth limit of 4" in str(explanation.break_reasons[0])


def test_recursion_within_the_limit_traces() -> None:
    assert_same_behavior(recurse, torch.ones(2), 3, compile_options={"fullgraph": True})


def test_threads_compile_once_and_agree() -> None:
    tracer.reset()
    compiled = tracer.compile(lambda x: (x * 2).sin() + 1)
    x = torch.ones(3)
    expected = (x * 2).sin() + 1
    barrier = threading.Barrier(8)
    results: list[object] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            barrier.wait()
            results.extend(compiled(x).tolist() for _ in range(20))
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(r == expected.tolist() for r in results) and len(results) == 160
    assert len(compiled.entries) == 1  # compiles of the same code are serialized
