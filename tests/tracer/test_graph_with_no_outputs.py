"""A graph none of whose results the frame needs afterwards (`(x + 1).shape`) is compiled and
called when it calls anything, as Dynamo compiles a graph with `count_calls(graph) != 0` and
drops its empty result: the graph count and ops per graph are Dynamo's
(tests/torch_adapter/test_programs.py, "only the shape of a result"). Before, such a frame
compiled no graph at all. (The runtime's passes then drop its pure ops; torch's ops stay.)"""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch
from tests.differential.helpers import check


def shape_of_a_sum(x: Any) -> Any:
    return (x + 1).shape, x.size(0)


def metadata_only(x: Any) -> Any:
    return x.shape, x.dtype


def test_a_graph_whose_results_are_not_needed_still_runs() -> None:
    check(shape_of_a_sum, torch.ones(2, 3))
    tracer.reset()
    explained = tracer.explain(shape_of_a_sum)(torch.ones(2, 3))
    assert explained.graph_count == 1
    (gm,) = explained.graphs  # (after the runtime's passes, which drop the unused pure add)
    assert "return ()" in gm.code


def test_a_frame_that_calls_nothing_has_no_graph() -> None:
    check(metadata_only, torch.ones(2, 3))
    tracer.reset()
    assert tracer.explain(metadata_only)(torch.ones(2, 3)).graph_count == 0
