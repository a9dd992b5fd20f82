"""`Dropout`: identity in eval mode."""

from __future__ import annotations

from tracer.runtime.nn import functional as F
from tracer.runtime.nn.module import Module
from tracer.runtime.tensor import Tensor


class Dropout(Module):
    """Identity in eval mode; in training, F.dropout with this module's `p`."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
