"""A fallback at an attribute read of an object whose class holds its own `__getattribute__`
names the real cause: every C type's dict holds a `__getattribute__` slot wrapper (set's, dict's,
int's, ...), so a subclass of one used to be reported as "SetSubclass defines __getattribute__"
although nobody wrote one."""

from __future__ import annotations

from typing import Any

import tracer
from tracer.testing import assert_same_behavior


class SetSubclass(set[int]):
    pass


class Logged:
    def __getattribute__(self, name: str) -> Any:
        return object.__getattribute__(self, name)


class LoggedChild(Logged):
    def __init__(self) -> None:
        self.x = 3


def read_x(obj: Any) -> Any:
    return obj.x


def read_copy(obj: Any) -> Any:
    return sorted(obj.copy())


def test_a_builtin_subclass_is_named_as_built_on_a_c_type() -> None:
    s = SetSubclass({1, 2})
    reasons = [str(r) for r in tracer.explain(read_copy)(s).break_reasons]
    assert len(reasons) == 1
    assert "attributes of SetSubclass objects (built on C type set) are not modeled" in reasons[0]
    assert "defines __getattribute__" not in reasons[0]
    assert_same_behavior(read_copy, SetSubclass({1, 2}))


def test_a_user_getattribute_names_the_class_that_defines_it() -> None:
    reasons = [str(r) for r in tracer.explain(read_x)(LoggedChild()).break_reasons]
    assert len(reasons) == 1
    assert "Logged defines __getattribute__" in reasons[0]
    assert_same_behavior(read_x, LoggedChild())
