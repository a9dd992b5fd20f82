"""TensorVariable answers is_python_constant directly; it must agree with as_python_constant."""

from __future__ import annotations

import pytest

import tracer.runtime as torch
from tracer.graph import Graph
from variables.base import NotConstantError, VariableTracker
from variables.tensor import TensorVariable


def test_a_tensor_is_never_a_python_constant() -> None:
    node = Graph().placeholder("x")
    vt = TensorVariable(node, torch.FakeTensor.from_tensor(torch.ones(2)))
    assert vt.is_python_constant() is False
    assert VariableTracker.is_python_constant(vt) is False  # the generic answer agrees
    with pytest.raises(NotConstantError):
        vt.as_python_constant()
