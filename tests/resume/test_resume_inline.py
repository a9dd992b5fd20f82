"""Breaks inside inlined functions and inside another call's arguments resume (issue 21,
point 3; tests/resume/test_against_dynamo.py checks the counts against real torch).

A break inside a function the frame inlined makes the frame's CALL the break, as in Dynamo:
the prefix graph runs, the call runs eagerly, and the frame resumes after it. The callee,
called at the break, is compiled as its own frame with the caller's options and policy: its
own graphs, breaks, resume functions and compile ids."""

from __future__ import annotations

import contextlib
import copy
import io
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.cache.entry import CacheEntry
from tracer.cache.function import CompiledFunction, RecompileError
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


def prints_between_ops(y: Any) -> Any:
    z = y * 2
    print("in helper", z.shape)
    return z + 1


def helper_between_ops(x: Any) -> Any:
    y = x.sin()
    y = prints_between_ops(y)
    return y.cos()


def prints_deep(y: Any) -> Any:
    z = y * 2
    print("deep")
    return z + 1


def calls_deep(y: Any) -> Any:
    y = y - 1
    y = prints_deep(y)
    return y * 3


def break_two_calls_deep(x: Any) -> Any:
    y = x.sin()
    y = calls_deep(y)
    return y.cos()


def prints_first(y: Any, k: int = 3) -> Any:
    print("first", k)
    return y.cos() * k


def helper_breaks_first(x: Any) -> Any:
    y = x.sin()
    y = prints_first(y, k=2)  # a keyword argument: KW_NAMES before the eager call
    return y + 1


class Model:
    def __init__(self) -> None:
        self.w = torch.ones(3) * 2
        self.calls = 0

    def step(self, y: Any) -> Any:
        self.calls += 1
        z = y * self.w
        print("step", self.calls)
        return z - 1

    def forward(self, x: Any) -> Any:
        y = x + 1
        y = self.step(y)  # LOAD_METHOD: the stack holds [function, self]
        return y * 2


def method_of_argument(model: Model, x: Any) -> Any:
    step = model.step  # a bound method object: [NULL, bound method]
    y = step(x.sin())
    return y.sum()


def make_scaled(k: int) -> Callable[[Any], Any]:
    def scaled(y: Any) -> Any:
        z = y * k
        print("scaled by", k)
        return z + k

    return scaled


SCALED = make_scaled(5)


def closure_helper(x: Any) -> Any:
    y = x.cos()
    return SCALED(y) - 1


def g(a: Any, b: Any) -> Any:
    return a + 1


def break_in_call_arguments(x: Any) -> Any:
    return g(x.sin(), print(1)).cos()


def break_in_len_argument(x: Any) -> Any:
    y = x + 1
    n = 3 + len(str(print("z")))
    return y * n


def jump_in_call_arguments(x: Any) -> Any:
    y = x + 1
    return g(y, 1 if (x * 3).sum() > 0 else 2) * 2


CASES: list[tuple[Callable[..., Any], Callable[[], tuple[Any, ...]], int, int]] = [
    (helper_between_ops, lambda: (torch.ones(3),), 4, 3),
    (break_two_calls_deep, lambda: (torch.ones(3),), 6, 5),
    # Dynamo counts graph_count - 1 = 2: a break with no graph before it (the helper's print
    # comes first) is not counted there, as for a top-level break with an empty prefix
    (helper_breaks_first, lambda: (torch.ones(3),), 3, 3),
    (Model.forward, lambda: (Model(), torch.ones(3)), 4, 3),
    (closure_helper, lambda: (torch.ones(3),), 4, 3),
    (break_in_call_arguments, lambda: (torch.ones(3),), 2, 1),
    (break_in_len_argument, lambda: (torch.ones(3),), 2, 1),
    (jump_in_call_arguments, lambda: (torch.ones(3),), 2, 1),
]


def printed(fn: Callable[..., Any], *args: Any) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue()


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    tracer.reset()
    yield
    tracer.reset()


def entries_of(fn: Any) -> list[CacheEntry]:
    from tracer.explain import _all_entries

    return _all_entries(fn)


@pytest.mark.parametrize(
    "fn,make_args,graphs,breaks", CASES, ids=lambda c: getattr(c, "__qualname__", "")
)
def test_same_behavior_and_counts(
    fn: Callable[..., Any], make_args: Callable[[], tuple[Any, ...]], graphs: int, breaks: int
) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, *make_args())
        explanation = tracer.explain(fn)(*make_args())
    assert (explanation.graph_count, explanation.graph_break_count) == (graphs, breaks)
    assert not any(e.is_fallback for e in explanation.entries), explanation
    compiled = tracer.compile(fn)
    eager_out = printed(fn, *copy.deepcopy(make_args()))
    assert printed(compiled, *make_args()) == eager_out
    with CompileCounter() as counter:
        assert printed(compiled, *make_args()) == eager_out
    assert counter.compiles == 0


def test_the_callee_is_its_own_frame() -> None:
    compiled = tracer.compile(helper_between_ops)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    entries = entries_of(compiled)
    # the caller, the helper (called at the break), the helper's resume, the caller's resume
    assert [str(e.compile_id) for e in entries] == ["0/0", "1/0", "2/0", "3/0"]
    assert entries[1].run.__name__ == "prints_between_ops"
    assert entries[2].run.__qualname__.startswith("__resume_at_")
    caller = entries[0]
    assert caller.callees is not None
    assert caller.break_reason is not None and caller.break_reason.kind == "builtin-side-effect"
    (helper,) = caller.callees.compiled.values()
    assert isinstance(helper, CompiledFunction) and helper.fn is prints_between_ops


def test_method_keeps_its_self() -> None:
    model, eager_model = Model(), Model()
    with contextlib.redirect_stdout(io.StringIO()):
        out = tracer.compile(method_of_argument)(model, torch.ones(3))
        expected = method_of_argument(eager_model, torch.ones(3))
    assert float(out) == float(expected)
    assert model.calls == eager_model.calls == 1
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(method_of_argument, Model(), torch.ones(3))


def test_the_callee_gets_the_callers_options_and_policy() -> None:
    calls: list[int] = []

    def backend(gm: Any, example_inputs: list[Any]) -> Any:
        calls.append(len(example_inputs))
        return gm

    compiled = tracer.compile(helper_between_ops, backend=backend, on_recompile="error")
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    assert len(calls) == 4  # every frame's graph went through the caller's backend
    (helper,) = entries_of(compiled)[0].callees.compiled.values()
    assert helper.on_recompile == "error"
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(RecompileError):
        helper(torch.ones(4))  # a recompile of the helper's own frame


def test_fullgraph_raises_at_a_break_in_a_callee() -> None:
    with pytest.raises(tracer.Unsupported, match="print"):
        tracer.compile(helper_between_ops, fullgraph=True)(torch.ones(3))
