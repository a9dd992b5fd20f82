"""Every module of `variables` and `guards` imports on its own, in a fresh interpreter.

Inside `variables` the tracker families and their builder import each other, which works only
when the builder loads first (`tracer/__init__.py` sees to it, see variables/__init__.py); a user
who starts with `from variables.tensor import TensorVariable` (in a notebook, or a test file run
alone) must not get "cannot import name ... from partially initialized module". Each import runs
in its own interpreter, since within one process whatever was imported first hides the problem.
(`tracer`'s own modules import the rest through the package, so they are not repeated here: each
costs an interpreter.) tests/test_import_cycles.py checks that no cycle spans two parts."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("variables", "guards")


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).glob("*.py")):
            if path.name != "__main__.py":
                stem = "" if path.name == "__init__.py" else f".{path.stem}"
                names.append(f"{package}{stem}")
    return names


def _import_alone(module: str) -> tuple[str, int, str]:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    last_line = result.stderr.strip().rpartition("\n")[2]
    return module, result.returncode, last_line


def test_every_module_imports_first_in_a_fresh_interpreter() -> None:
    modules = _modules()
    assert "variables.tensor" in modules and "guards.sources" in modules
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [r for r in pool.map(_import_alone, modules) if r[1] != 0]
    assert failures == []


def test_modetrace_works_without_torch() -> None:
    """modetrace never imports torch: with torch made unimportable, a function compiles, runs
    and matches eager, and the sample gallery runs."""
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "import tracer, tracer.runtime as torch\n"
        "from tracer.testing import assert_same_behavior\n"
        "def f(x, n):\n    return (x * 2).sum() + n\n"
        "assert_same_behavior(tracer.compile(f, fullgraph=True), torch.ones(3), 1)\n"
        "from tracer.cli import main\n"
        "sys.exit(main(['demo']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
