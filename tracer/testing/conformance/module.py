"""All test methods of one test module, each run both ways (outcome.run_both_ways).

This runs inside the subprocess the runner starts for the module. It loads the module's tests
with unittest's loader (doctests and other non-`test*` cases left out), runs the module's and
each class's fixtures eagerly once around that class's tests, as a unittest suite would, and
writes one JSON line per test to `out` as soon as the test is done, so a module that hangs or
crashes later still reports the tests it finished. Progress goes to stderr: `.` equal and traced
whole, `f` equal after a fallback, `n` equal and never compiled (skipped, setUp failed),
`M` mismatch, `T` compiled run over the time limit, `U` unstable.
"""

from __future__ import annotations

import importlib
import json
import sys
import unittest
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TextIO

from tracer.testing.conformance.asserts import PLAIN_ASSERTS, RaisesContext
from tracer.testing.conformance.exclusions import EXCLUDED_TESTS
from tracer.testing.conformance.outcome import CompileFn, Outcome, Verdict, run_both_ways

PROGRESS = {"equal": "", "mismatch": "M", "timeout": "T", "unstable": "U"}
_EQUAL_MARK = {"whole": ".", "fallback": "f", "not compiled": "n"}


def test_cases(suite: unittest.TestSuite) -> Iterator[unittest.TestCase]:
    """The TestCases of a (nested) suite, in order, test methods only (no doctests)."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from test_cases(item)
        elif item._testMethodName.startswith("test"):
            yield item


def with_plain_asserts(cls: type[unittest.TestCase]) -> type[unittest.TestCase]:
    """A subclass of `cls` with the plain assertions (asserts.py) in place of unittest's,
    where `cls` uses unittest's own; same name and module, so test ids read the same."""
    own = {
        name: method
        for name, method in PLAIN_ASSERTS.items()
        if getattr(cls, name, None) is getattr(unittest.TestCase, name)
    }
    if "assertRaises" in own:
        own["raises_context"] = RaisesContext
    namespace = {**own, "__module__": cls.__module__, "__qualname__": cls.__qualname__}
    return type(cls.__name__, (cls,), namespace)


def _call_fixture(fixture: Callable[[], Any] | None) -> str:
    """Run a setUpClass/setUpModule; '' when it worked, else what stopped it."""
    if fixture is None:
        return ""
    try:
        fixture()
    except unittest.SkipTest as e:
        return f"skip: {e}"
    except Exception as e:  # noqa: BLE001 - a broken fixture is reported for its tests
        return f"error: {type(e).__qualname__}: {e}"
    return ""


def _fixture_verdict(test_id: str, problem: str) -> Verdict:
    status = problem.split(":", 1)[0]
    outcome = Outcome(status, (problem,))
    note = "class or module fixture did not run; the test ran neither way"
    return Verdict(test_id, outcome, outcome, "equal", "not compiled", [], note)


def run_module(
    module_name: str,
    out: TextIO,
    compile_fn: CompileFn | None = None,
    plain_asserts: bool = True,
    timeout: float = 60,
    only: str = "",
    progress: TextIO | None = None,
    excluded: Mapping[str, str] = EXCLUDED_TESTS,
) -> list[Verdict]:
    """Run every test method of `module_name` both ways; one JSON line per test to `out`.
    `only`: a substring of the test ids to keep (for reproducing one test); the tests in
    `excluded` (id -> reason, exclusions.py) are not run."""
    module = importlib.import_module(module_name)
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    cases = [t for t in test_cases(suite) if only in t.id() and t.id() not in excluded]
    progress = progress if progress is not None else sys.__stderr__
    verdicts: list[Verdict] = []
    module_problem = _call_fixture(getattr(module, "setUpModule", None))
    classes: dict[type[unittest.TestCase], tuple[type[unittest.TestCase], str]] = {}
    for case in cases:
        original = type(case)
        if original not in classes:
            _finish_classes(classes)
            cls = with_plain_asserts(original) if plain_asserts else original
            problem = module_problem or _call_fixture(cls.setUpClass)
            classes[original] = (cls, problem)
        cls, problem = classes[original]
        test_id = case.id()
        if problem:
            verdict = _fixture_verdict(test_id, problem)
        else:
            options = {"compile_fn": compile_fn} if compile_fn is not None else {}
            verdict = run_both_ways(cls, case._testMethodName, test_id, timeout=timeout, **options)
        verdicts.append(verdict)
        out.write(json.dumps(verdict.to_json()) + "\n")
        out.flush()
        if progress is not None:
            progress.write(PROGRESS[verdict.verdict] or _EQUAL_MARK[verdict.mode])
            progress.flush()
    _finish_classes(classes)
    if not module_problem:
        _call_fixture(getattr(module, "tearDownModule", None))
        unittest.case.doModuleCleanups()
    return verdicts


def _finish_classes(classes: dict[type[unittest.TestCase], tuple[type[Any], str]]) -> None:
    """tearDownClass (and class cleanups) of the classes whose tests are done."""
    for cls, problem in classes.values():
        if not problem and not getattr(cls, "_conformance_finished", False):
            _call_fixture(cls.tearDownClass)
            cls.doClassCleanups()
            cls._conformance_finished = True
