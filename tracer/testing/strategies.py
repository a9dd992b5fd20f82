"""Hypothesis strategies for guard and tracer tests: runtime tensors, scalars, nested inputs,
mode stacks, and perturbations that change exactly one guarded property of a value.

Values print readably in falsifying examples: tensors are built by `tensor_of`, so hypothesis
shows `tensor_of('float32[2, 3]', [...])`; modes by their class (`LoggingMode()`); the
container types below are plain NamedTuples and frozen dataclasses with generated reprs.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from hypothesis import strategies as st

import tracer.runtime as torch
from tracer.testing.values import DTYPES, FLOAT_DTYPES, dtype_name, spec_of, tensor_of

EDGE_FLOATS: tuple[float, ...] = (math.inf, -math.inf, math.nan, -0.0)
"""Float values every float-handling path should be tried on (opt in with `edge_values=True`)."""


# --- containers with a readable repr, defined at module level (picklable, deep-copyable)


class Pair(NamedTuple):
    first: Any
    second: Any


class Triple(NamedTuple):
    x: Any
    y: Any
    z: Any


@dataclasses.dataclass(frozen=True)
class Box:
    value: Any


@dataclasses.dataclass(frozen=True)
class Config:
    scale: Any
    items: Any


CONTAINER_TYPES: tuple[type, ...] = (Pair, Triple, Box, Config)


# --- tensors


def tensor_shapes(
    min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 3
) -> st.SearchStrategy[tuple[int, ...]]:
    """Small shapes, including `()` (0-d) and zero-size sides by default."""
    sides = st.integers(min_side, max_side)
    return st.lists(sides, min_size=min_dims, max_size=max_dims).map(tuple)


def elements(dtype: torch.dtype, *, edge_values: bool = False) -> st.SearchStrategy[Any]:
    """Values of one dtype: small ints, moderate floats (exact in float32 for float32), and
    with `edge_values` also inf, -inf, nan and -0.0."""
    if dtype is torch.bool:
        return st.booleans()
    if dtype is torch.int64:
        return st.integers(-100, 100)
    finite = st.floats(
        -100.0, 100.0, width=32 if dtype is torch.float32 else 64, allow_nan=False,
        allow_infinity=False,
    )  # fmt: skip
    if edge_values:
        return st.one_of(finite, st.sampled_from(EDGE_FLOATS))
    return finite


def _as_strategy(value: Any, default: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    if value is None:
        return default
    if isinstance(value, st.SearchStrategy):
        return value
    if isinstance(value, list) or (isinstance(value, tuple) and not _is_shape(value)):
        return st.sampled_from(value)
    return st.just(value)


def _is_shape(value: Any) -> bool:
    return isinstance(value, tuple) and all(type(v) is int for v in value)


def tensors(
    shapes: Any = None,
    dtypes: Any = None,
    elements: Any = None,
    *,
    edge_values: bool = False,
) -> st.SearchStrategy[torch.Tensor]:
    """Runtime tensors. Each argument may be a fixed value, a list of choices or a strategy:
    `shapes` a shape tuple (default `tensor_shapes()`: 0-3 dims of 0-3, 0-d included),
    `dtypes` a dtype (default any of float32, float64, int64, bool), `elements` a strategy of
    values or a function dtype -> strategy (default `elements(dtype, edge_values=...)`)."""
    shape_st = _as_strategy(shapes, tensor_shapes())
    dtype_st = _as_strategy(dtypes, st.sampled_from(DTYPES))
    values_for = _values_for(elements, edge_values)

    @st.composite
    def build(draw: st.DrawFn) -> torch.Tensor:
        shape, dtype = draw(shape_st), draw(dtype_st)
        n = math.prod(shape)
        spec = f"{dtype_name(dtype)}{list(shape)}"
        return draw(
            st.builds(tensor_of, st.just(spec), st.lists(values_for(dtype), min_size=n, max_size=n))
        )

    return build()


def _values_for(custom: Any, edge_values: bool) -> Callable[[torch.dtype], st.SearchStrategy[Any]]:
    if custom is None:
        return lambda dtype: elements(dtype, edge_values=edge_values)
    if isinstance(custom, st.SearchStrategy):
        return lambda dtype: custom
    function: Callable[[torch.dtype], st.SearchStrategy[Any]] = custom
    return function


@st.composite
def broadcastable_shape_pairs(
    draw: st.DrawFn, max_dims: int = 3
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two shapes that broadcast together: trailing sides equal, 1, or missing."""
    full = draw(tensor_shapes(0, max_dims, 1, 3))
    out = []
    for _ in range(2):
        drop = draw(st.integers(0, len(full)))
        out.append(tuple(1 if draw(st.booleans()) else side for side in full[drop:]))
    return out[0], out[1]


