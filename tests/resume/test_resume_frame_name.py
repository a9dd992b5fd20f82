"""A resume function's frame has the original function's name: a traceback through it and
`sys._getframe()` see the user's function, as eagerly (its label,
`__resume_at_<offset>_<n>`, is its qualified name, which compile records, warnings and logs
show: `frame_name`)."""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.codegen.resume import frame_name
from tracer.testing import assert_same_behavior


def caught_after_the_break(x: Any) -> Any:
    y = x + 1
    print("between")
    try:
        1 / 0  # noqa: B018
    except ZeroDivisionError as e:
        frames = traceback.extract_tb(e.__traceback__)
    return y, [(frame.name, frame.line) for frame in frames]


def names_its_frame(x: Any) -> Any:
    print("between")
    return x * 2, sys._getframe().f_code.co_name


def test_a_traceback_names_the_original_function() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        outcome = assert_same_behavior(caught_after_the_break, torch.ones(3))
        explanation = tracer.explain(caught_after_the_break)(torch.ones(3))
    assert outcome.result[1] == [("caught_after_the_break", "1 / 0  # noqa: B018")]
    assert not explanation.entries[0].is_fallback  # it resumed: the frame is a resume function


def test_the_frame_is_named_as_the_original_and_labelled_as_a_resume_function() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(names_its_frame, torch.ones(3))
        compiled = tracer.compile(names_its_frame)
        compiled(torch.ones(3))
    (resume,) = compiled.entries[0].resumes
    code = resume.fn.__code__
    assert code.co_name == "names_its_frame"
    assert frame_name(code).startswith("__resume_at_") and code.co_qualname == frame_name(code)
    records = [r for r in tracer.get_compilation_metrics() if r.co_name == frame_name(code)]
    assert records, "the resume function's compile record shows its label"
