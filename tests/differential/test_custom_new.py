"""Classes whose `__new__` is Python code: `cls(...)` inlines `cls.__new__(cls, ...)` and then,
for an instance of cls, `__init__`, as `type.__call__` does; `super().__new__(cls)` and
`object.__new__(C)` make a blank instance (variables/user_defined.py ObjectNewVariable).
Before, each fell back ("creating P, which customizes __new__", "super().__new__ on a class",
"attribute '__new__' of type"). `check` compiles with fullgraph=True."""

from __future__ import annotations

import abc
import dis
from fractions import Fraction

import pytest

import tracer
from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


class Slotted:
    __slots__ = ("a",)

    def __new__(cls, a):
        self = super().__new__(cls)
        self.a = a
        return self


class NewAndInit:
    def __new__(cls, *args):
        obj = object.__new__(cls)
        obj.log = ["new"]
        return obj

    def __init__(self, x, y=0):
        self.log.append(("init", x, y))


class NotAnInstance:
    def __new__(cls, x):
        return x * 2

    def __init__(self, x):  # never called: __new__ made no instance of the class
        raise AssertionError


class Plain:
    pass


def slotted(x):
    s = Slotted(x)
    return s.a, s, type(s).__name__


def new_and_init(x):
    return NewAndInit(x).log, NewAndInit(x, y=x).log


def not_an_instance(x):
    return NotAnInstance(x)


def blank(x):
    p = object.__new__(Plain)
    p.v = x
    return p, isinstance(p, Plain)


def bad_init():
    return NewAndInit()


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (slotted, (2,)),
        (new_and_init, (3,)),
        (not_an_instance, (4,)),
        (blank, (5,)),
        (bad_init, ()),
        (Fraction.__new__, (Fraction, 3, 4)),
        (Fraction.__new__, (Fraction, "3/4")),
        (Fraction.__new__, (Fraction, 1, 0)),
    ],
)
def test_custom_new_traces_whole(fn, args) -> None:
    check(fn, *args)


def test_fraction_new_calls_super_new() -> None:
    assert "super" in {i.argval for i in dis.get_instructions(Fraction.__new__)}


class WithMeta(abc.ABC):  # noqa: B024 (an ABC with no abstract methods: only its metaclass matters)
    pass


def with_meta():
    return WithMeta()


def test_a_class_with_a_metaclass_without_call_is_made_in_the_trace() -> None:
    """ABCMeta defines no `__call__`: calling the class is type's call (it used to break,
    "whose metaclass is ABCMeta"; tests/differential/test_abc_objects.py)."""
    assert tracer.explain(with_meta)().graph_break_count == 0
    assert_same_behavior(with_meta)
