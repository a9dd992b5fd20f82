"""Objects inside traced code: `__slots__` members and property setters/deleters, attributes
of classes with a metaclass, `super()` in classmethods, `object()` sentinels and `id()` of
objects from outside. Each test checks the construct is in the bytecode, that the function
traces whole (fullgraph), and that it behaves as plain Python."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
from tests.differential.helpers import check
from tests.differential.opcodes import assert_traced_whole, assert_uses
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import assert_same_behavior


# -- __slots__ -----------------------------------------------------------------------------------
class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a


class SlottedChild(Slotted):
    __slots__ = ("c",)


def slots_read_write_delete(s):
    s.b = s.a + 1
    total = s.a + s.b
    del s.a
    return total


def slots_read_empty(s):
    return s.b


def slots_delete_empty(s):
    del s.b


def slots_fill_then_delete(s):
    s.b = 1
    del s.b
    return hasattr(s, "b")


def slots_new_object(x):
    s = SlottedChild(x)
    s.c = x * 2
    return s.a + s.c, s


def slots_read_after_delete(s):
    s.b = 1
    del s.b
    return s.b


def slots_new_object_read_empty(x):
    s = SlottedChild(x)
    try:
        return s.c
    except AttributeError as e:
        return str(e), x


def slots_new_object_delete_empty(x):
    s = SlottedChild(x)
    del s.c


def slots_setattr_unknown(s):
    s.zzz = 1


@pytest.mark.parametrize(
    ("fn", "opcode"),
    [
        (slots_read_write_delete, "STORE_ATTR"),
        (slots_read_empty, "LOAD_ATTR"),
        (slots_delete_empty, "DELETE_ATTR"),
        (slots_fill_then_delete, "DELETE_ATTR"),
    ],
)
def test_slots(fn, opcode):
    assert_uses(fn, opcode)
    assert_traced_whole(fn, Slotted(1))
    check(fn, Slotted(1))
    filled = Slotted(2)
    filled.b = 5
    check(fn, filled)


def test_slots_new_object():
    assert_traced_whole(slots_new_object, 3)
    check(slots_new_object, 3)


@pytest.mark.parametrize(
    "fn", [slots_read_after_delete, slots_new_object_read_empty, slots_new_object_delete_empty]
)
def test_empty_slot_errors_are_cpythons(fn):
    """An empty slot of an object made or emptied in the frame raises CPython's own error (3.13
    names the class with its module when reading, 3.11 does not)."""
    arg = Slotted(1) if fn is slots_read_after_delete else 3
    assert_traced_whole(fn, arg)
    check(fn, arg)


def test_slots_guard_the_filled_state():
    compiled = tracer.compile(slots_read_empty)
    filled = Slotted(1)
    filled.b = 7
    assert compiled(filled) == 7
    with pytest.raises(AttributeError) as eager:
        slots_read_empty(Slotted(1))
    with pytest.raises(AttributeError) as compiled_error:
        compiled(Slotted(1))
    assert str(compiled_error.value) == str(eager.value)


# -- properties --------------------------------------------------------------------------------
class Temperature:
    def __init__(self):
        self._c = 0.0

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, value):
        self._c = float(value)

    @celsius.deleter
    def celsius(self):
        del self._c

    read_only = property(lambda self: 1)
    no_getter = property(None, lambda self, v: None)


def property_set_read_delete(t, v):
    t.celsius = v
    got = t.celsius
    del t.celsius
    return got, hasattr(t, "_c")


def property_without_setter(t, v):
    t.read_only = v


def property_without_deleter(t, v):
    del t.read_only


def property_without_getter(t, v):
    return t.no_getter


@pytest.mark.parametrize(
    "fn",
    [
        property_set_read_delete,
        property_without_setter,
        property_without_deleter,
        property_without_getter,
    ],
)
def test_property(fn):
    assert_traced_whole(fn, Temperature(), 3)
    check(fn, Temperature(), 3)


# -- metaclasses -------------------------------------------------------------------------------
class Meta(type):
    tag = "meta"

    def describe(cls, x):
        return f"{cls.__name__}:{x}"

    @property
    def loud(cls):
        return cls.__name__.upper()


class WithMeta(metaclass=Meta):
    value = 2
    tag_override = "own"


class Child(WithMeta):
    pass


def metaclass_attributes(x):
    return WithMeta.value + x, WithMeta.tag, WithMeta.describe(x), WithMeta.loud, Child.tag


def metaclass_missing(x):
    return WithMeta.nothing


@pytest.mark.parametrize("fn", [metaclass_attributes, metaclass_missing])
def test_metaclass(fn):
    assert_uses(fn, "LOAD_ATTR")
    assert_traced_whole(fn, 1)
    check(fn, 1)


def test_metaclass_attribute_shadowed_later_misses():
    compiled = tracer.compile(metaclass_attributes)
    assert compiled(1) == metaclass_attributes(1)
    Child.tag = "child"
    try:
        assert compiled(1) == metaclass_attributes(1)
        assert compiled(1)[4] == "child"
    finally:
        del Child.tag


# -- super() -----------------------------------------------------------------------------------
class Base:
    def method(self, x):
        return x + 1

    @classmethod
    def make(cls, x):
        return (cls.__name__, x)

    @staticmethod
    def helper(x):
        return x * 10


class Derived(Base):
    def method(self, x):
        return super().method(x) * 2

    @classmethod
    def make(cls, x):
        return super().make(x + 1), super(Derived, cls).helper(x)  # noqa: UP008

    def two_arg(self, x):
        return super(Derived, self).method(x)  # noqa: UP008

    @classmethod
    def unbound(cls, x):
        return super().method(Derived(), x)


def super_forms(x):
    d = Derived()
    return d.method(x), Derived.make(x), d.two_arg(x), Derived.unbound(x), d.make(x)


def test_super_forms():
    assert_uses(Derived.make.__func__, "COPY_FREE_VARS")  # the __class__ cell of super()
    assert_traced_whole(super_forms, 3)
    check(super_forms, 3)


class WhoBase:
    def who(self):
        return "base"


class DeletesSelf(WhoBase):
    def deleted(self):
        del self
        return super().who()  # CPython: RuntimeError, arg[0] deleted

    def deleted_cell(self):
        keep = lambda: self  # noqa: E731, F821 - `self` is a cell
        del self
        return keep, super().who()

    def captured(self):
        keep = lambda: self  # noqa: E731
        return keep() is self, super().who()


@pytest.mark.parametrize("name", ["deleted", "deleted_cell", "captured"])
def test_super_with_its_first_argument_deleted_or_captured(name):
    """The first argument of a zero-argument super() read from the frame: gone (`del self`)
    is CPython's RuntimeError, not a crash of the tracer. (DELETE_DEREF breaks the frame.)"""
    method = getattr(DeletesSelf, name)
    assert_same_behavior(method, DeletesSelf())
    if name != "deleted_cell":
        assert_same_behavior(method, DeletesSelf(), compile_options={"fullgraph": True})


