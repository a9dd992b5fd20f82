"""A nested function whose annotations subscript a builtin type (`dp: list[int]`): MAKE_FUNCTION
evaluates `list[int]`, a `types.GenericAlias`, immutable like the `int | None` union already
folded. It fell back before ("a value of type GenericAlias produced while tracing";
TheAlgorithms' combination_sum_iv and largest_square_area_in_matrix). This file has no
`from __future__ import annotations`, so the annotations below are evaluated."""

import dis

from tracer.testing import CompileCounter, assert_same_behavior


def outer(n):
    def count(target: int, dp: list[int]) -> dict[str, list[int]]:
        return {"a": dp[:target]}

    alias = list[int]
    return count(n, [1, 2, 3, 4]), alias, alias == list[int]


def test_the_annotations_are_evaluated_in_the_frame() -> None:
    ops = [i.opname for i in dis.get_instructions(outer)]
    assert "BINARY_SUBSCR" in ops and "MAKE_FUNCTION" in ops


def test_generic_aliases_trace_whole() -> None:
    with CompileCounter() as counter:
        assert_same_behavior(outer, 2)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)
