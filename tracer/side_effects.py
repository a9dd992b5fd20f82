"""SideEffects: mutations the traced code makes to state that outlives its frame, recorded in
program order while tracing (never performed on real objects) and replayed by codegen.

Tracked: attribute stores and deletes on existing objects, list/dict/deque/set mutations of
existing containers (and bytearrays), global stores and deletes, stores into closure cells, and the
torch-function mode stack. Objects created inside the frame need no replay: they are rebuilt
if they escape.

Replay runs in two phases (see NOTE [two-phase replay] in codegen): every value and every target
is loaded into a temporary first, then all stores happen. So a store never changes what a later
load sees, and the final state equals eager's. Lists replay as `old[:] = new`, dicts as
`old.clear(); old.update(new)` (insertion order is then eager's; an OrderedDict too), or a dict
of any other kind (a plain dict, a subclass of dict, a defaultdict, a Counter) as its logged
changes, made with dict's own functions (then its hash table is eager's too, which an iterator
running across the call sees: `_replays_dict_ops`), deques as `old.clear(); old.extend(new)`,
sets as their operation log
(iteration order of a set depends on its history, so it is replayed exactly).
"""

from __future__ import annotations

import collections
import dataclasses
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from guards.constants import safe_label
from guards.guard import GuardKind
from tracer import worlds
from tracer.exc import unimplemented
from variables.base import KnownObjectVariable, VariableTracker
from variables.bytearrays import BytearrayVariable
from variables.class_lookup import guard_abstract_methods, lookup_class_attr, lookup_special
from variables.class_protocols import guard_metaclass_call
from variables.constant import ConstantVariable, is_constant_value
from variables.deques import DequeVariable
from variables.dicts import ConstDictVariable
from variables.lazy import LazyVariableTracker
from variables.lists import ListVariable, TupleVariable
from variables.misc import CellVariable, make_exception
from variables.modes import TorchFunctionModeVariable, is_mode_class
from variables.sets import SetVariable
from variables.structured import (
    FrozenDataclassVariable,
    construct_namedtuple,
    guard_namedtuple_class,
    is_frozen_dataclass,
    is_namedtuple_class,
)
from variables.tensor import TensorVariable, TorchOpVariable
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.output_graph import OutputGraph
    from tracer.translator.base import TranslatorBase
    from variables.user_defined import UserDefinedClassVariable

_DELETED: Any = object()


class _DeletedGlobal(VariableTracker):
    """Stands for a global the trace deleted: a later read finds the builtin, or NameError."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<deleted global>"


DELETED_GLOBAL = _DeletedGlobal()


@dataclasses.dataclass(slots=True)
class Mutation:
    """One entry of the log: `kind` says how codegen replays it."""

    kind: str  # "global", "attr", "list", "dict", "deque", "bytearray", "set", "cell", ...
    target: VariableTracker | None
    name: str = ""
    value: Any = None

    def __repr__(self) -> str:
        target = _where(self.target)
        if self.kind == "global":
            return f"G[{self.name!r}] = {_value(self.value)}"
        if self.kind == "attr":
            if self.value is _DELETED:
                return f"del {target}.{self.name}"
            return f"{target}.{self.name} = {_value(self.value)}"
        if self.kind == "bytearray":
            return f"{target}[:] = {self.target.value!r}  # last change: {self.value}"  # type: ignore[union-attr]
        if self.kind == "list" or self.kind == "deque":
            return f"{target}[:] = {_items(self.target)}  # last change: {self.value}"
        if self.kind == "dict":
            return f"{target} = {_items(self.target)}  # last change: {self.value}"
        if self.kind == "set":
            return f"{target}.{self.name}({_value(self.value)})"
        if self.kind == "cell":
            return f"{target} = {_value(self.value)}"
        return f"mode stack = {_value(self.value)}"


def _where(vt: VariableTracker | None) -> str:
    if vt is None:
        return "?"
    return vt.source.name if vt.source is not None else repr(vt)


def _value(value: Any) -> str:
    """What a replayed store writes, as a reader would name it: a constant as Python prints it,
    a value from outside the frame by where it is found (`L['x']`, read there by the replay; an
    unrealized input is not realized for this), a tensor the graph computes by its node, an op
    or a known object by its name, an object made in the frame by its class, containers item
    by item; anything else by its tracker."""
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, LazyVariableTracker):
        if not value.is_realized:
            return value.source.name if value.source is not None else repr(value)
        value = value.realize()
    if isinstance(value, ConstantVariable):
        return repr(value.value)
    if isinstance(value, VariableTracker) and value.source is not None:
        return value.source.name
    if isinstance(value, TensorVariable):
        world = worlds.current()  # (the runtime's fake tensor or torch's)
        shape = ", ".join(map(str, world.shape(value.fake)))
        dtype = world.dtype_text(value.fake)
        return f"<tensor {value.node.name}: {dtype}[{shape}]>"
    if isinstance(value, TorchOpVariable):
        return repr(value).removeprefix("TorchOpVariable(").removesuffix(")")
    if isinstance(value, KnownObjectVariable):
        return safe_label(value.fn)
    if isinstance(value, (TorchFunctionModeVariable, UserDefinedObjectVariable)):
        return f"<new {value.cls.__qualname__}>"  # made in the frame (no source)
    if isinstance(value, TupleVariable):
        items = [_value(v) for v in value.items]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, (ListVariable, ConstDictVariable)):
        return _items(value)
    return repr(value)


def _items(vt: Any) -> str:
    items = getattr(vt, "items", None)
    if isinstance(items, dict):
        return "{" + ", ".join(f"{k!r}: {_value(v)}" for k, v in items.items()) + "}"
    return "[" + ", ".join(_value(v) for v in items or ()) + "]"


_DISALLOW_INSTANTIATION = 1 << 7
"""Py_TPFLAGS_DISALLOW_INSTANTIATION in a type's `__flags__`."""


