"""The runtime's mode-stack functions called with arguments they refuse raise the runtime's
own errors, compiled as eagerly: an argument too many (the tracer's handler raised an
InternalError), an index that is out of range or no int, an empty stack popped."""

from __future__ import annotations

from typing import Any

import pytest

import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def length_with_an_argument(x: Any) -> Any:
    return x + 1, torch._C._len_torch_function_stack(1)


def pop_with_an_argument(x: Any) -> Any:
    return x + 1, torch._C._pop_torch_function_stack(1)


def push_nothing(x: Any) -> Any:
    return x + 1, torch._C._push_on_torch_function_stack()


def index_out_of_range(x: Any) -> Any:
    return x + 1, torch._C._get_function_stack_at(3)


def index_by_keyword(x: Any) -> Any:
    return x + 1, torch._C._get_function_stack_at(index=0)


def pop_empty(x: Any) -> Any:
    return x + 1, torch._C._pop_torch_function_stack()


@pytest.mark.parametrize(
    "fn",
    [
        length_with_an_argument,
        pop_with_an_argument,
        push_nothing,
        index_out_of_range,
        index_by_keyword,
        pop_empty,
    ],
)
def test_a_refused_call_raises_the_runtimes_error(fn: Any) -> None:
    assert_same_behavior(fn, torch.ones(2))
