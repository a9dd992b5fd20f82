"""`LayerNorm`."""

from __future__ import annotations

from collections.abc import Sequence

from tracer.runtime import factories
from tracer.runtime.nn import functional as F
from tracer.runtime.nn.module import Module
from tracer.runtime.nn.parameter import Parameter
from tracer.runtime.tensor import Tensor


class LayerNorm(Module):
    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
    ) -> None:
        super().__init__()
        shape = (
            (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        )
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        self.has_bias = bias
        if elementwise_affine:
            self.weight = Parameter(factories.ones(*shape))
            if bias:
                self.bias = Parameter(factories.zeros(*shape))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.has_bias}"
        )
