"""A graph break inside the arguments of a container's method call (`out.append(print(x) or
y)`) leaves the bound method `out.append` on the stack, and the resume function gets it as
an input. It is traced as the method of its object's tracker (read at
`L['___stack1'].__self__`, the same tracker as `L['out']` when both reach the list), so the
call no longer breaks the resume function again ("call to C function append is not
supported" was the commonest break reason in `make fuzz`). Unlike Dynamo, which pins the bound
method by identity and so compiles the resume function again on every call (each makes a new
bound method), modetrace pins its type, name and object: it compiles once
(tests/resume/test_against_dynamo.py compares the counts with Dynamo's). A method of a
Python function (`t.add` of a runtime tensor, a user object's or class's method) is wrapped at
its `__func__` and `__self__` instead, and nothing is pinned by identity."""

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


def P(value: Any) -> Any:
    print("p", value)
    return value


class Counter:
    def __init__(self) -> None:
        self.total = 0

    def add(self, n: int) -> int:
        self.total += n
        return self.total

    @classmethod
    def make(cls, n: int) -> Any:
        made = cls()
        made.add(n)
        return made.total


def tensor_method_around_a_break(t: Any) -> Any:
    return t.add(P(1)).mul(t.sum().item())


def user_method_around_a_break(c: Counter, n: int) -> Any:
    return c.add(P(n)), c.add(n), c.total


def classmethod_around_a_break(n: int) -> Any:
    return Counter.make(P(n))


METHOD_CASES = [
    (tensor_method_around_a_break, lambda: (torch.ones(2),)),
    (user_method_around_a_break, lambda: (Counter(), 3)),
    (classmethod_around_a_break, lambda: (4,)),
]


@pytest.mark.parametrize("case", METHOD_CASES, ids=lambda c: c[0].__name__)
def test_a_python_method_on_the_stack(case: Any) -> None:
    """`t.add` of a runtime tensor (an op bound to the tensor: it once became the op itself,
    and the call lost its tensor: "Tensor.add() missing 1 required positional argument"),
    a user object's method and a classmethod: the function and the object are wrapped at
    `__func__` and `__self__`, and the call is traced, with no further break; a second call
    with new objects compiles nothing new (nothing is pinned by identity)."""
    fn, make_args = case
    tracer.reset()
    assert_same_behavior(fn, *make_args(), calls=3)
    tracer.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        explained = tracer.explain(fn)(*make_args())
    reasons = [str(r) for r in explained.break_reasons]
    assert all("print is not supported" in r or "item()" in r for r in reasons), reasons
    compiled = tracer.compile(fn)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(*make_args())
        before = len(tracer.get_compilation_metrics())
        compiled(*make_args())
    assert len(tracer.get_compilation_metrics()) == before


def test_a_bound_container_method_is_pinned_by_type_name_and_object() -> None:
    """No identity guard on the bound method: a new `lst.append` hits; another method name,
    or the method of another list than the one the trace took for the same object, misses."""

    def call(method: Any, lst: list[Any]) -> Any:
        method(1)
        return len(lst)

    tracer.reset()
    compiled = tracer.compile(call)
    first, second, other, third = [], [], [], [7, 8]
    assert compiled(first.append, first) == 1
    assert compiled(second.append, second) == 1  # a new bound method of another list: a hit
    assert compiled.compile_count == 1 and second == [1]
    assert compiled(other.append, [8]) == 1 and other == [1]  # not the same list: a miss
    assert compiled(third.pop, third) == 1 and third == [7]  # another method: a miss
    assert compiled.compile_count == 3


def test_a_real_tensors_builtin_method_on_the_stack() -> None:
    """`x.add(y.sum().item())` on real torch: the resume function gets `x.add`, a builtin
    method bound to a torch tensor. It picks the torch world for it (the method's tensor is
    one of its inputs) and traces the call as the tensor's own method, pinned by type, name
    and tensor: no second break, and no new compile on a later call with new tensors."""
    from tests.real_torch import real_torch

    real = real_torch()

    def method_around_a_break(x: Any, y: Any) -> Any:
        return x.add(y.sum().item()).mul(2)

    tracer.reset()
    explained = tracer.explain(method_around_a_break)(real.ones(3), real.ones(2))
    assert [g for g in explained.break_reasons if "item()" not in str(g)] == []
    assert explained.graph_count == 2
    compiled = tracer.compile(method_around_a_break)
    counts = []
    for _ in range(3):
        x, y = real.ones(3), real.ones(2)
        assert real.equal(compiled(x, y), method_around_a_break(x, y))
        counts.append(len(tracer.get_compilation_metrics()))
    assert counts[0] == counts[1] == counts[2]  # (the frame and its resume function, once)
