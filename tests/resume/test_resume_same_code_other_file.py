"""Two functions with equal code from different files (code objects compare equal whatever
their co_filename and co_qualname) shared one resume code: the second one's resumed frame
named the first one's file, in its warnings and tracebacks. Found by the fuzzer once
assert_same_behavior compared warning locations (generated programs repeat statements). The
same held for the code objects nested in the resume function (a comprehension, a function
defined after the break): they were the first file's."""

from __future__ import annotations

import traceback
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior

SOURCE = """
import warnings

def f(x):
    y = x + 1
    print("a break, then the resume function")
    warnings.warn("after the break", UserWarning, stacklevel=1)
    return y * 2

def g(x):
    y = x + 1
    print("between")
    raise ValueError("late")

def h(x):
    print("a break, then a comprehension whose code is a constant of the resume function")
    def unused():
        return x
    return [v for v in [1] if warnings.warn("in the comprehension", UserWarning, stacklevel=1)]
"""


def load(filename: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"torch": torch}
    exec(compile(SOURCE, filename, "exec"), namespace)  # noqa: S102 - the code under test
    return namespace


def test_a_warning_after_the_break_names_its_own_file() -> None:
    tracer.reset()
    first, second = load("<first>"), load("<second>")
    assert first["f"].__code__ == second["f"].__code__
    assert_same_behavior(first["f"], torch.ones(2))
    outcome = assert_same_behavior(second["f"], torch.ones(2))
    [record] = outcome.warnings
    assert record.location == "<second>:7"


def test_a_traceback_after_the_break_names_its_own_file() -> None:
    tracer.reset()
    first, second = load("<first>"), load("<second>")
    assert_same_behavior(first["g"], torch.ones(2))
    compiled = tracer.compile(second["g"])
    try:
        compiled(torch.ones(2))
    except ValueError as e:
        files = [frame.filename for frame in traceback.extract_tb(e.__traceback__)]
    assert files[-1] == "<second>"


def test_code_nested_in_the_resume_function_is_its_own_files() -> None:
    # The resume function's instructions came from the first equal code object decoded (a
    # cache keyed by code equality), with its nested code constants: the second file's
    # comprehension ran as the first file's, and its warning named `<first>` (found by the
    # program fuzzer's breaks_inside across calls).
    tracer.reset()
    first, second = load("<first>"), load("<second>")
    assert first["h"].__code__ == second["h"].__code__
    assert_same_behavior(first["h"], torch.ones(2))
    outcome = assert_same_behavior(second["h"], torch.ones(2))
    [record] = outcome.warnings
    assert record.location == "<second>:19"
