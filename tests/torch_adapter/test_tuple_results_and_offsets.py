"""Found by an audit against eager torch (2026-12-06):

- an op returning its own input tensors inside a tuple (`torch.atleast_1d(x, y)`,
  `torch.broadcast_tensors(x)`, `torch.max(x, 0, out=(v, i))`) gave new trackers for them:
  `a is x` was False and an attribute set on the input (`x.tag`) was not found through `a`,
  while at run time the objects were the inputs. Each tensor of a tuple result that is an
  input's fake is that input's tracker now (`variables.tensor.returned_input`);
- `x.storage_offset()` of a view was folded from the fake tensor, and TENSOR_MATCH does not
  pin the offset: a view at another offset of the same shape and strides hit the entry and got
  the first offset. It breaks the graph now (the tensor guards stay as Dynamo's).
"""

from __future__ import annotations

from typing import Any

import tracer
from tests.real_torch import real_torch


def returns_inputs(x: Any, y: Any) -> Any:
    import torch

    a, b = torch.atleast_1d(x, y)
    (c,) = torch.broadcast_tensors(x)
    v, i = torch.empty(0), torch.empty(0, dtype=torch.long)
    r = torch.max(y, 0, out=(v, i))
    return a is x, b is y, c is x, r.values is v, r.indices is i, getattr(a, "tag", None)


def test_an_input_returned_in_a_tuple_is_the_input() -> None:
    torch = real_torch()
    x, y = torch.ones(3), torch.arange(4.0)
    x.tag = 5  # type: ignore[attr-defined]
    tracer.reset()
    assert tracer.compile(returns_inputs)(x, y) == returns_inputs(x, y) == (
        True, True, True, True, True, 5,
    )  # fmt: skip


def offset(x: Any) -> Any:
    return x.storage_offset()


def test_a_views_storage_offset_is_read_at_run_time() -> None:
    torch = real_torch()
    base = torch.arange(10.0)
    tracer.reset()
    compiled = tracer.compile(offset)
    assert [compiled(base[1:4]), compiled(base[2:5])] == [1, 2]
