"""Shape and dtype rules: the meta half of every op.

A meta function reads only shapes, dtypes and Python scalars, and raises every error the op can
raise before looking at values (with torch's wording). Real and fake tensors go through the
same meta function, which is what makes FakeTensor errors identical to real ones.
"""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Sequence
from typing import Any

from tracer.runtime import dtypes as dt
from tracer.runtime.dtypes import FLOATING, Scalar, dtype
from tracer.runtime.tensor import Tensor

Shape = tuple[int, ...]
Spec = tuple[Shape, dtype]
Operand = Tensor | Scalar
# How a strided walk visits one output dimension: (input stride, input positions).
Walk = list[tuple[int, range]]

_CPP_TYPE_NAME = {dt.float32: "float", dt.float64: "double", dt.int64: "long int", dt.bool_: "bool"}


def numel(shape: Shape) -> int:
    return math.prod(shape)


def contiguous_strides(shape: Shape) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def wrap_dim(dim: int, ndim: int) -> int:
    """A dim in [-ndim, ndim) as a non-negative index; 0-dim tensors accept -1 and 0."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def size_args(args: Sequence[Any], what: str = "size") -> Shape:
    """Accept sizes the way torch does: varargs ints or one tuple/list/Size."""
    if len(args) == 1 and isinstance(args[0], list | tuple):
        args = args[0]
    try:
        return tuple(s._to_index() if isinstance(s, Tensor) else operator.index(s) for s in args)
    except TypeError:
        got = ", ".join(type(s).__name__ for s in args)
        raise TypeError(f"{what} must be a tuple of ints, but got ({got})") from None


def format_shape(shape: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


# ---------------------------------------------------------------- broadcasting and promotion


def broadcast_shapes(a: Shape, b: Shape) -> Shape:
    """numpy/torch broadcasting of two shapes; `a` is "tensor a" in the error message."""
    if a == b:
        return a
    n = max(len(a), len(b))
    pa = (1,) * (n - len(a)) + a
    pb = (1,) * (n - len(b)) + b
    for i in range(n - 1, -1, -1):  # torch reports the rightmost mismatch
        x, y = pa[i], pb[i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                f"at non-singleton dimension {i}"
            )
    return tuple(y if x == 1 else x for x, y in zip(pa, pb, strict=True))


def shape_of(x: Operand) -> Shape:
    return x._shape if isinstance(x, Tensor) else ()


def result_type(*operands: Operand) -> dtype:
    """torch.result_type: promotion within each priority group (tensors with dims, 0-dim
    tensors, Python scalars), then a lower group wins only by bringing a higher category."""
    dims: dtype | None = None  # each group's promoted dtype, None while it has no operand
    zeros: dtype | None = None
    scalars: dtype | None = None
    for x in operands:
        if not isinstance(x, Tensor):
            found = dt.scalar_dtype(x)
            scalars = found if scalars is None else dt.promote_types(scalars, found)
        elif x._shape:
            dims = x._dtype if dims is None else dt.promote_types(dims, x._dtype)
        else:
            zeros = x._dtype if zeros is None else dt.promote_types(zeros, x._dtype)
    result = dt.combine_categories(dims, dt.combine_categories(zeros, scalars))
    if result is None:
        raise TypeError("result_type() needs at least one Tensor or number")
    return result


def dtype_of(x: Operand) -> dtype:
    return x._dtype if isinstance(x, Tensor) else dt.scalar_dtype(x)


# ---------------------------------------------------------------- elementwise ops

_INVERT_HINT = (
    "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."
)


def binary(a: Operand, b: Operand) -> tuple[Shape, dtype]:
    """Broadcast shape and the promoted dtype the values are computed in."""
    return broadcast_shapes(shape_of(a), shape_of(b)), result_type(a, b)


def add(a: Operand, b: Operand, alpha: Scalar) -> Spec:
    shape, common = binary(a, b)
    if isinstance(alpha, float) and not common.is_floating_point:
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    return shape, common


def sub(a: Operand, b: Operand, alpha: Scalar) -> Spec:
    kinds = (dtype_of(a) is dt.bool_, dtype_of(b) is dt.bool_)
    if all(kinds):
        raise RuntimeError(
            f"Subtraction, the `-` operator, with two bool tensors is not supported. {_INVERT_HINT}"
        )
    if any(kinds):
        raise RuntimeError(
            f"Subtraction, the `-` operator, with a bool tensor is not supported. {_INVERT_HINT}"
        )
    return add(a, b, alpha)


def div_compute_dtype(common: dtype) -> dtype:
    """True division computes (and returns) integers and bools in the default float dtype."""
    return common if common.is_floating_point else dt.float32


def where(cond: Tensor, a: Operand, b: Operand) -> Spec:
    if cond._dtype is not dt.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{cond._dtype.short_name}"
        )
    shape = broadcast_shapes(broadcast_shapes(cond._shape, shape_of(a)), shape_of(b))
    return shape, result_type(a, b)


def unary_float(x: Tensor) -> Spec:
    """Transcendental ops compute integers and bools in the default float dtype."""
    return x._shape, x._dtype if x._dtype.is_floating_point else dt.float32


def neg(x: Tensor) -> Spec:
    if x._dtype is dt.bool_:
        raise RuntimeError(
            f"Negation, the `-` operator, on a bool tensor is not supported. {_INVERT_HINT}"
        )
    return x._shape, x._dtype


def positive(x: Tensor) -> Spec:
    if x._dtype is dt.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return x._shape, x._dtype


def _no_kernel(kernel: str, common: dtype) -> NotImplementedError:
    """torch's error for a dtype its CPU kernel `kernel` is not built for."""
    return NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{common.short_name}'")


