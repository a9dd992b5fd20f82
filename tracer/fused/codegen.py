"""Kernels -> Python source: one function per kernel, over flat lists of floats.

A kernel takes the buffers it reads (the `_data` lists of tensors, or buffers an earlier kernel
returned) and returns the buffers others need. Its shared loops are plain `for` loops; inside
them each statement is one list comprehension over its own inner loops: a row of values (a
pointwise statement) or the list a reduction function takes (the runtime's `total`, `mean`,
`amax`, so sums are the same correctly rounded sums as eager). Reads inside a comprehension are
  - a slice of a buffer iterated in step, when the read walks the row contiguously (`zip`);
    a slice several statements read is taken once per iteration (`row_x = b_x[...]`);
  - a value read once before the comprehension, when it does not depend on the inner loops;
  - `buf[index]` with the index arithmetic otherwise.
Values the kernel computed itself in this iteration are read from the statement's row
(`r_<name>`) or value (`v_<name>`), never stored and reloaded.

A float32 value that `forward` makes into a tensor is rounded as its row is computed
(`r_div = round_f32([...])`), so `forward` wraps the buffer as it is and every reader sees
the values the tensor holds; a float32 reduction's value is rounded with `to_float32`.

An element's expression uses Python's `/` and `math.exp`, which raise ZeroDivisionError and
OverflowError where the runtime's `div` and `exp` give inf or nan. A statement that uses them
runs inside `try`, and its `except` computes the row again with the runtime's functions: the
values are the same either way, and each element needs no test of its own.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Any

from tracer.fused.index import Ix, contiguous_strides
from tracer.fused.lowering import Reduction, holds_eager_values, reduction_function, to_float32
from tracer.fused.scheduler import Kernel, Statement
from tracer.runtime.kernels import round_f32

_INDENT = "    "


@dataclasses.dataclass
class KernelSource:
    name: str
    source: str
    params: list[str]
    returns: list[str]
    helpers: dict[str, Any]
    nodes: list[str]
    depth: int


def kernel_source(
    kernel: Kernel,
    name: str,
    needed: set[str],
    helpers: dict[str, Any],
    sizes: dict[str, int],
    rounded: set[str],
) -> KernelSource:
    """The source of one kernel; `needed` are the buffers read outside it, `sizes` the
    element counts of the buffers it may read (a read of all of one is iterated as is),
    `rounded` the buffers of float32 values `forward` makes into tensors: the kernel rounds
    their rows as it computes them, as eager stores them."""
    return _KernelWriter(kernel, name, needed, helpers, sizes, rounded).write()


class _KernelWriter:
    def __init__(
        self,
        kernel: Kernel,
        name: str,
        needed: set[str],
        helpers: dict[str, Any],
        sizes: dict[str, int] | None = None,
        rounded: set[str] | None = None,
    ) -> None:
        self.kernel = kernel
        self.name = name
        self.own = kernel.buffers
        self.depth = kernel.depth if kernel.depth is not None else 0
        if kernel.depth is None and len(kernel.statements) == 1:
            self.depth = self.choose_depth(kernel.statements[0])
        self.own = kernel.buffers
        self.needed = [s.buffer for s in kernel.statements if s.buffer in needed]
        self.helpers = dict(helpers)
        self.params: list[str] = []
        self.prelude: list[str] = []
        self.body: list[str] = []
        self.temps = 0
        self.sizes: dict[str, int] = dict(sizes or {})
        self.rounded: set[str] = set(rounded or ())
        self.sliced: dict[str, list[str]] = {}  # a slice streamed -> the statements reading it
        self.shared: dict[str, str | None] = {}  # a slice several statements read -> its name

    def write(self) -> KernelSource:
        for statement in self.kernel.statements:
            for buffer, _ in statement.loads():
                if buffer not in self.own and buffer not in self.params:
                    self.params.append(buffer)
        outer = self.kernel.statements[0].loop_sizes()[: self.depth]
        if len(self.kernel.statements) > 1:
            # a slice that several statements stream is taken once per iteration, bound to a
            # name before its first reader: a first writer finds which slices those are
            first = _KernelWriter(
                self.kernel, self.name, set(self.needed), {}, self.sizes, self.rounded
            )
            for statement in self.kernel.statements:
                first.statement(statement, outer)
            self.shared = {s: None for s, readers in first.sliced.items() if len(readers) > 1}
        for statement in self.kernel.statements:
            self.statement(statement, outer)
        lines = [f"def {self.name}({', '.join(self.params)}):"]
        lines += [_INDENT + line for line in self.prelude]
        level = 1
        for position, size in enumerate(outer):
            lines.append(_INDENT * level + f"for x{position} in range({size}):")
            level += 1
        lines += [_INDENT * level + line for line in self.body]
        returned = ", ".join(self.needed)
        lines.append(_INDENT + f"return ({returned}{',' if len(self.needed) == 1 else ''})")
        nodes = [s.node.name for s in self.kernel.statements]
        return KernelSource(
            self.name,
            "\n".join(lines) + "\n",
            self.params,
            self.needed,
            self.helpers,
            nodes,
            self.depth,
        )

    def temp(self, prefix: str) -> str:
        self.temps += 1
        return f"{prefix}{self.temps}"

    def statement(self, statement: Statement, outer: list[int]) -> None:
        sizes = statement.loop_sizes()
        inner = [(p, sizes[p]) for p in range(self.depth, len(sizes))]
        row = self.comprehension(statement, inner)
        name = statement.node.name
        if isinstance(statement.value, Reduction):
            dtype = statement.node.meta["val"]._dtype.name
            fn, function = reduction_function(statement.value, dtype)
            self.helpers[fn] = function
            result = f"{fn}({row})"
            exact_amax = statement.value.kind == "amax" and holds_eager_values(statement.value)
            if dtype == "float32" and not exact_amax:
                # eager stores a float32 result rounded: so does the kernel, for the ops
                # reading it here or from its buffer (lowering.holds_eager_values); the
                # largest of eager's float32 values is one of them, already float32
                self.helpers["to_float32"] = to_float32
                result = f"to_float32({result})"
            self.assign(f"v_{name}", result)
            if statement.buffer in self.needed:
                if self.depth == 0:
                    self.body.append(f"{statement.buffer} = [v_{name}]")
                else:
                    self.prealloc(statement)
                    self.body.append(
                        f"{statement.buffer}[{statement.store_ix().text()}] = v_{name}"
                    )
            return
        if statement.buffer in self.rounded:
            # a float32 tensor's values: rounded once, here, so the row every reader sees
            # (and the new list `forward` makes the tensor of) holds what the tensor holds
            self.helpers["round_f32"] = round_f32
            row = f"round_f32({row})"
        self.assign(f"r_{name}", row)
        if statement.buffer in self.needed:
            self.store(statement, inner)

    def assign(self, target: str, text: str) -> None:
        """`target = text`, in a `try` whose `except` uses the runtime's functions when the
        text can raise where they give inf or nan (see the module docstring)."""
        fallback = _fallback(text)
        if fallback is None:
            self.body.append(f"{target} = {text}")
            return
        errors, safe = fallback
        self.body += ["try:", f"{_INDENT}{target} = {text}", f"except {errors}:"]
        self.body.append(f"{_INDENT}{target} = {safe}")

    def prealloc(self, statement: Statement) -> None:
        count = 1
        for size in statement.shape:
            count *= size
        self.prelude.append(f"{statement.buffer} = [0.0] * {count}")

    def store(self, statement: Statement, inner: list[tuple[int, int]]) -> None:
        """The row into the statement's buffer: one assignment of a (strided) slice when the
        row's elements are evenly spaced there, else element by element."""
        name = statement.node.name
        store = statement.store_ix()
        inner_lin = _inner_linear(inner)
        positions = {p for p, _ in inner}
        if self.depth == 0 and store.text() == inner_lin.text():
            self.body.append(f"{statement.buffer} = r_{name}")
            return
        self.prealloc(statement)
        count = 1
        for _, size in inner:
            count *= size
        base = store.without(positions)
        moving = [(p, c) for p, c in store.terms if p in positions]
        if not (store.positions() - {p for p, _ in base.terms} - positions) and not any(
            positions & Ix(raw=((t, 1),)).positions() for t, _ in store.raw
        ):
            step = _even_step(moving, inner)
            if step is not None:
                start = base.text()
                stop = f"{start} + {step * (count - 1) + 1}" if count else start
                suffix = "" if step == 1 else f":{step}"
                self.body.append(f"{statement.buffer}[{start}:{stop}{suffix}] = r_{name}")
                return
        loops = " ".join(f"for x{p} in range({size})" for p, size in inner)
        self.body.append(
            f"for k, v in zip(({store.text()} {loops}), r_{name}): {statement.buffer}[k] = v"
            if inner
            else f"{statement.buffer}[{store.text()}] = r_{name}[0]"
        )

    def comprehension(self, statement: Statement, inner: list[tuple[int, int]]) -> str:
        """`[expr for ...]`: the statement's values over its inner loops."""
        positions = {p for p, size in inner if size != 1}
        inner_lin = _inner_linear(inner)
        count = 1
        for _, size in inner:
            count *= size

        def kind(buffer: str, ix: Ix) -> str:
            return self.kind(statement, buffer, ix, positions, inner_lin)

        kinds = self.read_kinds(statement, positions, inner_lin)
        walk = "index" not in kinds and ("stream" in kinds or "row" in kinds)
        streams: dict[str, str] = {}  # iterable -> loop variable
        decided: dict[tuple[str, str], str] = {}
        reader = statement.node.name

        def read(buffer: str, ix: Ix) -> str:
            key = (buffer, ix.text())
            if key not in decided:
                decided[key] = self.read(
                    buffer, ix, kind(buffer, ix), walk, streams, inner_lin, count, reader
                )
            return decided[key]

        expr, temps = _temporaries(statement.render(read))
        if expr.startswith("(") and _closing(expr, 0) == len(expr) - 1:
            expr = expr[1:-1]  # the element's outermost parentheses
        if not inner:
            return f"[{expr}{temps}]"
        if not walk:
            loops = " ".join(f"for x{p} in range({size})" for p, size in inner)
            return f"[{expr} {loops}{temps}]"
        if len(streams) == 1:
            ((iterable, var),) = streams.items()
            # the row is the read itself: the list (or slice, a new list) as it is
            return iterable if expr == var else f"[{expr} for {var} in {iterable}{temps}]"
        variables = ", ".join(streams.values())
        return f"[{expr} for {variables} in zip({', '.join(streams)}){temps}]"

    def kind(
        self, statement: Statement, buffer: str, ix: Ix, positions: set[int], inner_lin: Ix
    ) -> str:
        """How a read is written: a value or row of this kernel, hoisted, streamed, indexed."""
        producer = self.own.get(buffer)
        if producer is not None and producer is not statement:
            if isinstance(producer.value, Reduction):
                return "value"
            return "row" if positions else "row0"
        if not (ix.positions() & positions):
            return "hoist"
        return "stream" if _streams(ix, inner_lin, positions) else "index"

    def read_kinds(self, statement: Statement, positions: set[int], inner_lin: Ix) -> list[str]:
        kinds: list[str] = []

        def record(buffer: str, ix: Ix) -> str:
            kinds.append(self.kind(statement, buffer, ix, positions, inner_lin))
            return ""

        statement.render(record)
        return kinds

    def choose_depth(self, statement: Statement) -> int:
        """For a kernel of one pointwise statement: the fewest outer loops with which every
        read streams or is hoisted (a row broadcast to every row of the output streams with
        one outer loop per broadcast dim); 0 if none does."""
        sizes = statement.loop_sizes()
        for depth in range(len(sizes)):
            inner = [(p, sizes[p]) for p in range(depth, len(sizes))]
            positions = {p for p, size in inner if size != 1}
            inner_lin = _inner_linear(inner)
            kinds = self.read_kinds(statement, positions, inner_lin)
            if "index" not in kinds:
                return depth
        return 0

    def read(
        self,
        buffer: str,
        ix: Ix,
        kind: str,
        walk: bool,
        streams: dict[str, str],
        inner_lin: Ix,
        count: int,
        reader: str,
    ) -> str:
        """The text of one read inside a comprehension (see the module docstring); `reader`
        is the statement's node name."""
        producer = self.own.get(buffer)
        if kind == "value":
            assert producer is not None
            return f"v_{producer.node.name}"
        if kind == "row0":
            assert producer is not None
            return f"r_{producer.node.name}[0]"
        if kind == "hoist":
            name = self.temp("h")
            self.body.append(f"{name} = {buffer}[{ix.text()}]")
            return name
        if kind == "row":
            assert producer is not None
            iterable = f"r_{producer.node.name}"
            if not walk:
                return f"{iterable}[{inner_lin.text()}]"
        elif kind == "stream" and walk:
            start = ix.without({p for p, _ in inner_lin.terms}).text()
            stop = str(count) if start == "0" else f"{start} + {count}"
            iterable = f"{buffer}[{start if start != '0' else ''}:{stop}]"
            if iterable == f"{buffer}[:{count}]":
                iterable = buffer if count == self.kernel_size(buffer) else iterable
            iterable = self.slice_of(iterable, reader)
        else:
            return f"{buffer}[{ix.text()}]"
        if iterable not in streams:
            streams[iterable] = self.temp("s")
        return streams[iterable]

    def slice_of(self, iterable: str, reader: str) -> str:
        """`iterable`, or the name it is bound to when several statements stream it
        (`row_x = b_x[...]`)."""
        if iterable.endswith("]"):
            readers = self.sliced.setdefault(iterable, [])
            if reader not in readers:
                readers.append(reader)
        if iterable not in self.shared:
            return iterable
        name = self.shared[iterable]
        if name is None:
            buffer = iterable[: iterable.index("[")].removeprefix("b_")
            taken = {n for n in self.shared.values() if n is not None}
            name = f"row_{buffer}"
            while name in taken:
                name += "_"
            self.shared[iterable] = name
            self.body.append(f"{name} = {iterable}")
        return name

    def kernel_size(self, buffer: str) -> int | None:
        return self.sizes.get(buffer)


