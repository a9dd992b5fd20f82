"""TensorVariable: a tensor during tracing, a graph Node plus its fake value (shape, dtype).

Metadata (shape, dtype, dim) is known while tracing because TENSOR_MATCH guards it; values are
not, so anything that needs them (`item()`, `if t:`) breaks the graph. Reading metadata is an op
like any other (`x.shape` is `Tensor.shape.__get__`, `x.dim()` is `Tensor.dim`): a constant when
no torch-function mode is on the stack, else whatever the mode's traced handler returns. The
tracer's own reads go to the fake tensor's slots (`fake._shape`), which no mode sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.sources import AttrSource
from tracer import worlds
from tracer.exc import unimplemented
from variables import builder
from variables.base import (
    GetAttrVariable,
    KnownObjectVariable,
    NotConstantError,
    VariableTracker,
)
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable
from variables.lists import BaseListVariable, TupleVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen.pycodegen import PyCodegen
    from tracer.graph import Node
    from tracer.translator.base import TranslatorBase


METADATA_ATTRS = frozenset({"requires_grad", "is_leaf"})
AUTOGRAD_STATE = frozenset({"grad", "grad_fn", "is_leaf", "retains_grad", "grad_dtype"})
"""Attributes of an input tensor its TENSOR_MATCH does not pin: read from the real tensor."""
DATA_DEPENDENT_METHODS = frozenset(
    {"item", "tolist", "__bool__", "__float__", "__int__", "__complex__", "__index__"}
)
OBJECT_METHODS = frozenset(
    {
        "__hash__", "__repr__", "__str__", "__format__", "__sizeof__", "__reduce__",
        "__reduce_ex__", "_reduce_ex_internal", "__getstate__", "data_ptr", "const_data_ptr",
        "mutable_data_ptr", "_use_count", "is_set_to", "register_hook",
        "register_post_accumulate_grad_hook",
    }
)  # fmt: skip
"""Methods that answer for, or act on, the tensor object rather than its metadata: its
identity, memory, storage, text, hooks. Run on the fake, each answers for the fake
(`FakeTensor(...)`, a data pointer of 0, `is_set_to` of two fakes) or hooks the fake, so they
break the graph and run eagerly."""


class TensorVariable(VariableTracker):
    """`TensorVariable(L['x']: float32[2, 3])`: a graph node with the fake tensor it computes."""

    __slots__ = ("cls", "fake", "grad_stored", "node", "real")

    def __init__(
        self, node: Node, fake: Any, source: Source | None = None, cls: type | None = None
    ) -> None:
        super().__init__(source)
        self.node = node
        self.fake = fake
        self.cls = cls
        """An input's exact tensor class when it is a subclass (`nn.Parameter`, guarded by
        TENSOR_MATCH); None for the world's own tensor type, and for every op's result."""
        self.real: Any = None
        """An input's real tensor, while tracing (None for every op's result): its own
        attribute dict, which an attribute read looks in before the methods of its class (a
        torch tensor has one: `p._is_sharded = True`), and its `.grad` are read from it."""
        self.grad_stored = False
        """The trace set the input's `.grad` to None (`store_attr`): later reads are None."""

    def python_type(self) -> type:
        return self.cls if self.cls is not None else worlds.current().tensor_type

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
        world = tx.output.world
        source = self.source if self.real is not None else None  # an input's
        if name == "grad" and self.grad_stored:
            if tx.output.modes_consulted():  # (a mode pushed since would be handed the getter)
                unimplemented("tensor-attribute", f"reading grad of {self!r} under a mode")
            return ConstantVariable(None)
        if name in AUTOGRAD_STATE and source is not None and not tx.output.modes_consulted():
            # autograd's state of an input, which TENSOR_MATCH does not pin and `backward()`
            # changes between calls: read at its source and guarded, as Dynamo reads `.grad`
            try:
                value = getattr(self.real, name)
            except Exception:  # noqa: BLE001 - `grad_dtype` of a non-leaf: eager raises it
                unimplemented("tensor-attribute", f"reading {name} of {self!r} raises")
            if name != "grad_fn" or value is None:  # (a node of autograd's graph: not pinned)
                return tx.output.builder.wrap(value, AttrSource(source, name))
        if name in world.properties:  # `shape`, `dtype`, `T`...: a constant (`shape`), a
            # graph node (`T`), or what the mode's handler returns for `Tensor.<name>.__get__`
            return tx.output.call_tensor_property(tx, name, self)
        if name in METADATA_ATTRS:
            return builder.wrap_constant_result(world.read_attr(self.fake, name))
        own = getattr(self.real, "__dict__", None)  # (the runtime's tensors have none)
        if own is not None and source is not None:
            # an input's own attribute comes before a method of its class (the properties
            # above are data descriptors: they come first); an absent one is guarded absent
            if name in own:
                return tx.output.builder.wrap(own[name], AttrSource(source, name))
            tx.output.guard_name_absent(AttrSource(source, "__dict__"), name)
        if callable(getattr(world.tensor_type, name, None)):  # a method: `x.sin`
            return GetAttrVariable(self, name)
        cls = self.python_type()  # (Parameter, or a subclass: CPython's message names it)
        if not hasattr(cls, name):
            tx.raise_user_error(
                AttributeError(f"'{cls.__name__}' object has no attribute '{name}'")
            )
        return super().var_getattr(tx, name)

    def store_attr(self, tx: TranslatorBase, name: str, value: VariableTracker) -> None:
        """`p.grad = None` on an input (`Module.zero_grad()`, `Optimizer.zero_grad()`): a side
        effect the compiled code replays, and what later reads of `p.grad` in the trace see.
        A torch-function mode would be handed the setter (`Tensor.grad.__set__`); any other
        store on a tensor is not modeled."""
        value = value.realize()
        if not (
            name == "grad"
            and self.real is not None
            and self.source is not None
            and isinstance(value, ConstantVariable)
            and value.value is None
            and not tx.output.modes_consulted()
        ):
            unimplemented("setattr", f"setting attribute {name!r} on {self!r}")
        tx.output.side_effects.store_attr(tx, self, name, value)
        self.grad_stored = True

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        if name in DATA_DEPENDENT_METHODS:
            unimplemented(
                "data-dependent-op",
                f"Tensor.{name}() needs the tensor's data, which is not known while tracing",
            )
        if name in OBJECT_METHODS:
            unimplemented(
                "tensor-object",
                f"Tensor.{name}() answers for, or acts on, the tensor object (its identity, "
                "memory, text or hooks), which the fake tensor the trace holds is not",
            )
        result = tx.output.call_tensor_method(tx, name, [self, *args], dict(kwargs))
        return returned_input(result, [self, *args, *kwargs.values()])

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        if tx.output.modes_consulted():
            unimplemented(
                "iterate",
                "iterating a tensor under a torch function mode: the mode sees `dim` and "
                "`unbind`, and some consumers' `__len__` (the length hint of `list(x)`)",
            )
        shape = tx.output.world.shape(self.fake)
        if not shape:
            unimplemented("iterate", "iteration over a 0-d tensor")

        return [
            tx.output.call_tensor_method(tx, "__getitem__", [self, ConstantVariable(i)], {})
            for i in range(shape[0])
        ]

    def __repr__(self) -> str:
        world = worlds.current()
        shape = ", ".join(map(str, world.shape(self.fake)))  # (side-effect descriptions show many)
        where = self.source.name if self.source is not None else self.node.name
        dtype = world.dtype_text(self.fake)
        return f"TensorVariable({where}: {dtype}[{shape}])"


