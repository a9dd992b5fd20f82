"""`super()`: attribute lookup that starts after a class in the object's MRO, on a user
object, a class (a classmethod's `super()`), or a subclass of a builtin value or dict type."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource
from tracer.exc import unimplemented
from variables import builder, dict_subclass, value_subclass
from variables.base import VariableTracker
from variables.class_lookup import class_at, guard_not_in_classes
from variables.misc import ObjectInitVariable
from variables.user_defined import (
    ObjectNewVariable,
    UserDefinedClassVariable,
    UserDefinedObjectVariable,
    wrap_class_member,
)

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.translator.base import TranslatorBase


class SuperVariable(VariableTracker):
    """`super()` inside a method: attribute lookup starts after `cls` in the object's MRO."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls: type, obj: VariableTracker) -> None:
        super().__init__(None)
        self.cls = cls
        self.obj = obj

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        obj = self.obj.realize()
        if isinstance(obj, UserDefinedClassVariable):
            return self._class_getattr(tx, obj, name)
        if isinstance(
            obj, value_subclass.ValueSubclassVariable | dict_subclass.DictSubclassVariable
        ):
            return obj.super_getattr(tx, self.cls, name)
        if not isinstance(obj, UserDefinedObjectVariable):
            unimplemented("super", f"super() on {obj!r}")
        member, source = self._find(tx, obj.cls, obj.class_source(), name)
        if member is object.__dict__.get(name) and name == "__init__":
            return ObjectInitVariable(obj)
        return wrap_class_member(tx, member, source, obj, builder.wrap_class(obj.cls))

    def _find(
        self, tx: TranslatorBase, cls: type, cls_source: Source | None, name: str
    ) -> tuple[Any, Source | None]:
        """`name` found on `cls`'s MRO after `self.cls`, and where it is read: at its fixed
        position in the pinned MRO (`type(L['o']).__mro__[2].name`), the classes from where the
        lookup starts to it guarded to still lack `name` (one that gains it later is found)."""
        self._no_stored_attr(tx, name)
        mro = cls.__mro__
        start = mro.index(self.cls) + 1 if self.cls in mro else len(mro)
        owner = next((klass for klass in mro[start:] if name in klass.__dict__), None)
        guard_not_in_classes(tx, cls, cls_source, name, owner, start)
        if owner is None and hasattr(super, name):  # `__self__`, `__thisclass__`: the super's
            unimplemented("super", f"super().{name}, an attribute of the super object itself")
        if owner is None:
            tx.raise_user_error(AttributeError(f"'super' object has no attribute '{name}'"))

        holder = class_at(tx, cls, cls_source, mro.index(owner))
        return owner.__dict__[name], None if holder is None else AttrSource(holder, name)

    @staticmethod
    def _no_stored_attr(tx: TranslatorBase, name: str) -> None:
        if any(key[1] == name for key in tx.output.side_effects.class_attrs):
            unimplemented("super", f"super().{name} after the trace assigned a class's {name}")

    def _class_getattr(
        self, tx: TranslatorBase, cls_vt: UserDefinedClassVariable, name: str
    ) -> VariableTracker:
        """`super(C, cls).name` (a classmethod's `super()`): found after C in cls's MRO; a
        classmethod binds to cls, a plain function stays unbound."""
        if self.cls not in cls_vt.value.__mro__:
            unimplemented("super", f"super({self.cls.__name__}, {cls_vt.value.__name__})")
        member, source = self._find(tx, cls_vt.value, cls_vt.source, name)
        if member is object.__dict__["__new__"]:
            return ObjectNewVariable()
        if not issubclass(type(member), types.FunctionType | staticmethod | classmethod):
            unimplemented("super", f"super().{name} on a class: {type(member).__name__}")
        return wrap_class_member(tx, member, source, None, cls_vt)

    def __repr__(self) -> str:
        return f"SuperVariable({self.cls.__qualname__}, {self.obj!r})"
