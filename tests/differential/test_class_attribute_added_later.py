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


class Holder:
    pass


def read_class_attribute(cls: Any) -> Any:
    try:
        return cls.later
    except AttributeError as e:
        return str(e)


def store_and_read(obj: Any) -> Any:
    obj.value = 3
    made: Any = Holder()
    made.value = 4
    return obj.value, made.value


def test_a_class_attribute_read_on_the_class_and_set_later_is_read() -> None:
    compiled = tracer.compile(read_class_attribute)
    assert compiled(Holder) == "type object 'Holder' has no attribute 'later'"
    try:
        Holder.later = 4  # type: ignore[attr-defined]
        assert compiled(Holder) == read_class_attribute(Holder) == 4
    finally:
        del Holder.later  # type: ignore[attr-defined]


def test_a_property_or_setattr_set_on_the_class_later_takes_the_store() -> None:
    """The trace stored into the instance dicts and read the values back; a property or a
    `__setattr__` set on the class afterwards takes the stores (and the property the reads)."""
    compiled = tracer.compile(store_and_read)
    assert compiled(Holder()) == store_and_read(Holder()) == (3, 4)
    stored: list[Any] = []
    try:
        Holder.value = property(  # type: ignore[attr-defined]
            lambda self: "read", lambda self, v: stored.append(v)
        )
        assert compiled(Holder()) == store_and_read(Holder()) == ("read", "read")
        assert stored == [3, 4, 3, 4]
    finally:
        del Holder.value  # type: ignore[attr-defined]
    try:
        Holder.__setattr__ = lambda self, n, v: stored.append(n)  # type: ignore[method-assign]
        compiled_error = None
        try:
            compiled(Holder())
        except AttributeError as e:
            compiled_error = str(e)
        try:
            store_and_read(Holder())
        except AttributeError as e:
            assert compiled_error == str(e) == "'Holder' object has no attribute 'value'"
        assert stored[4:] == ["value"] * 4  # two stores a call, compiled and eager
    finally:
        del Holder.__setattr__
    assert compiled(Holder()) == (3, 4)


def test_super_skips_no_class_that_gains_the_method_later() -> None:
    """`super().m()` found `m` two classes up; a class in between that gains `m` after the
    compile is what `super()` finds first."""

    class Base:
        def m(self) -> str:
            return "Base"

        @classmethod
        def c(cls) -> str:
            return "Base"

    class Between:
        pass

    class Derived(Between, Base):
        def m(self) -> str:
            return "Derived+" + super().m()

        @classmethod
        def c(cls) -> str:
            return "Derived+" + super().c()

    def call(obj: Any) -> Any:
        return obj.m(), type(obj).c()

    compiled = tracer.compile(call)
    assert compiled(Derived()) == call(Derived()) == ("Derived+Base", "Derived+Base")
    Between.m = lambda self: "Between"  # type: ignore[attr-defined]
    Between.c = classmethod(lambda cls: "Between")  # type: ignore[attr-defined]
    assert compiled(Derived()) == call(Derived()) == ("Derived+Between", "Derived+Between")


def make_local_subclass(base: Any) -> Any:
    class Local(base):  # type: ignore[misc,valid-type]
        def own(self) -> Any:
            return "Local+" + super().through_super()

    obj = Local()
    return getattr(obj, "later", 5), getattr(Local, "later_on_class", 5), obj.method(), obj.own()


def test_a_class_made_in_the_frame_sees_its_base_change() -> None:
    """A class statement in the compiled function makes a new class on every call, but what
    it inherits lives on its base from outside: an attribute the base gains (read through an
    object or the class), a method replaced there (called, or reached by `super()`), or an
    `__init_subclass__` set on it after the compile is what eager uses. One change at a time,
    each after the cache holds a trace of the state before it."""

    class Outside:
        def method(self) -> str:
            return "Outside"

        def through_super(self) -> str:
            return "Outside"

    made: list[str] = []
    changes: list[tuple[str, Any]] = [
        ("later", 9),
        ("later_on_class", 8),
        ("method", lambda self: "replaced"),
        ("through_super", lambda self: "replaced"),
        ("__init_subclass__", classmethod(lambda cls: made.append(cls.__name__))),
    ]
    compiled = tracer.compile(make_local_subclass)
    assert compiled(Outside) == make_local_subclass(Outside) == (5, 5, "Outside", "Local+Outside")
    for name, value in changes:
        setattr(Outside, name, value)
        assert compiled(Outside) == make_local_subclass(Outside), name
    assert compiled(Outside) == (9, 8, "replaced", "Local+replaced")
    assert made == ["Local"] * 3


def read_local_property(base: Any) -> Any:
    class Local(base):  # type: ignore[misc,valid-type]
        pass

    return Local().prop


def test_a_property_a_class_made_in_the_frame_inherits_is_read_where_it_lives() -> None:
    class Outside:
        @property
        def prop(self) -> str:
            return "property"

    compiled = tracer.compile(read_local_property)
    assert compiled(Outside) == read_local_property(Outside) == "property"
    Outside.prop = property(lambda self: "replaced")  # type: ignore[method-assign,assignment]
    assert compiled(Outside) == read_local_property(Outside) == "replaced"
