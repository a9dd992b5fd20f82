"""Methods read from builtin immutable types (`str.capitalize`, `str.maketrans`,
`int.from_bytes`, `bytes.hex`) are computed by CPython on constant arguments
(variables/type_methods.py). Before, "attribute 'capitalize' of type is not supported"
(TheAlgorithms' strings). A non-constant argument still breaks, with a reason."""

from __future__ import annotations

import dis

import pytest

from tracer.testing import CompileCounter, assert_same_behavior


def capitalize_all(words):
    return list(map(str.capitalize, words)), str.upper("x"), str.join("-", ("a", "b"))


def translate(s):
    table = str.maketrans("abc", "xyz", "d")
    return s.translate(table), int.from_bytes(b"\x01\x02", "big"), bytes.hex(b"\xff", ":")


def wrong_type(s):
    return str.capitalize(s)


def with_list(parts):
    return str.join(",", parts)


def test_the_functions_read_methods_of_types() -> None:
    names = {i.argval for f in (capitalize_all, translate) for i in dis.get_instructions(f)}
    assert {"capitalize", "maketrans", "from_bytes"} <= names


@pytest.mark.parametrize(
    ("fn", "args"),
    [
        (capitalize_all, (["hello", "wORLD"],)),
        (translate, ("abcd-abcd",)),
        (wrong_type, (3,)),
    ],
)
def test_type_methods_trace_whole(fn, args) -> None:
    with CompileCounter() as counter:
        assert_same_behavior(fn, *args)
    assert counter.graph_breaks == 0 and all(r.has_guarded_code for r in counter.records)


def test_a_list_argument_still_behaves() -> None:
    assert_same_behavior(with_list, ["a", "b"])
