"""Methods read from a builtin immutable type (`str.capitalize`, `str.maketrans`,
`int.from_bytes`, `tuple.count`): C code with no user hooks when every argument is a constant
of the builtin immutable types, so CPython computes the call (`map(str.capitalize, words)`,
`str.maketrans("ab", "cd")`). Any other argument (a list, a user object) breaks the graph: the
method may then call user code (`__index__`, `__eq__`) or read a container the trace owns.

A method read from a builtin mutable type (`set.intersection`, `dict.update`, `list.append`)
called on an object of exactly that type is that object's own method (`set.add(s, x)` is
`s.add(x)`), and `dict.fromkeys` makes a new dict from the items of any iterable.

An attribute a builtin type or function lacks is missing for good (`hasattr(int, "x")`):
neither it nor its type can gain attributes, so CPython's AttributeError is the answer on every
call, with no guard."""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import IMMUTABLE_TYPE
from tracer.exc import unimplemented
from variables import builder
from variables.base import KnownObjectVariable, VariableTracker
from variables.constant import IMMUTABLE_METHOD_TYPES, ConstantVariable, is_constant_value
from variables.dicts import ConstDictVariable
from variables.iterators import iterate

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


def type_method(cls: Any, name: str) -> VariableTracker | None:
    """The tracker of `cls.name` for a builtin immutable type and a callable attribute (not a
    class, which has its own trackers), else None."""
    if cls is dict and name == "fromkeys":
        return DictFromkeysVariable(dict.fromkeys)
    if cls in _MUTABLE_TYPES:
        attribute = getattr(cls, name, None)
        if isinstance(attribute, types.MethodDescriptorType | types.WrapperDescriptorType):
            return UnboundMethodVariable(attribute)
        return None
    if cls not in IMMUTABLE_METHOD_TYPES:
        return None
    attribute = getattr(cls, name, None)
    if attribute is None or not callable(attribute) or isinstance(attribute, type):
        return None
    return TypeMethodVariable(attribute)


def missing_attribute(obj: Any, name: str) -> AttributeError | None:
    """CPython's AttributeError for `obj.name` when `obj` (a builtin type or function) lacks
    `name` and can never gain it: its type is immutable, and so is `obj` itself if a class;
    else None."""
    if not type(obj).__flags__ & IMMUTABLE_TYPE:
        return None
    if isinstance(obj, type) and not obj.__flags__ & IMMUTABLE_TYPE:
        return None
    try:
        getattr(obj, name)  # C descriptors of immutable types only: no user code runs
    except AttributeError as error:
        return error
    return None


class TypeMethodVariable(KnownObjectVariable):
    """`TypeMethodVariable(str.capitalize)`: called on constants, computed by CPython."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        values = [*args, *kwargs.values()]
        real = [v.realize() for v in values]
        if not all(
            v.is_python_constant() and is_constant_value(v.as_python_constant()) for v in real
        ):
            unimplemented(
                "type-method", f"{self.fn.__qualname__}() with an argument that is not a constant"
            )
        consts = [v.as_python_constant() for v in real[: len(args)]]
        named = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
        return builder.wrap_constant_result(tx.run_user_operation(self.fn, *consts, **named))

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return f"TypeMethodVariable({self.fn.__qualname__})"


_MUTABLE_TYPES = (set, frozenset, dict, list)
"""Builtin types whose objects are trackers with the type's methods (SetVariable, ...)."""


class UnboundMethodVariable(KnownObjectVariable):
    """`UnboundMethodVariable(set.intersection)`: `set.intersection(s, t)` is `s.intersection(t)`
    for an `s` of exactly that type; any other first argument (a subclass, whose tracker may
    dispatch to its own method, or another type, which CPython refuses) breaks the graph."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        owner = self.fn.__objclass__
        receiver = args[0].realize() if args else None
        if receiver is None or receiver.python_type() is not owner:
            unimplemented(
                "type-method", f"{self.fn.__qualname__}() called on {receiver!r}, not a {owner}"
            )
        return receiver.call_method(tx, self.fn.__name__, args[1:], kwargs)

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return f"UnboundMethodVariable({self.fn.__qualname__})"


class DictFromkeysVariable(KnownObjectVariable):
    """`dict.fromkeys(iterable, value=None)`: a new dict with the iterable's items as keys, in
    the order iteration gives them, each holding the same value."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if kwargs or not 1 <= len(args) <= 2:  # CPython's TypeError for the arguments
            stand_ins = dict.fromkeys(kwargs)  # CPython refuses the shape of the call
            tx.run_user_operation(dict.fromkeys, *[()] * len(args), **stand_ins)
        value = args[1] if len(args) == 2 else ConstantVariable(None)
        made = ConstDictVariable({})
        it = iterate(tx, args[0])
        while (key := it.next_item(tx)) is not None:
            made.items[made.store_key(tx, key)] = value
        return made

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return "DictFromkeysVariable(dict.fromkeys)"
