"""A mode's `__torch_function__` is looked up at every op, as eager code looks it up: ops after a
change to the handler go where eager code sends them."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import assert_same_behavior


class TagMode(TorchFunctionMode):
    """Every op result plus `bias`; the handler reads the instance, so a store shows."""

    def __init__(self) -> None:
        super().__init__()
        self.bias = 1.0
        self.calls = 0

    def __repr__(self) -> str:
        return "<TagMode>"

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls += 1
        out = func(*args, **(kwargs or {}))
        return out + self.bias if func is torch.add or func is torch.mul else out


def other_handler(func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
    return func(*args, **(kwargs or {})) * 10


def test_every_op_under_a_mode_goes_to_its_handler() -> None:
    def fn(x: Any) -> Any:
        a = torch.add(x, 1)
        b = torch.mul(a, 2)
        return torch.add(b, a), torch.sin(b)

    assert_same_behavior(fn, torch.ones(3), modes=[TagMode()], compile_options={"fullgraph": True})


def test_a_handler_stored_on_the_mode_during_the_trace_is_used_from_then_on() -> None:
    def fn(x: Any, mode: Any) -> Any:
        a = torch.add(x, 1)
        mode.__torch_function__ = other_handler
        b = torch.mul(a, 2)
        del mode.__torch_function__
        return torch.add(b, a)

    mode = TagMode()
    assert_same_behavior(fn, torch.ones(3), mode, modes=[mode])


def test_two_modes_each_keep_their_own_handler() -> None:
    class Scale(TagMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {})) * 3

    def fn(x: Any) -> Any:
        return torch.add(torch.add(x, 1), 2), torch.mul(x, 2)

    assert_same_behavior(
        fn, torch.ones(2), modes=[TagMode(), Scale()], compile_options={"fullgraph": True}
    )
