"""Every side-effects test starts and ends with an empty compile cache and an empty mode stack."""

from collections.abc import Iterator

import pytest

import tracer
import tracer.runtime as torch


@pytest.fixture(autouse=True)
def _reset_tracer_and_mode_stack() -> Iterator[None]:
    tracer.reset()
    torch._C._set_torch_function_mode_stack([])
    yield
    leftover = torch._C._len_torch_function_stack()
    torch._C._set_torch_function_mode_stack([])
    tracer.reset()
    assert leftover == 0, f"test left {leftover} mode(s) on the torch function mode stack"
