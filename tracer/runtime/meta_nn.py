"""Shape and dtype rules of the ops model code needs (`softmax`, `max(dim)`, `expand`,
`einsum`, `layer_norm`...): the meta half of `aten_nn`, with torch's error wording."""

from __future__ import annotations

from collections.abc import Sequence

from tracer.runtime import dtypes as dt
from tracer.runtime.meta import Shape, broadcast_shapes, format_shape, wrap_dim
from tracer.runtime.tensor import Tensor


def softmax_input(x: Tensor, op: str) -> None:
    if not x._dtype.is_floating_point:
        raise RuntimeError(
            f"\"{op}_lastdim_kernel_impl\" not implemented for '{x._dtype.short_name}'"
        )


def dim_reduce(x: Tensor, dim: int, keepdim: bool, op: str) -> tuple[int, Shape]:
    """The wrapped dim and the result shape of a reduction along one dim (`max(x, 1)`)."""
    d = wrap_dim(dim, len(x._shape)) if x._shape else 0
    if x._shape and x._shape[d] == 0:
        raise IndexError(f"{op}(): Expected reduction dim {d} to have non-zero size.")
    if not x._shape:
        return d, ()
    if keepdim:
        return d, tuple(1 if i == d else s for i, s in enumerate(x._shape))
    return d, tuple(s for i, s in enumerate(x._shape) if i != d)


def masked_fill(x: Tensor, mask: Tensor) -> None:
    if mask._dtype is not dt.bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {mask._dtype.name}"
        )
    if broadcast_shapes(x._shape, mask._shape) != x._shape:
        raise RuntimeError(
            f"output with shape {format_shape(x._shape)} doesn't match the broadcast shape "
            f"{format_shape(broadcast_shapes(x._shape, mask._shape))}"
        )


def expand(x: Tensor, sizes: Shape) -> Shape:
    if len(sizes) < len(x._shape):
        raise RuntimeError(
            f"expand({x._dtype.short_name}Type{{{format_shape(x._shape)[1:-1]}}}, "
            f"size={format_shape(sizes)}): the number of sizes provided ({len(sizes)}) must be "
            f"greater or equal to the number of dimensions in the tensor ({len(x._shape)})"
        )
    padded = (1,) * (len(sizes) - len(x._shape)) + x._shape
    out = []
    for i, (have, want) in enumerate(zip(padded, sizes, strict=True)):
        if want == -1:
            if i < len(sizes) - len(x._shape):
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
            want = have
        if have != want and have != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({want}) must match the existing size "
                f"({have}) at non-singleton dimension {i}.  Target sizes: "
                f"{format_shape(sizes)}.  Tensor sizes: {format_shape(x._shape)}"
            )
        out.append(want)
    return tuple(out)


def repeat(x: Tensor, repeats: Shape) -> Shape:
    if len(repeats) < len(x._shape):
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions "
            "of tensor"
        )
    padded = (1,) * (len(repeats) - len(x._shape)) + x._shape
    return tuple(s * r for s, r in zip(padded, repeats, strict=True))


def split_sizes(x: Tensor, split: int | Sequence[int], dim: int) -> tuple[int, list[int]]:
    """The wrapped dim and the size of each piece."""
    d = wrap_dim(dim, len(x._shape))
    n = x._shape[d]
    if isinstance(split, int):
        if split < 0 or (split == 0 and n != 0):
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
            )
        if n == 0:
            return d, [0]
        return d, [min(split, n - start) for start in range(0, n, split)]
    sizes = list(split)
    if sum(sizes) != n:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
            f"at dimension {d}), but got split_sizes={format_shape(sizes)}"
        )
    return d, sizes


def chunk_size(x: Tensor, chunks: int, dim: int) -> int:
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = x._shape[wrap_dim(dim, len(x._shape))]
    return max(-(-n // chunks), 1) if n else 0


def bmm(a: Tensor, b: Tensor) -> Shape:
    if len(a._shape) != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if len(b._shape) != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b._shape[:2] != (a._shape[0], a._shape[2]):
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a._shape[0]}, {a._shape[2]}] but got: [{b._shape[0]}, {b._shape[1]}]."
        )
    if a._dtype is not b._dtype:
        raise RuntimeError(
            f"expected scalar type {a._dtype.short_name} but found {b._dtype.short_name}"
        )
    return (a._shape[0], a._shape[1], b._shape[2])


def einsum(equation: str, operands: Sequence[Tensor]) -> tuple[list[str], str, dict[str, int]]:
    """The operands' subscripts, the output's, and each letter's size."""
    equation = equation.replace(" ", "")
    if "." in equation:
        raise NotImplementedError("modetrace einsum does not support '...' (ellipsis)")
    lhs, arrow, output = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if len(operands) > len(terms)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    if not arrow:
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    sizes: dict[str, int] = {}
    for i, (term, x) in enumerate(zip(terms, operands, strict=True)):
        if len(term) != len(x._shape):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(term)}) does not "
                f"match the number of dimensions ({len(x._shape)}) for operand {i} and no "
                "ellipsis was given"
            )
        for c, s in zip(term, x._shape, strict=True):
            if sizes.setdefault(c, s) != s:
                raise RuntimeError(
                    f"einsum(): subscript {c} has size {s} for operand {i} which does not "
                    f"broadcast with previously seen size {sizes[c]}"
                )
    for c in output:
        if c not in sizes:
            raise RuntimeError(
                f"einsum(): output subscript {c} does not appear in the equation for any "
                "input operand"
            )
    return terms, output, sizes


def layer_norm(x: Tensor, normalized_shape: Shape) -> tuple[int, ...]:
    """The dims layer_norm normalizes over (the trailing `normalized_shape`)."""
    k = len(normalized_shape)
    if k == 0 or x._shape[len(x._shape) - k :] != normalized_shape or len(x._shape) < k:
        raise RuntimeError(
            f"Given normalized_shape={format_shape(normalized_shape)}, expected input with "
            f"shape [*, {format_shape(normalized_shape)[1:]}, but got input of size"
            f"{format_shape(x._shape)}"
        )
    return tuple(range(len(x._shape) - k, len(x._shape)))


def embedding(indices: Tensor, weight: Tensor) -> Shape:
    if indices._dtype is not dt.int64:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{indices._dtype.short_name}Tensor instead (while "
            "checking arguments for embedding)"
        )
    if len(weight._shape) != 2:
        raise RuntimeError("'weight' must be 2-D")
    return (*indices._shape, weight._shape[1])


def pad(x: Tensor, pads: Sequence[int], mode: str) -> list[tuple[int, int]]:
    """(before, after) per dim, first dim first."""
    if mode != "constant":
        raise NotImplementedError(f"modetrace pad supports mode='constant' only, got {mode!r}")
    if len(pads) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pads) // 2 > len(x._shape):
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(pads)} and input of dimension {len(x._shape)}"
        )
    per_dim = [(0, 0)] * len(x._shape)
    for i in range(len(pads) // 2):
        per_dim[len(x._shape) - 1 - i] = (pads[2 * i], pads[2 * i + 1])
    for d, (before, after) in enumerate(per_dim):
        if x._shape[d] + before + after < 0:
            raise RuntimeError(
                f"The input size {x._shape[d]}, plus negative padding {before} and {after} "
                f"resulted in a negative output size, which is invalid. Check dimension {d} of "
                "your input."
            )
    return per_dim


def loss_reduction(shape: Shape, reduction: str) -> Shape:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return shape if reduction == "none" else ()
