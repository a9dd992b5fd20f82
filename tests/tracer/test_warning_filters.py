"""tracer/warning_filters.py: the compile path's warning filters, swapped without making the
user's "shown once" registries stale, and put back whole however blocks overlap (nested, or in
two threads compiling at once, ending in either order)."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from tracer.warning_filters import ALWAYS, NO_SYNTAX_WARNINGS, filters_swapped


def _warn(text: str) -> None:
    warnings.warn(text, UserWarning, stacklevel=1)


@pytest.fixture
def user_state() -> Any:
    """The user's filters (`default`) and `showwarning` (a list of messages), restored after."""
    shown: list[str] = []

    def show(message: Any, *rest: Any) -> None:
        shown.append(str(message))

    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = show
        yield warnings.filters, show, shown


def test_a_block_records_this_threads_warnings_and_puts_everything_back(user_state: Any) -> None:
    filters, show, shown = user_state
    seen: list[warnings.WarningMessage] = []
    with filters_swapped(ALWAYS, keep_user=False, recorder=seen.append):
        _warn("recorded")
        _warn("recorded")  # `always`: a repeat is recorded too
    assert [str(w.message) for w in seen] == ["recorded", "recorded"]
    assert shown == []
    assert warnings.filters is filters and warnings.showwarning is show


def test_the_once_per_location_registry_stays_valid(user_state: Any) -> None:
    _, _, shown = user_state
    _warn("once")
    with filters_swapped(NO_SYNTAX_WARNINGS, keep_user=True):
        compile("x = 1 is 1", "<generated>", "exec")  # a SyntaxWarning, dropped
    with filters_swapped(ALWAYS, keep_user=False, recorder=lambda w: None):
        pass
    _warn("once")  # the same line: `default` shows it once
    assert shown == ["once"]


def test_nested_blocks_restore_the_outer_one_then_the_users(user_state: Any) -> None:
    filters, show, shown = user_state
    outer: list[warnings.WarningMessage] = []
    with filters_swapped(ALWAYS, keep_user=False, recorder=outer.append):
        inner_filters = None
        with filters_swapped(NO_SYNTAX_WARNINGS, keep_user=True):
            inner_filters = list(warnings.filters)
        assert list(warnings.filters) == list(ALWAYS)
        _warn("after the inner block")
    assert inner_filters == [*NO_SYNTAX_WARNINGS, *filters]
    assert [str(w.message) for w in outer] == ["after the inner block"]
    assert warnings.filters is filters and warnings.showwarning is show and shown == []


@pytest.mark.parametrize("first_to_end", ["first", "second"])
def test_two_threads_blocks_ending_in_either_order_leave_the_users_state(
    user_state: Any, first_to_end: str
) -> None:
    filters, show, shown = user_state
    recorded: dict[str, list[str]] = {"first": [], "second": []}
    entered = {name: threading.Event() for name in recorded}
    may_end = {name: threading.Event() for name in recorded}
    errors: list[BaseException] = []

    def run(name: str) -> Callable[[], None]:
        def record(w: warnings.WarningMessage) -> None:
            recorded[name].append(str(w.message))

        def body() -> None:
            try:
                with filters_swapped(ALWAYS, keep_user=False, recorder=record):
                    entered[name].set()
                    _warn(f"from the {name} thread")
                    assert may_end[name].wait(10)
            except BaseException as e:  # noqa: BLE001 - reported by the main thread
                errors.append(e)

        return body

    first = threading.Thread(target=run("first"))
    first.start()
    assert entered["first"].wait(10)
    second = threading.Thread(target=run("second"))
    second.start()
    assert entered["second"].wait(10)
    _warn("from the main thread, which records nothing")
    other = "second" if first_to_end == "first" else "first"
    threads = {"first": first, "second": second}
    may_end[first_to_end].set()
    threads[first_to_end].join(10)
    may_end[other].set()
    threads[other].join(10)
    assert not errors
    assert recorded == {"first": ["from the first thread"], "second": ["from the second thread"]}
    assert shown == ["from the main thread, which records nothing"]
    assert warnings.filters is filters and warnings.showwarning is show
