"""FACTS_MATCH: named facts of one object, read at once by a world's reader (guards/guard.py
FactsSpec), checked as `reader(v) == values`, explained by the first fact that differs."""

from __future__ import annotations

from typing import Any

import pytest

from guards import CompiledGuards, Guard, GuardKind, LocalSource
from guards.guard import FactsSpec


class Box:
    def __init__(self) -> None:
        self.hooks: dict[str, Any] = {}
        self.ready = True


def _facts(box: Any) -> tuple[bool | int | None, ...]:
    hooks = box.__dict__.get("hooks")
    return (len(hooks) if type(hooks) is dict else None, box.__dict__.get("ready") is True)


SPEC = FactsSpec(("len({}.hooks)", "{}.ready is True"), (0, True), _facts)


def _guards() -> CompiledGuards:
    box = LocalSource("box")
    guards = [Guard(GuardKind.TYPE_MATCH, box, Box), Guard(GuardKind.FACTS_MATCH, box, SPEC)]
    return CompiledGuards(guards, f_globals={}, builtins={}, closure=None)


def test_one_line_checks_every_fact_and_a_failure_names_the_first_that_differs() -> None:
    compiled = _guards()
    # (___c1 is object.__getattribute__, which the pin of Box checks: guards.builder's
    # NOTE [generic attribute reads])
    assert "___c2_facts(___v0) == (0, True)" in compiled.source
    box = Box()
    assert compiled.check({"box": box})
    box.hooks["h"] = print
    assert not compiled.check({"box": box})
    assert compiled.failure_reason({"box": box}) == "len(L['box'].hooks) == 0 (actual 1)"
    box.hooks = []  # type: ignore[assignment]
    assert compiled.failure_reason({"box": box}) == "len(L['box'].hooks) == 0 (actual None)"
    fresh = Box()
    fresh.ready = False
    assert compiled.failure_reason({"box": fresh}) == "L['box'].ready is True (actual False)"


def test_the_guard_reads_as_its_facts() -> None:
    guard = Guard(GuardKind.FACTS_MATCH, LocalSource("box"), SPEC)
    assert guard.describe() == "len(L['box'].hooks) == 0 and L['box'].ready is True"


def test_values_must_be_ints_bools_or_none() -> None:
    with pytest.raises(TypeError, match="FACTS_MATCH expects"):
        Guard(GuardKind.FACTS_MATCH, LocalSource("box"), FactsSpec(("{}.x",), ("a",), _facts))  # type: ignore[arg-type]
