"""Graph -> Python source: one assignment per node, every outside object bound as a global.

Node names are the local variables. Everything else the code touches (op impls, constants,
`slice`, `getattr`) is bound under a global name chosen to avoid every node name, so a node
called `slice` or `add` can never shadow what the code calls. Runtime ops, and tensor methods
and operators whose receiver type is known from `meta["val"]`, are called through their
`OpInfo.impl`, so generated code does not dispatch to torch-function modes; calls whose types
are unknown stay plain Python (`x + y`, `x.sin()`) and would.
"""

from __future__ import annotations

import dataclasses
import keyword
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from tracer.graph.graph import Graph
from tracer.graph.naming import Namespace, sanitize, target_name, target_op
from tracer.graph.node import Argument, Node
from tracer.graph.resolve import resolve_method, resolve_operator, static_type

BINARY_OPERATORS: dict[Callable[..., Any], str] = {
    operator.add: "+",
    operator.sub: "-",
    operator.mul: "*",
    operator.truediv: "/",
    operator.floordiv: "//",
    operator.mod: "%",
    operator.pow: "**",
    operator.matmul: "@",
    operator.lshift: "<<",
    operator.rshift: ">>",
    operator.and_: "&",
    operator.or_: "|",
    operator.xor: "^",
    operator.eq: "==",
    operator.ne: "!=",
    operator.lt: "<",
    operator.le: "<=",
    operator.gt: ">",
    operator.ge: ">=",
    operator.is_: "is",
    operator.is_not: "is not",
}
"""`operator` functions written infix: same semantics as the call, easier to read, no call."""
UNARY_OPERATORS: dict[Callable[..., Any], str] = {
    operator.neg: "-",
    operator.pos: "+",
    operator.invert: "~",
    operator.not_: "not ",
}
_LITERAL_TYPES = (int, bool, str, bytes, type(None))
"""Written as literals (finite floats too); other values are bound as globals."""
_SIMPLE_TEXT = re.compile(r"[\w.]{1,40}")


@dataclasses.dataclass(frozen=True)
class PythonCode:
    """Generated source for one graph, and the globals it must run with."""

    source: str
    globals: dict[str, Any]
    fn_name: str

    def __repr__(self) -> str:
        lines = self.source.count("\n")
        return f"PythonCode({self.fn_name}, {lines} lines, globals={sorted(self.globals)})"


def python_code(graph: Graph, fn_name: str = "forward", comments: bool = False) -> PythonCode:
    """Source for `def <fn_name>(<placeholders>): ...`; `comments` adds meta["user_location"]."""
    return _Codegen(graph, fn_name).generate(comments)


