"""Exact equality of Python constants, without running user code.

Python's `==` is too loose for a guard (`1 == 1.0 == True`, `0.0 == -0.0`, `nan != nan`) and can
run user code (`(1, obj) == (1, 2)` calls `obj.__eq__`). A guard on a constant checks the exact type
first, then the value; floats compare by bits (`-0.0` is not `0.0`, every nan matches nan). This
module owns that definition three times over, kept in agreement by tests: `constant_key` (hashable
identity of a constant, for dedupe), `constants_equal` (the runtime helper) and
`constant_match_expr` (the inline code the check function runs).
"""

from __future__ import annotations

import math
import sys
import types
from collections.abc import Callable, Hashable
from typing import Any

SCALAR_TYPES: frozenset[type] = frozenset({type(None), bool, int, float, complex, str, bytes})
"""Leaf types a guard may compare by value; tuples and frozensets of these are constants too."""

Bind = Callable[[object, str], str]
"""Binds an object into the check function's globals and returns the name to use in code."""


def is_constant(value: Any) -> bool:
    """Whether `value` may be guarded by value (EQUALS_MATCH) rather than by identity."""
    kind = type(value)
    if kind in SCALAR_TYPES:
        return True
    if kind is tuple or kind is frozenset:
        return all(map(is_constant, value))
    return False


def constant_key(value: Any) -> Hashable:
    """A hashable key that is equal exactly when the constants are equal in the guard's sense.

    >>> constant_key(1) == constant_key(True), constant_key(0.0) == constant_key(-0.0)
    (False, False)
    >>> constant_key(float("nan")) == constant_key(float("nan"))
    True
    """
    kind = type(value)
    if kind in _BY_VALUE_TYPES:
        return (kind.__name__, value)
    if kind is float:
        return ("float", value.hex())
    if kind is complex:
        return ("complex", value.real.hex(), value.imag.hex())
    if kind is tuple:
        return ("tuple", tuple(map(constant_key, value)))
    if kind is frozenset:
        return ("frozenset", frozenset(map(constant_key, value)))
    raise TypeError(f"not a guardable constant: {safe_label(value)}")


_BY_VALUE_TYPES = SCALAR_TYPES - {float, complex}
"""Scalars two of which, of one exact type, are the same constant exactly when `==` says so
(floats and complex numbers are compared by their bits instead: `-0.0`, nan)."""


def constants_equal(actual: Any, expected: Any) -> bool:
    """Runtime form of the exact match, for values the inline code does not unroll (frozensets,
    complex). Checks `type(actual)` before any comparison, so no user `__eq__`/`__hash__` runs."""
    kind = type(expected)
    if type(actual) is not kind:
        return False
    if kind is float or kind is complex:
        return constant_key(actual) == constant_key(expected)
    if kind is tuple:
        pairs = zip(actual, expected, strict=False)
        same_length = len(actual) == len(expected)
        return same_length and all(constants_equal(a, e) for a, e in pairs)
    if kind is frozenset:
        return len(actual) == len(expected) and all(
            any(constants_equal(a, e) for a in actual) for e in expected
        )
    same: bool = actual == expected  # exact scalar types on both sides: CPython's own __eq__
    return same


def constant_match_expr(expr: str, value: Any, bind: Bind) -> str:
    """Inline Python that is true iff the value of `expr` exactly equals the constant `value`.

    `expr` must be cheap and side-effect free to repeat (a hoisted local or an index into one).
    >>> bind = lambda obj, hint: "?"
    >>> constant_match_expr("v", (1, -0.0, None), bind)  # doctest: +NORMALIZE_WHITESPACE
    'type(v) is tuple and len(v) == 3 and type(v[0]) is int and v[0] == 1
     and type(v[1]) is float and v[1] == 0.0 and ___copysign(1.0, v[1]) == -1.0 and v[2] is None'
    """
    kind = type(value)
    if value is None or kind is bool:
        return f"{expr} is {value!r}"
    if kind is int or kind is str or kind is bytes:
        return f"type({expr}) is {kind.__name__} and {expr} == {value!r}"
    if kind is float:
        return _float_match_expr(expr, value)
    if kind is tuple:
        items = [constant_match_expr(f"{expr}[{i}]", item, bind) for i, item in enumerate(value)]
        return " and ".join([f"type({expr}) is tuple and len({expr}) == {len(items)}", *items])
    if is_constant(value):  # complex, frozenset: compared by a helper
        return f"___constants_equal({expr}, {bind(value, 'const')})"
    raise TypeError(f"EQUALS_MATCH needs a constant, got {safe_label(value)}")


def _float_match_expr(expr: str, value: float) -> str:
    head = f"type({expr}) is float and "
    if math.isnan(value):
        return head + f"{expr} != {expr}"
    if value == 0.0:
        sign = math.copysign(1.0, value)
        return head + f"{expr} == 0.0 and ___copysign(1.0, {expr}) == {sign!r}"
    if math.isinf(value):
        return head + f"{expr} == {'-' if value < 0 else ''}___inf"
    return head + f"{expr} == {value!r}"


HELPERS: dict[str, object] = {
    "___constants_equal": constants_equal,
    "___copysign": math.copysign,
    "___inf": math.inf,
    "___sys_modules": sys.modules,
}
"""Globals every check function gets; the generated code above refers to them by these names."""


def safe_label(value: object) -> str:
    """Words for any value without calling its `__repr__` (which could be user code): constants
    print as themselves, functions/classes/modules by name, anything else as `<Type object>`."""
    if is_constant(value):
        return repr(value)
    if issubclass(type(value), type):  # (its type: a user `__class__` may raise or lie)
        return type_label(value)  # type: ignore[arg-type]
    kind = type_label(type(value))
    name = own_name(value)
    return f"<{kind} {name}>" if name is not None else f"<{kind} object>"


def own_name(value: object) -> str | None:
    """The name of a function, builtin, code object or module, read without running user
    code."""
    if type(value) is types.ModuleType:
        name = value.__dict__.get("__name__")
    elif type(value) is types.CodeType:
        name = value.co_qualname
    elif type(value) in _NAMED_TYPES:
        name = value.__qualname__  # type: ignore[attr-defined]
    else:
        return None
    return name if type(name) is str else None


_NAMED_TYPES = frozenset(
    {
        types.FunctionType,
        types.BuiltinFunctionType,
        types.MethodType,
        types.MethodDescriptorType,
        types.WrapperDescriptorType,
    }
)


def type_label(kind: type) -> str:
    """`int`, `Config`, `Outer.Inner`: the qualified name a reader recognises."""
    return str(_TYPE_QUALNAME.__get__(kind))


_TYPE_QUALNAME = type.__dict__["__qualname__"]
"""type's own descriptor: a metaclass cannot intercept reading a class's name through it."""
