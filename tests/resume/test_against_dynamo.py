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
import tracer.runtime as ours_torch
from tests.real_torch import real_torch
from tests.resume import test_resume as cases
from tests.resume import test_resume_cells as cell_cases
from tests.resume import test_resume_inline as inline_cases
from tracer.observability.metrics import clear_compilation_metrics


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


def torch_inline_versions(torch: Any) -> dict[str, Any]:
    """tests/resume/test_resume_inline.py's functions, with real torch."""

    def prints_between_ops(y: Any) -> Any:
        z = y * 2
        print("in helper", z.shape)
        return z + 1

    def helper_between_ops(x: Any) -> Any:
        y = x.sin()
        y = prints_between_ops(y)
        return y.cos()

    def prints_deep(y: Any) -> Any:
        z = y * 2
        print("deep")
        return z + 1

    def calls_deep(y: Any) -> Any:
        y = y - 1
        y = prints_deep(y)
        return y * 3

    def break_two_calls_deep(x: Any) -> Any:
        y = x.sin()
        y = calls_deep(y)
        return y.cos()

    def prints_first(y: Any, k: int = 3) -> Any:
        print("first", k)
        return y.cos() * k

    def helper_breaks_first(x: Any) -> Any:
        y = x.sin()
        y = prints_first(y, k=2)
        return y + 1

    class Model:
        def __init__(self) -> None:
            self.w = torch.ones(3) * 2
            self.calls = 0

        def step(self, y: Any) -> Any:
            self.calls += 1
            z = y * self.w
            print("step", self.calls)
            return z - 1

        def forward(self, x: Any) -> Any:
            y = x + 1
            y = self.step(y)
            return y * 2

    def make_scaled(k: int) -> Any:
        def scaled(y: Any) -> Any:
            z = y * k
            print("scaled by", k)
            return z + k

        return scaled

    scaled = make_scaled(5)

    def closure_helper(x: Any) -> Any:
        y = x.cos()
        return scaled(y) - 1

    def g(a: Any, b: Any) -> Any:
        return a + 1

    def break_in_call_arguments(x: Any) -> Any:
        return g(x.sin(), print(1)).cos()

    def break_in_len_argument(x: Any) -> Any:
        y = x + 1
        n = 3 + len(str(print("z")))
        return y * n

    def jump_in_call_arguments(x: Any) -> Any:
        y = x + 1
        return g(y, 1 if (x * 3).sum() > 0 else 2) * 2

    return {
        "Model.forward": (Model.forward, (Model(), torch.ones(3))),
        **{
            fn.__name__: (fn, (torch.ones(3),))
            for fn in (
                helper_between_ops, break_two_calls_deep, helper_breaks_first, closure_helper,
                break_in_call_arguments, break_in_len_argument, jump_in_call_arguments,
            )
        },
    }  # fmt: skip


@pytest.mark.parametrize("case", range(len(inline_cases.CASES)))
def test_inline_counts_match_dynamo(case: int) -> None:
    torch = real_torch()
    ours_fn, make_args, *_ = inline_cases.CASES[case]
    fn, args = torch_inline_versions(torch)[ours_fn.__qualname__]
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = torch._dynamo.explain(fn)(*args)
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        ours = tracer.explain(ours_fn)(*make_args())
    assert ours.graph_count == theirs.graph_count
    # Dynamo counts graph_count - 1 breaks; modetrace counts each break, and a break inside
    # a callee twice (into the callee's frame, and back): the same where every break has a
    # graph before it. The helper that prints first has none (see test_resume_inline.py).
    if ours_fn.__name__ == "helper_breaks_first":
        assert ours.graph_break_count == theirs.graph_break_count + 1
    else:
        assert ours.graph_break_count == theirs.graph_break_count


def torch_cell_versions(torch: Any) -> dict[str, Any]:
    """tests/resume/test_resume_cells.py's functions, with real torch."""

    def cell_across_the_break(x: Any) -> Any:
        k = 2
        add = lambda t: t + k  # noqa: E731
        y = add(x) * k
        print("k is", k)
        scale = lambda t: t * k  # noqa: E731
        k = k + 1
        return scale(y)

    def cell_unbound_at_the_break(x: Any) -> Any:
        y = x + 1
        print("no k yet")
        k = 4
        return (lambda: y * k)()  # noqa: PLC3002

    def cell_parameter(x: Any, n: int) -> Any:
        y = x * n
        print("n is", n)
        n = n + 1
        return (lambda: y + n)()  # noqa: PLC3002

    def make_counter() -> Any:
        count = 0

        def step(x: Any) -> Any:
            nonlocal count
            count += 1
            y = x * count
            print("count", count)
            count += 10
            return y + count

        return step

    return {
        "cell_across_the_break": (cell_across_the_break, (torch.ones(3),)),
        "cell_unbound_at_the_break": (cell_unbound_at_the_break, (torch.ones(3),)),
        "cell_parameter": (cell_parameter, (torch.ones(3), 2)),
        "step": (make_counter(), (torch.ones(3),)),
    }


@pytest.mark.parametrize(
    "name", ["cell_across_the_break", "cell_unbound_at_the_break", "cell_parameter", "step"]
)
def test_cell_counts_match_dynamo(name: str) -> None:
    torch = real_torch()
    fn, args = torch_cell_versions(torch)[name]
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        theirs = torch._dynamo.explain(fn)(*args)
    ours_fn = cell_cases.make_counter() if name == "step" else getattr(cell_cases, name)
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        extra = (2,) if name == "cell_parameter" else ()
        ours = tracer.explain(ours_fn)(ours_torch.ones(3), *extra)
    assert (ours.graph_count, ours.graph_break_count) == (
        theirs.graph_count,
        theirs.graph_break_count,
    )


def test_a_bound_method_on_the_stack_compiles_once_where_dynamo_compiles_each_call() -> None:
    """`out.append(print(...) or y)`: the resume function gets the bound method `out.append`,
    a new object on every call. Dynamo pins it by identity, so each call compiles the resume
    function again; modetrace pins its type, name and object (notes/resume-functions.md), so
    the resume function compiles once. The append itself is traced in both
    (tests/resume/test_bound_method_on_stack.py): one resume function, not a second one after
    a break at the append."""
    torch = real_torch()

    def appends_around_a_print(t: Any) -> Any:
        out = []
        out.append(print("p") or (t * 2).sum())
        out.append(t + 1)
        return out

    torch._dynamo.reset()
    tracer.reset()
    # both keep their records in a bounded deque: from empty, so that its length counts (a
    # full one stays as long, and the counts read 0, after enough compiles in the session)
    torch._dynamo.utils.clear_compilation_metrics()
    clear_compilation_metrics()
    compiled_theirs = torch.compile(appends_around_a_print, backend="eager")
    compiled_ours = tracer.compile(appends_around_a_print)
    theirs_before = len(torch._dynamo.utils.get_compilation_metrics())
    ours_before = len(tracer.get_compilation_metrics())
    theirs, ours = [], []
    with contextlib.redirect_stdout(io.StringIO()):
        for _ in range(4):
            compiled_theirs(torch.ones(3))
            theirs.append(len(torch._dynamo.utils.get_compilation_metrics()) - theirs_before)
            compiled_ours(torch.ones(3))
            ours.append(len(tracer.get_compilation_metrics()) - ours_before)
    assert theirs == [2, 3, 4, 5]
    assert ours == [2, 2, 2, 2]
