"""nn.Module programs on real torch (issue 24, point 4): modules passed as arguments, their
parameters and buffers read as graph inputs. Imports torch: the tests import this module only
after `real_torch()`."""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x: Any) -> Any:
        return self.fc2(F.gelu(self.fc1(x)))


class Block(nn.Module):
    """A small transformer block: attention through F.scaled_dot_product_attention, then an
    MLP, each with a residual and a LayerNorm."""

    def __init__(self, dim: int = 8, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, x: Any) -> Any:
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        q = q.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        attended = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(attended.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.norm2(x))


class Scaled(nn.Module):
    """A buffer and a plain attribute next to a parameter."""

    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(3))
        self.register_buffer("scale", torch.full((3,), 2.0))
        self.offset = 0.5

    def forward(self, x: Any) -> Any:
        return x * self.weight * self.scale + self.offset


class EmbedNorm(nn.Module):
    """Embedding, then LayerNorm."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(5, 6)
        self.norm = nn.LayerNorm(6)

    def forward(self, ids: Any) -> Any:
        return self.norm(self.embedding(ids)).sum(dim=-1)


class Dropped(nn.Module):
    """An MLP with dropout: its forward reads `self.training` (through F.dropout)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.drop = nn.Dropout(0.5)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x: Any) -> Any:
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def model(name: str) -> tuple[Any, Any]:
    """A fresh (module, input) for `tracer.compile(model)`, the same each time (seeded)."""
    torch.manual_seed(0)
    if name == "linear":
        return nn.Linear(3, 2), torch.randn(2, 3)
    if name == "layernorm":
        return nn.LayerNorm(6), torch.randn(2, 6)
    if name == "embedding":
        return nn.Embedding(5, 6), torch.tensor([[0, 3, 1], [2, 2, 4]])
    if name == "sequential":
        return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)), torch.randn(2, 3)
    if name == "mlp":
        return MLP(), torch.randn(5, 4)
    if name == "embedding and layernorm":
        return EmbedNorm(), torch.tensor([[0, 3, 1], [2, 2, 4]])
    if name == "transformer block":
        return Block(), torch.randn(2, 5, 8)
    if name == "buffer and attribute":
        return Scaled(), torch.randn(3)
    if name == "dropout, eval":
        return Dropped().eval(), torch.randn(3, 4)
    raise KeyError(name)


def call(model: Any, x: Any) -> Any:
    return model(x)


def embed_and_norm(embedding: Any, norm: Any, ids: Any) -> Any:
    return norm(embedding(ids)).sum(dim=-1)


def make(name: str) -> tuple[Any, ...]:
    """Fresh (fn, *args) for one program, the same each time (seeded)."""
    torch.manual_seed(0)
    if name == "linear":
        return call, nn.Linear(3, 2), torch.randn(2, 3)
    if name == "sequential":
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
        return call, model, torch.randn(2, 3)
    if name == "mlp":
        return call, MLP(), torch.randn(5, 4)
    if name == "embedding and layernorm":
        ids = torch.tensor([[0, 3, 1], [2, 2, 4]])
        return embed_and_norm, nn.Embedding(5, 6), nn.LayerNorm(6), ids
    if name == "transformer block":
        return call, Block(), torch.randn(2, 5, 8)
    if name == "buffer and attribute":
        return call, Scaled(), torch.randn(3)
    if name == "multi-head attention":
        # its forward reads `torch.backends.mha` (an object of a module subclass) and gets
        # `(output, None)` from F.multi_head_attention_forward
        attention = nn.MultiheadAttention(8, 2, batch_first=True)
        return attend, attention, torch.randn(2, 5, 8)
    if name == "nn layers":
        layers = (nn.Conv2d(1, 2, 3, padding=1), nn.BatchNorm2d(2), nn.GroupNorm(1, 2))
        return conv_layers, *layers, torch.randn(2, 1, 6, 6)
    if name == "transformer decoder layer":
        layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
        return decode, layer, torch.randn(2, 5, 8), torch.randn(2, 3, 8)
    if name in ("transformer encoder layer, eval", "transformer encoder layer, inference"):
        # in eval mode its forward first asks whether its fused path applies: a set of
        # `self.modules()` kept by `named_modules`, `has_torch_function`, `x.device.type`; in
        # inference (no grad) it takes that path, the private op
        # `torch._transformer_encoder_layer_fwd`
        layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
        fn = encode if name.endswith("eval") else encode_without_grad
        return fn, layer.eval(), torch.randn(2, 5, 8)
    if name == "recurrent cells in a loop":
        # each cell calls `torch._VF.gru_cell` / `lstm_cell`: `_VF` is an object of a module
        # subclass whose class `__getattr__` finds the op
        return recur, nn.GRUCell(4, 3), nn.LSTMCell(3, 3), torch.randn(3, 2, 4)
    raise KeyError(name)


def attend(attention: Any, x: Any) -> Any:
    return attention(x, x, x, need_weights=False)[0]


def conv_layers(conv: Any, batch_norm: Any, group_norm: Any, x: Any) -> Any:
    return F.max_pool2d(group_norm(batch_norm(F.relu(conv(x)))), 2).flatten(1)


def decode(layer: Any, x: Any, memory: Any) -> Any:
    return layer(x, memory)


def recur(gru: Any, lstm: Any, xs: Any) -> Any:
    h = torch.zeros(xs.shape[1], 3)
    state = (h, h)
    for x in xs:
        h = gru(x, h)
        state = lstm(h, state)
    return state[0]


def encode(layer: Any, x: Any) -> Any:
    return layer(x)


def encode_without_grad(layer: Any, x: Any) -> Any:
    with torch.no_grad():
        return layer(x)


NAMES = (
    "linear",
    "sequential",
    "mlp",
    "embedding and layernorm",
    "transformer block",
    "buffer and attribute",
    "multi-head attention",
    "nn layers",
    "transformer decoder layer",
    "transformer encoder layer, eval",
    "transformer encoder layer, inference",
    "recurrent cells in a loop",
)
