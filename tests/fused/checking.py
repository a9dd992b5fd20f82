"""`--fused-check`: every graph the test suite compiles with the eager backend also runs through
the fused backend, and the two must agree (values within float tolerance, exceptions by type
and message); the eager result is what the test sees, so the suite's own comparisons stay exact.

    .venv/bin/python -m pytest tests/differential --fused-check
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable
from typing import Any

import tracer.runtime as torch
from tracer import backends
from tracer.graph import GraphModule
from tracer.runtime.factories import _RNG

REL = 1e-5
ABS = 1e-6


def close(expected: Any, actual: Any, path: str = "return", scale: float = 0.0) -> None:
    """Same structure, types, shapes, dtypes and requires_grad; floats within tolerance.
    Tensors are read through their slots, so no torch-function mode sees the comparison.

    `scale` is the magnitude of the values the result was computed from: eager rounds each
    intermediate to float32, and a sum that cancels (`a + b + c` near 0) keeps the absolute
    error of its operands, relative to them and not to the small result."""
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
                bound = ABS + REL * max(abs(e), scale)
                assert abs(a - e) <= bound, f"{path}[{i}]: {a!r}, expected {e!r}"
            else:
                assert type(a) is type(e) and a == e, f"{path}[{i}]: {a!r}, expected {e!r}"
        return
    assert type(actual) is type(expected), path
    if isinstance(expected, tuple | list):
        assert len(actual) == len(expected), path
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            close(e, a, f"{path}[{i}]", scale)
    else:
        assert actual == expected, path


MISMATCHES: list[str] = []
"""What disagreed, for the session's report (a mismatch also raises AssertionError)."""


def checked_backend(gm: GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
    eager_fn = backends.eager(gm, example_inputs)
    fused_fn = backends.fused_backend()(gm, example_inputs)

    @functools.wraps(eager_fn)  # listings of the compiled frame name the graph's forward
    def run(*args: Any) -> Any:
        # a graph with in-place ops writes its inputs: fused runs on a copy taken before eager;
        # a graph with random ops draws: fused starts from the generator's state eager started
        # from, must leave the state eager left, and the test goes on from eager's
        fresh = copy.deepcopy(args)
        rng_before = _RNG.getstate()
        try:
            expected = eager_fn(*args)
        except Exception as eager_error:  # noqa: BLE001 - whatever it is, fused must raise it too
            try:
                fused_fn(*fresh)
            except Exception as fused_error:  # noqa: BLE001 - compared with eager's
                same = type(fused_error) is type(eager_error)
                if not (same and str(fused_error) == str(eager_error)):
                    _mismatch(gm, f"raised {fused_error!r}, eager raised {eager_error!r}")
                raise eager_error from None
            _mismatch(gm, f"returned, eager raised {eager_error!r}")
        rng_after = _RNG.getstate()
        try:
            scale = _magnitude(fresh)
            _RNG.setstate(rng_before)
            try:
                fused_result = fused_fn(*fresh)
                rng_fused = _RNG.getstate()
            finally:
                _RNG.setstate(rng_after)
            assert rng_fused == rng_after, "the random generator's state after the graph"
            close(expected, fused_result, scale=scale)
            for i, (written, fused_written) in enumerate(zip(args, fresh, strict=True)):
                if isinstance(written, torch.Tensor):
                    close(written, fused_written, f"argument {i}", scale)
        except AssertionError as e:
            _mismatch(gm, str(e))
        return expected

    return run


def _magnitude(args: tuple[Any, ...]) -> float:
    """The largest finite float in the tensor arguments (0.0 if none)."""
    found = [
        abs(v)
        for arg in args
        if isinstance(arg, torch.Tensor) and arg._data is not None
        for v in arg._data
        if isinstance(v, float) and math.isfinite(v)
    ]
    return max(found, default=0.0)


def _mismatch(gm: GraphModule, what: str) -> None:
    MISMATCHES.append(f"{what}\n{gm.code}")
    raise AssertionError(f"fused backend disagrees with eager: {what}\n{gm.code}")
