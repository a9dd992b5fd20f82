"""Torch-function modes: dispatch, nesting, the per-thread stack and its error cases."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.runtime import _C
from tracer.runtime.overrides import (
    BaseTorchFunctionMode,
    TorchFunctionMode,
    _get_current_function_mode,
    _get_current_function_mode_stack,
    _pop_mode_temporarily,
)


class Recorder(BaseTorchFunctionMode):
    """Records every op it sees as its OpInfo qualname, then runs it."""

    def __init__(self, log: list[str] | None = None, tag: str = "") -> None:
        super().__init__()
        self.log = [] if log is None else log
        self.tag = tag
        self.types: list[tuple[type, ...]] = []

    def __torch_function__(
        self,
        func: Callable[..., Any],
        types: tuple[type, ...],
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        self.log.append(self.tag + func.__modetrace_op__.qualname)  # type: ignore[attr-defined]
        self.types.append(types)
        return func(*args, **(kwargs or {}))


@pytest.fixture(autouse=True)
def clean_stack() -> Any:
    assert _C._len_torch_function_stack() == 0
    yield
    leftover = _C._len_torch_function_stack()
    _C._set_torch_function_mode_stack([])
    assert leftover == 0, "a test left modes on the stack"


def test_records_function_method_and_operator_forms() -> None:
    x = torch.ones(2, 3)
    with Recorder() as mode:
        y = torch.add(x, 1)
        y = y.sin()
        y = -(y * 2) + 1
        z = 1 - y
        w = y[:, 1]
        v = (x @ x.T).sum(dim=0)
        _ = z < w.reshape(2, 1)
    assert mode.log == [
        "torch.add",
        "Tensor.sin",
        "Tensor.mul",
        "Tensor.neg",
        "Tensor.add",
        "Tensor.__rsub__",
        "Tensor.__getitem__",
        "Tensor.T.__get__",
        "Tensor.matmul",
        "Tensor.sum",
        "Tensor.reshape",
        "Tensor.lt",
    ]
    assert v.tolist() == [6.0, 6.0]
    # torch's rule (tracer/runtime/overridable.py): the tensor types for what takes the tensor
    # alone (`sin`, `neg`, the `T` getter) and for `__rsub__`; `()` for the rest
    with_types = [t == (torch.Tensor,) for t in mode.types]
    assert with_types == [False, True, False, True, False, True, False, True] + [False] * 4
    assert all(t in ((), (torch.Tensor,)) for t in mode.types)


def test_func_is_the_public_callable_and_kwargs_is_a_dict() -> None:
    seen: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = []

    class Spy(TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            seen.append((func, args, kwargs))
            return func(*args, **kwargs)

    x = torch.ones(2)
    with Spy():
        x + x
        torch.add(x, x, alpha=2)
        torch.cat([x, x])
    assert seen[0][0] is torch.Tensor.add and seen[0][1] == (x, x) and seen[0][2] == {}
    assert seen[1][0] is torch.add and seen[1][2] == {"alpha": 2}
    assert seen[2][0] is torch.cat


def test_nested_modes_handler_reaches_the_next_mode_down() -> None:
    log: list[str] = []
    x = torch.ones(2)
    with Recorder(log, "outer:"), Recorder(log, "inner:") as inner:
        assert _C._get_function_stack_at(-1) is inner
        x.exp()
    assert log == ["inner:Tensor.exp", "outer:Tensor.exp"]


def test_mode_is_popped_while_its_handler_runs() -> None:
    stacks: list[list[Any]] = []

    class Peek(BaseTorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kw: Any = None) -> Any:
            stacks.append(_get_current_function_mode_stack())
            return super().__torch_function__(func, types, args, kw)

    outer, inner = Recorder(), Peek()
    with outer, inner:
        torch.ones(1).cos()
        assert _get_current_function_mode_stack() == [outer, inner]
    assert stacks == [[outer], [outer]]  # once for `ones`, once for `cos`


def test_not_implemented_falls_back_to_the_default() -> None:
    class Decline(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kw: Any = None) -> Any:
            return NotImplemented

    with Decline():
        assert (torch.ones(2) * 3).tolist() == [3.0, 3.0]


def test_handler_can_replace_results() -> None:
    class Zero(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kw: Any = None) -> Any:
            return "replaced" if func is torch.Tensor.add else func(*args, **(kw or {}))

    x = torch.ones(2)
    with Zero():
        assert x + x == "replaced"
        assert isinstance(x * x, torch.Tensor)


def test_exception_in_handler_leaves_the_stack_unchanged() -> None:
    class Boom(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kw: Any = None) -> Any:
            raise ValueError("boom")

    outer, boom = Recorder(), Boom()
    with outer, boom:
        with pytest.raises(ValueError, match="boom"):
            torch.ones(1).neg()
        assert _get_current_function_mode_stack() == [outer, boom]
    with pytest.raises(NotImplementedError), TorchFunctionMode():
        torch.zeros(1).abs()
    assert _C._len_torch_function_stack() == 0


def test_push_pop_by_hand_and_stack_queries() -> None:
    a, b = Recorder(), Recorder()
    assert _get_current_function_mode() is None and not _C._is_torch_function_mode_enabled()
    _C._push_on_torch_function_stack(a)
    _C._push_on_torch_function_stack(b)
    assert _C._len_torch_function_stack() == 2 and _C._is_torch_function_mode_enabled()
    assert _C._get_function_stack_at(0) is a and _C._get_function_stack_at(-1) is b
    with pytest.raises(IndexError):
        _C._get_function_stack_at(2)
    torch.ones(1).sqrt()
    assert b.log == ["torch.ones", "Tensor.sqrt"] and a.log == b.log
    assert _C._pop_torch_function_stack() is b
    assert _C._pop_torch_function_stack() is a
    with pytest.raises(RuntimeError, match="empty torch function mode stack"):
        _C._pop_torch_function_stack()


def test_pop_mode_temporarily() -> None:
    a, b = Recorder(), Recorder()
    with a, b:
        with _pop_mode_temporarily() as popped:
            assert popped is b and _get_current_function_mode_stack() == [a]
            torch.ones(1)
        assert _get_current_function_mode_stack() == [a, b]
        with pytest.raises(KeyError), _pop_mode_temporarily():
            raise KeyError("inside")
        assert _get_current_function_mode_stack() == [a, b]
    assert a.log == ["torch.ones"] and b.log == []


def test_live_stack_and_set_stack() -> None:
    live = _C._torch_function_mode_stack()
    a, b = Recorder(), Recorder()
    _C._set_torch_function_mode_stack([a, b])
    assert live == [a, b] and _C._torch_function_mode_stack() is live
    with Recorder() as c:
        assert live[-1] is c
    _C._set_torch_function_mode_stack([])
    assert live == [] and _C._torch_function_mode_stack() is live


def test_exiting_out_of_order_names_both_modes() -> None:
    a, b = Recorder(tag="a"), Recorder(tag="b")
    a.__enter__()
    b.__enter__()
    with pytest.raises(RuntimeError, match="out of order") as info:
        a.__exit__(None, None, None)
    assert repr(a) in str(info.value) and repr(b) in str(info.value)
    assert _get_current_function_mode_stack() == [a, b]
    b.__exit__(None, None, None)
    a.__exit__(None, None, None)


def test_disable_torch_function() -> None:
    mode = Recorder()
    with mode:
        with _C.DisableTorchFunction():
            assert not _C._is_torch_function_mode_enabled()
            assert _C._len_torch_function_stack() == 1
            torch.ones(2).exp()
            with _C.DisableTorchFunction():
                torch.zeros(1)
            torch.zeros(1)
        torch.zeros(1)
    assert mode.log == ["torch.zeros"]


def test_stacks_are_per_thread() -> None:
    seen: dict[str, Any] = {}

    def worker() -> None:
        seen["len"] = _C._len_torch_function_stack()
        seen["enabled"] = _C._is_torch_function_mode_enabled()
        with Recorder() as mine:
            torch.ones(1)
        seen["log"] = mine.log
        seen["live"] = _C._torch_function_mode_stack()

    mode = Recorder()
    with mode:
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert _C._len_torch_function_stack() == 1
    assert seen["len"] == 0 and not seen["enabled"] and seen["log"] == ["torch.ones"]
    assert seen["live"] is not _C._torch_function_mode_stack()
    assert mode.log == []


def test_base_mode_defaults() -> None:
    mode = TorchFunctionMode()
    with pytest.raises(NotImplementedError):
        mode.__torch_function__(torch.add, (), (1, 2))
    assert BaseTorchFunctionMode().__torch_function__(torch.add, (), (torch.ones(1), 2)).item() == 3
    assert torch.overrides.TorchFunctionMode is TorchFunctionMode
    assert torch._C._len_torch_function_stack is _C._len_torch_function_stack
