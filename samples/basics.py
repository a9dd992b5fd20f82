"""Samples of plain tensor code: an MLP, shape-dependent control flow, a user class, a closure,
a loop over a list and a dict of tensors."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from samples.spec import Sample


def mlp(x: Any, w1: Any, w2: Any) -> Any:
    h = (x @ w1).relu()
    return (h @ w2).sigmoid().sum(dim=1)


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


def user_class(layer: Affine, x: Any) -> Any:
    return layer(x) + layer.apply(x)


def make_scaled_sin(scale: float) -> Any:
    bias = torch.ones(3)

    def scaled_sin(x: Any) -> Any:
        return torch.sin(x) * scale + bias

    return scaled_sin


def loop_sum(xs: list[Any]) -> Any:
    total = torch.zeros(2)
    for i, x in enumerate(xs):
        total = total + x * (i + 1)
    return total


def dict_input(d: dict[str, Any]) -> Any:
    return {key: value.exp() for key, value in d.items()}


SAMPLES = [
    Sample(
        "small MLP",
        "tensor ops become graph nodes; each input tensor gets one TENSOR_MATCH guard",
        mlp,
        inputs=lambda: (torch.ones(2, 3), torch.ones(3, 4) * 0.5, torch.ones(4, 2) * -0.25),
    ),
    Sample(
        "control flow on shapes",
        "a branch on a shape is decided while tracing; the shape guard keeps it sound",
        shape_branch,
        inputs=lambda: (torch.arange(4.0),),
    ),
    Sample(
        "user class with methods",
        "methods are inlined; attributes read become guards on L['layer'].<attr>",
        user_class,
        inputs=lambda: (Affine(2.0, -1.0), torch.arange(3.0)),
        also_show=(Affine,),
    ),
    Sample(
        "closure",
        "free variables are read through their cells: C['scale'] is guarded, C['bias'] is an input",
        make_scaled_sin(0.5),
        inputs=lambda: (torch.arange(3.0),),
        also_show=(make_scaled_sin,),
    ),
    Sample(
        "loop over a list",
        "a Python loop is unrolled; the list's length is guarded",
        loop_sum,
        inputs=lambda: ([torch.ones(2), torch.arange(2.0), torch.full((2,), 3.0)],),
    ),
    Sample(
        "dict of tensors",
        "dict inputs are guarded on their keys; values become graph inputs",
        dict_input,
        inputs=lambda: ({"a": torch.ones(2), "b": torch.arange(2.0)},),
    ),
]
