from __future__ import annotations

import hashlib
import json
import re
import traceback
from pathlib import Path
from typing import Any

import pytest

from tracer.observability import trace_log
from tracer.observability.compile_context import CompileId, compile_context

PREFIX = re.compile(r"^V\d{4} \d{2}:\d{2}:\d{2}\.\d{6} \d+ [^:]+:\d+\] ")


def read_records(path: Path) -> list[tuple[dict[str, Any], str | None]]:
    """(envelope, payload) pairs, parsed the way tlparse reads them."""
    records: list[tuple[dict[str, Any], str | None]] = []
    payload: list[str] | None = None
    for line in path.read_text().splitlines():
        if line.startswith("\t"):
            assert payload is not None, "payload line without a record"
            payload.append(line[1:])
            continue
        if records and payload is not None:
            records[-1] = (records[-1][0], "\n".join(payload))
        match = PREFIX.match(line)
        assert match, f"bad prefix: {line!r}"
        envelope = json.loads(line[match.end() :])
        records.append((envelope, None))
        payload = [] if "has_payload" in envelope else None
    if records and payload is not None:
        records[-1] = (records[-1][0], "\n".join(payload))
    return records


def test_off_by_default_writes_nothing(tmp_path: Path) -> None:
    trace_log.trace_structured("dynamo_start", lambda: pytest.fail("evaluated while off"))
    assert not trace_log.is_enabled() and trace_log.log_path() is None


def test_env_var_is_read_at_first_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trace_log, "_decided", False)
    monkeypatch.setattr(trace_log, "_active", True)
    monkeypatch.setattr(trace_log, "_directory", None)
    monkeypatch.setenv(trace_log.ENV_VAR, str(tmp_path))
    try:
        assert trace_log.is_enabled()
        assert trace_log.log_path() == str(tmp_path / Path(trace_log.log_path() or "").name)
    finally:
        trace_log.disable()


def test_a_log_directory_that_cannot_be_made_turns_the_log_off(tmp_path: Path) -> None:
    """MODETRACE_TRACE naming a file made every compiled call raise an OSError from here: the
    log is off instead, said once in one line."""
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    trace_log.enable(a_file)
    try:
        with pytest.warns(UserWarning, match="no structured trace log"):
            trace_log.trace_structured("dynamo_start", {"x": 1})
        assert not trace_log.is_enabled()
        trace_log.trace_structured("dynamo_start", {"x": 2})  # off: nothing, no warning
    finally:
        trace_log.disable()


def test_envelope_payload_and_md5(trace_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:

    with compile_context(CompileId(1, 2, attempt=1)):
        trace_log.trace_structured("dynamo_output_graph", {"sizes": {}}, "line one\nline two")
        trace_log.trace_structured("thing", None, [{"a": 1}, 2])
        trace_log.trace_artifact("stuff", "json", lambda: {"k": [1, 2]})
    path = Path(trace_log.log_path() or "")
    assert path.name.startswith("dedicated_log_modetrace_")
    assert f"structured trace log at {path}" in capsys.readouterr().err
    (graph, text), (thing, listed), (artifact, blob) = read_records(path)
    assert graph == {
        "dynamo_output_graph": {"sizes": {}},
        "frame_id": 1,
        "frame_compile_id": 2,
        "attempt": 1,
        "has_payload": hashlib.md5(b"line one\nline two").hexdigest(),
    }
    assert text == "line one\nline two"
    assert listed == '[\n{"a": 1},\n2\n]' and thing["thing"] == {}
    assert artifact["artifact"] == {"name": "stuff", "encoding": "json"}
    assert json.loads(blob or "") == {"k": [1, 2]}
    for envelope, payload in read_records(path):
        if payload is not None:
            assert envelope["has_payload"] == hashlib.md5(payload.encode()).hexdigest()


def test_string_table_and_stacks(trace_dir: Path) -> None:
    frames = [
        traceback.FrameSummary("a.py", 1, "f", line="g()"),
        traceback.FrameSummary("b.py", 2, "g", line=""),
        traceback.FrameSummary("a.py", 3, "h", line="x"),
    ]
    with compile_context(CompileId(0, 0)):
        stack = trace_log.user_stack_to_json(frames)
        trace_log.trace_structured("dynamo_start", {"stack": stack})
    records = [r for r, _ in read_records(Path(trace_log.log_path() or ""))]
    assert [r["str"] for r in records if "str" in r] == [["a.py", 0], ["b.py", 1]]
    assert records[-1]["dynamo_start"]["stack"] == [
        {"line": 1, "name": "f", "filename": 0, "loc": "g()"},
        {"line": 2, "name": "g", "filename": 1},
        {"line": 3, "name": "h", "filename": 0, "loc": "x"},
    ]


def test_record_without_compile_id_gets_a_stack(trace_dir: Path) -> None:
    trace_log.trace_structured("no_compile")
    trace_log.trace_structured("quiet", expect_trace_id=False)
    records = [r for r, _ in read_records(Path(trace_log.log_path() or "")) if "str" not in r]
    assert records[0]["stack"][-1]["name"] == "test_record_without_compile_id_gets_a_stack"
    assert "frame_id" not in records[0]
    assert records[1] == {"quiet": {}}


def test_reserved_names_and_bad_encodings(trace_dir: Path) -> None:
    with pytest.raises(ValueError, match="reserved"):
        trace_log.trace_structured("frame_id")
    with pytest.raises(ValueError, match="encoding"):
        trace_log.trace_artifact("x", "binary", "data")


def test_overhead_is_per_compile_and_sums_attempts(trace_dir: Path) -> None:
    for attempt in range(2):
        with compile_context(CompileId(7, 0, attempt)):
            trace_log.trace_structured("dynamo_start", {"stack": []})
    assert trace_log.structured_logging_overhead_us(CompileId(7, 0)) >= 0
    assert trace_log.structured_logging_overhead_us(CompileId(8, 0)) == 0
    assert trace_log.structured_logging_overhead_us() == 0
    assert trace_log._overhead_ns["7/0"] > 0
