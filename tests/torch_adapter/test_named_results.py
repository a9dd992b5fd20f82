"""Ops whose result is one of torch's struct sequences (`x.max(dim)`, `topk`, `sort`,
`torch.return_types.*`) trace as Dynamo does: the result's items are graph values, read by
index, by field name (`.values`, `.indices`) or unpacked, and a result returned or kept is made
again as `cls(items)`, of the same type. Before, the frame ran eagerly ("a named tuple ... is
not traced yet"). Each against eager torch and Dynamo's graphs."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


def by_field(x: Any) -> Any:
    top = x.topk(2)
    return top.values * 2, top.indices + 1


def unpacked(x: Any) -> Any:
    values, indices = x.max(dim=1)
    return values.sum() + indices.float().mean()


def returned(x: Any) -> Any:
    return x.sort(dim=-1, descending=True)


def indexed_and_kept(x: Any) -> Any:
    result = x.min(0)
    return result[0] + 1, result


def sliced(x: Any) -> Any:
    return x.kthvalue(2)[0:1], len(x.median(0))


CASES = [by_field, unpacked, returned, indexed_and_kept, sliced]


@pytest.mark.parametrize("fn", CASES, ids=lambda fn: fn.__name__)
def test_a_struct_sequence_result_is_traced_as_in_dynamo(fn: Any) -> None:
    torch = real_torch()
    x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(fn)(x)
    assert comparison.results_agree, comparison
    assert comparison.same_graphs, comparison
    assert comparison.modetrace.graph_count == 1 and not comparison.modetrace.break_reasons


def test_a_returned_one_keeps_its_type_and_fields() -> None:
    torch = real_torch()
    x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])
    result = tracer.compile(returned)(x)
    expected = returned(x)
    assert type(result) is type(expected)
    assert torch.equal(result.values, expected.values)
    assert torch.equal(result.indices, expected.indices)
    kept = tracer.compile(indexed_and_kept)(x)[1]
    assert type(kept) is type(x.min(0)) and torch.equal(kept.indices, x.min(0).indices)
