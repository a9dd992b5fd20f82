"""What `tracer.compile` accepts besides a plain function, and how each becomes one.

A CompiledFunction caches the compiled versions of one Python function's code. The other things
a user calls are reduced to one, with the object they are bound to as the first argument
(`self`, an input like any other, so `L['self']` is where every guard on it starts):

- a bound method `obj.method`: `type(obj).method` compiled, bound to `obj` again;
- an `nn.Module`, the runtime's or real torch's: `type(model).forward` compiled with `self` as
  an input (a `CompiledModule`), as `torch.compile(model)` compiles the module's forward frame.
  Parameters and buffers become graph inputs, guarded on their metadata, and the attributes
  `forward` reads are guarded by value (variables/nn_module.py, tracer/torch_adapter/modules.py);
- any other callable object: `type(obj).__call__`, bound to `obj`.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

from tracer import torch_adapter
from tracer.cache.function import CompiledFunction
from tracer.exc import UserError
from tracer.runtime.nn import Module


def module_base(target: object) -> type | None:
    """The `nn.Module` class `target` is an instance of: the runtime's, or real torch's (when
    torch is imported), else None."""
    kind = type(target)
    if issubclass(kind, Module):
        return Module
    torch_module = torch_adapter.module_base()
    if torch_module is not None and issubclass(kind, torch_module):
        return torch_module
    return None


class CompiledModule:
    """`tracer.compile(model)`: calling it runs `model(*args)` with `type(model).forward`
    compiled (`self.compiled`, whose `entries`, `compile_count` and `last_miss_reasons` are
    readable here too).

    `model(*args)` is `type(model).__call__(model, *args)`, which the runtime's Module makes
    `model.forward(*args)`, and torch's too while no hook is registered (on the module or
    globally). The compiled forward stands for it only while that still holds: the same
    class, `Module.__call__`, the same `forward` on the class and none set on the instance,
    and for torch no hook. Otherwise the call runs `model(*args)` as plain Python (hooks and
    all), and `eager_reason` says why (Dynamo guards `forward` against monkeypatching the same
    way)."""

    def __init__(self, module: Any, compiled: CompiledFunction, base: type = Module) -> None:
        self.module = module
        self.compiled = compiled
        self._cls = type(module)
        self._base = base
        self._skips_forward = (
            None if base is Module else torch_adapter.forward_call_check()
        )  # a torch module's hooks and `module.compile()`, tested at each call
        self.eager_reason: str | None = None

    def why_not_compiled(self) -> str | None:
        """Why `model(*args)` no longer calls the compiled forward, or None."""
        module, cls = self.module, self._cls
        if type(module) is not cls:
            return (
                f"the module's class changed from {cls.__qualname__} to {type(module).__qualname__}"
            )
        if cls.__call__ is not self._base.__call__:
            return f"{cls.__qualname__}.__call__ was replaced"
        if "forward" in vars(module):
            return "the module has a `forward` of its own (an instance attribute)"
        if cls.forward is not self.compiled.fn:
            return f"{cls.__qualname__}.forward was replaced"
        if self._skips_forward is not None:
            return self._skips_forward(module)
        return None

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        why = self.why_not_compiled()
        self.eager_reason = why
        if why is not None:
            return self.module(*args, **kwargs)
        return self.compiled(self.module, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # only for names this object lacks: the compiled forward's cache and statistics
        if name in ("module", "compiled"):  # not set yet (during unpickling, say)
            raise AttributeError(name)
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"CompiledModule({self._cls.__qualname__}, {len(self.compiled.entries)} entries)"


UNBOUND: Any = object()
"""What `function_of` gives as the bound object of a plain function."""


def function_of(target: Any) -> tuple[types.FunctionType, Any]:
    """The Python function `tracer.compile(target)` compiles, and the object a call passes as
    its first argument (`UNBOUND` for a plain function); a UserError for anything with no
    Python function to compile."""
    if issubclass(type(target), CompiledFunction):
        target = target.fn
    if issubclass(type(target), CompiledModule):
        target = target.module
    if type(target) is types.FunctionType:
        return target, UNBOUND
    if type(target) is types.MethodType:
        func: Any = target.__func__
        if issubclass(type(func), CompiledFunction):
            func = func.fn
        if type(func) is types.FunctionType:
            return func, target.__self__
    elif (base := module_base(target)) is not None and type(target).__call__ is base.__call__:
        forward = _class_function(type(target), "forward")
        if forward is None:
            name = type(target).__qualname__
            kind = type(inspect.getattr_static(target, "forward", None)).__name__
            raise UserError(
                f"tracer.compile: {name}.forward is a {kind}, not a plain method: compile a "
                "module whose forward is one (called from another module's, it is traced)"
            )
        return forward, target
    elif not issubclass(type(target), type):
        call = _class_function(type(target), "__call__")
        if call is not None:
            return call, target
    kind = type(target).__name__
    raise UserError(
        "tracer.compile expects a Python function, a bound method, an nn.Module or an object "
        f"whose class defines __call__ in Python, got {kind} {target!r}"
    )


def compiled_target(
    target: Any, make: Callable[[types.FunctionType], CompiledFunction]
) -> CompiledFunction | CompiledModule | types.MethodType:
    """`target` compiled: `make(fn)` for the Python function behind it, bound as `target`
    was (a module's forward in a CompiledModule)."""
    fn, bound = function_of(target)
    compiled = make(fn)
    if bound is UNBOUND:
        return compiled
    if issubclass(type(target), CompiledModule):
        target = target.module
    base = module_base(target)  # `model`, not `model.forward`
    if base is not None and type(bound).__call__ is base.__call__:
        return CompiledModule(bound, compiled, base)
    return types.MethodType(compiled, bound)


def _class_function(cls: type, name: str) -> types.FunctionType | None:
    """The Python function `cls.name` (a plain method of the class or a base), else None."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            found = klass.__dict__[name]
            if issubclass(type(found), CompiledFunction):
                found = found.fn
            return found if type(found) is types.FunctionType else None
    return None
