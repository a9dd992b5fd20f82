"""Value computation on flat row-major lists: the kernel half of every op.

Kernels trust their meta function: shapes are already checked and broadcast, dtypes already
chosen. Floats are computed in double and float32 results rounded once at the end, which is
correctly rounded for + - * / and sqrt (53 >= 2 * 24 + 2 bits), so they match numpy float32.
`x != x` is the NaN test used throughout: it also works on ints and bools, and costs no call.
"""

from __future__ import annotations

import functools
import math
import operator
from array import array
from collections.abc import Callable, Sequence
from itertools import product, repeat
from typing import Any

from tracer.runtime import dtypes as dt
from tracer.runtime.dtypes import Scalar, dtype

Values = list[Any]
Walk = list[tuple[int, range]]

_INF = math.inf
_NAN = math.nan
_INT64_MIN = -(2**63)


# ---------------------------------------------------------------- conversions


def round_f32(values: Sequence[Any]) -> Values:
    """Each number rounded to the nearest float32, as a Python float: `array` stores each
    value with C's cast from double to float (round to nearest even, inf on overflow) and
    reads it back exactly. A value it cannot store raises its TypeError or OverflowError."""
    return array("f", values).tolist()


def _to_int(x: Any) -> int:
    try:
        return int(x)
    except (ValueError, OverflowError):  # nan/inf: torch gives an unspecified value
        return _INT64_MIN


# (source is floating, target) -> conversion; identity when the stored form is already right.
_CONVERT: dict[dtype, Callable[[Values, dtype], Values]] = {
    dt.float32: lambda v, src: v if src is dt.float32 else round_f32(v),
    dt.float64: lambda v, src: v if src.is_floating_point else [float(x) for x in v],
    dt.int64: lambda v, src: (
        v
        if src is dt.int64
        else [_to_int(x) for x in v]
        if src.is_floating_point
        else [int(x) for x in v]
    ),
    dt.bool_: lambda v, src: v if src is dt.bool_ else [x != 0 for x in v],
}


# dtype -> how an arbitrary Python number is stored (tensor construction, fill values).
_COERCE: dict[dtype, Callable[[Sequence[Any]], Values]] = {
    dt.float32: round_f32,
    dt.float64: lambda v: [float(x) for x in v],
    dt.int64: lambda v: [x if type(x) is int else _to_int(x) for x in v],
    dt.bool_: lambda v: [bool(x) for x in v],
}


def coerce(values: Sequence[Any], dst: dtype) -> Values:
    """Python numbers of any kind stored as `dst`."""
    return _COERCE[dst](values)


def convert(values: Values, src: dtype, dst: dtype) -> Values:
    """`values` stored as `src`, restored as `dst` (torch's `.to(dtype)` value semantics)."""
    return values if src is dst else _CONVERT[dst](values, src)


def convert_scalar(value: Scalar, dst: dtype) -> Scalar:
    """A Python number as a `dst` element (float32 scalars are rounded like stored data)."""
    result: Scalar = _COERCE[dst]([value])[0]
    return result


# ---------------------------------------------------------------- layout


def expand(data: Values, shape: tuple[int, ...], out: tuple[int, ...]) -> Values:
    """Broadcast `data` of `shape` to `out` by repeating blocks, innermost dim first."""
    if shape == out:
        return data
    if 0 in out:
        return []
    padded = (1,) * (len(out) - len(shape)) + shape
    block = 1
    for i in range(len(out) - 1, -1, -1):
        reps = out[i]
        if padded[i] == 1 and reps != 1:
            data = [x for k in range(0, len(data), block) for x in data[k : k + block] * reps]
        block *= reps
    return data


def gather(data: Values, base: int, walk: Walk) -> Values:
    """The elements a strided walk visits, in row-major order of the walk."""
    if walk and walk[-1][0] == 1 and walk[-1][1].step == 1:
        inner = walk[-1][1]
        starts = _offsets(base + inner.start, walk[:-1])
        n = len(inner)
        return [x for s in starts for x in data[s : s + n]]
    return [data[o] for o in _offsets(base, walk)]


def _offsets(base: int, walk: Walk) -> list[int]:
    offsets = [base]
    for stride, positions in walk:
        steps = [p * stride for p in positions]
        offsets = [o + s for o in offsets for s in steps]
    return offsets


def concat(chunks: list[tuple[Values, int]], outer: int) -> Values:
    """Interleave `outer` blocks of each (data, block size) pair, as cat along a dim does."""
    return [
        x for o in range(outer) for data, block in chunks for x in data[o * block : (o + 1) * block]
    ]


# ---------------------------------------------------------------- elementwise


