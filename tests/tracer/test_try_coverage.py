"""A tensor op under a user `try` breaks the graph, whether the `try` is in the op's own frame
or in a caller that is stopped at the call (in_try_block works the callers' part out once per
inlined frame, so these tests call the same helper from inside and outside a `try`)."""

from typing import Any

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def double(x: Any) -> Any:
    return x * 2


def caller_try(x: Any) -> Any:
    y = double(x)  # outside the try: traced
    try:
        z = double(y)  # inside: the op is covered by the caller's try
    except ValueError:
        z = y
    return z + 1


def try_without_ops(x: Any, n: int) -> Any:
    try:
        n = n + 1
    except ValueError:
        n = 0
    return double(x) + n


def own_try(x: Any) -> Any:
    try:
        return x - 1
    except ValueError:
        return x


def test_op_under_a_callers_try_breaks() -> None:
    explanation = tracer.explain(caller_try)(torch.ones(2))
    # the break inside double makes caller_try's call of it the break, and that call is in
    # caller_try's try block: the frame runs eagerly with the try-block reason around the op's
    assert [r.kind for r in explanation.break_reasons] == ["graph break in try block"]
    assert "try/except around a tensor op (torch.mul)" in str(explanation.break_reasons[0])
    assert "test_try_coverage.py:13 in double" in str(explanation.break_reasons[0])
    assert_same_behavior(caller_try, torch.ones(2))


def test_op_after_a_try_block_is_traced() -> None:
    explanation = tracer.explain(try_without_ops)(torch.ones(2), 3)
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1
    assert_same_behavior(try_without_ops, torch.ones(2), 3)


def test_op_under_its_own_try_breaks() -> None:
    explanation = tracer.explain(own_try)(torch.ones(2))
    # the op (`x - 1`, BINARY_OP) is the break, as a call would be: in a try block, the frame
    # runs eagerly with the try-block reason around the op's
    assert [r.kind for r in explanation.break_reasons] == ["graph break in try block"]
    assert "try/except around a tensor op" in str(explanation.break_reasons[0])
    assert_same_behavior(own_try, torch.ones(2))


def quad(x: Any) -> Any:
    return double(double(x))


def nested_without_try(x: Any) -> Any:
    y = x + 1  # from here the root is known never to be in a try
    return quad(y) + quad(y)


def calls_a_helper_with_its_own_try(x: Any) -> Any:
    y = x + 1
    return double(own_try(y))


def test_helpers_of_a_caller_never_in_a_try_are_traced() -> None:
    """A helper without `try` or `with` called by a frame known never to be in a `try` knows
    it at once (TranslatorBase.__init__); a helper with its own `try` still works it out."""
    explanation = tracer.explain(nested_without_try)(torch.ones(2))
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1
    assert_same_behavior(nested_without_try, torch.ones(2))
    explanation = tracer.explain(calls_a_helper_with_its_own_try)(torch.ones(2))
    # the caller's call of own_try is the break, and own_try, compiled as its own frame,
    # breaks at its try again
    kinds = ["try-block", "graph break in try block"]
    assert [r.kind for r in explanation.break_reasons] == kinds
    assert "in own_try" in str(explanation.break_reasons[0])
    assert_same_behavior(calls_a_helper_with_its_own_try, torch.ones(2))
