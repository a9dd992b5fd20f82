"""What a compile's timed phases record: the args of their spans (the compile's tag, shared
by spans without metadata and safe from readers who change what they read), the metrics
columns they add to, the compile context that tags them, and the compile record built from
what the compile's end captured.
"""

from __future__ import annotations

import pytest

from tracer.observability.compile_context import CompileId, compile_context, current_tag
from tracer.observability.events import (
    get_chromium_event_logger,
    get_chromium_events,
    get_compile_events,
)
from tracer.observability.metrics import MetricsContext, metrics_context, timed


def test_spans_of_one_compile_share_args_that_readers_cannot_change() -> None:
    with compile_context(CompileId(4, 2)), metrics_context(), timed("codegen"):
        pass
    first = get_chromium_events()
    assert all(event["args"]["compile_id"] == "4/2" for event in first)
    for event in first:
        event["args"]["compile_id"] = "changed by a reader"
        event["args"]["extra"] = 1
    again = get_chromium_events()
    assert [event["args"].get("compile_id") for event in again] == ["4/2"] * 4
    assert all("extra" not in event["args"] for event in again)
    rows = get_compile_events()
    rows[0].metadata["extra"] = 1
    assert get_compile_events()[0].row()["compile_id"] == "4/2"
    assert "extra" not in get_compile_events()[0].metadata


def test_the_tag_follows_the_compile_and_comes_back_after() -> None:
    assert current_tag() == {}
    with compile_context(CompileId(1, 0)):
        outer = current_tag()
        with compile_context(CompileId(2, 0)):
            assert current_tag() == {"compile_id": "2/0"}
            with timed("inner"):
                pass
        assert current_tag() is outer and outer == {"compile_id": "1/0"}
        with timed("outer", metadata={"n": 1}):
            pass
    assert current_tag() == {}
    args = [(e["name"], e["args"]) for e in get_chromium_events() if e["ph"] == "B"]
    assert args == [("inner", {"compile_id": "2/0"}), ("outer", {"n": 1, "compile_id": "1/0"})]
    assert outer == {"compile_id": "1/0"}, "span metadata must not leak into the shared tag"


def test_a_time_column_then_set_names_the_timed_phase() -> None:
    ctx = MetricsContext(lambda *args: None)
    with ctx:
        ctx.add_time("codegen_time_us", 5)
        ctx.add_time("codegen_time_us", 7)
        assert ctx.get("codegen_time_us") == 12
        with pytest.raises(RuntimeError, match=r"already set.*a timed phase's exit"):
            ctx.set("codegen_time_us", 1)
        with pytest.raises(RuntimeError, match=r"'codegen_time_us' at a timed phase's exit"):
            ctx.update({"codegen_time_us": 1})
    ctx.add_time("codegen_time_us", 5)  # outside a compile: nothing, no error


def test_timed_columns_add_up_and_an_unbalanced_exit_still_counts() -> None:
    seen: list[dict[str, object]] = []
    with metrics_context(event_name=None) as ctx:
        with timed("codegen", metrics_column="codegen_time_us"):
            pass
        with timed("codegen", metrics_column="codegen_time_us"):
            pass
        outer = timed("outer", metrics_column="build_guards_time_us")
        inner = timed("inner")
        outer.__enter__()
        inner.__enter__()
        with pytest.raises(RuntimeError, match="cannot end event 'outer'"):
            outer.__exit__(None, None, None)
        assert get_chromium_event_logger().get_stack() == ["outer", "inner"]
        columns = ("codegen_time_us", "build_guards_time_us", "graph_pass_time_us")
        seen.append({k: ctx.get(k) for k in columns})
        inner.__exit__(None, None, None)
        outer.__exit__(None, None, None)
    assert isinstance(seen[0]["codegen_time_us"], int)
    assert isinstance(seen[0]["build_guards_time_us"], int)
    assert seen[0]["graph_pass_time_us"] is None
    names = [(e["name"], e["ph"]) for e in get_chromium_events()]
    assert names[-4:] == [("outer", "B"), ("inner", "B"), ("inner", "E"), ("outer", "E")]


