"""Protocol calls on a class go to its metaclass (CPython looks special methods up on the type
of the object, here the metaclass): `for c in Color`, `list(Color)`, `len(Color)`,
`Color.RED in Color`, `reversed(Color)` trace EnumType's Python methods with the class bound,
as they do a user metaclass's. CPython's test_enum iterates Enum classes in most tests."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

import pytest

from tests.differential.helpers import check


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1


class Meta(type):
    def __len__(cls) -> int:
        return 7

    def __iter__(cls) -> Iterator[int]:
        yield from range(3)

    def __contains__(cls, x: Any) -> bool:
        return bool(x == 2)

    def __reversed__(cls) -> Iterator[str]:
        return iter("ba")


class WithMeta(metaclass=Meta):
    pass


def enum_members(n: int) -> Any:
    names = [c.name for c in Color]
    return names, list(Color)[n], len(Color), Color.RED in Color, list(reversed(Color))


def flag_members(n: int) -> Any:
    return list(Perm), len(Perm), [m.value for m in Perm][n]


def user_metaclass(n: int) -> Any:
    return len(WithMeta), list(WithMeta), n in WithMeta, sorted(WithMeta), list(reversed(WithMeta))


@pytest.mark.parametrize("fn", [enum_members, flag_members, user_metaclass])
def test_protocols_of_a_class_use_its_metaclass(fn: Any) -> None:
    check(fn, 1)
