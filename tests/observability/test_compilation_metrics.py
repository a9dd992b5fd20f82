from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import pytest

from tracer import config
from tracer.exc import BreakReason, Unsupported, UserLocation
from tracer.observability import trace_log
from tracer.observability.compile_context import CompileId, compile_context
from tracer.observability.events import get_chromium_events
from tracer.observability.metrics import (
    CompilationMetrics,
    clear_compilation_metrics,
    disabled,
    failure_metrics,
    get_compilation_metrics,
    get_metrics_context,
    metrics_context,
    timed,
)


def _compile(cid: CompileId | None = None, **values: object) -> CompilationMetrics:
    cid = cid or CompileId(0, 0)
    # As convert_frame does at a compile's start: an earlier test's compile with the same id
    # (ids restart after tracer.reset()) may have logged records under it.
    trace_log.reset_overhead(cid)
    with compile_context(cid), metrics_context():
        get_metrics_context().update(dict(values))
    return get_compilation_metrics()[-1]


def test_success_fills_common_fields() -> None:
    record = _compile(CompileId(2, 1), co_name="f", graph_op_count=5)
    assert record.compile_id == "2/1"
    assert record.co_name == "f" and record.graph_op_count == 5
    assert record.graph_node_count == 0 and record.guard_count == 0
    assert record.restart_reasons == [] and record.fail_type is None
    assert isinstance(record.start_time_us, int) and isinstance(record.end_time_us, int)
    assert record.duration_us is not None
    assert abs(record.duration_us - (record.end_time_us - record.start_time_us)) <= 1
    assert record.config == config.current().snapshot()
    assert record.python_version == sys.version and record.modetrace_version
    assert record.structured_logging_overhead_us == 0


def test_values_set_during_the_compile_win() -> None:
    record = _compile(restart_reasons=["retry"], compile_id="custom", fail_type="Nope")
    assert record.restart_reasons == ["retry"]
    assert record.compile_id == "custom" and record.fail_type == "Nope"


def _user_code_that_fails() -> None:
    raise ZeroDivisionError("division by zero in user code")


def test_exception_records_failure_and_reraises_same_object() -> None:
    with (
        pytest.raises(ZeroDivisionError) as raised,
        compile_context(CompileId(0, 0)),
        metrics_context(),
        timed("bytecode_tracing", metrics_column="bytecode_tracing_time_us"),
    ):
        try:
            _user_code_that_fails()
        except ZeroDivisionError as error:
            original = error
            raise
    assert raised.value is original
    (record,) = get_compilation_metrics()
    assert record.fail_type == "ZeroDivisionError"
    assert record.fail_reason == "division by zero in user code"
    line = _user_code_that_fails.__code__.co_firstlineno + 1
    assert record.fail_user_location == f"{__file__}:{line}"
    assert (record.fail_user_frame_filename, record.fail_user_frame_lineno) == (__file__, line)
    assert record.bytecode_tracing_time_us is not None


def test_graph_break_location_comes_from_the_reason() -> None:
    where = UserLocation("/src/model.py", 42, "forward")
    error = Unsupported(BreakReason("builtin-call", "call to open", location=where))
    with pytest.raises(Unsupported), metrics_context():
        raise error
    record = get_compilation_metrics()[-1]
    assert record.fail_type == "Unsupported"
    assert record.fail_user_location == "/src/model.py:42"
    assert failure_metrics(error)["fail_user_frame_lineno"] == 42


def test_to_dict_drops_none_and_is_json() -> None:
    with metrics_context() as ctx:
        ctx.add_to_set("non_compliant_ops", "b")
        ctx.add_to_set("non_compliant_ops", "a")
    data = get_compilation_metrics()[-1].to_dict()
    assert None not in data.values()
    assert data["non_compliant_ops"] == ["a", "b"]
    assert json.loads(json.dumps(data)) == data
    assert "co_name" not in data


def test_every_timing_field_is_integer_microseconds() -> None:
    for name in CompilationMetrics.__dataclass_fields__:
        if "time" in name and not name.endswith("_us"):
            pytest.fail(f"{name}: timing fields are integer microseconds named *_us")


