"""Code whose bytecode 3.12 and 3.13 changed (notes/python-versions.md), compiled whole
(fullgraph) and compared with eager on every version. Each failed on 3.12 before the version
layer handled it: an inlined comprehension's or a generator's implicit exception handler taken
for a user `try`, a comprehension variable shadowing a local, a `super().attr`, a call with
keywords, a closure built from a parameter."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from tests.differential.helpers import check


def comprehension_around_tensor_ops(xs: list[Any]) -> Any:
    # 3.12: the comprehension's cleanup handler covers these ops; it is no user `try`
    return [x * 2 for x in xs if x is not None]


def comprehension_shadows_a_local(xs: list[Any]) -> Any:
    x = "kept"
    doubled = [x + x for x in xs]
    return doubled, x


def comprehension_variable_unbound_before(xs: list[Any]) -> Any:
    doubled = {x: x for x in xs}
    try:
        return doubled, x  # type: ignore[name-defined]
    except NameError as e:
        return doubled, str(e)


def generator_expression_summed(xs: list[Any]) -> Any:
    # 3.12: a generator's body has an implicit StopIteration handler; it is no user `try`
    return sum(x * x for x in xs)


class Base:
    scale = 3

    def f(self, x: Any) -> Any:
        return x + 1


class Derived(Base):
    def f(self, x: Any) -> Any:
        return super().f(x) * super().scale


def super_method_and_attribute(obj: Derived, x: Any) -> Any:
    return obj.f(x)


def keywords_and_closure(x: Any, n: int) -> Any:
    def scaled(y: Any, *, by: int = 2) -> Any:
        return y * by + n

    return scaled(x, by=n), scaled(x)


def loop_with_else_and_slices(xs: list[Any]) -> Any:
    out = xs[1:]
    for x in xs[:2]:
        out[0:1] = [x]
        if x is None:
            break
    else:
        out.append(len(xs))
    return out


def test_comprehensions() -> None:
    check(comprehension_around_tensor_ops, [torch.ones(2), None, torch.arange(2.0)])
    check(comprehension_shadows_a_local, ["a", "b"])
    check(comprehension_variable_unbound_before, [1, 2])


def test_generator_expression() -> None:
    check(generator_expression_summed, [1, 2, 3])
    check(generator_expression_summed, [torch.ones(2), torch.arange(2.0)])


def test_super() -> None:
    check(super_method_and_attribute, Derived(), torch.ones(2))


def test_calls_with_keywords_and_closures() -> None:
    check(keywords_and_closure, torch.ones(2), 3)


def test_loops_and_slices() -> None:
    check(loop_with_else_and_slices, [1, 2, 3])


def comprehension_closure_over_an_outer_name(n: int) -> Any:
    i = 5
    fs = [lambda: i for i in range(n)]  # noqa: B023 - the late binding is the point
    return i, [h() for h in fs]


def comprehension_closure_then_rebound(n: int) -> Any:
    fs = [lambda: i for i in range(n)]  # noqa: B023 - the late binding is the point
    i = 7  # rebinding the outer `i` must not reach the lambdas' cells
    return i, [h() for h in fs]


def test_an_inlined_comprehension_keeps_the_outer_cell() -> None:
    """3.12 and 3.13 inline comprehensions (PEP 709): a comprehension variable a closure
    captures is a cell, saved with LOAD_FAST_AND_CLEAR and put back with STORE_FAST. The
    outer cell was not put back: the outer `i` read the comprehension's last value, and a
    later `i = 7` changed what the lambdas return."""
    check(comprehension_closure_over_an_outer_name, 3)
    check(comprehension_closure_then_rebound, 3)


def comprehension_over_a_cell_name(n: int) -> Any:
    x = n
    g = (i * x for i in range(2))  # `x` is a cell of the frame
    x = 5
    return list(g), [x for x in range(10) if x % 2], x


def test_a_comprehension_variable_named_as_a_cell() -> None:
    """3.13 loads a comprehension's plain value from a slot that also holds a cell outside the
    comprehension with LOAD_FAST, decoded as LOAD_CLOSURE (which pushes a cell): with the
    cell taken out by LOAD_FAST_AND_CLEAR, it is the plain value (a KeyError in the tracer)."""
    check(comprehension_over_a_cell_name, 3)
