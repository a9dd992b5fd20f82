"""The mode-free implementations of every op: meta function first, then kernel (if real).

Each function here is the `impl` of a public op (`OpInfo.impl`): it never looks at the mode
stack. Each runs its meta function from `meta`/`indexing` first, returns a FakeTensor when any
input is fake, and otherwise converts operands to the compute dtype and calls `kernels`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

from tracer.runtime import dtypes as dt
from tracer.runtime import grad_mode, kernels, meta
from tracer.runtime.dtypes import Scalar, dtype
from tracer.runtime.fake import FakeTensor, is_fake
from tracer.runtime.indexing import plan_index
from tracer.runtime.meta import Operand, Shape
from tracer.runtime.tensor import Tensor

Dims = int | Sequence[int] | None

# NOTE: `sum`, `abs` and `pow` below shadow the builtins in this module on purpose (torch's
# names); nothing here needs the builtins, kernels use them.


def _grad(out: dtype, *inputs: Any) -> bool:
    """Outputs of float ops on inputs that require grad require grad too, in grad mode
    (metadata only: there is no autograd)."""
    for x in inputs:  # the inputs first: the grad mode is read only when one requires grad
        if isinstance(x, Tensor) and x.requires_grad:
            return out.is_floating_point and grad_mode.is_grad_enabled()
    return False


def _fake(shape: Shape, out: dtype, *inputs: Any) -> Tensor:
    return FakeTensor._make(None, shape, out, _grad(out, *inputs))


def _check_scalars(compute: dtype, *operands: Operand) -> None:
    """On fake inputs, what the real op does first to a Python number operand: convert it, so
    that one it cannot hold (10 ** 400 in float) raises as it would."""
    for x in operands:
        if not isinstance(x, Tensor):
            kernels.convert_scalar(x, compute)


def _store(values: list[Any], out: dtype, exact: bool) -> list[Any]:
    """Values computed in double (or as Python ints) in `out`'s stored form."""
    if out is dt.float32:
        return kernels.round_f32(values)
    if out is dt.bool_ and not exact:
        return [x != 0 for x in values]
    return values


def _operand(x: Operand, compute: dtype, shape: Shape) -> Any:
    """One value per output element as a list, or one value that stands for all of them."""
    if not isinstance(x, Tensor):
        return kernels.convert_scalar(x, compute)
    values = x._data  # (a view's values are gathered on each read)
    assert values is not None
    data = kernels.convert(values, x._dtype, compute)
    if len(data) == 1:
        return data[0]
    return kernels.expand(data, x._shape, shape)


def _elementwise(
    fn: Callable[[Any, Any], Any],
    a: Operand,
    b: Operand,
    shape: Shape,
    compute: dtype,
    out: dtype,
) -> Tensor:
    if is_fake(a, b):
        _check_scalars(compute, a, b)
        return _fake(shape, out, a, b)
    values = kernels.elementwise(
        fn, _operand(a, compute, shape), _operand(b, compute, shape), meta.numel(shape)
    )
    return Tensor._make(_store(values, out, out is not compute), shape, out, _grad(out, a, b))


# ---------------------------------------------------------------- binary arithmetic


def _scaled(op: Callable[[Any, Any], Any], alpha: Scalar, compute: dtype) -> Callable[..., Any]:
    if alpha == 1:
        return op
    factor = kernels.convert_scalar(alpha, compute)
    return lambda x, y: op(x, factor * y)


def add(input: Operand, other: Operand, *, alpha: Scalar = 1) -> Tensor:
    shape, common = meta.add(input, other, alpha)
    return _elementwise(_scaled(operator.add, alpha, common), input, other, shape, common, common)


def sub(input: Operand, other: Operand, *, alpha: Scalar = 1) -> Tensor:
    shape, common = meta.sub(input, other, alpha)
    return _elementwise(_scaled(operator.sub, alpha, common), input, other, shape, common, common)


