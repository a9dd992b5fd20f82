"""A list of constants made in the frame and returned is rebuilt from one tuple constant (as
CPython compiles `[1, 2, 3]`), not one instruction per item: TheAlgorithms'
`generate_large_matrix` (1000 lists of 2000 ints) took over 20 s to compile before. The items
keep their exact types and signs."""

from __future__ import annotations

import dis

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def rows(n):
    return [list(range(n - i, -n - i, -1)) for i in range(n)]


def mixed():
    return [1, True, 1.0, -0.0, 0.0, "a", b"a", None, 2**70, 1j], [7, 8], [9]


def shared():
    a = [1, 2, 3]
    return a, [a, a]


def test_the_function_builds_lists() -> None:
    # 3.11 makes the comprehension a code object of its own; 3.12 inlines it (PEP 709)
    codes = [rows.__code__, *(c for c in rows.__code__.co_consts if hasattr(c, "co_code"))]
    assert "LIST_APPEND" in {i.opname for code in codes for i in dis.get_instructions(code)}


def test_constant_lists_behave_and_trace_whole() -> None:
    for fn, args in ((rows, (30,)), (mixed, ()), (shared, ())):
        with CompileCounter() as counter:
            assert_same_behavior(fn, *args)
        assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)
    x, y = tracer.compile(mixed)()[0], mixed()[0]
    assert [(type(v), repr(v)) for v in x] == [(type(v), repr(v)) for v in y]


def test_the_rebuild_is_a_few_instructions_not_one_per_item() -> None:
    bytecode = tracer.trace(rows)(60).entry.bytecode
    assert bytecode is not None and len(bytecode) < 1000
