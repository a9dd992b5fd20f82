"""Inside `DisableTorchFunction` the mode stack is kept but no op goes to a mode. A trace that
met an op while the stack held a mode depends on that: its entry pins whether dispatch is on
(a GLOBAL_STATE part), so a call inside the context misses an entry traced outside it (and
the other way round), and a trace made inside it calls no mode. Runtime world; the torch
world's side is in tests/torch_adapter/test_torch_function_state.py."""

from __future__ import annotations

import tracer
import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode


class Count(TorchFunctionMode):
    def __init__(self, seen: list[str]) -> None:
        super().__init__()
        self.seen = seen

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.seen.append(func.__name__)
        return func(*args, **(kwargs or {}))


def add_one(x):
    return torch.add(x, 1)


def push_and_add(x):
    seen: list[str] = []
    with Count(seen):
        y = torch.add(x, 1)
    return y, seen


def test_an_entry_traced_with_dispatch_on_misses_inside_the_context() -> None:
    seen: list[str] = []
    compiled = tracer.compile(add_one)
    x = torch.ones(2)
    with Count(seen):
        compiled(x)
        assert seen == ["add"]
        seen.clear()
        with torch._C.DisableTorchFunction():
            assert compiled(x).tolist() == add_one(x).tolist()
            assert seen == []  # neither the compiled call nor the eager one asked the mode
        reasons = compiled.last_miss_reasons or []
        assert any("torch_function_enabled" in r for r in reasons), reasons
        compiled(x)  # dispatch on again: the first entry hits
        assert seen == ["add"]
    assert compiled.compile_count == 2


def test_a_trace_made_inside_the_context_calls_no_mode() -> None:
    seen: list[str] = []
    compiled = tracer.compile(add_one)
    x = torch.ones(2)
    with Count(seen):
        with torch._C.DisableTorchFunction():
            compiled(x)
            assert seen == []
        compiled(x)  # outside it: another entry, which calls the mode
        assert seen == ["add"]
    assert compiled.compile_count == 2


def test_a_mode_pushed_inside_the_context_is_not_called() -> None:
    compiled = tracer.compile(push_and_add)
    x = torch.ones(2)
    with torch._C.DisableTorchFunction():
        y, seen = compiled(x)
        assert seen == [] and y.tolist() == [2.0, 2.0]
    y, seen = compiled(x)
    assert seen == ["add"]
    assert torch._C._len_torch_function_stack() == 0


def test_a_trace_without_modes_does_not_pin_dispatch() -> None:
    compiled = tracer.compile(add_one)
    x = torch.ones(2)
    compiled(x)
    with torch._C.DisableTorchFunction():
        compiled(x)
    assert compiled.compile_count == 1
    guards = "\n".join(tracer.explain(add_one)(x).guards)
    assert "torch_function_enabled" not in guards
