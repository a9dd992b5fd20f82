"""notes/guards.md shows the binder, candidates function and check that modetrace generates for its
example; they must stay the text it generates."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import tracer
import tracer.runtime as torch
from variables.binding import binder_source

NOTE = Path(__file__).resolve().parents[2] / "notes" / "guards.md"


def scale(x: Any, n: Any = 2) -> Any:
    return x * n


def _shown(name: str) -> str:
    """The fenced Python block of the section "What runs on every call" defining `name`."""
    section = NOTE.read_text().split("## What runs on every call", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    [block] = [b for b in blocks if b.startswith(f"def {name}(")]
    return block


def test_the_note_shows_what_runs_on_every_call() -> None:
    compiled = tracer.compile(scale)
    compiled(torch.ones(2))
    compiled(torch.ones(3))
    assert compiled.dispatch_plan.describe() == (
        "key L['x'] [Tensor:shape]: 2 keys, at most 1 candidate"
    )
    assert binder_source(scale.__code__) == _shown("___bind")
    assert compiled.dispatch_plan.key_source == _shown("___candidates")
    check = compiled.entries[0].guard_manager.source
    # the check's name carries the frame id, which depends on what this process compiled first
    check = re.sub(r"^def ___check_\d+_1\(", "def ___check_0_1(", check)
    assert check == _shown("___check_0_1")
