"""Symbolic scalars: a float (or int) input that is a graph input instead of a constant.

With `specialize_float=False`, a float argument is not guarded by value: it flows into the graph
(`SymNumberVariable(L['alpha']: float)`), and arithmetic on it is recorded. Where Python needs
the concrete value (a branch, `math.floor`, `int()`, formatting: the table SPECIALIZING_CALLS),
the value is *specialized*: guarded with EQUALS_MATCH and used as a constant from then on, so
a different value recompiles exactly where it must. Ints marked dynamic (automatic dynamic, or
`dynamic=True`) work the same way.
"""

from __future__ import annotations

import builtins
import math
import operator
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
        placeholders = {node: source for source, node in self.output.graph_inputs}
        found: dict[Any, tuple[Source, Any]] = {}
        pending = [self.node]
        while pending:
            node = pending.pop()
            if node in placeholders:
                found[node] = (placeholders[node], node.meta["val"])
            pending.extend(node.all_input_nodes)
        return list(found.values())

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


def record_scalar_op(tx: TranslatorBase, fn: Any, args: list[VariableTracker]) -> VariableTracker:
    """Arithmetic on symbolic scalars (no tensors involved) as a graph node."""
    pairs = [as_graph_arg(a) for a in args]
    example = tx.run_user_operation(fn, *(p[1] for p in pairs))
    node = tx.output.graph.call_function(fn, tuple(p[0] for p in pairs))
    node.meta["val"] = example
    return SymNumberVariable(node, example, tx.output)


def specialize_args(tx: TranslatorBase, args: list[VariableTracker]) -> list[VariableTracker]:
    return [a.specialize(tx) if isinstance(a, SymNumberVariable) else a for a in args]
