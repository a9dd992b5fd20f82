"""`dynamic=True` makes int and float inputs symbolic, but modetrace has no symbolic sizes: a
tensor of a new shape recompiles, and the recompile says plainly that shapes are static (in
the `recompiles` log, the compile's metrics record and a warning)."""

from __future__ import annotations

from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.observability import logs
from tracer.observability.metrics import get_compilation_metrics


def scaled(x: Any, n: int) -> Any:
    return x * n


def test_a_new_shape_under_dynamic_true_says_shapes_are_static(
    capsys: pytest.CaptureFixture[str],
) -> None:
    compiled = tracer.compile(scaled, dynamic=True)
    compiled(torch.ones(2), 3)
    compiled(torch.ones(2), 4)  # ints are symbolic with dynamic=True: no recompile
    assert len(compiled.entries) == 1
    logs.set_logs("recompiles")
    try:
        with pytest.warns(UserWarning, match="shapes are static in modetrace"):
            compiled(torch.ones(5), 4)
    finally:
        logs.set_logs()
    assert len(compiled.entries) == 2
    note = (
        "L['x'] changed shape from (2,) to (5,): shapes are static in modetrace, even with "
        "dynamic=True"
    )
    assert note in capsys.readouterr().err
    record = get_compilation_metrics()[-1]
    assert record.recompile_reason is not None and note in record.recompile_reason


def test_without_dynamic_true_a_new_shape_says_nothing_more(
    recwarn: pytest.WarningsRecorder,
) -> None:
    compiled = tracer.compile(scaled)
    compiled(torch.ones(2), 3)
    compiled(torch.ones(5), 3)
    assert len(compiled.entries) == 2
    record = get_compilation_metrics()[-1]
    assert "shapes are static" not in (record.recompile_reason or "")
    assert not [w for w in recwarn if "shapes are static" in str(w.message)]
