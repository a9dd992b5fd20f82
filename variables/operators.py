"""Python's operator protocol on user objects (`user_binary_op`: which method is tried first,
NotImplemented, the identity fallback of `==`, CPython's TypeError), how Python's error messages
spell operators (the methods they call are `tracer.graph.resolve.OPERATOR_DUNDERS`), and `is`
between two trackers (`identical`), which IS_OP and `==`'s identity fallback both ask."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from guards.guard import IMMUTABLE_TYPE, GuardKind
from tracer.exc import unimplemented
from tracer.graph.resolve import OPERATOR_DUNDERS
from variables.base import NotConstantError, VariableTracker
from variables.class_lookup import lookup_special
from variables.constant import ConstantVariable
from variables.tensor import TensorVariable
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase

OPERATOR_SYMBOLS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.floordiv: "//", operator.mod: "%", operator.pow: "** or pow()",
    operator.matmul: "@", operator.and_: "&", operator.or_: "|", operator.xor: "^",
    operator.lshift: "<<", operator.rshift: ">>", operator.neg: "unary -",
    operator.pos: "unary +", operator.invert: "unary ~", operator.abs: "abs()",
}  # fmt: skip
"""operator function -> how Python's error messages spell it."""

_SINGLETONS = (type(None), bool, type(Ellipsis), type(NotImplemented))
_VALUE_TYPES = (int, float, complex, str, bytes, tuple, frozenset, list, dict, set, slice, range)
"""Types whose identity CPython does not define for equal values (`is` on them is a guess)."""


def identical(
    left: VariableTracker, right: VariableTracker, tx: TranslatorBase | None = None
) -> bool:
    """`left is right`, decided only where identity is known while tracing."""
    if left is right:
        return True
    if tx is not None and _distinct_existing(tx, left, right):
        return False
    if left.is_python_constant() and right.is_python_constant():
        a, b = left.as_python_constant(), right.as_python_constant()
        if isinstance(a, _SINGLETONS) or isinstance(b, _SINGLETONS):
            return a is b
        if not isinstance(a, _VALUE_TYPES) and not isinstance(b, _VALUE_TYPES):
            return a is b  # functions, classes, modules, dtypes: identity is their meaning
    if getattr(left, "is_new", False) or getattr(right, "is_new", False):
        return False  # an object created in the frame is one tracker: another can't be it
    left_type, right_type = _known_type(left), _known_type(right)
    if left_type is not None and right_type is not None and left_type is not right_type:
        return False
    tensors = isinstance(left, TensorVariable) and isinstance(right, TensorVariable)
    if tensors and (left.source is None or right.source is None):
        return False  # a tensor computed in the graph is a new object
    unimplemented("identity", f"`is` between {left!r} and {right!r} depends on object identity")


def _distinct_existing(tx: TranslatorBase, left: VariableTracker, right: VariableTracker) -> bool:
    """Two objects from outside with their own trackers (user objects, modes, lists, dicts,
    tensor inputs): the side effects keep one tracker per real object, as the graph keeps one
    per input tensor (`OutputGraph.tensor_inputs`, by the real tensor's id), so two trackers
    are two objects now, and a NO_ALIASING guard keeps them two on later calls (`query is
    key` in `nn.MultiheadAttention.forward`, as Dynamo's guard on tensor aliasing does)."""
    if left.source is None or right.source is None:
        return False
    known = [*tx.output.side_effects.tracked.values(), *tx.output.tensor_inputs.values()]
    if not any(vt is left for vt in known) or not any(vt is right for vt in known):
        return False
    tx.output.add_guard(GuardKind.NO_ALIASING, left.source, (right.source,))
    return True


def _known_type(vt: VariableTracker) -> type | None:
    try:
        return vt.python_type()
    except Exception:  # noqa: BLE001
        return None


# -- the operator protocol on user objects ----------------------------------------------------
COMPARISONS = frozenset(
    {operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge}
)
_REFUSING_BUILTINS = frozenset(
    {bool, int, float, complex, type(None), str, bytes, list, tuple, dict, set, frozenset, range}
)
"""Builtin types whose operator methods answer NotImplemented to a user object (whose class
does not derive from a builtin type), except `str % obj` and `bytes % obj`, which format it.
(list, tuple, str and bytes concatenate and repeat through their sequence methods, which
Python tries last: `raise_operator_error` runs them.)"""


