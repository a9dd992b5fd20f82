"""A class's `__bases__` assigned after the compile gives it (and its subclasses) a new MRO:
what a trace found missing at fixed MRO positions (`type(L['o']).__mro__[1].__dict__`), the
classes `isinstance` walked, and the classes before a base where a stored class attribute was
found are no longer the ones guarded. Each test compiles, calls, reassigns `__bases__` (and
then changes a class of the new MRO), and compares the same cached function with plain Python."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest

import tracer


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    try:
        return ("returned", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e), str(e))


class Classes:
    """A fresh `Derived(Base)` and an unrelated `Middle`, which `Derived.__bases__` takes in."""

    def __init__(self) -> None:
        class Base:
            def method(self) -> str:
                return "Base"

        class Middle:
            def method(self) -> str:
                return "Middle"

        class Derived(Base):
            def via_super(self) -> str:
                return super().method()  # type: ignore[no-any-return]

        self.base, self.middle, self.derived = Base, Middle, Derived


def getattr_default(obj: Any) -> Any:
    return getattr(obj, "later", "default")


def is_base(obj: Any, classes: Classes) -> Any:
    return isinstance(obj, classes.base), issubclass(type(obj), classes.base)


def class_getattr_default(obj: Any) -> Any:
    return getattr(type(obj), "later", "default")


def store_on_base_then_read(obj: Any, classes: Classes) -> Any:
    classes.base.shared = "stored"
    return obj.shared


def length(obj: Any) -> Any:
    return len(obj)


def through_super(obj: Any) -> Any:
    return obj.via_super(), obj.method()


def set_on_base_later(classes: Classes) -> None:
    """The new MRO puts `Base` behind `Middle`; then `Base` gains what was missing."""
    classes.derived.__bases__ = (classes.middle, classes.base)
    classes.base.later = "on Base"  # type: ignore[attr-defined]
    classes.base.__len__ = lambda self: 3  # type: ignore[attr-defined]


def drop_base(classes: Classes) -> None:
    classes.derived.__bases__ = (classes.middle,)


def middle_first(classes: Classes) -> None:
    classes.derived.__bases__ = (classes.middle, classes.base)
    classes.middle.shared = "on Middle"  # type: ignore[attr-defined]


CASES: dict[str, tuple[Callable[..., Any], Callable[[Classes], None], bool]] = {
    # (function, the change after the first call, whether the function takes `classes`)
    "missing_attribute": (getattr_default, set_on_base_later, False),
    "missing_class_attribute": (class_getattr_default, set_on_base_later, False),
    "missing_special_method": (length, set_on_base_later, False),
    "isinstance": (is_base, drop_base, True),
    "stored_on_a_base": (store_on_base_then_read, middle_first, True),
    # found methods are read through the class (getattr follows the live MRO): already held
    "super_and_method": (through_super, middle_first, False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_class_whose_bases_are_reassigned_after_the_compile(case: str) -> None:
    fn, change, takes_classes = CASES[case]
    classes = Classes()

    def run_both() -> None:
        args = (classes.derived(), classes) if takes_classes else (classes.derived(),)
        assert outcome(compiled, *args) == outcome(fn, *args)

    compiled = tracer.compile(fn)
    run_both()
    change(classes)
    run_both()


def test_a_subclass_s_mro_changes_with_its_base_s_bases() -> None:
    """Assigning a base's `__bases__` gives every subclass a new MRO too."""
    classes = Classes()

    class Leaf(classes.derived):  # type: ignore[name-defined,misc]
        pass

    compiled = tracer.compile(getattr_default)
    assert compiled(Leaf()) == getattr_default(Leaf()) == "default"
    set_on_base_later(classes)
    assert compiled(Leaf()) == getattr_default(Leaf()) == "on Base"


def test_a_class_of_object_alone_can_take_a_c_base() -> None:
    """`(Plain, object)` is an MRO too: a C type laid out as `object` (datetime.tzinfo) can
    become the base, and what it holds is then found."""

    class Plain:
        pass

    def has_utcoffset(obj: Any) -> Any:
        return hasattr(obj, "utcoffset")

    compiled = tracer.compile(has_utcoffset)
    assert compiled(Plain()) is has_utcoffset(Plain()) is False
    Plain.__bases__ = (datetime.tzinfo,)
    assert compiled(Plain()) is has_utcoffset(Plain()) is True