def test_history_is_bounded_and_oldest_first() -> None:
    with config.patch(metrics_limit=2):
        for frame in range(3):
            _compile(CompileId(frame, 0))
        assert [r.compile_id for r in get_compilation_metrics()] == ["1/0", "2/0"]
    clear_compilation_metrics()
    assert get_compilation_metrics() == []


def test_timed_adds_to_metrics_column_and_checks_name() -> None:
    with metrics_context(event_name=None):
        for _ in range(2):
            with timed("codegen", metrics_column="codegen_time_us"):
                pass
    assert get_compilation_metrics()[-1].codegen_time_us is not None
    with pytest.raises(AssertionError, match="_us"):
        timed("codegen", metrics_column="codegen_time_s")
    with timed("outside_any_compile", metrics_column="codegen_time_us"):
        pass  # no context in progress: the duration is simply not recorded


def test_record_summary_lands_on_the_compile_event() -> None:
    with compile_context(CompileId(0, 0)), metrics_context() as ctx:
        ctx.set("co_name", "f")
    compile_end = [e for e in get_chromium_events() if e["name"] == "compile" and e["ph"] == "E"]
    assert compile_end[0]["args"]["co_name"] == "f"
    assert compile_end[0]["args"]["restart_reasons"] == []


def test_structured_logging_overhead_is_counted(trace_dir: Path) -> None:
    record = _compile(CompileId(5, 0), co_name="f")
    assert record.structured_logging_overhead_us is not None
    assert record.structured_logging_overhead_us > 0


def test_disabled_stubs_events_and_recording_but_keeps_mutators() -> None:
    with (
        disabled(),
        compile_context(CompileId(0, 0)),
        metrics_context() as ctx,
        timed("bytecode_tracing", metrics_column="bytecode_tracing_time_us"),
    ):
        ctx.set("co_name", "f")
    assert get_chromium_events() == [] and get_compilation_metrics() == []
    _compile()
    assert get_chromium_events() and get_compilation_metrics()


def test_chromium_summary_keeps_set_fields_in_order() -> None:
    from tracer.observability.metrics.compilation import _CHROMIUM_FIELDS, _chromium_summary

    values = {name: i for i, name in enumerate(_CHROMIUM_FIELDS)}
    values[_CHROMIUM_FIELDS[1]] = None
    values[_CHROMIUM_FIELDS[-1]] = 0
    values["not_a_summary_field"] = 1
    del values[_CHROMIUM_FIELDS[2]]
    expected = {k: v for k in _CHROMIUM_FIELDS if (v := values.get(k)) is not None}
    assert _chromium_summary(values) == expected
    assert list(_chromium_summary(values)) == list(expected)
    assert _CHROMIUM_FIELDS[-1] in expected and _CHROMIUM_FIELDS[1] not in expected


@pytest.mark.parametrize(
    "values",
    [
        {"co_name": "f", "guard_count": 3},  # a count set during the compile wins
        {"restart_reasons": ["retry"], "compile_id": "custom", "fail_type": "Nope"},
        {"non_compliant_ops": {"b", "a"}},  # a set becomes a sorted list
        {},
    ],
)
@pytest.mark.parametrize("fails", [False, True])
def test_fields_are_the_values_without_the_dict(values: dict[str, object], fails: bool) -> None:
    """`fields()` (what the metrics store reads) gives the same names and values as `values()`
    (what `get_compilation_metrics()` reads), in whatever order, for any set of keys."""
    from tracer.observability.metrics import compilation

    clear_compilation_metrics()
    raises = pytest.raises(ZeroDivisionError) if fails else contextlib.nullcontext()
    with raises, compile_context(CompileId(3, 0)), metrics_context() as ctx:
        for key, value in values.items():
            if isinstance(value, set):
                for item in value:
                    ctx.add_to_set(key, item)
            else:
                ctx.set(key, value)
        if fails:
            1 / 0  # noqa: B018
    (captured,) = compilation._history
    layout, found = captured.fields()
    assert len(layout.names) == len(set(layout.names)) == len(found)
    assert dict(zip(layout.names, found, strict=True)) == captured.values()
    assert captured.fields()[0] is layout  # one layout for the same keys
