"""VariableBuilder: the one place real values become trackers.

`wrap(value, source)` picks the tracker family by the value's exact type and installs exactly the
guards that the choice relies on: a list is guarded on its type and length (its items are wrapped
lazily, so an item nobody reads adds no guard), a tensor on dtype/shape/requires_grad, a function
on identity, a constant on its exact type and value.

Every test here is on the value's real type (`type(value)`, `issubclass(kind, C)`), never
`isinstance`, which reads the value's `__class__`: a user's property there may raise, or
name a class the value is not (`Mock(spec=Tensor)` claims Tensor, and is no tensor).
"""

from __future__ import annotations

import builtins
import collections
import contextvars
import dataclasses
import enum
import functools
import types
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from guards.guard import FunctionSpec, GuardKind
from guards.sources import (
    AttrSource,
    DictGetSource,
    DictKeysSource,
    DictValueSource,
    ItemSource,
    IterationSource,
    TupleItemSource,
    TypeSource,
    is_item_key,
)
from tracer import debug, worlds
from tracer.exc import InternalError, unimplemented
from variables.base import GetAttrVariable, VariableTracker
from variables.builtin import BuiltinVariable
from variables.bytearrays import BytearrayVariable
from variables.class_lookup import guard_class_names
from variables.collection_classes import MAKERS, CollectionClassVariable, wrap_collection_result
from variables.collection_dicts import CounterVariable, DefaultDictVariable, OrderedDictVariable
from variables.constant import (
    CONSTANT_TYPES,
    ConstantVariable,
    EnumVariable,
    is_constant_value,
)
from variables.deques import DequeVariable
from variables.dict_subclass import DictSubclassVariable, is_dict_subclass
from variables.dicts import ConstDictVariable, guard_hashed_by_identity, hashed_by_identity
from variables.functions import UserFunctionVariable, UserMethodVariable
from variables.grad_mode import (
    GradModeClassVariable,
    GuardedStateReaderVariable,
    IsGradEnabledVariable,
    StateReadVariable,
    is_grad_mode_class,
    is_grad_mode_reader,
)
from variables.lazy import LazyVariableTracker
from variables.lists import ListVariable, RangeVariable, TupleVariable
from variables.misc import BreakpointVariable, GraphBreakVariable, ModuleVariable, PartialVariable
from variables.modes import ModeStackFunctionVariable, TorchFunctionModeVariable, mode_functions
from variables.nn_module import NNModuleVariable, is_module
from variables.polyfills.registry import polyfill_for
from variables.regex import RegexVariable, bound_method, is_regex_object
from variables.sentinels import SentinelVariable
from variables.sets import SetVariable
from variables.state_contexts import StateContextClassVariable, is_state_context_class
from variables.structured import (
    DataclassFunctionVariable,
    FrozenDataclassVariable,
    NamedTupleVariable,
    dataclass_functions,
    generated_eq_and_hash,
    guard_namedtuple_class,
    is_frozen_dataclass,
    is_namedtuple_class,
)
from variables.tensor import TorchOpVariable
from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable
from variables.value_objects import VALUE_CLASSES, ValueObjectVariable
from variables.wrappers import FunctoolsPartialVariable, LruCacheWrapperVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.output_graph import OutputGraph

BUILTIN_TYPES: frozenset[type] = frozenset(
    t for t in vars(builtins).values() if isinstance(t, type) and not issubclass(t, BaseException)
)


def is_runtime_callable(value: Any) -> bool:
    """A function of the tensor world that records into the graph (an op or a factory)."""
    return worlds.current().is_op(value)


def wrap_class(cls: type) -> VariableTracker:
    """A class met while tracing (from `type(x)` or `__class__`); builtins fold, others inline."""
    if cls in BUILTIN_TYPES:
        return BuiltinVariable(cls)
    if cls in MAKERS:
        return CollectionClassVariable(cls)
    if is_grad_mode_class(cls):
        return GradModeClassVariable(cls)
    if is_state_context_class(cls):
        return StateContextClassVariable(cls)
    return UserDefinedClassVariable(cls)


