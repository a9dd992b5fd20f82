"""Why a compiled function recompiled, in words: one reason per cache entry (newest first) in
the `recompiles` log, in CompiledFunction.last_miss_reasons and in the compile's metrics; the
recompile limit warns once and runs eagerly; `on_recompile="error"` raises instead."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.observability import logs
from tracer.observability.metrics import get_compilation_metrics
from tracer.runtime import _C
from tracer.runtime.overrides import TorchFunctionMode

SCALE = 2


class PassThroughMode(TorchFunctionMode):
    """A mode that runs every op unchanged."""

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        return func(*args, **(kwargs or {}))


def scaled(x, n):
    return x * n * SCALE


LINE = scaled.__code__.co_firstlineno + 1


def total(xs):
    t = xs[0]
    for v in xs[1:]:
        t = t + v
    return t


@pytest.fixture(autouse=True)
def _fresh_frame_ids() -> None:
    tracer.reset()  # compile ids in the expected texts start at 0/0


@pytest.fixture
def recompile_log(capsys: pytest.CaptureFixture[str]) -> Iterator[pytest.CaptureFixture[str]]:
    logs.set_logs("recompiles")
    try:
        yield capsys
    finally:
        logs.set_logs()


def reasons_after(fn: Any, first: tuple[Any, ...], second: tuple[Any, ...]) -> list[str]:
    compiled = tracer.compile(fn, dynamic=False)  # value changes recompile (no automatic dynamic)
    compiled(*first)
    compiled(*second)
    assert len(compiled.entries) == 2
    return compiled.last_miss_reasons


def test_dtype_change() -> None:
    reasons = reasons_after(scaled, (torch.ones(4), 1), (torch.ones(4, dtype=torch.float64), 1))
    expected = (
        "0/0: L['x'].dtype == torch.float32 (actual torch.float64), "
        f'from "return x * n * SCALE" at test_recompile_reasons.py:{LINE}'
    )
    assert reasons == [expected]


def test_shape_change() -> None:
    [reason] = reasons_after(scaled, (torch.ones(4), 1), (torch.ones(2, 3), 1))
    assert reason.startswith("0/0: L['x'].shape == (4,) (actual (2, 3)), from ")


def test_list_length_change() -> None:
    x = torch.ones(4)
    [reason] = reasons_after(total, ([x, x],), ([x, x, x],))
    assert reason.startswith("0/0: len(L['xs']) == 2 (actual 3), from ")


def test_constant_change() -> None:
    [reason] = reasons_after(scaled, (torch.ones(4), 1), (torch.ones(4), 2))
    assert reason.startswith("0/0: L['n'] == 1 (actual 2), from ")


def test_constant_type_change_is_exact() -> None:
    [reason] = reasons_after(scaled, (torch.ones(4), 1), (torch.ones(4), True))
    assert reason.startswith("0/0: L['n'] == 1 (actual True), from ")


def test_global_change(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = tracer.compile(scaled, dynamic=False)
    compiled(torch.ones(4), 1)
    monkeypatch.setitem(globals(), "SCALE", 3)
    compiled(torch.ones(4), 1)
    [reason] = compiled.last_miss_reasons
    assert reason.startswith("0/0: G['SCALE'] == 2 (actual 3), from ")


def test_mode_stack_change() -> None:
    compiled = tracer.compile(scaled, dynamic=False)
    x = torch.ones(4)
    compiled(x, 1)
    _C._push_on_torch_function_stack(PassThroughMode())
    try:
        result = compiled(x, 1)
    finally:
        _C._pop_torch_function_stack()
    assert result.tolist() == [2.0] * 4
    [reason] = compiled.last_miss_reasons
    assert reason.startswith("0/0: mode stack: expected [] (actual [PassThroughMode]), from ")
    compiled(x, 1)  # the empty stack hits the first entry again
    assert len(compiled.entries) == 2


def test_one_reason_per_entry_newest_first() -> None:
    compiled = tracer.compile(scaled, dynamic=False)
    for n in (1, 2, 3):
        compiled(torch.ones(4), n)
    assert [r.split(":")[0] for r in compiled.last_miss_reasons] == ["0/1", "0/0"]
    assert compiled.last_miss_reasons[0].startswith("0/1: L['n'] == 2 (actual 3)")


def test_recompiles_log_format(recompile_log: pytest.CaptureFixture[str]) -> None:
    compiled = tracer.compile(scaled, dynamic=False)
    compiled(torch.ones(4), 1)
    compiled(torch.ones(4), 2)
    err = recompile_log.readouterr().err.splitlines()
    line = scaled.__code__.co_firstlineno
    assert err[0] == (
        f"[modetrace.recompiles] Recompiling function scaled in test_recompile_reasons.py:{line} "
        "triggered by the following guard failure(s):"
    )
    assert err[1].startswith("    0/0: L['n'] == 1 (actual 2), from ")
    assert len(err) == 2


def test_no_log_when_topic_off(capsys: pytest.CaptureFixture[str]) -> None:
    compiled = tracer.compile(scaled, dynamic=False)
    compiled(torch.ones(4), 1)
    compiled(torch.ones(4), 2)
    assert "Recompiling" not in capsys.readouterr().err


def test_reason_reaches_compilation_metrics() -> None:
    compiled = tracer.compile(scaled, dynamic=False)
    compiled(torch.ones(4), 1)
    compiled(torch.ones(4), 2)
    metrics = [m for m in get_compilation_metrics() if m.co_name == "scaled"][-2:]
    assert metrics[0].recompile_reason is None
    assert metrics[1].recompile_reason == compiled.last_miss_reasons[0]


def test_recompile_limit_warns_once_then_runs_eagerly() -> None:
    compiled = tracer.compile(scaled, recompile_limit=2, dynamic=False)
    x = torch.ones(4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in (1, 2, 3, 4, 5):
            assert compiled(x, n).tolist() == [2.0 * n] * 4
    assert len(compiled.entries) == 2
    [warning] = [w for w in caught if "recompile_limit" in str(w.message)]
    text = str(warning.message)
    assert "recompile_limit (2)" in text
    assert "scaled (" in text and "test_recompile_reasons.py" in text
    assert "0/1: L['n'] == 2 (actual 3)" in text
    assert "0/0: L['n'] == 1 (actual 3)" in text
    assert warning.filename == __file__  # points at the caller


def test_on_recompile_error_raises_with_reasons() -> None:
    compiled = tracer.compile(scaled, on_recompile="error", dynamic=False)
    compiled(torch.ones(4), 1)
    with pytest.raises(tracer.RecompileError) as info:
        compiled(torch.ones(4), 2)
    header = (
        "Recompiling function scaled in test_recompile_reasons.py:"
        f"{scaled.__code__.co_firstlineno} triggered by the following guard failure(s):"
    )
    assert str(info.value).splitlines()[0] == header
    assert len(str(info.value).splitlines()) == 2
    assert "L['n'] == 1 (actual 2)" in str(info.value)
    assert compiled(torch.ones(4), 1).tolist() == [2.0] * 4  # hits still work
