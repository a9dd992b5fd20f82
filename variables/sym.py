"""Symbolic scalars: a float (or int) input that is a graph input instead of a constant.

With `specialize_float=False`, a float argument is not guarded by value: it flows into the graph
(`SymNumberVariable(L['alpha']: float)`), and arithmetic on it is recorded. Where Python needs
the concrete value (a branch, `math.floor`, `int()`, formatting: the table SPECIALIZING_CALLS),
the value is *specialized*: guarded with EQUALS_MATCH and used as a constant from then on, so
a different value recompiles exactly where it must. Ints marked dynamic (automatic dynamic, or
`dynamic=True`) work the same way.

A recorded node must behave as eager Python for every value the guards admit. Most arithmetic
is total (`n + m` on ints, `x * y` on floats); some raises for some values only (a division by
zero, `0 ** -1`, a math domain error, an int too large to become a float: `may_raise`). Such a
node is a graph output whether or not its result is used, so it runs and raises; and where a
raise from the graph would come too late (side effects to replay first, a `try` or `with`
around it) the operation runs on the values instead, guarded. So does one whose result type
depends on the values (`min(n, x)`, `n ** e`), and one whose example raises.
"""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import GuardKind
from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.tensor import as_graph_arg

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.graph import Node
    from tracer.output_graph import OutputGraph
    from tracer.translator.base import TranslatorBase

SPECIALIZING_CALLS: frozenset[Any] = frozenset(
    {
        math.floor, math.ceil, math.trunc, math.isnan, math.isinf, math.isfinite,
        builtins.round, builtins.int, builtins.float, builtins.str, builtins.repr,
        builtins.format, builtins.bool, builtins.hash, builtins.range, builtins.divmod,
        float.is_integer, float.hex, int.bit_length,
        operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne,
        operator.index, operator.truth, operator.not_,
    }
)  # fmt: skip
"""Calls that need the concrete value. Applying one to a symbolic scalar specializes it (a guard
on its value); everything else on a symbolic scalar is recorded in the graph."""

GRAPH_ARITHMETIC: frozenset[Any] = frozenset(
    {
        operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
        operator.mod, operator.pow, operator.neg, operator.pos, operator.abs,
    }
)  # fmt: skip
"""Operators recorded in the graph when an operand is symbolic (and none is a tensor)."""


