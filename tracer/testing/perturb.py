"""Perturbations and variants of an input, the two halves of every guard property.

A *perturbation* changes exactly one guarded-kind property at one place: a tensor's dtype,
shape or requires_grad, a constant's value or type, a container's length or type, a dict key.
A *variant* keeps every guarded property (structure, types, constants, tensor dtypes and
shapes, aliasing) and changes only what guards never look at: tensor values and object
identity. Soundness is tested on perturbations, precision on variants.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import errors, note
from hypothesis import strategies as st

import tracer.runtime as torch
from tracer.testing.values import DTYPES, dtype_name, flat_values, tensor_of


@dataclasses.dataclass(frozen=True)
class Perturbation:
    """One property changed at one path: `Perturbation(args[0].dtype: float32 -> int64)`."""

    path: str
    change: str
    value: Any = dataclasses.field(compare=False)

    def __repr__(self) -> str:
        return f"Perturbation({self.path}{self.change})"


Change = tuple[str, str, Any]
"""(path, change, the whole value at that path after the change)."""


def list_perturbations(
    value: Any, *, arguments: bool = False, root: str = ""
) -> list[Perturbation]:
    """Every single-property perturbation of `value`, each a fresh deep copy. With
    `arguments=True` the value is a tuple of call arguments: its own length and type are kept,
    and paths read `args[0].dtype`."""
    if arguments:
        if type(value) is not tuple:
            raise TypeError(f"arguments=True expects a tuple of arguments, got {value!r}")
        changes = _in_children(value, root or "args")
    else:
        changes = _alternatives(value, root or "value")
    return [Perturbation(path, change, copy.deepcopy(new)) for path, change, new in changes]


def perturbations(
    value: Any, *, arguments: bool = False, labelled: bool = False
) -> st.SearchStrategy[Any]:
    """`value` changed in exactly one guarded-kind property (see `list_perturbations`); the
    change is recorded with `hypothesis.note`, so a falsifying example says what changed.
    With `labelled=True` draws the `Perturbation` (path, change, value) instead."""
    choices = list_perturbations(value, arguments=arguments)
    if not choices:
        return st.nothing()

    def pick(p: Perturbation) -> Any:
        try:
            note(f"perturbed {p.path}{p.change}")
        except errors.InvalidArgument:  # drawn outside a test (e.g. `.example()`)
            pass
        return p if labelled else copy.deepcopy(p.value)

    return st.sampled_from(choices).map(pick)


def _alternatives(value: Any, path: str) -> Iterator[Change]:
    for suffix, change, new in _own_changes(value):
        yield f"{path}{suffix}", change, new
    yield from _in_children(value, path)


def _in_children(value: Any, path: str) -> Iterator[Change]:
    for key, child, rebuild in _children(value):
        for child_path, change, new_child in _alternatives(child, f"{path}{key}"):
            yield child_path, change, rebuild(new_child)


def _children(value: Any) -> list[tuple[str, Any, Callable[[Any], Any]]]:
    """(path suffix, child, rebuild-with-a-new-child) for each child of a container."""
    if isinstance(value, torch.Tensor):
        return []
    if isinstance(value, list | tuple):
        return [(f"[{i}]", item, _replace_item(value, i)) for i, item in enumerate(value)]
    if type(value) is dict:
        return [(f"[{k!r}]", v, _replace_key(value, k)) for k, v in value.items()]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            (f".{f.name}", getattr(value, f.name), _replace_field(value, f.name))
            for f in dataclasses.fields(value)
        ]
    return []


def _replace_item(value: list[Any] | tuple[Any, ...], i: int) -> Callable[[Any], Any]:
    def rebuild(new: Any) -> Any:
        items = [*value[:i], new, *value[i + 1 :]]
        if type(value) in (list, tuple):
            return type(value)(items)
        return type(value)(*items)  # a NamedTuple

    return rebuild


def _replace_key(value: dict[Any, Any], key: Any) -> Callable[[Any], Any]:
    return lambda new: {**value, key: new}


def _replace_field(value: Any, name: str) -> Callable[[Any], Any]:
    def rebuild(new: Any) -> Any:
        out = copy.copy(value)
        object.__setattr__(out, name, new)  # frozen dataclasses too
        return out

    return rebuild


def _own_changes(value: Any) -> list[tuple[str, str, Any]]:
    """(path suffix, change, new value) for the properties of `value` itself."""
    if isinstance(value, torch.Tensor):
        return _tensor_changes(value)
    handler = _OWN.get(type(value))
    if handler is not None:
        return handler(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return [("", f": type {type(value).__name__} -> tuple", tuple(value))]
    return []


def _tensor_changes(t: torch.Tensor) -> list[tuple[str, str, Any]]:
    values = flat_values(t) if t.numel() else []
    shape = list(t.shape)
    out: list[tuple[str, str, Any]] = []
    for dtype in DTYPES:
        if dtype is not t.dtype:
            converted = [_convert(v, dtype) for v in values]
            new = tensor_of(f"{dtype_name(dtype)}{shape}", converted)
            out.append((".dtype", f": {dtype_name(t.dtype)} -> {dtype_name(dtype)}", new))
    grown = [shape[0] + 1, *shape[1:]] if shape else [1]
    per_row = math.prod(shape[1:]) if shape else 1
    fill = values[:per_row] if values else [_convert(0, t.dtype)] * per_row
    new_values = values + fill if shape else values or fill
    out.append(
        (
            ".shape",
            f": {shape} -> {grown}",
            tensor_of(f"{dtype_name(t.dtype)}{grown}", new_values),
        )
    )
    if t.dtype.is_floating_point:
        flipped = copy.deepcopy(t)
        flipped.requires_grad = not t.requires_grad
        out.append((".requires_grad", f": {t.requires_grad} -> {not t.requires_grad}", flipped))
    return out


def _convert(v: Any, dtype: torch.dtype) -> Any:
    if dtype is torch.bool:
        return bool(v)
    if dtype is torch.int64:
        return int(v) if math.isfinite(v) else 0
    return float(v)


def _float_changes(v: float) -> list[tuple[str, str, Any]]:
    new = 0.0 if math.isnan(v) else -v if math.isinf(v) else v + 1.0
    out: list[tuple[str, str, Any]] = [("", f": {v!r} -> {new!r}", new)]
    if v == 0.0:
        out.append(("", f": {v!r} -> {-v!r} (equal by ==)", -v))
    if math.isfinite(v) and v == int(v):
        out.append(("", f": type float -> int ({v!r} -> {int(v)!r})", int(v)))
    return out


def _list_changes(v: list[Any] | tuple[Any, ...]) -> list[tuple[str, str, Any]]:
    kind = type(v).__name__
    longer = type(v)([*v, copy.deepcopy(v[-1]) if v else 0])
    out: list[tuple[str, str, Any]] = [("", f": length {len(v)} -> {len(v) + 1}", longer)]
    if v:
        out.append(("", f": length {len(v)} -> {len(v) - 1}", type(v)(v[:-1])))
    other = tuple if kind == "list" else list
    out.append(("", f": type {kind} -> {other.__name__}", other(v)))
    return out


def _dict_changes(d: dict[Any, Any]) -> list[tuple[str, str, Any]]:
    new_key = _fresh_key(d)
    out: list[tuple[str, str, Any]] = [
        ("", f": key {new_key!r} added", {**d, new_key: next(iter(d.values()), 0)})
    ]
    if d:
        last = list(d)[-1]
        renamed = {(new_key if k == last else k): v for k, v in d.items()}
        out.append(("", f": key {last!r} -> {new_key!r}", renamed))
        out.append(("", f": key {last!r} removed", {k: v for k, v in d.items() if k != last}))
    return out


def _fresh_key(d: dict[Any, Any]) -> Any:
    key = "new"
    while key in d:
        key += "_"
    return key


_OWN: dict[type, Callable[[Any], list[tuple[str, str, Any]]]] = {
    bool: lambda v: [
        ("", f": {v!r} -> {not v!r}", not v),
        ("", f": type bool -> int ({v!r})", int(v)),
    ],
    int: lambda v: [
        ("", f": {v!r} -> {v + 1!r}", v + 1),
        ("", f": type int -> float ({v!r})", float(v)),
    ],
    float: _float_changes,
    str: lambda v: [("", f": {v!r} -> {v + '_'!r}", v + "_")],
    type(None): lambda v: [("", ": type NoneType -> int (0)", 0)],
    list: _list_changes,
    tuple: _list_changes,
    dict: _dict_changes,
}


# --- variants


def variants(value: Any, *, elements: Any = None) -> st.SearchStrategy[Any]:
    """Fresh copies of `value` equal in every guarded property: same structure, types,
    constants, aliasing, tensor dtypes, shapes and requires_grad; new tensor values (drawn from
    `elements`, a strategy or dtype -> strategy, default `strategies.elements(dtype)`)."""

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        memo: dict[int, Any] = {}

        def fresh_tensor(t: torch.Tensor) -> torch.Tensor:
            new: torch.Tensor = draw(strategies.tensors(tuple(t.shape), t.dtype, elements))
            new.requires_grad = t.requires_grad
            return new

        return _rebuild(value, fresh_tensor, memo)

    return build()


def _rebuild(
    value: Any, fresh: Callable[[torch.Tensor], torch.Tensor], memo: dict[int, Any]
) -> Any:
    """A copy of `value` with every tensor replaced by `fresh(tensor)`; an object reached
    twice is rebuilt once, so aliasing carries over."""
    if id(value) in memo:
        return memo[id(value)]
    children = _children(value)
    if isinstance(value, torch.Tensor):
        out: Any = fresh(value)
    elif children:
        new = [_rebuild(child, fresh, memo) for _key, child, _rebuild_one in children]
        out = _with_children(value, new)
    else:
        out = copy.deepcopy(value)
    memo[id(value)] = out
    return out


def _with_children(value: Any, new: list[Any]) -> Any:
    if type(value) in (list, tuple):
        return type(value)(new)
    if isinstance(value, tuple):
        return type(value)(*new)  # a NamedTuple
    if type(value) is dict:
        return dict(zip(value, new, strict=True))
    out = copy.copy(value)
    for f, child in zip(dataclasses.fields(value), new, strict=True):
        object.__setattr__(out, f.name, child)
    return out


# At the bottom, as a module: strategies re-exports this module's names (imported at its
# bottom), and this module draws its tensors only when a strategy runs, so either can load first.
from tracer.testing import strategies  # noqa: E402