def user_binary_op(
    tx: TranslatorBase,
    fn: Callable[..., Any],
    plain: Callable[..., Any],
    a: VariableTracker,
    b: VariableTracker,
) -> VariableTracker:
    """`a <op> b` where a user object takes part, in CPython's order: for `a += b`,
    `a.__iadd__(b)` first; a right operand whose type is a proper subclass of the left's (and,
    for arithmetic, defines its own reflected method) is asked first; the same type is not
    asked twice; an answer of NotImplemented passes to the next. Then `==`/`!=` fall back to
    identity, and anything else raises CPython's TypeError. The methods are inlined."""
    if plain in COMPARISONS:
        result = _rich_compare(tx, plain, a, b)
    else:
        dunder, reflected = OPERATOR_DUNDERS[plain]
        assert reflected is not None
        result = None
        if fn is not plain:
            result = _call_operator_method(tx, a, "__i" + dunder[2:], b)
        if result is None:
            result = _arithmetic(tx, a, b, dunder, reflected)
    if result is not None:
        return result
    if plain is operator.eq or plain is operator.ne:
        same = identical(a, b, tx)
        return ConstantVariable(same if plain is operator.eq else not same)
    raise_operator_error(tx, fn, a, b)


def _arithmetic(
    tx: TranslatorBase, a: VariableTracker, b: VariableTracker, dunder: str, reflected: str
) -> VariableTracker | None:
    left, right = a.python_type(), b.python_type()
    reflected_tried = False
    if left is not right and _is_subtype(right, left) and _overrides(tx, b, a, reflected):
        result = _call_operator_method(tx, b, reflected, a)
        if result is not None:
            return result
        reflected_tried = True
    result = _call_operator_method(tx, a, dunder, b)
    if result is not None or left is right or reflected_tried:
        return result
    return _call_operator_method(tx, b, reflected, a)


def _is_subtype(right: type, left: type) -> bool:
    """CPython's test for trying the right operand's method first: a real subclass, by the
    MRO (`PyType_IsSubtype`), not `issubclass`, which counts an ABC's registered virtual
    subclasses (test_binop `test_comparison_orders`) and may run a metaclass's code."""
    return left in right.__mro__


def _rich_compare(
    tx: TranslatorBase, op: Callable[..., Any], a: VariableTracker, b: VariableTracker
) -> VariableTracker | None:
    dunder, swapped = OPERATOR_DUNDERS[op]
    assert swapped is not None
    left, right = a.python_type(), b.python_type()
    subclass_first = left is not right and _is_subtype(right, left)
    if subclass_first:
        result = _call_operator_method(tx, b, swapped, a)
        if result is not None:
            return result
    result = _call_operator_method(tx, a, dunder, b)
    if result is not None or subclass_first:
        return result
    return _call_operator_method(tx, b, swapped, a)


def _overrides(
    tx: TranslatorBase, right: VariableTracker, left: VariableTracker, name: str
) -> bool:
    """Does `right`'s type define `name` otherwise than `left`'s (CPython asks before trying a
    subclass's reflected method first)?"""
    right_method, right_owner = _special(tx, right, name)
    left_method, left_owner = _special(tx, left, name)
    if right_owner is None:
        return False
    return left_owner is None or left_method is not right_method


def _call_operator_method(
    tx: TranslatorBase, receiver: VariableTracker, name: str, other: VariableTracker
) -> VariableTracker | None:
    """`receiver.<name>(other)` as the operator calls it: None where the method is missing or
    answers NotImplemented."""
    receiver = receiver.realize()
    if not isinstance(receiver, UserDefinedObjectVariable):
        kind = receiver.python_type()
        other = other.realize()
        if isinstance(other, UserDefinedObjectVariable) and _derives_from_a_c_type(other.cls):
            unimplemented(
                "operator",
                f"{name} of {receiver.type_name()} with a {other.cls.__name__} object, whose "
                "class derives from a type defined in C: the builtin's own method may take it "
                "through that type's protocol (bytes + a bytearray subclass concatenates)",
            )
        formats = kind in (str, bytes) and name == "__mod__"
        if name in _COMPARISON_DUNDERS or (kind in _REFUSING_BUILTINS and not formats):
            return None  # a builtin's method answers NotImplemented to a user object
        unimplemented(
            "operator",
            f"{name} of {receiver.type_name()} with a user object: the builtin's own method "
            "may use the object's protocol",
        )
    _method, owner = receiver.special_method(tx, name)
    if owner is None:
        return None
    if owner is object:
        if name == "__ne__":  # object's: the inverse of __eq__, unless that is NotImplemented
            equal = _call_operator_method(tx, receiver, "__eq__", other)
            return None if equal is None else ConstantVariable(not equal.realize().truthy(tx))
        return None  # object.__eq__ is the identity fallback (taken last); the rest refuse
    if owner.__module__ == "builtins":
        unimplemented("operator", f"{name} inherited from builtin {owner.__name__}")
    result = receiver.call_method(tx, name, [other], {})
    if result.is_python_constant() and result.as_python_constant() is NotImplemented:
        return None
    return result


