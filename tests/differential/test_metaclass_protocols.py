"""Protocol calls on a class go to its metaclass (CPython looks special methods up on the type
of the object, here the metaclass): `for c in Color`, `list(Color)`, `len(Color)`,
`Color.RED in Color`, `reversed(Color)` trace EnumType's Python methods with the class bound,
as they do a user metaclass's. CPython's test_enum iterates Enum classes in most tests."""

from __future__ import annotations

import enum
import types
from collections.abc import Iterator
from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


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


class Answer:
    """A descriptor written in Python: reading it from the class gives `__get__(None, cls)`."""

    def __get__(self, obj: Any, cls: Any = None) -> int:
        return 42 if obj is None else 7


class WithDescriptor:
    answer = Answer()


class Redirected(enum.Enum):
    """3.11 puts an `enum.property` redirect in the class for a member whose name a base
    class defines as a property."""

    name_ = 1
    value = 2  # Enum's own `value` is a property: this member is a redirect


def descriptor_read_from_the_class(n: int) -> Any:
    return WithDescriptor.answer + n, Redirected.value, Redirected.value.value


def descriptor_read_from_an_instance(n: int) -> Any:
    return WithDescriptor().answer + n


def test_python_descriptor_read_from_a_class() -> None:
    """Its `__get__(None, cls)` is traced (the tracer used to give the descriptor object
    itself: a TypeError on `+`, and an `enum.property` for an Enum member)."""
    check(descriptor_read_from_the_class, 1)
    assert_same_behavior(descriptor_read_from_an_instance, 1)


class ClassOnly(types.DynamicClassAttribute):
    """Raises AttributeError when read from the class: then the metaclass's __getattr__."""


class WithFallback(enum.Enum):
    A = 1
    x = ClassOnly(lambda self: 5)  # not a member: a descriptor


def descriptor_failing_on_the_class(n: int) -> Any:
    return WithFallback.A.x + n, WithFallback.x  # EnumType.__getattr__ raises AttributeError


def test_descriptor_failing_on_the_class_asks_the_metaclass() -> None:
    assert_same_behavior(descriptor_failing_on_the_class, 1)
