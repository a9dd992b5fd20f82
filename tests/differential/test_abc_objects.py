"""Objects of a class whose metaclass is not `type`: `abc.ABC` subclasses (ABCMeta), a user
metaclass with no `__call__`. Calling the class runs `type.__call__` (its `__new__`, then its
`__init__`), so the object is made in the trace as for any class; creating one used to break
the frame ("whose metaclass is ABCMeta"). What the trace decided is guarded: the metaclass
still lacks `__call__` (a user metaclass can gain one), and the class's `__abstractmethods__`
(which `object.__new__` checks: an abstract class raises CPython's TypeError) is the same."""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.differential.helpers import check
from tracer.testing import CompileCounter


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...

    def scaled(self, x: Any) -> Any:
        return x * self.area()


class Square(Shape):
    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        return self.side * self.side


class Unfinished(Shape):
    pass


class Registry(type):
    """A user metaclass with no `__call__`: calling its classes is type's call."""


class Plugin(metaclass=Registry):
    def __init__(self, gain: float) -> None:
        self.gain = gain


class Made(abc.ABC):  # noqa: B024 - an ABC with no abstract method is still made by ABCMeta
    def __new__(cls, *args: Any) -> Any:
        made = super().__new__(cls)
        made.args = args
        return made


def abc_object(x: Any) -> Any:
    square = Square(2.0)
    return square.scaled(x), isinstance(square, Shape), Plugin(3.0).gain * x, Made(1, 2).args


def abstract_class(x: Any) -> Any:
    try:
        Unfinished()
    except TypeError as e:
        return str(e), x
    return None


def test_an_abc_object_is_made_in_the_trace() -> None:
    check(abc_object, torch.ones(3))


def test_an_abstract_class_raises_cpythons_error() -> None:
    check(abstract_class, 2)


def test_a_metaclass_with_its_own_call_breaks_with_the_same_result() -> None:
    class Counting(type):
        def __call__(cls, *args: Any) -> Any:
            return ("made", cls.__name__, args)

    class Widget(metaclass=Counting):
        pass

    def fn(x: int) -> Any:
        return Widget(x)

    tracer.reset()
    with CompileCounter() as counter:
        assert tracer.compile(fn)(1) == fn(1) == ("made", "Widget", (1,))
    assert counter.graph_breaks == 1


def _outcome(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return ("returned", fn(*args))
    except (TypeError, AttributeError) as e:
        return ("raised", type(e), str(e))


@pytest.mark.parametrize(
    "change, undo",
    [
        (
            lambda: setattr(Registry, "__call__", lambda cls, *args: "from the metaclass"),
            lambda: delattr(Registry, "__call__"),
        ),
        (
            lambda: setattr(Square, "__abstractmethods__", frozenset({"area"})),
            lambda: setattr(Square, "__abstractmethods__", frozenset()),
        ),
    ],
    ids=["__call__ set on the metaclass", "the class made abstract"],
)
def test_a_change_after_the_compile_is_seen(
    change: Callable[[], None], undo: Callable[[], None]
) -> None:
    def fn(x: float) -> Any:
        return Square(x).area(), Plugin(x).gain

    tracer.reset()
    compiled = tracer.compile(fn)
    with CompileCounter() as counter:
        assert compiled(2.0) == fn(2.0) == (4.0, 2.0)
        assert compiled(2.0) == fn(2.0)
    assert counter.compiles == 1 and counter.graph_breaks == 0
    change()
    try:
        assert _outcome(compiled, 2.0) == _outcome(fn, 2.0)
    finally:
        undo()


class Logged(abc.ABC):  # noqa: B024 - only its metaclass matters
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def __eq__(self, other: object) -> bool:
        self.log.append(f"{type(self).__name__}.__eq__")
        return NotImplemented


class Virtual:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def __eq__(self, other: object) -> bool:
        self.log.append("Virtual.__eq__")
        return NotImplemented


Logged.register(Virtual)


def comparison_order(x: int) -> Any:
    log: list[str] = []
    _ = Logged(log) == Virtual(log)
    return log, x


def test_a_virtual_subclass_is_not_tried_first() -> None:
    """CPython tries the right operand's method first only for a real subclass (by the MRO),
    not a class registered with an ABC (CPython's test_binop `test_comparison_orders`): the
    trace used `issubclass`, now that objects of an ABC are made in the trace."""
    check(comparison_order, 1)