def floor_divide(a: Operand, b: Operand) -> Spec:
    shape, common = binary(a, b)
    if common is dt.bool_:
        raise _no_kernel("div_floor", common)
    return shape, common


def remainder(a: Operand, b: Operand) -> Spec:
    shape, common = binary(a, b)
    if common is dt.bool_:
        raise _no_kernel("remainder", common)
    return shape, common


def bitwise(kernel: str, a: Operand, b: Operand) -> Spec:
    """`&`, `|`, `^` (kernel `bitwise_and`...) on integers and bools; shifts (`lshift`,
    `rshift`) on integers only."""
    shape, common = binary(a, b)
    shift = kernel.endswith("shift")
    if common.is_floating_point or (shift and common is dt.bool_):
        raise _no_kernel(kernel, common)
    return shape, common


def bitwise_not(x: Tensor) -> Spec:
    if x._dtype.is_floating_point:
        raise _no_kernel("bitwise_not", x._dtype)
    return x._shape, x._dtype


# ---------------------------------------------------------------- reductions


def reduction_dims(shape: Shape, dim: int | Sequence[int] | None) -> tuple[int, ...]:
    """The sorted dims a reduction removes; None and () mean all of them."""
    ndim = len(shape)
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if not dims:
        return tuple(range(ndim))
    seen: set[int] = set()
    for d in dims:
        w = wrap_dim(d, ndim)
        if w in seen:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        seen.add(w)
    return tuple(sorted(seen)) if ndim else ()


def reduced_shape(shape: Shape, dims: tuple[int, ...], keepdim: bool) -> Shape:
    if keepdim:
        return tuple(1 if i in dims else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in dims)


def sum(x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Spec:
    out = x._dtype if x._dtype.category == FLOATING else dt.int64
    return reduced_shape(x._shape, dims, keepdim), out


def mean(x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Spec:
    if not x._dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {x._dtype.short_name}"
        )
    return reduced_shape(x._shape, dims, keepdim), x._dtype


def amax(x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Spec:
    for d in dims:
        if x._shape[d] == 0:
            raise IndexError(f"amax(): Expected reduction dim {d} to have non-zero size.")
    return reduced_shape(x._shape, dims, keepdim), x._dtype


def reduction_walk(shape: Shape, dims: tuple[int, ...]) -> Walk | None:
    """The walk that lists kept dims first and reduced dims last (None: already in order)."""
    kept = [i for i in range(len(shape)) if i not in dims]
    order = kept + list(dims)
    if order == sorted(order):
        return None
    strides = contiguous_strides(shape)
    return [(strides[i], range(shape[i])) for i in order]


# ---------------------------------------------------------------- linear algebra


def require_tensor(x: object, op: str, position: int, name: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(
            f"{op}(): argument '{name}' (position {position}) must be Tensor, "
            f"not {type(x).__name__}"
        )


def matmul(a: Tensor, b: Tensor) -> Spec:
    require_tensor(a, "matmul", 1, "input")
    require_tensor(b, "matmul", 2, "other")
    sa, sb = a._shape, b._shape
    if not sa or not sb:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {len(sa)}D "
            f"and {len(sb)}D"
        )
    if len(sa) > 2 or len(sb) > 2:
        raise NotImplementedError(
            f"modetrace matmul supports 1-D and 2-D operands only, got {len(sa)}D and {len(sb)}D"
        )
    if a._dtype is not b._dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_CPP_TYPE_NAME[a._dtype]} != {_CPP_TYPE_NAME[b._dtype]}"
        )
    mat1 = sa if len(sa) == 2 else (1, *sa)
    if len(sa) == 1 and len(sb) == 1:
        if sa != sb:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to have "
                f"the same number of elements, but got {sa[0]} and {sb[0]} elements respectively"
            )
        return (), a._dtype
    if len(sb) == 1:
        if sa[1] != sb[0]:
            raise RuntimeError(
                f"size mismatch, got input ({sa[0]}), mat ({sa[0]}x{sa[1]}), vec ({sb[0]})"
            )
        return (sa[0],), a._dtype
    if mat1[1] != sb[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1[0]}x{mat1[1]} and {sb[0]}x{sb[1]})"
        )
    return sa[:-1] + sb[1:], a._dtype


