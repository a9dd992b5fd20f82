"""decimal's current context is state per thread and per context, changed by `getcontext()`
writes and by the flags every operation sets: not modeled, so a function that reads it falls
back, and says why (before: "ContextVar defines __getattribute__")."""

from __future__ import annotations

import _pydecimal

import tracer
from tracer.testing import assert_same_behavior


def test_pure_python_decimal_falls_back_naming_the_context() -> None:
    args = (_pydecimal.Decimal("1.1"), _pydecimal.Decimal("2.2"))
    add = _pydecimal.Decimal.__add__  # called as the corpus calls it (its globals are found)
    reasons = tracer.explain(add)(*args).break_reasons
    assert "contextvars.ContextVar at" in str(reasons[0])
    assert "decimal's current context" in str(reasons[0])
    assert_same_behavior(add, *args)
