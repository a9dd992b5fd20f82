"""Deep comparison of eager and compiled outcomes, naming the path of the first difference.

Tensors compare by type, shape, dtype, requires_grad and exact values (nan equals nan, -0.0
differs from 0.0); floats bitwise; containers and objects structurally, attribute by attribute;
identity is compared twice: *where an object came from* (if eager returned an input, or a piece
of one, compiled must return the same piece) and *aliasing* (two places that hold one object in
the eager run must hold one object in the compiled run, and vice versa). An iterator the runs
left behind compares by what remains in it (`observe.drain_iterators` consumed it after the
call), a StringIO by its text and position, a dict view (keys, values, items) by the dict it
shows. A value's kind is its real type (`issubclass(type(v), dict)`), never `isinstance`, which
asks the object's `__class__`: user code that may raise, or claim another class
(`Mock(spec=Tensor)`).
"""

from __future__ import annotations

import collections
import gc
import io
import math
from collections.abc import Callable, Iterator
from typing import Any

from tracer.runtime import Tensor


class Mismatch(AssertionError):
    """Eager and compiled differ; `path` names the first difference (`return[1]['a']`)."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"{path}: {detail}")
        self.path = path
        self.detail = detail


def index_identities(roots: dict[str, Any]) -> dict[int, str]:
    """id -> path for every container and object reachable from `roots` (first path wins)."""
    return {id(value): path for value, path in walk(roots, set())}


def walk(roots: dict[str, Any], seen: set[int]) -> Iterator[tuple[Any, str]]:
    """Every container and object reachable from `roots` whose id is not in `seen`, with the
    first path that reaches it, depth first in root order; `seen` learns each id."""
    todo = [(value, name) for name, value in reversed(roots.items())]
    while todo:
        value, path = todo.pop()
        if _is_atom(value) or id(value) in seen:
            continue
        seen.add(id(value))
        yield value, path
        todo.extend((child, f"{path}{key}") for key, child in reversed(_children(value)))


def _is_atom(value: Any) -> bool:
    return value is None or issubclass(
        type(value), bool | int | float | complex | str | bytes | type
    )


def _children(value: Any) -> list[tuple[str, Any]]:
    if _is_tensor(value):
        return []
    if issubclass(type(value), dict):
        keys = [(f".keys()[{i}]", k) for i, k in enumerate(value) if not _is_atom(k)]
        return [*keys, *((f"[{k!r}]", v) for k, v in value.items())]
    if issubclass(type(value), list | tuple | collections.deque):
        return [(f"[{i}]", v) for i, v in enumerate(value)]
    if issubclass(type(value), set | frozenset):
        return []
    attrs = attributes(value)
    return [] if attrs is None else [(f".{k}", v) for k, v in attrs.items()]


def attributes(value: Any) -> dict[str, Any] | None:
    """An object's state as name -> value: its `__dict__` plus filled `__slots__`; None for
    objects with neither (compared with `==`)."""
    slots = [
        name
        for cls in type(value).__mro__
        for name in getattr(cls, "__slots__", ())
        if name not in ("__dict__", "__weakref__")
    ]
    state = getattr(value, "__dict__", None)
    if not slots and not isinstance(state, dict):
        return None
    attrs = dict(state) if isinstance(state, dict) else {}
    for name in slots:
        try:
            attrs[name] = object.__getattribute__(value, name)
        except AttributeError:
            continue
    return attrs


class Comparison:
    """One comparison of two runs: identities indexed from each run's roots, and the pairing of
    eager objects with compiled objects built up across every `compare` call, so aliasing
    between the return value and the inputs (or within either) is checked too."""

    def __init__(
        self,
        expected_ids: dict[int, str],
        actual_ids: dict[int, str],
        expected_remaining: dict[int, Any] | None = None,
        actual_remaining: dict[int, Any] | None = None,
    ) -> None:
        self.expected_ids = expected_ids
        self.actual_ids = actual_ids
        self.expected_remaining = expected_remaining or {}
        self.actual_remaining = actual_remaining or {}
        self._by_expected: dict[int, tuple[Any, str]] = {}
        self._by_actual: dict[int, tuple[Any, str]] = {}

    @classmethod
    def of_roots(
        cls,
        expected: dict[str, Any],
        actual: dict[str, Any],
        expected_remaining: dict[int, Any] | None = None,
        actual_remaining: dict[int, Any] | None = None,
    ) -> Comparison:
        """`*_remaining`: id -> `observe.Remaining` for the iterators each run left, compared
        by what remains in them (`list(path)[i]` in a diff)."""
        ids_e, ids_a = index_identities(expected), index_identities(actual)
        return cls(ids_e, ids_a, expected_remaining, actual_remaining)

    def compare(self, expected: Any, actual: Any, path: str) -> None:
        """Raise Mismatch at the first place `actual` differs from `expected`."""
        if type(expected) is not type(actual):
            raise Mismatch(
                path, f"type {type(actual).__name__}, expected {type(expected).__name__}"
            )
        if not _is_atom(expected) and self._paired(expected, actual, path):
            return
        remaining_e = self.expected_remaining.get(id(expected))
        remaining_a = self.actual_remaining.get(id(actual))
        comparer = _COMPARERS.get(type(expected))
        if remaining_e is not None and remaining_a is not None:
            self._compare_remaining(remaining_e, remaining_a, f"list({path})")
        elif comparer is not None:
            comparer(expected, actual, path)
        elif _is_tensor(expected):
            _compare_tensor(expected, actual, path)
        elif issubclass(type(expected), dict):
            self._compare_dict(expected, actual, path)
        elif type(expected) in _DICT_VIEWS:
            self.compare(_viewed_dict(expected), _viewed_dict(actual), f"{path}.mapping")
        elif issubclass(type(expected), list | tuple | collections.deque):
            if issubclass(type(expected), collections.deque) and expected.maxlen != actual.maxlen:
                raise Mismatch(path, f"maxlen {actual.maxlen}, expected {expected.maxlen}")
            if len(expected) != len(actual):
                raise Mismatch(path, f"length {len(actual)}, expected {len(expected)}")
            for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
                self.compare(e, a, f"{path}[{i}]")
        elif issubclass(type(expected), set | frozenset):
            if expected != actual or list(expected) != list(actual):
                raise Mismatch(path, f"{actual!r}, expected {expected!r} (iteration order too)")
        else:
            self._compare_object(expected, actual, path)

    def _paired(self, expected: Any, actual: Any, path: str) -> bool:
        """Check origin and aliasing; True when this pair was already compared."""
        origin_e, origin_a = self.expected_ids.get(id(expected)), self.actual_ids.get(id(actual))
        if origin_e != origin_a:
            raise Mismatch(
                path,
                f"identity differs: eager's object is {origin_e or 'a new object'}, "
                f"compiled's is {origin_a or 'a new object'}",
            )
        seen_e = self._by_expected.get(id(expected))
        seen_a = self._by_actual.get(id(actual))
        if seen_e is not None and seen_e[0] is not actual:
            raise Mismatch(
                path,
                f"aliasing lost: eager has the same object here and at {seen_e[1]}, "
                "compiled has two different objects",
            )
        if seen_a is not None and seen_a[0] is not expected:
            raise Mismatch(
                path,
                f"aliasing added: compiled has the same object here and at {seen_a[1]}, "
                "eager has two different objects",
            )
        if seen_e is not None:
            return True
        self._by_expected[id(expected)] = (actual, path)
        self._by_actual[id(actual)] = (expected, path)
        return False

    def _compare_remaining(self, expected: Any, actual: Any, path: str) -> None:
        """Two iterators' `observe.Remaining`: the items, then how each ended."""
        if len(expected.items) != len(actual.items):
            raise Mismatch(path, f"length {len(actual.items)}, expected {len(expected.items)}")
        for i, (e, a) in enumerate(zip(expected.items, actual.items, strict=True)):
            self.compare(e, a, f"{path}[{i}]")
        error_e, error_a = expected.error, actual.error
        if (type(error_e), str(error_e)) != (type(error_a), str(error_a)):
            raise Mismatch(path, f"ended with {error_a!r}, expected {error_e!r}")
        if expected.more != actual.more:
            raise Mismatch(path, f"more items: {actual.more}, expected {expected.more}")

    def _compare_dict(self, expected: dict[Any, Any], actual: dict[Any, Any], path: str) -> None:
        keys_e, keys_a = list(expected), list(actual)
        if all(map(_is_atom, keys_e)):
            if keys_e != keys_a:
                raise Mismatch(path, f"keys {keys_a!r}, expected {keys_e!r}")
        else:  # object keys: the two runs hold copies, compared as any other object
            if len(keys_e) != len(keys_a):
                raise Mismatch(path, f"keys {keys_a!r}, expected {keys_e!r}")
            for i, (key_e, key_a) in enumerate(zip(keys_e, keys_a, strict=True)):
                self.compare(key_e, key_a, f"{path}.keys()[{i}]")
        for (key, value), other in zip(expected.items(), actual.values(), strict=True):
            self.compare(value, other, f"{path}[{key!r}]")

    def _compare_object(self, expected: Any, actual: Any, path: str) -> None:
        attrs_e, attrs_a = attributes(expected), attributes(actual)
        if attrs_e is None or attrs_a is None:
            if expected != actual:
                raise Mismatch(path, f"{actual!r}, expected {expected!r}")
            return
        if set(attrs_e) != set(attrs_a):  # order of attribute stores is not compared
            raise Mismatch(path, f"attributes {sorted(attrs_a)}, expected {sorted(attrs_e)}")
        for name in attrs_e:
            self.compare(attrs_e[name], attrs_a[name], f"{path}.{name}")


