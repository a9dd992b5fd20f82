"""The Done-means model file of issue 23: an MLP block written for torch (nn.Linear,
nn.LayerNorm, F.gelu, softmax, dropout in eval, an in-place residual `h.add_(x)`, under
no_grad), run with real torch and with `tracer.runtime` on the same weights."""

from __future__ import annotations

import types
from typing import Any

import tracer.runtime
from tests.real_torch import real_torch


def build(torch: types.ModuleType) -> Any:
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self, width: int, hidden: int) -> None:
            super().__init__()
            self.norm = nn.LayerNorm(width)
            self.up = nn.Linear(width, hidden)
            self.down = nn.Linear(hidden, width)
            self.drop = nn.Dropout(0.1)

        def forward(self, x: Any) -> Any:
            h = self.down(F.gelu(self.up(self.norm(x))))
            h = self.drop(h)
            h.add_(x)
            return torch.softmax(h, dim=-1)

    return Block(4, 8).eval()


def run(
    torch: types.ModuleType, state: dict[str, list[Any]], x: list[Any]
) -> tuple[Any, list[str]]:
    """The model's output with these weights, and the `func.__name__`s a mode saw."""
    model = build(torch)
    model.load_state_dict({k: torch.tensor(v) for k, v in state.items()})
    seen: list[str] = []

    class Names(torch.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    inputs = torch.tensor(x)
    with Names(), torch.no_grad():
        out = model(inputs)
    return out.tolist(), seen


def test_model_file_agrees_with_torch() -> None:
    torch = real_torch()
    torch.manual_seed(0)
    weights = {k: v.tolist() for k, v in build(torch).state_dict().items()}
    x = torch.randn(3, 4).tolist()
    expected, torch_names = run(torch, weights, x)
    got, runtime_names = run(tracer.runtime, weights, x)
    for row_got, row_expected in zip(got, expected, strict=True):
        for a, b in zip(row_got, row_expected, strict=True):
            assert abs(a - b) <= 1e-5
    assert runtime_names == torch_names


def test_model_runs_without_torch_and_is_deterministic() -> None:
    tracer.runtime.manual_seed(0)
    first = build(tracer.runtime).state_dict()
    tracer.runtime.manual_seed(0)
    second = build(tracer.runtime).state_dict()
    assert {k: v.tolist() for k, v in first.items()} == {k: v.tolist() for k, v in second.items()}
    bound = 1 / 4**0.5  # kaiming-uniform bound of Linear(4, 8)
    assert all(abs(w) <= bound for row in first["up.weight"].tolist() for w in row)
