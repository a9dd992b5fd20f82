"""NNModuleVariable: a real `torch.nn.Module` met while tracing (an argument, a global, an
attribute of another module).

Two things of `nn.Module` are modeled rather than inlined, as Dynamo does:

- Reading `m.weight`: torch keeps parameters, buffers and submodules out of the instance dict,
  in `m._parameters`, `m._buffers` and `m._modules`, and finds them in `Module.__getattr__`.
  The tracker reads the same dicts at their sources (`L['m']._parameters['weight']`), guarding
  that the name is in none of the places Python looks first (the instance dict; the class is
  pinned by TYPE_MATCH). A parameter is then an input tensor like any other (TENSOR_MATCH).
- Calling `m(x)`: `Module.__call__` runs `forward` directly when no hook is registered on the
  module or globally and the module was not `module.compile()`d; the tracker pins those facts
  with one FACTS_MATCH on the module (`call_facts` reads them all) and inlines `forward`. A
  hook makes the call run through `Module._call_impl`, which modetrace does not model (a
  break).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import torch

from guards.guard import FactsSpec, Guard, GuardKind
from guards.sources import AttrSource, ModuleSource, TypeSource
from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.class_lookup import (
    custom_getattribute_reason,
    guard_not_in_classes,
    lookup_class_attr,
)
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
        """`Module.__getattr__`'s answer, read at its dict's source (`L['m']._modules['fc']`),
        when the ordinary lookup finds nothing: None (the ordinary lookup's turn) when the
        instance dict or a class on the MRO holds `name`, or a class of the module's has a
        `__getattr__` of its own (the ordinary lookup's turn, then that one's). The entry holds
        while the places looked in first still lack `name` (NOTE [module attribute guards])."""
        reason = custom_getattribute_reason(self.cls)
        if reason is not None:  # (the TYPE_MATCH pins the class's generic reads)
            unimplemented("getattr", reason)
        own = object.__getattribute__(self.value, "__dict__")
        cls = self.cls
        if name in own or lookup_class_attr(cls, name)[1] is not None:
            return None  # the ordinary lookup finds it
        if self.special_method(tx, "__getattr__", pin=True)[0] is not torch.nn.Module.__getattr__:
            return None
        _refuse_changed(tx, own, MODULE_DICTS, f"reading {name!r} of a module")
        looked_in: list[tuple[str, dict[str, Any]]] = []
        for dict_name in MODULE_DICTS:
            table = own.get(dict_name)
            if table is None:  # (a module before `Module.__init__` ran) and it stays so
                tx.output.guard_name_absent(AttrSource(source, "__dict__"), dict_name)
            elif name in table:
                tx.output.guard_name_absent(AttrSource(source, "__dict__"), name)
                guard_not_in_classes(tx, cls, TypeSource(source), name)
                for earlier, earlier_table in looked_in:
                    _guard_lacks(tx, AttrSource(source, earlier), earlier_table, name)
                dict_vt = tx.output.builder.wrap(table, AttrSource(source, dict_name))
                if not isinstance(dict_vt, ConstDictVariable) or name not in dict_vt.items:
                    # (a subclass of OrderedDict in its place, as DeepSpeed's ZeRO-3 puts)
                    unimplemented("nn-module", f"{dict_name} of a module is {dict_vt!r}")
                return dict_vt.items[name].realize()
            else:
                looked_in.append((dict_name, table))
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

    def missing_attr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        """The ordinary lookup found nothing: torch's `Module.__getattr__` looks in the
        parameters, buffers and submodules, which lack `name` too (`_module_dict_entry` found
        nothing there; guarded to still lack it), and raises AttributeError with its message:
        modeled, so `getattr(m, "calls", 0)` and `hasattr(m, "bias")` are answered. Before,
        tracing `Module.__getattr__` broke at `self.__dict__`."""
        dunder = name.startswith("__") and name.endswith("__")
        source = self.source
        if source is not None and not dunder:
            found = self.special_method(tx, "__getattr__", pin=True)[0]
            own = _instance_dict(self.value)
            _refuse_changed(tx, own, MODULE_DICTS, f"looking {name!r} up in a module")
            tables = [(dict_name, own.get(dict_name)) for dict_name in MODULE_DICTS]
            if found is torch.nn.Module.__getattr__ and all(
                table is not None and name not in table for _, table in tables
            ):
                for dict_name, table in tables:
                    _guard_lacks(tx, AttrSource(source, dict_name), table, name)
                tx.raise_user_error(
                    AttributeError(f"'{self.cls.__name__}' object has no attribute '{name}'")
                )
        return super().missing_attr(tx, name)

    def store_attr(self, tx: TranslatorBase, name: str, value: VariableTracker) -> None:
        """`m.name = value` for a bool, int, float, str or None (`self.training = mode` in
        `Module.train`, a counter or flag of the user's): torch's `Module.__setattr__` stores
        such a value in the instance dict, as `object.__setattr__` does, when none of the
        module's parameters, buffers and submodules is called `name` (it would route the value
        there). Those three dicts are guarded to lack it, and the store is `object_setattr`'s
        (a side effect replayed by the compiled code). Anything else (a tensor, a module, a
        name one of the dicts holds) traces `Module.__setattr__`, as before."""
        source = self.source
        plain = value.realize().python_type() in _PLAIN_VALUES  # (a symbolic int is an int)
        if source is None or not plain:
            return super().store_attr(tx, name, value)
        if self.special_method(tx, "__setattr__")[0] is not torch.nn.Module.__setattr__:
            return super().store_attr(tx, name, value)
        own = _instance_dict(self.value)
        _refuse_changed(tx, own, MODULE_DICTS, f"storing {name!r} in a module")
        tables = [(dict_name, own.get(dict_name)) for dict_name in MODULE_DICTS]
        if any(table is None or name in table for _, table in tables):
            return super().store_attr(tx, name, value)
        for dict_name, table in tables:
            _guard_lacks(tx, AttrSource(source, dict_name), table, name)
        self.object_setattr(tx, name, value)
        return None

    def _guard_no_hooks(self, tx: TranslatorBase, source: Source) -> None:
        """`Module.__call__` calls `forward` at once: not compiled, no hook here or global.
        One FACTS_MATCH on the module pins the module's part (`CALLS_FORWARD`) and one on the
        globals of `Module.__call__` the hooks for every module (`NO_GLOBAL_HOOKS`, once per
        trace however many modules it calls); a call that would not go to `forward` at once
        breaks."""
        _refuse_changed(tx, _instance_dict(self.value), HOOK_DICTS, "calling a module")
        _refuse_changed(tx, _TORCH_GLOBALS, GLOBAL_HOOK_DICTS, "calling a module")
        why = why_call_skips_forward(self.value)
        if why is not None:
            kind = "nn-module-hooks" if why.startswith("a hook") else "nn-module"
            unimplemented(kind, f"{why}: the call runs Module._call_impl, which is not modeled")
        output = tx.output
        output.add_guard(GuardKind.FACTS_MATCH, source, CALLS_FORWARD)
        if _NO_GLOBAL_HOOKS_GUARD not in output.guards:  # the first module call of the trace
            output.add_guard(GuardKind.ID_MATCH, _GLOBALS_SOURCE, _TORCH_GLOBALS)
            output.add_guard(GuardKind.FACTS_MATCH, _GLOBALS_SOURCE, NO_GLOBAL_HOOKS)

    def __repr__(self) -> str:
        where = f" @ {self.source.name}" if self.source is not None else ", new"
        return f"NNModuleVariable({self.cls.__qualname__}{where})"


# NOTE [module attribute guards]: `m.fc` on a module finds `fc` in `m._modules` only because
# nothing Python looks at first holds the name: the instance dict, the classes of the MRO (a
# class attribute would be found by the ordinary lookup, and `Module.__getattr__` not asked),
# and the dicts `Module.__getattr__` looks in before (`_parameters`, then `_buffers`). The trace
# reads the entry at its dict's source, so each of those places is guarded to still lack the
# name: DICT_NOT_CONTAINS on the instance dict and on each class dict of the MRO, and on each
# earlier module dict (one LENGTH_CHECK when that dict is empty, as `_parameters` of a module
# that only holds submodules usually is). A class dict is guarded through the first module of
# that class the trace met (`type(L['m']).__mro__[1].__dict__` for `Module`): every module's
# class is pinned by its TYPE_MATCH, so all modules of one class share their class dicts, and
# each (class dict, name) pair is guarded once per trace (`guard_not_in_classes`, shared with
# every user object whose attribute the trace found missing). A built-in class's dict
# (`object`'s) cannot change and is not guarded.


def _refuse_changed(
    tx: TranslatorBase, holder: dict[str, Any], names: Sequence[str], what: str
) -> None:
    """Break when the trace changed one of the dicts `holder` keeps under `names` (a module's
    `_modules`, its hook dicts, the hooks for every module): the lookups and calls here decide
    from the real dicts, which do not show the trace's changes yet (`del m.fc`, a hook put
    in `m._forward_hooks`)."""
    for name in names:
        table = holder.get(name)
        if table is not None and tx.output.side_effects.changed(table):
            unimplemented("nn-module", f"{what} after its {name} was changed in the frame")


def _guard_lacks(tx: TranslatorBase, dict_source: Source, table: dict[str, Any], name: str) -> None:
    """A module dict `Module.__getattr__` looks in before the one holding `name` still lacks
    it: an empty plain dict stays empty (one guard for every name), else `name not in`."""
    if type(table) is dict and not table:
        tx.output.add_guard(GuardKind.TYPE_MATCH, dict_source, dict)
        tx.output.add_guard(GuardKind.LENGTH_CHECK, dict_source, 0)
    else:
        tx.output.guard_name_absent(dict_source, name)


def call_facts(module: Any) -> tuple[bool | int | None, ...]:
    """What `Module.__call__` tests of the module before it calls `forward` at once, in the
    order of CALLS_FORWARD's names: the class's `__call__` and `_call_impl` are torch's and
    the instance has no `_call_impl` of its own; the module was not `module.compile()`d; the
    length of each of its hook dicts (None: not a dict). Read from the instance dict, as
    `_call_impl` reads them, so no user code runs (`Module.__getattr__` is not asked)."""
    own = _instance_dict(module)
    cls = type(module)
    # (written out, in the order of HOOK_DICTS, rather than through helpers or a loop: every
    # check of a module call runs this)
    get = own.get
    forward, forward_pre = get("_forward_hooks"), get("_forward_pre_hooks")
    backward, backward_pre = get("_backward_hooks"), get("_backward_pre_hooks")
    return (
        cls.__call__ is _CALL,
        cls._call_impl is _CALL_IMPL and "_call_impl" not in own,
        get("_compiled_call_impl") is None,
        len(forward) if type(forward) in _HOOK_DICT_TYPES else None,
        len(forward_pre) if type(forward_pre) in _HOOK_DICT_TYPES else None,
        len(backward) if type(backward) in _HOOK_DICT_TYPES else None,
        len(backward_pre) if type(backward_pre) in _HOOK_DICT_TYPES else None,
    )


def global_call_facts(module_globals: dict[str, Any]) -> tuple[bool | int | None, ...]:
    """What `Module.__call__` tests for every module, in the order of NO_GLOBAL_HOOKS's names:
    `Module.__call__` and `_call_impl` have the code they had when traced, and the length of
    each hook dict for every module, in the globals of their module (None: not a dict)."""
    get: Callable[[str], Any] = module_globals.get
    forward, forward_pre = get("_global_forward_hooks"), get("_global_forward_pre_hooks")
    backward, backward_pre = get("_global_backward_hooks"), get("_global_backward_pre_hooks")
    return (
        _CALL.__code__ is _CALL_CODE,
        _CALL_IMPL.__code__ is _CALL_IMPL_CODE,
        len(forward) if type(forward) in _HOOK_DICT_TYPES else None,
        len(forward_pre) if type(forward_pre) in _HOOK_DICT_TYPES else None,
        len(backward) if type(backward) in _HOOK_DICT_TYPES else None,
        len(backward_pre) if type(backward_pre) in _HOOK_DICT_TYPES else None,
    )


def why_call_skips_forward(module: Any) -> str | None:
    """`Module.__call__` runs `forward` at once only with torch's own `__call__`, no hook (on
    the module or global) and no `module.compile()`: else why not. `tracer.compile(model)`
    checks it at each call (tracer/cache/targets.py), where the traced `m(x)` guards it
    (`_guard_no_hooks`)."""
    facts = call_facts(module)
    global_facts = global_call_facts(_TORCH_GLOBALS)
    if facts == CALLS_FORWARD.values and global_facts == NO_GLOBAL_HOOKS.values:
        return None
    name = type(module).__name__
    if not (facts[0] and facts[1] and global_facts[0] and global_facts[1]):
        return f"{name} does not call Module.__call__'s own _call_impl"
    if not facts[2]:
        return f"{name} was compiled by torch (module.compile())"
    for where, names, counts in (
        ("on the module", HOOK_DICTS, facts[3:]),
        ("for every module", GLOBAL_HOOK_DICTS, global_facts[2:]),
    ):
        for hook_name, count in zip(names, counts, strict=True):
            if count is None:
                return f"{hook_name} {where} is not a dict of hooks"
            if count:
                return f"a hook is registered {where} ({hook_name})"
    return None  # (unreachable: some fact differs)


_CALL = torch.nn.Module.__call__
_CALL_CODE = _CALL.__code__
_CALL_IMPL = torch.nn.Module._call_impl
_CALL_IMPL_CODE = _CALL_IMPL.__code__
_TORCH_GLOBALS = _CALL.__globals__
"""The globals of `Module.__call__`'s module, where the hooks for every module are."""
_HOOK_DICT_TYPES = frozenset({dict, collections.OrderedDict})
_PLAIN_VALUES = frozenset({bool, int, float, str, type(None)})
"""Values `Module.__setattr__` tests only with `isinstance` against torch's classes, which
answer False for them without running user code: they go to the instance dict."""
_instance_dict = torch.nn.Module.__dict__["__dict__"].__get__
"""A module's instance dict, read by the slot of the class that gave it one (no user code)."""
CALLS_FORWARD = FactsSpec(
    (
        "type({}).__call__ is Module.__call__",
        "type({0})._call_impl is Module._call_impl and '_call_impl' not in {0}.__dict__",
        "{}._compiled_call_impl is None",
        *[f"len({{}}.{name})" for name in HOOK_DICTS],
    ),
    (True, True, True, 0, 0, 0, 0),
    call_facts,
)
"""What a module whose call runs `forward` at once is, as a FACTS_MATCH on it pins it."""
NO_GLOBAL_HOOKS = FactsSpec(
    (
        "Module.__call__.__code__ is unchanged",
        "Module._call_impl.__code__ is unchanged",
        *[f"len({{}}['{name}'])" for name in GLOBAL_HOOK_DICTS],
    ),
    (True, True, 0, 0, 0, 0),
    global_call_facts,
)
"""No hook for every module, and torch's `Module.__call__` as traced, as a FACTS_MATCH on the
globals of `Module.__call__` pins it."""
_GLOBALS_SOURCE = AttrSource(ModuleSource(_CALL.__module__), "__dict__")
"""Where the hooks for every module are: `sys.modules['torch.nn.modules.module'].__dict__`."""
_NO_GLOBAL_HOOKS_GUARD = Guard(GuardKind.FACTS_MATCH, _GLOBALS_SOURCE, NO_GLOBAL_HOOKS)
"""The guard a trace's first module call adds (guards compare by kind, source and expected
value, not by the user line that made them): the later calls look it up rather than build
the same two guards again."""


def wrap_module(output: Any, value: Any, source: Source) -> VariableTracker | None:
    """The tracker for a real module found at `source` (TYPE_MATCH guarded), else None."""
    if not issubclass(type(value), torch.nn.Module):
        return None
    output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
    vt = NNModuleVariable(value, type(value), source)
    tracked: VariableTracker = output.side_effects.track_existing(value, vt)
    return tracked
