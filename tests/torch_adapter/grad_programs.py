"""Changes of grad mode inside compiled functions on real torch (issue 24): `with
torch.no_grad():`, `torch.set_grad_enabled(b)` as a call and as a block, `enable_grad`,
`is_grad_enabled()`, `torch._C._set_grad_enabled` by hand, inside an nn.Module's forward and
under a torch-function mode. Module level, so Dynamo resumes after a break as modetrace does.
Imports torch: the tests import this module only after `real_torch()`."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


class Names(torch.overrides.TorchFunctionMode):
    """A mode that notes the name of every function torch hands it."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.names.append(func.__name__)
        return func(*args, **(kwargs or {}))


def no_grad_block(x: Any) -> Any:
    y = x * 2
    with torch.no_grad():
        z = y + 1
    return y, z, z * y


def set_grad_enabled_calls(x: Any) -> Any:
    torch.set_grad_enabled(False)
    y = x + 1
    torch.set_grad_enabled(True)
    return y, x.sin()


def set_grad_enabled_block(x: Any) -> Any:
    with torch.set_grad_enabled(False):
        y = x.exp()
    return y, x.exp()


def enable_grad_inside_no_grad(x: Any) -> Any:
    with torch.no_grad():
        a = x * 3
        with torch.enable_grad():
            b = x * 4
        c = x * 5
    return a, b, c


def mixed(x: Any) -> Any:
    """Dynamo's graph drops the change back and forth with no op between (`True`, `False`)."""
    with torch.no_grad():
        y = x * 2
    torch.set_grad_enabled(False)
    z = y + 1
    torch.set_grad_enabled(True)
    with torch.enable_grad():
        w = z.sin()
    return y, z, w


def reads_grad_mode(x: Any) -> Any:
    if torch.is_grad_enabled():
        x = x * 2
    with torch.no_grad():
        inside = torch.is_grad_enabled()
    return x + 1, inside


def empty_no_grad(x: Any) -> Any:
    with torch.no_grad():
        pass
    return x.cos()


def by_hand(x: Any) -> Any:
    torch._C._set_grad_enabled(False)
    y = x * 2
    torch._C._set_grad_enabled(True)
    return y, x * 2


def leaves_it_off(x: Any) -> Any:
    """Leaves grad mode off, as eager does: the graph's last change is its output."""
    y = x * 2
    torch.set_grad_enabled(False)
    return y + 1


class Tracked(nn.Module):
    """A module that keeps a running mean of its inputs under no_grad (a buffer updated in
    place) and computes with its parameter outside it."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(3, 3)
        self.register_buffer("mean", torch.zeros(3))

    def forward(self, x: Any) -> Any:
        with torch.no_grad():
            self.mean.mul_(0.9).add_(x.mean(0) * 0.1)
        return self.linear(x - self.mean)


def call(model: Any, x: Any) -> Any:
    return model(x)


FUNCTIONS = {
    "no_grad block": no_grad_block,
    "set_grad_enabled calls": set_grad_enabled_calls,
    "set_grad_enabled block": set_grad_enabled_block,
    "enable_grad inside no_grad": enable_grad_inside_no_grad,
    "mixed": mixed,
    "reads grad mode": reads_grad_mode,
    "empty no_grad": empty_no_grad,
    "by hand": by_hand,
    "leaves it off": leaves_it_off,
}


def break_inside_no_grad(x: Any) -> Any:
    """A graph break inside the block: both resume inside it (2 graphs)."""
    y = x * 2
    with torch.no_grad():
        z = y + 1
        print("inside")
        w = z * 3
    return y, w
