"""A graph break traces the frame a second time, up to the break: that trace gets fake
tensors of its own. It shared the first trace's, which carry what the first did to them:
after `x.requires_grad_()` the second trace saw `x` already requiring grad, recorded no node,
and `x.requires_grad` stayed False after the call (found by a hunt on real torch)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


def grad_then_break(x: Any) -> Any:
    x.requires_grad_()
    tracer.graph_break()
    return 1


def transposed_then_break(x: Any) -> Any:
    x.t_()
    y = x + 1
    tracer.graph_break()
    return y


@pytest.mark.parametrize("fn", [grad_then_break, transposed_then_break])
def test_what_the_first_trace_did_to_an_input_is_not_seen_by_the_second(fn: Any) -> None:
    torch = real_torch()
    eager, compiled = torch.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    expected = fn(eager)
    result = tracer.compile(fn)(compiled)
    assert compiled.requires_grad == eager.requires_grad
    assert compiled.shape == eager.shape and compiled.stride() == eager.stride()
    if fn is transposed_then_break:
        assert torch.equal(result, expected)
