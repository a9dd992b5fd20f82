"""What CPython asks of a user iterator, asked as often and in the same way when compiled:

- `yield from it` over a user iterator hands `throw()` and `close()` on to it (and the close
  when the generator is dropped), and takes the value of the StopIteration its `__next__`
  raises (`r = yield from it`): the trace did neither; it breaks there now;
- `min`, `max` (not folded) and `functools.reduce` call `__iter__` once (their traced Python
  looped `for` over the iterator twice: three calls), `itertools.tee` twice (once);
- `OSError(2, 'msg')` is a FileNotFoundError, and `OSError(2, 'msg', 'f').args` is `(2,
  'msg')`: the trace kept the class called and the arguments passed.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


class Delegate:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> int:
        return 1

    def throw(self, *args: Any) -> int:
        self.log.append("throw")
        return 42

    def close(self) -> None:
        self.log.append("close")


def thrown_into(x: Any, log: list[str]) -> Any:
    def g() -> Any:
        yield from Delegate(log)

    it = g()
    first = next(it)
    return x * first, it.throw(ValueError("v")), log


def closed(x: Any, log: list[str]) -> Any:
    def g() -> Any:
        yield from Delegate(log)

    it = g()
    next(it)
    it.close()
    return x + 1, log


class Returns:
    def __iter__(self) -> Any:
        return self

    def __next__(self) -> int:
        raise StopIteration("returned")


def result_of_yield_from(x: Any) -> Any:
    def g() -> Any:
        got = yield from Returns()
        yield got

    return x + 1, list(g())


@pytest.mark.parametrize("fn", [thrown_into, closed])
def test_yield_from_hands_throw_and_close_on(fn: Any) -> None:
    assert_same_behavior(fn, torch.ones(2), [])


def test_yield_from_takes_the_stop_iterations_value() -> None:
    assert_same_behavior(result_of_yield_from, torch.ones(2))


class Rewinds:
    """An iterator that starts again on every `iter()`: each `__iter__` call shows."""

    def __init__(self, log: list[str], n: int) -> None:
        self.log, self.n, self.i = log, n, 0

    def __iter__(self) -> Any:
        self.log.append("iter")
        self.i = 0
        return self

    def __next__(self) -> int:
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i


def smallest_by_key(x: Any, log: list[str]) -> Any:
    return x + 1, max(Rewinds(log, 3), key=lambda v: -v), log


def folded(x: Any, log: list[str]) -> Any:
    return x + 1, functools.reduce(lambda a, b: a + b, Rewinds(log, 3)), log


def teed(x: Any, log: list[str]) -> Any:
    a, b = itertools.tee(Rewinds(log, 2))
    return x + 1, list(a), list(b), log


@pytest.mark.parametrize("fn", [smallest_by_key, folded, teed])
def test_iter_is_called_as_often_as_cpython_calls_it(fn: Any) -> None:
    assert_same_behavior(fn, torch.ones(2), [])


def os_errors(x: Any) -> Any:
    made = OSError(2, "no such file")
    with_name = OSError(2, "no such file", "f.txt")
    return x + 1, type(made).__name__, made.args, with_name.args, str(with_name)


def test_os_error_picks_its_subclass_and_arguments() -> None:
    assert_same_behavior(os_errors, torch.ones(2))