def compare(
    expected: Any,
    actual: Any,
    path: str,
    expected_ids: dict[int, str] | None = None,
    actual_ids: dict[int, str] | None = None,
) -> None:
    """Raise Mismatch at the first place `actual` differs from `expected` (one-off form of
    `Comparison`)."""
    Comparison(expected_ids or {}, actual_ids or {}).compare(expected, actual, path)


def _is_tensor(value: Any) -> bool:
    return issubclass(type(value), Tensor)


def same_float(a: float, b: float) -> bool:
    """Bitwise-style float equality: nan equals nan, -0.0 differs from 0.0."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def _compare_float(expected: float, actual: float, path: str) -> None:
    if not same_float(expected, actual):
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
    for i, (e, a) in enumerate(zip(flat_e, flat_a, strict=True)):
        same = same_float(e, a) if isinstance(e, float) else e == a and type(e) is type(a)
        if not same:
            raise Mismatch(path, f"element {i} (flat) is {a!r}, expected {e!r}")


def _compare_string_io(expected: io.StringIO, actual: io.StringIO, path: str) -> None:
    """A StringIO (a file= argument, a replaced sys.stdout) by its text and position."""
    _compare_plain(expected.getvalue(), actual.getvalue(), f"{path}.getvalue()")
    _compare_plain(expected.tell(), actual.tell(), f"{path}.tell()")


_DICT_VIEWS = frozenset({type({}.keys()), type({}.values()), type({}.items())})


def _viewed_dict(view: Any) -> Any:
    """The dict a view shows. `view.mapping` is a read-only proxy made on each read, whose one
    referent is the dict itself: compared as a dict, the view's order and contents and where
    its dict came from are checked (`d.values()` has no `==` of its own; keys and items
    compare as sets, ignoring order and owner)."""
    (mapping,) = gc.get_referents(view.mapping)
    return mapping


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
    type: _compare_plain,
    io.StringIO: _compare_string_io,
}
