"""TensorVariable: a tensor during tracing, a graph Node plus its fake value (shape, dtype).

Metadata (shape, dtype, dim) is known while tracing because TENSOR_MATCH guards it; values are
not, so anything that needs them (`item()`, `if t:`) breaks the graph.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables.base import KnownObjectVariable, VariableTracker
from variables.constant import result_wrapper
from variables.misc import GetAttrVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.graph import Node
    from tracer.translator.base import TranslatorBase


@functools.cache  # `from tracer.runtime import ...` runs importlib's Python-level fromlist code
def _tensor_class() -> type:
    """tracer.runtime.Tensor (imported late: the runtime package imports the trackers' users)."""
    from tracer.runtime import Tensor

    return Tensor


METADATA_ATTRS = frozenset({"shape", "dtype", "ndim", "device", "requires_grad", "is_leaf"})
METADATA_METHODS = frozenset({"size", "dim", "numel", "is_floating_point", "ndimension"})
DATA_DEPENDENT_METHODS = frozenset({"item", "tolist", "__bool__", "__float__", "__int__"})


class TensorVariable(VariableTracker):
    """`TensorVariable(L['x']: float32[2, 3])`: a graph node with the fake tensor it computes."""

    __slots__ = ("fake", "node")

    def __init__(self, node: Node, fake: Any, source: Source | None = None) -> None:
        super().__init__(source)
        self.node = node
        self.fake = fake

    def python_type(self) -> type:
        return _tensor_class()

    def is_python_constant(self) -> bool:
        """Never: the base answer, without raising and catching NotConstantError each time."""
        return False

    def truthy(self, tx: TranslatorBase) -> bool:
        unimplemented(
            "data-dependent-branch",
            f"`if` on the value of tensor {self.node.name} depends on runtime data",
            hints=("branch on shape or dtype instead, or move the test out of the function",),
        )

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name in METADATA_ATTRS:
            return result_wrapper()(getattr(self.fake, name))
        if name == "T":
            from variables.constant import ConstantVariable

            dims = [ConstantVariable(d) for d in reversed(range(self.fake.dim()))]
            return tx.output.call_tensor_method(tx, "permute", [self, *dims], {})
        if callable(getattr(type(self.fake), name, None)):  # `x.sin`: the commonest read
            return GetAttrVariable(self, name)
        if not hasattr(type(self.fake), name):
            tx.raise_user_error(AttributeError(f"'Tensor' object has no attribute '{name}'"))
        return super().var_getattr(tx, name)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if name in METADATA_METHODS:
            const_args = [a.as_python_constant() for a in args]
            return result_wrapper()(getattr(self.fake, name)(*const_args))
        if name in DATA_DEPENDENT_METHODS:
            unimplemented(
                "data-dependent-op",
                f"Tensor.{name}() needs the tensor's data, which is not known while tracing",
            )
        return tx.output.call_tensor_method(tx, name, [self, *args], dict(kwargs))

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        if self.fake.dim() == 0:
            unimplemented("iterate", "iteration over a 0-d tensor")
        from variables.constant import ConstantVariable

        return [
            tx.output.call_tensor_method(tx, "__getitem__", [self, ConstantVariable(i)], {})
            for i in range(self.fake.shape[0])
        ]

    def __repr__(self) -> str:
        shape = ", ".join(map(str, self.fake.shape))  # (side-effect descriptions show many)
        where = self.source.name if self.source is not None else self.node.name
        dtype = str(self.fake.dtype).removeprefix("torch.")
        return f"TensorVariable({where}: {dtype}[{shape}])"


class TorchOpVariable(KnownObjectVariable):
    """`TorchOpVariable(torch.add)`: a runtime function whose calls become graph nodes."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return tx.output.call_runtime_function(tx, self.fn, list(args), dict(kwargs))

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name in ("__name__", "__qualname__", "__module__", "__doc__"):
            from variables.constant import ConstantVariable

            return ConstantVariable(getattr(self.fn, name, None))
        return super().var_getattr(tx, name)

    def __repr__(self) -> str:
        info = getattr(self.fn, "__modetrace_op__", None)
        name = info.name if info is not None else getattr(self.fn, "__name__", repr(self.fn))
        return f"TorchOpVariable(torch.{name})"