class SymNumberVariable(VariableTracker):
    """`SymNumberVariable(L['alpha']: float)`: a scalar graph value with an example value."""

    __slots__ = ("example", "node", "output", "specialized")

    def __init__(
        self, node: Node, example: Any, output: OutputGraph, source: Source | None = None
    ) -> None:
        super().__init__(source)
        self.node = node
        self.example = example
        self.output = output
        self.specialized: VariableTracker | None = None

    def python_type(self) -> type:
        return type(self.example)

    def is_python_constant(self) -> bool:
        return False  # asking must not specialize; only using the value does

    def as_python_constant(self) -> Any:
        """Whoever needs the concrete value gets it, and the value is guarded."""
        return self.specialize(None).as_python_constant()

    def specialize(self, tx: TranslatorBase | None) -> VariableTracker:
        """Guard on the concrete value and continue with it as a constant."""
        if self.specialized is None:
            for source, value in self._scalar_inputs():
                self.output.add_guard(GuardKind.EQUALS_MATCH, source, value)
            self.specialized = ConstantVariable(self.example, self.source)
        return self.specialized

    def _scalar_inputs(self) -> list[tuple[Source, Any]]:
        """The symbolic inputs this value was computed from (itself, for an input): fixing
        their values fixes this one."""
        return scalar_inputs(self.output, [self.node])

    def truthy(self, tx: TranslatorBase) -> bool:
        return self.specialize(tx).truthy(tx)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        return self.specialize(tx).var_getattr(tx, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Any,
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.specialize(tx).call_method(tx, name, args, kwargs)

    def __repr__(self) -> str:
        where = self.source.name if self.source is not None else self.node.name
        kind = "SymFloatVariable" if isinstance(self.example, float) else "SymIntVariable"
        return f"{kind}({where})"


def scalar_inputs(output: OutputGraph, nodes: list[Node]) -> list[tuple[Source, Any]]:
    """The graph inputs (source, value) that the scalar `nodes` were computed from."""
    placeholders = {node: source for source, node in output.graph_inputs}
    found: dict[Any, tuple[Source, Any]] = {}
    pending = list(nodes)
    while pending:
        node = pending.pop()
        if node in placeholders:
            found[node] = (placeholders[node], node.meta["val"])
        pending.extend(node.all_input_nodes)
    return list(found.values())


def pin_scalar_arguments(output: OutputGraph, node_args: Any) -> None:
    """Guard by value the symbolic scalars among an op's graph arguments (nested in tuples,
    lists and dicts too): what the op raised on their examples holds for those values only
    (`t[i]` out of range names `i`)."""
    pending, nodes = [node_args], []
    while pending:
        arg = pending.pop()
        if isinstance(arg, tuple | list):
            pending.extend(arg)
        elif isinstance(arg, dict):
            pending.extend(arg.values())
        elif type(getattr(arg, "meta", {}).get("val")) in (int, float, bool):
            nodes.append(arg)
    for source, value in scalar_inputs(output, nodes):
        output.add_guard(GuardKind.EQUALS_MATCH, source, value)


def record_scalar_op(tx: TranslatorBase, fn: Any, args: list[VariableTracker]) -> VariableTracker:
    """Arithmetic on symbolic scalars (no tensors involved) as a graph node, where the node
    behaves as eager Python for every value the guards admit; else on the values, guarded
    (`on_values`): where the result's type depends on the values (`_type_may_vary`), where
    the example raises (the raise depends on them), and where a raise from the graph would
    come too late (`_raise_seen_late`)."""
    pairs = [as_graph_arg(a) for a in args]
    operands = [(p[1], isinstance(a, SymNumberVariable)) for a, p in zip(args, pairs, strict=True)]
    if _type_may_vary(fn, operands) or (may_raise(fn, operands) and _raise_seen_late(tx)):
        return on_values(tx, fn, args)
    try:
        example = fn(*(p[1] for p in pairs))
    except Exception:  # noqa: BLE001 - raised again, guarded, by on_values
        return on_values(tx, fn, args)
    node = tx.output.graph.call_function(fn, tuple(p[0] for p in pairs))
    node.meta["val"] = example
    if may_raise(fn, operands):
        tx.output.raising_nodes.append(node)
    return SymNumberVariable(node, example, tx.output)


def specialize_args(tx: TranslatorBase, args: list[VariableTracker]) -> list[VariableTracker]:
    return [a.specialize(tx) if isinstance(a, SymNumberVariable) else a for a in args]


def on_values(tx: TranslatorBase, fn: Any, args: list[VariableTracker]) -> VariableTracker:
    """`fn` on the operands' values: the symbolic ones specialized (guarded by value)."""
    values = [a.as_python_constant() for a in args]
    return ConstantVariable(tx.run_user_operation(fn, *values))


def symbolic_int_operand(tx: TranslatorBase, args: Sequence[VariableTracker]) -> bool | None:
    """A symbolic int operand of a tensor operator (`t * n`) may raise for a huge value (too
    large for a float, or for int64 in torch): True where that raise would come too late
    (`_raise_seen_late`: guard it by value), None where the graph may raise it (a raising
    node), False when there is no symbolic int among `args`."""
    realized = [a.realize() for a in args]
    ints = [
        a for a in realized if isinstance(a, SymNumberVariable) and type(a.example) is not float
    ]
    if not ints:
        return False
    return True if _raise_seen_late(tx) else None


def _type_may_vary(fn: Any, operands: list[tuple[Any, bool]]) -> bool:
    """Whether the result's type depends on the values: `min`/`max` of an int and a float
    return either; `n ** e` is an int or a float by the sign of a symbolic int exponent, and
    a negative float to a fractional power is complex."""
    if fn in (builtins.min, builtins.max):
        return len({type(value) for value, _ in operands}) > 1
    if fn in (operator.pow, builtins.pow) and len(operands) == 2:
        exponent, symbolic = operands[1]
        integral = type(exponent) in (int, bool) or (
            type(exponent) is float and exponent.is_integer()
        )
        return symbolic or not integral
    return False


def _raise_seen_late(tx: TranslatorBase) -> bool:
    """Would a raise from the graph differ from eager's raise here? The graph runs before
    the frame's side effects (the mode stack's too) are replayed, and outside its `try` and
    `with` blocks."""
    output = tx.output
    return (
        not output.side_effects.is_empty() or output.mode_stack_changed() or tx.in_handled_region()
    )


# -- which operations on numbers can raise for some values of their symbolic operands
# (operands are `(example, symbolic)` pairs: a constant one is the same on every call)

Operand = tuple[Any, bool]
"""An operand's value (the example of a symbolic one) and whether it is symbolic."""

_TOTAL = frozenset(
    {operator.neg, operator.pos, operator.abs, builtins.abs, builtins.min, builtins.max}
)
"""Never raise on ints and floats (int/float comparisons are exact, with no conversion)."""
_CONVERTING = frozenset({operator.add, operator.sub, operator.mul})
"""Total on ints, and on floats; an int that meets a float is converted, which overflows
past about 1.8e308."""
_DIVIDING = frozenset({operator.truediv, operator.floordiv, operator.mod})


def _is_number(value: Any) -> bool:
    return type(value) in (int, float, bool)


def may_raise(fn: Any, operands: Sequence[Operand]) -> bool:
    """Whether `fn(*operands)` on numbers can raise for some value of its symbolic operands.
    Anything that is not a known operation on numbers may."""
    if not all(_is_number(value) for value, _ in operands):
        return True
    symbolic_int = any(sym and type(value) is not float for value, sym in operands)
    meets_float = symbolic_int and any(type(value) is float for value, _ in operands)
    if fn in _TOTAL:
        return False
    if fn in _CONVERTING:
        return meets_float
    if fn in _DIVIDING and len(operands) == 2:
        (dividend, _), (divisor, divisor_symbolic) = operands
        if divisor_symbolic or divisor == 0 or meets_float:
            return True
        return fn is operator.truediv and type(dividend) is not float  # int / int overflows
    return True