# ---------------------------------------------------------------- shape ops


def view_shape(x: Tensor, requested: Shape) -> Shape:
    """The requested shape with its -1 filled in, checked against the element count."""
    total = numel(x._shape)
    infer_at = None
    known = 1
    for i, s in enumerate(requested):
        if s == -1:
            if infer_at is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer_at = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
        else:
            known *= s
    if infer_at is None:
        if known != total:
            raise RuntimeError(
                f"shape '{format_shape(requested)}' is invalid for input of size {total}"
            )
        return requested
    if known == 0 or total % known:
        raise RuntimeError(
            f"shape '{format_shape(requested)}' is invalid for input of size {total}"
        )
    return requested[:infer_at] + (total // known,) + requested[infer_at + 1 :]


def permutation(x: Tensor, dims: Shape) -> tuple[int, ...]:
    ndim = len(x._shape)
    if len(dims) != ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{ndim} is not equal to len(dims) = {len(dims)}"
        )
    perm = tuple(wrap_dim(d, ndim) for d in dims)
    if len(set(perm)) != len(perm):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return perm


def transposition(x: Tensor, dim0: int, dim1: int) -> tuple[int, ...]:
    ndim = len(x._shape)
    d0, d1 = wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)
    perm = list(range(ndim))
    if ndim:
        perm[d0], perm[d1] = d1, d0
    return tuple(perm)


def permute_walk(shape: Shape, perm: tuple[int, ...]) -> Walk:
    strides = contiguous_strides(shape)
    return [(strides[p], range(shape[p])) for p in perm]


def unsqueeze(x: Tensor, dim: int) -> Shape:
    d = wrap_dim(dim, len(x._shape) + 1)
    return x._shape[:d] + (1,) + x._shape[d:]


def squeeze(x: Tensor, dim: int | Sequence[int] | None) -> Shape:
    shape = x._shape
    if dim is None:
        return tuple(s for s in shape if s != 1)
    dims = {wrap_dim(d, len(shape)) for d in ((dim,) if isinstance(dim, int) else dim)}
    return tuple(s for i, s in enumerate(shape) if not (i in dims and s == 1))


def unbind_dim(x: Tensor, dim: int) -> int:
    if not x._shape:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return wrap_dim(dim, len(x._shape))


def cat(tensors: Sequence[Tensor], dim: int) -> tuple[Shape, dtype, int]:
    """Output shape, promoted dtype and the wrapped concatenation dim."""
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    first = tensors[0]._shape
    for i, t in enumerate(tensors):
        if not t._shape:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
        if len(t._shape) != len(first):
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {len(first)} and {len(t._shape)}"
            )
    d = wrap_dim(dim, len(first))
    for i, t in enumerate(tensors):
        for j, (want, got) in enumerate(zip(first, t._shape, strict=True)):
            if j != d and want != got:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{want} but got size {got} for tensor number {i} in the list."
                )
    total = builtins.sum(t._shape[d] for t in tensors)
    common = dt.promote_all([t._dtype for t in tensors])
    assert common is not None
    return first[:d] + (total,) + first[d + 1 :], common, d


def stack(tensors: Sequence[Tensor], dim: int) -> int:
    """The wrapped insertion dim; stack is cat of the unsqueezed inputs."""
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._shape
    for i, t in enumerate(tensors):
        if t._shape != first:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {format_shape(first)} at "
                f"entry 0 and {format_shape(t._shape)} at entry {i}"
            )
    return wrap_dim(dim, len(first) + 1)
