"""A random op reads the global generator, so a call of one breaks the graph, however many
other runtime functions the trace called first (OutputGraph remembers, per trace, the ones it
found not random and skips working out their names again)."""

from typing import Any

import pytest

import tracer
import tracer.runtime as torch


def _break_kind(fn: Any, *args: Any) -> str | None:
    tracer.reset()
    compiled = tracer.compile(fn)
    compiled(*args)
    reason = compiled.entries[0].break_reason
    return None if reason is None else reason.kind


def tanh_twice_then_randn(x: Any) -> Any:
    y = torch.tanh(x)
    y = torch.tanh(y)
    return y + torch.randn(3)


def randn_in_a_loop(x: Any) -> Any:
    for _ in range(2):
        x = x + torch.rand(3)
    return x


def seeded(x: Any) -> Any:
    torch.tanh(x)
    torch.manual_seed(0)
    return torch.tanh(x)


@pytest.mark.parametrize("fn", [tanh_twice_then_randn, randn_in_a_loop, seeded])
def test_random_ops_break_the_graph(fn: Any) -> None:
    # in a loop the break does not resume, and the frame says so as Dynamo does
    expected = "graph break in loop" if fn is randn_in_a_loop else "random"
    assert _break_kind(fn, torch.ones(3)) == expected


def test_ops_called_again_still_trace() -> None:
    def tanh_often(x: Any) -> Any:
        for _ in range(3):
            x = torch.tanh(x) + torch.sigmoid(x)
        return x

    x = torch.ones(3)
    assert _break_kind(tanh_often, x) is None
    tracer.reset()
    assert tracer.compile(tanh_often)(x).tolist() == tanh_often(x).tolist()


def test_the_memory_is_per_trace() -> None:
    """After a trace that called `torch.tanh`, a trace calling `torch.randn` still breaks."""

    def only_tanh(x: Any) -> Any:
        return torch.tanh(x)

    assert _break_kind(only_tanh, torch.ones(3)) is None
    assert _break_kind(tanh_twice_then_randn, torch.ones(3)) == "random"
