"""The torch-function mode stack inside compiled code: entering, exiting, pushing and popping
modes, modes that observe or rewrite ops, and the stack a call leaves behind; compiled == eager
with fullgraph (zero graph breaks) unless a case says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode, _pop_mode_temporarily
from tracer.testing import assert_same_behavior

FULLGRAPH = {"fullgraph": True}


def check(fn: Callable[..., Any], *args: Any, modes: list[Any] | None = None) -> None:
    assert_same_behavior(fn, *args, modes=modes, compile_options=FULLGRAPH)


class NamedMode(TorchFunctionMode):
    """A repr without an address, so error messages naming a mode are the same in every run."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class PassMode(NamedMode):
    """Runs every op unchanged."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class CountMode(NamedMode):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


class LogMode(NamedMode):
    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.log.append(func.__name__)
        return func(*args, **(kwargs or {}))


class AddToMulMode(NamedMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.add:
            return torch.mul(*args)
        return func(*args, **(kwargs or {}))


class PlusOneMode(NamedMode):
    """Changes every result: makes it visible which modes an op went through, and in what order."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {})) + 1


class RaiseMode(NamedMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise ValueError(f"no {func.__name__} allowed")


class Plus100AfterMode(NamedMode):
    """Its handler calls another op after func: that op reaches the modes below it."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return torch.add(func(*args, **(kwargs or {})), 100)


class ConstMode(NamedMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return 7


class AlphaMode(NamedMode):
    """Rewrites the kwargs of add."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is torch.add:
            return func(args[0], args[1], alpha=2)
        return func(*args, **(kwargs or {}))


class CustomEnterMode(CountMode):
    def __enter__(self):
        self.count = 1000
        return super().__enter__()


class SubCountMode(CountMode):
    pass


class Holder:
    pass


# -- with Mode(): ----------------------------------------------------------------------------------
def with_pass_mode(x):
    with PassMode():
        y = x + 1
    return y * 2


def with_count_mode(x):
    m = CountMode()
    with m:
        y = torch.add(x, 1)
        y = y.sin()
        y = y * 2
    return y, m.count


def with_log_mode(x):
    m = LogMode()
    with m:
        y = torch.mul(x, 2)
        y = torch.add(y, x)
        y = y.cos()
    return y, m.log


def with_rewrite_mode(x):
    with AddToMulMode():
        y = torch.add(x, 3)
        z = torch.sub(x, 1)
    w = torch.add(x, 3)
    return y, z, w


def nested_with(x):
    outer, inner = CountMode(), LogMode()
    with outer:
        y = x + 1
        with inner:
            y = torch.mul(y, 2)
        y = y.sin()
    return y, outer.count, inner.log


def nested_plus_one(x):
    with PlusOneMode():  # noqa: SIM117 - nesting is the point
        with PlusOneMode():
            y = torch.add(x, 0)
    return y


def handler_reaches_next_mode_down(x):
    """The top mode's handler calls func: that call goes to the mode below, which logs it."""
    below = LogMode()
    with below:  # noqa: SIM117 - nesting is the point
        with CountMode() as top:
            y = torch.add(x, 1)
    return y, top.count, below.log


def mode_as_target(x):
    with CountMode() as m:
        x = x + 1
    return m.count, x


def new_mode_instance_count_is_returned(x):
    m = CountMode()
    with m:
        y = x * 2
    with m:
        y = y * 2
    return m.count, y


# -- push and pop by hand --------------------------------------------------------------------------
def push_pop_by_hand(x):
    m = CountMode()
    torch._C._push_on_torch_function_stack(m)
    y = torch.add(x, 1)
    popped = torch._C._pop_torch_function_stack()
    return y, popped is m, m.count


def pop_then_push_different(x):
    torch._C._pop_torch_function_stack()
    torch._C._push_on_torch_function_stack(LogMode())
    return torch.mul(x, 2)


def pop_initial_and_run(x):
    mode = torch._C._pop_torch_function_stack()
    y = torch.add(x, 1)
    return y, mode.count


def pop_then_repush_same(x):
    mode = torch._C._pop_torch_function_stack()
    y = torch.add(x, 1)
    torch._C._push_on_torch_function_stack(mode)
    return torch.mul(y, 2), mode.count


def leave_new_mode_pushed(x):
    torch._C._push_on_torch_function_stack(CountMode())
    return x + 1


def leave_mode_pushed_via_enter(x):
    m = LogMode()
    m.__enter__()
    return torch.add(x, 1), m.log


def pop_empty_stack(x):
    torch._C._pop_torch_function_stack()
    return x


# -- reading the stack -----------------------------------------------------------------------------
def read_len(x):
    n0 = torch._C._len_torch_function_stack()
    with PassMode():
        n1 = torch._C._len_torch_function_stack()
    return n0, n1, x + n1


def read_bottom(x):
    bottom = torch._C._get_function_stack_at(0)
    return torch.add(x, 1), type(bottom).__name__, bottom.count


def read_top_negative_index(x):
    with LogMode():
        top = torch._C._get_function_stack_at(-1)
        y = torch.add(x, 1)
    return y, top.log


def get_at_out_of_range(x):
    return torch._C._get_function_stack_at(5)


def pop_mode_temporarily(x):
    with _pop_mode_temporarily() as m:
        y = torch.add(x, 1)
        inside = torch._C._len_torch_function_stack()
    z = torch.add(y, 1)
    return z, inside, m.count


def pop_mode_temporarily_two_deep(x):
    with _pop_mode_temporarily() as top:
        with _pop_mode_temporarily() as below:
            y = torch.mul(x, 3)
        y = torch.add(y, 1)
    return y, type(top).__name__, type(below).__name__, below.log


# -- state and exceptions --------------------------------------------------------------------------
def mode_counts_into_input(x, counter):
    with CountMode() as m:
        y = x + 1
        y = y * 2
    counter.append(m.count)
    return y


def exception_inside_with(x):
    with PlusOneMode():
        torch.add(x, 1)
        raise ValueError("inside the mode")


def handler_raises(x):
    with RaiseMode():
        return torch.add(x, 1)


def mode_stored_on_input(x, o):
    m = CountMode()
    o.mode = m
    with m:
        y = x + 1
    return y


def return_popped_initial_mode(x):
    return torch._C._pop_torch_function_stack()


def handler_calls_op_that_reaches_lower_mode(x):
    with Plus100AfterMode():  # noqa: SIM117 - nesting is the point
        with LogMode() as inner:
            y = torch.mul(x, 2)
    return y, inner.log


def mode_returns_constant(x):
    with ConstMode():
        y = torch.add(x, 1)
    return y


def mode_rewrites_kwargs(x):
    with AlphaMode():
        y = torch.add(x, 1)
    return y


def custom_enter(x):
    with CustomEnterMode() as m:
        y = torch.add(x, 1)
    return y, m.count


def read_whole_stack(x):
    stack = torch.overrides._get_current_function_mode_stack()
    return stack, torch.overrides._get_current_function_mode(), torch.add(x, 1)


def write_initial_mode_state(x):
    m = torch._C._get_function_stack_at(0)
    m.count = 50
    return torch.add(x, 1)


def push_inside_pop_temporarily(x):
    with _pop_mode_temporarily():
        torch._C._push_on_torch_function_stack(LogMode())
        y = torch.add(x, 1)
        torch._C._pop_torch_function_stack()
    return y


def push_same_instance_twice_leave_one(x):
    m = CountMode()
    torch._C._push_on_torch_function_stack(m)
    torch._C._push_on_torch_function_stack(m)
    y = torch.add(x, 1)
    torch._C._pop_torch_function_stack()
    return y, m.count


def rebuild_stack_in_reverse(x):
    n = torch._C._len_torch_function_stack()
    popped = [torch._C._pop_torch_function_stack() for _ in range(n)]
    for m in popped:
        torch._C._push_on_torch_function_stack(m)
    return torch.add(x, 1)


def pop_temporarily_inside_with(x):
    with CountMode():  # noqa: SIM117 - nesting is the point
        with _pop_mode_temporarily() as m:
            y = torch.add(x, 1)
    return y, m.count


def return_inside_with(x):
    with LogMode() as m:
        y = torch.add(x, 1)
        return y, m.log


CASES: list[tuple[Callable[..., Any], list[type]]] = [
    (with_pass_mode, []),
    (with_count_mode, []),
    (with_log_mode, []),
    (with_rewrite_mode, []),
    (nested_with, []),
    (nested_plus_one, []),
    (handler_reaches_next_mode_down, []),
    (mode_as_target, []),
    (new_mode_instance_count_is_returned, []),
    (push_pop_by_hand, []),
    (pop_then_push_different, [CountMode]),
    (pop_initial_and_run, [LogMode, CountMode]),
    (pop_then_repush_same, [LogMode, CountMode]),
    (leave_new_mode_pushed, []),
    (leave_new_mode_pushed, [LogMode]),
    (leave_mode_pushed_via_enter, []),
    (read_len, []),
    (read_len, [PassMode, CountMode]),
    (read_bottom, [CountMode, LogMode]),
    (read_top_negative_index, [CountMode]),
    (pop_mode_temporarily, [LogMode, CountMode]),
    (pop_mode_temporarily_two_deep, [LogMode, CountMode]),
    (with_count_mode, [LogMode]),
    (with_log_mode, [CountMode, PlusOneMode]),
    (with_rewrite_mode, [LogMode]),
    (nested_with, [AddToMulMode]),
    (return_popped_initial_mode, [CountMode, LogMode]),
    (handler_calls_op_that_reaches_lower_mode, []),
    (handler_calls_op_that_reaches_lower_mode, [CountMode]),
    (mode_returns_constant, []),
    (mode_rewrites_kwargs, []),
    (custom_enter, []),
    (read_whole_stack, [CountMode, LogMode]),
    (write_initial_mode_state, [CountMode]),
    (write_initial_mode_state, [SubCountMode]),
    (push_inside_pop_temporarily, [CountMode]),
    (push_same_instance_twice_leave_one, []),
    (rebuild_stack_in_reverse, [CountMode, LogMode, CountMode]),
    (pop_temporarily_inside_with, [LogMode]),
    (return_inside_with, []),
]


@pytest.mark.parametrize(
    ("fn", "initial"),
    CASES,
    ids=[f"{fn.__name__}-[{','.join(m.__name__ for m in ms)}]" for fn, ms in CASES],
)
def test_mode_stack_compiled_matches_eager(fn: Callable[..., Any], initial: list[type]) -> None:
    check(fn, torch.arange(3.0), modes=[cls() for cls in initial])


def test_active_modes_see_the_ops_of_the_compiled_function() -> None:
    """Modes pushed before the call see every op and mutate their own state, like eager."""

    def f(x):
        return torch.add(x, 1).sin() * 2

    check(f, torch.ones(2), modes=[LogMode(), CountMode()])


def test_mode_stored_on_input_object() -> None:
    check(mode_stored_on_input, torch.ones(2), Holder())


def test_mode_counts_into_input_list() -> None:
    check(mode_counts_into_input, torch.ones(2), [])


def test_exception_inside_with_mode_without_fullgraph() -> None:
    """Whatever the tracer does with a raise inside `with Mode():`, behaviour is eager's."""
    assert_same_behavior(exception_inside_with, torch.ones(2))
    assert_same_behavior(exception_inside_with, torch.ones(2), modes=[LogMode()])


def test_handler_raises_without_fullgraph() -> None:
    assert_same_behavior(handler_raises, torch.ones(2))
    assert_same_behavior(handler_raises, torch.ones(2), modes=[CountMode()])


def test_pop_empty_stack_raises_like_eager() -> None:
    check(pop_empty_stack, torch.ones(2))


def test_get_function_stack_at_out_of_range_raises_like_eager() -> None:
    check(get_at_out_of_range, torch.ones(2), modes=[CountMode()])


@pytest.mark.xfail(
    strict=True,
    reason="BUG: exiting a mode out of order raises RuntimeError naming the tracker "
    "('TorchFunctionModeVariable(CountMode, new) exited out of order (top is ...)') compiled; "
    "eager: 'torch function mode <CountMode> exited out of order: the top of the mode stack is "
    "<LogMode>; modes must exit in the reverse order they were entered'",
)
def test_exit_out_of_order_raises_like_eager() -> None:
    def f(x):
        a, b = CountMode(), LogMode()
        a.__enter__()
        b.__enter__()
        a.__exit__(None, None, None)
        return x

    check(f, torch.ones(2))


def test_same_mode_instance_pushed_twice() -> None:
    def f(x):
        m = CountMode()
        with m:  # noqa: SIM117 - nesting is the point
            with m:
                y = torch.add(x, 1)
        return y, m.count

    check(f, torch.ones(2))


def test_mode_stack_helper_inlined() -> None:
    def push_log():
        m = LogMode()
        torch._C._push_on_torch_function_stack(m)
        return m

    def f(x):
        m = push_log()
        y = torch.mul(x, 2)
        torch._C._pop_torch_function_stack()
        return y, m.log

    check(f, torch.ones(2))


def _from_another_module(source: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {"torch": torch, "AddToMulMode": AddToMulMode}
    exec(compile(source, "<another-module>", "exec"), namespace)  # noqa: S102
    fn: Callable[..., Any] = namespace["f"]
    return fn


def test_mode_whose_handler_reads_its_own_module_globals_from_another_module() -> None:
    """The handler reads `torch` from this module while the compiled function lives in another
    module: whether or not the tracer models that, behaviour must be eager's."""
    f = _from_another_module(
        "def f(x):\n    with AddToMulMode():\n        return torch.add(x, 3)\n"
    )
    assert_same_behavior(f, torch.arange(3.0))
    assert_same_behavior(f, torch.arange(3.0), modes=[LogMode()])
