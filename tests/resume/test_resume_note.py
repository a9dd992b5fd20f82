"""notes/resume-functions.md stays true: the graphs, the compiled frame's bytecode and the
resume function's bytecode it shows are what compiling its example produces today."""

from __future__ import annotations

import contextlib
import dis
import inspect
import io
import re
from pathlib import Path
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.bytecode_versions import VERSION
from tracer.codegen.resume import frame_name
from tracer.explain import _all_entries
from tracer.runtime.overrides import BaseTorchFunctionMode

NOTE = Path(__file__).resolve().parent.parent.parent / "notes" / "resume-functions.md"


def f(x: Any) -> Any:
    y = x.sin()
    print("between", y.shape)
    return y.cos()


def indented(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.strip("\n").splitlines())


def resume_listing(code: Any) -> str:
    """`dis` of the resume function without line numbers (they depend on this file)."""
    return "\n".join(
        f"{inst.offset:>4} {inst.opname:<16} {inst.argrepr}".rstrip()
        for inst in dis.get_instructions(code)
    )


def resume_signature(code: Any) -> str:
    """`__resume_at_82_0(___stack0, y)`: what the prologue receives."""
    return f"{frame_name(code)}({', '.join(code.co_varnames[: code.co_argcount])})"


def numbered_names_away(text: str) -> str:
    """`__resume_at_82_3` -> `__resume_at_82_N`: the last number counts resume functions made
    so far in the process."""
    return re.sub(r"(__resume_at_\d+)_\d+", r"\1_N", text)


PASTED_ON_311 = pytest.mark.skipif(
    VERSION != (3, 11), reason="the note pastes the bytecode CPython 3.11 runs"
)


@PASTED_ON_311
def test_note_shows_what_compiling_its_example_produces() -> None:
    tracer.reset()
    compiled = tracer.compile(f)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    prefix, rest = _all_entries(compiled)
    assert prefix.graph is not None and rest.graph is not None
    note = numbered_names_away(NOTE.read_text())
    shown = [
        indented(prefix.graph.code),
        indented(prefix.bytecode_listing()),
        indented(resume_listing(prefix.resumes[0].fn.__code__)),
        f"{resume_signature(prefix.resumes[0].fn.__code__)}\n```",
        indented(rest.graph.code),
        f"`{prefix.compile_id}`",
        f"`{rest.compile_id}`",
    ]
    for snippet in shown:
        assert numbered_names_away(snippet) in note, f"update the note; now:\n{snippet}"


class Quiet(BaseTorchFunctionMode):
    pass


def g(x: Any) -> Any:
    with Quiet():  # a torch-function mode
        y = x.sin()
        print("inside")
        y = y.cos()
    return y


@PASTED_ON_311
def test_note_shows_a_break_inside_a_with_block() -> None:
    tracer.reset()
    compiled = tracer.compile(g)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    prefix, rest = _all_entries(compiled)
    note = NOTE.read_text()
    section = note[note.index("## A break inside a `with` block") : note.index("## Not yet")]
    body = inspect.getsource(g).split("\n", 1)[1]  # the note's `def g(x):` has no annotations
    assert f"def g(x):\n{body}```" in section
    listing = indented(prefix.bytecode_listing())
    blocks = re.findall(r"```(\w*)\n(.*?)\n```", section, re.DOTALL)  # (language, text)
    excerpts = [text for language, text in blocks if not language]
    assert len(excerpts) == 2
    for excerpt in excerpts:  # each excerpt is a contiguous part of the compiled frame's code
        assert excerpt in listing, f"update the note; now:\n{listing}"
    signature = resume_signature(prefix.resumes[0].fn.__code__)
    assert numbered_names_away(f"`{signature}`") in numbered_names_away(section)
    guards = str(rest.guards)
    assert "len(___mode_stack) == 1 and type(___mode_stack[0]) is Quiet" in guards
    assert "L['___stack0'].__self__ is ___mode_stack[0]" in guards
