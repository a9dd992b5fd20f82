"""`Color(value)`: calling an enum class looks up its member with that value.

An enum's members are all made when its class statement runs; calling the class with a value
(`calendar.Day(3)`, which `calendar.weekday` returns since 3.12) makes nothing, it finds the
member whose value equals the argument, or raises CPython's ValueError. CPython does that
lookup here, on the real class, and the member it returns is held as a constant
(`EnumVariable`), like any member read from the class.

This is exact only when the lookup runs no user code, so the class must use the `enum`
module's own machinery and the values compared must be constants of builtin types:

- the metaclass's `__call__` and the class's `__new__` are `enum`'s (no user hook around the
  lookup), its `_missing_` (called when no member matches) is `enum`'s, and its members are
  of a builtin type (`Flag._missing_` makes a combined member of that type);
- every member's value and the argument are constants of builtin types, so hashing and
  comparing them is C code (a member of the class itself is returned as it is).

Anything else (a user `_missing_`, a member whose value is a user object, the functional API
`Enum('Name', 'A B')` that makes a new class) falls back with its reason.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import NotConstantError
from variables.constant import EnumVariable, is_constant_value

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.base import VariableTracker


def is_enum_class(cls: type) -> bool:
    return issubclass(type(cls), enum.EnumMeta) and issubclass(cls, enum.Enum)


_ENUM_MISSING = frozenset(vars(kind)["_missing_"].__func__ for kind in (enum.Enum, enum.Flag))
"""`enum`'s own `_missing_` hooks: Enum's finds nothing, Flag's combines members."""


def _machinery_problem(cls: type[enum.Enum]) -> str | None:
    """Why looking a member up in `cls` could run user code, or None when it cannot."""
    if type(cls).__call__ is not enum.EnumMeta.__call__:
        return f"its metaclass {type(cls).__name__} defines __call__"
    if cls.__new__ is not enum.Enum.__new__:
        return "it customizes __new__"
    if getattr(cls._missing_, "__func__", None) not in _ENUM_MISSING:
        return "it defines _missing_"
    member_type: type = getattr(cls, "_member_type_")  # noqa: B009 (not in typeshed)
    if member_type.__module__ != "builtins":
        return f"its members are {member_type.__name__} objects"
    if not all(is_constant_value(m._value_) for m in cls._member_map_.values()):
        return "a member's value is not a constant"
    return None


def lookup_member(
    tx: TranslatorBase,
    cls: type[enum.Enum],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`cls(value)` for an enum class: the member CPython finds, or its exception."""
    if not cls._member_map_:
        unimplemented("enum", f"calling {cls.__name__}, which has no members (the functional API)")
    if len(args) != 1 or kwargs:
        unimplemented("enum", f"calling {cls.__name__} other than with one value")
    problem = _machinery_problem(cls)
    if problem is not None:
        unimplemented("enum", f"looking up a member of {cls.__name__}: {problem}")
    try:
        value: Any = args[0].realize().as_python_constant()
    except NotConstantError:
        unimplemented("enum", f"looking up a member of {cls.__name__} by {args[0]!r}")
    if not (is_constant_value(value) or type(value) is cls):
        unimplemented("enum", f"looking up a member of {cls.__name__} by a {type(value).__name__}")
    return EnumVariable(tx.run_user_operation(cls, value))
