"""`isinstance(obj, spec)` decided while tracing from the object's type, as CPython decides it
(`isinstance(x, int)`, the builtin, and `case int():`, a class pattern)."""

from __future__ import annotations

import abc
import types
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.class_lookup import mro_source

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker

_BY_TYPE = (type.__instancecheck__, abc.ABCMeta.__instancecheck__)
"""The `__instancecheck__` of metaclasses that decide from the object's class alone."""


def instance_of(tx: TranslatorBase, kind: type, spec: Any) -> bool:
    """`isinstance(obj, spec)` for an object of type `kind`, walked as CPython walks it: a
    tuple in order (the first match wins, so a bad entry after it is never looked at), a class
    or a union by `issubclass`, anything else CPython's own TypeError. A class whose metaclass
    has an `__instancecheck__` of its own is not decided from `kind` (typing's `Any` refuses,
    a runtime-checkable Protocol reads the object's attributes): the frame breaks."""
    if isinstance(spec, tuple):
        return any(instance_of(tx, kind, entry) for entry in spec)
    if not isinstance(spec, type | types.UnionType):
        tx.run_user_operation(isinstance, None, spec)  # a constant that is no class: raises
    meta = type(spec)
    if isinstance(spec, type) and getattr(meta, "__instancecheck__", None) not in _BY_TYPE:
        unimplemented(
            "isinstance", f"isinstance() with {spec!r}: {meta.__name__} defines __instancecheck__"
        )
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


def pin_class_mro(tx: TranslatorBase, cls: VariableTracker) -> None:
    """`issubclass(cls, ...)` of a user class from outside holds while its MRO does: pinned,
    as for `isinstance`."""
    from variables.user_defined import UserDefinedClassVariable

    cls = cls.realize()
    if isinstance(cls, UserDefinedClassVariable) and cls.source is not None:
        mro_source(tx, cls.value, cls.source)
