"""Deep comparison of eager and compiled outcomes, naming the path of the first difference.

Tensors compare by type, shape, dtype and exact values (nan equals nan, -0.0 differs from 0.0);
floats bitwise; containers and objects structurally; identity is compared as *where an object
came from*: if eager returned an input (or a piece of one), compiled must return the same piece.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any


class Mismatch(AssertionError):
    """Eager and compiled differ; `path` names the first difference (`return[1]['a']`)."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"{path}: {detail}")
        self.path = path
        self.detail = detail


def index_identities(roots: dict[str, Any]) -> dict[int, str]:
    """id -> path for every container and object reachable from `roots` (first path wins)."""
    paths: dict[int, str] = {}

    def walk(value: Any, path: str) -> None:
        if _is_atom(value) or id(value) in paths:
            return
        paths[id(value)] = path
        for key, child in _children(value):
            walk(child, f"{path}{key}")

    for name, value in roots.items():
        walk(value, name)
    return paths


def _is_atom(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | complex | str | bytes | type)


def _children(value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [(f"[{k!r}]", v) for k, v in value.items()]
    if isinstance(value, list | tuple):
        return [(f"[{i}]", v) for i, v in enumerate(value)]
    if isinstance(value, set | frozenset):
        return []
    state = getattr(value, "__dict__", None)
    if isinstance(state, dict):
        return [(f".{k}", v) for k, v in state.items()]
    return []


def compare(
    expected: Any,
    actual: Any,
    path: str,
    expected_ids: dict[int, str],
    actual_ids: dict[int, str],
) -> None:
    """Raise Mismatch at the first place `actual` differs from `expected`."""
    seen: set[tuple[int, int]] = set()
    _compare(expected, actual, path, expected_ids, actual_ids, seen)


def _compare(
    expected: Any,
    actual: Any,
    path: str,
    expected_ids: dict[int, str],
    actual_ids: dict[int, str],
    seen: set[tuple[int, int]],
) -> None:
    if type(expected) is not type(actual):
        raise Mismatch(path, f"type {type(actual).__name__}, expected {type(expected).__name__}")
    if not _is_atom(expected):
        origin_e, origin_a = expected_ids.get(id(expected)), actual_ids.get(id(actual))
        if origin_e != origin_a:
            raise Mismatch(
                path,
                f"identity differs: eager's object is {origin_e or 'a new object'}, "
                f"compiled's is {origin_a or 'a new object'}",
            )
        pair = (id(expected), id(actual))
        if pair in seen:
            return
        seen.add(pair)
    comparer = _COMPARERS.get(type(expected))
    if comparer is not None:
        comparer(expected, actual, path)
        return
    if _is_tensor(expected):
        _compare_tensor(expected, actual, path)
        return
    if isinstance(expected, dict):
        if list(expected) != list(actual):
            raise Mismatch(path, f"keys {list(actual)!r}, expected {list(expected)!r}")
        for key in expected:
            _compare(expected[key], actual[key], f"{path}[{key!r}]", expected_ids, actual_ids, seen)
        return
    if isinstance(expected, list | tuple):
        if len(expected) != len(actual):
            raise Mismatch(path, f"length {len(actual)}, expected {len(expected)}")
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            _compare(e, a, f"{path}[{i}]", expected_ids, actual_ids, seen)
        return
    if isinstance(expected, set | frozenset):
        if expected != actual or list(expected) != list(actual):
            raise Mismatch(path, f"{actual!r}, expected {expected!r} (iteration order included)")
        return
    state = getattr(expected, "__dict__", None)
    if isinstance(state, dict):
        _compare(state, actual.__dict__, f"{path}.__dict__", expected_ids, actual_ids, seen)
        return
    if expected != actual:
        raise Mismatch(path, f"{actual!r}, expected {expected!r}")


def _is_tensor(value: Any) -> bool:
    from tracer.runtime import Tensor

    return isinstance(value, Tensor)


def _same_float(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _compare_float(expected: float, actual: float, path: str) -> None:
    if not _same_float(expected, actual):
        raise Mismatch(path, f"{actual!r}, expected {expected!r}")


def _compare_plain(expected: Any, actual: Any, path: str) -> None:
    if expected != actual:
        raise Mismatch(path, f"{actual!r}, expected {expected!r}")


def _compare_tensor(expected: Any, actual: Any, path: str) -> None:
    if tuple(expected.shape) != tuple(actual.shape):
        raise Mismatch(path, f"shape {tuple(actual.shape)}, expected {tuple(expected.shape)}")
    if expected.dtype is not actual.dtype:
        raise Mismatch(path, f"dtype {actual.dtype}, expected {expected.dtype}")
    if expected.requires_grad != actual.requires_grad:
        raise Mismatch(
            path, f"requires_grad {actual.requires_grad}, expected {expected.requires_grad}"
        )
    flat_e, flat_a = _flat(expected.tolist()), _flat(actual.tolist())
    for i, (e, a) in enumerate(zip(flat_e, flat_a, strict=False)):
        same = _same_float(e, a) if isinstance(e, float) else e == a and type(e) is type(a)
        if not same:
            raise Mismatch(path, f"element {i} is {a!r}, expected {e!r}")


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for item in value for x in _flat(item)]
    return [value]


_COMPARERS: dict[type, Callable[[Any, Any, str], None]] = {
    float: _compare_float,
    int: _compare_plain,
    bool: _compare_plain,
    str: _compare_plain,
    bytes: _compare_plain,
    type(None): _compare_plain,
    complex: _compare_plain,
}
