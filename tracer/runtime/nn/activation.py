"""Activation modules, each calling its `torch.nn.functional` or `torch` op."""

from __future__ import annotations

from tracer.runtime import ops
from tracer.runtime.nn import functional as F
from tracer.runtime.nn.module import Module
from tracer.runtime.tensor import Tensor


class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input, inplace=self.inplace)


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return ops.tanh(input)


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return ops.sigmoid(input)
