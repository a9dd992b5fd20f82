"""Graph nodes -> loop-level values: what one node computes at one index of its output.

A lowered value is one of
  - `View`: elements of a buffer (a graph input, a runtime call's result, or a buffer a kernel
    stored) read through strides: permute, transpose, reshape of contiguous data, squeeze and
    unsqueeze are all index arithmetic over the same buffer;
  - `Pointwise`: an expression per element, built from its operands' expressions (an
    operand broadcast to the output reads index 0 along its size-1 dims);
  - `Reduction`: sum, mean or amax of a value over some dims.
Only floating tensors are lowered (float32 and float64: values are computed in double as the
runtime's kernels do); any other node stays a call into the runtime (`lower_node` returns None).
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import re
from collections.abc import Callable
from typing import Any

from tracer.fused.index import Ix, contiguous_strides, linear
from tracer.graph.naming import target_op
from tracer.graph.node import Node
from tracer.graph.resolve import resolve_method, resolve_operator, static_type
from tracer.runtime import kernels, meta
from tracer.runtime.tensor import Tensor

Shape = tuple[int, ...]
Load = Callable[[str, Ix], str]
"""Renders a read of buffer `name` at a storage position (the kernel decides how)."""


@dataclasses.dataclass
class View:
    buffer: str
    shape: Shape
    strides: list[int]
    offset: int = 0
    exact: bool = True
    """The buffer holds eager's values, bit for bit (`holds_eager_values`): false for a
    kernel's stored pointwise value (computed in double, rounded only when `forward` wraps
    it) and for a reduction of such a value."""

    def expr(self, index: list[Ix], load: Load) -> str:
        return load(self.buffer, linear(index, self.strides, self.offset))

    @property
    def contiguous(self) -> bool:
        return self.offset == 0 and all(
            s == c or n == 1
            for s, c, n in zip(
                self.strides, contiguous_strides(self.shape), self.shape, strict=True
            )
        )


@dataclasses.dataclass
class Pointwise:
    shape: Shape
    render: Callable[[list[Ix], Load], str]

    def expr(self, index: list[Ix], load: Load) -> str:
        return self.render(index, load)


@dataclasses.dataclass
class Reduction:
    kind: str  # "sum", "mean", "amax"
    source: View | Pointwise
    dims: tuple[int, ...]
    keepdim: bool
    shape: Shape  # the result's


Value = View | Pointwise | Reduction
Operand = View | Pointwise | float


def holds_eager_values(value: Value) -> bool:
    """Is the kernel's value of every element exactly the one eager stores (a float32 value as
    the same double)? True for a buffer eager's values fill, and for a reduction of one: the
    kernel calls the runtime's own reduction on the same elements and rounds a float32 sum or
    mean once, as eager stores it (`to_float32`; the largest of float32 values is one of them).
    False for a pointwise value, which the kernel keeps in double where eager rounds after
    every op, and for anything computed from one."""
    if isinstance(value, View):
        return value.exact
    if isinstance(value, Reduction):
        return isinstance(value.source, View) and value.source.exact
    return False


@dataclasses.dataclass
class Lowering:
    """What `lower_node` found: the op's name, its value, and the helpers its text calls."""

    name: str
    value: Value
    helpers: dict[str, Any]


REDUCTIONS = {"sum": kernels.total, "mean": kernels.mean, "amax": kernels.amax}
"""The runtime's own per-group reduction functions, called by the kernels on each group."""


def mean_in_double(values: list[float]) -> float:
    """Python's `sum` of the values over their count; nan for no values, as `kernels.mean`."""
    return sum(values) / len(values) if values else math.nan


def reduction_function(reduction: Reduction, dtype_name: str) -> tuple[str, Any]:
    """The name a kernel calls a reduction by, and the function. The runtime's own (`total`
    is the correctly rounded `math.fsum`), so the result is eager's bit for bit, where it can
    be: over eager's values (`holds_eager_values`), and in float64, where the kernel computes
    what eager computes, in double. A float32 sum or mean of values the kernel computed in
    double is not eager's whatever the sum: eager rounds each value to float32 before summing
    (an error of up to 2**-24 of each), which the kernel does not. Python's `sum` adds them in
    double, left to right (an error below n * 2**-53 of their magnitudes, which moves the
    float32 result much less), several times faster than `fsum`; like `fsum` it gives +0.0
    for a sum of zeros, and inf or nan where `kernels.total` does."""
    kind = reduction.kind
    if kind != "amax" and dtype_name == "float32" and not holds_eager_values(reduction):
        if kind == "sum":
            return "sum", sum
        return "mean_in_double", mean_in_double
    return ("total" if kind == "sum" else kind), REDUCTIONS[kind]


