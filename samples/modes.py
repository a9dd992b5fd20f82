"""Samples with a TorchFunctionMode: entered inside the traced function, active when it is called,
and popped and pushed back by hand. Changes to the mode stack are side effects too."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from samples.spec import Sample

OP_LOG: list[str] = []


class LoggingMode(torch.overrides.TorchFunctionMode):
    """Records the name of every op that reaches it in OP_LOG, then runs the op."""

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        OP_LOG.append(func.__name__)
        return func(*args, **(kwargs or {}))


def _show_log(args: tuple[Any, ...]) -> str:
    logged = list(OP_LOG)
    OP_LOG.clear()
    return f"OP_LOG: {logged}"


def mode_inside(x: Any) -> Any:
    with LoggingMode():
        y = torch.sin(x) + 1
    return y * 2


def mode_at_call(x: Any) -> Any:
    return torch.relu(x - 1) * 3


def pop_and_push(x: Any) -> Any:
    mode = torch._C._pop_torch_function_stack()
    hidden = x + 1  # the mode is off the stack here: not logged
    torch._C._push_on_torch_function_stack(mode)
    return hidden * 2  # logged


SAMPLES = [
    Sample(
        "mode entered inside",
        "`with LoggingMode():` is traced: its handler is inlined, its log append replayed",
        mode_inside,
        inputs=lambda: (torch.arange(3.0),),
        after=_show_log,
        also_show=(LoggingMode,),
    ),
    Sample(
        "mode active at call time",
        "the mode stack is read at trace start and guarded by MODE_STACK",
        mode_at_call,
        inputs=lambda: (torch.arange(3.0),),
        active_mode=LoggingMode,
        after=_show_log,
    ),
    Sample(
        "mode stack by hand",
        "pop and re-push the mode: ops in between bypass it; the final stack is replayed",
        pop_and_push,
        inputs=lambda: (torch.arange(3.0),),
        active_mode=LoggingMode,
        after=_show_log,
    ),
]
