"""The length hint: what CPython's PyObject_LengthHint asks of an iterable.

The consumers that size their result before pulling any item (`list()`, `tuple()`, `sorted()`,
`bytes()`, `[*x]`, `(*x,)`, `f(*x)`, `list.extend`, `l += x`, `bytearray.extend`, `str.join`,
`itertools.product` and `itertools.permutations`) ask the iterable for a length hint right after
`__iter__`. The hint's value only sizes a buffer, but the asking runs user code and may raise:

- a class's `__len__` runs first; a TypeError it raises (or makes, returning a value that is not
  an int) is swallowed, any other error propagates, and a negative length raises ValueError;
- when there is no `__len__`, or it failed with a TypeError, `__length_hint__` runs; a TypeError
  it raises and a NotImplemented it returns mean "no hint", a value that is not an int, a
  negative one or one too large for a C size raise.

`set()`, `frozenset()`, `bytearray()`, `{*x}`, unpacking, `deque()`, `min`/`max`/`sum` ask no
hint: they use `iterate` alone. A builtin's own hint runs no user code and raises nothing, so
only user classes are asked here."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from tracer.exc import Unsupported, unimplemented
from variables.base import VariableTracker
from variables.class_lookup import lookup_class_attr
from variables.constant import ConstantVariable
from variables.iterators import IteratorVariable, UserIteratorVariable, iterate
from variables.protocol_results import Hinted, Sized, protocol_result
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase


def sized_iterate(tx: TranslatorBase, vt: VariableTracker) -> IteratorVariable:
    """`iterate(tx, vt)`, then `vt`'s length hint: the order of CPython's list_extend and
    PySequence_Tuple, before the first item is pulled."""
    it = iterate(tx, vt)
    length_hint(tx, vt)
    return it


def rest_of(tx: TranslatorBase, it: IteratorVariable) -> list[VariableTracker]:
    """`list(it)` of an iterator that `iter()` gave (the starred name of `a, *b = x`, and
    `str.join`, which lists `iter(x)`): CPython's list() calls `iter(it)` again (a user
    iterator's own `__iter__`, traced) and asks its length hint before pulling the rest."""
    return sized_iterate(tx, it.obj if isinstance(it, UserIteratorVariable) else it).unpack(tx)


def length_hint(tx: TranslatorBase, vt: VariableTracker) -> int | None:
    """Ask `vt` for its length hint as PyObject_LengthHint does: the user methods it runs are
    traced, and its errors are the user's (see the module docstring). None when a user class
    gives no hint; None too for anything else, whose hint runs no user code."""
    obj = vt.realize()
    if isinstance(obj, UserIteratorVariable):  # the user object the iterator steps
        obj = obj.obj.realize()
    if not isinstance(obj, UserDefinedObjectVariable):
        return None
    owner = obj.special_method(tx, "__len__")[1]
    if owner is not None and owner.__module__ != "builtins":  # (a builtin's: no user code)
        try:
            size: int = protocol_result(tx, len, Sized, obj.call_method(tx, "__len__", [], {}))
            return size

        except Unsupported as e:
            if not isinstance(e.user_exception, TypeError):
                raise
    elif owner is not None:
        return None
    if obj.special_method(tx, "__length_hint__")[1] is None:
        return None
    try:
        result = obj.call_method(tx, "__length_hint__", [], {})
    except Unsupported as e:
        if isinstance(e.user_exception, TypeError):
            return None
        raise
    hint: int = protocol_result(tx, operator.length_hint, Hinted, result, -1)
    return None if hint == -1 else hint  # -1: NotImplemented, the default


def operator_length_hint(
    tx: TranslatorBase, obj: VariableTracker, default: VariableTracker | None = None, /
) -> VariableTracker:
    """`operator.length_hint(obj, default)` of a user object: its hint, else the default
    (checked by CPython first, as the C function parses its arguments before asking)."""
    owner = lookup_class_attr(obj.realize().python_type(), "__len__")[1]
    if owner is not None and owner.__module__ == "builtins":
        unimplemented("protocol", f"operator.length_hint() of a {owner.__name__} subclass")
    fallback = 0 if default is None else default.realize().as_python_constant()
    tx.run_user_operation(operator.length_hint, (), fallback)
    hint = length_hint(tx, obj)
    return ConstantVariable(fallback if hint is None else hint)
