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
from guards.sources import GlobalStateSource
from tracer.exc import unimplemented
from variables.class_lookup import mro_source

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker

_BY_TYPE = (type.__instancecheck__, abc.ABCMeta.__instancecheck__)
"""The `__instancecheck__` of metaclasses that decide from the object's class alone."""
_SUBCLASS_BY_TYPE = (type.__subclasscheck__, abc.ABCMeta.__subclasscheck__)
"""The `__subclasscheck__` of metaclasses that decide from the class alone (ABCMeta's
`__instancecheck__` calls the metaclass's `__subclasscheck__`)."""


def check_metaclass(tx: TranslatorBase, spec: type, what: str) -> None:
    """`isinstance`/`issubclass` (`what`) against class `spec` is decided from the class as
    `type` or ABCMeta decide it: a metaclass with an `__instancecheck__` or
    `__subclasscheck__` of its own runs user code on every call (typing's `Any` refuses, a
    runtime-checkable Protocol reads the object's attributes), so the frame breaks. An ABC
    also answers from its registry: the trace guards abc's cache token (module docstring)."""
    meta = type(spec)
    for name, known in (("__instancecheck__", _BY_TYPE), ("__subclasscheck__", _SUBCLASS_BY_TYPE)):
        if getattr(meta, name, None) not in known:
            unimplemented(what, f"{what}() with {spec!r}: {meta.__name__} defines {name}")
    if getattr(meta, "__subclasscheck__", None) is abc.ABCMeta.__subclasscheck__:
        token = GlobalStateSpec(
            ("abc_cache_token",), (abc.get_cache_token(),), (abc.get_cache_token,)
        )
        tx.output.add_guard(GuardKind.GLOBAL_STATE, GlobalStateSource(), token)


def check_classes(tx: TranslatorBase, spec: Any, what: str) -> None:
    """`check_metaclass` on every class `spec` names: itself, a tuple's entries, a union's
    members (each asked in turn by the union's own check). Every one, though CPython stops
    at the first match: a later one only breaks or guards more than needed."""
    if isinstance(spec, tuple):
        for entry in spec:
            check_classes(tx, entry, what)
    elif isinstance(spec, types.UnionType):
        check_classes(tx, spec.__args__, what)
    elif isinstance(spec, type):
        check_metaclass(tx, spec, what)


def instance_of(tx: TranslatorBase, kind: type, spec: Any) -> bool:
    """`isinstance(obj, spec)` for an object of type `kind`, walked as CPython walks it: a
    tuple in order (the first match wins, so a bad entry after it is never looked at), a class
    or a union by `issubclass`, anything else CPython's own TypeError. A class whose metaclass
    decides by its own code breaks the frame, an ABC is guarded (`check_metaclass`)."""
    if isinstance(spec, tuple):
        return any(instance_of(tx, kind, entry) for entry in spec)
    if not isinstance(spec, type | types.UnionType):
        tx.run_user_operation(isinstance, None, spec)  # a constant that is no class: raises
    check_classes(tx, spec, "isinstance")
    return bool(tx.run_user_operation(issubclass, kind, spec))


def object_instance_of(tx: TranslatorBase, obj: VariableTracker, spec: Any) -> bool:
    """`isinstance(obj, spec)`: `instance_of` on the object's type. For a user object from
    outside, the answer holds while its class's MRO does, which assigning `__bases__`
    replaces: pinned (`class_lookup.mro_source`). Tensors, modules and builtin values are not
    pinned."""
    from variables.user_defined import UserDefinedObjectVariable

    obj = obj.realize()
    if isinstance(obj, UserDefinedObjectVariable):
        source = obj.class_source()
        if source is not None:
            mro_source(tx, obj.cls, source)
    return instance_of(tx, obj.python_type(), spec)


def guard_issubclass(tx: TranslatorBase, cls: VariableTracker, classes: VariableTracker) -> None:
    """`issubclass(cls, classes)` of a user class from outside holds while its MRO does:
    pinned, as for `isinstance`; the classes asked are checked as `isinstance`'s are
    (`check_classes`: a metaclass's own check breaks, an ABC is guarded)."""
    from variables.user_defined import UserDefinedClassVariable

    classes = classes.realize()
    if classes.is_python_constant():
        check_classes(tx, classes.as_python_constant(), "issubclass")
    cls = cls.realize()
    if isinstance(cls, UserDefinedClassVariable) and cls.source is not None:
        mro_source(tx, cls.value, cls.source)
