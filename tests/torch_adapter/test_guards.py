"""Guards on real torch tensors (issue 24, point 2): a change of dtype, shape, strides (a
transposed input), requires_grad or grad mode recompiles, and the recompile says which fact
changed; a change of values does not recompile."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tracer.testing import CompileCounter


def _scale(x: Any) -> Any:
    return (x * 2).sum(0)


def _recompiles(first: Any, then: Any, fn: Callable[..., Any] = _scale) -> tuple[int, list[str]]:
    compiled = tracer.compile(fn)
    with CompileCounter() as counter:
        compiled(first)
        compiled(then)
    return counter.recompiles, list(compiled.last_miss_reasons or [])


def _as_parameter(t: Any) -> Any:
    return real_torch().nn.Parameter(t.clone(), requires_grad=False)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda t: t.double(), "dtype == torch.float32"),
        (lambda t: t.new_ones(3, 3), "shape == (2, 3)"),
        (lambda t: t.new_ones(3, 2).t(), "stride() == (3, 1)"),
        (lambda t: t.clone().requires_grad_(), "requires_grad == False"),
        (lambda t: t.to("meta"), "device == cpu (actual meta)"),
        (lambda t: t._neg_view(), "dispatch_keys == DispatchKeySet(CPU"),
        (_as_parameter, "type(L['x']) is Tensor (actual Parameter)"),
    ],
    ids=["dtype", "shape", "stride", "requires_grad", "device", "dispatch_keys", "class"],
)
def test_a_changed_tensor_fact_recompiles_with_its_reason(
    change: Callable[[Any], Any], reason: str
) -> None:
    torch = real_torch()
    x = torch.ones(2, 3)
    count, reasons = _recompiles(x, change(x))
    assert count == 1
    assert any(reason in r for r in reasons), reasons


def test_the_check_is_torchs_tensor_check_and_explains_each_fact() -> None:
    """TENSOR_MATCH runs torch's C++ tensor check (one call for every fact, the exact class
    among them, on any value); a miss is still explained fact by fact, and the explanation
    agrees with the check."""
    torch = real_torch()
    x = torch.ones(2, 3)
    entry = tracer.trace(_scale)(x)
    source = entry.entry.guard_manager.source
    assert "tensor_match(" in source and "tensor_facts" not in source
    for other, passes in [
        (torch.randn(2, 3), True),
        (x.t().contiguous().t(), False),
        (x.clone().requires_grad_(), False),
        (torch.ones(2, 3, dtype=torch.int64), False),
        (_as_parameter(x), False),
        ([x], False),
        (None, False),
        (2.0, False),
    ]:
        assert entry.check(other) is passes
        assert (entry.failure(other) is None) is passes


def test_inference_mode_changes_the_dispatch_keys_and_recompiles() -> None:
    """Inference mode excludes the autograd keys from every dispatch: torch's tensor check
    sees other dispatch keys (as Dynamo's TENSOR_MATCH does) and the reason names them."""
    torch = real_torch()
    compiled = tracer.compile(_scale)
    x = torch.ones(2, 3)
    with CompileCounter() as counter:
        compiled(x)
        with torch.inference_mode():
            result = compiled(x)
            again = compiled(x)
    assert counter.recompiles == 1
    assert any("dispatch_keys == " in r for r in compiled.last_miss_reasons or [])
    assert torch.equal(result, _scale(x)) and torch.equal(again, _scale(x))
    assert result.is_inference()


def test_changed_values_do_not_recompile() -> None:
    torch = real_torch()
    count, _ = _recompiles(torch.ones(2, 3), torch.randn(2, 3))
    assert count == 0


def test_grad_mode_recompiles_with_its_reason() -> None:
    torch = real_torch()
    compiled = tracer.compile(_scale)
    x = torch.ones(2, 3)
    with CompileCounter() as counter:
        compiled(x)
        with torch.no_grad():
            result = compiled(x)
    assert counter.recompiles == 1
    assert any("grad_enabled == True" in r for r in compiled.last_miss_reasons or [])
    assert torch.equal(result, _scale(x))


@pytest.mark.parametrize(
    ("part", "enter", "leave"),
    [
        (
            "default_dtype == torch.float32",
            lambda torch: torch.set_default_dtype(torch.float64),
            lambda torch: torch.set_default_dtype(torch.float32),
        ),
        (
            "deterministic_algorithms == False",
            lambda torch: torch.use_deterministic_algorithms(True),
            lambda torch: torch.use_deterministic_algorithms(False),
        ),
    ],
)
def test_each_part_of_the_global_state_recompiles_with_its_reason(
    part: str, enter: Callable[[Any], None], leave: Callable[[Any], None]
) -> None:
    torch = real_torch()
    compiled = tracer.compile(_scale)
    x = torch.ones(2, 3)
    with CompileCounter() as counter:
        compiled(x)
        enter(torch)
        try:
            result = compiled(x)
        finally:
            leave(torch)
        compiled(x)  # the first entry passes again
    assert counter.recompiles == 1
    assert any(part in r for r in compiled.last_miss_reasons or [])
    assert torch.equal(result, _scale(x))
    # the check tests each part with its own reader, none built into a tuple
    source = compiled.entries[-1].guard_manager.source
    for reader in ("is_grad_enabled()", "get_default_dtype()", "_get_deterministic_algorithms()"):
        assert reader in source


def test_the_guard_printout_names_every_fact() -> None:
    torch = real_torch()
    guards = "\n".join(tracer.explain(_scale)(torch.ones(2, 3)).guards)
    assert (
        "type(L['x']) is Tensor and L['x'].dtype == torch.float32 and L['x'].device == cpu and "
        "L['x'].shape == (2, 3) and L['x'].stride() == (3, 1) and L['x'].requires_grad == False"
        " and L['x'].dispatch_keys == DispatchKeySet(CPU"
    ) in guards
    assert "grad_enabled=True and default_dtype=torch.float32" in guards


def test_guards_read_tensors_where_no_mode_sees_them() -> None:
    """The check runs with a mode on the stack: the mode must not see the guard's reads."""
    torch = real_torch()
    seen: list[str] = []

    class Noting(torch.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            seen.append(getattr(func, "__name__", "?"))
            return func(*args, **(kwargs or {}))

    compiled = tracer.compile(_scale)
    x = torch.ones(2, 3)
    with Noting():
        expected = _scale(x)
        eager_seen = list(seen)
        seen.clear()
        first = compiled(x)
        seen.clear()
        second = compiled(x)  # guards pass: only the compiled code's replay of the mode runs
    assert torch.equal(first, expected) and torch.equal(second, expected)
    assert seen == eager_seen


def test_a_tensor_subclass_with_its_own_torch_function_falls_back() -> None:
    torch = real_torch()

    class Tagged(torch.Tensor):
        @classmethod
        def __torch_function__(
            cls, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return super().__torch_function__(func, types, args, kwargs)

    x = torch.ones(2, 3).as_subclass(Tagged)
    explanation = tracer.explain(_scale)(x)
    assert explanation.graph_count == 0
    assert "tensor subclass Tagged with its own __torch_function__" in str(
        explanation.break_reasons[0]
    )


def test_a_plain_tensor_subclass_falls_back_naming_the_inherited_torch_function() -> None:
    torch = real_torch()

    class Plain(torch.Tensor):
        pass

    x = torch.ones(2, 3).as_subclass(Plain)
    explanation = tracer.explain(_scale)(x)
    assert explanation.graph_count == 0
    reason = str(explanation.break_reasons[0])
    assert "Tensor.__torch_function__ returns each op's result as a Plain" in reason
    assert "its own" not in reason
    assert type(tracer.compile(_scale)(x)) is Plain


def test_a_parameter_is_traced_with_its_class_guarded() -> None:
    torch = real_torch()
    p = torch.nn.Parameter(torch.ones(2, 3))
    explanation = tracer.explain(_scale)(p)
    assert explanation.graph_count == 1
    assert any("type(L['x']) is Parameter" in g for g in explanation.guards)


def test_a_parameter_keeps_its_class_inside_the_trace() -> None:
    torch = real_torch()

    def kinds(p: Any) -> Any:
        return type(p).__name__, isinstance(p, torch.nn.Parameter), type(p * 2).__name__, p + 1

    p = torch.nn.Parameter(torch.ones(2))
    explanation = tracer.explain(kinds)(p)
    assert explanation.graph_count == 1
    eager = kinds(p)
    assert explanation.result[:3] == eager[:3] == ("Parameter", True, "Tensor")
    assert torch.equal(explanation.result[3], eager[3])


def test_the_empty_mode_stack_is_read_through_torchs_own_counter() -> None:
    """The MODE_STACK guard on an empty stack calls torch's C length counter (no list of the
    stack is built); a mode pushed after the compile misses it, with the stack in the reason."""
    torch = real_torch()
    x = torch.ones(2, 3)
    entry = tracer.trace(_scale)(x)
    manager = entry.entry.guard_manager
    assert "___mode_stack_len() == 0  # MODE_STACK" in manager.source
    assert manager.roots["___mode_stack_len"] is torch._C._len_torch_function_stack
    assert manager.check({"x": x})
    with torch.overrides.TorchFunctionMode():
        assert not manager.check({"x": x})
        reason = manager.failure_reason({"x": x})
        assert reason is not None
        assert reason.startswith("mode stack: expected [] (actual [TorchFunctionMode])")
    assert manager.check({"x": x})
