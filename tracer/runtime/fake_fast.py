"""Fake results of the commonest ops, worked out directly from their shape and dtype rules.

Every tensor op a trace records runs once on FakeTensors to learn its result's metadata. For
the ops that dominate real models (arithmetic on two float tensors of one shape or on a float
tensor and a Python number, float unary ops, 2-D matmul, the sum of a whole float tensor) that
run is a chain of a dozen calls (public method, aten impl, meta function, broadcasting,
promotion, `_elementwise`, `_fake`, `_grad`) whose answer is obvious: the input's shape (none,
for the sum) and dtype. `FAST_FAKE` maps such an op's impl (`OpInfo.impl`) to a function that
returns that answer, or None when its arguments are not the plain case it knows, and then the
tracer runs the impl as before. The plain cases raise no error in the generic path, so the fast
answer is always the same tensor metadata and never hides an error;
tests/runtime/test_fake_fast.py checks both against each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer.runtime import aten
from tracer.runtime.fake import FakeTensor
from tracer.runtime.tensor import Tensor

FastFake = Callable[[tuple[Any, ...]], Tensor | None]
_object_new = object.__new__
"""Every fast answer builds its FakeTensor as `FakeTensor._make` would (runtime.tensor._new),
written out in place: one or two frames fewer for each of the commonest traced ops."""


def _binary(args: tuple[Any, ...]) -> Tensor | None:
    """Elementwise add/sub/mul/div of a float FakeTensor with a FakeTensor of the same shape
    and dtype, or with a Python int or float: the tensor's shape and dtype."""
    if len(args) != 2:
        return None
    a, b = args
    if type(a) is not FakeTensor:
        if type(b) is not FakeTensor or (type(a) is not float and type(a) is not int):
            return None
        a, b = b, a  # a number first (`torch.add(2, x)`, reflected dunders): same metadata
    return binary_pair(a, b)


def binary_pair(a: Any, b: Any) -> Tensor | None:
    """`_binary((a, b))` for the tensor first, as an operator's dunder sees its operands
    (OutputGraph.plain_operator calls it so, without packing a tuple)."""
    if type(a) is not FakeTensor:
        return None
    dtype = a._dtype
    if not dtype.is_floating_point:
        return None
    kind = type(b)
    if kind is FakeTensor:
        if b._dtype is not dtype or b._shape != a._shape:
            return None
        grad = bool(a.requires_grad or b.requires_grad)
    elif kind is float or kind is int:
        grad = bool(a.requires_grad)
    else:
        return None
    # FakeTensor._make, inline (see _object_new)
    result: Tensor = _object_new(FakeTensor)
    result._data = None
    result._shape = a._shape
    result._dtype = dtype
    result.requires_grad = grad
    return result


def _unary(args: tuple[Any, ...]) -> Tensor | None:
    """A float unary op (relu, sin, tanh, neg, ...) on a float FakeTensor: its metadata."""
    if len(args) != 1:
        return None
    (x,) = args
    if type(x) is not FakeTensor:
        return None
    dtype = x._dtype
    if not dtype.is_floating_point:
        return None
    result: Tensor = _object_new(FakeTensor)  # FakeTensor._make, inline (see _object_new)
    result._data = None
    result._shape = x._shape
    result._dtype = dtype
    result.requires_grad = bool(x.requires_grad)
    return result


def _sum_all(args: tuple[Any, ...]) -> Tensor | None:
    """`x.sum()` of a float FakeTensor, every element at once: `_unary`'s answer made 0-d."""
    result = _unary(args)
    if result is not None:
        result._shape = ()
    return result


def _matmul(args: tuple[Any, ...]) -> Tensor | None:
    """2-D float matmul with matching inner sizes and one dtype: (n, k) @ (k, m) is (n, m)."""
    if len(args) != 2:
        return None
    return matmul_pair(*args)


def matmul_pair(a: Any, b: Any) -> Tensor | None:
    """`_matmul((a, b))` without the tuple."""
    if type(a) is not FakeTensor or type(b) is not FakeTensor:
        return None
    sa, sb, dtype = a._shape, b._shape, a._dtype
    if len(sa) != 2 or len(sb) != 2 or sa[1] != sb[0]:
        return None
    if b._dtype is not dtype or not dtype.is_floating_point:
        return None
    result: Tensor = _object_new(FakeTensor)  # FakeTensor._make, inline (see _object_new)
    result._data = None
    result._shape = (sa[0], sb[1])
    result._dtype = dtype
    result.requires_grad = bool(a.requires_grad or b.requires_grad)
    return result


_BINARY = ("add", "sub", "mul", "div")
_BINARY_METHODS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                   "__truediv__", "__rtruediv__")  # fmt: skip
_UNARY = ("relu", "sin", "cos", "exp", "log", "sqrt", "tanh", "sigmoid", "neg", "abs")


def _impl_of(op: Any) -> Callable[..., Any]:
    impl: Callable[..., Any] = op.__modetrace_op__.impl
    return impl


def _table() -> dict[Callable[..., Any], FastFake]:
    """impl -> fast path, for the public functions and Tensor methods of each family."""
    from tracer.runtime import ops

    families: list[tuple[tuple[str, ...], tuple[str, ...], FastFake]] = [
        (_BINARY, _BINARY_METHODS, _binary),
        (_UNARY, ("__neg__", "__abs__"), _unary),
        (("sum",), (), _sum_all),
        (("matmul",), ("__matmul__",), _matmul),
    ]
    table: dict[Callable[..., Any], FastFake] = {}
    for names, dunders, fast in families:
        for name in names:
            table[getattr(aten, name)] = fast
            table[_impl_of(getattr(ops, name))] = fast
        for name in (*names, *dunders):
            table[_impl_of(getattr(Tensor, name))] = fast
    return table


FAST_FAKE: dict[Callable[..., Any], FastFake] = _table()
"""Op impl -> the function giving its fake result directly (None: not the plain case)."""

PAIRS: dict[FastFake, Callable[[Any, Any], Tensor | None]] = {
    _binary: binary_pair,
    _matmul: matmul_pair,
}
"""A two-operand fast function -> the same answer for a tensor first operand, given the two
operands as arguments (what OutputGraph.plain_operator calls)."""
