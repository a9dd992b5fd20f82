"""The per-call timing loops: interleaved stretches make every kind of call run the asked
number of times, alternating, so a drift of the machine's speed reaches all of them alike."""

from __future__ import annotations

import pytest

from benchmarks import timing


def test_interleaved_calls_alternate_and_run_the_asked_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order: list[str] = []
    clock = iter(range(0, 10**9, 1000))  # each clock read moves 1 µs on
    monkeypatch.setattr(timing, "_clock", lambda: next(clock))
    calls = {"a": lambda: order.append("a"), "b": lambda: order.append("b")}
    times = timing.interleaved_per_call_us(list(calls.values()), [8, 4], chunks=4)
    assert order.count("a") == 8 and order.count("b") == 4
    # stretches: a a, b, b, a a, a a, b, b, a a
    assert order == ["a", "a", "b", "b", "a", "a", "a", "a", "b", "b", "a", "a"]
    # each stretch is one 1 µs clock difference: 4 stretches of 2 calls, and of 1 call
    assert times == [pytest.approx(4 / 8), pytest.approx(4 / 4)]


def test_a_drift_during_the_measurement_reaches_every_kind_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two identical calls measured while the machine slows down steadily (linearly) come out
    equal: A B B A gives each the same share of early and late stretches."""
    now = [0.0]
    cost = [1.0]

    def work() -> None:
        now[0] += cost[0]
        cost[0] += 0.01  # every call a little slower than the one before

    monkeypatch.setattr(timing, "_clock", lambda: int(now[0] * 1000))
    first, second = timing.interleaved_per_call_us([work, work], [400, 400], chunks=4)
    naive_first = timing.per_call_us(work, 400)
    naive_second = timing.per_call_us(work, 400)
    assert first == pytest.approx(second, rel=1e-3)
    assert naive_second > 1.3 * naive_first  # back to back: 11 µs against 15
