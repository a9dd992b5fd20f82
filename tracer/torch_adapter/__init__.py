"""Real PyTorch as a tensor world (tracer.worlds): the only part of modetrace that imports torch.

`world_for(fn, L)` is what convert_frame asks at each compile: a `TorchWorld` when torch is
already imported and the call involves it (a real tensor among the arguments, a mode on torch's
stack, or a global of the function from torch), else None (the runtime's world). It never
imports torch itself, so modetrace works, and `import tracer` stays light, without torch.
`compare.py` runs modetrace and torch._dynamo side by side (`tracer.compare`, `python -m tracer
compare`); `frame_hook.py` removes the frame-evaluation hook a Dynamo compile that raised leaves
installed. See notes/torch-adapter.md.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from tracer.worlds import TensorWorld


def world_for(fn: types.FunctionType, L: dict[str, Any]) -> TensorWorld | None:
    torch = sys.modules.get("torch")
    if torch is None or not hasattr(torch, "Tensor"):  # not imported (or half imported)
        return None
    if not (
        any(_involves_torch(torch, value) for value in L.values())
        or torch._C._len_torch_function_stack() > 0
        or _names_torch(torch, fn)
    ):
        return None
    from tracer.torch_adapter.world import TorchWorld

    return TorchWorld()


def module_base() -> type | None:
    """torch's `nn.Module` when torch is imported (a module of the user's can only be one
    then), else None; torch is never imported here."""
    torch = sys.modules.get("torch")
    nn = getattr(torch, "nn", None)  # (absent while torch is half imported)
    base = getattr(nn, "Module", None)
    return base if isinstance(base, type) else None


def why_call_skips_forward(module: Any) -> str | None:
    """Why `module(*args)` on a real torch module would not just call `module.forward` (a
    hook registered on it or globally, a `module.compile()`), else None."""
    return forward_call_check()(module)


def forward_call_check() -> Callable[[Any], str | None]:
    """`why_call_skips_forward` itself, to hold on to and call at each call of a module (it
    lives in `modules`, which imports torch: import it only once torch is)."""
    from tracer.torch_adapter.modules import why_call_skips_forward as why

    return why


def _involves_torch(torch: Any, value: object) -> bool:
    """A torch tensor or module, or a list, tuple or dict holding one, or an object (a
    dataclass, say) with one in its instance dict (one level down), or a builtin method bound
    to a tensor (`x.add`, handed to a resume function by a break in its arguments). Only
    exact types are
    read: `isinstance` would ask the value's `__class__`, which a weak proxy or a user's
    property answers with code of its own; the instance dict is read as `object` reads it,
    and only of a class that does not customize attribute access."""
    kind = type(value)
    if issubclass(kind, torch.Tensor | torch.nn.Module):
        return True
    if kind is types.BuiltinMethodType:
        return issubclass(type(value.__self__), torch.Tensor)  # type: ignore[attr-defined]
    if kind is list or kind is tuple:
        return any(issubclass(type(v), torch.Tensor) for v in value)  # type: ignore[attr-defined]
    if kind is dict:
        return any(issubclass(type(v), torch.Tensor) for v in value.values())  # type: ignore[attr-defined]
    own = _instance_dict(value)
    return own is not None and any(issubclass(type(v), torch.Tensor) for v in own.values())


def _instance_dict(value: object) -> dict[str, Any] | None:
    """The instance dict of a plain object (its class keeps `object`'s attribute access and
    `__dict__` slot), else None."""
    kind = type(value)
    if kind.__getattribute__ is not object.__getattribute__ or issubclass(kind, type):
        return None
    slot = next((vars(k)["__dict__"] for k in kind.__mro__ if "__dict__" in vars(k)), None)
    if type(slot) is not types.GetSetDescriptorType:  # no instance dict, or a custom one
        return None
    try:
        own = object.__getattribute__(value, "__dict__")
    except AttributeError:
        return None
    return own if type(own) is dict else None


def _names_torch(torch: Any, fn: types.FunctionType) -> bool:
    """Does the function read a global that is torch or comes from it (`torch`, `F`, `nn`)?"""
    f_globals = fn.__globals__
    for name in fn.__code__.co_names:
        value: Any = f_globals.get(name)
        if value is torch:
            return True
        module = value.__name__ if issubclass(type(value), types.ModuleType) else None
        if module is not None and module.startswith("torch."):
            return True
    return False
