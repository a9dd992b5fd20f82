"""What the conformance run leaves out, and why: whole modules of CPython's `test` package that
were tried and not added to the default list, and single test methods that are not run.

A test is left out only when the difference is understood and is not a compiled function
behaving otherwise than plain Python in a way a fix here should remove; the reason says which.
The report lists both, with their reasons, next to the table.
"""

from __future__ import annotations

LEFT_OUT_MODULES: dict[str, str] = {
    "test_genexps": "doctests only (the runner runs test methods)",
    "test_listcomps": "doctests only on 3.11 (3.12 adds test methods)",
    "test_setcomps": "doctests only",
}
"""Modules tried and not in `runner.MODULES`, and why."""

EXCLUDED_TESTS: dict[str, str] = {}
"""Test ids (`test.test_x.Class.test_y`) that are not run, and why."""
