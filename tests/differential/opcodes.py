"""`assert_uses`: a test of a construct first checks that CPython really compiles it to the
opcode under test (in the function or in a code object nested in it); `assert_traced_whole`:
then that the function traces with no graph break."""

from __future__ import annotations

import dis
import types
from typing import Any

import tracer


def opcodes(code: types.CodeType) -> set[str]:
    """Every opcode name in `code` and in the code objects among its constants."""
    names = {inst.opname for inst in dis.get_instructions(code)}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= opcodes(const)
    return names


def assert_uses(fn: Any, *opnames: str) -> None:
    found = opcodes(fn.__code__)
    missing = [name for name in opnames if name not in found]
    assert not missing, f"{fn.__qualname__} does not use {missing}"


def assert_traced_whole(fn: Any, *args: Any) -> None:
    """`fn(*args)` compiles with no graph break: under fullgraph a break raises Unsupported,
    while an exception the function itself raises is just its outcome."""
    compiled = tracer.compile(fn, fullgraph=True)
    try:
        compiled(*args)
    except tracer.Unsupported:
        raise
    except Exception:  # noqa: BLE001, S110 - the function's own exception
        pass
