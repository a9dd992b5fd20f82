"""The examples in the observability docstrings stay true."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from tracer.observability import compile_context, events
from tracer.observability.metrics import context


@pytest.mark.parametrize("module", [compile_context, events, context], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0
