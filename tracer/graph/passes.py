"""Graph passes run by the default backend before codegen: dead code, duplicates, constants.

Each pass is a plain function `(graph) -> int` returning how many nodes it changed, so a backend
can time and count them one by one. All of them rely on one judgement, `is_pure`: a pass may
drop, merge or precompute a call only if running it has no effect besides its result.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from tracer.graph.graph import Graph
from tracer.graph.interpreter import Interpreter
from tracer.graph.naming import target_op
from tracer.graph.node import Argument, Node, map_arg
from tracer.graph.resolve import resolve_method

Pass = Callable[[Graph], int]

_PURE_OPERATORS = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "neg", "pos", "abs",
    "invert", "not_", "truth", "lshift", "rshift", "and_", "or_", "xor", "eq", "ne", "lt", "le",
    "gt", "ge", "is_", "is_not", "getitem", "contains", "index",
}  # fmt: skip
PURE_FUNCTIONS: frozenset[Any] = frozenset(
    [getattr(operator, name) for name in _PURE_OPERATORS]
    + [fn for fn in vars(math).values() if callable(fn)]
    + [abs, len, min, max, round]
)
"""Plain callables known to have no side effects (runtime ops are recognized by their OpInfo)."""
IMPURE_OP_NAMES = frozenset(
    {"rand", "randn", "rand_like", "randn_like", "randint", "normal", "bernoulli", "manual_seed"}
    | {"dropout", "__setitem__", "_set_grad_enabled"}
)
"""Runtime ops that read or advance the random state (two calls differ), or that write a
tensor or global state without an in-place name: never drop, merge or fold."""
_CALLS = ("call_function", "call_method")
_MERGEABLE = frozenset({*_CALLS, "get_attr"})
"""Ops CSE may merge."""
_NEVER_FOLDED = frozenset({"placeholder", "output"})
_SCALARS = (int, float, bool, complex, str, bytes, type(None))


def is_pure(node: Node) -> bool:
    """Whether `node` can be removed, merged or precomputed without changing behavior.

    Runtime ops are pure (they compute a new tensor, or a view, from their arguments) except
    random ones and the other `IMPURE_OP_NAMES`, and any in-place op (trailing underscore, like
    `add_`); placeholders and the output never are. A graph that writes a tensor gets no
    merging or folding at all (`run_passes`).
    A dead pure call is dropped even if it would have raised: runtime ops only raise for
    shape/dtype reasons, which fake propagation has already ruled out for the traced inputs.
    """
    if node.op == "get_attr":
        return True
    if node.op == "call_function":
        info = target_op(node.target)
        if info is not None:
            return _pure_op(info)
        try:
            return node.target in PURE_FUNCTIONS
        except TypeError:  # an unhashable callable object
            return False
    if node.op == "call_method":
        info = resolve_method(node.args[0], str(node.target))
        return info is not None and _pure_op(info)
    return False


def _pure_op(info: Any) -> bool:
    name = str(info.name)
    return not writes_in_place(name) and name not in IMPURE_OP_NAMES


def writes_in_place(name: str) -> bool:
    """Whether a runtime op of this name writes a tensor (`add_`, `x[i] = v`)."""
    return (name.endswith("_") and not name.endswith("__")) or name == "__setitem__"


def writes_a_tensor(node: Node) -> bool:
    """Whether `node` calls a runtime op that writes one of its tensor arguments."""
    if node.op == "call_function":
        info = target_op(node.target)
    elif node.op == "call_method":
        info = resolve_method(node.args[0], str(node.target))
    else:
        return False
    return info is not None and writes_in_place(str(info.name))


def sets_grad_mode(node: Node) -> bool:
    """Whether `node` changes grad mode (`torch._C._set_grad_enabled`, what entering and
    leaving `torch.no_grad()` record): results computed before and after it differ in
    `requires_grad`, though the calls are equal."""
    if node.op != "call_function":
        return False
    info = target_op(node.target)
    return info is not None and str(info.name) == "_set_grad_enabled"


def eliminate_dead_code(graph: Graph) -> int:
    """Erase pure nodes whose result nobody uses (last to first, so chains go in one sweep)."""
    erased = 0
    dropped_keys: set[str] = set()
    for node in reversed(graph.nodes):
        if not node.users and node.op not in ("placeholder", "output") and is_pure(node):
            if node.op == "get_attr":
                dropped_keys.add(str(node.target))
            graph.erase_node(node)
            erased += 1
    if dropped_keys:
        still_read = {n.target for n in graph.nodes if n.op == "get_attr"}
        for key in dropped_keys - still_read:
            del graph.constants[key]
    return erased


def eliminate_common_subexpressions(graph: Graph) -> int:
    """Reuse the first of several pure nodes with the same op, target and arguments.

    Two nodes the caller can both see are never merged: each call of an op returns a new
    object, and returning one object twice would be visible (`a is b`) to the caller, as
    would one storage behind two results (`return t1, t0.T` with `t0`, `t1` both `x.sin()`:
    writing one would write the other). A node is seen when it is a graph output or its fake
    value's storage is an output's (a view of it is returned).
    One sweep in order. Nodes are bucketed by target and first input node (duplicates read
    the very same nodes), so full keys (`_node_key`) are built only within a bucket, and
    purity is asked only of a duplicate (it depends only on what the key holds).
    """
    only: dict[Any, Node] = {}  # (target, first input) -> the first node seen there
    keyed: dict[Any, dict[Any, Node]] = {}  # ... once a second one came: key -> first node
    merged = 0
    outputs: set[Node] | None = None  # found on the first duplicate: most graphs have none
    seen: set[int] = set()  # the storages of the outputs' fake values
    pure = _purity_by_target()
    where: tuple[Any, Node | None]  # (target or its id, first input)
    for node in graph.nodes:
        # The op goes without saying: a call_function's target by identity (a str target is
        # never pure), the other two's by name (a get_attr has no input, a method its receiver;
        # should a name meet a method on a constant, the full keys still tell them apart).
        # `_inputs` is read in place (`all_input_nodes` copies): every node comes here.
        op = node.op
        if op == "call_function":
            inputs = node._inputs
            where = (id(node.target), inputs[0] if inputs else None)
        elif op == "call_method" or op == "get_attr":
            inputs = node._inputs
            where = (node.target, inputs[0] if inputs else None)
        else:
            continue
        other = only.setdefault(where, node)
        if other is node:  # the first node there: nothing to compare with, no key built
            continue
        bucket = keyed.get(where)
        if bucket is None:  # the second one: key the first
            bucket = keyed[where] = {_node_key(other): other}
        kept = bucket.setdefault(_node_key(node), node)
        if kept is node:
            continue
        if not pure(node):
            continue
        if outputs is None:
            outputs = _output_nodes(graph)
            seen = {id(s) for n in outputs if (s := _storage(n)) is not None}
        node_seen = node in outputs or id(_storage(node)) in seen
        if node_seen and (kept in outputs or id(_storage(kept)) in seen):
            continue
        if node_seen:
            outputs.add(kept)  # the kept node is returned now (or a view of it)
            if (storage := _storage(kept)) is not None:
                seen.add(id(storage))
        node.replace_all_uses_with(kept)
        graph.erase_node(node)
        merged += 1
    return merged


def _storage(node: Node) -> Any:
    """The storage of the node's fake value (which its views' fake values share), or None."""
    return getattr(node.meta.get("val"), "_storage", None)


def _node_key(node: Node) -> Any:
    """What two nodes must share to compute the same value: op, target, argument keys."""
    target = node.target if isinstance(node.target, str) else id(node.target)
    kwargs = node.kwargs
    return (node.op, target, _key(node.args), _key(kwargs) if kwargs else None)


def _purity_by_target() -> Callable[[Node], bool]:
    """`is_pure` for one pass, asked once per call_function target (the only thing its answer
    depends on there); other nodes are asked each time."""
    known: dict[int, bool] = {}

    def pure(node: Node) -> bool:
        if node.op != "call_function":
            return is_pure(node)
        target = id(node.target)
        if target not in known:
            known[target] = is_pure(node)
        return known[target]

    return pure


def _output_nodes(graph: Graph) -> set[Node]:
    """Nodes the output node returns directly (at any nesting depth)."""
    nodes = graph.nodes
    if not nodes or nodes[-1].op != "output":  # the output node is last, if there is one
        return set()
    return set(nodes[-1].all_input_nodes)


def _key(arg: Argument) -> Any:
    """Hashable identity of an argument: equal keys mean interchangeable arguments.

    Floats compare by repr (so 0.0 and -0.0 differ), Python scalars by type and value (so 1,
    1.0 and True differ), anything else (tensors, objects) by identity.
    """
    kind = type(arg)
    if isinstance(arg, Node):
        return arg
    if kind is float:
        return (kind, repr(arg))
    if kind in _SCALARS:
        return (kind, arg)
    if kind in (tuple, list):
        return (kind, tuple(_key(a) for a in arg))
    if kind is dict:
        return (kind, tuple((_key(k), _key(v)) for k, v in arg.items()))
    if kind is slice:
        return (kind, _key(arg.start), _key(arg.stop), _key(arg.step))
    return ("id", id(arg))


def fold_constants(graph: Graph) -> int:
    """Precompute pure calls that depend on no placeholder; returns how many calls went away.

    Each folded value that a remaining node still needs becomes a `get_attr` (Python scalars are
    inlined as literals); the rest of the constant subgraph is erased. Not folded: calls whose
    evaluation raises (the error must still happen at run time, as in eager) and mutable
    results returned directly by the graph (each call must return a fresh object).
    """
    values = _evaluate_constant_nodes(graph)
    folded = {
        node
        for node, value in values.items()
        if node.op != "get_attr"
        and (isinstance(value, _SCALARS) or all(u.op != "output" for u in node.users))
    }
    if not folded:
        return 0
    for node in graph.nodes:
        if node in folded and any(user not in folded for user in node.users):
            _replace_with_constant(graph, node, values[node])
    erased = 0
    for node in reversed(graph.nodes):
        if node in folded and not node.users:
            graph.erase_node(node)
            erased += 1
    return erased


def _evaluate_constant_nodes(graph: Graph) -> dict[Node, Any]:
    """Values of the get_attr nodes and of the pure calls computable from constants alone."""
    nodes = graph.nodes
    # A constant subgraph starts at a get_attr or at a call without node inputs: when the only
    # nodes without inputs are placeholders and the output, nothing folds (most traced graphs
    # are like that; a comprehension's slot reads are specialized, attrgetter's are not).
    if _NEVER_FOLDED.issuperset([node.op for node in nodes if not node._inputs]):
        return {}
    evaluator = Interpreter(graph)
    values: dict[Node, Any] = {}
    pure = _purity_by_target()
    for node in nodes:
        op = node.op
        if op == "get_attr":
            values[node] = graph.constants[str(node.target)]
        # foldable: a pure call whose inputs all have values
        elif op in _CALLS and all(map(values.__contains__, node._inputs)) and pure(node):
            args = map_arg(node.args, values.__getitem__)
            kwargs = map_arg(node.kwargs, values.__getitem__)
            try:
                values[node] = getattr(evaluator, node.op)(node.target, args, kwargs)
            except Exception:  # noqa: BLE001, S112 - it must fail at run time, as in eager
                continue
    return values


def _replace_with_constant(graph: Graph, node: Node, value: Any) -> None:
    if type(value) in _SCALARS and not (type(value) is float and not math.isfinite(value)):
        node.replace_all_uses_with(value)
        return
    with graph.inserting_before(node):
        constant = graph.add_constant(value, f"{node.name}_folded")
    constant.meta.update(node.meta)
    node.replace_all_uses_with(constant)


DEFAULT_PASSES: tuple[Pass, ...] = (
    fold_constants,
    eliminate_common_subexpressions,
    eliminate_dead_code,
)
"""The default backend's order: folding exposes duplicates, merging exposes dead code."""


def run_passes(graph: Graph, passes: tuple[Pass, ...] = DEFAULT_PASSES) -> dict[str, int]:
    """Run `passes` in order; returns nodes changed per pass name.

    A graph that writes a tensor in place gets dead-code elimination only: two equal pure
    calls on either side of a write read different values (no merging), and a folded constant
    would be written by every run (no folding). So does a graph that changes grad mode: equal
    calls on either side of the change differ in `requires_grad`, and a folded constant would
    have the flag of the compile."""
    if any(writes_a_tensor(node) or sets_grad_mode(node) for node in graph.nodes):
        passes = tuple(p for p in passes if p is eliminate_dead_code)
    return {p.__name__: p(graph) for p in passes}
