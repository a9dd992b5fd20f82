"""CPython's own test suite as a conformance oracle: `make conformance`.

Each `test_*` method of the listed modules of CPython's `test` package runs twice, on fresh
TestCase instances: eagerly, then with its body compiled by `tracer.compile` (setUp and
tearDown eager). The two outcomes (pass, fail with the message, error with type and message,
skip) must be equal; a test that falls back to plain Python counts as equal-but-not-traced.

- `outcome.py`: one test both ways, and what each run came to.
- `asserts.py`: plain assertion methods both sides use in place of unittest's.
- `module.py`: every test of one module (runs in a subprocess).
- `runner.py`: the modules, one subprocess each, with a time limit.
- `exclusions.py`: modules tried and left out, and single tests not run, with the reasons.
- `report.py`: the markdown table and the JSON.

`python -m tracer.testing.conformance --help` lists the options.
"""

from tracer.testing.conformance.outcome import Outcome, Verdict, run_both_ways, run_test
from tracer.testing.conformance.runner import MODULES

__all__ = ["MODULES", "Outcome", "Verdict", "run_both_ways", "run_test"]