def to_float32(value: float) -> float:
    """One value rounded to float32, as eager stores it (the runtime's `round_f32`): a kernel
    rounds a float32 sum or mean where eager stores it, once per output element."""
    rounded: float = kernels.round_f32((value,))[0]
    return rounded


_BINARY_TEXT = {"add": "({a} + {b})", "sub": "({a} - {b})", "mul": "({a} * {b})"}
_UNARY_HELPERS = dict(kernels.UNARY_FLOAT)
VIEW_OPS = frozenset(
    {"reshape", "view", "permute", "transpose", "T", "unsqueeze", "squeeze", "contiguous"}
)
"""The ops lowered as index arithmetic over their input, for the kernels that read them.
Eager's result of one is its input or a view sharing its storage (a reshape of scattered
elements is a copy), so where one is needed as a tensor `forward` calls the runtime's op
instead (`runtime_views` in `compiler.py`)."""
_POINTWISE_OPS = {
    *_BINARY_TEXT,
    "div",
    "rsub",
    "rdiv",
    "neg",
    "positive",
    "abs",
    "relu",
    "maximum",
    "minimum",
    *_UNARY_HELPERS,
}
_COMPARE_TEXT = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
LOWERED_OPS = frozenset(
    _POINTWISE_OPS | VIEW_OPS | set(REDUCTIONS) | set(_COMPARE_TEXT) | {"where"}
)


def _op_info(node: Node) -> tuple[Any, tuple[Any, ...]]:
    """The runtime op's info a call node reaches (None if none), and its arguments in the
    order of the op's signature (a reflected operator swaps them)."""
    args = node.args
    info: Any = None
    if node.op == "call_function":
        info = target_op(node.target)
        if info is None and not node.kwargs:
            found = resolve_operator(node.target, [static_type(a) for a in args])
            if found is not None:
                info, reflected = found
                args = args[::-1] if reflected else args
    elif node.op == "call_method" and args:
        info = resolve_method(args[0], str(node.target))
    return info, args


def writes_input(node: Node) -> bool:
    """Is the node an in-place op (`add_`, `zero_`, `x += y`): does it write a tensor?"""
    info, _ = _op_info(node)
    if info is None:
        return False
    name: str = info.name
    in_place_dunder = name.startswith("__i") and name.endswith("__") and name != "__init__"
    return in_place_dunder or (name.endswith("_") and not name.startswith("__"))


def resolve(node: Node) -> tuple[str, inspect.BoundArguments] | None:
    """The runtime op a call node reaches (canonical name) and its bound arguments."""
    info, args = _op_info(node)
    kwargs = node.kwargs
    if info is None or writes_input(node):
        return None  # an in-place op writes its input: it stays a runtime call
    name = {"__rsub__": "rsub", "__rdiv__": "rdiv", "__rtruediv__": "rdiv"}.get(info.name)
    name = name or info.name.strip("_")
    if name not in LOWERED_OPS:
        return None
    try:
        bound = inspect.signature(info.impl).bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    return name, bound


def _floating(val: Any) -> bool:
    return isinstance(val, Tensor) and val._dtype.is_floating_point


def lower_node(node: Node, values: dict[Node, Value]) -> Lowering | None:
    """The node's lowered value, or None when it stays a runtime call."""
    val = node.meta.get("val")
    if not isinstance(val, Tensor):
        return None
    found = resolve(node)
    if found is None:
        return None
    name, bound = found
    helpers: dict[str, Any] = {}
    if name in _COMPARE_TEXT or name == "where":
        selected = _selection(name, bound.arguments, values, val, helpers)
        return None if selected is None else Lowering(name, selected, helpers)
    if not val._dtype.is_floating_point:
        return None
    params = list(bound.arguments.values())
    operands = params[0:1] if name in VIEW_OPS | set(REDUCTIONS) else params
    if not all(_usable(p, values) for p in operands):
        return None
    out_shape: Shape = tuple(val._shape)
    try:
        if name in VIEW_OPS:
            value = _view(name, values[params[0]], params[1:], out_shape)
        elif name in REDUCTIONS:
            value = _reduction(name, params, values, out_shape)
        else:
            temp = f"t_{node.name}"
            value = _pointwise(name, params, bound.arguments, values, val, helpers, temp)
    except _NotLowered:
        return None
    return None if value is None else Lowering(name, value, helpers)