def elementwise(fn: Callable[[Any, Any], Any], a: Any, b: Any, n: int) -> Values:
    """fn over two operands, each a full-length list or a single value that stands for
    every element (a broadcast 1-element tensor, or a Python number)."""
    if isinstance(a, list):
        if isinstance(b, list):
            return list(map(fn, a, b))
        return list(map(fn, a, repeat(b)))
    if isinstance(b, list):
        return list(map(fn, repeat(a), b))
    return [fn(a, b)] * n


def div(x: Any, y: Any) -> float:
    try:
        return x / y  # type: ignore[no-any-return]
    except ZeroDivisionError:
        if x != x or x == 0:  # noqa: PLR0124
            return _NAN
        return math.copysign(_INF, x) * math.copysign(1.0, y)


def int_pow(x: int, y: int) -> int:
    if y < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    result: int = x**y
    return result


def float_pow(x: float, y: float) -> float:
    try:
        return math.pow(x, y)
    except OverflowError:
        odd = y == int(y) and int(y) % 2 == 1
        return -_INF if x < 0 and odd else _INF
    except ValueError:
        if x == 0:  # 0 ** negative
            odd = y == int(y) and int(y) % 2 == 1
            return math.copysign(_INF, x) if odd else _INF
        return _NAN  # negative ** fractional


def maximum(x: Any, y: Any) -> Any:
    return x if x >= y or x != x else y  # noqa: PLR0124


def minimum(x: Any, y: Any) -> Any:
    return x if x <= y or x != x else y  # noqa: PLR0124


def int_floor_divide(x: int, y: int) -> int:
    if y == 0:
        raise RuntimeError("ZeroDivisionError")
    return x // y


def int_remainder(x: int, y: int) -> int:
    if y == 0:
        raise RuntimeError("ZeroDivisionError")
    return x % y


def float_remainder(x: float, y: float) -> float:
    """torch's remainder: C's fmod, moved into the divisor's sign (a zero keeps x's sign,
    where Python's `%` gives the divisor's)."""
    try:
        mod = math.fmod(x, y)
    except ValueError:  # y == 0 or x infinite
        return _NAN
    if mod != 0 and (y < 0) != (mod < 0):
        mod += y
    return mod


def float_floor_divide(x: float, y: float) -> float:
    """torch's floor division of floats: the quotient of x minus its fmod remainder, floored,
    rounded to the nearest integer; a zero divisor gives x / y's inf or nan."""
    if y == 0:
        return div(x, y)
    try:
        mod = math.fmod(x, y)
    except ValueError:  # x infinite
        return _NAN
    quotient = (x - mod) / y
    if mod != 0 and (y < 0) != (mod < 0):
        quotient -= 1.0
    if quotient == 0:
        return math.copysign(0.0, x / y)
    if math.isinf(quotient) or quotient != quotient:  # noqa: PLR0124
        return quotient
    floored = float(math.floor(quotient))
    return floored + 1.0 if quotient - floored > 0.5 else floored


_INT64_BITS = 64


def wrap_int64(x: int) -> int:
    """x in int64's two's complement range, as a C int64 holds it."""
    return (x + 2**63) % 2**64 - 2**63


def lshift(x: int, y: int) -> int:
    """int64 `<<`: a shift outside [0, 64) gives 0, the bits shifted out are lost."""
    return 0 if not 0 <= y < _INT64_BITS else wrap_int64(x << y)


def rshift(x: int, y: int) -> int:
    """int64 `>>` (arithmetic): a shift outside [0, 64) gives the sign, 0 or -1."""
    return (-1 if x < 0 else 0) if not 0 <= y < _INT64_BITS else x >> y


# ---------------------------------------------------------------- unary float functions


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return _INF


def _log(x: float) -> float:
    if x > 0 or x != x:  # noqa: PLR0124
        return math.log(x)
    return -_INF if x == 0 else _NAN


def _sqrt(x: float) -> float:
    return math.sqrt(x) if x >= 0 or x != x else _NAN  # noqa: PLR0124


def _periodic(fn: Callable[[float], float]) -> Callable[[float], float]:
    def safe(x: float) -> float:
        return fn(x) if math.isfinite(x) else _NAN

    return safe


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = _exp(x)
    return e / (1.0 + e)


def rsqrt(x: float) -> float:
    if x == 0:
        return math.copysign(_INF, x)
    return 1.0 / math.sqrt(x) if x > 0 or x != x else _NAN  # noqa: PLR0124


_SQRT_HALF = math.sqrt(0.5)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def gelu(x: float) -> float:
    """x times the standard normal CDF at x (the exact, erf form)."""
    return 0.5 * x * (1.0 + math.erf(x * _SQRT_HALF))


def gelu_tanh(x: float) -> float:
    """gelu's tanh approximation (`approximate='tanh'`)."""
    return 0.5 * x * (1.0 + math.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))


def silu(x: float) -> float:
    return x * sigmoid(x)


