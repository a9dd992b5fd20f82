"""`result_type` answers two common operand pairs (two tensors of one dtype, a tensor and a
Python scalar) before its general promotion; both answers must be the general one's."""

import itertools
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.runtime import dtypes as dt
from tracer.runtime import meta
from tracer.runtime.tensor import Tensor

OPERANDS: list[Any] = [
    torch.ones(2),
    torch.ones(()),
    torch.ones(2, dtype=torch.int64),
    torch.ones((), dtype=torch.int64),
    torch.ones((), dtype=torch.bool),
    torch.ones(3, dtype=torch.bool),
    torch.ones(2, dtype=torch.float64),
    1,
    -7,
    2.5,
    True,
]


def general(*operands: Any) -> Any:
    """The promotion rule without shortcuts: by group (dims, 0-dim, scalars), then category."""
    groups: dict[str, list[Any]] = {"dims": [], "zeros": [], "scalars": []}
    for x in operands:
        if isinstance(x, Tensor):
            groups["dims" if x._shape else "zeros"].append(x._dtype)
        else:
            groups["scalars"].append(dt.scalar_dtype(x))
    lower = dt.combine_categories(
        dt.promote_all(groups["zeros"]), dt.promote_all(groups["scalars"])
    )
    return dt.combine_categories(dt.promote_all(groups["dims"]), lower)


@pytest.mark.parametrize(("a", "b"), list(itertools.product(OPERANDS, OPERANDS)))
def test_pairs_promote_like_the_general_rule(a: Any, b: Any) -> None:
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        return
    assert meta.result_type(a, b) is general(a, b)


def test_a_non_number_operand_is_still_refused() -> None:
    with pytest.raises(TypeError, match="expected a Tensor or a Python number"):
        meta.result_type(torch.ones(2), "x")
