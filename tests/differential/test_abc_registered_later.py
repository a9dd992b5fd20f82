"""`isinstance(obj, SomeABC)` and `issubclass(C, SomeABC)` folded while tracing hold only
while no class is registered with an ABC: `SomeABC.register(C)` makes a class a virtual
subclass, and a negative answer ABCMeta cached is thrown away. Each test compiles, calls,
registers a new virtual subclass, and compares the same cached function with plain Python."""

from __future__ import annotations

import abc
import collections.abc
from collections.abc import Callable
from typing import Any

import pytest

import tracer


def fresh_abc() -> type:
    class Shape(abc.ABC):  # noqa: B024 (registered with, never subclassed)
        pass

    return Shape


class Square:
    pass


def is_instance(obj: Any, kind: type) -> Any:
    return isinstance(obj, kind)


def is_subclass(cls: type, kind: type) -> Any:
    return issubclass(cls, kind)


def in_a_match(obj: Any, kind: type) -> Any:
    match obj:
        case kind():  # type: ignore[misc]
            return "matched"
    return "no match"


@pytest.mark.parametrize(
    ("fn", "of_class"),
    [(is_instance, False), (is_subclass, True), (in_a_match, False)],
    ids=["isinstance", "issubclass", "match"],
)
def test_a_class_registered_with_the_abc_later_is_an_instance(
    fn: Callable[..., Any], of_class: bool
) -> None:
    class Local:  # a class of its own, so no other test has registered it anywhere
        pass

    kind = fresh_abc()
    arg = Local if of_class else Local()
    compiled = tracer.compile(fn)
    assert compiled(arg, kind) == fn(arg, kind)
    kind.register(Local)
    assert compiled(arg, kind) == fn(arg, kind)


def test_a_registration_elsewhere_misses_but_answers_the_same() -> None:
    kind, other = fresh_abc(), fresh_abc()
    obj = Square()
    compiled = tracer.compile(is_instance)
    assert compiled(obj, kind) is is_instance(obj, kind) is False
    other.register(Square)  # a new cache token: the entry misses, the answer is still False
    assert compiled(obj, kind) is is_instance(obj, kind) is False


class OwnCheck(abc.ABCMeta):
    """An ABC metaclass whose `__subclasscheck__` is its own (ABCMeta's `__instancecheck__`
    calls it): decided by user code, so not folded."""

    answer = False

    def __subclasscheck__(cls, subclass: type) -> bool:
        return OwnCheck.answer


def test_a_metaclass_subclasscheck_of_its_own_is_asked_on_every_call() -> None:
    class Asked(metaclass=OwnCheck):
        pass

    obj = Square()
    compiled = tracer.compile(is_instance)
    try:
        assert compiled(obj, Asked) is is_instance(obj, Asked) is False
        OwnCheck.answer = True
        assert compiled(obj, Asked) is is_instance(obj, Asked) is True
    finally:
        OwnCheck.answer = False


def match_shape(o: Any) -> Any:
    match o:
        case [a, b]:
            return ("sequence", a, b)
        case {"k": v}:
            return ("mapping", v)
    return "other"


def test_a_match_pattern_after_the_subjects_class_is_registered() -> None:
    """`case [a, b]` and `case {"k": v}` ask the subject's type for its sequence or mapping
    flag, which registering the class with `collections.abc.Sequence` or `Mapping` sets: the
    trace decided it unguarded. abc's cache token, which a registration bumps, is guarded."""

    class Pair:
        def __len__(self) -> int:
            return 2

        def __getitem__(self, i: int) -> int:
            if i >= 2:
                raise IndexError(i)
            return i

    class Lookup:
        def __len__(self) -> int:
            return 1

        def __getitem__(self, key: str) -> str:
            return "v"

        def __iter__(self) -> Any:
            return iter(["k"])

        def keys(self) -> list[str]:
            return ["k"]

        def get(self, key: str, default: Any = None) -> Any:
            return "v" if key == "k" else default

    tracer.reset()
    compiled = tracer.compile(match_shape)
    pair, lookup = Pair(), Lookup()
    assert compiled(pair) == match_shape(pair) == "other"
    assert compiled(lookup) == match_shape(lookup) == "other"
    collections.abc.Sequence.register(Pair)
    collections.abc.Mapping.register(Lookup)
    assert compiled(pair) == match_shape(pair) == ("sequence", 0, 1)
    assert compiled(lookup) == match_shape(lookup) == ("mapping", "v")