# name -> the per-element function: the math module's value, and torch's nan/inf where math
# would raise a domain or range error
UNARY_FLOAT: dict[str, Callable[[float], float]] = {
    "exp": _exp,
    "log": _log,
    "sqrt": _sqrt,
    "sin": _periodic(math.sin),
    "cos": _periodic(math.cos),
    "tanh": math.tanh,
    "sigmoid": sigmoid,
    "erf": math.erf,
    "rsqrt": rsqrt,
    "gelu": gelu,
    "gelu_tanh": gelu_tanh,
    "silu": _periodic(silu),
}


def unary_float(name: str, data: Values) -> Values:
    return list(map(UNARY_FLOAT[name], data))


def relu(data: Values, zero: Scalar) -> Values:
    return [x if x > 0 or x != x else zero for x in data]  # noqa: PLR0124


def neg(data: Values) -> Values:
    return list(map(operator.neg, data))


def bitwise_not(data: Values) -> Values:
    """`~` of int64s (two's complement) and bools (logical not)."""
    return [not x if type(x) is bool else ~x for x in data]


def absolute(data: Values) -> Values:
    return list(map(abs, data))


# ---------------------------------------------------------------- reductions and matmul


def reduce(fn: Callable[[Values], Any], data: Values, chunk: int, groups: int) -> Values:
    """fn over `groups` consecutive chunks of `chunk` elements each."""
    if chunk == 0:
        return [fn([])] * groups
    return [fn(data[k : k + chunk]) for k in range(0, len(data), chunk)]


def amax(values: Values) -> Any:
    """The largest value, NaN if any value is NaN (`max` alone skips a NaN after the first
    element). A NaN makes the plain `sum` NaN, so the element-by-element scan runs only when
    that sum is NaN: a NaN, or an inf and a -inf (also from an overflowing partial sum)."""
    largest = max(values)
    check = sum(values)
    if check != check and any(x != x for x in values):  # noqa: PLR0124
        return _NAN
    return largest


def total(values: Values) -> Any:
    """Exact sum of ints; correctly rounded sum of floats (plain sum once inf/nan are in)."""
    if not values or not isinstance(values[0], float):
        return sum(values)
    try:
        return math.fsum(values)
    except (ValueError, OverflowError):
        return sum(values)


def mean(values: Values) -> float:
    return total(values) / len(values) if values else _NAN


def matmul(a: Values, b: Values, n: int, k: int, m: int) -> Values:
    """(n x k) @ (k x m) on row-major lists: each element is its products added one at a time,
    left to right, to 0 with `+` (in double, or exactly for ints; an empty sum is 0), on every
    Python version. That is what 3.11's `sum` does; 3.12's `sum` compensates a float sum's
    rounding errors, so it is not used here (torch's kernels do not compensate either)."""
    rows = [a[i * k : (i + 1) * k] for i in range(n)]
    cols = [b[j::m] for j in range(m)]
    return [functools.reduce(operator.add, map(operator.mul, r, c), 0) for r in rows for c in cols]


def arg_reduce(
    data: Values, chunk: int, groups: int, better: Callable[[Any, Any], bool]
) -> tuple[Values, list[int]]:
    """Per group of `chunk` consecutive values: the best value and its first position
    (`better(new, best)` says when a later value replaces the best so far)."""
    values: Values = []
    indices: list[int] = []
    for g in range(groups):
        best_at = 0
        group = data[g * chunk : (g + 1) * chunk]
        for i in range(1, chunk):
            if better(group[i], group[best_at]):
                best_at = i
        values.append(group[best_at])
        indices.append(best_at)
    return values, indices


def greater(new: Any, best: Any) -> bool:
    """For max: a larger value or the first NaN wins (NaN propagates, as in torch)."""
    return bool(best == best and (new > best or new != new))  # noqa: PLR0124


def less(new: Any, best: Any) -> bool:
    return bool(best == best and (new < best or new != new))  # noqa: PLR0124


def einsum(
    operands: list[Values],
    terms: list[str],
    output: str,
    sizes: dict[str, int],
) -> Values:
    """Sum over the letters not in `output` of the product of the operands' elements: the
    plain loop einsum stands for, one output element at a time (floats in double)."""
    summed = [c for c in sizes if c not in output]
    strides = []
    for term in terms:
        step, table = 1, dict[str, int]()
        for c in reversed(term):
            table[c] = table.get(c, 0) + step
            step *= sizes[c]
        strides.append(table)
    result: Values = []
    for out_index in product(*(range(sizes[c]) for c in output)):
        fixed = dict(zip(output, out_index, strict=True))
        acc: Any = 0
        for inner in product(*(range(sizes[c]) for c in summed)):
            where = fixed | dict(zip(summed, inner, strict=True))
            term_product: Any = 1
            for data, table in zip(operands, strides, strict=True):
                term_product *= data[sum(where[c] * s for c, s in table.items())]
            acc += term_product
        result.append(acc)
    return result
