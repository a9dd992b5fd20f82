"""`isinstance(obj, spec)` decided while tracing from the object's type, as CPython decides it
(`isinstance(x, int)`, the builtin, and `case int():`, a class pattern), and `issubclass`.

An ABC (metaclass `abc.ABCMeta`) answers from its registry of virtual subclasses and its caches
too: `SomeABC.register(C)` later changes the answer, and throws away every negative answer
ABCMeta cached. Every registration bumps `abc.get_cache_token()`, so a trace that asked an ABC
guards that token (a GLOBAL_STATE part, `abc_cache_token`): while it stays, ABCMeta answers
each question the trace asked from its caches, as the trace did (a positive answer is cached
for good, a negative one until the token changes)."""

from __future__ import annotations

import abc
import types
from typing import TYPE_CHECKING, Any

from guards.guard import IMMUTABLE_TYPE, GlobalStateSpec, GuardKind
from guards.sources import AttrSource, GlobalStateSource, ItemSource, TypeSource
from tracer.exc import unimplemented
from variables.class_lookup import lookup_class_attr, mro_source
from variables.class_protocols import changeable_metaclass, guard_metaclass_specials

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker

_BY_TYPE = (type.__instancecheck__, abc.ABCMeta.__instancecheck__)
"""The `__instancecheck__` of metaclasses that decide from the object's class alone."""
_SUBCLASS_BY_TYPE = (type.__subclasscheck__, abc.ABCMeta.__subclasscheck__)
"""The `__subclasscheck__` of metaclasses that decide from the class alone (ABCMeta's
`__instancecheck__` calls the metaclass's `__subclasscheck__`)."""
_CHECKS = ("__instancecheck__", "__subclasscheck__")


def check_metaclass(tx: TranslatorBase, spec: type, source: Source | None, what: str) -> None:
    """`isinstance`/`issubclass` (`what`) against class `spec` (at `source`) is decided from
    the class as `type` or ABCMeta decide it: a metaclass with an `__instancecheck__` or
    `__subclasscheck__` of its own runs user code on every call (typing's `Any` refuses, a
    runtime-checkable Protocol reads the object's attributes), so the frame breaks. A
    metaclass that can change is guarded to keep the check it has (class_protocols). An ABC
    also answers from its registry: the trace guards abc's cache token (module docstring)."""
    meta = type(spec)
    for name, known in (("__instancecheck__", _BY_TYPE), ("__subclasscheck__", _SUBCLASS_BY_TYPE)):
        if getattr(meta, name, None) not in known:
            unimplemented(what, f"{what}() with {spec!r}: {meta.__name__} defines {name}")
    guard_metaclass_specials(tx, spec, source, _CHECKS, f"{what}()")
    if getattr(meta, "__subclasscheck__", None) is abc.ABCMeta.__subclasscheck__:
        guard_abc_registrations(tx)


def guard_abc_registrations(tx: TranslatorBase) -> None:
    """Guard abc's cache token, which every `SomeABC.register(C)` bumps (module docstring):
    also what a `match` decided from a class's sequence and mapping flags relies on, since
    registering it with `collections.abc.Sequence` or `Mapping` sets them."""
    token = GlobalStateSpec(("abc_cache_token",), (abc.get_cache_token(),), (abc.get_cache_token,))
    tx.output.add_guard(GuardKind.GLOBAL_STATE, GlobalStateSource(), token)


def check_classes(
    tx: TranslatorBase,
    spec: Any,
    spec_vt: VariableTracker | None,
    what: str,
    source: Source | None = None,
) -> None:
    """`check_metaclass` on every class `spec` names: itself, a tuple's entries, a union's
    members (each asked in turn by the union's own check). Every one, though CPython stops
    at the first match: a later one only breaks or guards more than needed. Each class is
    read where its tracker (`spec_vt`, a tuple's entry: `_entry`) was read, or at `source`
    (a union's member: `<union>.__args__[i]`); a class with neither has no source."""
    if spec_vt is not None:
        source = spec_vt.realize().source
    if isinstance(spec, tuple):
        for index, entry in enumerate(spec):
            entry_vt = _entry(spec_vt, index)
            entry_source = None if source is None else ItemSource(source, index)
            check_classes(tx, entry, entry_vt, what, entry_source)
    elif isinstance(spec, types.UnionType):
        union_args = None if source is None else AttrSource(source, "__args__")
        check_classes(tx, spec.__args__, None, what, union_args)
    elif isinstance(spec, type):
        check_metaclass(tx, spec, source, what)


def _entry(spec_vt: VariableTracker | None, index: int) -> VariableTracker | None:
    """The tracker of a tuple's entry: its own (a tuple built in the frame, or one from
    outside with a tracker per item); None when not known (the class then has no source)."""
    if spec_vt is None:
        return None
    items = getattr(spec_vt.realize(), "items", None)
    return items[index] if isinstance(items, list) and index < len(items) else None