# -- object() sentinels, id() --------------------------------------------------------------------
MISSING = object()


def sentinel(x):
    marker = object()
    other = object()
    found = marker if x else other
    return found is marker, found is not other, x is marker, marker == other, marker != 1


def outside_sentinel(value, default=MISSING):
    return value is default, default == value, default is None


def sentinel_returned(x):
    return object(), x


class Thing:
    pass


def ids(t, cls):
    return id(t) == id(t), id(cls) == id(Thing), id(t) != id(cls)  # noqa: PLR0124


def test_sentinel():
    assert_uses(sentinel, "IS_OP")
    assert_traced_whole(sentinel, 1)
    check(sentinel, 1)
    check(sentinel, 0)
    assert_traced_whole(sentinel_returned, 1)
    assert type(tracer.compile(sentinel_returned)(1)[0]) is object


def test_id_of_outside_objects():
    assert_traced_whole(ids, Thing(), Thing)
    check(ids, Thing(), Thing)
    compiled = tracer.compile(ids)
    a, b = Thing(), Thing()
    assert compiled(a, Thing) == ids(a, Thing)
    assert compiled(b, Thing) == ids(b, Thing)


# -- class attributes written ----------------------------------------------------------------------
class Tally:
    total = 0

    def add(self, n):
        type(self).total += n
        return self.total


