"""What a trace asks about torch-function dispatch on real torch:

- inside `torch._C.DisableTorchFunction()` no op goes to a mode, though the stack keeps it:
  an entry that met an op under a mode pins `torch_function_all_disabled` (GLOBAL_STATE), a
  trace made inside the context calls no mode;
- the tracer's own question to torch (which op a mode is handed for `Tensor.__add__`, asked
  once per process) is seen by no mode of the user's;
- `torch.overrides.has_torch_function` and its unary and variadic forms are answered while
  tracing, as Dynamo does: True under a mode, False for plain tensors and constants; a tensor
  subclass breaks;
- fields of a device or a dtype (`x.device.type`, `x.dtype.is_floating_point`) are read
  while tracing;
- a private aten op of `torch` that returns tensors (`torch._softmax`) is an op, as public
  ones are; one that returns nothing (`torch._assert_async`) breaks.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import tracer
from tests.real_torch import real_torch


def counting_mode(torch: Any, seen: list[str]) -> Any:
    class Count(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            seen.append(getattr(func, "__name__", repr(func)))
            return func(*args, **(kwargs or {}))

    return Count()


def add_one(x: Any) -> Any:
    return x + 1


def test_an_entry_traced_with_dispatch_on_misses_inside_disable_torch_function() -> None:
    torch = real_torch()
    seen: list[str] = []
    compiled = tracer.compile(add_one)
    x = torch.ones(2)
    with counting_mode(torch, seen):
        compiled(x)
        assert seen == ["add"]
        seen.clear()
        with torch._C.DisableTorchFunction():
            assert torch.equal(compiled(x), x + 1)
            assert seen == []  # the compiled call asked the mode nothing, as eager
        reasons = compiled.last_miss_reasons or []
        assert any("torch_function_all_disabled" in r for r in reasons), reasons
        with torch._C.DisableTorchFunctionSubclass():  # modes stay on: the first entry hits
            compiled(x)
        assert seen == ["add"]
    assert compiled.compile_count == 2


def test_a_trace_made_inside_disable_torch_function_calls_no_mode() -> None:
    torch = real_torch()
    seen: list[str] = []
    compiled = tracer.compile(add_one)
    x = torch.ones(2)
    with counting_mode(torch, seen):
        with torch._C.DisableTorchFunction():
            compiled(x)
            assert seen == []
        compiled(x)
        assert seen == ["add"]


def test_the_tracers_question_to_torch_is_seen_by_no_user_mode(monkeypatch: Any) -> None:
    """The table of operator targets is built on the first compile that needs it, which may
    come under the user's mode, or inside `DisableTorchFunction` (then torch would hand the
    tracer's probing mode nothing, and the table would stay empty for the process)."""
    torch = real_torch()
    from tracer.torch_adapter import world

    monkeypatch.setattr(world, "_PROBED", {})  # as in a fresh process
    seen: list[str] = []
    x = torch.ones(2)
    with counting_mode(torch, seen):
        with torch._C.DisableTorchFunction():
            tracer.compile(add_one)(x)
        assert seen == []
        assert torch._C._len_torch_function_stack() == 1
    table = world._probe()
    assert table[id(torch.Tensor.__add__)] is torch.Tensor.add


def asks_has_torch_function(x: Any, w: Any) -> Any:
    overrides = torch_module().overrides
    return (
        overrides.has_torch_function((x, 1, None, "s")),
        overrides.has_torch_function_unary(w),
        overrides.has_torch_function_variadic(x, w),
        overrides.has_torch_function(()),
        x * 2,
    )


def torch_module() -> Any:
    import torch

    return torch


def test_has_torch_function_is_answered_while_tracing() -> None:
    torch = real_torch()
    x, w = torch.ones(2), torch.nn.Parameter(torch.ones(2))
    for under_mode in (False, True):
        seen: list[str] = []
        with counting_mode(torch, seen) if under_mode else contextlib.nullcontext():
            eager = asks_has_torch_function(x, w)
            explanation = tracer.explain(asks_has_torch_function)(x, w)
        assert explanation.result[:4] == eager[:4] == (under_mode, under_mode, under_mode, False)
        assert explanation.graph_count == 1 and not explanation.break_reasons


def test_has_torch_function_on_a_tensor_subclass_breaks() -> None:
    torch = real_torch()

    class Tagged(torch.Tensor):
        pass

    def asks(x: Any) -> Any:
        return torch.overrides.has_torch_function_unary(x)

    tagged = torch.ones(2).as_subclass(Tagged)
    assert tracer.compile(asks)(tagged) is True
    assert tracer.explain(asks)(tagged).graph_count == 0


