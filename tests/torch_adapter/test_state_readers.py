"""Readers of global state the GLOBAL_STATE guard pins, `torch.get_default_dtype()`,
`torch.are_deterministic_algorithms_enabled()` and `torch.is_autocast_enabled()`, are folded
while tracing, as in Dynamo (no break: before, each was "call to C function ... not
supported"); changing that state afterwards misses the guard and recompiles, with the eager
result."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


@contextlib.contextmanager
def default_dtype(torch: Any, dtype: Any) -> Iterator[None]:
    before = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(before)


def test_the_default_dtype_is_read_while_tracing_and_guarded() -> None:
    torch = real_torch()

    def to_default(x: Any) -> Any:
        return x.to(torch.get_default_dtype()) * 2, torch.get_default_dtype()

    x = torch.ones(2, dtype=torch.float16)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(to_default)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.break_reasons == [], comparison
    compiled = tracer.compile(to_default)
    assert compiled(x)[1] == torch.float32
    with default_dtype(torch, torch.float64):
        result = compiled(x)
        assert result[1] == torch.float64 and result[0].dtype == torch.float64
    assert len(compiled.entries) == 2
    assert "default_dtype" in " ".join(compiled.last_miss_reasons)


def test_the_deterministic_flag_is_read_while_tracing_and_guarded() -> None:
    torch = real_torch()

    def flagged(x: Any) -> Any:
        return x + (1 if torch.are_deterministic_algorithms_enabled() else 2)

    compiled = tracer.compile(flagged)
    x = torch.zeros(2)
    assert compiled(x).tolist() == [2.0, 2.0]
    explanation = tracer.explain(flagged)(x)
    assert explanation.graph_count == 1 and explanation.break_reasons == []
    torch.use_deterministic_algorithms(True)
    try:
        assert compiled(x).tolist() == [1.0, 1.0]
    finally:
        torch.use_deterministic_algorithms(False)
    assert compiled(x).tolist() == [2.0, 2.0] and len(compiled.entries) == 2


def test_autocast_state_is_read_while_tracing_and_guarded() -> None:
    """`torch.is_autocast_enabled(device_type)` is folded while autocast is off everywhere,
    which GLOBAL_STATE's `any_autocast` part pins; a device type torch does not know breaks
    (the eager call raises)."""
    torch = real_torch()

    def autocast_aware(x: Any) -> Any:
        on = torch.is_autocast_enabled("cpu") or torch.is_autocast_enabled()
        return x * (3 if on else 2), torch.is_autocast_enabled("cuda")

    x = torch.ones(2)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(autocast_aware)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.break_reasons == [], comparison
    compiled = tracer.compile(autocast_aware)
    assert compiled(x)[0].tolist() == [2.0, 2.0]
    with torch.autocast("cpu"):
        assert compiled(x)[0].tolist() == autocast_aware(x)[0].tolist() == [3.0, 3.0]
    assert len(compiled.entries) == 2  # (x's TENSOR_MATCH sees the autocast dispatch key too)
    assert compiled(x)[0].tolist() == [2.0, 2.0] and len(compiled.entries) == 2

    # no tensor: only GLOBAL_STATE's part tells the two apart (a global `torch`, so that the
    # trace is torch's: tests/torch_adapter/test_world_choice.py)
    scope: dict[str, Any] = {"torch": torch}
    exec("def flag_only():\n    return torch.is_autocast_enabled('cpu')", scope)  # noqa: S102
    flag = tracer.compile(scope["flag_only"])
    assert flag() is False
    with torch.autocast("cpu"):
        assert flag() is True
    assert "any_autocast == False" in " ".join(flag.last_miss_reasons)

    def unknown_device(x: Any) -> Any:
        return x + torch.is_autocast_enabled("no-such-device")

    compiled_unknown = tracer.compile(unknown_device)
    with pytest.raises(RuntimeError, match="no-such-device"):
        compiled_unknown(x)  # the frame runs eagerly, and torch raises its own error
    assert "raised" in str(compiled_unknown.entries[0].break_reason)


def test_a_backend_flag_is_read_while_tracing_and_guarded() -> None:
    """`torch.backends.cuda.matmul.allow_tf32` (its class's `__getattr__` calls
    `torch._C._get_cublas_allow_tf32()`) is folded; that trace alone gets a GLOBAL_STATE part
    for it, and flipping the flag misses it."""
    torch = real_torch()

    def scaled(x: Any) -> Any:
        return x * (2 if torch.backends.cuda.matmul.allow_tf32 else 3)

    x = torch.ones(2)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(scaled)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.break_reasons == [], comparison
    compiled = tracer.compile(scaled)
    before = torch.backends.cuda.matmul.allow_tf32
    try:
        assert torch.equal(compiled(x), scaled(x))
        torch.backends.cuda.matmul.allow_tf32 = not before
        assert torch.equal(compiled(x), scaled(x))
    finally:
        torch.backends.cuda.matmul.allow_tf32 = before
    reasons = compiled.last_miss_reasons or []
    assert any("cublas_allow_tf32" in r for r in reasons), reasons
    guards = "\n".join(tracer.explain(lambda t: t + 1)(x).guards)
    assert "cublas_allow_tf32" not in guards  # a trace that does not read it is not pinned


def test_constants_made_by_torch_constructors_are_folded() -> None:
    """`torch.finfo(x.dtype).min` (attention masks), `torch.device("cpu")`, `torch.Size`."""
    torch = real_torch()

    def masks(x: Any) -> Any:
        low = torch.finfo(x.dtype).min
        bits = torch.iinfo(torch.int8).bits
        moved = x.to(torch.device("cpu"))
        return moved.masked_fill(x > 0, low), bits, torch.Size([2, x.shape[0]])

    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(masks)(torch.randn(3))
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.break_reasons == [], comparison


def test_whether_jit_tracing_is_read_while_tracing_and_guarded() -> None:
    """`torch.jit.is_tracing()` asks `torch._C._is_tracing()`, which library code asks too
    (`pad_sequence`): folded, with a GLOBAL_STATE part `is_tracing` in the traces that read it.
    Dynamo folds it to False without a guard; the graphs agree (before, modetrace broke there:
    2 graphs against 1)."""
    torch = real_torch()

    def padded(x: Any) -> Any:
        return torch.nn.utils.rnn.pad_sequence([x[0, :2], x[1]], batch_first=True)

    x = torch.randn(2, 3)
    with contextlib.redirect_stdout(io.StringIO()):
        comparison = tracer.compare(padded)(x)
    assert comparison.results_agree and comparison.same_graphs, comparison
    assert comparison.modetrace.break_reasons == [], comparison
    entry = tracer.trace(padded)(x)
    assert any("is_tracing=False" in str(guard) for guard in entry.guards), entry.guards
