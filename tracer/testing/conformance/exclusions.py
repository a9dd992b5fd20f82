"""What the conformance run leaves out, and why: whole modules of CPython's `test` package that
were tried and not added to the default list, and single test methods that are not run.

A test is left out only when the difference is understood and is not a compiled function
behaving otherwise than plain Python in a way a fix here should remove; the reason says which.
The report lists both, with their reasons, next to the table.
"""

from __future__ import annotations

import sys

LEFT_OUT_MODULES: dict[str, str] = {
    "test_genexps": "doctests only (the runner runs test methods)",
    "test_listcomps": "doctests only on 3.11 (3.12 adds test methods)",
    "test_setcomps": "doctests only",
}
"""Modules tried and not in `runner.MODULES`, and why."""

_REFCOUNT = (
    "sys.getrefcount at a graph break counts one more reference than eagerly: the compiled "
    "frame holds an object made in the trace in a temporary as well as in its local while "
    "the breaking call runs"
)

EXCLUDED_TESTS: dict[str, str] = {
    "test.test_memoryview.BytesMemoryviewTest.test_setitem_readonly": _REFCOUNT,
    "test.test_memoryview.BytesMemoryviewTest.test_setitem_writable": _REFCOUNT,
    "test.test_memoryview.BytesMemorySliceTest.test_setitem_writable": _REFCOUNT,
    "test.test_memoryview.BytesMemorySliceSliceTest.test_setitem_writable": _REFCOUNT,
    "test.test_memoryview.BytesMemorySliceTest.test_setitem_readonly": _REFCOUNT,
}
"""Test ids (`test.test_x.Class.test_y`) that are not run, and why."""

if sys.version_info >= (3, 13):
    # same cause; the test passes on 3.11 and 3.12, so it is run there
    EXCLUDED_TESTS["test.test_memoryview.BytesMemorySliceSliceTest.test_setitem_readonly"] = (
        _REFCOUNT
    )
