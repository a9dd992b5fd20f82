"""Basic indexing (`x[1]`, `x[:, ::2]`, `x[None, ..., 0]`): the meta half of `__getitem__`.

An index is planned from the shape alone into an output shape plus a strided walk, so a fake
tensor gets the same shape and the same IndexError as a real one, and the kernel only gathers.
Advanced (tensor) indexing is not supported: its result would depend on values.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

from tracer.runtime.meta import Shape, Walk, contiguous_strides
from tracer.runtime.tensor import Tensor

_VALID = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
    "indices"
)


@dataclasses.dataclass(frozen=True, slots=True)
class IndexPlan:
    """Where `x[index]` reads from: element `base` plus, per output dim, a stride and positions.

    >>> plan_index((2, 3), (slice(None), 1))
    IndexPlan(shape=(2,), base=1, walk=[(3, range(0, 2))])
    """

    shape: Shape
    base: int
    walk: Walk


def _as_int(item: Any) -> int | None:
    """The integer an index item stands for, or None if it is not an integer index."""
    if isinstance(item, bool):
        raise IndexError(f"{_VALID} (got bool)")
    if isinstance(item, int):
        return item
    if isinstance(item, Tensor):
        if item._shape or item._dtype.is_floating_point or item._dtype.category == 0:
            raise IndexError("modetrace supports only integer 0-dim tensors as indices")
        return item._to_index()  # fake tensors raise DataDependentError here
    return None


def plan_index(shape: Shape, index: Any) -> IndexPlan:
    items = index if isinstance(index, tuple) else (index,)
    ellipses = sum(1 for it in items if it is Ellipsis)
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(1 for it in items if it is not None and it is not Ellipsis)
    if consumed > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    strides = contiguous_strides(shape)
    out: list[int] = []
    walk: Walk = []
    base = 0
    d = 0
    for item in items:
        if item is None:
            out.append(1)
            walk.append((0, range(1)))
        elif item is Ellipsis:
            for _ in range(len(shape) - consumed):
                out.append(shape[d])
                walk.append((strides[d], range(shape[d])))
                d += 1
        elif isinstance(item, slice):
            if item.step is not None and operator.index(item.step) <= 0:
                raise ValueError("step must be greater than zero")
            positions = range(shape[d])[item]
            out.append(len(positions))
            walk.append((strides[d], positions))
            d += 1
        else:
            i = _as_int(item)
            if i is None:
                raise IndexError(f"{_VALID} (got {type(item).__name__})")
            if not -shape[d] <= i < shape[d]:
                raise IndexError(
                    f"index {i} is out of bounds for dimension {d} with size {shape[d]}"
                )
            base += (i % shape[d]) * strides[d]
            d += 1
    for rest in range(d, len(shape)):
        out.append(shape[rest])
        walk.append((strides[rest], range(shape[rest])))
    return IndexPlan(tuple(out), base, walk)
