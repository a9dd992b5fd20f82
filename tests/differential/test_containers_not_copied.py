"""A container tracker's constant is a copy (`as_python_constant` of a list, dict or set makes
a new object), so a function folded on constants computes on copies:

- `operator.setitem`, `delitem`, `iconcat` changed the copy and lost the change;
- `operator.is_`, `is_not`, `concat`, `max`/`min` without a key, a deque's item, and `(lst,) +
  (1,)` or `{'k': lst} | {...}` returned or compared copies where plain Python returns the
  objects themselves (a later change of the result did not reach the input);

all with no graph break. They are traced as what they do now (`variables/operator_functions.py`,
`min_max`), and a fold whose result would hold a copy falls back (`pure_calls.fold`).
Also: iterating a set passed in while the trace changed it walked the unchanged set (the
change is made on a copy); CPython raises "Set changed size during iteration", or its iterator
sees the change: that falls back now.
"""

from __future__ import annotations

import collections
import copy
import operator
from typing import Any

import tracer
from tests.differential.helpers import check


def mutated_through_operator(x: list[Any], d: dict[str, int]) -> Any:
    operator.setitem(x, 0, "q")
    operator.delitem(x, -1)
    operator.setitem(d, "k", 1)
    operator.delitem(d, "a")
    y = operator.iconcat(x, [9])
    return x, d, y is x


def identity_kept(x: list[list[int]]) -> Any:
    biggest = max(x)
    biggest.append("m")
    smallest = min(x[0], x[1])
    smallest.append("n")
    first = collections.deque(x)[0]
    first.append("d")
    joined = operator.concat(x, [])
    return x, operator.is_(x, x), operator.is_not(x, x), joined[0] is x[0]


def tuples_and_dicts(x: list[list[int]]) -> Any:
    t = (x[0],) + (5,)
    t[0].append("t")
    merged = {"k": x[1]} | {"z": 1}
    merged["k"].append("d")
    return x, t, merged


def test_operator_functions_change_the_object_itself() -> None:
    check(mutated_through_operator, [1, 2, 3], {"a": 1})


def test_results_are_the_objects_themselves() -> None:
    check(identity_kept, [[1], [2, 0]])
    check(tuples_and_dicts, [[1], [2]])


def grow(s: set[int]) -> Any:
    for v in s:
        s.add(v + 100)
    return s


def swap(s: set[int]) -> Any:
    out = []
    for v in s:
        out.append(v)
        if v == 1:
            s.discard(1)
            s.add(50)
    return out


def _outcome(fn: Any, s: set[int]) -> Any:
    s = copy.copy(s)
    try:
        return fn(s), s
    except RuntimeError as e:
        return str(e), s


def test_a_set_passed_in_and_changed_while_iterated() -> None:
    for fn in (grow, swap):
        tracer.reset()
        assert _outcome(tracer.compile(fn), {1, 2, 3}) == _outcome(fn, {1, 2, 3})


def dict_inplace_or(d: dict[str, Any], x: Any) -> Any:
    alias = d
    d |= {"q": x}
    merged = operator.ior(alias, {"r": x})
    return d is alias, merged is d, d


def test_dict_inplace_or_updates_the_dict_itself() -> None:
    """`d |= x` made a new merged dict and rebound `d` (the input, and an alias, were not
    updated) when the values were not all constants."""
    import tracer.runtime as torch

    check(dict_inplace_or, {"a": torch.ones(1)}, torch.ones(2))
    check(dict_inplace_or, {"a": 1}, 2)


def whole_tuple(t: tuple[Any, ...], a: Any) -> Any:
    return t[:], t[a:], tuple(t), t[:] is t


def test_a_whole_tuple_is_the_tuple_itself() -> None:
    """CPython gives an exact tuple itself for `t[:]`, `t[None:]` and `tuple(t)`; the
    compiled code returned an equal new tuple."""
    check(whole_tuple, (1, [2]), None)


def exception_holds_the_list(lst: list[int], d: dict[str, int]) -> Any:
    try:
        raise ValueError(lst)
    except ValueError as e:
        e.args[0].append(5)
    later = KeyError(d)
    d["x"] = 1
    return lst, later, ValueError(lst).args[0] is lst, repr(later)


def slice_holds_the_list(lst: list[int]) -> Any:
    s = slice(lst)
    lst.append(1)
    return s, s.stop is lst


def test_exceptions_and_slices_hold_the_objects_themselves() -> None:
    """An exception made in the frame from a list or dict, and `slice(lst)`, held a copy made
    while tracing (the change made to the list afterwards was missing, `e.args[0] is lst`
    False): they fall back now."""
    from tracer.testing import assert_same_behavior

    assert_same_behavior(exception_holds_the_list, [1], {})
    assert_same_behavior(slice_holds_the_list, [])