def returned_input(result: VariableTracker, inputs: Sequence[VariableTracker]) -> VariableTracker:
    """The tracker of the input an op returned as its result, else `result`.

    Some runtime ops return their argument itself: `x.contiguous()` (always, in the runtime),
    `x.add_(y)` and the other in-place ops, `x.to(x.dtype)`, `x.float()` on a float32 tensor.
    Which ones, and when, is the op's own code deciding on the tensor's metadata; the fake run
    executes that code on the fake input, which carries the same metadata (guarded). So a fake
    result that *is* a fake input means the real op returns its real input, and the result is
    that input's tracker: `x.contiguous() is x` holds compiled as eagerly. (The node stays in
    the graph; dead-code elimination drops it when nobody uses it, unless it writes.) So for
    each tensor of a tuple result (`torch.atleast_1d(x, y)`, `torch.max(x, 0, out=(v, i))`),
    among the tensors of the arguments and of their tuples and lists."""
    if isinstance(result, TensorVariable):
        for vt in inputs:
            vt = vt.realize()
            if isinstance(vt, TensorVariable) and vt.fake is result.fake:
                return vt
        return result
    if isinstance(result, TupleVariable):  # (a struct sequence's items too: `.values`)
        tensors = _tensors_in(inputs)
        result.items[:] = [returned_input(item, tensors) for item in result.items]
    return result


