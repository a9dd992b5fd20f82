"""What `Module.__call__` tests before it calls `forward` at once, pinned by one FACTS_MATCH per
module a trace calls (tracer/torch_adapter/modules.py, `call_facts`): each fact, changed after
the compile on a submodule (or for every module), misses the guard with a reason naming the
fact, and the call then gives eager torch's result, hooks and all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tracer.testing import CompileCounter


def _record(seen: list[str]) -> Callable[..., None]:
    def hook(*args: Any) -> None:
        seen.append("hook")

    return hook


def _own_call_impl(m: Any, t: Any, seen: list[str]) -> Callable[[], None]:
    def call_impl(*args: Any, **kwargs: Any) -> Any:
        seen.append("own _call_impl")
        return t.zeros(2, 2)

    m._call_impl = call_impl
    return lambda: delattr(m, "_call_impl")


def _compiled_by_torch(m: Any, t: Any, seen: list[str]) -> Callable[[], None]:
    m._compiled_call_impl = lambda *args, **kwargs: seen.append("compiled") or t.ones(2, 2)
    return lambda: setattr(m, "_compiled_call_impl", None)


def _class_call(m: Any, t: Any, seen: list[str]) -> Callable[[], None]:
    cls = type(m)

    def call(self: Any, *args: Any) -> Any:
        seen.append("class __call__")
        return t.full((2, 2), 3.0)

    cls.__call__ = call
    return lambda: delattr(cls, "__call__")


def _hook(register: Callable[[Any, Any, Callable[..., None]], Any]) -> Any:
    def change(m: Any, t: Any, seen: list[str]) -> Callable[[], None]:
        return register(m, t, _record(seen)).remove  # type: ignore[no-any-return]

    return change


GLOBAL = "sys.modules['torch.nn.modules.module'].__dict__"
FACTS = {
    "type({}).__call__ is Module.__call__": _class_call,
    "type({0})._call_impl is Module._call_impl and '_call_impl' not in {0}.__dict__": (
        _own_call_impl
    ),
    "{}._compiled_call_impl is None": _compiled_by_torch,
    "len({}._forward_hooks) == 0": _hook(lambda m, t, h: m.register_forward_hook(h)),
    "len({}._forward_pre_hooks) == 0": _hook(lambda m, t, h: m.register_forward_pre_hook(h)),
    "len({}._backward_hooks) == 0": _hook(lambda m, t, h: m.register_full_backward_hook(h)),
    "len({}._backward_pre_hooks) == 0": _hook(lambda m, t, h: m.register_full_backward_pre_hook(h)),
    f"len({GLOBAL}['_global_forward_hooks']) == 0": _hook(
        lambda m, t, h: t.nn.modules.module.register_module_forward_hook(h)
    ),
    f"len({GLOBAL}['_global_forward_pre_hooks']) == 0": _hook(
        lambda m, t, h: t.nn.modules.module.register_module_forward_pre_hook(h)
    ),
    f"len({GLOBAL}['_global_backward_hooks']) == 0": _hook(
        lambda m, t, h: t.nn.modules.module.register_module_full_backward_hook(h)
    ),
    f"len({GLOBAL}['_global_backward_pre_hooks']) == 0": _hook(
        lambda m, t, h: t.nn.modules.module.register_module_full_backward_pre_hook(h)
    ),
}


def _model(torch: Any) -> Any:
    class Second(torch.nn.Linear):
        """Its own class, so that replacing `__call__` on it leaves `nn.Linear` alone."""

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), Second(4, 2))
    return model


def call(model: Any, x: Any) -> Any:
    return model(x) * 2


@pytest.mark.parametrize("fact", list(FACTS))
def test_each_call_fact_changed_on_a_submodule_misses_with_its_reason(fact: str) -> None:
    torch = real_torch()
    model, x = _model(torch), torch.randn(2, 3)
    compiled = tracer.compile(call)
    with CompileCounter() as counter:
        first = compiled(model, x)
    assert torch.equal(first, call(model, x))
    assert counter.graph_breaks == 0 and counter.compiles == 1
    guards = "\n".join(compiled.entries[0].guards)
    assert "len(L['model']._modules['2']._forward_hooks) == 0" in guards
    eager_seen: list[str] = []
    undo = FACTS[fact](model[2], torch, eager_seen)
    try:
        expected = call(model, x)
        seen_eagerly = list(eager_seen)
        eager_seen.clear()
        result = compiled(model, x)
    finally:
        undo()
    assert torch.equal(result, expected)
    assert eager_seen == seen_eagerly  # the hook (or the module's own call) ran, as eagerly
    on_the_module = "{" in fact
    named = fact.format("L['model']._modules['2']") if on_the_module else fact
    reasons = compiled.last_miss_reasons or []
    if on_the_module:
        assert any(named in r for r in reasons), reasons
    else:  # a fact of the globals of `Module.__call__`
        assert any(fact in r for r in reasons), reasons
    assert torch.equal(compiled(model, x), call(model, x))  # the first entry hits again


def test_the_facts_of_a_call_are_one_guard_per_module() -> None:
    """Each module called is guarded by one FACTS_MATCH, not by a guard per hook dict, and
    the hooks for every module by one more."""
    torch = real_torch()
    model, x = _model(torch), torch.randn(2, 3)
    source = tracer.trace(call)(model, x).entry.guard_manager.source
    # the Sequential and its three modules, and the globals once
    assert source.count("FACTS_MATCH") == 5
    assert "_forward_hooks" not in source and "_compiled_call_impl" not in source


def test_every_trace_guards_the_hooks_for_every_module() -> None:
    """The globals' two guards are added by a trace's first module call and looked up by the
    later ones: a second trace (after `tracer.reset()`, or of another function) adds them
    again, and a hook registered for every module then misses it with the reason."""
    torch = real_torch()
    model, x = _model(torch), torch.randn(2, 3)
    for _ in range(2):
        tracer.reset()
        compiled = tracer.compile(call)
        assert torch.equal(compiled(model, x), call(model, x))
        guards = "\n".join(compiled.entries[0].guards)
        assert guards.count(f"len({GLOBAL}['_global_forward_hooks']) == 0") == 1
        assert guards.count(f"{GLOBAL} is ") == 1
        seen: list[str] = []
        handle = torch.nn.modules.module.register_module_forward_hook(_record(seen))
        try:
            expected = call(model, x)
            seen.clear()
            result = compiled(model, x)
        finally:
            handle.remove()
        assert torch.equal(result, expected)
        assert seen == ["hook"] * 4  # the Sequential and its three modules, as eagerly
        reasons = compiled.last_miss_reasons or []
        assert any("_global_forward_hooks" in r for r in reasons), reasons