class _NotLowered(Exception):
    pass


def _usable(arg: Any, values: dict[Node, Value]) -> bool:
    if isinstance(arg, Node):
        return arg in values and _floating(arg.meta.get("val"))
    return type(arg) in (int, float, bool)


# ---------------------------------------------------------------- views


def _view(name: str, source: Value, rest: list[Any], out: Shape) -> Value | None:
    if name == "contiguous":
        return source
    in_shape = _shape(source)
    if name in ("permute", "transpose", "T"):
        if name == "permute":
            # the trace checked the arguments: here they only need wrapping
            dims = meta.size_args(rest[0], "dims")
            perm = tuple(meta.wrap_dim(d, len(in_shape)) for d in dims)
        elif name == "transpose":
            i, j = (meta.wrap_dim(d, len(in_shape)) for d in rest[:2])
            swapped = list(range(len(in_shape)))
            swapped[i], swapped[j] = j, i
            perm = tuple(swapped)
        else:
            perm = tuple(range(len(in_shape) - 1, -1, -1))
        if isinstance(source, View):
            return View(
                source.buffer, out, [source.strides[p] for p in perm], source.offset, source.exact
            )
        return _reindex(source, out, lambda ix: [ix[perm.index(k)] for k in range(len(perm))])
    if name == "unsqueeze":
        d = meta.wrap_dim(rest[0], len(in_shape) + 1)
        if isinstance(source, View):
            strides = source.strides[:d] + [0] + source.strides[d:]
            return View(source.buffer, out, strides, source.offset, source.exact)
        return _reindex(source, out, lambda ix: ix[:d] + ix[d + 1 :])
    if name == "squeeze":  # the dims that go have size 1: they read index 0
        which = rest[0] if rest else None
        if which is None:
            gone = {k for k, size in enumerate(in_shape) if size == 1}
        else:
            dims = (which,) if isinstance(which, int) else tuple(which)
            wrapped = {meta.wrap_dim(d, len(in_shape)) for d in dims}
            gone = {k for k in wrapped if in_shape and in_shape[k] == 1}
        kept = [k for k in range(len(in_shape)) if k not in gone]
        if isinstance(source, View):
            return View(
                source.buffer, out, [source.strides[k] for k in kept], source.offset, source.exact
            )

        def unsqueeze_back(ix: list[Ix]) -> list[Ix]:
            found = iter(ix)
            return [Ix() if k in gone else next(found) for k in range(len(in_shape))]

        return _reindex(source, out, unsqueeze_back)
    # reshape / view: a contiguous buffer takes new strides; anything else goes through the
    # flat row-major position
    if isinstance(source, View) and source.contiguous:
        return View(source.buffer, out, contiguous_strides(out), source.offset, source.exact)
    out_strides = contiguous_strides(out)
    in_strides = contiguous_strides(in_shape)

    def split(ix: list[Ix]) -> list[Ix]:
        flat = linear(ix, out_strides)
        return [
            Ix() if size == 1 else flat.floordiv_mod(stride, None if k == 0 else size)
            for k, (size, stride) in enumerate(zip(in_shape, in_strides, strict=True))
        ]

    return _reindex(source, out, split)


def _reindex(
    source: Value,
    out: Shape,
    mapping: Callable[[list[Ix]], list[Ix]],
) -> Value:
    """`source` read at `mapping(index)` (a pointwise value seen through a view)."""
    if isinstance(source, Reduction):
        raise _NotLowered  # reductions are stored before anything reads them
    readable: View | Pointwise = source
    return Pointwise(out, lambda ix, load: readable.expr(mapping(ix), load))


def _shape(value: Value) -> Shape:
    return value.shape


# ---------------------------------------------------------------- reductions


def _reduction(name: str, params: list[Any], values: dict[Node, Value], out: Shape) -> Value:
    source = values[params[0]]
    in_shape = _shape(source)
    dim = params[1] if len(params) > 1 else None
    keepdim = bool(params[2]) if len(params) > 2 else False
    if isinstance(source, Reduction):
        raise _NotLowered
    dims = meta.reduction_dims(in_shape, dim)
    return Reduction(name, source, dims, keepdim, out)


