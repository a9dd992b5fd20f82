"""Code written for torch runs unchanged against `import tracer.runtime as torch`."""

from __future__ import annotations

from typing import Any

import numpy as np

import tracer.runtime as torch
from tests.runtime.strategies import to_numpy
from tracer.runtime import FakeTensor


def mlp(x: Any, w1: Any, b1: Any, w2: Any) -> Any:
    """A two-layer perceptron plus the usual tensor chores, as torch code writes them."""
    h = torch.relu(torch.matmul(x, w1) + b1)
    logits = h @ w2
    probs = torch.sigmoid(logits).reshape(-1)
    first = probs[0]
    scaled = torch.where(probs > 0.5, probs, torch.zeros_like(probs))
    loss = ((probs - 1) ** 2).mean() + scaled.sum() * 0.0
    return loss, first, torch.stack([probs, scaled], dim=1)[:, -1]


def test_mlp_sample_runs_and_matches_numpy() -> None:
    torch.manual_seed(0)
    x, w1, b1, w2 = torch.randn(4, 3), torch.randn(3, 5), torch.randn(5), torch.randn(5, 1)
    loss, first, last_col = mlp(x, w1, b1, w2)
    nx, nw1, nb1, nw2 = (to_numpy(t).astype(np.float64) for t in (x, w1, b1, w2))
    probs = 1 / (1 + np.exp(-(np.maximum(nx @ nw1 + nb1, 0) @ nw2))).reshape(-1)
    np.testing.assert_allclose(loss.item(), ((probs - 1) ** 2).mean(), rtol=1e-5)
    np.testing.assert_allclose(first.item(), probs[0], rtol=1e-5)
    assert last_col.shape == (4,) and loss.dtype is torch.float32
    assert f"{loss:.3f}" == f"{loss.item():.3f}"


def test_mlp_sample_propagates_fake_tensors() -> None:
    fakes = [FakeTensor(s, torch.float32) for s in [(4, 3), (3, 5), (5,), (5, 1)]]
    loss, first, last_col = mlp(*fakes)
    assert isinstance(loss, FakeTensor) and loss.shape == () and first.shape == ()
    assert last_col.shape == (4,)


def test_manual_seed_is_deterministic() -> None:
    torch.manual_seed(3)
    a = torch.rand(5).tolist()
    torch.manual_seed(3)
    assert torch.rand(5).tolist() == a and all(0 <= v < 1 for v in a)
