"""Testing toolkit: differential assertions (and, see notes/testing.md, hypothesis strategies,
guard soundness runners and compile counters) used by modetrace's own tests and by users."""

from tracer.testing.behavior import Outcome, assert_same_behavior, compare_outcomes, run_once
from tracer.testing.compare import Mismatch, compare

__all__ = [
    "Mismatch",
    "Outcome",
    "assert_same_behavior",
    "compare",
    "compare_outcomes",
    "run_once",
]
