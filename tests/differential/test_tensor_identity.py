"""Ops that return their input return it compiled too (issue 20 case 19): `x.contiguous()`,
`x.to(x.dtype)`, `x.float()` on a float32 tensor are `x` itself eagerly, so `is` says True;
ops that make a new tensor (`clone`, `view`, `reshape`, a real conversion) say False."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from tests.differential.helpers import check


def identities(x: Any, y: Any) -> Any:
    c = x.contiguous()
    return (
        c is x, x.contiguous().contiguous() is x, x.to(x.dtype) is x, x.to(y) is x,
        x.to() is x, x.float() is x, x.double() is x, x.to(torch.float64) is x,
        x.clone() is x, x.view(2) is x, x.reshape(2) is x, c + 1,
    )  # fmt: skip


class PassThrough(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


def identities_under_a_mode(x: Any) -> Any:
    with PassThrough():
        return x.contiguous() is x, x.float() is x, x.double() is x


def test_ops_returning_their_input_keep_identity() -> None:
    check(identities, torch.ones(2), torch.zeros(3))


def test_identity_through_a_mode() -> None:
    check(identities_under_a_mode, torch.ones(2))
