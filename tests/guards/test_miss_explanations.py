"""The miss path explains with the check's own expressions, one guard at a time
(`CompiledGuards.first_failure`): a guard that holds is never named as the reason."""

from __future__ import annotations

from guards import Guard, GuardKind
from guards.manager import CompiledGuards
from guards.sources import ItemSource, LocalSource


class Thing:
    pass


def compiled_guards(*guards: Guard) -> CompiledGuards:
    return CompiledGuards(list(guards), f_globals={}, builtins={}, closure=None)


def test_an_aliasing_guard_explains_from_the_frame_locals() -> None:
    """The miss path's per-guard predicates read an aliasing guard's other source from `L`
    too: they were `lambda ___v: ___v is L['xs'][0]` with no `L`, so `failure()` named a
    guard that holds (found while testing statistics' `_sum`, whose list repeats one item)."""
    xs = LocalSource("xs")
    first, second = ItemSource(xs, 0), ItemSource(xs, 1)
    guards = compiled_guards(
        Guard(GuardKind.TYPE_MATCH, xs, list),
        Guard(GuardKind.LENGTH_CHECK, xs, 2),
        Guard(GuardKind.OBJECT_ALIASING, second, first),
    )
    same = Thing()
    assert guards.check({"xs": [same, same]})
    assert guards.failure_reason({"xs": [same, same]}) is None
    assert not guards.check({"xs": [same, Thing()]})
    assert guards.failure_reason({"xs": [same, Thing()]}) == (
        "L['xs'][1] is L['xs'][0] (actual a different object)"
    )