class _RuntimeFunctions(ast.NodeTransformer):
    """`a / b` -> `div(a, b)` and `math_exp(x)` -> `exp(x)`, noting what the originals raise."""

    def __init__(self) -> None:
        self.errors: set[str] = set()

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Div):
            return node
        self.errors.add("ZeroDivisionError")
        return ast.Call(ast.Name("div", ast.Load()), [node.left, node.right], [])

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "math_exp":
            self.errors.add("OverflowError")
            node.func = ast.Name("exp", ast.Load())
        return node


def _fallback(text: str) -> tuple[str, str] | None:
    """What `text` (an expression) may raise, and the same expression with the runtime's
    `div` and `exp`, which give inf or nan instead; None when it raises neither."""
    rewrite = _RuntimeFunctions()
    safe = rewrite.visit(ast.parse(text, mode="eval"))
    if not rewrite.errors:
        return None
    errors = sorted(rewrite.errors)
    caught = errors[0] if len(errors) == 1 else f"({', '.join(errors)})"
    return caught, ast.unparse(safe)


_WALRUS = re.compile(r"\((t_\w+) := ")


def _temporaries(expr: str) -> tuple[str, str]:
    """Each `(t_x := value)` of an element's expression (lowering.py's `_fill`) made a clause
    `for t_x in [value]` of the comprehension, innermost first: CPython runs that clause as a
    plain assignment to a comprehension local (a walrus target would be a cell of the kernel).
    Every operand is evaluated exactly once either way, and none has side effects."""
    clauses: list[str] = []
    while True:
        found = None
        for match in _WALRUS.finditer(expr):
            end = _closing(expr, match.start())
            if ":=" not in expr[match.end() : end]:
                found = match, end
                break
        if found is None:
            return expr, "".join(clauses)
        match, end = found
        name, value = match.group(1), expr[match.end() : end]
        taken = {c.split(" ")[2] for c in clauses}
        if name in taken:  # the same node read at another index: another temporary
            name = f"{name}_{len(clauses)}"
        expr = expr[: match.start()] + name + expr[end + 1 :]
        clauses.append(f" for {name} in [{value}]")


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced generated expression: {text!r}")


def _inner_linear(inner: list[tuple[int, int]]) -> Ix:
    """The row-major position within a statement's inner loops."""
    strides = contiguous_strides(tuple(size for _, size in inner))
    result = Ix()
    for (position, size), stride in zip(inner, strides, strict=True):
        if size != 1:
            result = result + Ix.var(position).scale(stride)
    return result


def _streams(ix: Ix, inner_lin: Ix, positions: set[int]) -> bool:
    """Does the read walk the inner loops contiguously, in row-major order?"""
    for text, _ in ix.raw:
        if Ix(raw=((text, 1),)).positions() & positions:
            return False
    moving = Ix(tuple((p, c) for p, c in ix.terms if p in positions))
    return moving.text() == inner_lin.text()


def _even_step(moving: list[tuple[int, int]], inner: list[tuple[int, int]]) -> int | None:
    """The store's step when its inner positions are evenly spaced in row order."""
    sizes = [(p, size) for p, size in inner if size != 1]
    if not sizes:
        return 1
    coeff = dict(moving)
    step = coeff.get(sizes[-1][0], 0)
    if step == 0:
        return None
    expected = step
    for p, size in reversed(sizes):
        if coeff.get(p, 0) != expected:
            return None
        expected *= size
    return step
