"""An operation the tracer runs for real on constants may warn (`bool(NotImplemented)` is a
DeprecationWarning): it warned once, at trace time, from variables/constant.py, and the cached
entry never warned again. Now the trace breaks at the instruction that warned
(tracer/translator/trace_warnings.py), and plain Python emits the warning at the user's line on
every call; assert_same_behavior compares the warnings (category, message, location)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import CompileCounter, assert_same_behavior


def branch_on_not_implemented(x: Any) -> Any:
    return x + 1 if NotImplemented else x


def negated_not_implemented(n: int) -> bool:
    return not NotImplemented


def not_implemented_as_number(n: int) -> int:
    y = n * 2
    return bool(NotImplemented) + y


def in_a_helper(n: int) -> bool:
    return bool(NotImplemented)


def calls_a_helper_that_warns(x: Any, n: int) -> Any:
    y = x * n
    return y + in_a_helper(n)


CASES = [
    (branch_on_not_implemented, (torch.ones(2),)),
    (negated_not_implemented, (1,)),
    (not_implemented_as_number, (3,)),
    (calls_a_helper_that_warns, (torch.ones(2), 2)),
]


@pytest.mark.parametrize("fn, args", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_a_warning_at_trace_time_is_emitted_by_every_call(fn: Any, args: Any) -> None:
    outcome = assert_same_behavior(fn, *args)
    [record] = outcome.warnings
    assert record.category is DeprecationWarning
    assert record.location is not None and record.location.startswith(__file__)


def test_the_trace_breaks_where_the_warning_was_emitted() -> None:
    tracer.reset()
    with CompileCounter() as counter, pytest.warns(DeprecationWarning, match="NotImplemented"):
        tracer.compile(not_implemented_as_number)(3)
    first = counter.records[0]
    assert first.has_guarded_code, "the multiplication before it is still traced"
    (reason,) = first.graph_break_reasons or []
    assert "DeprecationWarning('NotImplemented should not be used" in reason
    assert "the compiled code would not emit it" in reason


def test_a_trace_without_warnings_is_unchanged() -> None:
    tracer.reset()
    with CompileCounter() as counter:
        assert_same_behavior(lambda x, n: x * n + 1, torch.ones(2), 3)
    assert counter.graph_breaks == 0


# A compile must not reset the user's "shown once per location" registries. It used
# `warnings.catch_warnings()` around the trace and around compile() of the graph's code, which
# tells the interpreter the filters changed: every module's `__warningregistry__` went stale, and
# a warning the `default` action had already shown at a line came out again after each compile.


def warns_here() -> None:
    warnings.warn("shown once at this line", UserWarning, stacklevel=1)


def adds_one(x: Any) -> Any:
    return x + 1


def warns_then_adds(x: Any) -> Any:
    y = x * 2
    warnings.warn("warned by the compiled function", UserWarning, stacklevel=1)
    return y + 1


def _shown(run: Callable[[], None]) -> list[str]:
    """The messages shown by `run()` under the `default` action (once per location)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        run()
    return [str(w.message) for w in seen]


@pytest.mark.parametrize(
    "compile_between",
    [
        pytest.param(lambda: tracer.compile(adds_one)(torch.ones(2)), id="a graph"),
        pytest.param(lambda: tracer.compile(not_implemented_as_number)(3), id="a warning break"),
    ],
)
def test_a_compile_does_not_show_a_once_shown_warning_again(
    compile_between: Callable[[], Any],
) -> None:
    tracer.reset()

    def run() -> None:
        warns_here()
        compile_between()
        warns_here()

    shown = [m for m in _shown(run) if m == "shown once at this line"]
    assert shown == ["shown once at this line"], "plain Python shows it once"


def test_a_compiled_function_shows_its_warning_once_as_plain_python_does() -> None:
    tracer.reset()
    compiled = tracer.compile(warns_then_adds)

    def eager() -> None:
        for _ in range(3):
            warns_then_adds(torch.ones(2))

    def compiled_calls() -> None:
        for _ in range(3):  # the first call compiles
            compiled(torch.ones(2))

    assert _shown(compiled_calls) == _shown(eager) == ["warned by the compiled function"]


def test_the_users_filter_list_is_the_same_object_after_a_compile() -> None:
    tracer.reset()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("default")
        before = warnings.filters
        snapshot = list(before)
        tracer.compile(warns_then_adds)(torch.ones(2))
        tracer.compile(not_implemented_as_number)(3)
        assert warnings.filters is before and warnings.filters == snapshot


@pytest.mark.parametrize("action", ["error", "ignore"])
def test_the_users_filter_decides_as_plain_python_does(action: str) -> None:
    """The trace sees the warning whatever the filters say (so it breaks there); the
    instruction then runs as plain Python, under the user's filter."""
    tracer.reset()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter(action, DeprecationWarning)
        if action == "error":
            with pytest.raises(DeprecationWarning, match="NotImplemented"):
                tracer.compile(not_implemented_as_number)(3)
        else:
            assert tracer.compile(not_implemented_as_number)(3) == not_implemented_as_number(3)
    assert [w for w in seen if w.category is DeprecationWarning] == []
