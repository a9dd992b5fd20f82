"""A guard that pins a class whose objects read attributes generically (a TYPE_MATCH of the
object's class, an ID_MATCH or CLOSURE_MATCH on the class) also checks the class still finds
`object.__getattribute__`, decided when the guard is made (guards.builder's NOTE [generic
attribute reads]); a miss names why."""

from __future__ import annotations

from typing import Any

import pytest

from guards import CompiledGuards, Guard, GuardKind, LocalSource


def compiled(kind: GuardKind, expected: Any) -> CompiledGuards:
    guard = Guard(kind, LocalSource("v"), expected)
    return CompiledGuards([guard], f_globals={}, builtins={}, closure=None)


def make_classes() -> tuple[type, type]:
    class Base:
        pass

    class Child(Base):
        pass

    return Base, Child


def hook(self: Any, name: str) -> Any:
    return object.__getattribute__(self, name)


@pytest.mark.parametrize("on_base", [False, True])
@pytest.mark.parametrize(
    "kind", [GuardKind.TYPE_MATCH, GuardKind.ID_MATCH, GuardKind.CLOSURE_MATCH]
)
def test_a_pin_misses_once_the_class_or_a_base_gains_getattribute(
    kind: GuardKind, on_base: bool
) -> None:
    base, child = make_classes()
    guards = compiled(kind, child)
    value = child() if kind is GuardKind.TYPE_MATCH else child
    assert guards.check({"v": value})
    (base if on_base else child).__getattribute__ = hook  # type: ignore[method-assign]
    assert not guards.check({"v": value})
    reason = guards.failure_reason({"v": value})
    assert reason is not None
    assert "whose objects' attributes a __getattribute__ of its own reads" in reason


def test_decided_when_the_guard_is_made_not_when_rendered() -> None:
    """The check of a guard made before the change is rendered (or a miss explained) after
    it: still the test of the class as it was."""
    _base, child = make_classes()
    guard = Guard(GuardKind.TYPE_MATCH, LocalSource("v"), child)
    child.__getattribute__ = hook  # type: ignore[method-assign]
    guards = CompiledGuards([guard], f_globals={}, builtins={}, closure=None)
    assert not guards.check({"v": child()})
    assert guards.failure_reason({"v": child()}) is not None


def test_classes_that_cannot_change_or_read_by_a_hook_are_pinned_alone() -> None:
    class Hooked:
        __getattribute__ = hook

    for kind, expected in [
        (GuardKind.TYPE_MATCH, int),
        (GuardKind.ID_MATCH, object),
        (GuardKind.TYPE_MATCH, Hooked),
        (GuardKind.ID_MATCH, print),
    ]:
        assert "__getattribute__" not in compiled(kind, expected).source


class Meta(type):
    reads = 0

    def __getattribute__(cls, name: str) -> Any:
        Meta.reads += 1
        return super().__getattribute__(name)


def test_a_metaclass_hook_is_not_run_by_the_check() -> None:
    class Counted(metaclass=Meta):
        pass

    guards = compiled(GuardKind.TYPE_MATCH, Counted)
    obj = Counted()
    assert guards.check({"v": obj})  # (compiling the check reads the class's name)
    reads = Meta.reads
    assert guards.check({"v": obj})
    assert Meta.reads == reads
    type.__setattr__(Counted, "__getattribute__", hook)
    assert not guards.check({"v": obj})
