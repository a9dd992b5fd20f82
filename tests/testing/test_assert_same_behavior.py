"""assert_same_behavior catches a deliberately broken "compiled" function and names the path of
the first difference; the real compiled function passes on the same code."""

from __future__ import annotations

import dataclasses

import pytest

import tracer
import tracer.runtime as torch
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import Mismatch, assert_same_behavior


class Recording(TorchFunctionMode):
    """Remembers the ops it saw (state that assert_same_behavior compares as `modes[i]`)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.seen.append(getattr(func, "__name__", "?"))
        return func(*args, **(kwargs or {}))


@dataclasses.dataclass
class Bag:
    items: list[int]


def mismatch(fn, *args, fake, **kwargs) -> Mismatch:
    with pytest.raises(Mismatch) as info:
        assert_same_behavior(fn, *args, compiled=fake, **kwargs)
    return info.value


# --- wrong float


def scaled(x, s):
    return x * 2, {"a": s + 0.5}


def scaled_wrong(x, s):
    return x * 2, {"a": s + 0.25 + 0.25 + 1e-9}


def test_wrong_float_is_caught_at_its_path():
    e = mismatch(scaled, torch.ones(2), 1.0, fake=scaled_wrong)
    assert e.path == "return[1]['a']"
    assert "1.500000001, expected 1.5" in str(e)


def scaled_wrong_tensor(x, s):
    return x * 2.0001, {"a": s + 0.5}


def test_wrong_tensor_value_is_caught():
    e = mismatch(scaled, torch.ones(2), 1.0, fake=scaled_wrong_tensor)
    assert e.path == "return[0]"
    assert "element 0" in e.detail


def test_the_real_compile_passes_on_the_float_case():
    assert_same_behavior(scaled, torch.ones(2), 1.0)


# --- dropped list mutation


def set_third(bag):
    bag.items[2] = 9
    return len(bag.items)


def set_third_dropped(bag):
    return len(bag.items)


def append_one(xs):
    xs.append(1)


def append_dropped(xs):
    return None


def test_dropped_mutation_of_an_attribute_list_names_the_item():
    e = mismatch(set_third, Bag([1, 2, 3]), fake=set_third_dropped)
    assert e.path == "args[0].items[2]"
    assert "3, expected 9" in str(e)


def test_dropped_append_names_the_list():
    e = mismatch(append_one, [5], fake=append_dropped)
    assert e.path == "args[0]"
    assert "length 1, expected 2" in str(e)


def test_the_real_compile_passes_on_the_mutation_cases():
    assert_same_behavior(set_third, Bag([1, 2, 3]))
    assert_same_behavior(append_one, [5])


# --- swallowed exception


def checked_sqrt(x, n):
    if n < 0:
        raise ValueError(f"negative: {n}")
    return x * n


def checked_sqrt_swallowed(x, n):
    try:
        return checked_sqrt(x, n)
    except ValueError:
        return None


def checked_sqrt_other_message(x, n):
    raise ValueError("negative")


def test_swallowed_exception_is_caught():
    e = mismatch(checked_sqrt, torch.ones(1), -1, fake=checked_sqrt_swallowed)
    assert e.path == "exception"
    assert "compiled returned normally, eager raised ValueError('negative: -1')" in str(e)


def test_exception_message_is_compared():
    e = mismatch(checked_sqrt, torch.ones(1), -1, fake=checked_sqrt_other_message)
    assert e.path == "exception"


def test_the_real_compile_passes_on_the_exception_case():
    assert_same_behavior(checked_sqrt, torch.ones(1), -1)


# --- mode stack left changed


def under_mode(x, mode):
    with mode:
        y = x + 1
    return y


def under_mode_leaky(x, mode):
    mode.__enter__()
    return x + 1


def pops_the_caller_mode(x, mode):
    y = under_mode(x, mode)
    torch.overrides._pop_mode()
    return y


def test_mode_left_on_the_stack_is_caught():
    e = mismatch(under_mode, torch.ones(2), Recording(), fake=under_mode_leaky)
    assert e.path == "mode_stack"
    assert "length 1, expected 0" in str(e)


def test_mode_popped_from_the_caller_stack_is_caught():
    e = mismatch(under_mode, torch.ones(2), Recording(), fake=pops_the_caller_mode,
                 modes=[Recording()])  # fmt: skip
    assert e.path == "mode_stack"
    assert "length 0, expected 1" in str(e)


def keep(x):
    return x


def swap_two_modes(x):
    top, below = torch.overrides._pop_mode(), torch.overrides._pop_mode()
    torch.overrides._push_mode(top)
    torch.overrides._push_mode(below)
    return x


def test_mode_stack_order_is_compared_by_identity():
    e = mismatch(keep, 1, fake=swap_two_modes, modes=[Recording(), Recording()])
    assert e.path == "mode_stack[0]"
    assert "eager's object is modes[0], compiled's is modes[1]" in str(e)


def records(x, mode):
    with mode:
        return x + 1


def forgets_to_record(x, mode):
    return x + 1


def test_mode_state_is_compared():
    e = mismatch(records, torch.ones(2), Recording(), fake=forgets_to_record)
    assert e.path == "args[1].seen"
    assert "length 0, expected 1" in str(e)


def test_the_real_compile_passes_on_the_mode_cases():
    assert_same_behavior(under_mode, torch.ones(2), Recording())
    assert_same_behavior(under_mode, torch.ones(2), Recording(), modes=[Recording()])


# --- lost aliasing


def twice(x):
    ys = [x]
    return ys, ys


def twice_copied(x):
    return [x], [x]


def returns_input(xs):
    xs.append(0)
    return xs


def returns_copy(xs):
    xs.append(0)
    return list(xs)


def shared_input_split(a, b):
    a.append(1)
    return a is b


def test_lost_aliasing_inside_the_result_is_caught():
    e = mismatch(twice, torch.ones(1), fake=twice_copied)
    assert e.path == "return[1]"
    assert "aliasing lost" in str(e)
    assert "return[0]" in str(e)


def test_returning_a_copy_instead_of_the_input_is_caught():
    e = mismatch(returns_input, [1], fake=returns_copy)
    assert e.path == "return"
    assert "eager's object is args[0]" in str(e)


def test_added_aliasing_is_caught():
    e = mismatch(twice_copied, torch.ones(1), fake=twice)
    assert e.path == "return[1]"
    assert "aliasing added" in str(e)


def test_aliasing_between_inputs_survives_the_copies():
    shared = [0]
    outcome = assert_same_behavior(shared_input_split, shared, shared)
    assert outcome.result is True
    assert outcome.args[0] is outcome.args[1]
    assert shared == [0], "the caller's inputs are never run on"


def test_the_real_compile_passes_on_the_aliasing_cases():
    assert_same_behavior(twice, torch.ones(1))
    assert_same_behavior(returns_input, [1])


# --- globals, closure cells, helpers


LOG: list[int] = []
CALLS = {"n": 0}


def logs_to_global(x):
    LOG.append(1)
    return x


def count_calls():
    CALLS["n"] += 1


def uses_helper(x):
    count_calls()
    return x


def test_global_mutation_is_compared_and_restored():
    e = mismatch(logs_to_global, 1, fake=lambda x: x)
    assert e.path == "G['LOG']"
    assert LOG == []


def test_globals_written_by_a_helper_of_the_same_module_are_compared():
    e = mismatch(uses_helper, 1, fake=lambda x: x)
    assert e.path == "G['CALLS']['n']"
    assert CALLS == {"n": 0}


def make_counter():
    count = 0

    def bump(x):
        nonlocal count
        count += x
        return count

    return bump


def test_closure_cells_are_compared_and_restored():
    bump = make_counter()
    e = mismatch(bump, 2, fake=lambda x: x)
    assert e.path == "C['count']"
    assert bump(0) == 0


def test_the_real_compile_passes_on_globals_and_cells():
    assert_same_behavior(logs_to_global, torch.ones(1))
    assert_same_behavior(make_counter(), 3)


# --- how the compiled side is chosen


def test_backend_option_compiles_with_that_backend():
    seen = []

    def spy(gm, example_inputs):
        seen.append(gm)
        return gm.forward

    assert_same_behavior(scaled, torch.ones(2), 1.0, backend=spy)
    assert len(seen) == 1


def test_an_already_compiled_function_is_used_as_is():
    compiled = tracer.compile(scaled)
    assert_same_behavior(compiled, torch.ones(2), 1.0)
    assert len(compiled.entries) == 1


def test_compiled_and_backend_are_exclusive():
    with pytest.raises(TypeError):
        assert_same_behavior(scaled, torch.ones(2), 1.0, compiled=scaled, backend="eager")


def test_keyword_arguments_reach_the_function():
    def f(x, *, k):
        return x + k

    assert assert_same_behavior(f, 1, k=2).result == 3


def test_the_mismatch_names_the_compiled_call():
    calls = []

    def wrong_second_time(x):
        calls.append(x)
        return x if len(calls) == 1 else x + 1

    e = mismatch(lambda x: x, 1, fake=wrong_second_time)
    assert "compiled call 2" in str(e)


class _ClassRaises:
    """An object whose `__class__` is a property that raises."""

    @property  # type: ignore[misc]
    def __class__(self):  # type: ignore[override]
        raise RuntimeError("no class")

    def __init__(self) -> None:
        self.v = 1


class _ClaimsDict:
    """An object that claims to be a dict (`isinstance(o, dict)` is True)."""

    __class__ = dict  # type: ignore[assignment]

    def __init__(self) -> None:
        self.v = 2


def _read_and_return(o):
    return o.v + 1, o


def test_objects_whose_class_lies_are_compared_by_their_real_type() -> None:
    """The helper tells values apart by their real type: `isinstance` would run the property
    (an error from inside the helper) or take the object for a dict."""
    for obj in (_ClassRaises(), _ClaimsDict()):
        assert_same_behavior(_read_and_return, obj)
