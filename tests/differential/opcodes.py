"""`assert_uses`: a test of a construct first checks that CPython really compiles it to the
opcode under test (in the function or in a code object nested in it)."""

from __future__ import annotations

import dis
import types
from typing import Any


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
