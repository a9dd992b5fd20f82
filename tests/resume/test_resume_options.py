"""A resume function is compiled with the options and cache policy of the frame it continues
(`tracer.compile(f, recompile_limit=..., on_recompile=..., dynamic=..., backend=...)`), and
with automatic-dynamic marks of its own."""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.cache.entry import CacheEntry
from tracer.cache.function import RecompileError
from tracer.testing import assert_same_behavior


@pytest.fixture(autouse=True)
def fresh() -> None:
    """Frame ids and resume functions from scratch: compile ids read `0/0`, `1/0`, ..."""
    tracer.reset()


def entries_of(fn: Any) -> list[CacheEntry]:
    from tracer.explain import _all_entries

    return _all_entries(fn)


def read_after_break(x: Any, n: int) -> Any:
    y = x + 1
    print("break")
    return y * n


def read_on_both_sides(x: Any, n: int) -> Any:
    y = x * n
    print("break")
    return y + n


def test_resume_function_gets_the_recompile_limit() -> None:
    compiled = tracer.compile(read_after_break, recompile_limit=1)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        compiled(torch.ones(3), 2)
        compiled(torch.ones(3), 3)  # only the resume function misses: over its limit of 1
        out = compiled(torch.ones(3), 4)
    assert out.tolist() == read_after_break(torch.ones(3), 4).tolist()
    (resume,) = entries_of(compiled)[0].resumes
    assert (resume.recompile_limit, resume.on_recompile) == (1, "recompile")
    assert [str(e.compile_id) for e in entries_of(compiled)] == ["0/0", "1/0"]
    messages = [str(w.message) for w in seen if issubclass(w.category, RuntimeWarning)]
    assert len(messages) == 1 and "__resume_at_" in messages[0], messages
    assert "recompile_limit (1)" in messages[0]


def test_resume_function_gets_on_recompile_error() -> None:
    compiled = tracer.compile(read_after_break, on_recompile="error")
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3), 2)
        with pytest.raises(RecompileError, match="__resume_at_"):
            compiled(torch.ones(3), 3)


def test_two_policies_two_resume_functions() -> None:
    loose = tracer.compile(read_after_break)
    strict = tracer.compile(read_after_break, recompile_limit=1)
    with contextlib.redirect_stdout(io.StringIO()):
        loose(torch.ones(3), 2)
        strict(torch.ones(3), 2)
    assert entries_of(loose)[0].resumes[0].recompile_limit == 8
    assert entries_of(strict)[0].resumes[0].recompile_limit == 1


def test_resume_function_gets_dynamic_false() -> None:
    compiled = tracer.compile(read_after_break, dynamic=False)
    with contextlib.redirect_stdout(io.StringIO()):
        for n in (2, 3, 4):
            compiled(torch.ones(3), n)
    (resume,) = entries_of(compiled)[0].resumes
    assert resume.options.dynamic is False
    assert [str(e.compile_id) for e in entries_of(compiled)] == ["0/0", "1/0", "1/1", "1/2"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(read_after_break, torch.ones(3), 5, compile_options={"dynamic": False})


def test_resume_function_gets_the_backend() -> None:
    seen: list[int] = []

    def counting(gm: Any, example_inputs: Any) -> Any:
        seen.append(len(example_inputs))
        return gm

    compiled = tracer.compile(read_after_break, backend=counting)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3), 2)
    assert len(seen) == 2  # the prefix graph and the resume function's graph


def test_automatic_dynamic_marks_stay_with_their_frame() -> None:
    # `n` changes: the frame recompiles with `n` dynamic; the resume function is the same
    # CompiledFunction before and after, recompiling with its own mark (1/0, then 1/1).
    compiled = tracer.compile(read_on_both_sides)
    with contextlib.redirect_stdout(io.StringIO()):
        for n in (2, 3, 4):
            compiled(torch.ones(3), n)
    entries = entries_of(compiled)
    ids = [str(e.compile_id) for e in entries]
    assert len(ids) == len(set(ids)), ids
    assert ids == ["0/0", "1/0", "1/1", "0/1"], ids
    assert entries[0].resumes[0] is entries[-1].resumes[0]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(read_on_both_sides, torch.ones(3), 5)