def wrap_constant_result(value: Any) -> VariableTracker:
    """Wrap a value with no source (a folding result, a metadata read, a class attribute of an
    object created in the frame): nothing to guard, so nothing is installed."""
    # a scalar (most results: a metadata read, a folded number) told without a call
    if type(value) in CONSTANT_TYPES or is_constant_value(value):
        return ConstantVariable(value)
    special = _special_function(value)
    if special is None:
        special = polyfill_for(value)
    if special is not None:
        return special
    if is_regex_object(value):
        return RegexVariable(value)
    regex_method = bound_method(value)
    if regex_method is not None:
        return regex_method
    kind = type(value)
    if kind in VALUE_CLASSES:
        return ValueObjectVariable(value)
    if kind is list:
        return ListVariable([wrap_constant_result(v) for v in value])
    if is_namedtuple_class(kind):
        return NamedTupleVariable([wrap_constant_result(v) for v in value], kind)
    if kind is tuple:
        return TupleVariable([wrap_constant_result(v) for v in value])
    if kind is dict:
        return ConstDictVariable({k: wrap_constant_result(v) for k, v in value.items()})
    if kind in MAKERS:
        made = wrap_collection_result(value)
        assert made is not None
        return made
    if kind is bytearray:
        return BytearrayVariable(value)
    if kind is set or kind is frozenset:
        return SetVariable(value, recipe=None)  # made by an operation not followed: no order
    if kind is range:
        return RangeVariable(value)
    if kind is slice or kind is types.UnionType or kind is types.GenericAlias:
        return ConstantVariable(value)
    if issubclass(kind, enum.Enum):
        return EnumVariable(value)
    if issubclass(kind, type):
        return wrap_class(value)
    world = worlds.current()
    if world.is_constant(value):
        return ConstantVariable(value)
    if world.is_op(value):
        return TorchOpVariable(value)
    if issubclass(kind, types.FunctionType):
        return UserFunctionVariable(value)
    if issubclass(kind, types.BuiltinFunctionType):
        return BuiltinVariable(value)
    unimplemented("wrap", f"a value of type {kind.__name__} produced while tracing")


def _special_function(value: Any) -> VariableTracker | None:
    """Functions modeled instead of run or recorded: mode-stack functions, dataclass helpers."""
    if type(value) is not types.FunctionType or value.__module__ not in SPECIAL_FUNCTION_MODULES:
        return _world_mode_function(value)
    return SpecialFunctions().wrap(value)


def _world_mode_function(value: Any) -> VariableTracker | None:
    """A mode-stack function or `is_grad_enabled` of a world other than the runtime (torch's
    `_C` functions are builtins, its `overrides` functions live in torch's modules)."""
    if issubclass(type(value), type):
        return None
    world = worlds.current()
    if value is world.grad_mode_reader:
        return IsGradEnabledVariable(value)
    reader = world.guarded_state_readers.get(id(value))
    if reader is not None and reader[0] is value:
        return GuardedStateReaderVariable(value, reader[1])
    on_demand = world.state_read_on_demand.get(id(value))
    if on_demand is not None and on_demand[0] is value:
        return StateReadVariable(value, on_demand[1])
    found = world.mode_functions().get(id(value))
    if found is None or found[0] is not value:
        return None
    return ModeStackFunctionVariable(value, found[1])


SPECIAL_FUNCTION_MODULES = frozenset(
    {
        "tracer.debug",
        "dataclasses",
        "tracer.runtime._C",
        "tracer.runtime.overrides",
        "tracer.runtime.grad_mode",
    }
)
"""The modules of the plain Python functions SpecialFunctions models (a test checks): any
other value is none of them, so the builder builds the tables only for a function from one."""