def instance_of(
    tx: TranslatorBase, kind: type, spec: Any, spec_vt: VariableTracker | None = None
) -> bool:
    """`isinstance(obj, spec)` for an object of type `kind`, walked as CPython walks it: a
    tuple in order (the first match wins, so a bad entry after it is never looked at), a class
    or a union by `issubclass`, anything else CPython's own TypeError. A class whose metaclass
    decides by its own code breaks the frame, an ABC is guarded (`check_metaclass`). Where
    CPython reads the object's `__class__` (`_asks_class`) and that read is user code
    (`_class_read_by_user_code`), the frame breaks."""
    if isinstance(spec, tuple):
        return any(
            instance_of(tx, kind, entry, _entry(spec_vt, index)) for index, entry in enumerate(spec)
        )
    if not isinstance(spec, type | types.UnionType):
        tx.run_user_operation(isinstance, None, spec)  # a constant that is no class: raises
    check_classes(tx, spec, spec_vt, "isinstance")
    if _asks_class(kind, spec):
        reason = _class_read_by_user_code(kind)
        if reason is not None:
            unimplemented("isinstance", f"isinstance() on a {kind.__name__} object: {reason}")
    return bool(tx.run_user_operation(issubclass, kind, spec))


def _asks_class(kind: type, spec: type | types.UnionType) -> bool:
    """Does CPython's `isinstance(obj, spec)`, for an object of type `kind`, read
    `obj.__class__`? Not when `spec` is `kind` itself (its first test) or a class that `type`'s
    check finds `kind` a subclass of; it does when that check fails (a `__class__` other than
    the type may still be a subclass: `unittest.mock.Mock(spec=C)` passes as a C), and always
    for an ABC (ABCMeta's check starts from `__class__`). A union is its members in order: the
    first either matches without the read or reads."""
    if isinstance(spec, types.UnionType):
        first = spec.__args__[0]
        return not isinstance(first, type) or _asks_class(kind, first)
    if kind is spec:
        return False
    if getattr(type(spec), "__instancecheck__", None) is not type.__instancecheck__:
        return True  # (ABCMeta's: `check_metaclass` let no other through)
    return not issubclass(kind, spec)


def _class_read_by_user_code(kind: type) -> str | None:
    """Why reading `obj.__class__` of an object of type `kind` runs user code, or None when it
    finds `object`'s descriptor, which answers the type. A class on the MRO that defines
    `__class__` (a property that raises, or answers another class: `Mock(spec=Tensor)`
    claims Tensor) or `__getattribute__` (a C type's is the generic one) answers by its own
    code. (No guard: `__class__` cannot be set on a class once made, since `object`'s
    descriptor takes the assignment; a new MRO is pinned by `object_instance_of`.)"""
    if kind.__flags__ & IMMUTABLE_TYPE:
        return None
    owner = lookup_class_attr(kind, "__getattribute__")[1]
    if owner is not None and not owner.__flags__ & IMMUTABLE_TYPE:
        return f"its __class__ is read through {owner.__name__}.__getattribute__ (user code)"
    member, owner = lookup_class_attr(kind, "__class__")
    if member is _OBJECT_CLASS:
        return None
    where = "?" if owner is None else owner.__name__
    return f"its __class__ is {where}'s (user code, which may raise or answer another class)"


_OBJECT_CLASS = object.__dict__["__class__"]
"""`object`'s `__class__` descriptor: the object's type."""


def object_instance_of(
    tx: TranslatorBase, obj: VariableTracker, spec: Any, spec_vt: VariableTracker | None = None
) -> bool:
    """`isinstance(obj, spec)`: `instance_of` on the object's type. For a user object from
    outside, the answer holds while its class's MRO does, which assigning `__bases__`
    replaces: pinned (`class_lookup.mro_source`); for a class from outside whose metaclass
    can change, its metaclass's MRO (assigning the class's `__class__` swaps the metaclass,
    and the new one has another MRO tuple). Tensors, modules and builtin values are not
    pinned."""
    from variables.user_defined import UserDefinedClassVariable, UserDefinedObjectVariable

    obj = obj.realize()
    if isinstance(obj, UserDefinedObjectVariable):
        source = obj.class_source()
        if source is not None:
            mro_source(tx, obj.cls, source)
    elif (
        isinstance(obj, UserDefinedClassVariable)
        and obj.source is not None
        and changeable_metaclass(obj.value)
    ):  # (the class itself is pinned by its ID_MATCH)
        mro_source(tx, type(obj.value), TypeSource(obj.source))
    return instance_of(tx, obj.python_type(), spec, spec_vt)


def guard_issubclass(tx: TranslatorBase, cls: VariableTracker, classes: VariableTracker) -> None:
    """`issubclass(cls, classes)` of a user class from outside holds while its MRO does:
    pinned, as for `isinstance`; the classes asked are checked as `isinstance`'s are
    (`check_classes`: a metaclass's own check breaks, an ABC is guarded)."""
    from variables.user_defined import UserDefinedClassVariable

    classes = classes.realize()
    if classes.is_python_constant():
        check_classes(tx, classes.as_python_constant(), classes, "issubclass")
    cls = cls.realize()
    if isinstance(cls, UserDefinedClassVariable) and cls.source is not None:
        mro_source(tx, cls.value, cls.source)
