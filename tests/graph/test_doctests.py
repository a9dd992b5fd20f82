"""The examples in tracer/graph docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["naming", "node", "graph", "graph_module", "interpreter"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"tracer.graph.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} lost its examples"
    assert result.failed == 0