def test_a_timed_phase_stores_its_span_and_compile_event() -> None:
    log = get_chromium_event_logger()
    with (
        compile_context(CompileId(7, 0)),
        timed("codegen", metadata={"n": 1}, log_compile_event=True),
    ):
        log.add_event_data("codegen", extra=2)

    def shape(event: dict[str, object]) -> tuple[object, ...]:
        return event["name"], event["ph"], event["cat"], event["args"]

    events = [shape(e) for e in get_chromium_events()]
    assert [e[:2] for e in events] == [("codegen", "B"), ("codegen", "E")]
    assert events[1][-1] == {"n": 1, "compile_id": "7/0", "extra": 2}
    rows = [{**row.row(), "start_us": 0, "duration_us": 0} for row in get_compile_events()]
    assert rows == [
        {
            "n": 1,
            "extra": 2,
            "name": "codegen",
            "compile_id": "7/0",
            "start_us": 0,
            "duration_us": 0,
        }
    ]


def test_compile_context_restores_and_refuses_nested_reuse() -> None:
    from tracer.observability.compile_context import current_compile_id

    outer = compile_context(CompileId(5, 1))
    with outer as cid:
        assert cid == CompileId(5, 1) and current_compile_id() == cid
        assert current_tag() == {"compile_id": "5/1"}
        with pytest.raises(RuntimeError, match="already entered"):
            outer.__enter__()
        with compile_context(CompileId(6, 0, attempt=2)):
            assert current_tag() == {"compile_id": "6/0_2"}
        assert current_compile_id() == CompileId(5, 1)
    assert current_compile_id() is None and current_tag() == {}
    with outer:  # once exited, it may be entered again
        assert current_compile_id() == CompileId(5, 1)
    assert current_compile_id() is None


def test_data_added_later_is_computed_on_read_in_the_order_added() -> None:
    from tracer.observability.events import Span

    calls: list[int] = []

    def later() -> dict[str, int]:
        calls.append(1)
        return {"b": 2, "a": 9}

    span = Span("s", compile_event=False)
    span.args = {"compile_id": "0/0"}
    span.add({"a": 1})
    span.add_later(later)
    assert calls == []
    span.add({"c": 3})  # more data: what came earlier is settled first
    assert calls == [1]
    assert list(span.end_args().items()) == [("compile_id", "0/0"), ("a", 9), ("b", 2), ("c", 3)]
    span.end_args()
    assert calls == [1]


def test_a_compile_record_is_built_on_first_read_from_what_the_compile_captured() -> None:
    from tracer.observability.metrics import (
        clear_compilation_metrics,
        compilation,
        get_compilation_metrics,
    )

    clear_compilation_metrics()
    with compile_context(CompileId(8, 1)), metrics_context() as ctx:
        ctx.update({"co_name": "f", "guard_count": 3})
        ctx.add_to_set("non_compliant_ops", "b")
        ctx.add_to_set("non_compliant_ops", "a")
    (captured,) = compilation._history
    assert captured._record is None  # nothing built yet
    (record,) = get_compilation_metrics()
    assert get_compilation_metrics()[0] is record  # built once
    eager = compilation._Captured(captured._start_ns, captured._end_ns, captured._metrics, None)
    eager._cid, eager._overhead_us = captured._cid, captured._overhead_us
    assert record == eager.record() and record.non_compliant_ops == ["a", "b"]
    (end,) = [e for e in get_chromium_events() if e["ph"] == "E" and e["name"] == "compile"]
    assert end["args"] == {"compile_id": "8/1", **compilation._chromium_summary(eager.values())}
    assert end["args"]["guard_count"] == 3 and "co_filename" not in end["args"]
