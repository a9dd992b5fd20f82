"""Handlers that most traces step through (LOAD_FAST, FOR_ITER, CALL, LIST_APPEND, MAP_ADD,
MAKE_FUNCTION, and an inlined call's binding and closure cells): each case must behave as eager
Python, and trace alike with the debug checks on and off."""

import sys
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer import config
from tracer.observability.metrics import clear_compilation_metrics, get_compilation_metrics
from tracer.testing import assert_same_behavior


def unbound_after_del(x: Any) -> Any:
    y = x + 1
    del y
    return y  # noqa: F821


def unbound_on_one_branch(x: Any, flag: bool) -> Any:
    if flag:
        y = x * 2
    return y


def unbound_inside_try(x: Any) -> Any:
    try:
        y = x + 1
        del y
        return y  # noqa: F821
    except UnboundLocalError as e:
        return x, str(e), e.__context__ is None


def unbound_in_helper(x: Any) -> Any:
    return unbound_after_del(x) * 2


def loops(xs: list[Any]) -> Any:
    total = xs[0]
    for _ in []:
        total = total * 100
    for i, t in enumerate(xs):
        for j in range(i):
            total = total + t * j
        if i > 5:
            break
    else:
        total = total - 1
    return total


def comprehensions(xs: list[Any], n: int) -> Any:
    squares = [t * t for t in xs]
    empty = [t for t in xs if t is None]
    nested = [a + b for a in xs for b in xs[:n]]
    table = {f"k{i}": t for i, t in enumerate(xs)}
    inverse = {i: k for k, i in {"a": 1, "b": 2}.items()}
    return squares, empty, nested, table, inverse, sum([len(k) for k in table])


class Box:
    def __init__(self, scale: float) -> None:
        self.scale = scale

    def times(self, x: Any, extra: float = 0.0) -> Any:
        return x * self.scale + extra


def calls(x: Any, box: Box) -> Any:
    return box.times(x), box.times(x, extra=1.5), Box(2.0).times(x), abs(-3), max(1, 2, key=None)


def made_functions(x: Any, k: int) -> Any:
    def plain(t: Any) -> Any:
        return t + 1

    def with_defaults(t: Any, a: int = 2, *, b: float = 0.5, c: int = k) -> Any:
        return t * a + b * c

    def closure(t: Any) -> Any:
        return t * k + x

    scaled = [with_defaults(t, b=1.5) for t in (x, x * 2)]
    return plain(x), with_defaults(x), with_defaults(x, 3, c=1), closure(x), scaled


def inlined_helpers(x: Any, y: Any) -> Any:
    box = Box(2.0)
    total = x
    for _ in range(3):
        total = total + calls(total, box)[0] + made_functions(y, 2)[3]
    return total


CASES = [
    (unbound_after_del, (torch.ones(2),)),
    (unbound_on_one_branch, (torch.ones(2), False)),
    (unbound_on_one_branch, (torch.ones(2), True)),
    (unbound_inside_try, (torch.ones(2),)),
    (unbound_in_helper, (torch.ones(2),)),
    (loops, ([torch.ones(2), torch.arange(2), torch.ones(2) * 3],)),
    (comprehensions, ([torch.ones(2), torch.arange(2)], 1)),
    (calls, (torch.ones(2), Box(0.5))),
    (made_functions, (torch.ones(2), 3)),
    (inlined_helpers, (torch.ones(2), torch.arange(2))),
]


def _facts(fn: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    tracer.reset()
    clear_compilation_metrics()
    compiled = tracer.compile(fn)
    try:
        outcome: object = compiled(*args)
    except Exception as e:  # noqa: BLE001 (the user's exception is part of what is compared)
        outcome = (type(e), str(e))
    [entry] = compiled.entries
    return (
        get_compilation_metrics()[-1].traced_instruction_count,
        str(entry.break_reason),
        entry.guards,
        entry.graph.code if entry.graph is not None else None,
        outcome
        if isinstance(outcome, tuple) and outcome and isinstance(outcome[0], type)
        else None,
    )


@pytest.mark.parametrize(("fn", "args"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_handlers_agree_with_eager_with_and_without_debug_checks(
    fn: Any, args: tuple[Any, ...]
) -> None:
    facts = []
    for checked in (False, True):
        with config.patch(debug_checks=checked):
            assert_same_behavior(fn, *args)
            facts.append(_facts(fn, args))
    assert facts[0] == facts[1]


def test_unbound_local_is_the_users_error_raised_outside_the_lookups_except(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The UnboundLocalError LOAD_FAST reports says what Python says, and chains no
    exception of the tracer's own."""
    from tracer.translator.base import TranslatorBase

    handling: list[object] = []
    original = TranslatorBase.raise_user_error

    def spy(self: TranslatorBase, error: BaseException) -> Any:
        handling.append(sys.exc_info()[1])
        return original(self, error)

    monkeypatch.setattr(TranslatorBase, "raise_user_error", spy)
    with config.patch(debug_checks=False):
        tracer.reset()
        compiled = tracer.compile(unbound_after_del)
        with pytest.raises(UnboundLocalError) as raised:
            compiled(torch.ones(2))
    assert str(raised.value) == (
        "cannot access local variable 'y' where it is not associated with a value"
    )
    assert handling == [None]
