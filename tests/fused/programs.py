"""Hypothesis programs for the fused backend: straight-line tensor code over pointwise,
broadcast, view and reduction ops, comparisons and `where`, written as source so the tracer
traces it like user code.

Each step applies one op to values made so far and knows the shape it produces, so every
generated program is well-shaped; `shape_error_programs` adds one broadcast of mismatched
shapes. Values stay in ranges where float32 rounding of intermediates cannot overflow (exp of
a tanh, log of 1 + abs, division by 1 + abs): the fused kernels compute intermediates in double
and round once when storing (notes/fused-backend.md), eager rounds after every op.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

import tracer.runtime as torch

Shape = tuple[int, ...]

UNARY = [
    "({x}).sin()",
    "({x}).cos()",
    "torch.tanh({x})",
    "({x}).sigmoid()",
    "({x}).relu()",
    "-({x})",
    "({x}).abs()",
    "torch.exp(torch.tanh({x}))",
    "torch.log(({x}).abs() + 1)",
    "torch.sqrt(({x}).abs())",
    "({x}) * 0.5",
    "2.0 - ({x})",
    "({x}) + 1",
]
COMPARE = ["<", "<=", ">", ">=", "==", "!="]
SELECT = [
    "torch.where(({a}) {op} ({b}), {a}, {c})",
    "torch.where(({a}) {op} 0.5, {c}, 0.0)",
    "({c}).where(({b}) {op} ({a}), -1.5)",
]
BINARY = [
    "({a}) + ({b})",
    "({a}) - ({b})",
    "({a}) * ({b})",
    "({a}) / (({b}).abs() + 1)",
    "torch.maximum({a}, {b})",
    "torch.minimum({a}, {b})",
    "torch.add({a}, {b}, alpha=2)",
]


def broadcast(a: Shape, b: Shape) -> Shape | None:
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(pa, pb, strict=True):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y) if 0 not in (x, y) else 0)
    return tuple(out)


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    rank = draw(st.integers(0, 3))
    return tuple(draw(st.sampled_from([1, 2, 3, 4])) for _ in range(rank))


@st.composite
def tensors(draw: st.DrawFn, shape: Shape, dtype: Any) -> Any:
    n = math.prod(shape)
    values = draw(st.lists(st.floats(-3, 3, width=32), min_size=n, max_size=n))
    return (
        torch.tensor(values, dtype=dtype).reshape(shape)
        if shape
        else torch.tensor(values[0], dtype=dtype)
    )


@st.composite
def programs(draw: st.DrawFn, shape_error: bool = False) -> tuple[str, list[Any]]:
    """(source of `def f(...)`, its arguments)."""
    dtype = draw(st.sampled_from([torch.float32, torch.float64]))
    count = draw(st.integers(1, 3))
    values: list[tuple[str, Shape]] = []
    args = []
    for i in range(count):
        shape = draw(shapes())
        if i and draw(st.booleans()) and values[0][1]:  # a trailing part of the first shape
            first = values[0][1]
            shape = first[draw(st.integers(0, len(first))) :]
        args.append(draw(tensors(shape, dtype)))
        values.append((f"a{i}", shape))
    lines = []
    compared: list[str] = []
    for step in range(draw(st.integers(1, 7))):
        name = f"t{step}"
        kind = draw(
            st.sampled_from(["unary", "binary", "view", "reduce", "binary", "compare", "select"])
        )
        src, shape = draw(st.sampled_from(values))
        expr: str | None = None
        out: Shape | None = None
        if kind == "unary":
            expr, out = draw(st.sampled_from(UNARY)).format(x=src), shape
        elif kind == "binary":
            other, other_shape = draw(st.sampled_from(values))
            out = broadcast(shape, other_shape)
            if out is not None:
                expr = draw(st.sampled_from(BINARY)).format(a=src, b=other)
        elif kind == "compare":  # a bool result: returned, not an operand of later steps
            other, other_shape = draw(st.sampled_from(values))
            if broadcast(shape, other_shape) is not None:
                op = draw(st.sampled_from(COMPARE))
                lines.append(f"    {name} = ({src}) {op} ({other})")
                compared.append(name)
            continue
        elif kind == "select":
            (b, sb), (c, sc) = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            template = draw(st.sampled_from(SELECT))
            # the result broadcasts the operands the template uses (not always all three)
            out = shape
            for key, other_shape in (("{b}", sb), ("{c}", sc)):
                if key in template and out is not None:
                    out = broadcast(out, other_shape)
            if out is not None:
                expr = template.format(a=src, b=b, c=c, op=draw(st.sampled_from(COMPARE)))
        elif kind == "view" and shape:
            expr, out = _view(draw, src, shape)
        elif kind == "reduce" and shape:
            dim = draw(st.integers(-len(shape), len(shape) - 1))
            keepdim = draw(st.booleans())
            fn = draw(st.sampled_from(["sum", "mean", "amax"]))
            d = dim % len(shape)
            if fn == "amax" and shape[d] == 0:
                continue
            expr = f"({src}).{fn}({dim}, keepdim={keepdim})"
            out = shape[:d] + ((1,) if keepdim else ()) + shape[d + 1 :]
        if expr is None or out is None:
            continue
        lines.append(f"    {name} = {expr}")
        values.append((name, out))
    if shape_error:
        for a, sa in values:
            for b, sb in values:
                if broadcast(sa, sb) is None:
                    lines.append(f"    bad = {a} + {b}")
                    break
            else:
                continue
            break
        else:
            lines.append("    bad = (a0 + torch.ones(5, 7)) + torch.ones(3)")
    results = [name for name, _ in values[count:]][-3:] + compared[-1:] or ["a0 * 1"]
    params = ", ".join(f"a{i}" for i in range(count))
    source = f"def f({params}):\n" + "\n".join(lines) + f"\n    return ({', '.join(results)},)\n"
    return source, args


def _view(draw: st.DrawFn, src: str, shape: Shape) -> tuple[str, Shape]:
    rank = len(shape)
    choice = draw(st.sampled_from(["T", "transpose", "permute", "reshape", "unsqueeze", "squeeze"]))
    if choice == "T" and rank == 2:
        return f"({src}).T", shape[::-1]
    if choice == "transpose" and rank >= 2:
        i, j = draw(st.integers(0, rank - 1)), draw(st.integers(0, rank - 1))
        out = list(shape)
        out[i], out[j] = out[j], out[i]
        return f"({src}).transpose({i}, {j})", tuple(out)
    if choice == "permute":
        perm = draw(st.permutations(range(rank)))
        return f"({src}).permute({', '.join(map(str, perm))})", tuple(shape[p] for p in perm)
    if choice == "unsqueeze":
        d = draw(st.integers(0, rank))
        return f"({src}).unsqueeze({d})", shape[:d] + (1,) + shape[d:]
    if choice == "squeeze":
        return f"({src}).squeeze()", tuple(s for s in shape if s != 1)
    n = math.prod(shape)
    out = (n,) if draw(st.booleans()) or n % 2 else (2, n // 2)
    return f"({src}).reshape({', '.join(map(str, out))})", out


def build(source: str) -> Any:
    namespace: dict[str, Any] = {"torch": torch}
    exec(compile(source, "<fused-program>", "exec"), namespace)  # noqa: S102
    return namespace["f"]