def test_fields_of_a_device_and_a_dtype_are_read_while_tracing() -> None:
    torch = real_torch()

    def describe(x: Any) -> Any:
        kind = x.device.type
        return x * 2 if x.dtype.is_floating_point and kind == "cpu" else x, x.dtype.itemsize

    x = torch.ones(2)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(describe)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.break_reasons == [], comparison


def test_a_private_op_that_returns_tensors_is_an_op() -> None:
    torch = real_torch()

    def private(x: Any) -> Any:
        return torch._softmax(x, 0, False) * 2

    x = torch.randn(3)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(private)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.ops_per_graph == [["softmax", "mul"]], comparison  # (as named)
    seen: list[str] = []
    with counting_mode(torch, seen):
        eager = private(x)
        eager_seen = list(seen)
        seen.clear()
        compiled = tracer.compile(private)(x)
    assert torch.equal(compiled, eager)
    assert seen == eager_seen == ["_softmax", "mul"]


def test_a_private_binding_that_returns_nothing_breaks() -> None:
    torch = real_torch()

    def asserts(x: Any) -> Any:
        torch._assert_async(x.sum() > 0)
        return x + 1

    explanation = tracer.explain(asserts)(torch.ones(2))
    assert any("_assert_async" in str(r) for r in explanation.break_reasons), explanation


def test_requires_grad_with_the_flag_the_tensor_has_makes_no_node() -> None:
    """As Dynamo: `x.requires_grad_(False)` on a tensor that does not require grad only
    returns it; a call that changes the flag is a node; a bad keyword raises as eagerly."""
    torch = real_torch()

    def flags(x: Any) -> Any:
        y = x.detach().requires_grad_(False) * 2
        return y, y.requires_grad_(requires_grad=False) is y

    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(flags)(torch.ones(2))
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.ops_per_graph == [["detach", "mul"]], comparison

    def bad(x: Any) -> Any:
        return x.requires_grad_(flag=False)

    compiled = tracer.compile(bad)
    try:
        bad(torch.ones(2))
    except TypeError as e:
        eager = str(e)
    try:
        compiled(torch.ones(2))
    except TypeError as e:
        assert str(e) == eager
    else:
        raise AssertionError("no TypeError")


def test_has_torch_function_agrees_with_torch_on_every_kind_of_item() -> None:
    """Each form, on plain tensors, a parameter, constants, an empty sequence and a list, with
    no mode, under a mode and inside DisableTorchFunction under a mode: the compiled call
    answers what torch answers (a tensor subclass breaks, and eager answers)."""
    torch = real_torch()
    overrides = torch.overrides

    class Tagged(torch.Tensor):
        pass

    t, p = torch.ones(2), torch.nn.Parameter(torch.ones(2))
    tagged = torch.ones(2).as_subclass(Tagged)

    def forms(x: Any, y: Any) -> Any:
        return (
            overrides.has_torch_function((x, y)),
            overrides.has_torch_function([x, 3, None]),
            overrides.has_torch_function(()),
            overrides.has_torch_function_unary(x),
            overrides.has_torch_function_variadic(x, "s", y),
        )

    contexts = {
        "no mode": contextlib.nullcontext,
        "mode": lambda: counting_mode(torch, []),
    }
    for label, context in contexts.items():
        for x, y in ((t, p), (p, 1.5), (t, tagged)):
            tracer.reset()
            with context():
                eager = forms(x, y)
                compiled = tracer.compile(forms)(x, y)
                with torch._C.DisableTorchFunction():
                    eager_off = forms(x, y)
                    compiled_off = tracer.compile(forms)(x, y)
            assert compiled == eager, (label, x, y)
            assert compiled_off == eager_off, (label, "disabled", x, y)


def _bad_device(x: Any) -> Any:
    return torch_module().device("nope"), x


def _finfo_of_an_int(x: Any) -> Any:
    return torch_module().finfo(torch_module().int32), x


def _size_of_floats(x: Any) -> Any:
    return torch_module().Size([1.5]), x


def _has_torch_function_of_an_int(x: Any) -> Any:
    return torch_module().overrides.has_torch_function(5), x


def _requires_grad_of_an_int(x: Any) -> Any:
    return x.requires_grad_(1), x


def test_odd_arguments_raise_what_torch_raises() -> None:
    """The constructors made while tracing, `has_torch_function` and `requires_grad_` given
    what torch refuses: the compiled call raises torch's own error, type and message."""
    torch = real_torch()
    for fn in (
        _bad_device,
        _finfo_of_an_int,
        _size_of_floats,
        _has_torch_function_of_an_int,
        _requires_grad_of_an_int,
    ):
        outcomes = []
        for run in (fn, tracer.compile(fn)):
            try:
                run(torch.ones(2))
            except Exception as e:  # noqa: BLE001 - the error is the outcome
                outcomes.append((type(e), str(e)))
            else:
                outcomes.append(None)
        assert outcomes[0] is not None and outcomes[0] == outcomes[1], fn.__name__
