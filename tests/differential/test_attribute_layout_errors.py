"""Attribute accesses an instance's layout refuses, and AttributeErrors that CPython hands to a
class's `__getattr__` (found by the exactness hunt, none covered before):

- storing a name that is no slot on an instance with no `__dict__` raises CPython's error
  (the trace used to store it as if the instance had a dict, or replay the store after the
  frame's handlers were gone);
- a class attribute of a `__slots__` class is read-only on its instances;
- an AttributeError from a property's getter, from a property with no getter, or from an empty
  slot makes CPython call the class's `__getattr__`; `__getattr__` is not traced, so the frame
  falls back with the reason (it used to raise the AttributeError).
"""

from __future__ import annotations

from typing import Any

import pytest

import tracer
from tests.differential.helpers import check
from tests.differential.opcodes import assert_traced_whole
from tracer.testing import CompileCounter, assert_same_behavior


class Slotted:
    __slots__ = ("a",)
    shared = 5


class WithDict(Slotted):
    """No `__slots__` of its own: its instances have a `__dict__` again."""


def store_unknown_on_new(n: int) -> Any:
    s = Slotted()
    s.a = n
    s.b = n


def store_unknown_caught(s: Slotted, n: int) -> Any:
    s.a = n
    try:
        s.b = n
    except AttributeError as e:
        return str(e), s.a
    return "stored"


def store_class_attribute(n: int) -> Any:
    s = Slotted()
    s.shared = n


def store_on_subclass_with_dict(n: int) -> Any:
    s = WithDict()
    s.b = n
    s.a = n + 1
    return s.b, s.a, s.shared


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (store_unknown_on_new, (1,)),
        (store_unknown_caught, (Slotted(), 1)),
        (store_class_attribute, (1,)),
        (store_on_subclass_with_dict, (1,)),
    ],
)
def test_store_without_dict_raises_cpythons_error(fn: Any, args: tuple[Any, ...]) -> None:
    assert_traced_whole(fn, *args)
    check(fn, *args)


class RaisingProperty:
    @property
    def p(self) -> Any:
        raise AttributeError("inside the getter")

    def __getattr__(self, name: str) -> Any:
        return "fallback " + name


class NoGetter:
    p = property(None, lambda self, v: None)

    def __getattr__(self, name: str) -> Any:
        return "fallback " + name


class EmptySlot:
    __slots__ = ("a",)

    def __getattr__(self, name: str) -> Any:
        return "fallback " + name


def read_raising_property(n: int) -> Any:
    return RaisingProperty().p, n


def read_property_without_getter(n: int) -> Any:
    return NoGetter().p, n


def read_empty_slot(n: int) -> Any:
    return EmptySlot().a, n


@pytest.mark.parametrize(
    "fn", [read_raising_property, read_property_without_getter, read_empty_slot]
)
def test_descriptor_attribute_error_goes_to_getattr(fn: Any) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, 1)
    assert counter.graph_breaks
    assert all("defines __getattr__" in reason for reason in counter.graph_break_reasons)


class PlainProperty:
    @property
    def p(self) -> Any:
        raise AttributeError("inside the getter")


def read_plain_raising_property(n: int) -> Any:
    try:
        return PlainProperty().p
    except AttributeError as e:
        return str(e), n


def test_without_getattr_the_property_error_is_traced() -> None:
    assert_traced_whole(read_plain_raising_property, 1)
    check(read_plain_raising_property, 1)
    assert tracer.compile(read_plain_raising_property)(1) == ("inside the getter", 1)
