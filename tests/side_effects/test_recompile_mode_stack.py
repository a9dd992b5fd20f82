"""The mode stack is part of every entry's guards: another length or another mode type at some
position recompiles (and the miss reason names the mode stack); the same types with other
instances hit the cache when the trace did not read instance state.
"""

from __future__ import annotations

import pytest

import tracer
import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import assert_same_behavior


class PassA(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class PassB(PassA):
    """A subclass: the guard is on the exact type, so it is another stack."""


class PlusK(TorchFunctionMode):
    """Its handler reads instance state (`self.k`), so the trace depends on it."""

    def __init__(self, k: int = 0) -> None:
        super().__init__()
        self.k = k

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {})) + self.k


class CountMode(TorchFunctionMode):
    def __init__(self, count: int = 0) -> None:
        super().__init__()
        self.count = count

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


def add_one(x):
    return torch.add(x, 1)


def push_and_add(x):
    with PlusK(10):
        return torch.add(x, 1)


def _run_under(compiled, modes, *args):
    torch._C._set_torch_function_mode_stack(list(modes))
    try:
        return compiled(*args)
    finally:
        torch._C._set_torch_function_mode_stack([])


def _names_mode_stack(reasons: list[str]) -> bool:
    return bool(reasons) and all("mode stack" in r or "___mode_stack" in r for r in reasons)


def test_longer_stack_recompiles_with_mode_stack_reason() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [], x)
    assert len(compiled.entries) == 1
    _run_under(compiled, [PassA()], x)
    assert len(compiled.entries) == 2
    assert _names_mode_stack(compiled.last_miss_reasons), compiled.last_miss_reasons
    assert "[PassA]" in compiled.last_miss_reasons[0]


def test_shorter_stack_recompiles_with_mode_stack_reason() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [PassA(), PassA()], x)
    _run_under(compiled, [PassA()], x)
    assert len(compiled.entries) == 2
    assert _names_mode_stack(compiled.last_miss_reasons), compiled.last_miss_reasons


def test_other_type_at_one_position_recompiles() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [PassA(), PassA()], x)
    _run_under(compiled, [PassA(), PassB()], x)
    assert len(compiled.entries) == 2
    (reason,) = compiled.last_miss_reasons
    assert "mode stack" in reason
    assert "PassB" in reason


def test_swapped_order_recompiles() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [PassA(), PassB()], x)
    _run_under(compiled, [PassB(), PassA()], x)
    assert len(compiled.entries) == 2
    assert _names_mode_stack(compiled.last_miss_reasons), compiled.last_miss_reasons


def test_subclass_is_not_the_same_type() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [PassA()], x)
    _run_under(compiled, [PassB()], x)
    assert len(compiled.entries) == 2


def test_same_types_other_instances_hit_the_cache() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [PassA(), PassB()], x)
    count = compiled.compile_count
    for _ in range(3):
        result = _run_under(compiled, [PassA(), PassB()], x)
        assert result.tolist() == [2.0, 2.0]
    assert compiled.compile_count == count
    assert len(compiled.entries) == 1


def test_same_types_other_instances_hit_with_on_recompile_error() -> None:
    compiled = tracer.compile(add_one, fullgraph=True, on_recompile="error")
    x = torch.ones(2)
    _run_under(compiled, [PassA()], x)
    _run_under(compiled, [PassA()], x)  # a hit, so no RecompileError
    with pytest.raises(tracer.RecompileError, match="mode stack"):
        _run_under(compiled, [PassB()], x)


def test_back_to_an_old_stack_hits_its_entry() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    stacks = [[], [PassA()], [PassB()], [PassA(), PassB()]]
    for modes in stacks:
        _run_under(compiled, modes, x)
    count = compiled.compile_count
    for modes in stacks:
        _run_under(compiled, [type(m)() for m in modes], x)
    assert compiled.compile_count == count == len(stacks)


def test_every_stack_behaves_like_eager_through_one_cache() -> None:
    """One CompiledFunction, called under several stacks in turn: each call matches eager."""
    compiled = tracer.compile(push_and_add, fullgraph=True)
    for modes in ([], [PlusK(1)], [PassA()], [PlusK(2), PassA()], [PlusK(1)], []):
        assert_same_behavior(push_and_add, torch.ones(2), modes=modes, compiled=compiled)


def test_function_that_pushes_a_mode_recompiles_for_another_initial_stack() -> None:
    compiled = tracer.compile(push_and_add, fullgraph=True)
    x = torch.ones(2)
    assert _run_under(compiled, [], x).tolist() == [12.0, 12.0]
    # the outer PlusK(1) sees both the add and the handler's own `+ 10`: ((1+1)+1 + 10) + 1
    assert _run_under(compiled, [PlusK(1)], x).tolist() == [14.0, 14.0]
    assert _run_under(push_and_add, [PlusK(1)], x).tolist() == [14.0, 14.0]
    assert len(compiled.entries) == 2
    assert _names_mode_stack(compiled.last_miss_reasons), compiled.last_miss_reasons


def test_instance_state_read_by_the_trace_is_guarded() -> None:
    """The handler reads `self.k`: another k must not reuse the entry traced with the old k."""
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    assert _run_under(compiled, [PlusK(1)], x).tolist() == [3.0, 3.0]
    assert _run_under(compiled, [PlusK(5)], x).tolist() == [7.0, 7.0]
    assert len(compiled.entries) == 2
    (reason,) = compiled.last_miss_reasons
    assert "___mode_stack[0].k" in reason


def test_counting_mode_with_another_count_stays_correct() -> None:
    """The handler increments `self.count`: the replay must not write back the traced value."""
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    first, second = CountMode(0), CountMode(5)
    _run_under(compiled, [first], x)
    _run_under(compiled, [second], x)
    assert (first.count, second.count) == (1, 6)
    again = CountMode(0)
    _run_under(compiled, [again], x)
    assert again.count == 1


def test_miss_reasons_list_every_entry() -> None:
    compiled = tracer.compile(add_one, fullgraph=True)
    x = torch.ones(2)
    _run_under(compiled, [], x)
    _run_under(compiled, [PassA()], x)
    _run_under(compiled, [PassA(), PassA()], x)
    assert len(compiled.last_miss_reasons) == 2
    assert _names_mode_stack(compiled.last_miss_reasons), compiled.last_miss_reasons
