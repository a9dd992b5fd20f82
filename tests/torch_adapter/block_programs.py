"""Graph breaks inside a torch-function mode's `with` block, on real torch (the programs of
tests/resume/test_resume_with_blocks.py): module-level functions, since a closure's frame does
not resume yet. Imports torch: the tests import this module only after `real_torch()`."""

from __future__ import annotations

from typing import Any

import torch


class Recording(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


def depth() -> int:
    return int(torch._C._len_torch_function_stack())


def mode_break(x: Any) -> Any:
    y = x.sin()
    with Recording():
        z = y * 2
        print("in the mode", depth())
        z = z + 1
    print("after", depth())
    return z.cos()


def nested_mode_break(x: Any) -> Any:
    with Recording(), Recording():
        z = x * 2
        print("in both", depth())
        z = z + 1
    return z.cos()


def branch_in_mode(x: Any) -> Any:
    y = x + 1
    with Recording():
        if (x * 3).sum() > 0:
            y = y * 2
        else:
            y = y - 1
    return y.cos()


def branch_in_nested_modes(x: Any) -> Any:
    with Recording(), Recording():
        if x.sum() > 0:
            y = x * 2
        else:
            y = x - 1
        print("in both", depth())
    return y + 1


PROGRAMS = (mode_break, nested_mode_break, branch_in_mode, branch_in_nested_modes)