def _derives_from_a_c_type(cls: type) -> bool:
    """Whether a class of `cls`'s MRO other than `object` is a type defined in C (`bytearray`,
    `int`, `array.array`: not made by a class statement, which makes a mutable heap type)."""
    return any(
        klass is not object
        and (not klass.__flags__ & _HEAP_TYPE or klass.__flags__ & IMMUTABLE_TYPE)
        for klass in cls.__mro__
    )


_HEAP_TYPE = 1 << 9
"""Py_TPFLAGS_HEAPTYPE: a type allocated at run time, as a class statement makes one."""
_COMPARISON_DUNDERS = frozenset({"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"})
"""A builtin's rich comparison answers NotImplemented to an object of an unrelated type."""


def raise_operator_error(
    tx: TranslatorBase, fn: Callable[..., Any], a: VariableTracker, b: VariableTracker
) -> NoReturn:
    """No operand handled `fn`: CPython's own TypeError, computed by running `fn` on stand-ins
    (a user object becomes an object of an empty class of the same name)."""
    repeats = fn in (operator.mul, operator.imul)
    if repeats and any(_defines(tx, vt, "__index__") for vt in (a, b)):
        unimplemented("operator", f"{fn.__name__} of a sequence by an object with __index__")
    raise_on_stand_ins(tx, fn, a, b)


def raise_on_stand_ins(
    tx: TranslatorBase, fn: Callable[..., Any], *args: VariableTracker
) -> NoReturn:
    """CPython's own TypeError for `fn(*args)` where a user object lacks the special method
    `fn` needs (`obj[i]` without `__getitem__`): `fn` run on stand-ins, a user object becoming
    an object of an empty class of the same name."""
    stand_ins: dict[type, Any] = {}
    operands = [_stand_in(vt.realize(), stand_ins) for vt in args]
    tx.run_user_operation(fn, *operands)
    unimplemented("operator", f"{fn.__name__} on stand-ins of {args!r} did not raise")


def lacks_special_method(tx: TranslatorBase, vt: VariableTracker, name: str) -> bool:
    """A user object whose class (where CPython looks special methods up) has no `name`
    (guarded either way)."""
    vt = vt.realize()
    return isinstance(vt, UserDefinedObjectVariable) and vt.special_method(tx, name)[1] is None


def _defines(tx: TranslatorBase, vt: VariableTracker, name: str) -> bool:
    vt = vt.realize()
    if isinstance(vt, TensorVariable):  # Tensor.__index__ decides on the tensor's data
        return hasattr(vt.python_type(), name)
    return isinstance(vt, UserDefinedObjectVariable) and vt.special_method(tx, name)[1] is not None


def _special(tx: TranslatorBase, vt: VariableTracker, name: str) -> tuple[Any, type | None]:
    """Special method `name` of `vt`'s type, pinned for a user object (the caller compares
    it, reading it nowhere else)."""
    vt = vt.realize()
    if isinstance(vt, UserDefinedObjectVariable):
        return lookup_special(tx, vt.cls, vt.class_source(), name, pin=True)
    return lookup_special(tx, vt.python_type(), None, name)


def _stand_in(vt: VariableTracker, stand_ins: dict[type, Any]) -> Any:
    """A user object, or a tensor whose operators declined, stands in as an object of an
    empty class of the same name: CPython's message names only the type."""
    if isinstance(vt, UserDefinedObjectVariable | TensorVariable):
        cls = vt.cls if isinstance(vt, UserDefinedObjectVariable) else vt.python_type()
        if cls not in stand_ins:
            stand_ins[cls] = type(cls.__name__, (), {})()
        return stand_ins[cls]
    try:
        return vt.as_python_constant()
    except NotConstantError:
        unimplemented("operator", f"the error of an operator on {vt!r}")
