"""The README's "Testing your own guards" example runs as written: extract its python block,
execute it as a module, and call every test function it defines."""

from __future__ import annotations

import re
import types
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
HEADING = "## Testing your own guards"


def readme_example() -> str:
    text = README.read_text()
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None, f"no python block under {HEADING!r}"
    return match.group(1)


def test_readme_example_runs_as_written():
    module = types.ModuleType("readme_example")
    exec(compile(readme_example(), str(README), "exec"), module.__dict__)  # noqa: S102
    tests = [v for k, v in vars(module).items() if k.startswith("test_") and callable(v)]
    assert len(tests) == 3
    for test in tests:
        test()