class _Codegen:
    def __init__(self, graph: Graph, fn_name: str) -> None:
        self.graph = graph
        self.fn_name = fn_name
        # get_attr nodes are inlined as their global, so only other names become locals; the
        # globals' names avoid every local name.
        nodes = self.nodes = graph.nodes
        reserved = {node.name for node in nodes if node.op != "get_attr"}
        reserved.add(fn_name)
        self.names = Namespace(reserved)
        self.globals: dict[str, Any] = {}
        self._bound: dict[int, str] = {}

    def generate(self, comments: bool) -> PythonCode:
        params = ", ".join(n.name for n in self.graph.placeholders)
        lines = [f"def {self.fn_name}({params}):"]
        for node in self.nodes:
            if node.op in ("placeholder", "get_attr"):
                continue  # parameters / inlined globals
            location = node.meta.get("user_location") if comments else None
            if location:
                lines += [f"    # {line}" for line in str(location).splitlines()]
            lines.append(f"    {self.statement(node)}")
        return PythonCode("\n".join(lines) + "\n", self.globals, self.fn_name)

    def bind(self, value: Any, hint: str) -> str:
        """The global name under which `value` is visible to the generated code."""
        name = self._bound.get(id(value))
        if name is None:
            name = self.names.create(hint)
            self._bound[id(value)] = name
            self.globals[name] = value
        return name

    def bind_impl(self, info: Any) -> str:
        """The global name of an op's implementation (named from its op when first bound)."""
        name = self._bound.get(id(info.impl))
        return name if name is not None else self.bind(info.impl, _impl_hint(info))

    def statement(self, node: Node) -> str:
        """The node's line: `return ...` for the output, else `<node name> = <expression>`.
        Globals the call itself needs are bound before its arguments are rendered (the order
        global names are handed out in)."""
        if node.op == "output":
            return f"return {self.render(node.args[0])}"
        if node.op == "call_function":
            return f"{node.name} = {self.function_call(node)}"
        name = str(node.target)  # call_method
        receiver, *rest = node.args
        info = resolve_method(receiver, name)
        if info is not None:  # the receiver's type is known: call the op's impl
            return f"{node.name} = {self.bind_impl(info)}({self.arguments(node.args, node.kwargs)})"
        if name.isidentifier() and not keyword.iskeyword(name):
            obj = self.render(receiver)
            obj = obj if obj.isidentifier() else f"({obj})"
            return f"{node.name} = {obj}.{name}({self.arguments(tuple(rest), node.kwargs)})"
        method = f"{self.bind(getattr, 'getattr')}({self.render(receiver)}, {name!r})"
        return f"{node.name} = {method}({self.arguments(tuple(rest), node.kwargs)})"

    def function_call(self, node: Node) -> str:
        """A call_function node's expression: the op's impl, an infix or prefix operator, a
        subscript, or a call of the target bound as a global."""
        target, args, kwargs = node.target, node.args, node.kwargs
        info = target_op(target)
        if info is not None:  # a runtime op
            return f"{self.bind_impl(info)}({self.arguments(args, kwargs)})"
        resolved = None if kwargs else resolve_operator(target, _types(args))
        if resolved is not None:  # an operator whose operand types pick an op
            info, reflected = resolved
            fn = self.bind_impl(info)
            return f"{fn}({self.arguments(args[::-1] if reflected else args, {})})"
        infix = _lookup(BINARY_OPERATORS, target)
        if infix is not None and not kwargs and len(args) == 2:
            return f"{self.operand(args[0])} {infix} {self.operand(args[1])}"
        prefix = _lookup(UNARY_OPERATORS, target)
        if prefix is not None and not kwargs and len(args) == 1:
            return f"{prefix}{self.operand(args[0])}"
        if target is operator.getitem and not kwargs and len(args) == 2:
            return f"{self.operand(args[0])}[{self.index(args[1])}]"
        return f"{self.bind(target, target_name(target))}({self.arguments(args, kwargs)})"

    def arguments(self, args: tuple[Argument, ...], kwargs: dict[str, Argument]) -> str:
        """`a, b, k=c`; keywords that are not identifiers go in a `**{...}` dict at the end."""
        parts = [self.render(a) for a in args]
        odd: dict[str, Argument] = {}
        for k, v in kwargs.items():
            if k.isidentifier() and not keyword.iskeyword(k):
                parts.append(f"{k}={self.render(v)}")
            else:
                odd[k] = v
        if odd:
            parts.append(f"**{self.render(odd)}")
        return ", ".join(parts)

    def operand(self, arg: Argument) -> str:
        text = self.render(arg)
        return f"({text})" if text.startswith("-") else text

    def index(self, arg: Argument) -> str:
        """Subscript text: slices as `a:b:c`, tuples without parentheses (`x[:, 0]`)."""
        if isinstance(arg, slice):
            return self.slice_text(arg)
        if type(arg) is tuple and arg:  # only top-level elements may use slice syntax
            parts = [self.slice_text(a) if isinstance(a, slice) else self.render(a) for a in arg]
            return ", ".join(parts) + ("," if len(arg) == 1 else "")
        return self.render(arg)

    def slice_text(self, arg: slice) -> str:
        bounds = [arg.start, arg.stop] + ([arg.step] if arg.step is not None else [])
        return ":".join("" if b is None else self.render(b) for b in bounds)

    def render(self, arg: Argument) -> str:
        """A Python expression that evaluates to `arg` inside the generated function."""
        if isinstance(arg, Node):
            if arg.op == "get_attr":
                return self.bind(self.graph.constants[str(arg.target)], str(arg.target))
            return arg.name
        if type(arg) in _LITERAL_TYPES or (type(arg) is float and math.isfinite(arg)):
            return repr(arg)
        if arg is Ellipsis:
            return "..."
        if type(arg) is tuple:
            rendered = [self.render(a) for a in arg]
            return f"({rendered[0]},)" if len(rendered) == 1 else f"({', '.join(rendered)})"
        if type(arg) is list:
            return f"[{', '.join(self.render(a) for a in arg)}]"
        if type(arg) is dict:
            pairs = [f"{self.render(k)}: {self.render(v)}" for k, v in arg.items()]
            return f"{{{', '.join(pairs)}}}"
        if isinstance(arg, slice):
            bounds = ", ".join(self.render(b) for b in (arg.start, arg.stop, arg.step))
            return f"{self.bind(slice, 'slice')}({bounds})"
        if isinstance(arg, tuple):  # namedtuples take fields, other subclasses one iterable
            cls = self.bind(type(arg), type(arg).__name__)
            if hasattr(arg, "_fields"):
                return f"{cls}({', '.join(self.render(a) for a in arg)})"
            return f"{cls}({self.render(tuple(arg))})"
        return self.bind(arg, _constant_hint(arg))


def _types(args: tuple[Argument, ...]) -> list[type | None]:
    return [static_type(a) for a in args]


def _impl_hint(info: Any) -> str:
    """Global name for an op's impl: `torch_add` for torch.add, `tensor_radd` for __radd__,
    `tensor_add_` for the in-place `Tensor.add_`, `F_relu` for torch.nn.functional.relu,
    `tensor_T` for the property `Tensor.T`."""
    kind = getattr(info, "kind", "function")
    owner = {"function": "torch", "nn.functional": "F"}.get(kind, "tensor")
    name = info.name[2:-2] if info.name.startswith("__") and info.name.endswith("__") else info.name
    return f"{owner}_{name.strip('_') if name.startswith('_') else name}"


def _lookup(table: dict[Callable[..., Any], str], target: Any) -> str | None:
    """`table.get(target)` that tolerates unhashable callables."""
    try:
        return table.get(target)
    except TypeError:
        return None


def _constant_hint(value: Any) -> str:
    """A readable global name for a constant: `float32` for a dtype, `inf` for a float."""
    name = getattr(value, "__name__", None)
    if isinstance(name, str):
        return sanitize(name)
    text = str(value)
    if _SIMPLE_TEXT.fullmatch(text):
        return sanitize(text.rsplit(".", 1)[-1])
    return sanitize(type(value).__name__.lower())
