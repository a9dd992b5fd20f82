"""The instruction-count check: its comparison on synthetic CSVs, and the real, deterministic run.

No timing is asserted anywhere: only bytecode-instruction counts, which are the same on every run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import check_instruction_counts as check
from benchmarks.instruction_count import METRIC, read_csv, write_csv

BASE = 100_000


def _write(path: Path, values: dict[str, int]) -> Path:
    write_csv([(name, METRIC, value) for name, value in values.items()], path)
    return path


def _run(tmp_path: Path, expected: dict[str, int], actual: dict[str, int], *extra: str) -> int:
    e = _write(tmp_path / "expected.csv", expected)
    a = _write(tmp_path / "actual.csv", actual)
    return check.main(["--expected", str(e), "--actual", str(a), *extra])


def test_ten_percent_growth_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = _run(tmp_path, {"add": BASE, "mlp": BASE}, {"add": BASE, "mlp": BASE * 110 // 100})
    out = capsys.readouterr().out
    assert code == 1
    assert "+10.00%" in out
    assert "REGRESSED" in out
    assert "FAIL" in out and "mlp" in out.splitlines()[-1]


def test_four_percent_growth_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = _run(tmp_path, {"add": BASE}, {"add": BASE * 104 // 100})
    out = capsys.readouterr().out
    assert code == 0
    assert "+4.00%" in out
    assert "OK: no count grew" in out


def test_large_drop_passes_with_update_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _run(tmp_path, {"add": BASE}, {"add": BASE * 90 // 100})
    out = capsys.readouterr().out
    assert code == 0
    assert "IMPROVED" in out
    assert "--update" in out


def test_rows_on_one_side_are_reported_not_fatal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _run(tmp_path, {"add": BASE, "gone": BASE}, {"add": BASE, "fresh": 5})
    out = capsys.readouterr().out
    assert code == 0
    assert "MISSING" in out and "NEW" in out


def test_update_writes_the_actual_counts(tmp_path: Path) -> None:
    assert _run(tmp_path, {"add": BASE}, {"add": 7, "mlp": 9}, "--update") == 0
    assert read_csv(tmp_path / "expected.csv") == {("add", METRIC): 7, ("mlp", METRIC): 9}


def test_compare_boundaries() -> None:
    expected = {("a", METRIC): 1000, ("b", METRIC): 1000, ("c", METRIC): 1000}
    actual = {("a", METRIC): 1050, ("b", METRIC): 1051, ("c", METRIC): 949}
    statuses = {r.name: r.status for r in check.compare(expected, actual)}
    assert statuses == {"a": "ok", "b": "regressed", "c": "improved"}


def test_checked_in_expected_counts_hold(capsys: pytest.CaptureFixture[str]) -> None:
    """The real check, as CI runs it: a fresh interpreter counts every workload (a few seconds).

    If this fails after a deliberate change to the tracer, look at the printed deltas and run
    `python -m benchmarks.check_instruction_counts --update`.
    """
    code = check.main([])
    out = capsys.readouterr().out
    assert code == 0, out
