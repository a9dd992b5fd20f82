"""The functions of the `operator` module a fold on constants would get wrong, traced as what
they do instead: `operator.call(f, ...)` (3.11) is the call it makes (a fold ran `f` once,
while tracing); `setitem`, `delitem` and `iconcat` change their first argument, `concat`
returns its items themselves, and `is_` and `is_not` compare identities, while a fold
computes on copies of a list, dict or set argument
(`as_python_constant` of a container tracker is a new object each time). Every other public
function of the module is folded on constants (`pure_calls.fold`, which refuses a result that
would hold such a copy), or traced as its operator (`builtin.BINARY_OPERATORS`)."""

from __future__ import annotations

import collections
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.operators import identical

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

OPERATOR_CALL: Callable[..., Any] | None = getattr(operator, "call", None)
"""`operator.call(f, *args, **kwargs)`, new in 3.11: `f(*args, **kwargs)`."""

_COPIED_TYPES = (list, dict, set, bytearray, collections.deque)


def holds_copy(value: object) -> bool:
    """Is `value`, the constant of a tracker, a copy the tracker made (a list, dict, set,
    deque or bytearray, or a tuple holding one) rather than the object itself?"""
    return bool(_copied_parts(value))


def returns_a_copy(result: object, args: Sequence[object]) -> bool:
    """Does `result`, computed on the constants `args`, hold one of the copies in them (`max`
    of lists gives one of the lists: a copy, not the object plain Python returns)? A new
    container the function made (`+counter`, a bytearray's slice) is not one."""
    if not isinstance(result, (*_COPIED_TYPES, tuple, slice)):
        return False  # (most folds: a number, a str)
    copies = {id(part) for arg in args for part in _copied_parts(arg)}
    return bool(copies) and any(id(part) in copies for part in _copied_parts(result))


def _copied_parts(value: object) -> list[object]:
    """The containers a tracker's constant copies, in `value` (itself included): what a
    value made from it would hold in place of the frame's objects (`slice(lst)`,
    `ValueError(lst)`)."""
    if isinstance(value, _COPIED_TYPES):
        items = value.items() if isinstance(value, dict) else value
        inner = [p for item in items for p in _copied_parts(item)]
        return [value, *inner]
    if isinstance(value, tuple):
        return [p for item in value for p in _copied_parts(item)]
    if isinstance(value, slice):
        return _copied_parts((value.start, value.stop, value.step))
    return []


def call_operator_function(
    tx: TranslatorBase,
    fn: Callable[..., Any],
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker | None:
    """`fn(*args, **kwargs)` for the functions above, traced; None for any other call (a
    wrong arity, an immutable target: folded, so CPython raises its own error)."""
    if fn is OPERATOR_CALL and args:
        return args[0].realize().call_function(tx, args[1:], kwargs)
    if kwargs:
        return None
    if fn is operator.is_ and len(args) == 2:
        return ConstantVariable(identical(args[0].realize(), args[1].realize(), tx))
    if fn is operator.is_not and len(args) == 2:
        return ConstantVariable(not identical(args[0].realize(), args[1].realize(), tx))
    if not args or not _changeable(args[0]):
        return None
    target = args[0].realize()
    if fn is operator.setitem and len(args) == 3:
        target.call_method(tx, "__setitem__", list(args[1:]), {})
        return ConstantVariable(None)
    if fn is operator.delitem and len(args) == 2:
        target.call_method(tx, "__delitem__", [args[1]], {})
        return ConstantVariable(None)
    if fn in (operator.iconcat, operator.concat) and len(args) == 2:  # a sequence's `+=`, `+`
        from variables.builtin import binary_op  # (it builds on this module)

        add = operator.iadd if fn is operator.iconcat else operator.add
        return binary_op(tx, add, target, args[1])
    return None


def _changeable(vt: VariableTracker) -> bool:
    """Is `vt` an object a function may change: not a constant, or a container whose
    constant is a copy?"""
    vt = vt.realize()
    return not vt.is_python_constant() or holds_copy(vt.as_python_constant())
