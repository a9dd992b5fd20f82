"""`super()` with no arguments after a graph break: CPython takes the frame's first local as
the object (and `__class__` from its cell). A resume function's first slot held a value of the
stack, deleted by its prologue ("super(): arg[0] deleted"), or another value ("obj must be an
instance or subtype of type"), and `self` counted as dead when only `super()` used it. The
first local is now passed and held in the resume function's first slot
(`tracer.codegen.resume.super_self`)."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


class Base:
    def __init__(self) -> None:
        self.b = 1

    def m(self, x: Any) -> Any:
        return x + 1


class AfterPrint(Base):
    def m(self, x: Any) -> Any:
        print("derived m")  # a break: the rest resumes
        return super().m(x) * 2


class AfterBranch(Base):
    def m(self, x: Any) -> Any:
        if x.sum() > 0:  # a break on a tensor's value
            return super().m(x)
        return x


class InInit(Base):
    def __init__(self) -> None:
        print("init")
        super().__init__()


def after_print(x: Any) -> Any:
    return AfterPrint().m(x)


def after_branch(x: Any) -> Any:
    return AfterBranch().m(x)


def in_init(x: Any) -> Any:
    made = InInit.__new__(InInit)
    made.__init__()  # type: ignore[misc]
    return made.b + x


def test_super_after_a_print() -> None:
    assert_same_behavior(after_print, 1)


def test_super_after_a_branch_on_a_tensor() -> None:
    assert_same_behavior(after_branch, torch.ones(2))


def test_super_in_init_after_a_print() -> None:
    assert_same_behavior(in_init, 1)


class AfterTwoPrints(Base):
    def m(self, x: Any) -> Any:
        print("one")
        print("two")  # a break inside the first resume function
        return super().m(x)


def after_two_prints(x: Any) -> Any:
    return AfterTwoPrints().m(x)


def test_super_after_two_breaks() -> None:
    """The second resume function is made from the first: it finds `self` among the first's
    parameters (`torch.autograd.Function.apply` breaks twice before its `super().apply`)."""
    assert_same_behavior(after_two_prints, 1)
