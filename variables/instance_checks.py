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

from guards.guard import GlobalStateSpec, GuardKind
from guards.sources import AttrSource, GlobalStateSource, ItemSource, TypeSource
from tracer.exc import unimplemented
from variables.class_lookup import mro_source
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
        token = GlobalStateSpec(
            ("abc_cache_token",), (abc.get_cache_token(),), (abc.get_cache_token,)
        )
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
    decides by its own code breaks the frame, an ABC is guarded (`check_metaclass`)."""
    if isinstance(spec, tuple):
        return any(
            instance_of(tx, kind, entry, _entry(spec_vt, index)) for index, entry in enumerate(spec)
        )
    if not isinstance(spec, type | types.UnionType):
        tx.run_user_operation(isinstance, None, spec)  # a constant that is no class: raises
    check_classes(tx, spec, spec_vt, "isinstance")
    return bool(tx.run_user_operation(issubclass, kind, spec))


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
