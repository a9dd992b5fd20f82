"""torch's tensor printout: `tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64)`.

One formatter per tensor picks the float style from all printed values (integer-valued floats
print as `1.`, a wide range or tiny values switch to scientific, else 4 decimals) and pads every
element to one width; rows wrap at 80 columns and tensors over 1000 elements are summarized
with their first and last 3 entries per dim, as torch's defaults do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tracer.runtime import dtypes as dt

LINE_WIDTH = 80
THRESHOLD = 1000
EDGE_ITEMS = 3
PRECISION = 4
# dtypes torch leaves out of the printout because they are what `tensor(...)` infers.
_IMPLIED_DTYPES = (dt.float32, dt.int64, dt.bool_)


class _Formatter:
    """How every element of one tensor prints (style and common width)."""

    def __init__(self, values: Sequence[Any], floating: bool) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        if not floating:
            self.width = max((len(str(v)) for v in values), default=1)
            return
        shown = [v for v in values if math.isfinite(v) and v != 0]
        if shown:
            magnitudes = [abs(v) for v in shown]
            lo, hi = min(magnitudes), max(magnitudes)
            self.int_mode = all(v == math.ceil(v) for v in shown)
            wide = hi / lo > 1000.0 or hi > 1.0e8
            self.sci_mode = wide if self.int_mode else wide or lo < 1.0e-4
        self.width = max((len(self.text(v)) for v in shown), default=1)

    def text(self, value: Any) -> str:
        if not self.floating:
            return str(value)
        if self.sci_mode:
            return f"{value:.{PRECISION}e}"
        if self.int_mode:
            return f"{value:.0f}" + ("." if math.isfinite(value) else "")
        return f"{value:.{PRECISION}f}"

    def __call__(self, value: Any) -> str:
        return self.text(value).rjust(self.width)

    def __repr__(self) -> str:
        style = "sci" if self.sci_mode else "int" if self.int_mode else "fixed"
        return f"_Formatter({style}, width={self.width})"


def _summarized(data: Sequence[Any], shape: tuple[int, ...]) -> list[Any]:
    """The values a summarized printout shows (used to choose the format)."""
    if not shape:
        return list(data)
    step = len(data) // shape[0] if shape[0] else 0
    rows = range(shape[0])
    if shape[0] > 2 * EDGE_ITEMS:
        rows = [*range(EDGE_ITEMS), *range(shape[0] - EDGE_ITEMS, shape[0])]  # type: ignore[assignment]
    return [v for r in rows for v in _summarized(data[r * step : (r + 1) * step], shape[1:])]


def _body(
    data: Sequence[Any], shape: tuple[int, ...], fmt: _Formatter, indent: int, summarize: bool
) -> str:
    if not shape:
        return fmt(data[0])
    n = shape[0]
    cut = summarize and n > 2 * EDGE_ITEMS
    rows: list[int | None] = (
        [*range(EDGE_ITEMS), None, *range(n - EDGE_ITEMS, n)] if cut else list(range(n))
    )
    if len(shape) == 1:
        items = [" ..." if r is None else fmt(data[r]) for r in rows]
        per_line = max(1, (LINE_WIDTH - indent) // (fmt.width + 2))
        lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    step = len(data) // n
    blocks = [
        "..."
        if r is None
        else _body(data[r * step : (r + 1) * step], shape[1:], fmt, indent + 1, summarize)
        for r in rows
    ]
    return "[" + ("," + "\n" * (len(shape) - 1) + " " * (indent + 1)).join(blocks) + "]"


def tensor_repr(data: Sequence[Any], shape: tuple[int, ...], dtype: dt.dtype, grad: bool) -> str:
    prefix = "tensor("
    extras = []
    if not data:
        body = "[]"
        if shape != (0,):
            extras.append(f"size={shape}")
        if dtype is not dt.float32:
            extras.append(f"dtype={dtype!r}")
    else:
        summarize = len(data) > THRESHOLD
        shown = _summarized(data, shape) if summarize else data
        fmt = _Formatter(shown, dtype.is_floating_point)
        body = _body(data, shape, fmt, len(prefix), summarize)
        if dtype not in _IMPLIED_DTYPES:
            extras.append(f"dtype={dtype!r}")
    if grad:
        extras.append("requires_grad=True")
    return prefix + ", ".join([body, *extras]) + ")"
