"""The real-torch section of `make bench` (benchmarks/real_torch.py): modetrace on real torch
and Dynamo on the same functions and modules, side by side in one run; skipped with a message
without torch. Figures are not asserted on (the machine is shared), only their presence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import real_torch
from benchmarks.__main__ import main as bench_main
from tests.real_torch import real_torch as torch_module


def test_only_real_torch_writes_both_sides_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    torch_module()
    out = tmp_path / "results.json"
    out.write_text(json.dumps({"meta": {}, "modetrace": {"kept": True}}))
    argv = ["--only-real-torch", "--rounds", "1", "--out", str(out)]
    assert bench_main([*argv, "--only", "add", "module_mlp"]) == 0
    results = json.loads(out.read_text())
    assert results["modetrace"] == {"kept": True}  # the other sections' figures stay
    section = results["real_torch"]
    for side in ("modetrace", "dynamo"):
        rows = section[side]["workloads"]
        assert set(rows) == {"add", "module_mlp"}
        assert {"compile_us", "eager_us", "compiled_us", "overhead_us"} <= set(rows["add"])
        assert not any("graph breaks" in n for row in rows.values() for n in row["notes"])
    assert {"compile_ratio", "overhead_ratio"} == set(section["comparison"]["module_mlp"])
    printed = capsys.readouterr().out
    assert "modetrace (tracer.compile) and Dynamo (torch.compile" in printed
    assert "goal (mt/dyn at most 0.2)" in printed


def test_without_torch_the_section_is_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(real_torch, "torch_or_none", lambda: None)
    assert real_torch.run(1, 1000) == {"skipped": "torch is not installed"}
    assert "Real-torch section skipped: torch is not installed." in capsys.readouterr().out


def test_overhead_ratio_is_zero_where_modetrace_adds_nothing() -> None:
    assert real_torch._overhead_ratio(-3.0, 10.0) == 0.0
    assert real_torch._overhead_ratio(2.0, 10.0) == 0.2
    assert real_torch._overhead_ratio(2.0, -1.0) is None
