"""Blocks of `torch.autocast` and `torch.inference_mode` inside compiled functions on real
torch (variables/state_contexts.py). Module level, so Dynamo traces them as modetrace does.
Imports torch: the tests import this module only after `real_torch()`."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn
from torch.nn import functional as F


def autocast_block(x: Any, w: Any) -> Any:
    with torch.autocast("cpu"):
        y = torch.mm(x, w)
        z = y + 1
    return z.float() * 2, y.dtype


def autocast_bfloat16_linear(x: Any, w: Any) -> Any:
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        y = F.linear(x, w.t())
    return y, y.relu()


def autocast_float16(x: Any, w: Any) -> Any:
    with torch.autocast("cpu", torch.float16, cache_enabled=False):
        y = x @ w
    return y


def autocast_disabled(x: Any, w: Any) -> Any:
    with torch.autocast("cpu", enabled=False):
        y = torch.mm(x, w)
    return y


def autocast_empty(x: Any, w: Any) -> Any:
    with torch.autocast("cpu"):
        pass
    return x + 1


def inference_block(x: Any, w: Any) -> Any:
    with torch.inference_mode():
        y = x * 2
        inside = torch.is_grad_enabled()
    return y, inside, torch.is_grad_enabled(), x.sin()


def inference_false_under_no_grad(x: Any, w: Any) -> Any:
    with torch.no_grad():
        a = x * 2
        with torch.inference_mode(False):
            b = x * 3
            inside = torch.is_grad_enabled()
    return a, b, inside


def autocast_and_inference(x: Any, w: Any) -> Any:
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        with torch.inference_mode():
            a = torch.mm(x, w)
        b = torch.mm(x, w)
    return a, b


def asks_is_inference(x: Any, w: Any) -> Any:
    with torch.inference_mode():
        y = x * 2
        inside = y.is_inference()
    return y + 1, inside, x.is_inference()


def no_grad_inside_inference(x: Any, w: Any) -> Any:
    with torch.inference_mode(), torch.no_grad():
        y = x + 1
    return y


FUNCTIONS = {
    "autocast block": autocast_block,
    "autocast bfloat16 linear": autocast_bfloat16_linear,
    "autocast float16": autocast_float16,
    "autocast disabled": autocast_disabled,
    "autocast empty": autocast_empty,
    "inference block": inference_block,
    "inference_mode(False) under no_grad": inference_false_under_no_grad,
    "autocast and inference": autocast_and_inference,
    "no_grad inside inference": no_grad_inside_inference,
}


class AutocastMLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x: Any) -> Any:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = F.gelu(self.fc1(x))
            out = self.fc2(h)
        return out.float().softmax(-1)


def break_inside_autocast(x: Any, w: Any) -> Any:
    with torch.autocast("cpu"):
        y = torch.mm(x, w)
        print("inside")
        z = torch.mm(x, w)
    return y, z


def entered_by_hand(x: Any, w: Any) -> Any:
    ctx = torch.autocast("cpu")
    ctx.__enter__()
    return torch.mm(x, w)


def raises_inside(x: Any, w: Any) -> Any:
    with torch.inference_mode():
        y = x * 2
        raise ValueError(f"inside, {y.shape[0]} rows")


def unknown_device(x: Any, w: Any) -> Any:
    with torch.autocast("no-such-device"):
        y = x + 1
    return y


def unsupported_dtype(x: Any, w: Any) -> Any:
    with torch.autocast("cpu", dtype=torch.float32):  # warns: "Disabling autocast"
        y = torch.mm(x, w)
    return y


def enable_grad_inside_inference(x: Any, w: Any) -> Any:
    with torch.inference_mode(), torch.enable_grad():
        y = x * 2
    return y


def inference_mode_decorating(x: Any, w: Any) -> Any:
    def double(t: Any) -> Any:
        return t * 2

    return torch.inference_mode(double)(x)


@torch.inference_mode()
def _doubled_without_grad(t: Any) -> Any:
    return t * 2


def calls_an_inference_mode_function(x: Any, w: Any) -> Any:
    return _doubled_without_grad(x) + 1
