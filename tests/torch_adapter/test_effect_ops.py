"""Ops called for what they do rather than for a value: `loss.backward()`, `y.retain_grad()`,
`torch.set_rng_state(s)`. Their fake run returns None and touches no real state, so folding
them to None (as a metadata query is folded) dropped them from the compiled code: a training
step's `loss.backward()` left every `.grad` empty. Each now breaks the graph, as in Dynamo, and
runs eagerly."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import tracer
from tests.real_torch import real_torch


def training_step(model: Any, x: Any, y: Any) -> Any:
    import torch.nn.functional as F

    loss = F.cross_entropy(model(x), y)
    loss.backward()
    return loss.detach()


def keeps_a_grad(x: Any) -> Any:
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward()
    return y.grad


def sets_the_generator(x: Any, state: Any) -> Any:
    import torch

    torch.set_rng_state(state)
    return x + 1


def test_backward_runs_and_fills_the_grads_as_eagerly() -> None:
    torch = real_torch()
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 3)
    x, y = torch.randn(4, 8), torch.tensor([0, 2, 1, 1])
    training_step(model, x, y)
    expected = [p.grad.clone() for p in model.parameters()]
    compiled = tracer.compile(training_step)
    for _ in range(2):
        model.zero_grad(set_to_none=True)
        loss = compiled(model, x, y)
        assert all(p.grad is not None for p in model.parameters())
        assert all(map(torch.allclose, [p.grad for p in model.parameters()], expected))
        assert not loss.requires_grad
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(training_step)(model, x, y)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == comparison.dynamo.graph_count == 2
    assert "backward returned None" in str(comparison.modetrace.break_reasons[0])


def test_retain_grad_is_kept() -> None:
    torch = real_torch()
    x = torch.randn(3, requires_grad=True)
    got = tracer.compile(keeps_a_grad)(x)
    expected = keeps_a_grad(x)
    assert got is not None and torch.equal(got, expected)


def test_setting_the_generator_state_runs() -> None:
    torch = real_torch()
    state = torch.get_rng_state()
    compiled = tracer.compile(sets_the_generator)
    x = torch.zeros(2)
    for _ in range(2):
        torch.rand(5)  # moves the generator on; the call sets it back, as eagerly
        compiled(x, state)
        assert torch.equal(torch.get_rng_state(), state)
