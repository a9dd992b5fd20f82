"""Testing toolkit for modetrace's own tests and for users' tests of their guards (see
notes/testing.md): `assert_same_behavior` (eager vs compiled, everything observable),
`trace` (the entry a call would create), `CompileCounter`; hypothesis strategies live in
`tracer.testing.strategies` and the guard properties in `tracer.testing.properties` (imported
on first use, so importing this package does not need hypothesis).
"""

from typing import Any

from tracer.explain import TracedEntry, trace
from tracer.testing.behavior import Outcome, assert_same_behavior, compare_outcomes, run_once
from tracer.testing.compare import Comparison, Mismatch, compare
from tracer.testing.counters import CompileCounter
from tracer.testing.values import describe, spec_of, tensor_of

_LAZY = {
    "check_guard_soundness": "tracer.testing.properties",
    "check_guard_precision": "tracer.testing.properties",
    "UnsoundGuards": "tracer.testing.properties",
    "ImpreciseGuards": "tracer.testing.properties",
}


def __getattr__(name: str) -> Any:
    """`tracer.testing.check_guard_soundness` and friends, imported with hypothesis on use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'tracer.testing' has no attribute {name!r}")


__all__ = [
    "Comparison",
    "CompileCounter",
    "ImpreciseGuards",
    "Mismatch",
    "Outcome",
    "TracedEntry",
    "UnsoundGuards",
    "assert_same_behavior",
    "check_guard_precision",
    "check_guard_soundness",
    "compare",
    "compare_outcomes",
    "describe",
    "run_once",
    "spec_of",
    "tensor_of",
    "trace",
]
