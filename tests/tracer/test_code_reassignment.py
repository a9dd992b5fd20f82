"""A function's `__code__` is writable: a compiled function, or a helper it traced into, given new
code between calls must run the new code, never hit a trace of the old one."""

from typing import Any

import tracer
import tracer.runtime as torch


def plus_one(x: Any) -> Any:
    return x + 1


def times_ten(x: Any) -> Any:
    return x * 10


def with_default(x: Any, y: Any = 5) -> Any:
    return x * y


def global_helper(x: Any) -> Any:
    return x + 1


def calls_global_helper(x: Any) -> Any:
    return global_helper(x) + 2


def test_a_global_helper_given_new_code() -> None:
    compiled = tracer.compile(calls_global_helper)
    x = torch.arange(3.0)
    old_code = global_helper.__code__
    try:
        assert compiled(x).tolist() == calls_global_helper(x).tolist() == [3.0, 4.0, 5.0]
        global_helper.__code__ = times_ten.__code__
        assert compiled(x).tolist() == calls_global_helper(x).tolist() == [2.0, 12.0, 22.0]
        assert compiled.compile_count == 2
    finally:
        global_helper.__code__ = old_code


def test_a_closure_helper_given_new_code() -> None:
    def inner(x: Any) -> Any:
        return x + 1

    def f(x: Any) -> Any:
        return inner(x)

    compiled = tracer.compile(f)
    assert compiled(2) == f(2) == 3
    inner.__code__ = times_ten.__code__
    assert compiled(2) == f(2) == 20


def test_a_method_given_new_code() -> None:
    class Scaler:
        def scale(self, x: Any) -> Any:
            return x + 1

    def doubled(self: Any, x: Any) -> Any:
        return x * 2

    def f(s: Scaler, x: Any) -> Any:
        return s.scale(x)

    compiled = tracer.compile(f)
    s = Scaler()
    assert compiled(s, 3) == f(s, 3) == 4
    Scaler.scale.__code__ = doubled.__code__
    assert compiled(s, 3) == f(s, 3) == 6


def test_the_compiled_function_given_new_code() -> None:
    def f(x: Any) -> Any:
        return x + 1

    compiled = tracer.compile(f)
    x = torch.arange(3.0)
    assert compiled(x).tolist() == [1.0, 2.0, 3.0]
    f.__code__ = times_ten.__code__
    assert compiled(x).tolist() == f(x).tolist() == [0.0, 10.0, 20.0]
    assert compiled(2) == f(2) == 20


def test_the_compiled_function_given_code_with_another_signature() -> None:
    def f(x: Any) -> Any:
        return x + 1

    compiled = tracer.compile(f)
    assert compiled(2) == 3
    f.__code__ = with_default.__code__
    f.__defaults__ = (5,)
    assert compiled(2) == f(2) == 10
    assert compiled(2, 3) == f(2, 3) == 6
    assert compiled(2, y=4) == f(2, y=4) == 8


def test_a_function_is_pinned_by_identity_and_code_in_one_guard() -> None:
    def f(x: Any) -> Any:
        for _ in range(3):
            x = plus_one(x)
        return x

    explained = str(tracer.explain(f)(2))
    assert explained.count("G['plus_one'].__code__ is <code plus_one>") == 1
    assert "G['plus_one'] is <function plus_one> and" in explained


def test_the_failure_reason_names_the_code() -> None:
    def helper(x: Any) -> Any:
        return x + 1

    def f(x: Any) -> Any:
        return helper(x)

    compiled = tracer.compile(f)
    compiled(2)
    helper.__code__ = times_ten.__code__
    assert compiled(2) == 20
    (reason,) = compiled.last_miss_reasons
    assert "C['helper'].__code__ is <code" in reason and "(actual <code times_ten>)" in reason
