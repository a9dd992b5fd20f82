"""A trace that found an attribute missing on an object (an AttributeError caught, a
`getattr` default, `hasattr`, or `Module.__getattr__` asked) holds only while no class on the
object's MRO gains that attribute: the ordinary lookup would find it there first. Each test
compiles, sets the class attribute, and compares with eager on the same (cached) function."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch
from tracer.runtime import nn


class Plain:
    def __init__(self) -> None:
        self.here = 1


class Base:
    pass


class Derived(Base):
    pass


def read_with_default(obj: Any) -> Any:
    return getattr(obj, "later", 5), hasattr(obj, "also_later")


def read_or_catch(obj: Any) -> Any:
    try:
        return obj.later
    except AttributeError as e:
        return str(e)


def test_a_class_attribute_set_after_a_getattr_default_is_read() -> None:
    compiled = tracer.compile(read_with_default)
    obj = Plain()
    assert compiled(obj) == read_with_default(obj) == (5, False)
    try:
        Plain.later = 9  # type: ignore[attr-defined]
        Plain.also_later = None  # type: ignore[attr-defined]
        assert compiled(obj) == read_with_default(obj) == (9, True)
    finally:
        for name in ("later", "also_later"):
            if name in vars(Plain):
                delattr(Plain, name)
    assert compiled(obj) == (5, False)


def test_an_attribute_set_on_a_base_class_after_an_attribute_error_is_read() -> None:
    compiled = tracer.compile(read_or_catch)
    obj = Derived()
    assert compiled(obj) == read_or_catch(obj) == "'Derived' object has no attribute 'later'"
    try:
        Base.later = "on the base"  # type: ignore[attr-defined]
        assert compiled(obj) == read_or_catch(obj) == "on the base"
    finally:
        del Base.later  # type: ignore[attr-defined]
    reasons = compiled.last_miss_reasons or []
    assert any("__mro__" in r and "'later'" in r for r in reasons), reasons


def test_a_new_object_s_missing_attribute_holds_while_its_class_lacks_it() -> None:
    def make_and_read() -> Any:
        return getattr(Plain(), "later", 5)

    compiled = tracer.compile(make_and_read)
    assert compiled() == 5
    try:
        Plain.later = 9  # type: ignore[attr-defined]
        assert compiled() == make_and_read() == 9
    finally:
        del Plain.later  # type: ignore[attr-defined]


class Wrapper(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.inner = nn.Linear(2, 2)

    def forward(self, x: Any) -> Any:
        return self.inner(x)


def call_inner(module: Any, x: Any) -> Any:
    try:
        return module.inner(x)
    except TypeError as e:
        return str(e)


def test_a_runtime_module_s_class_attribute_shadows_its_submodule() -> None:
    """`Module.__getattr__` is asked only when the ordinary lookup finds nothing: a class
    attribute of the submodule's name, set after the compile, is what eager calls."""
    module, x = Wrapper(), torch.ones(2)
    compiled = tracer.compile(call_inner)
    assert compiled(module, x).tolist() == call_inner(module, x).tolist()
    try:
        Wrapper.inner = 7.0  # type: ignore[assignment]
        assert compiled(module, x) == call_inner(module, x) == "'float' object is not callable"
    finally:
        del Wrapper.inner  # type: ignore[misc]
    assert compiled(module, x).tolist() == call_inner(module, x).tolist()
