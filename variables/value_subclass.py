"""User subclasses of the immutable builtins (int, float, str, bytes, tuple) made in the frame:
`class Celsius(float): def to_f(self): return self * 9 / 5 + 32`.

A subclass that defines methods but no special (dunder) name behaves as its base in every
builtin operation: `Celsius(3) * 2`, `str(c)`, `hash(c)`, `c == 3` and the base's methods are
the base's own C code, which runs no user code. So an object of one, made from constant
arguments, is the real object: CPython makes it (`cls(*args)` runs only the base's `__new__`),
every builtin operation runs on it as on a constant, and only the names the subclass defines are
traced, with the object bound (`self * 9`, `super().upper()`). Returned or stored, it is rebuilt
as `cls(base value)`, a new object on every call, as eager code makes one.

A subclass that defines a special method (`__add__`, `__new__`, `__init__`, `__eq__`, ...),
`__slots__`, or has a metaclass, falls back, as does an attribute set on an object of one. What
the trace relied on is guarded: each class's names as traced (a special method, or a method
shadowing the base's, set on the class later misses: `guard_class_names`) and the values it
read from a class.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource, ItemSource
from tracer.exc import unimplemented
from variables import builder
from variables.base import NotConstantError, VariableTracker
from variables.class_lookup import class_member_source, guard_class_names
from variables.constant import ConstantVariable, is_constant_value

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

_BASES = (int, float, str, bytes, tuple)

CLASS_STATEMENT_NAMES = frozenset(
    {
        "__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__",
        "__firstlineno__", "__static_attributes__",  # 3.13 adds them to every class
        "__orig_bases__",  # a generic base: `class Pair(tuple[int, ...])`
        "__slotnames__",  # copyreg's cache, set on the class by the first copy or pickle
    }
)  # fmt: skip
"""What a class statement puts in a class's namespace (and its instance dict slots), and what
`copy` and `pickle` add to it."""


def has_plain_members(cls: type, allowed: frozenset[str] = CLASS_STATEMENT_NAMES) -> bool:
    """Do the classes of `cls`'s MRO above its builtin base hold only functions and constants,
    and no special name but the `allowed` ones (what a class statement puts there)?"""
    for klass in cls.__mro__[:-2]:
        for name, member in klass.__dict__.items():
            if name in allowed:
                continue
            if name.startswith("__") and name.endswith("__"):
                return False
            if type(member) is not types.FunctionType and not is_constant_value(member):
                return False
    return True


def _base_of(cls: type) -> type | None:
    return next((b for b in _BASES if issubclass(cls, b)), None)


def is_value_subclass(cls: type) -> bool:
    """A proper subclass of one immutable builtin, through plain classes that define no
    special name (only functions and constants besides what a class statement puts there)."""
    base = _base_of(cls)
    if type(cls) is not type or base is None or cls is base or base is bool:
        return False
    if cls.__mro__[-2:] != (base, object):
        return False
    return has_plain_members(cls)


def make_value_subclass(
    tx: TranslatorBase,
    cls: type,
    cls_source: Source | None,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`cls(*args)` from constants, made by CPython (only the base's `__new__` runs)."""
    try:
        consts = [a.realize().as_python_constant() for a in args]
        named = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
    except NotConstantError:
        unimplemented("value-subclass", f"creating {cls.__name__} from values not constant")
    if not all(map(is_constant_value, [*consts, *named.values()])):
        unimplemented("value-subclass", f"creating {cls.__name__} from these arguments")
    guard_class_names(tx, cls, cls_source)  # it stays a plain subclass of its base
    return ValueSubclassVariable(tx.run_user_operation(cls, *consts, **named), cls_source)


