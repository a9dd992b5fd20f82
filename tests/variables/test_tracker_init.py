"""ConstantVariable, TensorVariable and LazyVariableTracker set `source` themselves instead of
calling VariableTracker.__init__ (they are built for nearly every instruction, op and global
load): that is sound only while the base initializer sets `source` and nothing else."""

from typing import Any

import tracer.runtime as torch
from guards.sources import LocalSource
from tracer.graph import Graph
from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.lazy import LazyVariableTracker
from variables.tensor import TensorVariable


class _Probe(VariableTracker):
    """No __slots__: anything the base initializer stored besides `source` lands in __dict__."""


def test_base_initializer_sets_only_source() -> None:
    assert VariableTracker.__slots__ == ("source",)
    probe = _Probe(LocalSource("x"))
    assert probe.source == LocalSource("x") and vars(probe) == {}


def test_hot_trackers_keep_their_source() -> None:
    source: Any = LocalSource("x")
    assert ConstantVariable(3, source).source is source
    assert ConstantVariable(3).source is None
    node = Graph().placeholder("x")
    fake = torch.ones(2)
    assert TensorVariable(node, fake, source).source is source
    assert TensorVariable(node, fake).source is None
    lazy = LazyVariableTracker(3, source, None)  # type: ignore[arg-type]
    assert lazy.source is source and not lazy.is_realized
