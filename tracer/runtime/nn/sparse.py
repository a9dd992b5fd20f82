"""`Embedding`: a lookup table of rows."""

from __future__ import annotations

from tracer.runtime import aten, factories
from tracer.runtime.nn import functional as F
from tracer.runtime.nn import init
from tracer.runtime.nn.module import Module
from tracer.runtime.nn.parameter import Parameter
from tracer.runtime.tensor import Tensor


class Embedding(Module):
    """A table of `num_embeddings` rows of `embedding_dim`, drawn from N(0, 1)."""

    def __init__(
        self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None
    ) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.weight = Parameter(factories.zeros(num_embeddings, embedding_dim))
        init.normal_(self.weight)
        if padding_idx is not None:
            init.zeros_(aten.getitem(self.weight, padding_idx))

    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        pad = f", padding_idx={self.padding_idx}" if self.padding_idx is not None else ""
        return f"{self.num_embeddings}, {self.embedding_dim}{pad}"
