"""Behaviours `make conformance` found wrong once more of CPython's test modules ran (test_fstring
to test_bytes, branch conf7): one minimal function each, compiled == eager, twice, with the
exception's type and message."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def syntax_error_with_details(details: tuple[Any, ...]) -> Any:
    try:
        error = SyntaxError("bad bad", details)
    except TypeError as e:
        return "rejected", str(e)
    return "made", repr(error)


@pytest.mark.parametrize(
    "details",
    [
        ("bad.py", 1, 2),  # too few: function takes at least 4 arguments (3 given)
        ("bad.py", 1, 2, 4, 5, 6, 7),  # too many
        ("bad.py", 1, 2, "abcdefg", 1),  # end_lineno without end_offset
        ("bad.py", 1, 2, "abcdefg"),  # accepted
    ],
)
def test_exception_constructor_checks_its_arguments(details: tuple[Any, ...]) -> None:
    """test_exceptions `SyntaxErrorTests.test_incorrect_constructor`: CPython's SyntaxError
    rejects a details tuple of the wrong shape when it is made; the traced call raises that
    TypeError too (it was made lazily, only when raised), and the frame still traces whole."""
    assert_same_behavior(syntax_error_with_details, details)
    tracer.reset()
    with CompileCounter() as counter:
        tracer.compile(syntax_error_with_details)(details)
    assert counter.graph_breaks == 0
    assert counter.compiles == 1
