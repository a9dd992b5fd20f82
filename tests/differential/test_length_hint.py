"""The consumers that size their result before pulling items ask the iterable for a length hint
right after `__iter__` (CPython's PyObject_LengthHint): `list()`, `tuple()`, `sorted()`,
`bytes()`, `[*x]`, `(*x,)`, `f(*x)`, `list.extend`, `l += x`, `bytearray.extend`, `str.join`,
`itertools.product` and `itertools.permutations`. The hint runs a user class's `__len__` (a
TypeError it raises or returns is swallowed, then `__length_hint__` is asked; a negative length
raises ValueError, any other error propagates) and then `__length_hint__` (NotImplemented or a
TypeError means no hint; a value that is not an int, or is negative, raises). `set()`,
`frozenset()`, `bytearray()`, `{*x}`, unpacking, `deque()`, `min`/`max`/`sum` ask no hint. Each
test passes a log the user methods append to, so the calls (which, in what order, how often)
are compared with eager Python (found by `make fuzz` on 2026-12-04)."""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.differential.helpers import check


def _result(log: list[str], name: str, value: Any) -> Any:
    log.append(name)
    if isinstance(value, type):
        raise value(name)
    return value


class Sized:
    """Iterates 0, 1 and has a `__len__` that returns (or raises) `length`."""

    def __init__(self, log: list[str], length: Any) -> None:
        self.log = log
        self.length = length

    def __iter__(self) -> Iterator[int]:
        self.log.append("iter")
        return iter(range(2))

    def __len__(self) -> Any:
        return _result(self.log, "len", self.length)


class Hinted:
    """Iterates 0, 1 and has a `__length_hint__` that returns (or raises) `hint`."""

    def __init__(self, log: list[str], hint: Any) -> None:
        self.log = log
        self.hint = hint

    def __iter__(self) -> Iterator[int]:
        self.log.append("iter")
        return iter(range(2))

    def __length_hint__(self) -> Any:
        return _result(self.log, "hint", self.hint)


class Both(Sized):
    """A `__len__` and a `__length_hint__`: the hint is asked only when `__len__` raises or
    returns a TypeError."""

    def __length_hint__(self) -> Any:
        return _result(self.log, "hint", -1)


class Countdown:
    """Its own iterator, with a `__length_hint__`: asked before the first `__next__`."""

    def __init__(self, log: list[str], hint: Any) -> None:
        self.log = log
        self.hint = hint
        self.left = 2

    def __iter__(self) -> Countdown:
        self.log.append("iter")
        return self

    def __next__(self) -> str:
        self.log.append("next")
        if self.left == 0:
            raise StopIteration
        self.left -= 1
        return str(self.left)

    def __length_hint__(self) -> Any:
        return _result(self.log, "hint", self.hint)


def _takes(*args: Any) -> tuple[Any, ...]:
    return args


def _extend(x: Any) -> Any:
    out = [9]
    out.extend(x)
    return out


def _iadd(x: Any) -> Any:
    out = [9]
    out += x
    return out


def _bytearray_extend(x: Any) -> Any:
    out = bytearray(b"a")
    out.extend(x)
    return out


def _starred_list(x: Any) -> Any:
    return [*x]


def _starred_tuple(x: Any) -> Any:
    return (*x,)


def _starred_call(x: Any) -> Any:
    return _takes(*x)


def _join(x: Any) -> Any:
    return ",".join(x)


def _starred_set(x: Any) -> Any:
    return {*x}


def _unpack(x: Any) -> Any:
    a, b = x
    return a, b


def _unpack_rest(x: Any) -> Any:
    a, *rest = x
    return a, rest


def _permutations(x: Any) -> Any:
    return list(itertools.permutations(x))


def _product(x: Any) -> Any:
    return list(itertools.product(x))


ASKING: list[Callable[[Any], Any]] = [
    list,
    tuple,
    sorted,
    bytes,
    _starred_list,
    _starred_tuple,
    _starred_call,
    _extend,
    _iadd,
    _bytearray_extend,
    _permutations,
    _product,
]
NOT_ASKING: list[Callable[[Any], Any]] = [
    set,
    frozenset,
    bytearray,
    _starred_set,
    _unpack,
    _unpack_rest,
    collections.deque,
    min,
    max,
    sum,
]
LENGTHS = [-1, 3, True, "x", 2.0, 2**70, TypeError, KeyError]
HINTS = [-1, 3, "x", NotImplemented, 2**70, TypeError, KeyError]


def _consume(consumer: Callable[[Any], Any], make: Callable[[list[str]], Any]) -> Any:
    def run(log: list[str]) -> Any:
        return consumer(make(log))

    return run


def _name(value: Any) -> str:
    return str(getattr(value, "__name__", value)).strip("_")


@pytest.mark.parametrize("consumer", ASKING + NOT_ASKING, ids=_name)
@pytest.mark.parametrize("length", LENGTHS, ids=_name)
def test_len_as_a_length_hint(consumer: Callable[[Any], Any], length: Any) -> None:
    check(_consume(consumer, lambda log: Sized(log, length)), [])


