"""Samples about the edges of tracing: graph breaks with their reasons, a recompile caused by a
dtype change, and a guard failure explained without running anything."""

from __future__ import annotations

from typing import Any

import tracer.runtime as torch
from samples.spec import Sample


def prints(x: Any) -> Any:
    y = x * 2
    print("  (the sample printed this)", y.shape)
    return y + 1


def data_dependent(x: Any) -> Any:
    if x.sum() > 0:
        return x + 1
    return x - 1


def dtype_recompile(x: Any) -> Any:
    return (x * 2).exp()


def guarded_scale(x: Any, n: int) -> Any:
    return x.sum(dim=0) * n


SAMPLES = [
    Sample(
        "graph break on print",
        "print is not traced: the frame falls back to Python and says why, with file:line",
        prints,
        inputs=lambda: (torch.arange(3.0),),
    ),
    Sample(
        "data-dependent branch",
        "`if` on a tensor's value cannot be decided while tracing: a graph break",
        data_dependent,
        inputs=lambda: (torch.arange(3.0),),
    ),
    Sample(
        "recompile on dtype change",
        "float32 then float64: the TENSOR_MATCH guard fails and a second entry is compiled",
        dtype_recompile,
        inputs=lambda: (torch.arange(3.0),),
        then_call_with=lambda: (torch.arange(3.0).double(),),
    ),
    Sample(
        "guard failure explained",
        "tracer.trace(fn)(*args).failure(*other) names the guard other inputs fail",
        guarded_scale,
        inputs=lambda: (torch.ones(2, 3), 3),
        failure_with=lambda: (torch.ones(2, 3), 4),
    ),
]
