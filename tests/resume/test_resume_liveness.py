"""A resume function receives only the locals live at its resume point (`live_locals`): those
some path from there reads before writing them. Dead ones are not passed and change nothing,
but for an object whose death something may watch (`kept_though_dead`)."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.cache.entry import CacheEntry
from tracer.cache.resume import live_locals
from tracer.testing import assert_same_behavior
from tracer.translator.instructions import instructions_of


@pytest.fixture(autouse=True)
def fresh() -> None:
    """Frame ids and resume functions from scratch: compile ids read `0/0`, `1/0`, ..."""
    tracer.reset()


def entries_of(fn: Any) -> list[CacheEntry]:
    from tracer.explain import _all_entries

    return _all_entries(fn)


def parameters(compiled: Any, way: int = 0) -> list[str]:
    """The local parameters of the first entry's resume function (stack slots left out)."""
    code = entries_of(compiled)[0].resumes[way].fn.__code__
    return [n for n in code.co_varnames[: code.co_argcount] if not n.startswith("___stack")]


def compile_and_call(fn: Any, *args: Any) -> Any:
    compiled = tracer.compile(fn)
    with contextlib.redirect_stdout(io.StringIO()):
        compiled(*args)
    return compiled


def big_dead_list(x: Any) -> Any:
    big = list(range(100_000))
    y = x * big[2]
    print(len(big))
    return y + 1


def read_in_one_branch(x: Any, flag: bool) -> Any:
    y = x + 1
    z = x * 3
    print("break")
    if flag:
        return y + z
    return y


def deleted_after_break(x: Any) -> Any:
    y = x + 1
    tmp = x * 2
    print("break")
    del tmp  # deleting needs the binding: an unbound `tmp` would raise UnboundLocalError
    return y


def rebound_after_break(x: Any) -> Any:
    y = x + 1
    print("break")
    x = y * 2  # written before any read: dead at the break
    return x


def read_in_handler(x: Any, d: dict[str, Any]) -> Any:
    fallback = x - 1
    y = x + 1
    print("break")
    try:
        v = d["k"]
    except KeyError:
        return fallback  # read only when the `try` body raises
    return y + v


def read_in_loop(x: Any, n: int) -> Any:
    total = x * 0
    step = x + 1
    print("break")
    for _ in range(n):
        total = total + step
    return total


def branch_on_tensor(x: Any) -> Any:
    a = x + 1
    b = x * 2
    c = x - 3
    if (x * 3).sum() > 0:
        return a
    return b + a + c * 0


def test_large_dead_local_is_not_passed() -> None:
    compiled = compile_and_call(big_dead_list, torch.ones(3))
    assert parameters(compiled) == ["y"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(big_dead_list, torch.ones(3))


def test_local_read_in_one_branch_is_passed() -> None:
    compiled = compile_and_call(read_in_one_branch, torch.ones(3), False)
    assert parameters(compiled) == ["flag", "y", "z"]  # x is dead after the break
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(read_in_one_branch, torch.ones(3), True)
        assert_same_behavior(read_in_one_branch, torch.ones(3), False)


def test_deleted_local_is_passed() -> None:
    compiled = compile_and_call(deleted_after_break, torch.ones(3))
    assert parameters(compiled) == ["y", "tmp"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(deleted_after_break, torch.ones(3))


def test_local_written_before_read_is_not_passed() -> None:
    compiled = compile_and_call(rebound_after_break, torch.ones(3))
    assert parameters(compiled) == ["y"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(rebound_after_break, torch.ones(3))


def test_local_read_in_an_exception_handler_is_passed() -> None:
    compiled = compile_and_call(read_in_handler, torch.ones(3), {})
    assert parameters(compiled) == ["d", "fallback", "y"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(read_in_handler, torch.ones(3), {})
        assert_same_behavior(read_in_handler, torch.ones(3), {"k": 2})


def test_local_read_in_a_loop_after_the_break_is_passed() -> None:
    compiled = compile_and_call(read_in_loop, torch.ones(3), 3)
    assert parameters(compiled) == ["n", "total", "step"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(read_in_loop, torch.ones(3), 3)


def test_jump_on_a_tensor_passes_what_either_way_reads() -> None:
    compiled = compile_and_call(branch_on_tensor, torch.ones(3))
    assert parameters(compiled, 0) == parameters(compiled, 1) == ["a", "b", "c"]
    assert_same_behavior(branch_on_tensor, torch.ones(3))
    assert_same_behavior(branch_on_tensor, -torch.ones(3))


def test_live_locals_directly() -> None:
    code = read_in_one_branch.__code__
    call = next(
        i for i in instructions_of(code) if i.opname == "CALL" and i.index > 10
    )  # the print
    assert live_locals(code, [call.index + 1]) == {"flag", "y", "z"}
    assert live_locals(code, [0]) == {"x", "flag"}


class Plain:
    pass


def dead_objects_at_a_break(x: Any) -> Any:
    t = x * 2  # a dead tensor: dropped
    watched = Plain()  # an argument of the breaking call, which may weakly reference it
    unwatched = Plain()  # nothing can reach it: dropped
    print(watched)
    t = watched = unwatched = None
    return x + 1, t, watched, unwatched


def test_dead_objects_the_break_may_watch_are_passed() -> None:
    compiled = compile_and_call(dead_objects_at_a_break, torch.ones(3))
    assert parameters(compiled) == ["x", "watched"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert_same_behavior(dead_objects_at_a_break, torch.ones(3))