@pytest.mark.parametrize("consumer", ASKING + NOT_ASKING, ids=_name)
@pytest.mark.parametrize("hint", HINTS, ids=_name)
def test_length_hint_method(consumer: Callable[[Any], Any], hint: Any) -> None:
    check(_consume(consumer, lambda log: Hinted(log, hint)), [])


@pytest.mark.parametrize("consumer", [list, _extend, _starred_call], ids=_name)
@pytest.mark.parametrize("length", [3, "x", TypeError, KeyError], ids=_name)
def test_length_hint_after_a_failed_len(consumer: Callable[[Any], Any], length: Any) -> None:
    check(_consume(consumer, lambda log: Both(log, length)), [])


@pytest.mark.parametrize("consumer", [list, tuple, _join, _extend, _unpack_rest], ids=_name)
@pytest.mark.parametrize("hint", [-1, 3, TypeError], ids=_name)
def test_length_hint_of_a_user_iterator(consumer: Callable[[Any], Any], hint: Any) -> None:
    check(_consume(consumer, lambda log: Countdown(log, hint)), [])


def test_list_calls_len_as_a_length_hint() -> None:
    """The fuzzer's case: `list(obj)` with a `__len__` returning -1 raises ValueError."""

    def make_list(log: list[str]) -> list[int]:
        return list(Sized(log, -1))

    check(make_list, [])


@pytest.mark.parametrize("length", LENGTHS, ids=_name)
def test_len_itself(length: Any) -> None:
    def measure(log: list[str]) -> Any:
        return len(Sized(log, length))

    check(measure, [])


class Bytes:
    """Its own iterator over `values`, logging each pull (an item that is not a byte stops
    bytes(), bytearray() and bytearray.extend at once)."""

    def __init__(self, log: list[str], values: tuple[Any, ...]) -> None:
        self.log = log
        self.values = list(values)

    def __iter__(self) -> Bytes:
        self.log.append("iter")
        return self

    def __next__(self) -> Any:
        self.log.append("next")
        if not self.values:
            raise StopIteration
        return self.values.pop(0)

    def __len__(self) -> int:
        self.log.append("len")
        return len(self.values)


@pytest.mark.parametrize("consumer", [bytes, bytearray, _bytearray_extend, list], ids=_name)
@pytest.mark.parametrize("values", [(1, 2), (1, 300, 2), (1, "x", 2), (-1,)], ids=str)
def test_byte_items_pulled_one_at_a_time(consumer: Callable[[Any], Any], values: Any) -> None:
    check(_consume(consumer, lambda log: Bytes(log, values)), [])


@pytest.mark.parametrize("value", [5, None, ("a", 1), ["a", "b"]], ids=str)
def test_join_of_a_constant(value: Any) -> None:
    """A constant is joined by CPython: 'can only join an iterable' for an int."""
    check(_join, value)


def test_operator_length_hint() -> None:
    def hints(log: list[str]) -> Any:
        import operator

        return operator.length_hint(Hinted(log, 4)), operator.length_hint(Sized(log, 2), 7)

    check(hints, [])


class Pulled:
    """Its own iterator over `values`, logging each pull."""

    def __init__(self, log: list[str], values: tuple[Any, ...]) -> None:
        self.log = log
        self.values = list(values)

    def __iter__(self) -> Pulled:
        self.log.append("iter")
        return self

    def __next__(self) -> Any:
        self.log.append("next")
        if not self.values:
            raise StopIteration
        return self.values.pop(0)


def _set_update(x: Any) -> Any:
    s = {0}
    s.update(x)
    return s


def _dict_of_pairs(x: Any) -> Any:
    return dict(x)


def _deque_extend(x: Any) -> Any:
    d = collections.deque([0])
    d.extend(x)
    return d


def _slice_assignment(x: Any) -> Any:
    out = [1, 2, 3]
    out[1:2] = x
    return out


@pytest.mark.parametrize(
    "consumer",
    [set, frozenset, _starred_set, _set_update, _dict_of_pairs, _deque_extend, _slice_assignment],
    ids=_name,
)
@pytest.mark.parametrize("values", [(1, 2), (1, [2], 3), ((1, 2), (3,), (4, 5))], ids=str)
def test_items_pulled_one_at_a_time(consumer: Callable[[Any], Any], values: Any) -> None:
    """A consumer stops pulling at the item it refuses (unhashable, not a pair): the pulls
    (logged) are eager's, or the frame falls back."""
    from tracer.testing import assert_same_behavior

    assert_same_behavior(_consume(consumer, lambda log: Pulled(log, values)), [])


@pytest.mark.parametrize("length", [-1, 3], ids=_name)
def test_slice_assignment_asks_the_length_hint(length: Any) -> None:
    from tracer.testing import assert_same_behavior

    assert_same_behavior(_consume(_slice_assignment, lambda log: Sized(log, length)), [])
