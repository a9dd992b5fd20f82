"""What a torch-function mode is handed for each operator, as measured on torch 2.13: one row per
operation, the calls the mode sees (`func` spelled as an attribute path, then the arguments, then
`func.__name__` where it is not the path's last part), checked against tracer.runtime always and
against real torch when it is importable.

An argument that is a tensor reads as the name of the input with its shape (`x` is 2x3, `y` has
3 elements) or `?`; anything else reads as itself. Where the runtime differs from torch the row
says what the runtime hands the mode, and why.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any

import pytest

import tracer.runtime
from tests.real_torch import real_torch
from tracer.runtime.overridable import C_FUNCTIONALS, PYTHON_FUNCTIONS, TENSOR_TYPE_METHODS

Call = tuple[Any, ...]
SHAPES = {(2, 3): "x", (3,): "y"}
SAME: tuple[Call, ...] = (("same as torch", ()),)


@dataclasses.dataclass(frozen=True)
class Row:
    source: str
    torch: tuple[Call, ...]
    runtime: tuple[Call, ...] = SAME
    why: str = ""
    names_only: bool = False
    """Compare only what the mode is handed as `func` (torch's Python functions hand it their
    arguments split between args and kwargs in their own way)."""

    def expected(self, library: types.ModuleType) -> tuple[Call, ...]:
        return self.runtime if library is tracer.runtime and self.runtime != SAME else self.torch


def calls(*pairs: Call) -> tuple[Call, ...]:
    return pairs


SLOT = "the runtime's `requires_grad` is a plain attribute (guards read it on every call)"

F = "torch.nn.functional"


def clone_then(method: str, *args: Any) -> Row:
    """`z = x.clone(); z.<method>(*args)`: an in-place method as a mode sees it."""
    source = f"z = x.clone()\nz.{method}({', '.join(map(repr, args))})"
    return Row(source, calls(("Tensor.clone", ("x",)), (f"Tensor.{method}", ("x", *args))))


MODEL_CODE_ROWS = [
    Row("torch.softmax(x, 1)", calls(("torch.softmax", ("x", 1)))),
    Row("x.softmax(1)", calls(("Tensor.softmax", ("x", 1)))),
    Row("torch.log_softmax(x, 1)", calls(("torch.log_softmax", ("x", 1)))),
    Row(f"{F}.softmax(x, 1)", calls((f"{F}.softmax", ("x", 1))), names_only=True),
    Row(f"{F}.log_softmax(x, 1)", calls((f"{F}.log_softmax", ("x", 1))), names_only=True),
    Row(f"{F}.relu(x)", calls((f"{F}.relu", ("x",))), names_only=True),
    Row(f"{F}.gelu(x)", calls((f"{F}.gelu", ("x",)))),
    Row(f"{F}.silu(x)", calls((f"{F}.silu", ("x",))), names_only=True),
    Row(f"{F}.layer_norm(x, (3,))", calls((f"{F}.layer_norm", ("x", (3,)))), names_only=True),
    Row(f"{F}.linear(x, x)", calls((f"{F}.linear", ("x", "x")))),
    Row(f"{F}.dropout(x, 0.5, False)", calls((f"{F}.dropout", ("x", 0.5, False))), names_only=True),
    Row(f"{F}.mse_loss(x, x)", calls((f"{F}.mse_loss", ("x", "x"))), names_only=True),
    Row(f"{F}.pad(x, (1, 1))", calls((f"{F}.pad", ("x", (1, 1)))), names_only=True),
    Row(
        f"{F}.embedding(x.argmin(1), x)",
        calls(("Tensor.argmin", ("x", 1)), (f"{F}.embedding", ("?", "x"))),
        names_only=True,
    ),
    Row(
        f"{F}.cross_entropy(x, x.argmax(1))",
        calls(("Tensor.argmax", ("x", 1)), (f"{F}.cross_entropy", ("x", "?"))),
        names_only=True,
    ),
    Row("torch.einsum('ij,kj->ik', x, x)", calls(("torch.einsum", ("ij,kj->ik", "x", "x")))),
    Row(
        "torch.bmm(x.unsqueeze(0), x.T.unsqueeze(0))",
        calls(
            ("Tensor.unsqueeze", ("x", 0)),
            ("Tensor.T.__get__", ("x",)),
            ("Tensor.unsqueeze", ("?", 0)),
            ("torch.bmm", ("?", "?")),
        ),
    ),
    Row("x.clamp(0, 1)", calls(("Tensor.clamp", ("x", 0, 1)))),
    Row("torch.clamp(x, 0, 1)", calls(("torch.clamp", ("x", 0, 1)))),
    Row("x.clip(0, 1)", calls(("Tensor.clip", ("x", 0, 1)))),
    Row("x.max(1)", calls(("Tensor.max", ("x", 1)))),
    Row("torch.max(x, 1)", calls(("torch.max", ("x", 1)))),
    Row("x.max()", calls(("Tensor.max", ("x",)))),
    Row("x.min(1)", calls(("Tensor.min", ("x", 1)))),
    Row("x.argmax(1)", calls(("Tensor.argmax", ("x", 1)))),
    Row(
        "x.masked_fill(x > 2, 0.0)",
        calls(("Tensor.gt", ("x", 2)), ("Tensor.masked_fill", ("x", "x", 0.0))),
    ),
    Row("x.flatten()", calls(("Tensor.flatten", ("x",)))),
    Row("torch.flatten(x)", calls(("torch.flatten", ("x",)))),
    Row("x.view(3, 2)", calls(("Tensor.view", ("x", 3, 2)))),
    Row("x.expand(2, 2, 3)", calls(("Tensor.expand", ("x", 2, 2, 3)))),
    Row("x.repeat(2, 1)", calls(("Tensor.repeat", ("x", 2, 1)))),
    Row("x.chunk(2, 1)", calls(("Tensor.chunk", ("x", 2, 1)))),
    Row("x.split(1)", calls(("Tensor.split", ("x", 1))), names_only=True),
    Row("torch.split(x, 1)", calls(("torch.split", ("x", 1))), names_only=True),
    Row("x.var(1)", calls(("Tensor.var", ("x", 1)))),
    Row("x.std()", calls(("Tensor.std", ("x",)))),
    Row("x.rsqrt()", calls(("Tensor.rsqrt", ("x",)))),
    Row("torch.erf(x)", calls(("torch.erf", ("x",)))),
    Row("torch.rand_like(x)", calls(("torch.rand_like", ("x",)))),
    Row("torch.randn_like(x)", calls(("torch.randn_like", ("x",)))),
    Row("x.float()", calls(("Tensor.float", ("x",)))),
    Row("x.type_as(y)", calls(("Tensor.type_as", ("x", "y")))),
    Row(
        "x.to(torch.float64)", calls(("Tensor.to", ("x", tracer.runtime.float64))), names_only=True
    ),
    clone_then("add_", 1),
    clone_then("sub_", 1),
    clone_then("mul_", 2),
    clone_then("div_", 2),
    clone_then("clamp_", 0, 1),
    clone_then("relu_"),
    clone_then("exp_"),
    clone_then("zero_"),
    clone_then("fill_", 2),
    Row(
        "z = x.clone()\nz.copy_(x)",
        calls(("Tensor.clone", ("x",)), ("Tensor.copy_", ("x", "x"))),
    ),
    Row(
        "z = x.clone()\nz[0].add_(1)",
        calls(
            ("Tensor.clone", ("x",)),
            ("Tensor.__getitem__", ("x", 0)),
            ("Tensor.add_", ("y", 1)),
        ),
    ),
    Row("x.requires_grad_()", calls(("Tensor.requires_grad_", ("x",)))),
    Row("x._version", calls(("Tensor._version.__get__", ("x",)))),
    Row("torch.is_grad_enabled()", calls()),
    Row(
        "with torch.no_grad():\n    x + 1",
        calls(
            ("torch._C._set_grad_enabled", (False,)),
            ("Tensor.add", ("x", 1)),
            ("torch._C._set_grad_enabled", (True,)),
        ),
    ),
]

ROWS = [
    Row("x + y", calls(("Tensor.add", ("x", "y")))),
    Row("x + 2", calls(("Tensor.add", ("x", 2)))),
    Row("2 + x", calls(("Tensor.add", ("x", 2)))),
    Row("x + True", calls(("Tensor.add", ("x", True)))),
    Row("x - y", calls(("Tensor.sub", ("x", "y")))),
    Row("x - 2", calls(("Tensor.sub", ("x", 2)))),
    Row("2 - x", calls(("Tensor.__rsub__", ("x", 2)))),
    Row("x * y", calls(("Tensor.mul", ("x", "y")))),
    Row("2.5 * x", calls(("Tensor.mul", ("x", 2.5)))),
    Row("x / y", calls(("Tensor.div", ("x", "y")))),
    Row("x / 2", calls(("Tensor.div", ("x", 2)))),
    Row("2 / x", calls(("Tensor.__rdiv__", ("x", 2)))),
    Row("x ** y", calls(("Tensor.__pow__", ("x", "y"), "pow"))),
    Row("x ** 2", calls(("Tensor.__pow__", ("x", 2), "pow"))),
    Row("x.pow(2)", calls(("Tensor.pow", ("x", 2)))),
    Row("2 ** x", calls(("Tensor.__rpow__", ("x", 2)))),
    Row("x @ y", calls(("Tensor.matmul", ("x", "y")))),
    Row("-x", calls(("Tensor.neg", ("x",)))),
    Row("abs(x)", calls(("Tensor.abs", ("x",)))),
    Row("x == y", calls(("Tensor.__eq__", ("x", "y")))),
    Row("2 == x", calls(("Tensor.__eq__", ("x", 2)))),
    Row("x == None", calls(("Tensor.__eq__", ("x", None)))),
    Row("x != y", calls(("Tensor.ne", ("x", "y")))),
    Row("2 != x", calls(("Tensor.ne", ("x", 2)))),
    Row("x != None", calls()),
    Row("x < y", calls(("Tensor.lt", ("x", "y")))),
    Row("x <= y", calls(("Tensor.le", ("x", "y")))),
    Row("x > y", calls(("Tensor.gt", ("x", "y")))),
    Row("x >= y", calls(("Tensor.ge", ("x", "y")))),
    Row("2 < x", calls(("Tensor.gt", ("x", 2)))),
    Row("2 >= x", calls(("Tensor.le", ("x", 2)))),
    Row("x < None", calls()),
    Row("x + 'a'", calls()),
    Row("x * [1]", calls(("Tensor.__index__", ("x",)))),
    Row(
        "[1] * x[0, 0].long()",
        calls(
            ("Tensor.__getitem__", ("x", (0, 0))),
            ("Tensor.long", ("?",)),
            ("Tensor.__index__", ("?",)),
        ),
    ),
    Row("x[0]", calls(("Tensor.__getitem__", ("x", 0)))),
    Row("x[:, 1]", calls(("Tensor.__getitem__", ("x", (slice(None), 1))))),
    Row("x.add(y)", calls(("Tensor.add", ("x", "y")))),
    Row("x.__add__(y)", calls(("Tensor.add", ("x", "y")))),
    Row("x.__radd__(2)", calls(("Tensor.add", ("x", 2)))),
    Row("x.__rtruediv__(2)", calls(("Tensor.__rdiv__", ("x", 2)))),
    Row("x.__ne__(None)", calls()),
    Row("torch.Tensor.__mul__(x, 3)", calls(("Tensor.mul", ("x", 3)))),
    Row("torch.add(x, y)", calls(("torch.add", ("x", "y")))),
    Row("x.sum()", calls(("Tensor.sum", ("x",)))),
    Row("+x", calls(("Tensor.positive", ("x",)))),
    Row("x.__pos__()", calls(("Tensor.positive", ("x",)))),
    Row("torch.positive(x)", calls(("torch.positive", ("x",)))),
    Row("x // y", calls(("Tensor.__floordiv__", ("x", "y")))),
    Row("x // 2", calls(("Tensor.__floordiv__", ("x", 2)))),
    Row("2.0 // x", calls(("Tensor.__rfloordiv__", ("x", 2.0)))),
    Row("x.floor_divide(y)", calls(("Tensor.floor_divide", ("x", "y")))),
    Row("torch.floor_divide(x, y)", calls(("torch.floor_divide", ("x", "y")))),
    Row("x % y", calls(("Tensor.remainder", ("x", "y")))),
    Row("x % 2", calls(("Tensor.remainder", ("x", 2)))),
    Row("2 % x", calls(("Tensor.__rmod__", ("x", 2)))),
    Row("x % None", calls()),
    Row("torch.remainder(x, 2)", calls(("torch.remainder", ("x", 2)))),
    Row("~(x > 1)", calls(("Tensor.gt", ("x", 1)), ("Tensor.__invert__", ("x",)))),
    Row("~x", calls(("Tensor.__invert__", ("x",)))),
    Row("(x > 1).bitwise_not()", calls(("Tensor.gt", ("x", 1)), ("Tensor.bitwise_not", ("x",)))),
    Row("y.long() & 1", calls(("Tensor.long", ("y",)), ("Tensor.__and__", ("y", 1)))),
    Row("1 & y.long()", calls(("Tensor.long", ("y",)), ("Tensor.bitwise_and", ("y", 1)))),
    Row(
        "y.long() | y.long()",
        calls(("Tensor.long", ("y",)), ("Tensor.long", ("y",)), ("Tensor.__or__", ("y", "y"))),
    ),
    Row("(y > 1) ^ True", calls(("Tensor.gt", ("y", 1)), ("Tensor.__xor__", ("y", True)))),
    Row("True ^ (y > 1)", calls(("Tensor.gt", ("y", 1)), ("Tensor.bitwise_xor", ("y", True)))),
    Row("y.long() & None", calls(("Tensor.long", ("y",)))),
    Row("x & 1", calls(("Tensor.__and__", ("x", 1)))),
    Row("y.long() << 2", calls(("Tensor.long", ("y",)), ("Tensor.__lshift__", ("y", 2)))),
    Row("y.long() >> 1", calls(("Tensor.long", ("y",)), ("Tensor.__rshift__", ("y", 1)))),
    Row("1 << y.long()", calls(("Tensor.long", ("y",)), ("Tensor.__rlshift__", ("y", 1)))),
    Row("64 >> y.long()", calls(("Tensor.long", ("y",)), ("Tensor.__rrshift__", ("y", 64)))),
    Row(
        "torch.bitwise_or(y.long(), 4)",
        calls(("Tensor.long", ("y",)), ("torch.bitwise_or", ("y", 4))),
    ),
    Row(
        "z = x.clone()\nz += y",
        calls(("Tensor.clone", ("x",)), ("Tensor.add_", ("x", "y"))),
    ),
    Row(
        "z = x.clone()\nz *= 2",
        calls(("Tensor.clone", ("x",)), ("Tensor.mul_", ("x", 2))),
    ),
    Row(
        "z = x.clone()\nz[0] = 1.0",
        calls(
            ("Tensor.clone", ("x",)),
            ("Tensor.__setitem__", ("x", 0, 1.0)),
        ),
    ),
    Row("len(x)", calls(("Tensor.__len__", ("x",)))),
    Row("x.__len__()", calls(("Tensor.__len__", ("x",)))),
    Row("len(x[0, 0])", calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.__len__", ("?",)))),
    Row("bool(x[0, 0])", calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.__bool__", ("?",)))),
    Row("bool(x)", calls(("Tensor.__bool__", ("x",)))),
    Row(
        "float(x[0, 0])", calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.__float__", ("?",)))
    ),
    Row("int(x[0, 0])", calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.__int__", ("?",)))),
    Row(
        "complex(x[0, 0])",
        calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.__complex__", ("?",))),
    ),
    Row("x.shape", calls(("Tensor.shape.__get__", ("x",)))),
    Row("x.shape[0]", calls(("Tensor.shape.__get__", ("x",)))),
    Row("x.dtype", calls(("Tensor.dtype.__get__", ("x",)))),
    Row("x.device", calls(("Tensor.device.__get__", ("x",)))),
    Row("x.ndim", calls(("Tensor.ndim.__get__", ("x",)))),
    Row("x.T", calls(("Tensor.T.__get__", ("x",)))),
    Row("x.T.shape", calls(("Tensor.T.__get__", ("x",)), ("Tensor.shape.__get__", ("?",)))),
    Row("x.requires_grad", calls(("Tensor.requires_grad.__get__", ("x",))), calls(), SLOT),
    Row("x.size()", calls(("Tensor.size", ("x",)))),
    Row("x.size(0)", calls(("Tensor.size", ("x", 0)))),
    Row("x.size(-1)", calls(("Tensor.size", ("x", -1)))),
    Row("x.dim()", calls(("Tensor.dim", ("x",)))),
    Row("x.numel()", calls(("Tensor.numel", ("x",)))),
    Row("x.is_floating_point()", calls(("Tensor.is_floating_point", ("x",)))),
    Row("x.item()", calls(("Tensor.item", ("x",)))),
    Row("x[0, 0].item()", calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.item", ("?",)))),
    Row("x.tolist()", calls(("Tensor.tolist", ("x",)))),
    Row("x.unbind(1)", calls(("Tensor.unbind", ("x", 1)))),
    Row(
        "list(x)",
        calls(("Tensor.dim", ("x",)), ("Tensor.unbind", ("x", 0)), ("Tensor.__len__", ("x",))),
    ),
    Row("for r in y: pass", calls(("Tensor.dim", ("y",)), ("Tensor.unbind", ("y", 0)))),
    Row("a, b = x", calls(("Tensor.dim", ("x",)), ("Tensor.unbind", ("x", 0)))),
    Row("iter(x[0, 0])", calls(("Tensor.__getitem__", ("x", (0, 0))), ("Tensor.dim", ("?",)))),
    Row("x.exp()", calls(("Tensor.exp", ("x",)))),
    Row("torch.exp(x)", calls(("torch.exp", ("x",)))),
    Row("x.detach()", calls(("Tensor.detach", ("x",)))),
    Row("x.clone()", calls(("Tensor.clone", ("x",)))),
    Row("x.reshape(3, 2)", calls(("Tensor.reshape", ("x", 3, 2)))),
    Row("x[1:]", calls(("Tensor.__getitem__", ("x", slice(1, None))))),
    Row("torch.cat([x, x])", calls(("torch.cat", (["x", "x"],)))),
    *MODEL_CODE_ROWS,
]


class Recorder:
    """A mode (made a subclass of each library's TorchFunctionMode by `recorder`) that logs
    `(func, args as labels, kwargs)` into `log` and runs the call. It reads no module globals,
    so compiled code traces it whole."""

    shapes = SHAPES
    tensor: type

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
    ) -> Any:
        kwargs = kwargs or {}
        self.log.append((func, tuple([self.label(a) for a in args]), kwargs, tuple(types)))
        return func(*args, **kwargs)

    def label(self, value: Any) -> Any:
        if isinstance(value, self.tensor):
            return self.shapes.get(tuple(value.shape), "?")
        if isinstance(value, tuple):
            return tuple([self.label(v) for v in value])
        if isinstance(value, list):
            return [self.label(v) for v in value]
        return value


def recorder(library: types.ModuleType) -> type:
    bases = (Recorder, library.overrides.TorchFunctionMode)
    return type("Recorder", bases, {"tensor": library.Tensor})


def inputs(library: types.ModuleType) -> tuple[Any, Any]:
    x = library.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return x, library.tensor([1.0, 2.0, 4.0])


def run_row(library: types.ModuleType, row: Row, x: Any, y: Any) -> list[Any]:
    log: list[Any] = []
    scope = {"torch": library, "x": x, "y": y}
    with recorder(library)(log):
        try:
            exec(row.source, scope)  # noqa: S102 - the row under test
        except (TypeError, RuntimeError):
            pass
    return log


def check(library: types.ModuleType, row: Row) -> None:
    log = run_row(library, row, *inputs(library))
    expected = row.expected(library)
    got = [(f.__name__, args) for f, args, *_ in log]
    want_calls = [
        (name[0] if name else path.rsplit(".", 1)[1], args) for path, args, *name in expected
    ]
    if row.names_only:
        got, want_calls = [(n, ()) for n, _ in got], [(n, ()) for n, _ in want_calls]
    assert got == want_calls
    for (func, _, kwargs, types_), (path, *_) in zip(log, expected, strict=True):
        want = eval(path, {"Tensor": library.Tensor, "torch": library})
        again = eval(path, {"Tensor": library.Tensor, "torch": library})
        assert func is want if want is again else func == want, path
        assert kwargs == {} or row.names_only
        assert types_ == ((library.Tensor,) if passes_tensor_types(path) else ()), path


def passes_tensor_types(path: str) -> bool:
    """torch's rule for `types` (see tracer/runtime/overridable.py): the tensor types for a
    property's getter and for the Tensor methods in TENSOR_TYPE_METHODS (the ones that take the
    tensor alone, the conversions, the operators torch writes in Python); `()` for every op
    whose arguments torch parses against a signature (`add`, `sum`, `torch.exp`...)."""
    owner, _, name = path.partition(".")
    if path.startswith("torch.nn.functional."):
        return path.rsplit(".", 1)[1] not in C_FUNCTIONALS
    if owner == "torch":
        return name in PYTHON_FUNCTIONS  # `torch._C._set_grad_enabled` is not among them
    return path.endswith(".__get__") or (owner == "Tensor" and name in TENSOR_TYPE_METHODS)


@pytest.mark.parametrize("row", ROWS, ids=[row.source for row in ROWS])
def test_runtime_hands_the_mode_what_the_table_says(row: Row) -> None:
    check(tracer.runtime, row)


@pytest.mark.parametrize("row", ROWS, ids=[row.source for row in ROWS])
def test_torch_hands_the_mode_what_the_table_says(row: Row) -> None:
    check(real_torch(), row)


def test_rows_differ_from_torch_only_with_a_reason() -> None:
    for row in ROWS:
        assert (row.runtime == SAME) == (row.why == ""), row.source
