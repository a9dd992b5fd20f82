"""The conformance runner (tracer/testing/conformance) on a tiny fake test module: it finds
each kind of outcome, counts tests that traced whole and tests that fell back, detects a
mismatch when the "compiled" side is a deliberately broken stand-in, and survives a module
that hangs. The real run over CPython's tests is `make conformance`, not part of CI."""

from __future__ import annotations

import io
import json
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tracer.testing.conformance import exclusions, report, runner
from tracer.testing.conformance.module import run_module
from tracer.testing.conformance.outcome import Outcome, Verdict, run_both_ways

FAKES = "tests.testing.conformance_fakes"
SMALL = f"{FAKES}.small"


def run_small(**options: Any) -> dict[str, Verdict]:
    out = io.StringIO()
    verdicts = run_module(SMALL, out, progress=io.StringIO(), **options)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["test"] for line in lines] == [v.test for v in verdicts]
    return {v.test.rsplit(".", 1)[-1]: v for v in verdicts}


def test_outcomes_of_each_kind_match_and_are_counted() -> None:
    verdicts = run_small()
    statuses = {name: v.eager.status for name, v in verdicts.items()}
    assert statuses == {
        "test_passes": "pass",
        "test_fails": "fail",
        "test_errors": "error",
        "test_raises": "pass",
        "test_skipped": "skip",
        "test_expected_failure": "xfail",
        "test_falls_back": "pass",
        "test_never_runs": "skip",
    }
    assert verdicts["test_fails"].eager.details == ("fail: AssertionError: 3 != 4",)
    assert verdicts["test_errors"].eager.details == ("error: KeyError: 'missing'",)
    assert all(v.verdict == "equal" for v in verdicts.values()), verdicts
    modes = {name: v.mode for name, v in verdicts.items()}
    assert modes["test_passes"] == modes["test_fails"] == modes["test_errors"] == "whole"
    assert modes["test_falls_back"] == "fallback"
    assert "builtin dir" in verdicts["test_falls_back"].reasons[0]
    assert modes["test_skipped"] == modes["test_never_runs"] == "not compiled"


def _never_runs_the_body(fn: types.FunctionType) -> Callable[..., Any]:
    """A broken "compiler": the compiled method returns without running the test."""
    return lambda self: None


def _wrong_message(fn: types.FunctionType) -> Callable[..., Any]:
    """A broken "compiler": same exception type, another message."""

    def run(self: Any) -> None:
        try:
            fn(self)
        except AssertionError as e:
            raise AssertionError(f"{e}!") from None

    return run


def test_a_broken_compiled_side_is_a_mismatch() -> None:
    verdicts = run_small(compile_fn=_never_runs_the_body)
    assert verdicts["test_fails"].verdict == "mismatch"
    assert verdicts["test_fails"].compiled == Outcome("pass")
    assert verdicts["test_errors"].verdict == "mismatch"
    assert verdicts["test_passes"].verdict == "equal"
    assert verdicts["test_skipped"].verdict == "equal"  # never called either way

    verdicts = run_small(compile_fn=_wrong_message, only="test_fails")
    (verdict,) = verdicts.values()
    assert verdict.verdict == "mismatch"
    assert verdict.compiled.details == ("fail: AssertionError: 3 != 4!",)


def test_a_compiled_run_over_the_limit_is_a_timeout_not_a_mismatch() -> None:
    from tests.testing.conformance_fakes.small import Small

    def sleeps(fn: types.FunctionType) -> Callable[..., Any]:
        return lambda self: time.sleep(30)

    Small.setUpClass()
    verdict = run_both_ways(Small, "test_passes", "Small.test_passes", sleeps, timeout=0.5)
    assert verdict.verdict == "timeout"
    assert verdict.compiled.timed_out and not verdict.eager.timed_out


def test_addresses_do_not_make_outcomes_differ() -> None:
    from tracer.testing.observe import blank_addresses

    assert blank_addresses("<object at 0x7f12ab34cd56>") == blank_addresses("<object at 0x7f00001>")


def test_subprocess_per_module_and_report(tmp_path: Path) -> None:
    reports = [
        runner.run_module_in_subprocess(SMALL, 300, 30, []),
        runner.run_module_in_subprocess(f"{FAKES}.hangs", 5, 0, []),
        runner.run_module_in_subprocess(f"{FAKES}.no_such_module", 5, 0, []),
    ]
    small, hangs, missing = (r.row() for r in reports)
    assert small["tests"] == small["equal"] == 8 and small["status"].startswith("ok")
    assert small["traced whole"] >= 3 and small["fell back"] >= 1 and small["mismatches"] == 0
    assert hangs["status"] == "timeout after 5 s" and hangs["tests"] == 0
    assert missing["status"] == "missing"
    text = report.markdown(reports)
    assert "| module | tests | equal | traced whole | fell back |" in text
    assert "builtin dir" in text  # the top fallback reasons
    data = json.loads(report.as_json(reports))
    assert [m["module"] for m in data["modules"]] == [
        SMALL,
        f"{FAKES}.hangs",
        f"{FAKES}.no_such_module",
    ]


def test_a_missing_test_package_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert "libpython3.11-testsuite" in runner.missing_test_package()


def test_an_excluded_test_is_not_run_and_the_report_says_why() -> None:
    test_id = f"{SMALL}.Small.test_fails"
    verdicts = run_small(excluded={test_id: "a reason"})
    assert "test_fails" not in verdicts
    assert "test_passes" in verdicts
    module_report = report.ModuleReport(SMALL, [v.to_json() for v in verdicts.values()])
    original = dict(exclusions.EXCLUDED_TESTS)
    exclusions.EXCLUDED_TESTS[test_id] = "a reason"
    try:
        text = report.markdown([module_report])
    finally:
        exclusions.EXCLUDED_TESTS.clear()
        exclusions.EXCLUDED_TESTS.update(original)
    assert f"- {test_id}: a reason" in text
    assert "- module test_genexps: doctests only" in text
