"""Inlining refuses coroutine functions (check_code_supported names the kind), makes a
generator tracker for generator functions, and passes plain functions straight through."""

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def gen(x: Any) -> Any:
    yield x + 1


async def coro(x: Any) -> Any:
    return x + 1


def plain(x: Any) -> Any:
    return x * 2


def calls_gen(x: Any) -> Any:
    return next(gen(x)) * 2


def calls_coro(x: Any) -> Any:
    c = coro(x)
    c.close()
    return x * 2


def calls_plain(x: Any) -> Any:
    return plain(x) + 1


@pytest.mark.parametrize(("fn", "what"), [(calls_coro, "coroutine function coro")])
def test_coroutine_helpers_break(fn: Any, what: str) -> None:
    explanation = tracer.explain(fn)(torch.ones(2))
    # the call resumes; the resume function then breaks on the coroutine it was handed
    assert explanation.break_reasons[0].kind == "unsupported-function"
    assert f"call to {what} is not supported" in str(explanation.break_reasons[0])
    assert_same_behavior(fn, torch.ones(2))


def test_plain_helper_inlines() -> None:
    explanation = tracer.explain(calls_plain)(torch.ones(2))
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1


def gen_with_default(x: Any, k: int = 1) -> Any:
    yield x + k


def calls_gen_with_default(x: Any) -> Any:
    return next(gen_with_default(x)) * 2


@pytest.mark.parametrize("fn", [calls_gen, calls_gen_with_default])
def test_generator_helpers_inline(fn: Any) -> None:
    explanation = tracer.explain(fn)(torch.ones(2))
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1
    assert_same_behavior(fn, torch.ones(2))
