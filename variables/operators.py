"""How Python's error messages spell operators (the methods they call are
`tracer.graph.resolve.OPERATOR_DUNDERS`), and `is` between two trackers (`identical`), which
IS_OP and `==`'s identity fallback both ask."""

from __future__ import annotations

import operator

from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.tensor import TensorVariable

OPERATOR_SYMBOLS = {
    operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
    operator.floordiv: "//", operator.mod: "%", operator.pow: "** or pow()",
    operator.matmul: "@", operator.and_: "&", operator.or_: "|", operator.xor: "^",
    operator.lshift: "<<", operator.rshift: ">>", operator.neg: "unary -",
    operator.pos: "unary +", operator.invert: "unary ~", operator.abs: "abs()",
}  # fmt: skip
"""operator function -> how Python's error messages spell it."""

_COMPARISON_SYMBOLS = {operator.lt: "<", operator.le: "<=", operator.gt: ">", operator.ge: ">="}


def operator_type_error(fn: object, plain: object, left: str, right: str) -> TypeError:
    """The TypeError CPython raises when no operand handles `fn` (`plain` is its non-in-place
    form; `left` and `right` are the operands' type names)."""
    comparison = _COMPARISON_SYMBOLS.get(plain)  # type: ignore[call-overload]
    if comparison is not None:
        return TypeError(
            f"'{comparison}' not supported between instances of '{left}' and '{right}'"
        )
    symbol = OPERATOR_SYMBOLS.get(plain, getattr(plain, "__name__", "?"))  # type: ignore[call-overload]
    if fn is not plain:  # `a += b`: CPython names the in-place operator
        symbol = symbol.split(" ")[0] + "="
    return TypeError(f"unsupported operand type(s) for {symbol}: '{left}' and '{right}'")


_SINGLETONS = (type(None), bool, type(Ellipsis), type(NotImplemented))
_VALUE_TYPES = (int, float, complex, str, bytes, tuple, frozenset, list, dict, set, slice, range)
"""Types whose identity CPython does not define for equal values (`is` on them is a guess)."""


def identical(left: VariableTracker, right: VariableTracker) -> bool:
    """`left is right`, decided only where identity is known while tracing."""
    if left is right:
        return True
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


def _known_type(vt: VariableTracker) -> type | None:
    try:
        return vt.python_type()
    except Exception:  # noqa: BLE001
        return None
