"""NNModuleVariable: a real `torch.nn.Module` met while tracing (an argument, a global, an
attribute of another module).

Two things of `nn.Module` are modeled rather than inlined, as Dynamo does:

- Reading `m.weight`: torch keeps parameters, buffers and submodules out of the instance dict,
  in `m._parameters`, `m._buffers` and `m._modules`, and finds them in `Module.__getattr__`.
  The tracker reads the same dicts at their sources (`L['m']._parameters['weight']`), guarding
  that the name is in none of the places Python looks first (the instance dict; the class is
  pinned by TYPE_MATCH). A parameter is then an input tensor like any other (TENSOR_MATCH).
- Calling `m(x)`: `Module.__call__` runs `forward` directly when no hook is registered on the
  module or globally; the tracker guards each hook dict empty and inlines `forward`. A hook
  makes the call run through `Module._call_impl`, which modetrace does not model (a break).
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import torch

from guards.guard import GuardKind
from guards.sources import AttrSource, ItemSource, ModuleSource, TypeSource
from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.dicts import ConstDictVariable
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.translator.base import TranslatorBase

MODULE_DICTS = ("_parameters", "_buffers", "_modules")
"""Where `Module.__getattr__` looks, in its order."""
HOOK_DICTS = (
    "_forward_hooks",
    "_forward_pre_hooks",
    "_backward_hooks",
    "_backward_pre_hooks",
)
"""The module's own hook dicts `Module._call_impl` tests before calling `forward` directly."""
GLOBAL_HOOK_DICTS = tuple(f"_global{name}" for name in HOOK_DICTS)
"""The same, registered for every module (globals of torch.nn.modules.module)."""


class NNModuleVariable(UserDefinedObjectVariable):
    """`NNModuleVariable(Linear @ L['m'])`: a module from outside the frame."""

    __slots__ = ()

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if self.source is not None and name not in self.attrs:
            found = self._module_dict_entry(tx, name, self.source)
            if found is not None:
                return found
        return super().var_getattr(tx, name)

    def _module_dict_entry(
        self, tx: TranslatorBase, name: str, source: Source
    ) -> VariableTracker | None:
        own = object.__getattribute__(self.value, "__dict__")
        if name in own:
            return None  # the instance dict wins: the ordinary lookup reads it
        for dict_name in MODULE_DICTS:
            table = own.get(dict_name)
            if table is not None and name in table:
                tx.output.guard_name_absent(AttrSource(source, "__dict__"), name)
                dict_vt = tx.output.builder.wrap(table, AttrSource(source, dict_name))
                assert isinstance(dict_vt, ConstDictVariable)
                return dict_vt.items[name].realize()
        return None

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        cls = type(self.value)
        if self.source is None or cls.__call__ is not torch.nn.Module.__call__:
            return super().call_function(tx, args, kwargs)
        self._guard_no_hooks(tx, self.source)
        forward = self.var_getattr(tx, "forward")
        return forward.call_function(tx, args, kwargs)

    def _guard_no_hooks(self, tx: TranslatorBase, source: Source) -> None:
        """`Module.__call__` calls `forward` at once: no compiled call and no hook, here or
        global. Each hook dict (an OrderedDict) is guarded by its exact type and length 0."""
        builder = tx.output.builder
        own = object.__getattribute__(self.value, "__dict__")
        if own.get("_compiled_call_impl") is not None:
            unimplemented("nn-module", f"{type(self.value).__name__} was torch.compile()d")
        builder.wrap(own.get("_compiled_call_impl"), AttrSource(source, "_compiled_call_impl"))
        call_source = AttrSource(TypeSource(source), "__call__")
        builder.wrap(type(self.value).__call__, call_source)  # FUNCTION_MATCH
        # `type(m).__call__` is `Module.__call__` itself (FUNCTION_MATCH above), whose globals
        # are its module's dict: the global hook dicts are guarded there, once per trace
        # however many modules it calls, rather than through each module's `__call__`
        torch_globals = torch.nn.Module.__call__.__globals__
        globals_source = AttrSource(ModuleSource(torch.nn.Module.__call__.__module__), "__dict__")
        tx.output.add_guard(GuardKind.ID_MATCH, globals_source, torch_globals)
        places: list[tuple[Any, Source]] = [
            (own.get(name), AttrSource(source, name)) for name in HOOK_DICTS
        ]
        places += [
            (torch_globals.get(name), ItemSource(globals_source, name))
            for name in GLOBAL_HOOK_DICTS
        ]
        for hooks, hooks_source in places:
            if type(hooks) not in (dict, collections.OrderedDict):
                unimplemented("nn-module", f"{hooks_source.name} is not a dict of hooks")
            if hooks:
                unimplemented(
                    "nn-module-hooks",
                    f"a hook is registered ({hooks_source.name}): the call runs "
                    "Module._call_impl, which is not modeled",
                )
            tx.output.add_guard(GuardKind.TYPE_MATCH, hooks_source, type(hooks))
            tx.output.add_guard(GuardKind.LENGTH_CHECK, hooks_source, 0)

    def __repr__(self) -> str:
        where = f" @ {self.source.name}" if self.source is not None else ", new"
        return f"NNModuleVariable({self.cls.__qualname__}{where})"


def why_call_skips_forward(module: Any) -> str | None:
    """`Module.__call__` runs `forward` at once only with no hook (on the module or global)
    and no `module.compile()`: else why not. `tracer.compile(model)` checks it at each call
    (tracer/cache/targets.py), where the traced `m(x)` guards it (`_guard_no_hooks`)."""
    own = object.__getattribute__(module, "__dict__")
    if own.get("_compiled_call_impl") is not None:
        return f"{type(module).__name__} was compiled by torch (module.compile())"
    if any(map(own.get, HOOK_DICTS)):  # (as `_call_impl` tests them: by truth value)
        name = next(name for name in HOOK_DICTS if own.get(name))
        return f"a hook is registered on the module ({name})"
    if any(map(_TORCH_GLOBALS.get, GLOBAL_HOOK_DICTS)):
        name = next(name for name in GLOBAL_HOOK_DICTS if _TORCH_GLOBALS.get(name))
        return f"a hook is registered for every module ({name})"
    return None


_TORCH_GLOBALS = torch.nn.Module.__call__.__globals__
"""The globals of `Module.__call__`'s module, where the hooks for every module are."""


def wrap_module(output: Any, value: Any, source: Source) -> VariableTracker | None:
    """The tracker for a real module found at `source` (TYPE_MATCH guarded), else None."""
    if not isinstance(value, torch.nn.Module):
        return None
    output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
    vt = NNModuleVariable(value, type(value), source)
    tracked: VariableTracker = output.side_effects.track_existing(value, vt)
    return tracked