def mul(input: Operand, other: Operand) -> Tensor:
    shape, common = meta.binary(input, other)
    return _elementwise(operator.mul, input, other, shape, common, common)


def div(input: Operand, other: Operand) -> Tensor:
    shape, common = meta.binary(input, other)
    compute = meta.div_compute_dtype(common)
    return _elementwise(kernels.div, input, other, shape, compute, compute)


def pow(input: Operand, exponent: Operand) -> Tensor:
    shape, common = meta.binary(input, exponent)
    fn = kernels.float_pow if common.is_floating_point else kernels.int_pow
    return _elementwise(fn, input, exponent, shape, common, common)


def maximum(input: Operand, other: Operand) -> Tensor:
    shape, common = meta.binary(input, other)
    return _elementwise(kernels.maximum, input, other, shape, common, common)


def minimum(input: Operand, other: Operand) -> Tensor:
    shape, common = meta.binary(input, other)
    return _elementwise(kernels.minimum, input, other, shape, common, common)


def floor_divide(input: Operand, other: Operand) -> Tensor:
    shape, common = meta.floor_divide(input, other)
    fn = kernels.float_floor_divide if common.is_floating_point else kernels.int_floor_divide
    return _elementwise(fn, input, other, shape, common, common)


def remainder(input: Operand, other: Operand) -> Tensor:
    shape, common = meta.remainder(input, other)
    fn = kernels.float_remainder if common.is_floating_point else kernels.int_remainder
    return _elementwise(fn, input, other, shape, common, common)


# ---------------------------------------------------------------- bitwise (integers and bools)


def _bitwise(kernel: str, fn: Callable[[Any, Any], Any], a: Operand, b: Operand) -> Tensor:
    shape, common = meta.bitwise(kernel, a, b)
    return _elementwise(fn, a, b, shape, common, common)


def bitwise_and(input: Operand, other: Operand) -> Tensor:
    return _bitwise("bitwise_and", operator.and_, input, other)


def bitwise_or(input: Operand, other: Operand) -> Tensor:
    return _bitwise("bitwise_or", operator.or_, input, other)


def bitwise_xor(input: Operand, other: Operand) -> Tensor:
    return _bitwise("bitwise_xor", operator.xor, input, other)


def bitwise_left_shift(input: Operand, other: Operand) -> Tensor:
    return _bitwise("lshift", kernels.lshift, input, other)


def bitwise_right_shift(input: Operand, other: Operand) -> Tensor:
    return _bitwise("rshift", kernels.rshift, input, other)


# ---------------------------------------------------------------- comparisons


def _compare(fn: Callable[[Any, Any], bool], a: Operand, b: Operand) -> Tensor:
    shape, common = meta.binary(a, b)
    return _elementwise(fn, a, b, shape, common, dt.bool_)


def eq(input: Operand, other: Operand) -> Tensor:
    return _compare(operator.eq, input, other)


def ne(input: Operand, other: Operand) -> Tensor:
    return _compare(operator.ne, input, other)


def lt(input: Operand, other: Operand) -> Tensor:
    return _compare(operator.lt, input, other)


def le(input: Operand, other: Operand) -> Tensor:
    return _compare(operator.le, input, other)


def gt(input: Operand, other: Operand) -> Tensor:
    return _compare(operator.gt, input, other)


def ge(input: Operand, other: Operand) -> Tensor:
    return _compare(operator.ge, input, other)


def where(condition: Tensor, input: Operand, other: Operand) -> Tensor:
    shape, out = meta.where(condition, input, other)
    if is_fake(condition, input, other):
        _check_scalars(out, input, other)
        return _fake(shape, out, input, other)
    n = meta.numel(shape)
    cond, a, b = (
        v if isinstance(v, list) else [v] * n
        for v in (
            _operand(condition, dt.bool_, shape),
            _operand(input, out, shape),
            _operand(other, out, shape),
        )
    )
    values = [x if c else y for c, x, y in zip(cond, a, b, strict=True)]
    return Tensor._make(values, shape, out, _grad(out, input, other))