class SpecialFunctions:
    """The functions `_special_function` models, by identity. Building the tables is most of
    the work of a lookup, so a VariableBuilder keeps one instance for its whole trace."""

    def __init__(self) -> None:
        self.breakpoint = debug.breakpoint
        self.graph_break = debug.graph_break
        self.dataclass_functions = dataclass_functions()
        self.mode_functions = mode_functions()

    def wrap(self, value: Any) -> VariableTracker | None:
        if value is self.breakpoint:
            return BreakpointVariable(value)
        if value is self.graph_break:
            return GraphBreakVariable(value)
        if is_grad_mode_reader(value):
            return IsGradEnabledVariable(value)
        known = self.dataclass_functions.get(id(value))
        if known is not None and known is value:
            return DataclassFunctionVariable(known)
        found = self.mode_functions.get(id(value))
        if found is None or found[0] is not value:
            return None
        return ModeStackFunctionVariable(value, found[1])


class VariableBuilder:
    """Wraps values found at Sources for one OutputGraph, caching one tracker per source."""

    def __init__(self, output: OutputGraph) -> None:
        self.output = output
        self.cache: dict[Source, VariableTracker] = {}
        self._special_functions: SpecialFunctions | None = None

    def lazy(self, value: Any, source: Source | None) -> VariableTracker:
        if source is None:
            return wrap_constant_result(value)
        cached = self.cache.get(source)
        if cached is not None:
            return cached
        return LazyVariableTracker(value, source, self.output)

    def wrap(self, value: Any, source: Source) -> VariableTracker:
        cached = self.cache.get(source)
        if cached is None:
            cached = self._wrap(value, source)
            self.cache[source] = cached
        return cached

    def _wrap(self, value: Any, source: Source) -> VariableTracker:
        kind = type(value)
        world = worlds.current()
        # tensors, constants and plain containers first: none of them is a special function
        # or a runtime callable
        if kind is world.tensor_type:
            return self.wrap_tensor(value, source)
        if kind in _DATA_TYPES:
            return WRAP_BY_TYPE[kind](self, value, source)
        if kind in weakref.ProxyTypes:  # it forwards everything, and raises once its object died
            unimplemented("weak-proxy", f"a weak proxy ({source.name if source else 'a value'})")
        special_vt = _world_mode_function(value)
        if special_vt is not None:
            special_vt.source = source
            return self._guarded_identity(special_vt, value, source)
        # a C function (or class) with a Python implementation, traced instead (by identity)
        polyfill = polyfill_for(value, source)
        if polyfill is not None:
            return self._guarded_identity(polyfill, value, source)
        if is_regex_object(value):  # immutable: its identity pins everything read from it
            return self._guarded_identity(RegexVariable(value, source), value, source)
        regex_method = bound_method(value)
        if regex_method is not None:  # the method object pins its pattern
            return self._guarded_identity(regex_method, value, source)
        if kind is types.FunctionType:
            module = value.__module__
            if module in SPECIAL_FUNCTION_MODULES:
                if self._special_functions is None:
                    self._special_functions = SpecialFunctions()
                special = self._special_functions.wrap(value)
                if special is not None:
                    special.source = source
                    return self._guarded_identity(special, value, source)
            # a runtime op or factory, else a user function
            if is_runtime_callable(value):
                return self._guarded_identity(TorchOpVariable(value, source), value, source)
            return self.wrap_function(value, source)
        if is_runtime_callable(value):
            return self._guarded_identity(TorchOpVariable(value, source), value, source)
        handler = WRAP_BY_TYPE.get(kind)
        if handler is not None:
            return handler(self, value, source)
        if world.is_tensor(value):
            if not world.traces_subclass(kind):
                unimplemented(
                    "tensor-subclass", f"tensor subclass {kind.__name__} at {source.name}"
                )
            return self.wrap_tensor(value, source)  # its exact class is guarded
        if world.is_constant(value) or value is NotImplemented:
            return self._guarded_identity(ConstantVariable(value, source), value, source)
        if issubclass(kind, enum.Enum):
            return self._guarded_identity(EnumVariable(value, source), value, source)
        if is_grad_mode_class(value):
            return self._guarded_identity(GradModeClassVariable(value, source), value, source)
        if is_state_context_class(value):
            made = StateContextClassVariable(value, source)
            return self._guarded_identity(made, value, source)
        if issubclass(kind, type):
            vt = wrap_class(value)
            vt.source = source
            return self._guarded_identity(vt, value, source)
        if issubclass(kind, world.mode_base):
            return self.wrap_mode(value, source)
        if is_namedtuple_class(kind):
            return self.wrap_namedtuple(value, source)
        if issubclass(kind, dict) and is_dict_subclass(kind):
            return self.wrap_dict_subclass(value, source)
        if kind is functools.partial:
            return FunctoolsPartialVariable.wrap(self, value, source)
        if kind is functools._lru_cache_wrapper:
            return LruCacheWrapperVariable.wrap(self, value, source)
        if kind is object:  # a sentinel: identity is all it means
            return self._guarded_identity(SentinelVariable(value, source), value, source)
        if kind is contextvars.ContextVar:
            unimplemented(
                "context-var",
                f"contextvars.ContextVar at {source.name}: state per thread and per context "
                "(decimal's current context) is not modeled",
            )
        if issubclass(kind, tuple) or kind.__module__ == "builtins":
            unimplemented(
                "wrap", f"value of type {kind.__name__} at {source.name} is not supported"
            )
        special_object: VariableTracker | None = world.wrap_object(self.output, value, source)
        if special_object is not None:  # an object the world models (a torch nn.Module)
            return special_object
        return self.wrap_user_object(value, source)

    # -- families -------------------------------------------------------------------------------
    def wrap_constant(self, value: Any, source: Source) -> VariableTracker:
        if self._symbolic(value, source):
            return self.output.add_scalar_input(value, source)
        if value != value:  # noqa: PLR0124 - NaN, by identity: `in`, `count`, list `==`, dict
            # lookups test identity before `==` (a NaN is unequal to itself, even the same one)
            return self._guarded_identity(ConstantVariable(value, source), value, source)
        self.output.add_guard(GuardKind.EQUALS_MATCH, source, value)
        return ConstantVariable(value, source)

    def _symbolic(self, value: Any, source: Source) -> bool:
        """Is this scalar input a graph input rather than a guarded constant?"""
        options = self.output.options
        kind = type(value)
        if kind is float:
            return (
                not options.specialize_float
                or options.dynamic is True
                or source.name in options.dynamic_sources
            )
        if kind is int:
            return options.dynamic is True or source.name in options.dynamic_sources
        return False

    def wrap_tensor(self, value: Any, source: Source) -> VariableTracker:
        """A tensor input: one graph input per real tensor. The same tensor reached at a
        second source is the first source's tracker, with a guard that the two sources still
        reach one tensor (as Dynamo's DUPLICATE_INPUT): the trace relied on it, since torch's
        fake converter gives one real tensor one fake, and an in-place op on either name
        changes the other (`torch.mul(a, 2, out=b)` returns `b`, which is `a` here)."""
        known = self.output.tensor_inputs.get(id(value))
        if known is not None and known.source is not None:
            self.output.add_guard(GuardKind.OBJECT_ALIASING, source, known.source)
            return known
        spec = worlds.current().tensor_spec(value)
        self.output.add_guard(GuardKind.TENSOR_MATCH, source, spec)
        vt = self.output.add_graph_input(value, source)
        self.output.tensor_inputs[id(value)] = vt
        return vt

    def wrap_sequence(self, value: Any, source: Source) -> VariableTracker:
        self.output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
        self.output.add_guard(GuardKind.LENGTH_CHECK, source, len(value))
        items = [self.lazy(item, ItemSource(source, i)) for i, item in enumerate(value)]
        if type(value) is list:
            return self.output.side_effects.track_existing(value, ListVariable(items, source))
        return TupleVariable(items, source)

    def wrap_dict(self, value: dict[Any, Any], source: Source) -> VariableTracker:
        """A dict, OrderedDict, defaultdict or Counter (exact types: listing the keys and reading
        an item run no user code): guarded on its type and its keys in order, values lazily."""
        try:
            keys = tuple(value)
        except Exception as e:  # noqa: BLE001 - an OrderedDict changed through dict's methods
            unimplemented("dict", f"listing the keys of this {type(value).__name__} raised {e!r}")
        if len(keys) != len(value):  # the same: its order no longer lists every key
            unimplemented("dict", f"this {type(value).__name__} lists fewer keys than it holds")
        kind = type(value)
        self.output.add_guard(GuardKind.TYPE_MATCH, source, kind)
        vt: VariableTracker
        if not all(is_constant_value(k) and is_item_key(k) for k in keys):
            # a key no ItemSource can name (an object, a frozenset) is reached by position
            return self.wrap_dict_with_object_keys(value, source)
        self.output.add_guard(GuardKind.DICT_KEYS_MATCH, source, keys)
        items = {k: self.lazy(v, ItemSource(source, k)) for k, v in value.items()}
        if kind is collections.defaultdict:
            factory_source = AttrSource(source, "default_factory")
            factory = self.lazy(value.default_factory, factory_source)  # type: ignore[attr-defined]
            vt = DefaultDictVariable(factory, items, source)
        else:
            vt = _DICT_TRACKERS[kind](items, source)
        return self.output.side_effects.track_existing(value, vt)

    def wrap_dict_subclass(self, value: dict[Any, Any], source: Source) -> VariableTracker:
        """An object of a plain subclass of dict (methods of its own and perhaps
        `__missing__`, `is_dict_subclass`), as Dynamo traces one: a DictSubclassVariable over
        its items. The check reads what dict's own C code reads, so it runs no method of the
        class whatever the class gains later: the keys in order (`dict.keys(L['cfg'])`),
        values lazily (`dict.get(L['cfg'], 'k')`). The class keeps the names it has
        (`guard_class_names`: dict's operations run where it defines none), and the object has
        no attributes of its own (`len(L['cfg'].__dict__) == 0`): one would shadow the
        class's methods and dict's. An object holding attributes, or keys that are not
        constants, falls back."""
        kind = type(value)
        own = getattr(value, "__dict__", None)  # (none: `__slots__` deleted from the class)
        if type(own) is not dict or own:
            unimplemented(
                "dict-subclass",
                f"{kind.__name__} object at {source.name}: attributes or no __dict__",
            )

        keys = tuple(dict.keys(value))
        if not all(is_constant_value(k) and is_item_key(k) for k in keys):
            unimplemented("dict-key", f"{kind.__name__} at {source.name} has object keys")
        self.output.add_guard(GuardKind.TYPE_MATCH, source, kind)
        cls_source = TypeSource(source)
        guard_class_names(self._tx(), kind, cls_source)
        instance_dict = AttrSource(source, "__dict__")
        self.output.add_guard(GuardKind.TYPE_MATCH, instance_dict, dict)
        self.output.add_guard(GuardKind.LENGTH_CHECK, instance_dict, 0)
        self.output.add_guard(GuardKind.DICT_KEYS_MATCH, DictKeysSource(source), keys)
        items = {k: self.lazy(v, DictGetSource(source, k)) for k, v in dict.items(value)}
        vt = DictSubclassVariable(items, kind, cls_source, source)
        return self.output.side_effects.track_existing(value, vt)

    def wrap_dict_with_object_keys(self, value: dict[Any, Any], source: Source) -> VariableTracker:
        """A plain dict with keys that are no constants, each guarded where it sits in the
        dict's order (`tuple(L['d'])[i]`) as Dynamo guards a hashable key: a constant by value,
        an object hashed by identity by identity (another object is another key), a frozen
        dataclass with generated `__eq__`/`__hash__` by type and field values. Values are
        reached by position (`tuple(L['d'].values())[i]`), lazily."""
        if type(value) is not dict:
            unimplemented("dict-key", f"{type(value).__name__} at {source.name} has object keys")
        self.output.add_guard(GuardKind.LENGTH_CHECK, source, len(value))
        order = IterationSource(source)
        vt = ConstDictVariable({}, source)
        for i, (key, item) in enumerate(value.items()):
            key_source = ItemSource(order, i)
            if is_constant_value(key):
                self.output.add_guard(GuardKind.EQUALS_MATCH, key_source, key)
                self.guard_frozenset_orders(key, key_source)
            else:
                vt.key_vts[id(key)] = (key, self.wrap_object_key(key, key_source))
            vt.items[key] = self.lazy(item, DictValueSource(source, i))
        return self.output.side_effects.track_existing(value, vt)

    def guard_frozenset_orders(self, value: Any, source: Source) -> None:
        """A constant compared by value (a dict key) is also guarded on the iteration order of
        each frozenset in it, as `wrap_set` guards a set: equal frozensets may iterate in
        different orders, and the trace unrolls a loop over one in the order it saw."""
        if type(value) is frozenset:
            order = IterationSource(source)
            self.output.add_guard(GuardKind.EQUALS_MATCH, order, tuple(value))
            source = order
        elif type(value) is not tuple:
            return
        for i, item in enumerate(value):
            self.guard_frozenset_orders(item, ItemSource(source, i))

    def wrap_object_key(self, key: Any, source: Source) -> VariableTracker:
        kind = type(key)
        if hashed_by_identity(kind):
            found = self.wrap(key, source)
            self.output.add_guard(GuardKind.ID_MATCH, source, key)
            if isinstance(found, UserDefinedObjectVariable):
                guard_hashed_by_identity(self._tx(), found)
            return found

        if is_frozen_dataclass(kind) and generated_eq_and_hash(kind):
            found = self.wrap(key, source)
            for name in (f.name for f in dataclasses.fields(key)):
                field = getattr(key, name)
                if not is_constant_value(field):
                    unimplemented("dict-key", f"{source.name}.{name} of a key is not a constant")
                self.output.add_guard(GuardKind.EQUALS_MATCH, AttrSource(source, name), field)
            if isinstance(found, FrozenDataclassVariable):
                found.fields_guarded = True
            return found
        unimplemented("dict-key", f"{source.name}, a {kind.__name__}, as a dict key")

    def wrap_set(self, value: set[Any] | frozenset[Any], source: Source) -> VariableTracker:
        """A set or frozenset of constants, guarded by value as Dynamo guards one, and on its
        iteration order as well (`tuple(L['s']) == (...)`, each member compared exactly):
        equal sets may iterate in different orders, and the trace unrolls loops over it in the
        order it saw. Not by identity: a set is mutable, so the same object may hold other
        members on the next call, and a new equal set should not recompile. The tracker holds
        the real object and only reads it (see `SetVariable.is_input`); a change is made on a
        copy and replayed on it (`SetVariable._mutate_input`)."""
        if not all(is_constant_value(k) for k in value):
            unimplemented("set-input", f"{source.name} holds a member that is not a constant")
        self.output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
        order = IterationSource(source)
        self.output.add_guard(GuardKind.EQUALS_MATCH, order, tuple(value))
        for i, member in enumerate(value):  # a frozenset member iterates in an order of its own
            self.guard_frozenset_orders(member, ItemSource(order, i))
        vt = SetVariable(value, None, source)
        return (
            vt if type(value) is frozenset else self.output.side_effects.track_existing(value, vt)
        )

    def wrap_bytearray(self, value: bytearray, source: Source) -> VariableTracker:
        """Guarded on its contents (`tuple(L['b']) == (...)`); a copy is modeled, and a change
        is replayed onto the input (see variables/bytearrays.py)."""
        self.output.add_guard(GuardKind.TYPE_MATCH, source, bytearray)
        self.output.add_guard(GuardKind.EQUALS_MATCH, IterationSource(source), tuple(value))
        vt = BytearrayVariable(bytearray(value), source)
        return self.output.side_effects.track_existing(value, vt)

    def wrap_range(self, value: range, source: Source) -> VariableTracker:
        """A range, pinned by its start, stop and step (a range is immutable; two ranges with
        the same items may still differ there, and `r.start` reads it)."""
        self.output.add_guard(GuardKind.TYPE_MATCH, source, range)
        for name in ("start", "stop", "step"):
            attr = getattr(value, name)
            self.output.add_guard(GuardKind.EQUALS_MATCH, AttrSource(source, name), attr)
        return RangeVariable(value, source)

    def wrap_deque(self, value: collections.deque[Any], source: Source) -> VariableTracker:
        """Guarded on its type, length and maxlen (what `append` on a full deque drops
        depends on it); elements lazily (`L['d'][i]`)."""
        self.output.add_guard(GuardKind.TYPE_MATCH, source, collections.deque)
        self.output.add_guard(GuardKind.LENGTH_CHECK, source, len(value))
        self.output.add_guard(GuardKind.EQUALS_MATCH, AttrSource(source, "maxlen"), value.maxlen)
        items = [self.lazy(item, ItemSource(source, i)) for i, item in enumerate(value)]
        vt = DequeVariable(collections.deque(items, value.maxlen), source)
        return self.output.side_effects.track_existing(value, vt)

    def wrap_function(self, value: types.FunctionType, source: Source) -> VariableTracker:
        """Pinned by identity and by code (FUNCTION_MATCH): `__code__` is writable."""
        self.output.add_guard(GuardKind.FUNCTION_MATCH, source, FunctionSpec.of(value))
        return UserFunctionVariable(value, source)

    def wrap_module(self, value: types.ModuleType, source: Source) -> VariableTracker:
        return self._guarded_identity(ModuleVariable(value, source), value, source)

    def wrap_builtin(self, value: Any, source: Source) -> VariableTracker:
        method = self._bound_container_method(value, source)
        if method is not None:
            return method
        return self._guarded_identity(BuiltinVariable(value, source), value, source)

    def wrap_namedtuple(self, value: Any, source: Source) -> VariableTracker:
        """The type pins the length; items are wrapped lazily, so unread fields add no guard.
        The class keeps the names it has (`guard_class_names`): the tracker runs tuple's own
        operations where the class defines none. Items are read as tuple's own items
        (`TupleItemSource`): the check runs no `__getitem__` the class gained."""
        self.output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
        guard_namedtuple_class(self._tx(), type(value), TypeSource(source))
        items = [self.lazy(item, TupleItemSource(source, i)) for i, item in enumerate(value)]
        return NamedTupleVariable(items, type(value), source)

    def _tx(self) -> Any:
        """The translator wrapping a value (values are wrapped while a trace runs)."""
        tx = self.output.current_tx
        if tx is None:
            raise InternalError("a value wrapped with no translator running")
        return tx

    def wrap_user_object(self, value: Any, source: Source) -> VariableTracker:
        self.output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
        kind: type[UserDefinedObjectVariable] = UserDefinedObjectVariable
        if is_frozen_dataclass(type(value)):
            kind = FrozenDataclassVariable
        elif is_module(value):
            kind = NNModuleVariable
        vt = kind(value, type(value), source)
        return self.output.side_effects.track_existing(value, vt)

    def wrap_mode(self, value: Any, source: Source) -> VariableTracker:
        self.output.add_guard(GuardKind.TYPE_MATCH, source, type(value))
        vt = TorchFunctionModeVariable(value, type(value), source)
        return self.output.side_effects.track_existing(value, vt)

    def wrap_method(self, value: Any, source: Source) -> VariableTracker:
        """A bound method of a Python function: the `__exit__` a `with` block of a mode pushed,
        handed to a resume function that continues inside the block
        (notes/resume-functions.md), or `obj.method` / `t.add` kept on a resume function's
        stack by a graph break inside the call's arguments. Its function and object are
        wrapped at their own sources (a method's `__func__` and `__self__` cannot change), so
        the object is the same tracker however else the trace reaches it (the mode on the
        mode stack, `L['t']`), and a runtime op bound to a tensor is called with the tensor."""
        if type(value.__func__) is not types.FunctionType:
            unimplemented("wrap", f"a method of {type(value.__func__).__name__} at {source.name}")
        self.output.add_guard(GuardKind.TYPE_MATCH, source, types.MethodType)
        obj = self.lazy(value.__self__, AttrSource(source, "__self__")).realize()
        func = self.lazy(value.__func__, AttrSource(source, "__func__")).realize()
        if isinstance(func, UserFunctionVariable):
            return UserMethodVariable(func, obj)
        return PartialVariable(func, [obj])

    def _bound_container_method(self, value: Any, source: Source) -> VariableTracker | None:
        """`out.append` read once and kept: a resume function gets it on its stack when a graph
        break falls inside the call's arguments (`out.append(print(x) or y)`). It is the method
        of the tracker of its object, read at `<source>.__self__` (one tracker per object, so a
        list also reached as `L['out']` is the same tracker), and the call is traced as the
        object's own. None unless the object's exact type is one `_METHOD_OWNERS` names, or the
        object is a tensor (`x.add` of a real torch tensor, a builtin method: a break in its
        arguments, `x.add(y.sum().item())`, hands it on), and the method is the one its class
        defines (not, say, `object.__sizeof__` bound to a list).

        Dynamo pins a bound builtin method by identity; but `out.append` is a new object at
        every read, so a resume function handed it would compile again on every call. A name
        `object` does not define is pinned by what makes the method: its type, its name, and
        its object's exact type (the object's own guards, with an aliasing guard when the
        frame also holds it elsewhere); a method of that name bound to an object of that type
        can only be the type's own. Any other name is pinned by identity."""
        owner = value.__self__
        owner_type = type(owner)
        if owner_type not in _METHOD_OWNERS and not worlds.current().is_tensor(owner):
            return None
        name = value.__name__
        # (a tensor's methods are defined on a base, `torch._C.TensorBase`)
        defined = next((vars(k)[name] for k in owner_type.__mro__ if name in vars(k)), None)
        if type(defined) is not types.MethodDescriptorType or defined.__get__(owner) != value:
            return None  # (builtin methods compare their object by identity, then their C function)
        obj = self.wrap(owner, AttrSource(source, "__self__"))
        method = GetAttrVariable(obj, name, source)
        if name in vars(object):
            return self._guarded_identity(method, value, source)
        self.output.add_guard(GuardKind.TYPE_MATCH, source, types.BuiltinMethodType)
        self.output.add_guard(GuardKind.EQUALS_MATCH, AttrSource(source, "__name__"), name)
        return method

    def _guarded_identity(self, vt: VariableTracker, value: Any, source: Source) -> VariableTracker:
        self.output.add_guard(GuardKind.ID_MATCH, source, value)
        return vt


