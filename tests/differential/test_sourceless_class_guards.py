"""A class a fold returned without a source, whose metaclass can change, is guarded through
its module's global of its name (`module_path_source`, variables/class_protocols.py): the
frame traces whole, its metaclass's special methods are guarded as for any class, and the
name rebound in its module is a miss. statistics' `_sum` returns such a class (`reduce(
_coerce, types, int)` over the classes `groupby(data, type)` found), and comparing its
result compared a class."""

from __future__ import annotations

import fractions
import statistics
from fractions import Fraction
from typing import Any

import tracer
from tracer.testing import assert_same_behavior


def sum_of_fractions(xs: list[Fraction]) -> Any:
    return statistics._sum(xs) == (Fraction, Fraction(1, 2), 5)  # type: ignore[attr-defined]


def data() -> list[Fraction]:
    return [Fraction(1, 10)] * 5


def test_a_class_from_a_fold_is_guarded_through_its_module() -> None:
    explanation = tracer.explain(sum_of_fractions)(data())
    assert explanation.graph_break_count == 0, explanation.break_reasons
    assert "sys.modules['fractions'].__dict__['Fraction'] is Fraction" in explanation.guards
    assert_same_behavior(sum_of_fractions, data())


def test_the_name_rebound_in_its_module_is_a_miss() -> None:
    compiled = tracer.compile(sum_of_fractions)
    xs = data()
    assert compiled(xs) is True
    [entry] = compiled.entries
    assert entry.failure({"xs": xs}) is None
    fractions.Fraction = type("Fraction", (), {})  # type: ignore[misc]
    try:
        reason = entry.failure({"xs": xs})
    finally:
        fractions.Fraction = Fraction  # type: ignore[misc]
    assert reason is not None
    assert reason.startswith("sys.modules['fractions'].__dict__['Fraction'] is Fraction"), reason
    assert entry.failure({"xs": xs}) is None
