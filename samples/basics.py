"""Samples of plain tensor code: an MLP, shape-dependent control flow, a user class, a closure,
a loop over a list and a dict of tensors."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from samples.registry import sample


@sample(
    "small MLP",
    "tensor ops become graph nodes; each input tensor gets one TENSOR_MATCH guard",
    inputs=lambda: (torch.ones(2, 3), torch.ones(3, 4) * 0.5, torch.ones(4, 2) * -0.25),
)
def mlp(x: Any, w1: Any, w2: Any) -> Any:
    h = (x @ w1).relu()
    return (h @ w2).sigmoid().sum(dim=1)


@sample(
    "control flow on shapes",
    "a branch on a shape is decided while tracing; the shape guard keeps it sound",
    inputs=lambda: (torch.arange(4.0),),
)
def shape_branch(x: Any) -> Any:
    if x.shape[0] > 2:
        return x.sum() / x.shape[0]
    return x * 2


class Affine:
    """A user class: its methods are inlined, its attributes guarded by value."""

    def __init__(self, scale: float, shift: float) -> None:
        self.scale = scale
        self.shift = shift

    def __call__(self, x: Any) -> Any:
        return self.apply(x).tanh()

    def apply(self, x: Any) -> Any:
        return x * self.scale + self.shift


@sample(
    "user class with methods",
    "methods are inlined; attributes read become guards on L['layer'].<attr>",
    inputs=lambda: (Affine(2.0, -1.0), torch.arange(3.0)),
    also_show=(Affine,),
)
def user_class(layer: Affine, x: Any) -> Any:
    return layer(x) + layer.apply(x)


def make_scaled_sin(scale: float) -> Any:
    bias = torch.ones(3)

    def scaled_sin(x: Any) -> Any:
        return torch.sin(x) * scale + bias

    return scaled_sin


@sample(
    "closure",
    "free variables are read through their cells: C['scale'] is guarded, C['bias'] is an input",
    inputs=lambda: (torch.arange(3.0),),
    also_show=(make_scaled_sin,),
)
def closure(x: Any) -> Any:
    return _scaled_sin(x)


_scaled_sin = make_scaled_sin(0.5)


@sample(
    "loop over a list",
    "a Python loop is unrolled; the list's length is guarded",
    inputs=lambda: ([torch.ones(2), torch.arange(2.0), torch.full((2,), 3.0)],),
)
def loop_sum(xs: list[Any]) -> Any:
    total = torch.zeros(2)
    for i, x in enumerate(xs):
        total = total + x * (i + 1)
    return total


@sample(
    "dict of tensors",
    "dict inputs are guarded on their keys; values become graph inputs",
    inputs=lambda: ({"a": torch.ones(2), "b": torch.arange(2.0)},),
)
def dict_input(d: dict[str, Any]) -> Any:
    return {key: value.exp() for key, value in d.items()}
