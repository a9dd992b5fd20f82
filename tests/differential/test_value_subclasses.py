"""Subclasses of int, float, str and tuple made in the frame, with methods of their own: the
object is the real one (CPython makes it from constants), builtin operations run on it as on
the base, and the subclass's methods are traced with it bound, `super()` reaching the base's
own method (issue 22, subclasses of builtins). A subclass that defines a special method falls
back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class Count(int):
    def double(self) -> int:
        return self * 2


class Word(str):
    def shout(self) -> str:
        return super().upper() + "!"

    def size(self) -> int:
        return len(self)


class Whisper(Word):
    def shout(self) -> str:
        return "<" + super().shout() + ">"


class Pair(tuple[int, ...]):
    def first(self) -> int:
        return self[0]


class Celsius(float):
    unit = "C"

    def to_fahrenheit(self) -> float:
        return self * 9 / 5 + 32


class Loud(str):
    def __add__(self, other: Any) -> Any:  # a special method: falls back
        return "LOUD"


def counts(n: int) -> Any:
    i = Count(n)
    return i.double(), i + 1, type(i).__name__, isinstance(i, int), i == n, -i, divmod(i, 2)


def words(n: int) -> Any:
    s = Word("ab")
    return s.shout(), s.size(), s.upper(), s + "c", type(s + "c"), [c for c in s], f"{s}{n}"  # noqa: C416 (FOR_ITER over it)


def whispers(n: int) -> Any:
    return Whisper("ab").shout(), Whisper("x").size() + n


def pairs(n: int) -> Any:
    t = Pair((n, 2))
    return t.first(), n in t, t[1:], t + (3,), list(t), max(t), len(t)


def temperatures(n: int) -> Any:
    c = Celsius(n)
    return c.to_fahrenheit(), c.unit, str(c), c > 1


def returned(n: int) -> Any:
    return Count(n), Word("x"), Pair((1,)), Celsius(2.5)


def missing_attribute(n: int) -> Any:
    return Word("a").nothere


def bad_argument(n: int) -> Any:
    return Count("x")


@pytest.mark.parametrize(
    "fn",
    [counts, words, whispers, pairs, temperatures, returned, missing_attribute, bad_argument],
)
def test_value_subclass_made_in_the_frame(fn: Any) -> None:
    check(fn, 3)


def test_returned_objects_are_new_each_call() -> None:
    import tracer

    compiled = tracer.compile(returned)
    first, second = compiled(3), compiled(3)
    assert type(first[0]) is Count and first[0] == 3
    assert first[0] is not second[0]


def special_method(n: int) -> Any:
    return Loud("a") + "b"


def test_a_special_method_falls_back() -> None:
    assert_same_behavior(special_method, 3)


class Tagged(bytes):
    pass


def attribute_set_then_read(n: int) -> Any:
    tagged = Tagged(b"abcd")
    tagged.x = n  # type: ignore[attr-defined]  # a break that resumes: the store runs eagerly
    return tagged.x, tagged, tagged  # type: ignore[attr-defined]


def test_one_object_at_a_break_and_after_it() -> None:
    """The object was rebuilt at every place that held it: the store the break ran eagerly
    went to one copy, the resume function got another (AttributeError: no attribute 'x';
    CPython's test_bytes `test_copy`, `test_pickle`). It is made once now."""
    assert_same_behavior(attribute_set_then_read, 3)
    import tracer

    result = tracer.compile(attribute_set_then_read)(3)
    assert result[1] is result[2]
