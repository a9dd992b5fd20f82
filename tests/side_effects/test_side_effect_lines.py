"""Side-effect lines and bytecode listings show values as a reader names them (`L['name']`,
`'sin'`, `torch.sin`, `<tensor add: float32[2]>`), never tracker internals such as
`LazyVariableTracker(unrealized: ...)` or `TensorVariable(...)`."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch


class Logger(torch.overrides.TorchFunctionMode):
    def __init__(self) -> None:
        self.ops: list[Any] = []
        self.last: Any = None

    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        self.ops.append(func)
        self.ops.append(func.__name__)
        return func(*args, **(kwargs or {}))


class PassMode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        return func(*args, **(kwargs or {}))


def records(x: Any, logger: Logger, name: str, cfg: dict[str, int]) -> Any:
    logger.ops.append(name)
    logger.last = cfg
    with logger:
        y = x.sin()
    logger.ops.append(y)
    logger.ops.append((name, 1))
    return y


def test_side_effect_lines_show_values_not_trackers() -> None:
    explanation = tracer.explain(records)(torch.ones(2), Logger(), "nm", {"a": 1})
    assert explanation.graph_break_count == 0
    ops, last = explanation.side_effects
    assert ops == (
        "L['logger'].ops[:] = [L['name'], torch.sin, 'sin', <tensor sin: float32[2]>, "
        "(L['name'], 1)]  # last change: append"
    )
    assert last == "L['logger'].last = L['cfg']"
    for line in explanation.side_effects:
        assert "Variable" not in line and "unrealized" not in line


def pushes(x: Any) -> Any:
    torch._C._push_on_torch_function_stack(PassMode())
    return x + 1


def test_a_mode_made_in_the_frame_is_shown_by_its_class() -> None:
    try:
        explanation = tracer.explain(pushes)(torch.ones(2))
    finally:
        while torch._C._len_torch_function_stack():
            torch._C._pop_torch_function_stack()
    assert explanation.side_effects == ["mode stack = [<new PassMode>]"]


def test_bytecode_listing_shows_load_const_none() -> None:
    explanation = tracer.explain(records)(torch.ones(2), Logger(), "nm", {"a": 1})
    listing = explanation.entries[0].bytecode_listing().splitlines()
    assert "  LOAD_CONST       None" in listing  # the `[:]` slice's bounds
    assert all(line.split()[0] != "LOAD_CONST" or len(line.split()) == 2 for line in listing)
