"""A mode sees the same calls compiled as eagerly, and the same calls torch hands its modes: the
`func` object (`Tensor.add` for `x + y` and `2 + x`), the arguments in torch's order, no kwargs.
The rows are the table in tests/runtime/test_mode_op_names.py."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.real_torch import real_torch
from tests.runtime.test_mode_op_names import ROWS, Row, inputs, recorder
from tracer.testing import assert_same_behavior

RuntimeRecorder = recorder(torch)
READS_DATA = {  # conversions need the tensor's value: the frame falls back, the mode sees them
    "bool(x[0, 0])",
    "float(x[0, 0])",
    "int(x[0, 0])",
    "complex(x[0, 0])",
    "[1] * x[0, 0].long()",
    "x.item()",
    "x[0, 0].item()",
    "x.tolist()",
    "list(x)",  # iterating a tensor under a mode falls back (see TensorVariable.unpack)
    "for r in y: pass",
    "a, b = x",
}
BREAKS = {  # the frame falls back, so the mode sees these calls eagerly
    "z = x.clone()\nz[0] = 1.0",  # assignment into a tensor is not traced
    "x._version",  # a run-time count the fake value does not know
    "torch.rand_like(x)",  # reads the global random generator
    "torch.randn_like(x)",
    "x.max(1)",  # a torch.return_types named tuple is not traced yet
    "torch.max(x, 1)",
    "x.min(1)",
}


def row_function(source: str, mode_class: type = RuntimeRecorder, library: Any = torch) -> Any:
    text = f"def run(x, y, log):\n    with Recorder(log):\n{textwrap.indent(source, ' ' * 8)}\n"
    scope: dict[str, Any] = {"Recorder": mode_class, "torch": library}
    exec(compile(text, f"<row {source!r}>", "exec"), scope)  # noqa: S102 - the row under test
    return scope["run"]


def raises_eagerly(row: Row) -> bool:
    try:
        row_function(row.source)(*inputs(torch), [])
    except (TypeError, RuntimeError):
        return True
    return False


@pytest.mark.parametrize("row", ROWS, ids=[row.source for row in ROWS])
def test_compiled_mode_sees_what_eager_mode_sees(row: Row) -> None:
    fn = row_function(row.source)
    assert_same_behavior(fn, *inputs(torch), [])
    if row.source not in READS_DATA | BREAKS and not raises_eagerly(row):
        log: list[Any] = []
        tracer.compile(fn, fullgraph=True)(*inputs(torch), log)
        assert len(log) == len(row.expected(torch))


EVERY_OPERATOR = """\
a = x + y - 2 * x / (1 + abs(y))
b = 2 - a**2 + 2**y - ((3 / x) @ y).sum()
c = -(x.add(y) * 2.5) + x.__radd__(1) + x.__rtruediv__(2)
d = (x > y).float() + (2 < x).float() + (x <= 1).float() + (y >= x).float()
e = (x == y).float() + (x != 2).float() + (x == None) + (x != None)
f = x[0], x[:, 1] @ y[:2], x[0, 0] - x.sum()
"""


def test_every_operator_traces_whole_and_matches_eager() -> None:
    fn = row_function(EVERY_OPERATOR)
    assert_same_behavior(tracer.compile(fn, fullgraph=True), *inputs(torch), [])
    log: list[Any] = []
    fn(*inputs(torch), log)
    names = [func.__name__ for func, *_ in log]
    assert names[:6] == ["add", "mul", "abs", "add", "div", "sub"]
    assert "__radd__" not in names and "__rtruediv__" not in names and "__rdiv__" in names


def test_every_operator_records_what_torch_records() -> None:
    real = real_torch()
    mine: list[Any] = []
    theirs: list[Any] = []
    row_function(EVERY_OPERATOR)(*inputs(torch), mine)
    row_function(EVERY_OPERATOR, recorder(real))(*inputs(real), theirs)

    def names(log: list[Any]) -> list[Any]:
        return [(f.__name__, a, tuple(c.__name__ for c in t)) for f, a, _, t in log]

    assert names(mine) == names(theirs)


INTERNALLY_HEAVY = """\
a = x.reshape(3, 2)
b = x[1:]
c = x.sum(dim=0)
d = torch.cat([x, b])
e = a.T + x
f = x[0, 1:] @ y[:2]
g = len(x) + x.shape[0]
"""


def test_no_mode_sees_the_runtimes_own_calls() -> None:
    """The runtime's ops read shapes, lengths and indices where no mode sees them (as torch's
    C++ does): a recording mode sees exactly the calls the user's code makes, eagerly and
    compiled, and the same as under torch."""
    fn = row_function(INTERNALLY_HEAVY)
    eager: list[Any] = []
    fn(*inputs(torch), eager)
    compiled: list[Any] = []
    tracer.compile(fn, fullgraph=True)(*inputs(torch), compiled)
    assert [(f, a) for f, a, *_ in compiled] == [(f, a) for f, a, *_ in eager]
    assert [f.__name__ for f, *_ in eager] == [
        *("reshape", "__getitem__", "sum", "cat", "__get__", "add"),
        *("__getitem__", "__getitem__", "matmul", "__len__", "__get__"),
    ]
    assert_same_behavior(fn, *inputs(torch), [])


def test_no_mode_sees_torchs_own_calls_either() -> None:
    real = real_torch()
    mine: list[Any] = []
    theirs: list[Any] = []
    row_function(INTERNALLY_HEAVY)(*inputs(torch), mine)
    row_function(INTERNALLY_HEAVY, recorder(real), real)(*inputs(real), theirs)
    assert [(f.__name__, a) for f, a, *_ in mine] == [(f.__name__, a) for f, a, *_ in theirs]


INTEGER_OPERATORS = """\
i = (x * 3).long()
a = i // 2 + 7 // (i + 1) + i % 4 + 11 % (i + 1) - (+i)
b = (i & 6) | (3 ^ i) | (i << 2) | (1 << (i % 5)) | (i >> 1) | (100 >> (i % 3))
c = ~i + ~(x > 2).long() + (x // 1.5) + (x % -2.5) + (2.5 // x) + (7.5 % x)
d = (x > 2) & (x < 5), (x > 2) | True, True ^ (x > 2), i.bitwise_and(5), torch.remainder(i, 3)
"""


def test_integer_operators_trace_whole_and_match_eager() -> None:
    fn = row_function(INTEGER_OPERATORS)
    assert_same_behavior(tracer.compile(fn, fullgraph=True), *inputs(torch), [])
    eager: list[Any] = []
    fn(*inputs(torch), eager)
    compiled: list[Any] = []
    tracer.compile(fn, fullgraph=True)(*inputs(torch), compiled)
    assert [(f, a) for f, a, *_ in compiled] == [(f, a) for f, a, *_ in eager]


def test_integer_operators_record_what_torch_records() -> None:
    real = real_torch()
    mine: list[Any] = []
    theirs: list[Any] = []
    row_function(INTEGER_OPERATORS)(*inputs(torch), mine)
    row_function(INTEGER_OPERATORS, recorder(real), real)(*inputs(real), theirs)

    def names(log: list[Any]) -> list[Any]:
        return [(f.__name__, a, tuple(c.__name__ for c in t)) for f, a, _, t in log]

    assert names(mine) == names(theirs)


class Overriding(torch.overrides.TorchFunctionMode):
    """Answers `len`, the `shape` getter and `dim` itself: a compiled function must use the
    mode's answers, as eager code does."""

    def __init__(self, length: Any) -> None:
        self.length = length

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: Any = None
    ) -> Any:
        if func is torch.Tensor.__len__:
            return self.length
        if func == torch.Tensor.shape.__get__:
            return (99, 98)
        if func is torch.Tensor.dim:
            return len(types) + 40
        return func(*args, **(kwargs or {}))


def answers_from_the_mode(x: Any, length: Any) -> Any:
    with Overriding(length):
        return len(x), x.shape, x.shape[0] + x.dim(), x.T.shape, x.size(1)


@pytest.mark.parametrize("length", [7, True, "a", -1, 2.0])
def test_compiled_len_and_properties_dispatch_to_the_mode(length: Any) -> None:
    """`len(x)` is answered by the mode (and checked by `len` as CPython does: a str or a
    float is a TypeError, -1 a ValueError, True is 1); `x.shape` is the mode's too."""
    x = inputs(torch)[0]
    assert_same_behavior(answers_from_the_mode, x, length)
    if length in (7, True):
        compiled = tracer.compile(answers_from_the_mode, fullgraph=True)
        assert compiled(x, length) == (int(length), (99, 98), 140, (99, 98), 3)
