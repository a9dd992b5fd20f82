"""What a torch-function mode sees and answers on real torch, compiled as eagerly:

- a mode's `__torch_function__` returning NotImplemented: torch asks the remaining handlers
  and raises TypeError when all decline ("Multiple dispatch failed", "unsupported operand");
  the trace ran the op (the runtime's own rule) and returned its value. It breaks there now,
  and the op runs eagerly;
- the `types` a mode is handed: torch's own answer, asked of torch on stand-in tensors (for
  `x.size()`, `x.stride()`, `x.is_contiguous()` and `x.sum(dim=0)` it passes no types; the
  trace passed `(Tensor,)`);
- the mode-stack functions called with arguments they refuse (an empty stack popped, an
  index out of range or not an int, an argument too many) raise torch's own errors;
- an op that fails on fake tensors writes nothing to stderr (torch's fake_tensor logger
  reported the meta error with a traceback).
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest

import tracer
from tests.real_torch import real_torch


def outcome(fn: Any, *args: Any) -> Any:
    try:
        result = fn(*args)
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return ("raised", type(e).__name__, str(e).split("\n")[0])
    return ("returned", result.tolist() if hasattr(result, "tolist") else result)


def declining_mode(torch: Any) -> Any:
    class Declines(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            if func.__name__ in ("mul", "__mul__"):
                return NotImplemented
            return func(*args, **(kwargs or {}))

    return Declines()


def method_mul(x: Any) -> Any:
    return x.mul(2) + 1


def operator_mul(x: Any) -> Any:
    return x * 2 + 1


@pytest.mark.parametrize("fn", [method_mul, operator_mul])
def test_a_mode_returning_not_implemented(fn: Any) -> None:
    torch = real_torch()
    with declining_mode(torch):
        expected = outcome(fn, torch.ones(2))
    compiled = tracer.compile(fn)
    for _ in range(2):
        with declining_mode(torch):
            assert outcome(compiled, torch.ones(2)) == expected
    assert expected[0] == "raised"


def test_the_types_a_mode_is_handed() -> None:
    torch = real_torch()
    seen: list[Any] = []

    class Types(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            seen.append((func.__name__, tuple(t.__name__ for t in types)))
            return func(*args, **(kwargs or {}))

    def fn(x: Any) -> Any:
        with Types():
            size, stride = x.size(), x.stride()
            contiguous = x.is_contiguous()
            return x.sum(dim=0) + x.neg().sum() + size[0] + stride[0] + contiguous + x.dim()

    eager: list[Any] = []
    for run in (fn, tracer.compile(fn)):
        seen.clear()
        run(torch.ones(2, 2))
        eager.append(list(seen))
    assert eager[1] == eager[0]
    assert ("size", ()) in eager[0]


def pop_empty(x: Any) -> Any:
    import torch

    y = x + 1
    torch._C._pop_torch_function_stack()
    return y


def index_too_big(x: Any) -> Any:
    import torch

    return x + 1, torch._C._get_function_stack_at(1)


def index_a_bool(x: Any) -> Any:
    import torch

    return x + 1, torch._C._get_function_stack_at(True)


def length_with_an_argument(x: Any) -> Any:
    import torch

    return x + 1, torch._C._len_torch_function_stack(1)


@pytest.mark.parametrize(
    ("fn", "modes"),
    [(pop_empty, 0), (index_too_big, 1), (index_a_bool, 2), (length_with_an_argument, 0)],
)
def test_mode_stack_functions_refusing_their_arguments(fn: Any, modes: int) -> None:
    torch = real_torch()

    class Passes(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
            return func(*args, **(kwargs or {}))

    def run(target: Any) -> Any:
        with contextlib.ExitStack() as stack:
            for _ in range(modes):
                stack.enter_context(Passes())
            return outcome(lambda x: target(x)[0] if modes else target(x), torch.ones(2))

    expected = run(fn)
    assert expected[0] == "raised"
    assert run(tracer.compile(fn)) == expected


def test_an_op_failing_on_fake_tensors_writes_nothing_to_stderr() -> None:
    torch = real_torch()

    def fn(x: Any) -> Any:
        return x + torch.ones(4)

    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        import logging

        handler = logging.StreamHandler(stderr)
        logging.getLogger("torch._subclasses.fake_tensor").addHandler(handler)
        try:
            assert outcome(tracer.compile(fn), torch.ones(3)) == outcome(fn, torch.ones(3))
        finally:
            logging.getLogger("torch._subclasses.fake_tensor").removeHandler(handler)
    assert stderr.getvalue() == ""