# ---------------------------------------------------------------- unary


def _unary(x: Tensor, out: dtype, compute: Callable[[list[Any]], list[Any]]) -> Tensor:
    if x._data is None:
        return _fake(x._shape, out, x)
    data = kernels.convert(x._data, x._dtype, out)
    return Tensor._make(compute(data), x._shape, out, _grad(out, x))


def _unary_float(name: str, x: Tensor) -> Tensor:
    _, out = meta.unary_float(x)
    exact = out is not dt.float32
    return _unary(x, out, lambda d: _store(kernels.unary_float(name, d), out, exact))


def exp(input: Tensor) -> Tensor:
    return _unary_float("exp", input)


def log(input: Tensor) -> Tensor:
    return _unary_float("log", input)


def sqrt(input: Tensor) -> Tensor:
    return _unary_float("sqrt", input)


def sin(input: Tensor) -> Tensor:
    return _unary_float("sin", input)


def cos(input: Tensor) -> Tensor:
    return _unary_float("cos", input)


def tanh(input: Tensor) -> Tensor:
    return _unary_float("tanh", input)


def sigmoid(input: Tensor) -> Tensor:
    return _unary_float("sigmoid", input)


def neg(input: Tensor) -> Tensor:
    _, out = meta.neg(input)
    return _unary(input, out, kernels.neg)


def positive(input: Tensor) -> Tensor:
    _, out = meta.positive(input)
    return _unary(input, out, lambda d: d)


def bitwise_not(input: Tensor) -> Tensor:
    _, out = meta.bitwise_not(input)
    return _unary(input, out, kernels.bitwise_not)


def abs(input: Tensor) -> Tensor:
    out = input._dtype
    return _unary(input, out, (lambda d: d) if out is dt.bool_ else kernels.absolute)


def relu(input: Tensor) -> Tensor:
    out = input._dtype
    if out is dt.bool_:
        return _unary(input, out, lambda d: d)
    zero = 0.0 if out.is_floating_point else 0
    return _unary(input, out, lambda d: kernels.relu(d, zero))


# ---------------------------------------------------------------- reductions


def _reduce(
    x: Tensor,
    dims: tuple[int, ...],
    spec: tuple[Shape, dtype],
    fn: Callable[[list[Any]], Any],
    exact: bool,
) -> Tensor:
    shape, out = spec
    if x._data is None:
        return _fake(shape, out, x)
    data = x._data if x._dtype.is_floating_point else kernels.convert(x._data, x._dtype, dt.int64)
    walk = meta.reduction_walk(x._shape, dims)
    if walk is not None:
        data = kernels.gather(data, 0, walk)
    chunk = meta.numel(tuple(x._shape[d] for d in dims))
    groups = meta.numel(tuple(s for i, s in enumerate(x._shape) if i not in dims))
    values = kernels.reduce(fn, data, chunk, groups)
    return Tensor._make(_store(values, out, exact), shape, out, _grad(out, x))


