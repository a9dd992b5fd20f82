from __future__ import annotations

from typing import Any

import pytest

from tracer.observability.metrics import MetricsContext, get_metrics_context, metrics_context

Recorded = list[tuple[int, int, dict[str, Any], Any, Any]]


def _context(fields: set[str] | None = None) -> tuple[MetricsContext, Recorded]:
    seen: Recorded = []
    ctx = MetricsContext(lambda *args: seen.append(args), fields)
    return ctx, seen


def test_nested_context_records_once_at_outermost_exit() -> None:
    ctx, seen = _context()
    with ctx:
        ctx.set("co_name", "f")
        with ctx:
            ctx.increment("graph_break_count", 1)
            with ctx:
                ctx.increment("graph_break_count", 2)
            assert seen == []
        assert ctx.in_progress()
    assert not ctx.in_progress()
    assert len(seen) == 1
    start, end, metrics, exc_type, exc_value = seen[0]
    assert metrics == {"co_name": "f", "graph_break_count": 3}
    assert start <= end and exc_type is None and exc_value is None


def test_next_compile_starts_empty() -> None:
    ctx, seen = _context()
    with ctx:
        ctx.set("co_name", "f")
    with ctx:
        ctx.set("co_name", "g")
    assert [s[2] for s in seen] == [{"co_name": "f"}, {"co_name": "g"}]


def test_exception_reaches_on_exit_and_propagates_unchanged() -> None:
    ctx, seen = _context()
    error = ValueError("boom")
    with pytest.raises(ValueError) as raised, ctx, ctx:
        raise error
    assert raised.value is error
    assert seen[0][3] is ValueError and seen[0][4] is error


def test_set_twice_names_the_earlier_location() -> None:
    ctx, _ = _context()
    with ctx:
        ctx.set("co_name", "f")
        line = test_set_twice_names_the_earlier_location.__code__.co_firstlineno + 3
        with pytest.raises(RuntimeError, match=rf"already set.*test_metrics_context.py:{line}"):
            ctx.set("co_name", "g")
        ctx.set("co_name", "g", overwrite=True)
        with pytest.raises(RuntimeError, match=r"'co_name' at .*test_metrics_context.py"):
            ctx.update({"co_name": "h", "guard_count": 1})
        assert "guard_count" not in repr(ctx), "a refused update must write nothing"
        ctx.update({"co_name": "h"}, overwrite=True)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda c: c.set("co_name", "f"),
        lambda c: c.update({"co_name": "f"}),
        lambda c: c.update_outer({"co_name": "f"}),
        lambda c: c.increment("graph_break_count", 1),
        lambda c: c.add_to_set("graph_break_reasons", "x"),
        lambda c: c.set_key_value("feature_usage", "inlining", True),
    ],
)
def test_mutators_outside_a_context_raise(mutate: Any) -> None:
    ctx, _ = _context()
    with pytest.raises(RuntimeError, match="outside of a MetricsContext"):
        mutate(ctx)
    with pytest.raises(RuntimeError, match="outside of a MetricsContext"):
        mutate(get_metrics_context())


def test_update_outer_only_at_outermost_level() -> None:
    ctx, seen = _context()
    with ctx:
        with ctx:
            ctx.update_outer({"co_name": "inner"})
        ctx.update_outer({"guard_count": 2})
    assert seen[0][2] == {"guard_count": 2}


def test_sets_and_key_values() -> None:
    ctx, seen = _context()
    with ctx:
        ctx.add_to_set("graph_break_reasons", "b")
        ctx.add_to_set("graph_break_reasons", "a")
        ctx.add_to_set("graph_break_reasons", "b")
        ctx.set_key_value("feature_usage", "inlining", True)
        ctx.set_key_value("feature_usage", "inlining", False)
        assert ctx.get("graph_break_reasons") == {"a", "b"}
    assert seen[0][2] == {"graph_break_reasons": {"a", "b"}, "feature_usage": {"inlining": False}}


def test_thread_context_rejects_unknown_metric_names() -> None:
    with metrics_context(event_name=None) as ctx, pytest.raises(ValueError, match="co_nmae"):
        ctx.set("co_nmae", "f")


def test_update_with_an_unknown_field_names_it_and_writes_nothing() -> None:
    ctx, _ = _context({"co_name", "guard_count"})
    with ctx:
        with pytest.raises(ValueError, match="unknown metric 'not_a_field'"):
            ctx.update({"co_name": "f", "not_a_field": 1})
        assert "co_name" not in repr(ctx)
        ctx.update({"co_name": "f", "guard_count": 2})
        assert ctx.get("guard_count") == 2