# ---------------------------------------------------------------- comparisons and where


def _selection(
    name: str,
    arguments: dict[str, Any],
    values: dict[Node, Value],
    val: Tensor,
    helpers: dict[str, Any],
) -> Value | None:
    """A comparison of floating values (a bool per element), or `where(cond, a, b)`.

    A comparison turns the last bit of a value into a different bool, so it reads only
    values that are exactly eager's (`holds_eager_values`): inputs, runtime calls' results,
    reductions of those, and numbers, each in the dtype eager compares in (a float32 value
    widened to float64 is the same value). A pointwise value computed in the kernel stays
    double where eager rounds it to float32, and a reduction of one sums other values than
    eager's, so a comparison reading either stays a runtime call. `where` only selects: a
    float32 value it picks is rounded when stored, as eager rounds it first; its condition is
    a bool input or a lowered comparison."""
    out_shape: Shape = tuple(val._shape)
    if name == "where":  # torch.where(condition, input, other), Tensor.where(self, ...)
        condition = arguments["condition"]
        picked = [arguments.get("input", arguments.get("self")), arguments["other"]]
        if not val._dtype.is_floating_point or not isinstance(condition, Node):
            return None
        cond = values.get(condition)
        if not isinstance(cond, View | Pointwise) or condition.meta["val"]._dtype.name != "bool":
            return None
        compute = val._dtype
        template = "({a} if {c} else {b})"
    else:
        picked = list(arguments.values())[:2]
        if not all(isinstance(p, Node) or type(p) in (int, float, bool) for p in picked):
            return None
        compute = meta.result_type(*(p.meta["val"] if isinstance(p, Node) else p for p in picked))
        if not compute.is_floating_point:
            return None
        cond = None
        template = "({a} " + _COMPARE_TEXT[name] + " {b})"
    operands: list[Operand] = []
    for p in picked:
        if isinstance(p, Node):
            source = values.get(p)
            dtype = p.meta["val"]._dtype
            if not isinstance(source, View | Pointwise) or not dtype.is_floating_point:
                return None
            if cond is None and not (
                isinstance(source, View)
                and source.exact
                and (dtype is compute or dtype.name == "float32")
            ):
                return None
            operands.append(source)
        elif type(p) in (int, float, bool):
            operands.append(float(kernels.convert_scalar(p, compute)))
        else:
            return None
    a, b = operands

    def render(ix: list[Ix], load: Load) -> str:
        texts = {
            "a": _operand_text(a, out_shape, ix, load, helpers),
            "b": _operand_text(b, out_shape, ix, load, helpers),
        }
        if cond is not None:
            texts["c"] = _operand_text(cond, out_shape, ix, load, helpers)
        return template.format(**texts)

    return Pointwise(out_shape, render)


def _operand_text(
    operand: Operand, out_shape: Shape, ix: list[Ix], load: Load, helpers: dict[str, Any]
) -> str:
    """An operand's value at the output index `ix` (broadcast dims read index 0)."""
    if isinstance(operand, float):
        return _float_text(operand, helpers)
    shape = operand.shape
    lead = len(out_shape) - len(shape)
    mine = [Ix() if size == 1 else ix[lead + k] for k, size in enumerate(shape)]
    return operand.expr(mine, load)


# ---------------------------------------------------------------- pointwise