class SubTally(Tally):
    def add_via_dunder_class(self, n):
        self.__class__.total += n
        return self.total


def class_attributes(x, t):
    Tally.total = Tally.total + x
    Tally.history = (x,)
    after = t.add(x)
    if type(t) is SubTally:
        after = (after, t.add_via_dunder_class(x))
    return Tally.total, SubTally.total, t.total, after, SubTally.history


def _class_state():
    return {
        cls.__name__: {k: v for k, v in vars(cls).items() if k in ("total", "history")}
        for cls in (Tally, SubTally)
    }


def _reset_classes():
    Tally.total = 0
    for cls, name in ((Tally, "history"), (SubTally, "total")):
        if name in vars(cls):
            delattr(cls, name)


def _calls(fn, args_list):
    """Results and class state after each call, from one fresh start."""
    _reset_classes()
    outcomes = [(fn(*args), _class_state()) for args in args_list]
    _reset_classes()
    return outcomes


def test_class_attributes_replayed_onto_the_class():
    assert_uses(class_attributes, "STORE_ATTR")
    _reset_classes()
    assert_traced_whole(class_attributes, 2, SubTally())
    calls = [(2, SubTally()), (3, SubTally()), (1, Tally())]
    eager = _calls(class_attributes, calls)
    compiled = _calls(tracer.compile(class_attributes, fullgraph=True), calls)
    assert compiled == eager


def test_class_attribute_of_a_base_guarded_not_shadowed():
    def read_through_subclass(x):
        Tally.total = x
        return SubTally.total

    _reset_classes()
    compiled = tracer.compile(read_through_subclass, fullgraph=True)
    assert compiled(4) == 4
    SubTally.total = 100
    try:
        assert compiled(5) == read_through_subclass(5) == 100
    finally:
        _reset_classes()


def test_class_attribute_function_value_falls_back():
    def store_method(x):
        Tally.extra = lambda self: x
        return x

    with pytest.raises(tracer.Unsupported, match="a descriptor"):
        tracer.compile(store_method, fullgraph=True)(1)


# -- `is` between objects from outside (modes, user objects, containers) --------------------------
class Mode(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def identity_between(a, b):
    return a is b, a is not b, a == b if type(a) is Thing else None


@pytest.mark.parametrize("make", [Mode, Thing, list])
def test_is_between_objects_from_outside(make):
    assert_uses(identity_between, "IS_OP")
    a, b = make(), make()
    assert_traced_whole(identity_between, a, b)
    compiled = tracer.compile(identity_between, fullgraph=True)
    assert (
        compiled(a, b) == identity_between(a, b) == (False, True, False if make is Thing else None)
    )
    assert compiled(a, a) == identity_between(a, a)  # the NO_ALIASING guard misses
    assert compiled(b, a) == identity_between(b, a)


def read_only_property_of_a_nested_class(x: Any) -> Any:
    """CPython names the class by its `__qualname__` (`'f.<locals>.Q' object`)."""

    class Q:
        @property
        def r(self) -> int:
            return 1

    q, out = Q(), []
    try:
        q.r = x  # type: ignore[misc]
    except AttributeError as e:
        out.append(str(e))
    try:
        del q.r  # type: ignore[misc]
    except AttributeError as e:
        out.append(str(e))
    return out


def test_a_read_only_property_error_names_the_class_by_its_qualname() -> None:
    assert_same_behavior(read_only_property_of_a_nested_class, 1)
