"""torch's context managers of thread-local state other than grad mode, as a trace models them
(tracer.worlds.StateContextKind; the trackers are in variables/state_contexts.py):

- `torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)`: ops inside
  compute in a lower precision. Dynamo records `torch.amp._enter_autocast(device_type, dtype,
  enabled, cache_enabled)` and `torch.amp._exit_autocast(ctx)`; so does modetrace, with the
  four values the constructor resolved. Those it read of global state (the device's autocast
  dtype when given none, `torch.is_autocast_cache_enabled()` when given no `cache_enabled`) are
  guarded, each as a GLOBAL_STATE part of its own.
- `torch.inference_mode(mode=True)`: ops inside make inference tensors and grad mode is
  `not mode`. Dynamo records `torch.autograd.grad_mode._enter_inference_mode(mode)` and
  `_exit_inference_mode(ctx)`; so does modetrace. Its fake runs enter the real inference mode
  (torch 2.13's fake tensors follow it: results are inference tensors), where Dynamo turns grad
  mode off instead (`fake_tensor_disable_inference_mode`).

`torch.autocast` is `torch.amp.autocast` (one class); the deprecated `torch.cpu.amp.autocast`
warns when made, so the frame runs eagerly there.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import torch

from guards.guard import Guard, state_part_guard
from tracer.worlds import StateContextKind

_amp = torch.amp.autocast_mode
_grad_mode = torch.autograd.grad_mode


def _autocast_enter_args(ctx: Any) -> tuple[Any, ...]:
    return (ctx.device, ctx.fast_dtype, ctx._enabled, ctx._cache_enabled)


@functools.cache
def _autocast_dtype_reader(device_type: str) -> Any:
    """`torch.get_autocast_dtype(device_type)` as a reader without arguments: one object per
    device type, so that two traces' parts of the same name read with the same reader."""
    return functools.partial(torch.get_autocast_dtype, device_type)


def _autocast_state_read(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Guard]:
    """What `autocast.__init__` read of global state for these arguments: the device's
    autocast dtype when `dtype` is None, the cache flag when `cache_enabled` is None. (The
    arguments bound as it binds them; they made an object already, so they bind.)"""
    bound = _AUTOCAST_SIGNATURE.bind(*args, **kwargs).arguments
    device_type = bound["device_type"]
    guards = []
    if bound.get("dtype") is None:
        reader = _autocast_dtype_reader(device_type)
        guards.append(state_part_guard(f"autocast_dtype[{device_type}]", reader(), reader))
    if bound.get("cache_enabled") is None:
        reader = torch.is_autocast_cache_enabled
        guards.append(state_part_guard("autocast_cache_enabled", reader(), reader))
    return guards


_AUTOCAST_SIGNATURE = inspect.signature(_amp.autocast)
"""`autocast(device_type, dtype=None, enabled=True, cache_enabled=None)`."""

AUTOCAST = StateContextKind(
    enter=_amp._enter_autocast,
    exit=_amp._exit_autocast,
    enter_args=_autocast_enter_args,
    state_read=_autocast_state_read,
    grad_mode=lambda args: None,
    refuses=lambda args, kwargs: None,
    enter_returns_self=True,
    exit_result=False,
)


def _inference_mode_refuses(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    """`inference_mode(mode)` with `mode` a bool makes a context manager; with anything else
    (a function) its `__new__` decorates it."""
    values = (*args, *kwargs.values())
    if len(values) <= 1 and all(type(value) is bool for value in values):
        return None
    return "used as a decorator (its argument is not one bool)"


INFERENCE_MODE = StateContextKind(
    enter=_grad_mode._enter_inference_mode,
    exit=_grad_mode._exit_inference_mode,
    enter_args=lambda ctx: (ctx.mode,),
    state_read=lambda args, kwargs: [],
    grad_mode=lambda args: not args[0],
    refuses=_inference_mode_refuses,
    enter_returns_self=False,
    exit_result=None,
)

STATE_CONTEXTS = {_amp.autocast: AUTOCAST, torch.inference_mode: INFERENCE_MODE}