def _tensors_in(values: Sequence[VariableTracker]) -> list[VariableTracker]:
    """The tensors among `values` and in the tuples and lists among them."""
    found: list[VariableTracker] = []
    for vt in values:
        vt = vt.realize()
        if isinstance(vt, TensorVariable):
            found.append(vt)
        elif isinstance(vt, BaseListVariable):
            found += _tensors_in(vt.items)
    return found


def as_graph_arg(vt: VariableTracker) -> tuple[Any, Any]:
    """(what the graph node holds, what the fake run gets) for one argument."""
    if type(vt) is TensorVariable:  # most arguments: already real, no realize() call
        return vt.node, vt.fake
    vt = vt.realize()
    if isinstance(vt, TensorVariable):
        return vt.node, vt.fake
    if isinstance(vt, sym.SymNumberVariable):
        return vt.node, vt.example
    if isinstance(vt, BaseListVariable):
        pairs = [as_graph_arg(item) for item in vt.items]
        cls = tuple if isinstance(vt, TupleVariable) else list
        return cls(p[0] for p in pairs), cls(p[1] for p in pairs)
    if isinstance(vt, ConstDictVariable):
        pairs_d = {k: as_graph_arg(v) for k, v in vt.items.items()}
        return {k: p[0] for k, p in pairs_d.items()}, {k: p[1] for k, p in pairs_d.items()}
    try:
        value = vt.as_python_constant()
    except NotConstantError:
        unimplemented("graph-arg", f"{vt!r} cannot be passed to a tensor op")
    return value, value


class TorchOpVariable(KnownObjectVariable):
    """`TorchOpVariable(torch.add)`: a runtime function whose calls become graph nodes."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        result = tx.output.call_runtime_function(tx, self.fn, list(args), dict(kwargs))
        return returned_input(result, [*args, *kwargs.values()])

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name in ("__name__", "__qualname__", "__module__", "__doc__"):
            return ConstantVariable(getattr(self.fn, name, None))
        return super().var_getattr(tx, name)

    def reconstruct(self, cg: PyCodegen) -> None:
        """The op itself (a mode that keeps the `func` it was handed makes the compiled code
        hand back that very object)."""
        if self.source is not None:
            cg.load_source(self.source)
        else:
            cg.load_const(self.fn)

    def __repr__(self) -> str:
        info = getattr(self.fn, "__modetrace_op__", None)
        name = info.name if info is not None else getattr(self.fn, "__name__", repr(self.fn))
        return f"TorchOpVariable(torch.{name})"


# At the bottom, as a module: variables.sym imports this module's names at its top, and this
# module reads it only while tracing (`as_graph_arg` passes a symbolic scalar's node); so either
# of the two can load first.
from variables import sym  # noqa: E402
