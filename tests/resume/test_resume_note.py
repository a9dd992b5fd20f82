"""notes/resume-functions.md stays true: the graphs, the compiled frame's bytecode and the
resume function's bytecode it shows are what compiling its example produces today."""

from __future__ import annotations

import contextlib
import dis
import io
import re
from pathlib import Path
from typing import Any

import tracer
import tracer.runtime as torch
from tracer.explain import _all_entries

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
    return f"{code.co_name}({', '.join(code.co_varnames[: code.co_argcount])})"


def numbered_names_away(text: str) -> str:
    """`__resume_at_82_3` -> `__resume_at_82_N`: the last number counts resume functions made
    so far in the process."""
    return re.sub(r"(__resume_at_\d+)_\d+", r"\1_N", text)


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
