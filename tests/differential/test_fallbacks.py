"""Constructs the tracer cannot capture fall back to Python with one graph break whose reason
names the user's file:line and the construct, and the result stays correct (no fullgraph)."""

from __future__ import annotations

import inspect
import os
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tests.differential.helpers import FAST
from tests.differential.strategies import broadcastable_pairs, float_tensors, tensors
from tracer.testing import assert_same_behavior

THIS_FILE = os.path.basename(__file__)


def uses_open(x):
    y = x + 1
    with open(__file__) as fh:  # construct: open
        first = fh.readline()
    return y * 2, first.startswith('"""')


def numbers(x):
    yield x
    yield x + 1


def uses_generator(x):
    g = numbers(x)
    first = next(g)
    assert not g.gi_running  # construct: generator
    return [first * 2, first]


def uses_try_except(x, y):
    try:
        z = x + y  # construct: try
    except RuntimeError as e:
        z = str(e)
    return z


def uses_generator_expression(xs):
    return sum(gen := (v * 2 for v in xs)), gen  # construct: generator


def data_dependent_branch(x):
    if x.sum() > 0:  # construct: data-dependent
        return x + 1
    return x - 1


def uses_print(x):
    y = x * 3
    print("value computed")  # construct: print
    return y


def uses_time(x):
    start = time.time()  # construct: time
    return x + 1, start > 0


def uses_random(x):
    r = random.random()  # construct: random
    return x * 2, 0.0 <= r < 1.0


def construct_line(fn):
    """The line of `fn` marked `# construct:`."""
    lines, first = inspect.getsourcelines(fn)
    (offset,) = [i for i, line in enumerate(lines) if "# construct:" in line]
    return first + offset


def assert_one_break(fn, args, words):
    explanation = tracer.explain(fn)(*args)
    # the first break is the construct's; a break that resumes may meet another one later
    # (`with open(...)`: the call resumes, the `with` on its result then breaks)
    assert explanation.graph_break_count >= 1, str(explanation)
    reason = explanation.break_reasons[0]
    text = str(reason)
    assert f"{THIS_FILE}:{construct_line(fn)}" in text, text
    assert any(word in text.lower() for word in words), text
    with pytest.raises(tracer.Unsupported) as info:
        tracer.compile(fn, fullgraph=True)(*args)
    assert f"{THIS_FILE}:{construct_line(fn)}" in str(info.value)
    return explanation


def test_open_falls_back():
    x = torch.tensor([1.0, 2.0])
    explanation = assert_one_break(uses_open, (x,), ["open"])
    assert explanation.result[0].tolist() == [4.0, 6.0]
    assert_same_behavior(uses_open, x)


@FAST
@given(x=tensors())
def test_generator_falls_back(x):
    explanation = assert_one_break(uses_generator, (x,), ["generator"])
    assert len(explanation.result) == 2
    assert_same_behavior(uses_generator, x)


@FAST
@given(xs=st.lists(st.integers(-5, 5), max_size=4))
def test_generator_expression_falls_back(xs):
    # A generator expression consumed in the frame traces (tests/differential/
    # test_generators.py); one that is returned escapes the frame and falls back.
    explanation = assert_one_break(uses_generator_expression, (xs,), ["generator"])
    assert explanation.result[0] == sum(v * 2 for v in xs)
    assert list(explanation.result[1]) == []


@FAST
@given(pair=broadcastable_pairs())
def test_try_except_falls_back(pair):
    """A tensor op inside `try` could raise when the graph runs, where no handler sees it."""
    assert_one_break(uses_try_except, pair, ["try"])
    assert_same_behavior(uses_try_except, *pair)


def test_try_except_around_a_shape_error_traces():
    """Shapes that can't broadcast raise while tracing (the shapes are guarded): the handler
    is traced, and the frame has no graph at all."""
    pair = (torch.ones(2), torch.ones(3))
    explanation = tracer.explain(uses_try_except)(*pair)
    assert explanation.graph_break_count == 0, str(explanation)
    assert_same_behavior(uses_try_except, *pair)


@FAST
@given(x=float_tensors(min_dims=1, min_side=1))
def test_data_dependent_branch_falls_back(x):
    explanation = assert_one_break(data_dependent_branch, (x,), ["data", "if"])
    expected = x + 1 if x.sum() > 0 else x - 1
    assert explanation.result.tolist() == expected.tolist()
    assert_same_behavior(data_dependent_branch, x)


def test_print_falls_back():
    x = torch.tensor([1, 2])
    assert_one_break(uses_print, (x,), ["print"])
    # the print runs in the eager call and in each compiled call: assert_same_behavior
    # records each run's stdout and compares them
    assert assert_same_behavior(uses_print, x).stdout == "value computed\n"


@FAST
@given(x=tensors())
def test_time_falls_back(x):
    assert_one_break(uses_time, (x,), ["time"])
    assert_same_behavior(uses_time, x)


@FAST
@given(x=tensors())
def test_random_falls_back(x):
    assert_one_break(uses_random, (x,), ["random"])
    assert_same_behavior(uses_random, x)
