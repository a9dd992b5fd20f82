"""One operation of a Graph, and the walk over the nested arguments that can hold nodes.

A node's `users` and `all_input_nodes` are derived from its arguments; they are kept in sync
whenever `args`/`kwargs` are assigned, so passes can trust them without recomputing (`lint`
checks it).

NOTE [acyclic graph]: a node refers to its graph weakly, and its `users` live in the graph
(`Graph._users`), not in the node. References then only point one way (graph -> nodes ->
the nodes they read), so a graph nobody holds is freed by reference counting the moment its
cache entry goes: its nodes, metadata and fake tensors (and whatever they hold) are released
then, not at some later garbage collection. A node outlives its graph only if something else
holds it: its `graph` is then None and it has no users.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from tracer.graph.naming import target_name

if TYPE_CHECKING:
    from tracer.graph.graph import Graph


def _detached() -> Graph | None:
    """The `_graph` of a node erased from its graph: it belongs to none."""
    return None


Op = Literal["placeholder", "call_function", "call_method", "get_attr", "output"]
OPS: frozenset[str] = frozenset(
    {"placeholder", "call_function", "call_method", "get_attr", "output"}
)
Argument = Any
"""A node argument: a Node, a constant, or a tuple/list/dict/slice nesting of them."""
Target = Callable[..., Any] | str
"""A callable for call_function; a method, attribute or placeholder name otherwise."""


def map_arg(arg: Argument, fn: Callable[[Node], Argument]) -> Argument:
    """Rebuild `arg` with every Node inside it replaced by `fn(node)`.

    Walks tuples (namedtuples keep their type), lists, dicts (values only) and slices; anything
    else is a constant and comes back as is.

    >>> map_arg((1, [2, {"k": slice(3, None)}]), lambda n: n)
    (1, [2, {'k': slice(3, None, None)}])
    """
    return map_aggregate(arg, lambda a: fn(a) if isinstance(a, Node) else a)


def map_aggregate(arg: Argument, fn: Callable[[Any], Any]) -> Argument:
    """Rebuild `arg` with `fn` applied to every leaf (anything not a tuple/list/dict/slice)."""
    if type(arg) is tuple:
        return tuple(map_aggregate(a, fn) for a in arg)
    if isinstance(arg, tuple):  # namedtuples take fields; other subclasses one iterable
        items = [map_aggregate(a, fn) for a in arg]
        return type(arg)(*items) if hasattr(arg, "_fields") else type(arg)(items)
    if isinstance(arg, list):
        return [map_aggregate(a, fn) for a in arg]
    if isinstance(arg, dict):
        return {k: map_aggregate(v, fn) for k, v in arg.items()}
    if isinstance(arg, slice):
        return slice(
            map_aggregate(arg.start, fn), map_aggregate(arg.stop, fn), map_aggregate(arg.step, fn)
        )
    return fn(arg)


def collect_nodes(arg: Argument) -> list[Node]:
    """The distinct nodes inside `arg`, in first-use order.

    Walks the same structure in the same order as `map_arg`, without rebuilding it.
    """
    seen: dict[Node, None] = {}
    _collect_into(arg, seen)
    return list(seen)


def _collect_into(arg: Argument, seen: dict[Node, None]) -> None:
    if type(arg) is tuple or isinstance(arg, list):
        for item in arg:  # nodes and constants directly: most arguments are one of them
            if isinstance(item, Node):
                seen[item] = None
            elif isinstance(item, _NESTINGS):
                _collect_into(item, seen)
    elif isinstance(arg, tuple):  # a namedtuple or other subclass: walk it as map_arg does

        def visit(node: Node) -> Node:
            seen[node] = None
            return node

        map_arg(arg, visit)
    elif isinstance(arg, dict):
        for value in arg.values():
            _collect_into(value, seen)
    elif isinstance(arg, slice):
        _collect_into(arg.start, seen)
        _collect_into(arg.stop, seen)
        _collect_into(arg.step, seen)
    elif isinstance(arg, Node):
        seen[arg] = None


def _inputs_of(args: tuple[Argument, ...], kwargs: dict[str, Argument]) -> list[Node]:
    """`collect_nodes((args, kwargs))`: the distinct nodes of `args`, then of `kwargs`."""
    seen: dict[Node, None] = {}
    _collect_into(args, seen)
    if kwargs:
        _collect_into(kwargs, seen)
    return list(seen)


_NESTINGS = (tuple, list, dict, slice)
"""The argument types `map_aggregate` walks into; anything else is a leaf."""


class Node:
    """One operation in a Graph; its `name` is also its variable name in generated code.

    `op` is one of:
      - `placeholder`: a graph input, `target` is its name;
      - `call_function`: `target(*args, **kwargs)`;
      - `call_method`: `args[0].<target>(*args[1:], **kwargs)`;
      - `get_attr`: the constant `graph.constants[target]`;
      - `output`: the graph's return value, `args[0]` (a node or a nesting of nodes).

    `meta` holds what the tracer knows: `val` (a FakeTensor or constant), `stack`,
    `user_location` (strings).

    >>> from tracer.graph import Graph
    >>> import operator
    >>> g = Graph()
    >>> x = g.placeholder("x")
    >>> add = g.call_function(operator.add, (x, 1))
    >>> add, list(x.users)
    (Node(add: call_function operator.add(x, 1)), [Node(add: call_function operator.add(x, 1))])
    """

    __slots__ = ("_args", "_graph", "_inputs", "_kwargs", "meta", "name", "op", "target")

    def __init__(
        self,
        graph: Graph,
        name: str,
        op: Op,
        target: Target,
        args: tuple[Argument, ...],
        kwargs: dict[str, Argument],
        meta: dict[str, Any] | None = None,
    ) -> None:
        if op not in OPS:
            raise ValueError(f"unknown node op {op!r} for node {name!r}")
        self._graph: Callable[[], Graph | None] = graph._ref
        self.name = name
        self.op: Op = op
        self.target = target
        graph._users[self] = {}
        self.meta: dict[str, Any] = {} if meta is None else meta
        self._inputs: list[Node] = []
        self._set_arguments(args, kwargs)  # records this node among its inputs' users

    @property
    def graph(self) -> Graph | None:
        """The graph this node belongs to (None once that graph is gone: NOTE [acyclic graph])."""
        return self._graph()

    @property
    def users(self) -> dict[Node, None]:
        """Nodes that use this one, in the order they started to (an ordered set). Kept by the
        graph (NOTE [acyclic graph]); a node erased, or whose graph is gone, has none."""
        graph = self._graph()
        return {} if graph is None else graph._users[self]

    @property
    def args(self) -> tuple[Argument, ...]:
        return self._args

    @args.setter
    def args(self, args: tuple[Argument, ...]) -> None:
        self._set_arguments(args, self._kwargs)

    @property
    def kwargs(self) -> dict[str, Argument]:
        return self._kwargs

    @kwargs.setter
    def kwargs(self, kwargs: dict[str, Argument]) -> None:
        self._set_arguments(self._args, kwargs)

    @property
    def all_input_nodes(self) -> list[Node]:
        """The distinct nodes this one reads, in argument order."""
        return list(self._inputs)

    def _set_arguments(self, args: tuple[Argument, ...], kwargs: dict[str, Argument]) -> None:
        """The one place arguments change, so `users` of old and new inputs stay exact."""
        for old in self._inputs:
            old.users.pop(self, None)
        self._args = tuple(args)
        self._kwargs = dict(kwargs)
        self._inputs = _inputs_of(self._args, self._kwargs)
        for new in self._inputs:
            new.users[self] = None

    def replace_input_with(self, old: Node, new: Argument) -> None:
        """Make this node read `new` (a node or a constant) wherever it read `old`."""

        def swap(n: Node) -> Argument:
            return new if n is old else n

        self._set_arguments(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def replace_all_uses_with(self, replacement: Argument) -> list[Node]:
        """Point every user at `replacement` instead; returns the users that changed."""
        changed = list(self.users)
        for user in changed:
            user.replace_input_with(self, replacement)
        return changed

    def format_node(self) -> str:
        """This node as one line of `Graph.__str__`: `%add : f32[3] = call_function[...]`."""
        args = map_arg(self._args, _Ref)
        if self.op == "output":
            return f"return {args[0]!r}"
        typed = f" : {describe_value(self.meta['val'])}" if "val" in self.meta else ""
        call = f"{self.op}[target={target_name(self.target)}]"
        if self.op in ("placeholder", "get_attr"):
            return f"%{self.name}{typed} = {call}"
        kwargs = map_arg(self._kwargs, _Ref)
        shown = f"args = {args!r}" + (f", kwargs = {kwargs!r}" if kwargs else "")
        return f"%{self.name}{typed} = {call}({shown})"

    def __repr__(self) -> str:
        if self.op in ("placeholder", "get_attr"):
            return f"Node({self.name}: {self.op} {self.target})"
        args = [repr(a) for a in map_arg(self._args, _BareRef)]
        args += [f"{k}={v!r}" for k, v in map_arg(self._kwargs, _BareRef).items()]
        return f"Node({self.name}: {self.op} {target_name(self.target)}({', '.join(args)}))"


class _Ref:
    """Prints a node reference inside a printed argument structure as `%name`."""

    __slots__ = ("node",)
    prefix = "%"

    def __init__(self, node: Node) -> None:
        self.node = node

    def __repr__(self) -> str:
        return f"{self.prefix}{self.node.name}"


class _BareRef(_Ref):
    __slots__ = ()
    prefix = ""


_DTYPE_SHORT = {
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "bool": "b8",
}


def describe_value(value: Any) -> str:
    """A short type for printouts: `f32[2, 3]` for tensors, the type name for anything else."""
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        dtype_name = str(getattr(dtype, "name", None) or dtype).rsplit(".", 1)[-1]
        dims = ", ".join(str(d) for d in shape)
        return f"{_DTYPE_SHORT.get(dtype_name, dtype_name)}[{dims}]"
    return type(value).__name__
