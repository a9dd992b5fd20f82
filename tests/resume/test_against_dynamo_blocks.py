"""The graph and break counts of tests/resume/test_resume_with_blocks.py's functions are those of
`torch._dynamo.explain` on real torch 2.13 (each function written again with real torch): a
break in a torch-function mode's `with` block resumes in both, one in a user context manager's
`with` block or in a `try` block runs the frame eagerly in both (Dynamo: graph_count 0)."""

from __future__ import annotations

import contextlib
import io
from typing import Any, Self

import pytest

import tracer
import tracer.runtime as modetrace_torch
from tests.real_torch import real_torch
from tests.resume import test_resume_with_blocks as cases


def torch_versions(torch: Any) -> dict[str, Any]:
    class Recording(torch.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return func(*args, **(kwargs or {}))

    class Managed:
        def __enter__(self) -> Self:
            return self

        def __exit__(self, *exc: object) -> bool:
            return False

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

    def mode_break_returns_inside(x: Any) -> Any:
        y = x.sin()
        with Recording():
            z = y * 2
            print("in the mode", depth())
            return z + 1

    def nested_mode_break(x: Any) -> Any:
        with Recording(), Recording():
            z = x * 2
            print("in both", depth())
            z = z + 1
        return z.cos()

    def mode_two_breaks(x: Any) -> Any:
        y = x.sin()
        with Recording():
            z = y * 2
            print("in", depth())
            z = z + 1
            print("in again", depth())
            z = z - 1
        return z.cos()

    def branch_in_mode(x: Any) -> Any:
        y = x + 1
        with Recording():
            if (x * 3).sum() > 0:
                y = y * 2
            else:
                y = y - 1
        return y.cos()

    def branch_in_mode_other_way(x: Any) -> Any:
        y = x + 1
        with Recording():
            if (x * -3).sum() > 0:
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

    def user_manager_break(x: Any) -> Any:
        y = x.sin()
        with Managed():
            z = y * 2
            print("in the manager")
            z = z + 1
        return z.cos()

    def try_except_break(x: Any) -> Any:
        y = x.sin()
        try:
            print("in the try")
        except ValueError:
            y = y * 2
        return y.cos()

    def try_finally_break(x: Any) -> Any:
        y = x.sin()
        try:
            print("in the try")
        finally:
            y = y + 3
        return y.cos()

    return {fn.__name__: fn for fn in (
        mode_break, mode_break_returns_inside, nested_mode_break, mode_two_breaks,
        branch_in_mode, branch_in_mode_other_way, branch_in_nested_modes,
        user_manager_break, try_except_break, try_finally_break,
    )}  # fmt: skip


@pytest.mark.parametrize("case", range(len(cases.CASES)))
def test_counts_match_dynamo(case: int) -> None:
    torch = real_torch()
    ours_fn, graphs, breaks = cases.CASES[case]
    fn = torch_versions(torch)[ours_fn.__name__]
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = torch._dynamo.explain(fn)(torch.ones(3))
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        ours = tracer.explain(ours_fn)(modetrace_torch.ones(3))
    assert ours.graph_count == theirs.graph_count == graphs
    if theirs.graph_count:  # Dynamo's graph_break_count is graph_count - 1: -1 for no graph
        assert ours.graph_break_count == theirs.graph_break_count == breaks
