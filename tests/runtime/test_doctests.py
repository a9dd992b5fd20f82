"""The examples in the runtime's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import tracer.runtime

MODULES = [m.name for m in pkgutil.iter_modules(tracer.runtime.__path__, "tracer.runtime.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.failed == 0