def _pointwise(
    name: str,
    params: list[Any],
    arguments: dict[str, Any],
    values: dict[Node, Value],
    val: Tensor,
    helpers: dict[str, Any],
    temp: str,
) -> Value | None:
    """An elementwise op's expression; operands read more than once go through walrus
    temporaries named after `temp` (the node's name)."""
    out_shape: Shape = tuple(val._shape)
    tensors = [p for p in params if isinstance(p, Node)]
    compute = val._dtype
    if name in ("div", "rdiv"):
        compute = meta.div_compute_dtype(compute)
    operands: list[Operand] = []
    for p in params:
        if isinstance(p, Node):
            source = values[p]
            dtype = p.meta["val"]._dtype
            if isinstance(source, Reduction):
                return None
            if dtype is not compute and dtype.name != "float32":
                # a 0-d float64 operand of a float32 op: eager rounds it to float32 first
                # (1e-300 becomes 0.0), the kernel would read the double
                return None
            operands.append(source)
        else:
            operands.append(float(kernels.convert_scalar(p, compute)))
    alpha = arguments.get("alpha", 1)
    if not tensors:
        return None

    def text(operand: Operand, ix: list[Ix], load: Load) -> str:
        if isinstance(operand, float):
            return _float_text(operand, helpers)
        shape = operand.shape
        lead = len(out_shape) - len(shape)
        mine = [Ix() if size == 1 else ix[lead + k] for k, size in enumerate(shape)]
        return operand.expr(mine, load)

    if name in _BINARY_TEXT or name in ("div", "rsub", "rdiv", "maximum", "minimum"):
        a, b = operands[0], operands[1]
        if name in ("rsub", "rdiv"):
            a, b = b, a
        if alpha != 1:
            if name not in ("add", "sub", "rsub"):
                return None
            factor = float(kernels.convert_scalar(alpha, compute))
            inner = b

            def scaled(ix: list[Ix], load: Load) -> str:
                return f"({_float_text(factor, helpers)} * {text(inner, ix, load)})"

            b = Pointwise(out_shape, scaled)
        fmt = _BINARY_TEXT.get("sub" if name == "rsub" else name)
        if name in ("div", "rdiv"):
            # `/` raises ZeroDivisionError where the runtime's `div` gives inf or nan: the
            # kernel then computes the row again with `div` (codegen.py, `_fallback`)
            helpers["div"] = kernels.div
            fmt = "div({a}, {b})" if isinstance(b, float) and b == 0.0 else "({a} / {b})"
        elif name in ("maximum", "minimum"):
            cmp = ">=" if name == "maximum" else "<="
            fmt = "({a} if {a:=} " + cmp + " {b:=} or {a} != {a} else {b})"
        assert fmt is not None
        left, right, binary = a, b, fmt
        return Pointwise(
            out_shape,
            lambda ix, load: _fill(binary, temp, a=text(left, ix, load), b=text(right, ix, load)),
        )
    (x,) = operands[:1]
    unary: dict[str, str] = {"neg": "(-{a})", "positive": "{a}", "abs": "abs({a})"}
    if name in unary:
        fmt = unary[name]
    elif name == "relu":
        fmt = "({a} if {a:=} > 0.0 or {a} != {a} else 0.0)"
    elif name == "exp":
        helpers["exp"] = _UNARY_HELPERS["exp"]
        helpers["math_exp"] = math.exp
        fmt = "math_exp({a})"  # OverflowError past float's range: the row again with `exp`
    elif name in _UNARY_HELPERS:
        helpers[name] = _UNARY_HELPERS[name]
        fmt = name + "({a})"
    else:
        return None
    unary_fmt = fmt
    return Pointwise(out_shape, lambda ix, load: _fill(unary_fmt, temp, a=text(x, ix, load)))


_SIMPLE = re.compile(r"[A-Za-z_]\w*|-?[0-9.e+-]+|\(-?inf\)|nan|inf")


def _fill(template: str, temp: str, **operands: str) -> str:
    """`template` with its operands: `{a:=}` marks where an operand used more than once is
    first evaluated; one that is not a plain name or number is bound there to a temporary
    (`(t_mul_a := x * 2.0)`) and read by name elsewhere, so it is computed once."""
    for key, text in operands.items():
        if "({" + key + "})" in template:  # a call's only argument: its own parentheses go
            text = _unwrapped(text)
        reused = "{" + key + ":=}" in template
        if reused and not _SIMPLE.fullmatch(text):
            name = f"{temp}_{key}"
            template = template.replace("{" + key + ":=}", f"({name} := {text})", 1)
            template = template.replace("{" + key + "}", name)
        else:
            template = template.replace("{" + key + ":=}", text).replace("{" + key + "}", text)
    return template


def _unwrapped(text: str) -> str:
    """`text` without the parentheses around all of it, if it has them."""
    if not text.startswith("("):
        return text
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return text[1:-1] if i == len(text) - 1 else text
    return text


def _float_text(value: float, helpers: dict[str, Any]) -> str:
    if math.isfinite(value):
        return repr(value)
    helpers["inf"] = math.inf
    helpers["nan"] = math.nan
    if value != value:  # noqa: PLR0124
        return "nan"
    return "inf" if value > 0 else "(-inf)"
