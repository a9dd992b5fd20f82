"""The graph and break counts of tests/resume/test_resume.py's functions are those of
`torch._dynamo.explain` on real torch (each function written again with real torch).
A frame that runs eagerly has 0 graphs in both; Dynamo's graph_break_count is then -1 (it counts
graph_count - 1) and its break_reasons empty, modetrace's 1 break with the reason."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch
from tests.resume import test_resume as cases


def torch_versions(torch: Any) -> dict[str, Any]:
    def print_between_ops(x: Any) -> Any:
        y = x.sin()
        print("between", y.shape)
        return y.cos()

    def item_between_ops(x: Any) -> Any:
        y = x * 2
        s = y.sum().item()
        return y + s

    def two_prints(x: Any) -> Any:
        y = x + 1
        print("one")
        y = y * 2
        print("two", end="!\n")
        return y - 1

    def append_print_append(x: Any, lst: list[Any]) -> Any:
        lst.append(x + 1)
        print(len(lst))
        lst.append(x * 2)
        return lst

    def print_in_loop(x: Any) -> Any:
        for i in range(2):
            x = x + 1
            print(i)
        return x

    def explicit_graph_break(x: Any) -> Any:
        y = x.sin()
        torch._dynamo.graph_break()
        return y.cos()

    def branch_on_value(x: Any) -> Any:
        y = x + 1
        if (x * 3).sum() > 0:
            y = y * 2
        else:
            y = y - 1
        return y.cos()

    return {fn.__name__: fn for fn in (
        print_between_ops, item_between_ops, two_prints, append_print_append, print_in_loop,
        explicit_graph_break, branch_on_value,
    )}  # fmt: skip


@pytest.mark.parametrize("case", range(len(cases.CASES)))
def test_counts_match_dynamo(case: int) -> None:
    torch = real_torch()
    ours_fn, make_args, *_ = cases.CASES[case]
    fn = torch_versions(torch)[ours_fn.__name__]
    sign = 1.0 if float(make_args()[0].sum()) > 0 else -1.0
    args: tuple[Any, ...] = (torch.ones(3) * sign,)
    if ours_fn.__name__ == "append_print_append":
        args = (torch.ones(3), [])
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = torch._dynamo.explain(fn)(*args)
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        ours = tracer.explain(ours_fn)(*make_args())
    assert ours.graph_count == theirs.graph_count
    if theirs.graph_count:  # Dynamo's graph_break_count is graph_count - 1: -1 for no graph
        assert ours.graph_break_count == theirs.graph_break_count
