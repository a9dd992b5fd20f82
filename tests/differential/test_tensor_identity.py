"""Ops that return their input return it compiled too (issue 20 case 19): `x.contiguous()`,
`x.to(x.dtype)`, `x.float()` on a float32 tensor are `x` itself eagerly, so `is` says True;
ops that make a new tensor (`clone`, `view`, `reshape`, a real conversion) say False."""

from __future__ import annotations

from typing import Any

import tracer
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


def inputs_compared(a: Any, b: Any) -> Any:
    if a is b:  # as nn.MultiheadAttention asks of query and key
        return a * 2
    return a + b, a is not b


def test_two_tensor_inputs_are_compared_by_identity_and_guarded() -> None:
    """Two tensor inputs with their own trackers are two objects: `is` says False, with a
    NO_ALIASING guard, so the same tensor passed twice misses and is traced again."""
    x, y = torch.ones(2), torch.zeros(2)
    check(inputs_compared, x, y)
    check(inputs_compared, x, x)
    compiled = tracer.compile(inputs_compared)
    assert compiled(x, y)[1] is True
    assert compiled(x, x).tolist() == [2.0, 2.0]
    assert compiled(y, x)[1] is True
    assert compiled.compile_count == 2
    assert any("is not" in g for g in tracer.explain(inputs_compared)(x, y).guards)