_METHOD_OWNERS = frozenset(
    {list, dict, set, frozenset, tuple, str, bytes, bytearray, collections.deque}
)
"""Exact types whose bound builtin methods wrap as methods of their object's tracker
(`_bound_container_method`): the containers and strings the builder wraps itself."""


# (functions are handled in `_wrap` itself, which tests them for special functions and ops first)
WRAP_BY_TYPE: dict[type, Callable[[VariableBuilder, Any, Any], VariableTracker]] = {
    **dict.fromkeys((int, float, bool, str, bytes, complex), VariableBuilder.wrap_constant),
    type(None): VariableBuilder.wrap_constant,
    list: VariableBuilder.wrap_sequence,
    tuple: VariableBuilder.wrap_sequence,
    dict: VariableBuilder.wrap_dict,
    collections.OrderedDict: VariableBuilder.wrap_dict,
    collections.defaultdict: VariableBuilder.wrap_dict,
    collections.Counter: VariableBuilder.wrap_dict,
    collections.deque: VariableBuilder.wrap_deque,
    set: VariableBuilder.wrap_set,
    frozenset: VariableBuilder.wrap_set,
    range: VariableBuilder.wrap_range,
    bytearray: VariableBuilder.wrap_bytearray,
    types.ModuleType: VariableBuilder.wrap_module,
    types.BuiltinFunctionType: VariableBuilder.wrap_builtin,
    types.MethodType: VariableBuilder.wrap_method,
}
_DICT_TRACKERS: dict[type, Callable[..., VariableTracker]] = {
    dict: ConstDictVariable,
    collections.OrderedDict: OrderedDictVariable,
    collections.Counter: CounterVariable,
}
_DATA_TYPES: frozenset[type] = frozenset(
    {int, float, bool, str, bytes, complex, type(None), list, tuple, dict}
)
"""Types `_wrap` hands to WRAP_BY_TYPE before anything else: no value of them is a special
function, a runtime callable or a tensor."""
