"""Calling an enum class with a value finds the member (variables/enum_members.py): CPython does
the lookup and the member is a constant. Before, `Color(2)` fell back ("creating Color, whose
metaclass is EnumType"), and so did calendar.weekday on 3.12, which returns `Day(n)`. A lookup
that could run user code (a `_missing_` hook, a user metaclass `__call__`, a member whose
value is a user object) falls back with its reason."""

from __future__ import annotations

import enum
from typing import Any

import pytest

import tracer
from tests.differential.helpers import check


class Color(enum.IntEnum):
    RED = 1
    GREEN = 2


class Shape(enum.Enum):
    SQUARE = (4, "sides")
    POINT = None


class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1


class Level(enum.StrEnum):
    LOW = "low"


class WithMissing(enum.Enum):
    A = 1

    @classmethod
    def _missing_(cls, value: object) -> WithMissing:
        print("missing", value)
        return cls.A


class Box:
    def __eq__(self, other: object) -> bool:
        print("Box.__eq__")
        return other == 1

    def __hash__(self) -> int:
        return 1


class Boxed(enum.Enum):
    BOX = Box()


class LoudMeta(enum.EnumMeta):
    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        print("LoudMeta.__call__")
        return super().__call__(*args, **kwargs)


class Loud(enum.Enum, metaclass=LoudMeta):
    A = 1


def int_enum(n: int) -> Any:
    c = Color(n)
    return c, c + 1, c == 2, Color(c), c.name, Color(True)


def plain_enum() -> Any:
    return Shape((4, "sides")), Shape(None), Shape(Shape.POINT)


def flags(n: int) -> Any:
    return Perm(n), Perm(0), Level("low")


def no_such_member(n: int) -> Any:
    return Color(n)


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (int_enum, (2,)),
        (plain_enum, ()),
        (flags, (6,)),
        (flags, (9,)),
        (no_such_member, (7,)),
        (no_such_member, ("1",)),
    ],
)
def test_member_lookup_traces_whole(fn: Any, args: tuple[Any, ...]) -> None:
    check(fn, *args)


def missing_hook(n: int) -> Any:
    return WithMissing(n)


def user_value() -> Any:
    return Boxed(1)  # 1 hashes as Box() does: the lookup would call Box.__eq__


def user_metaclass() -> Any:
    return Loud(1)


def functional_api() -> Any:
    return [m.name for m in enum.Enum("Made", "A B")]


@pytest.mark.parametrize(
    ("fn", "reason"),
    [
        (missing_hook, "looking up a member of WithMissing: it defines _missing_"),
        (user_value, "looking up a member of Boxed: a member's value is not a constant"),
        (user_metaclass, "looking up a member of Loud: its metaclass LoudMeta defines __call__"),
        (functional_api, "calling Enum, which has no members (the functional API)"),
    ],
)
def test_lookups_that_could_run_user_code_fall_back(fn: Any, reason: str) -> None:
    args = (5,) if fn is missing_hook else ()
    explanation = tracer.explain(fn)(*args)
    assert reason in str(explanation.break_reasons[0])
    tracer.testing.assert_same_behavior(fn, *args)
