"""Corners of CPython's protocols, compiled as eagerly (found by a differential hunt):

- `object.__init__` given arguments through `super().__init__(...)`: CPython refuses them
  unless the class overrides `__new__` and not `__init__`, with a message that names the
  instance ("(the instance to initialize)"); the trace always refused, with a shorter one;
- `super().__self__`, `__self_class__`, `__thisclass__`: attributes of the super object itself
  (the trace raised AttributeError);
- `",".join(o)`, `bytes(o)` and `bytearray(o)` of an object whose `__iter__` returns no
  iterator: each replaces `iter()`'s TypeError with its own message;
- a special method pinned weakly by a guard, replaced by None (the function died): the miss's
  explanation read `None.__code__` (an InternalError).
"""

from __future__ import annotations

from typing import Any

import pytest

import tracer
from tracer.testing import assert_same_behavior


class InitOverridden:
    def __init__(self, x: int) -> None:
        super().__init__(x)  # type: ignore[call-arg]


class NewOverridden:
    def __new__(cls, *args: Any) -> Any:
        return super().__new__(cls)


class Neither:
    pass


def init_with_arguments(cls: type) -> Any:
    if cls is InitOverridden:
        return InitOverridden(1)
    obj = cls.__new__(cls)

    class Probe(cls):  # type: ignore[valid-type,misc]
        def touch(self, x: int) -> Any:
            return super(cls, self).__init__(x)  # type: ignore[misc]

    return type(obj).__name__, Probe.__new__(Probe).touch(2)


@pytest.mark.parametrize("cls", [InitOverridden, NewOverridden, Neither])
def test_object_init_given_arguments(cls: type) -> None:
    assert_same_behavior(init_with_arguments, cls)


class Base:
    pass


class Derived(Base):
    def attribute_of_super(self, name: str) -> Any:
        return getattr(super(), name) is not None


@pytest.mark.parametrize("name", ["__self__", "__self_class__", "__thisclass__"])
def test_attributes_of_the_super_object(name: str) -> None:
    assert_same_behavior(lambda obj, name: obj.attribute_of_super(name), Derived(), name)


class NotAnIterator:
    def __iter__(self) -> Any:
        return [1, 2]


@pytest.mark.parametrize("fn", [lambda o: ",".join(o), lambda o: bytes(o), lambda o: bytearray(o)])
def test_consumers_replace_iters_type_error(fn: Any) -> None:
    assert_same_behavior(fn, NotAnIterator())


def test_a_pinned_special_method_that_died() -> None:
    class Truthy:
        pass

    def fn(obj: Any) -> Any:
        return "T" if obj else "F"

    compiled = tracer.compile(fn)
    Truthy.__bool__ = lambda self: True  # type: ignore[attr-defined]
    assert compiled(Truthy()) == "T"
    Truthy.__bool__ = None  # type: ignore[attr-defined]  # the pinned function dies
    with pytest.raises(TypeError, match="'NoneType' object is not callable"):
        fn(Truthy())
    with pytest.raises(TypeError, match="'NoneType' object is not callable"):
        compiled(Truthy())
