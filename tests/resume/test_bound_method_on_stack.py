"""A graph break inside the arguments of a container's method call (`out.append(print(x) or
y)`) leaves the bound method `out.append` on the stack, and the resume function gets it as
an input. It is traced as the method of its object's tracker (read at
`L['___stack1'].__self__`, the same tracker as `L['out']` when both reach the list), so the
call no longer breaks the resume function again ("call to C function append is not
supported" was the commonest break reason in `make fuzz`). As in Dynamo, the bound method is
pinned by identity: a later call makes a new bound method and compiles the resume function
again (tests/resume/test_against_dynamo.py compares the counts with Dynamo's)."""

from __future__ import annotations

import collections
import contextlib
import io
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior

G: list[Any] = []


def list_append(x: Any) -> Any:
    out: list[Any] = []
    out.append(print("a") or x * 2)
    return out


def argument_extend_and_alias(x: Any, lst: list[Any]) -> Any:
    lst.extend([print("b") or x + 1])
    return lst, len(lst), lst[-1]


def dict_update_and_setdefault(x: Any) -> Any:
    d: dict[str, Any] = {"k": 1}
    d.update(a=(print("c") or x * 2))
    got = d.setdefault("k", print("d") or 5)
    return d, got


def set_add_and_deque_append(x: int) -> Any:
    s = {1}
    s.add(print("e") or x)
    dq: collections.deque[int] = collections.deque([1])
    dq.append(print("f") or x + 1)
    return sorted(s), list(dq)


def string_methods(n: int) -> Any:
    joined = "-".join([print("g") or "a", "b"])
    formatted = "{}+{}".format(print("h") or n, n)
    found = (1, 2, 3).index(print("i") or 2)
    return joined, formatted, found, b",".join([print("j") or b"x"])


def global_list_append(x: Any) -> Any:
    G.append(print("k") or x)
    return len(G)


CASES = [
    (list_append, lambda: (torch.ones(2),)),
    (argument_extend_and_alias, lambda: (torch.ones(2), [torch.zeros(1)])),
    (dict_update_and_setdefault, lambda: (torch.ones(2),)),
    (set_add_and_deque_append, lambda: (3,)),
    (string_methods, lambda: (4,)),
    (global_list_append, lambda: (torch.ones(1),)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_same_behavior(case: Any) -> None:
    fn, make_args = case
    tracer.reset()
    G.clear()
    assert_same_behavior(fn, *make_args())


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_the_method_call_does_not_break_again(case: Any) -> None:
    fn, make_args = case
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        explained = tracer.explain(fn)(*make_args())
    reasons = [str(r) for r in explained.break_reasons]
    assert reasons, "each case breaks at its print"
    assert all("call to builtin print is not supported" in r for r in reasons), reasons


def test_a_base_class_method_bound_to_a_list_is_not_the_lists_own() -> None:
    """`object.__sizeof__` bound to a list has the list as `__self__` and the name of a
    method list defines itself: it stays an opaque builtin (its own figure, not list's)."""

    def call(method: Any) -> Any:
        return method()

    lst = [1, 2, 3]
    foreign = object.__sizeof__.__get__(lst)  # type: ignore[attr-defined]
    assert foreign() != lst.__sizeof__()
    tracer.reset()
    assert tracer.compile(call)(foreign) == foreign()
