"""The real tlparse reads our structured log: three compiles render into a clean report."""

from __future__ import annotations

import json
from pathlib import Path

from tests.observability.tlparse_checks import SIMULATED_IDS, check_report, run_tlparse


def test_tlparse_renders_simulated_compiles(simulated_trace_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = run_tlparse(simulated_trace_log, out)
    assert result.returncode == 0, result.stdout + result.stderr
    check_report(out, SIMULATED_IDS)
    directory = json.loads((out / "compile_directory.json").read_text())
    assert set(directory) == {f"[{cid}]" for cid in SIMULATED_IDS}
    index = (out / "index.html").read_text()
    for cid in SIMULATED_IDS:
        assert f"status-ok'>[{cid}]" in index, f"{cid} should render green"
    names = {e["name"] for e in json.loads((out / "chromium_events.json").read_text())}
    assert {"compile", "entire_frame_compile", "recompile", "graph_break"} <= names
    artifacts = {a["name"] for entry in directory.values() for a in entry["artifacts"]}
    assert any(name.startswith("recompile_reasons") for name in artifacts)
    assert any(name.startswith("dynamo_graph_break_reason") for name in artifacts)
    assert "fail" not in result.stderr.lower(), result.stderr
