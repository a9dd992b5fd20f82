"""Helpers for the command-line tests: run `python -m tracer ...` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None):
    """`python -m tracer *args` with a clean environment; returns the CompletedProcess."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MODETRACE_")}
    environment.pop("NO_COLOR", None)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "tracer", *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=environment,
        timeout=120,
    )


USER_FILE = """\
import tracer.runtime as torch

SCALE = 2


def scaled_sin(x, n=1):
    return (x * SCALE * n).sin()


def prints(x):
    y = x + 1
    print("hello from prints")
    return y


def boom(x):
    raise ValueError("bad input")


def appends(xs, x):
    xs.append(x * 2)
    return len(xs)
"""


@pytest.fixture
def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "user.py"
    path.write_text(USER_FILE)
    return path
