"""A graph break inside a display that unpacks (`{**d, 'z': t.item()}`, `[*xs, print(y) or
y]`, `(*xs, t.item())`, `f(**kw, z=...)`) leaves the container being built on the stack; the
resume function gets it as an input and finishes it with the display's own instructions
(DICT_UPDATE, LIST_APPEND, LIST_TO_TUPLE, SET_ADD, DICT_MERGE). Those instructions once
asserted the container was one made in the frame, and the resume function failed with an
InternalError (`make test`'s fuzz found `{**{...}, 'z': int(t.sum().item())}`); the container
is an existing object there, whose changes are recorded and replayed."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def dict_display(d: dict[str, int], t: Any) -> Any:
    return {**d, "z": int(t.sum().item())}


def nested_dict_display_in_a_loop(d: dict[str, int], t: Any) -> Any:
    # the fuzz's program, as written: the inner display is the point
    out = []
    for k in {**{**(d | {"a": 1}), "z": 3}, "z": int(t.sum().item())}:  # noqa: PIE800
        out.append(k)  # noqa: PERF402
    return out


def list_display(xs: list[int], y: int) -> Any:
    return [*xs, print(y) or y, *xs]


def tuple_display(xs: list[int], t: Any) -> Any:
    return (*xs, t.sum().item())


def set_display(xs: list[int], y: int) -> Any:
    return sorted({*xs, print(y) or y})


def keyword_unpacking(kw: dict[str, int], t: Any) -> Any:
    def f(**kwargs: Any) -> Any:
        return sorted(kwargs.items())

    return f(**kw, z=t.sum().item())


def dict_of_the_callers(d: dict[str, int], t: Any) -> Any:
    """The display's dict is the caller's own only through `**`: it is copied first."""
    built = {**d, "z": int(t.sum().item())}
    return built, built is d, d


CASES = [
    (dict_display, lambda: ({"x": 8, "a": 9}, torch.ones(2))),
    (nested_dict_display_in_a_loop, lambda: ({"x": 8}, torch.ones(2))),
    (list_display, lambda: ([1, 2], 5)),
    (tuple_display, lambda: ([1, 2], torch.ones(3))),
    (set_display, lambda: ([3, 1], 2)),
    (keyword_unpacking, lambda: ({"a": 1}, torch.ones(2))),
    (dict_of_the_callers, lambda: ({"x": 1}, torch.ones(2))),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].__name__)
def test_a_break_inside_a_display_resumes(case: Any) -> None:
    fn, make_args = case
    tracer.reset()
    assert_same_behavior(fn, *make_args())
    tracer.reset()
    explained = tracer.explain(fn)(*make_args())
    assert explained.graph_break_count >= 1
    assert not any("runs eagerly" in str(r) for r in explained.break_reasons), [
        str(r) for r in explained.break_reasons
    ]
