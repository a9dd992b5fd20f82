"""Which runtime `impl` a call reaches, so compiled graphs skip torch-function mode dispatch.

A recorded `x.sin()` or `x + y` would go through the public op, which consults the mode stack;
the graph must compute, not dispatch. Given the operand types (from `meta["val"]` at codegen,
from the values themselves in the Interpreter) these helpers find the OpInfo Python's own
lookup would reach, or None when the call should stay a plain Python call.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from tracer.graph.naming import target_op
from tracer.graph.node import Argument, Node

OPERATOR_DUNDERS: dict[Callable[..., Any], tuple[str, str | None]] = {
    operator.add: ("__add__", "__radd__"),
    operator.sub: ("__sub__", "__rsub__"),
    operator.mul: ("__mul__", "__rmul__"),
    operator.truediv: ("__truediv__", "__rtruediv__"),
    operator.floordiv: ("__floordiv__", "__rfloordiv__"),
    operator.mod: ("__mod__", "__rmod__"),
    operator.pow: ("__pow__", "__rpow__"),
    operator.matmul: ("__matmul__", "__rmatmul__"),
    operator.and_: ("__and__", "__rand__"),
    operator.or_: ("__or__", "__ror__"),
    operator.xor: ("__xor__", "__rxor__"),
    operator.lshift: ("__lshift__", "__rlshift__"),
    operator.rshift: ("__rshift__", "__rrshift__"),
    operator.eq: ("__eq__", "__eq__"),
    operator.ne: ("__ne__", "__ne__"),
    operator.lt: ("__lt__", "__gt__"),
    operator.le: ("__le__", "__ge__"),
    operator.gt: ("__gt__", "__lt__"),
    operator.ge: ("__ge__", "__le__"),
    operator.getitem: ("__getitem__", None),
    operator.neg: ("__neg__", None),
    operator.pos: ("__pos__", None),
    operator.abs: ("__abs__", None),
    operator.invert: ("__invert__", None),
}
"""operator function -> (method on the left operand, reflected method on the right operand).
The one table of what Python's operators call: graph codegen resolves with it, the trackers
(variables/) and the output graph dispatch user-defined operators with it."""
_UNARY = frozenset({operator.neg, operator.pos, operator.abs, operator.invert})
_PLAIN_SCALARS = (int, float, bool, complex)
_NO_VAL = object()


def method_op(cls: type | None, method_name: str) -> Any | None:
    """The OpInfo of `cls.<method_name>` when it is a runtime op, else None."""
    if cls is None:
        return None
    return target_op(getattr(cls, method_name, None))


def resolve_operator(target: Any, types: list[type | None]) -> tuple[Any, bool] | None:
    """(OpInfo, reflected) for an `operator` function applied to operands of these types.

    Follows Python's order for the cases the graph meets: the left operand's method, or, when
    the left operand is a plain Python number, the right operand's reflected method (called
    with the operands swapped). None means "call the operator function itself".
    """
    try:
        names = OPERATOR_DUNDERS.get(target)
    except TypeError:  # an unhashable callable
        return None
    if names is None or len(types) != (1 if target in _UNARY else 2):
        return None
    forward, reflected = names
    if (info := method_op(types[0], forward)) is not None:
        return info, False
    if reflected is not None and types[0] in _PLAIN_SCALARS:
        info = method_op(types[1], reflected)
        return None if info is None else (info, True)
    return None


def static_type(arg: Argument) -> type | None:
    """The type `arg` will have at run time, as far as codegen can tell (None if unknown)."""
    if not isinstance(arg, Node):
        return type(arg)
    meta = arg.meta
    if "val" in meta:
        return type(meta["val"])
    graph = arg.graph if arg.op == "get_attr" else None
    if graph is not None and arg.target in graph.constants:
        return type(graph.constants[str(arg.target)])
    return None


def resolve_method(receiver: Argument, method_name: str) -> Any | None:
    """The OpInfo a call_method node reaches, judged from its receiver's static type (the
    usual receiver, a node with its fake value, read here without the general route)."""
    if isinstance(receiver, Node):
        val = receiver.meta.get("val", _NO_VAL)
        cls = type(val) if val is not _NO_VAL else static_type(receiver)
    else:
        cls = type(receiver)
    if cls is None:
        return None
    return target_op(getattr(cls, method_name, None))
