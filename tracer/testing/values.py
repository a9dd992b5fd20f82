"""Small helpers on runtime tensors shared by the strategies, perturbations and properties:
the dtypes the toolkit generates, `tensor_of('float32[2, 3]', values)` and its inverse
`spec_of`, and `describe(value)`, a one-line view of an input that shows each tensor's dtype
and shape (what guards are about).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from typing import Any

import tracer.runtime as torch

DTYPES: tuple[torch.dtype, ...] = (torch.float32, torch.float64, torch.int64, torch.bool)
FLOAT_DTYPES: tuple[torch.dtype, ...] = (torch.float32, torch.float64)
_DTYPE_BY_NAME = {repr(d).removeprefix("torch."): d for d in DTYPES}


def dtype_name(dtype: torch.dtype) -> str:
    """`float32` for `torch.float32`."""
    return repr(dtype).removeprefix("torch.")


def spec_of(t: torch.Tensor) -> str:
    """`float32[2, 3]`: the dtype and shape a TENSOR_MATCH guard pins."""
    return f"{dtype_name(t.dtype)}{list(t.shape)}"


def tensor_of(spec: str, values: Sequence[Any]) -> torch.Tensor:
    """Build a tensor from a spec like `'float32[2, 3]'` and its values in row-major order.
    Tensors drawn from `strategies.tensors()` print as this call, so examples paste back.

    >>> tensor_of('int64[2]', [1, 2])
    tensor([1, 2])
    >>> spec_of(tensor_of('float64[]', [0.5]))
    'float64[]'
    """
    match = re.fullmatch(r"(\w+)\[([\d, ]*)\]", spec)
    if match is None or match.group(1) not in _DTYPE_BY_NAME:
        raise ValueError(f"bad tensor spec {spec!r}; expected e.g. 'float32[2, 3]'")
    shape = tuple(int(s) for s in match.group(2).split(",") if s.strip())
    if math.prod(shape) != len(values):
        raise ValueError(f"{spec} needs {math.prod(shape)} values, got {len(values)}")
    return torch.tensor(list(values), dtype=_DTYPE_BY_NAME[match.group(1)]).reshape(shape)


def flat_values(t: torch.Tensor) -> list[Any]:
    """The elements of `t` in row-major order, as Python numbers."""
    out = t.tolist()
    while isinstance(out, list) and out and isinstance(out[0], list):
        out = [x for row in out for x in row]
    return out if isinstance(out, list) else [out]


def describe(value: Any) -> str:
    """A one-line view of an input with every tensor as `tensor(float32[2, 3]: [...])`.

    >>> describe((tensor_of('int64[2]', [1, 2]), {'k': [1.5]}))
    "(tensor(int64[2]: [1, 2]), {'k': [1.5]})"
    """
    if isinstance(value, torch.Tensor):
        values = flat_values(value) if value.numel() else []
        return f"tensor({spec_of(value)}: {values})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(describe(v) for v in value) + "]"
    if isinstance(value, tuple):
        items = [describe(v) for v in value]
        if hasattr(value, "_fields"):
            fields = ", ".join(f"{f}={i}" for f, i in zip(value._fields, items, strict=True))
            return f"{type(value).__name__}({fields})"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ", ".join(
            f"{f.name}={describe(getattr(value, f.name))}" for f in dataclasses.fields(value)
        )
        return f"{type(value).__name__}({fields})"
    return repr(value)