class ValueSubclassVariable(ConstantVariable):
    """`ValueSubclassVariable(Celsius(3.0))`: made in the frame (see the module docstring).
    `cls_source` is where its class was found: the subclass's functions are read there."""

    __slots__ = ("cls_source",)

    def __init__(self, value: Any, cls_source: Source | None) -> None:
        super().__init__(value)
        self.cls_source = cls_source

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        return self._lookup(tx, 0, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self._lookup(tx, 0, name).call_function(tx, args, kwargs)

    def super_getattr(self, tx: TranslatorBase, after: type, name: str) -> VariableTracker:
        """`super().name` in a method of `after`: found after it in the MRO."""
        mro = type(self.value).__mro__
        return self._lookup(tx, mro.index(after) + 1 if after in mro else len(mro) - 1, name)

    def _lookup(self, tx: TranslatorBase, start: int, name: str) -> VariableTracker:
        """`name` found from `mro[start]` on: a subclass's function, traced with the object
        bound, or constant; else the base's member, run by CPython on the real object."""
        mro = type(self.value).__mro__
        base = _base_of(type(self.value))
        assert base is not None
        for index in range(start, len(mro)):
            klass = mro[index]
            if klass is base:
                break
            if name not in klass.__dict__:
                continue
            member = klass.__dict__[name]
            if type(member) is not types.FunctionType:  # a constant class attribute
                where = class_member_source(tx, type(self.value), self.cls_source, index, name)
                if where is None:  # (a class made in the frame: made anew on every call)
                    return ConstantVariable(member)
                return tx.output.builder.lazy(member, where).realize()  # guarded
            return self._method(tx, member, index, name)
        if start == 0:  # the object's own lookup (no subclass defines `name`): CPython's
            attr = tx.run_user_operation(getattr, self.value, name)
        else:  # `super().name`: the base's member, bound to the object
            if not hasattr(base, name):
                tx.raise_user_error(AttributeError(f"'super' object has no attribute '{name}'"))
            attr = getattr(base, name)
            attr = attr.__get__(self.value, type(self.value)) if hasattr(attr, "__get__") else attr
        if callable(attr):
            return BaseMethodVariable(attr)
        return builder.wrap_constant_result(attr)

    def _method(self, tx: TranslatorBase, fn: Any, index: int, name: str) -> VariableTracker:
        """The function of `mro[index]`, read where it sits (so it is guarded), bound."""
        from variables.functions import UserFunctionVariable, UserMethodVariable

        if self.cls_source is None:
            unimplemented("value-subclass", f"method {name} of a class with no known origin")
        holder = self.cls_source
        if index:
            holder = ItemSource(AttrSource(self.cls_source, "__mro__"), index)
        found = tx.output.builder.lazy(fn, AttrSource(holder, name)).realize()
        if not isinstance(found, UserFunctionVariable):
            unimplemented("value-subclass", f"method {name} wrapped as {found!r}")
        return UserMethodVariable(found, self)

    def reconstruct(self, cg: PyCodegen) -> None:
        """`cls(base value)`, made once: every place that holds the object gets the same one
        (at a graph break, the operation that runs eagerly and the resume function)."""
        base = _base_of(type(self.value))
        assert base is not None

        def build() -> None:
            cg.load_function(type(self.value))
            cg.load_const(base(self.value))
            cg.call(1)

        cg.rebuild_once(self, build)

    def __repr__(self) -> str:
        return f"ValueSubclassVariable({type(self.value).__name__}: {self.value!r})"


class BaseMethodVariable(VariableTracker):
    """A base's method bound to the real object of a value subclass (`s.upper`,
    `super().upper`): called with constants, CPython runs it."""

    __slots__ = ("method",)

    def __init__(self, method: Any) -> None:
        super().__init__(None)
        self.method = method

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        try:
            consts = [a.realize().as_python_constant() for a in args]
            named = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
        except NotConstantError:
            unimplemented("value-subclass", f"super().{self.method.__name__} of non-constants")
        result = tx.run_user_operation(self.method, *consts, **named)
        return builder.wrap_constant_result(result)

    def __repr__(self) -> str:
        return f"BaseMethodVariable({self.method.__qualname__})"
