"""`--fused-check`: every graph the test suite compiles with the eager backend also runs through
the fused backend, and the two must agree (values within float tolerance, exceptions by type
and message); the eager result is what the test sees, so the suite's own comparisons stay exact.

    .venv/bin/python -m pytest tests/differential --fused-check
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import tracer.runtime as torch
from tracer import backends
from tracer.graph import GraphModule

REL = 1e-5
ABS = 1e-6


def close(expected: Any, actual: Any, path: str = "return") -> None:
    """Same structure, types, shapes, dtypes and requires_grad; floats within tolerance.
    Tensors are read through their slots, so no torch-function mode sees the comparison."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(actual, torch.Tensor), path
        assert type(actual) is type(expected), path
        assert actual._shape == expected._shape, f"{path}: shape {actual._shape}"
        assert actual._dtype is expected._dtype, f"{path}: dtype {actual._dtype}"
        assert actual.requires_grad == expected.requires_grad, f"{path}: requires_grad"
        assert actual._data is not None and expected._data is not None, path
        for i, (e, a) in enumerate(zip(expected._data, actual._data, strict=True)):
            if isinstance(e, float) and (math.isnan(e) or math.isinf(e)):
                assert repr(a) == repr(e), f"{path}[{i}]: {a!r}, expected {e!r}"
            elif isinstance(e, float):
                assert abs(a - e) <= ABS + REL * abs(e), f"{path}[{i}]: {a!r}, expected {e!r}"
            else:
                assert type(a) is type(e) and a == e, f"{path}[{i}]: {a!r}, expected {e!r}"
        return
    assert type(actual) is type(expected), path
    if isinstance(expected, tuple | list):
        assert len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            close(e, a, f"{path}[{i}]")
    else:
        assert actual == expected, path


MISMATCHES: list[str] = []
"""What disagreed, for the session's report (a mismatch also raises AssertionError)."""


def checked_backend(gm: GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
    eager_fn = backends.eager(gm, example_inputs)
    fused_fn = backends.fused_backend()(gm, example_inputs)

    @functools.wraps(eager_fn)  # listings of the compiled frame name the graph's forward
    def run(*args: Any) -> Any:
        try:
            expected = eager_fn(*args)
        except Exception as eager_error:  # noqa: BLE001 - whatever it is, fused must raise it too
            try:
                fused_fn(*args)
            except Exception as fused_error:  # noqa: BLE001 - compared with eager's
                same = type(fused_error) is type(eager_error)
                if not (same and str(fused_error) == str(eager_error)):
                    _mismatch(gm, f"raised {fused_error!r}, eager raised {eager_error!r}")
                raise eager_error from None
            _mismatch(gm, f"returned, eager raised {eager_error!r}")
        try:
            close(expected, fused_fn(*args))
        except AssertionError as e:
            _mismatch(gm, str(e))
        return expected

    return run


def _mismatch(gm: GraphModule, what: str) -> None:
    MISMATCHES.append(f"{what}\n{gm.code}")
    raise AssertionError(f"fused backend disagrees with eager: {what}\n{gm.code}")