class SideEffects:
    """The ordered record of outside-visible mutations made by one trace."""

    def __init__(self, output: OutputGraph) -> None:
        self.output = output
        self.log: dict[tuple[str, int, str], Mutation] = {}
        """Keyed by (kind, target id, name); re-inserted on each write, so the order is that of
        each location's last write (a location is replayed once, with its final value)."""
        self.set_ops: list[Mutation] = []
        self.dict_ops: dict[int, tuple[list[Any], list[tuple[Any, ...]]]] = {}
        """By id of an existing dict's tracker: its keys before the first change, and the
        changes made by the methods that log them (`log_dict_op`), to replay as eager made
        them (see `_replays_dict_ops`)."""
        self.tracked: dict[int, VariableTracker] = {}
        """Existing mutable objects wrapped so far, by id of the real object (aliasing)."""
        self.globals: dict[str, VariableTracker] = {}
        self.cells: dict[int, CellVariable] = {}
        self.class_attrs: dict[tuple[int, str], VariableTracker] = {}
        """Class attributes the trace assigned, by (id of the class, name)."""
        self.class_targets: dict[int, tuple[type, VariableTracker]] = {}
        """The class and the one tracker its stores are recorded against, by id of the class."""

    # -- identity of existing objects -----------------------------------------------------------
    def track_existing(self, value: Any, vt: VariableTracker) -> VariableTracker:
        """One tracker per real mutable object: a second source reaching it gets the first
        tracker, and a guard that the two sources still alias."""
        known = self.tracked.get(id(value))
        if known is not None and known is not vt:
            assert vt.source is not None and known.source is not None
            self.output.add_guard(GuardKind.OBJECT_ALIASING, vt.source, known.source)
            return known
        self.tracked[id(value)] = vt
        return vt

    def changed(self, value: Any) -> bool:
        """Has the trace changed this existing object so far (its items, or an attribute)?
        Code that decides from the real object (a module's dicts, `nn.Module.__getattr__`'s
        places) must not, once it has."""
        vt = self.tracked.get(id(value))
        if vt is None:
            return False
        return any(key[1] == id(vt) for key in self.log) or (
            id(vt) in self.dict_ops and bool(self.dict_ops[id(vt)][1])
        )

    def known_cell(self, cell: Any) -> CellVariable | None:
        """The tracker `existing_cell` made for this cell earlier in the trace, if any."""
        return self.cells.get(id(cell))

    def existing_cell(self, cell: Any, source: Any) -> CellVariable:
        """One tracker per real closure cell, however it is reached (the compiled function's
        own closure, or a closure of a function it calls): a store through one path must be
        seen through the other. The owners of both paths are identity-guarded functions, whose
        cells can't change, so no aliasing guard is needed."""
        known = self.cells.get(id(cell))
        if known is None:
            known = self.cells[id(cell)] = CellVariable.existing(cell, source)
        return known

    def _record(self, kind: str, target: VariableTracker | None, name: str, value: Any) -> None:
        """The latest value of one target, replayed where its first write was: a name set
        twice keeps its first place, as it does in a dict (an instance's attributes, a
        module's globals)."""
        self.log[(kind, id(target), name)] = Mutation(kind, target, name, value)

    # -- globals ------------------------------------------------------------------------------
    def load_global(self, f_globals: dict[str, Any], name: str) -> VariableTracker | None:
        if f_globals is not self.output.root_globals:
            return None
        return self.globals.get(name)

    def store_global(
        self, tx: TranslatorBase, f_globals: dict[str, Any], name: str, value: VariableTracker
    ) -> None:
        self.globals[name] = value
        self._record("global", None, name, value)

    def delete_global(self, name: str, existed: bool) -> None:
        """`del name` of a global of the compiled function's module (DELETE_GLOBAL): replayed
        as a deletion, in order with the other global writes; a global the trace itself
        created (`existed` False) is simply not stored."""
        self.globals[name] = DELETED_GLOBAL
        if existed:
            self._record("global", None, name, _DELETED)
        else:
            self.log.pop(("global", id(None), name), None)

    # -- existing objects ---------------------------------------------------------------------
    def mutate_existing(self, tx: TranslatorBase, vt: VariableTracker, what: str) -> None:
        """A list/dict/set that existed before the call changed; replay its final contents."""
        if vt.source is None:
            unimplemented("side-effect", f"{what} on {vt!r} with no known origin")
        if isinstance(vt, ListVariable):
            self._record("list", vt, "", what)
        elif isinstance(vt, ConstDictVariable):
            self.dict_ops.setdefault(id(vt), (list(vt.items), []))
            self._record("dict", vt, "", what)
        elif isinstance(vt, DequeVariable):
            self._record("deque", vt, "", what)
        elif isinstance(vt, BytearrayVariable):
            self._record("bytearray", vt, "", what)
        elif isinstance(vt, SetVariable):
            pass  # sets log each operation through record_set_op
        else:
            unimplemented("side-effect", f"{what} on {vt.type_name()} {vt.source.name}")

    def log_dict_op(self, vt: VariableTracker, op: str, *args: Any) -> None:
        """`vt.op(*args)` on an existing dict (after `mutate_existing`): `__setitem__` and
        `setdefault` with (key, value tracker), `__delitem__` and `pop` with (key,), `popitem`
        and `clear` with none."""
        self.dict_ops[id(vt)][1].append((op, *args))

    def record_set_op(
        self, vt: VariableTracker, fn: Callable[..., Any], args: tuple[Any, ...]
    ) -> None:
        """`fn(the set, *args)` (`set.add`, `operator.ior`, ...) on a set passed in, with
        constant arguments: replayed in order on the real set (variables/sets.py,
        SetVariable._mutate_input)."""
        self.set_ops.append(Mutation("set", vt, fn.__name__, (fn, args)))

    def store_attr(
        self, tx: TranslatorBase, obj: VariableTracker, name: str, value: VariableTracker
    ) -> None:
        """`obj.name = value` on an object (a tensor input's `grad` too), replayed by name."""
        self._record("attr", obj, name, value)

    def delete_attr(
        self, tx: TranslatorBase, obj: UserDefinedObjectVariable, name: str, existed: bool
    ) -> None:
        """An attribute the object had before the call is deleted on replay; one the trace
        added and then deleted leaves the object as it was, so nothing is replayed."""
        if existed:
            self._record("attr", obj, name, _DELETED)
        else:
            self.log.pop(("attr", id(obj), name), None)

    def store_class_attr(
        self, cls_vt: UserDefinedClassVariable, name: str, value: VariableTracker
    ) -> None:
        """`cls.name = value` on a class that exists outside: replayed onto the class, and seen
        by every later read through the class, its subclasses and its instances (however the
        class was reached: one target per class keeps the replay in the order of the stores)."""
        cls = cls_vt.value
        target = self.class_targets.setdefault(id(cls), (cls, cls_vt))[1]
        self.class_attrs[(id(cls), name)] = value
        self._record("attr", target, name, value)

    def stored_class_attr(self, cls: type, name: str) -> tuple[VariableTracker, int] | None:
        """What a read of `name` on `cls` finds among the stores of this trace: the first class
        of the MRO holding `name` decides, a stored value (with its index in the MRO) or a real
        one (None)."""
        if not self.class_attrs:
            return None
        for index, klass in enumerate(cls.__mro__):
            found = self.class_attrs.get((id(klass), name))
            if found is not None:
                return found, index
            if name in klass.__dict__:
                return None
        return None

    def store_cell(self, tx: TranslatorBase, cell: CellVariable, value: VariableTracker) -> None:
        if cell.source is None:
            unimplemented("side-effect", "assigning a closure variable of unknown origin")
        self._record("cell", cell, "", value)

    def mode_stack_changed(self, modes: list[VariableTracker]) -> None:
        self._record("mode_stack", None, "", modes)

    # -- new objects --------------------------------------------------------------------------
    def new_user_object(
        self,
        tx: TranslatorBase,
        cls_vt: UserDefinedClassVariable,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        cls = cls_vt.value
        if issubclass(cls, BaseException):
            plain = all(
                getattr(lookup_special(tx, cls, cls_vt.source, name)[1], "__module__", None)
                == "builtins"
                for name in ("__init__", "__new__", "__str__")
            )
            if not plain:
                unimplemented("user-exception", f"creating {cls.__name__}, which customizes it")
            return make_exception(tx, cls, args, kwargs)

        if is_namedtuple_class(cls):
            guard_namedtuple_class(tx, cls, cls_vt.source)  # it keeps what it was made with
            return construct_namedtuple(tx, cls, args, kwargs)
        if lookup_special(tx, cls, cls_vt.source, "__del__")[1] is not None:
            # the object is made only if the compiled code rebuilds it, so its finalizer
            # would not run where it runs in plain Python (or at all)
            unimplemented("new-object", f"creating {cls.__name__}, which defines __del__")
        if cls.__flags__ & _DISALLOW_INSTANTIATION:
            # a C type that makes no instances (no tp_new, though `__new__` is found on
            # object): `type.__call__` refuses before it reads the arguments, so calling it
            # without them gives CPython's own TypeError
            tx.run_user_operation(cls)
            unimplemented("new-object", f"creating {cls.__name__}, which refuses instances")
        if type(cls) is not type:  # (ABCMeta, a user's): calling the class is type's call
            guard_metaclass_call(tx, cls, cls_vt.source)
        new = lookup_special(tx, cls, cls_vt.source, "__new__")[0]
        python_new = (
            issubclass(type(new), staticmethod) and type(new.__func__) is types.FunctionType
        )
        if python_new:
            return self._new_through_python_new(tx, cls_vt, args, kwargs)
        if new is not object.__new__:
            unimplemented("new-object", f"creating {cls.__name__}, which customizes __new__")
        guard_abstract_methods(tx, cls, cls_vt.source)
        kind: type[UserDefinedObjectVariable] = UserDefinedObjectVariable
        if is_frozen_dataclass(cls):
            kind = FrozenDataclassVariable
        elif is_mode_class(cls):
            kind = TorchFunctionModeVariable
        return self._init_new(tx, kind(None, cls, cls_source=cls_vt.source), args, kwargs)

    def _new_through_python_new(
        self,
        tx: TranslatorBase,
        cls_vt: UserDefinedClassVariable,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`cls(...)` for a class whose `__new__` is Python code, as `type.__call__` does it:
        `cls.__new__(cls, ...)` inlined, then, when that made an instance of `cls`, its
        `__init__` inlined with the same arguments (an `__init__` left to object ignores them,
        since `__new__` is the class's own)."""
        cls = cls_vt.value
        made = cls_vt.var_getattr(tx, "__new__").call_function(tx, [cls_vt, *args], kwargs)
        made = made.realize()
        if not issubclass(made.python_type(), cls):
            return made
        if isinstance(made, UserDefinedObjectVariable):
            init = made.special_method(tx, "__init__")[0]
        else:
            init = lookup_class_attr(made.python_type(), "__init__")[0]
        if init is object.__init__:
            return made
        if not isinstance(made, UserDefinedObjectVariable):
            unimplemented("new-object", f"__init__ of {made!r} made by {cls.__name__}.__new__")
        return self._init_new(tx, made, args, kwargs)

    def _init_new(
        self,
        tx: TranslatorBase,
        obj: UserDefinedObjectVariable,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """Run (inline) `__init__` on a new object, as `type.__call__` would."""
        init, _owner = obj.special_method(tx, "__init__")
        if init is object.__init__:
            if args or kwargs:
                tx.raise_user_error(TypeError(f"{obj.cls.__name__}() takes no arguments"))
            return obj
        result = obj.call_method(tx, "__init__", args, kwargs)
        if not (result.is_python_constant() and result.as_python_constant() is None):
            tx.raise_user_error(
                TypeError(f"__init__() should return None, not '{result.type_name()}'")
            )
        return obj

    # -- guards ---------------------------------------------------------------------------------
    def install_aliasing_guards(self) -> None:
        """A mutated existing object must not alias any other object the trace read: otherwise
        a read through the other source would have seen the mutation."""
        mutated = {id(m.target): m.target for m in self.log.values() if m.kind in _OBJECT_KINDS}
        mutated.update((id(m.target), m.target) for m in self.set_ops)
        for target in mutated.values():
            assert target is not None
            if target.source is None or not getattr(target, "source_is_mutable_root", True):
                continue
            others = tuple(
                vt.source for vt in self.tracked.values() if vt is not target and vt.source
            )
            if others:
                self.output.add_guard(GuardKind.NO_ALIASING, target.source, others)

    # -- replay -------------------------------------------------------------------------------
    def is_empty(self) -> bool:
        return not self.log and not self.set_ops

    def describe(self) -> list[str]:
        return [repr(m) for m in (*self.log.values(), *self.set_ops)]

    def values_to_rebuild(self) -> list[Any]:
        """Trackers whose values codegen must produce (for graph outputs)."""
        values: list[Any] = []
        for m in self.log.values():
            if m.kind in ("global", "attr", "cell") and m.value is not _DELETED:
                values.append(m.value)
            elif m.kind in ("list", "dict", "deque"):
                values.append(m.target)
            elif m.kind == "mode_stack":
                values.extend(m.value)
        return values

    def codegen_replay(self, cg: PyCodegen) -> None:
        """NOTE [two-phase replay]: load every target and value into temporaries, then store."""
        stores = [(m, self._load_phase(cg, m)) for m in (*self.log.values(), *self.set_ops)]
        for m, temps in stores:
            self._store_phase(cg, m, temps)

    def _load_phase(self, cg: PyCodegen, m: Mutation) -> dict[str, str]:
        """Each value the store needs, computed now and kept in a new temporary."""
        temps: dict[str, str] = {}
        kind = m.kind
        if kind == "global":
            if m.value is not _DELETED:
                cg(m.value)
                temps["value"] = cg.store_temp()
        elif kind == "attr":
            cg.load_target(m.target)
            temps["target"] = cg.store_temp()
            if m.value is not _DELETED:
                cg(m.value)
                temps["value"] = cg.store_temp()
        elif kind == "list" or kind == "dict" or kind == "deque":
            cg.load_target(m.target)
            temps["target"] = cg.store_temp()
            cg.build_items(m.target)
            temps["value"] = cg.store_temp()
            if kind == "dict" and self._replays_dict_ops(m.target):
                for i, (_op, *args) in enumerate(self.dict_ops[id(m.target)][1]):
                    if len(args) > 1:
                        cg(args[1])
                    else:
                        cg.load_const(None)
                    temps[f"op_{i}"] = cg.store_temp()
        elif kind == "set":
            cg.load_target(m.target)
            temps["target"] = cg.store_temp()
        elif kind == "bytearray":
            cg.load_target(m.target)
            temps["target"] = cg.store_temp()
            cg.load_const(bytes(m.target.value))  # type: ignore[union-attr]
            temps["value"] = cg.store_temp()
        elif kind == "cell":
            cg(m.value)
            temps["value"] = cg.store_temp()
        elif kind == "mode_stack":
            cg.build_items_of(m.value)
            temps["value"] = cg.store_temp()
        return temps

    def _replays_dict_ops(self, vt: Any) -> bool:
        """Replay a dict's changes as eager made them, so its hash table is eager's too
        (`sys.getsizeof` after `popitem` on an instance's shared-key dict; an iterator made
        before the call skips no key), where the log is
        known whole: the logged changes, made on the dict's keys before the first change,

        must give its keys now (a change that is not logged falls back to `clear(); update()`),
        with constant keys and values the dict still holds or constants. `update` (final
        contents) then sets the values."""
        found = self.dict_ops.get(id(vt))
        if found is None or issubclass(vt.python_type(), collections.OrderedDict) or not found[1]:
            return False  # (an OrderedDict keeps its order apart: dict's functions would not)
        before, ops = found
        keys: dict[Any, None] = dict.fromkeys(before)
        held = {id(v) for v in vt.items.values()}
        for op, *args in ops:
            if args and not is_constant_value(args[0]):
                return False
            if len(args) > 1:
                value = args[1]
                if id(value) not in held and not isinstance(value, ConstantVariable):
                    return False
                args = [args[0], None]
            try:
                getattr(keys, op)(*args)
            except KeyError:
                return False
        return list(keys) == list(vt.items)

    def _store_phase(self, cg: PyCodegen, m: Mutation, temps: dict[str, str]) -> None:
        if m.kind == "global":
            if m.value is _DELETED:
                cg.delete_global(m.name)
            else:
                cg.load_fast(temps["value"])
                cg.store_global(m.name)
        elif m.kind == "attr":
            plain = _plain_attribute_protocol(m.target)
            if m.value is _DELETED and plain:
                cg.load_fast(temps["target"])
                cg.delete_attr(m.name)
            elif m.value is _DELETED:
                cg.call_function_on(
                    object.__delattr__, ("fast", temps["target"]), ("const", m.name)
                )
            elif plain:
                cg.load_fast(temps["value"])
                cg.load_fast(temps["target"])
                cg.store_attr(m.name)
            else:
                # the class's own __setattr__ already ran while tracing: store the value only
                cg.call_function_on(
                    object.__setattr__,
                    ("fast", temps["target"]),
                    ("const", m.name),
                    ("fast", temps["value"]),
                )
        elif m.kind == "list" or m.kind == "bytearray":
            cg.assign_slice(temps["target"], temps["value"])
        elif m.kind == "dict" and "op_0" in temps:
            # dict's own functions, whatever the dict's class defines by those names (a
            # Counter's `update` adds; a subclass's method named `pop`)
            target = ("fast", temps["target"])
            for i, (op, *args) in enumerate(self.dict_ops[id(m.target)][1]):
                operands = [("const", args[0])] if args else []
                if len(args) > 1:
                    operands.append(("fast", temps[f"op_{i}"]))
                cg.call_function_on(getattr(dict, op), target, *operands)
            cg.call_function_on(dict.update, target, ("fast", temps["value"]))  # values only

        elif m.kind == "dict" and _dict_subclass_object(m.target):
            # an object of a subclass of dict: dict's own methods, not the class's by that name
            cg.call_function_on(dict.clear, ("fast", temps["target"]))
            cg.call_function_on(dict.update, ("fast", temps["target"]), ("fast", temps["value"]))
        elif m.kind == "dict":
            cg.call_method_on(temps["target"], "clear")
            cg.call_method_on(temps["target"], "update", temps["value"])
        elif m.kind == "deque":
            cg.call_method_on(temps["target"], "clear")
            cg.call_method_on(temps["target"], "extend", temps["value"])
        elif m.kind == "set":
            fn, args = m.value
            cg.call_function_on(fn, ("fast", temps["target"]), *[("const", a) for a in args])
        elif m.kind == "cell":
            cg.load_fast(temps["value"])
            cg.store_cell(m.target)
        elif m.kind == "mode_stack":
            cg.set_mode_stack(temps["value"])


_OBJECT_KINDS = ("attr", "list", "dict", "deque", "bytearray")

_DICT_TYPES = frozenset(
    {dict, collections.OrderedDict, collections.defaultdict, collections.Counter}
)
"""The dicts whose changes replay through their own `clear` and `update`."""


def _dict_subclass_object(target: VariableTracker | None) -> bool:
    """Is the changed dict an object of a user's subclass of dict (a class that may define
    methods named `clear` or `update`)?"""
    return target is not None and target.python_type() not in _DICT_TYPES


def _plain_attribute_protocol(target: Any) -> bool:
    """Do STORE_ATTR/DELETE_ATTR on this object run no class hook?"""
    cls = getattr(target, "cls", None)
    return cls is None or (
        cls.__setattr__ is object.__setattr__ and cls.__delattr__ is object.__delattr__
    )
