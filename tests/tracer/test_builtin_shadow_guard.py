"""A name a trace looks up again and again is guarded absent once: a builtin "not shadowed by a
global" of the compiled function, a method "not shadowed by an instance attribute" of an object
from outside. The one guard still catches a later shadowing, which recompiles."""

from typing import Any

import tracer
import tracer.runtime as torch


def uses_len_often(x: Any, xs: list[Any]) -> Any:
    for _ in range(len(xs)):
        x = x + len(xs)
    return x * len(xs)


def test_one_guard_per_shadowable_builtin() -> None:
    explanation = tracer.explain(uses_len_often)(torch.ones(2), [1, 2, 3])
    absent = [g for g in explanation.guards if "not in G" in g]
    assert absent == ["'len' not in G and 'range' not in G"]  # one guard for the dict


def test_shadowing_global_recompiles() -> None:
    tracer.reset()
    compiled = tracer.compile(uses_len_often)
    assert compiled(torch.ones(2), [1, 2]).tolist() == [10.0, 10.0]
    globals()["len"] = lambda xs: 1
    try:
        assert compiled(torch.ones(2), [1, 2]).tolist() == [2.0, 2.0]
        assert compiled.compile_count == 2
    finally:
        del globals()["len"]


class Scaler:
    def __init__(self) -> None:
        self.k = 2

    def scale(self, x: Any) -> Any:
        return x * self.k


def scales_often(x: Any, s: Scaler) -> Any:
    return s.scale(s.scale(x)) + s.scale(x)


def test_one_guard_per_method_not_shadowed_in_the_instance() -> None:
    explanation = tracer.explain(scales_often)(torch.ones(2), Scaler())
    absent = [g for g in explanation.guards if "not in L['s'].__dict__" in g]
    assert absent == ["'scale' not in L['s'].__dict__"]


def test_instance_attribute_shadowing_a_method_recompiles() -> None:
    tracer.reset()
    compiled = tracer.compile(scales_often)
    s = Scaler()
    assert compiled(torch.ones(2), s).tolist() == [6.0, 6.0]
    s.scale = lambda x: x + 1  # type: ignore[method-assign]
    assert compiled(torch.ones(2), s).tolist() == [5.0, 5.0]
    assert compiled.compile_count == 2
