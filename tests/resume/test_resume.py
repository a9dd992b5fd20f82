"""Graph breaks that resume (issue 21): a break at a call in the compiled frame compiles the
graph so far, runs the call eagerly and continues in a resume function compiled on its own.

Each function: compiled == eager (return value, inputs afterwards, what it printed, in order),
graph and break counts from `tracer.explain`, and the second call compiles nothing."""

from __future__ import annotations

import contextlib
import copy
import io
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.cache.entry import CacheEntry
from tracer.testing import assert_same_behavior
from tracer.testing.counters import CompileCounter


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
    print("two", end="!\n")  # a keyword argument: KW_NAMES before the eager call
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
    tracer.graph_break()
    return y.cos()


def branch_on_value(x: Any) -> Any:
    y = x + 1
    if (x * 3).sum() > 0:
        y = y * 2
    else:
        y = y - 1
    return y.cos()


CASES: list[tuple[Callable[..., Any], Callable[[], tuple[Any, ...]], int, int]] = [
    (print_between_ops, lambda: (torch.ones(3),), 2, 1),
    (item_between_ops, lambda: (torch.ones(3),), 2, 1),
    (two_prints, lambda: (torch.ones(3),), 3, 2),
    (append_print_append, lambda: (torch.ones(3), []), 2, 1),
    (print_in_loop, lambda: (torch.ones(3),), 0, 1),
    (explicit_graph_break, lambda: (torch.ones(3),), 2, 1),
    (branch_on_value, lambda: (torch.ones(3),), 2, 1),
    (branch_on_value, lambda: (-torch.ones(3),), 2, 1),
]


def printed(fn: Callable[..., Any], *args: Any) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue()


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    tracer.reset()
    yield
    tracer.reset()


@pytest.mark.parametrize(
    "fn,make_args,graphs,breaks", CASES, ids=lambda c: getattr(c, "__name__", "")
)
def test_same_behavior_and_counts(
    fn: Callable[..., Any], make_args: Callable[[], tuple[Any, ...]], graphs: int, breaks: int
) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(fn, *make_args())
        explanation = tracer.explain(fn)(*make_args())
    assert (explanation.graph_count, explanation.graph_break_count) == (graphs, breaks)
    compiled = tracer.compile(fn)
    eager_out = printed(fn, *copy.deepcopy(make_args()))
    assert printed(compiled, *make_args()) == eager_out
    with CompileCounter() as counter:
        assert printed(compiled, *make_args()) == eager_out
    assert counter.compiles == 0


def entries_of(fn: Any) -> list[CacheEntry]:
    """Every entry of a compiled function and of the resume functions it calls."""
    from tracer.explain import _all_entries

    return _all_entries(fn)


def test_compile_ids_and_resume_name() -> None:
    compiled = tracer.compile(print_between_ops)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3))
    entries = entries_of(compiled)
    assert [str(e.compile_id) for e in entries] == ["0/0", "1/0"]
    (resume,) = entries[0].resumes
    assert resume.fn.__qualname__.startswith("__resume_at_")  # its __name__ is the original's
    assert not entries[0].is_fallback
    assert entries[0].break_reason is not None
    assert entries[0].break_reason.kind == "builtin-side-effect"


def read_after_break(x: Any, n: int) -> Any:
    y = x + 1
    print("break")
    return y * n


def test_input_read_after_break_recompiles_only_the_resume_function() -> None:
    compiled = tracer.compile(read_after_break)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(torch.ones(3), 2)
        assert_same_behavior(read_after_break, torch.ones(3), 3)
        compiled(torch.ones(3), 3)
    entries = entries_of(compiled)
    assert [str(e.compile_id) for e in entries] == ["0/0", "1/0", "1/1"]


def test_resume_code_is_cached_per_break() -> None:
    first = tracer.compile(print_between_ops)
    second = tracer.compile(print_between_ops)
    with contextlib.redirect_stdout(io.StringIO()):
        first(torch.ones(3))
        second(torch.ones(3))
    assert entries_of(first)[0].resumes[0] is entries_of(second)[0].resumes[0]


def test_loop_break_reason() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        explanation = tracer.explain(print_in_loop)(torch.ones(3))
    (reason,) = explanation.break_reasons
    assert reason.kind == "graph break in loop"
    assert "call to builtin print is not supported" in reason.explanation


def test_fullgraph_raises_at_the_first_break() -> None:
    with pytest.raises(tracer.Unsupported, match="print"):
        tracer.compile(print_between_ops, fullgraph=True)(torch.ones(3))


def break_in_try(x: Any) -> Any:
    y = x + 1
    try:
        print("in try")
    finally:
        y = y * 2
    return y


def test_unsupported_shapes_fall_back_whole() -> None:
    for fn in (break_in_try,):  # a break in call arguments: tests/resume/test_resume_inline.py
        with contextlib.redirect_stdout(io.StringIO()):
            assert_same_behavior(fn, torch.ones(3))
            explanation = tracer.explain(fn)(torch.ones(3))
        assert (explanation.graph_count, explanation.graph_break_count) == (0, 1)


def raises_after_break(x: Any) -> Any:
    y = x + 1
    print("before")
    raise ValueError(f"bad {y.shape}")


def test_exception_after_break() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(raises_after_break, torch.ones(3))


def test_branch_on_value_resumes_in_one_function_per_way() -> None:
    compiled = tracer.compile(branch_on_value)
    compiled(torch.ones(3))
    compiled(-torch.ones(3))
    entries = entries_of(compiled)
    assert [str(e.compile_id) for e in entries] == ["0/0", "1/0", "2/0"]
    assert entries[0].break_reason is not None
    assert entries[0].break_reason.kind == "data-dependent-branch"
    assert len(entries[0].resumes) == 2
    with CompileCounter() as counter:
        compiled(torch.ones(3))
        compiled(-torch.ones(3))
    assert counter.compiles == 0


GLOBAL_LIST = [0]


def mutates_global_before_break(x: Any) -> Any:
    GLOBAL_LIST.append(len(GLOBAL_LIST))  # replayed before the print, which must see it
    print(GLOBAL_LIST)
    GLOBAL_LIST.append(9)
    return x + len(GLOBAL_LIST)


class Scaler:
    def __init__(self) -> None:
        self.w = torch.ones(3)

    def forward(self, x: Any, k: int = 2) -> Any:
        y = x * self.w
        print("scale", k)
        self.w = self.w + 1
        return y * k


def new_dict_across_break(x: Any) -> Any:
    d = {}
    d["a"] = x + 1
    print(sorted(d))
    d["b"] = 2
    return d


def test_state_across_the_break() -> None:
    # each run's stdout is recorded and compared with eager's: the print sees the replayed append
    outcome = assert_same_behavior(mutates_global_before_break, torch.ones(3))
    assert outcome.stdout == "[0, 1]\n"
    assert_same_behavior(Scaler.forward, Scaler(), torch.ones(3))
    assert_same_behavior(new_dict_across_break, torch.ones(3))
    for fn, args in [
        (Scaler.forward, (Scaler(), torch.ones(3))),
        (new_dict_across_break, (torch.ones(3),)),
    ]:
        with contextlib.redirect_stdout(io.StringIO()):
            explanation = tracer.explain(fn)(*args)
        assert explanation.graph_break_count == 1
        assert not explanation.entries[0].is_fallback


def test_explain_counts_only_what_its_call_compiled() -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        tracer.compile(print_between_ops)(torch.ones(3))  # compiles the resume function too
        explanation = tracer.explain(print_between_ops)(torch.ones(4))
    assert (explanation.graph_count, explanation.graph_break_count) == (2, 1)
