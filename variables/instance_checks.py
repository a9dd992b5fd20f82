"""`isinstance(obj, spec)` decided while tracing from the object's type, as CPython decides it
(`isinstance(x, int)`, the builtin, and `case int():`, a class pattern)."""

from __future__ import annotations

import abc
import types
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

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