@st.composite
def broadcastable_pairs(
    draw: st.DrawFn,
    dtypes: Any = None,
    elements: Any = None,
    *,
    same_dtype: bool = False,
    edge_values: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Two tensors whose shapes broadcast together (dtypes drawn independently unless
    `same_dtype`)."""
    a_shape, b_shape = draw(broadcastable_shape_pairs())
    dtype_st = _as_strategy(dtypes, st.sampled_from(DTYPES))
    da = draw(dtype_st)
    db = da if same_dtype else draw(dtype_st)
    a = draw(tensors(a_shape, da, elements, edge_values=edge_values))
    b = draw(tensors(b_shape, db, elements, edge_values=edge_values))
    return a, b


# --- scalars and nested inputs


def scalars(
    *,
    ints: bool = True,
    floats: bool = True,
    bools: bool = False,
    edge_values: bool = False,
) -> st.SearchStrategy[Any]:
    """Python numbers: small ints, moderate floats (with `edge_values` also inf/nan/-0.0),
    optionally bools."""
    options: list[st.SearchStrategy[Any]] = []
    if ints:
        options.append(st.integers(-8, 8))
    if floats:
        options.append(st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False))
        if edge_values:
            options.append(st.sampled_from(EDGE_FLOATS))
    if bools:
        options.append(st.booleans())
    return st.one_of(options)


KEYS = st.sampled_from(["a", "b", "c", "scale", "x"])


def nested_inputs(
    leaves: st.SearchStrategy[Any] | None = None, *, max_leaves: int = 6
) -> st.SearchStrategy[Any]:
    """Leaves nested in tuples, lists, dicts with str keys, NamedTuples (`Pair`, `Triple`) and
    frozen dataclasses (`Box`, `Config`). Default leaves: small tensors and scalars."""
    if leaves is None:
        leaves = st.one_of(tensors(tensor_shapes(0, 2)), scalars())

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.lists(inner, max_size=3).map(tuple),
            st.lists(inner, max_size=3),
            st.dictionaries(KEYS, inner, max_size=3),
            st.builds(Pair, inner, inner),
            st.builds(Triple, inner, inner, inner),
            st.builds(Box, inner),
            st.builds(Config, inner, st.lists(inner, max_size=2)),
        )

    nested = st.recursive(leaves, extend, max_leaves=max_leaves)
    return st.deferred(lambda: nested)  # a short repr: the recursive one runs to kilobytes


def mode_stacks(mode_types: Sequence[type], *, max_size: int = 3) -> st.SearchStrategy[list[Any]]:
    """A list of 0-`max_size` fresh instances of the given TorchFunctionMode subclasses (each
    built with no arguments), bottom first: pass it as `assert_same_behavior(..., modes=...)`."""
    if not mode_types:
        return st.just([])
    return st.lists(st.one_of([st.builds(t) for t in mode_types]), max_size=max_size)


from tracer.testing.perturb import (  # noqa: E402  (re-exported: one import for users)
    Perturbation,
    list_perturbations,
    perturbations,
    variants,
)

__all__ = [
    "CONTAINER_TYPES",
    "DTYPES",
    "EDGE_FLOATS",
    "FLOAT_DTYPES",
    "Box",
    "Config",
    "Pair",
    "Perturbation",
    "Triple",
    "broadcastable_pairs",
    "broadcastable_shape_pairs",
    "elements",
    "list_perturbations",
    "mode_stacks",
    "nested_inputs",
    "perturbations",
    "scalars",
    "spec_of",
    "tensor_of",
    "tensor_shapes",
    "tensors",
    "variants",
]