def sum(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
    dims = meta.reduction_dims(input._shape, dim)
    return _reduce(input, dims, meta.sum(input, dims, keepdim), kernels.total, True)


def mean(input: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
    dims = meta.reduction_dims(input._shape, dim)
    return _reduce(input, dims, meta.mean(input, dims, keepdim), kernels.mean, True)


def amax(input: Tensor, dim: int | Sequence[int] = (), keepdim: bool = False) -> Tensor:
    dims = meta.reduction_dims(input._shape, dim)
    spec = meta.amax(input, dims, keepdim)
    return _reduce(input, dims, spec, kernels.amax, input._dtype is not dt.bool_)


# ---------------------------------------------------------------- matmul


def matmul(input: Tensor, other: Tensor) -> Tensor:
    shape, out = meta.matmul(input, other)
    if is_fake(input, other):
        return _fake(shape, out, input, other)
    assert input._data is not None and other._data is not None
    n, k = input._shape if len(input._shape) == 2 else (1, input._shape[0])
    m = other._shape[1] if len(other._shape) == 2 else 1
    values = kernels.matmul(input._data, other._data, n, k, m)
    return Tensor._make(_store(values, out, False), shape, out, _grad(out, input, other))


# ---------------------------------------------------------------- shapes


def _restride(x: Tensor, shape: Shape) -> Tensor:
    """A view of the same elements in the same order under a new shape (views keep their
    base's requires_grad, even under no_grad, as in torch)."""
    return x._view_as(shape, None, x.requires_grad)


def view(input: Tensor, shape: Sequence[int]) -> Tensor:
    return _restride(input, meta.view_shape(input, meta.size_args([shape], "shape")))


def reshape(input: Tensor, shape: Sequence[int]) -> Tensor:
    """A view where the elements are consecutive in storage, else a copy (as torch's)."""
    new_shape = meta.view_shape(input, meta.size_args([shape], "shape"))
    if new_shape == input._shape or input._is_contiguous():
        return _restride(input, new_shape)
    return _restride(clone(input), new_shape)


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    return _restride(input, meta.unsqueeze(input, dim))


def squeeze(input: Tensor, dim: Dims = None) -> Tensor:
    return _restride(input, meta.squeeze(input, dim))


def _permuted(x: Tensor, perm: tuple[int, ...]) -> Tensor:
    shape = tuple(x._shape[p] for p in perm)
    if perm == tuple(range(len(perm))):
        return _restride(x, shape)
    order = kernels.gather(list(range(meta.numel(x._shape))), 0, meta.permute_walk(x._shape, perm))
    return x._view_as(shape, order, x.requires_grad)


def permute(input: Tensor, dims: Sequence[int]) -> Tensor:
    return _permuted(input, meta.permutation(input, tuple(dims)))


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    return _permuted(input, meta.transposition(input, dim0, dim1))


def cat(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    shape, out, d = meta.cat(tensors, dim)
    if is_fake(*tensors):
        return _fake(shape, out, *tensors)
    outer = meta.numel(shape[:d])
    chunks = [
        (kernels.convert(t._data, t._dtype, out), meta.numel(t._shape[d:]))
        for t in tensors
        if t._data is not None
    ]
    return Tensor._make(kernels.concat(chunks, outer), shape, out, _grad(out, *tensors))


def stack(tensors: Sequence[Tensor], dim: int = 0) -> Tensor:
    d = meta.stack(tensors, dim)
    return cat([unsqueeze(t, d) for t in tensors], d)


def getitem(input: Tensor, index: Any) -> Tensor:
    """A view (basic indexing only)."""
    plan = plan_index(input._shape, index)
    order = kernels.gather(list(range(meta.numel(input._shape))), plan.base, plan.walk)
    return input._view_as(plan.shape, order, input.requires_grad)


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along `dim`, each without that dimension."""
    d = meta.unbind_dim(input, dim)
    before = (slice(None),) * d
    return tuple(getitem(input, (*before, i)) for i in range(input._shape[d]))


# ---------------------------------------------------------------- copies and dtypes


def clone(input: Tensor) -> Tensor:
    """A copy in a storage of its own."""
    return input._result_type()._make(
        input._data, input._shape, input._dtype, _grad(input._dtype, input)
    )


def detach(input: Tensor) -> Tensor:
    """A view that does not require grad (it shares storage and version counter)."""
    return input._view_as(input._shape, None, False)


def to(input: Tensor, dtype: dtype) -> Tensor:
    if dtype is input._dtype:
        return input
    data = None if input._data is None else kernels.convert(input._data, input._dtype, dtype)
    return input._result_type()._make(data, input._shape, dtype, _grad(dtype, input))
