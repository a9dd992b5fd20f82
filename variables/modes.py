"""The torch-function mode stack while tracing.

The translator keeps a symbolic copy of the stack (`OutputGraph.mode_stack`, shared by inlined
frames), seeded at trace start from the real stack and guarded by the MODE_STACK leaf guard.
`with Mode():`, the `_C` push/pop/len/get functions and `_pop_mode_temporarily()` act on the
symbolic copy with no graph break; the first change marks the stack mutated and codegen sets the
real stack to the final symbolic state (see notes/side-effects.md).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tracer import worlds
from tracer.exc import unimplemented
from variables.base import KnownObjectVariable, VariableTracker
from variables.constant import ConstantVariable
from variables.lists import BaseListVariable, ListVariable, TupleVariable
from variables.user_defined import UserDefinedObjectVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.translator.base import TranslatorBase


def is_mode_class(cls: type) -> bool:
    return issubclass(cls, worlds.current().mode_base)


class TorchFunctionModeVariable(UserDefinedObjectVariable):
    """`TorchFunctionModeVariable(LoggingMode @ ___mode_stack[0])`: a mode object. Entering it
    with the default `__enter__` pushes it on the symbolic stack."""

    __slots__ = ()

    def enter_context(self, tx: TranslatorBase) -> tuple[VariableTracker, VariableTracker]:
        base = tx.output.world.mode_base
        if self.special_method(tx, "__enter__", pin=True)[0] is base.__dict__["__enter__"]:
            tx.output.push_mode(tx, self)
            entered: VariableTracker = self
        else:
            entered = self.call_method(tx, "__enter__", [], {})
        exit_fn = self.var_getattr(tx, "__exit__")
        return exit_fn, entered

    def __repr__(self) -> str:
        where = f" @ {self.source.name}" if self.source is not None else ", new"
        return f"TorchFunctionModeVariable({self.cls.__qualname__}{where})"


class ModeStackFunctionVariable(KnownObjectVariable):
    """One of the runtime's stack functions (`_C._push_on_torch_function_stack`, ...), applied
    to the symbolic stack instead of the real one."""

    __slots__ = ("kind",)

    def __init__(self, fn: Any, kind: str, source: Source | None = None) -> None:
        super().__init__(fn, source)
        self.kind = kind

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        handler: Callable[..., VariableTracker] = getattr(self, f"call_{self.kind}")
        # the C functions take their arguments by position, under names of their own: a call
        # they refuse runs eagerly and raises the library's own TypeError
        try:
            inspect.signature(handler).bind(tx, *args)
        except TypeError:
            refused = True
        else:
            refused = bool(kwargs)
        if refused:
            unimplemented("mode-stack", f"{self.kind} called with arguments it does not take")
        return handler(tx, *args)

    def call_push(self, tx: TranslatorBase, mode: VariableTracker) -> VariableTracker:
        tx.output.push_mode(tx, mode.realize())
        return ConstantVariable(None)

    def call_pop(self, tx: TranslatorBase) -> VariableTracker:
        return tx.output.pop_mode(tx)

    def call_len(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(len(tx.output.mode_stack))

    def call_get_at(self, tx: TranslatorBase, index: VariableTracker) -> VariableTracker:
        """The mode at a position, 0 at the bottom. The runtime's function indexes its list
        (from the top for a negative index) and raises its IndexError out of range. torch's
        refuses what is not an int in range with errors of its own (`RuntimeError("Tried to
        get stack at idx that's too big")`, a TypeError for a bool): that call runs eagerly."""
        index = index.realize()
        stack = tx.output.mode_stack
        value = index.value if isinstance(index, ConstantVariable) else None
        if not tx.output.world.stack_errors_modeled:
            if type(value) is not int or not 0 <= value < len(stack):
                unimplemented("mode-stack", f"mode stack index {index!r} of {len(stack)} modes")
            return stack[value]
        if not isinstance(value, int):  # (an int or a bool: what the runtime's list takes)
            unimplemented("mode-stack", f"mode stack index {index!r}")
        if not -len(stack) <= value < len(stack):
            tx.raise_user_error(
                IndexError(
                    f"torch function mode stack index {value} is out of range for a stack of "
                    f"length {len(stack)}"
                )
            )
        return stack[value]

    def call_current(self, tx: TranslatorBase) -> VariableTracker:
        stack = tx.output.mode_stack
        return stack[-1] if stack else ConstantVariable(None)

    def call_stack(self, tx: TranslatorBase) -> VariableTracker:
        return ListVariable(list(tx.output.mode_stack))

    def call_enabled(self, tx: TranslatorBase) -> VariableTracker:
        return ConstantVariable(tx.output.modes_consulted())

    def call_enter(self, tx: TranslatorBase, mode: VariableTracker) -> VariableTracker:
        tx.output.push_mode(tx, mode.realize())
        return mode

    def call_exit(
        self, tx: TranslatorBase, mode: VariableTracker, *exc: VariableTracker
    ) -> VariableTracker:
        stack = tx.output.mode_stack
        mode = mode.realize()
        if not stack or stack[-1].realize() is not mode:
            unimplemented(
                "mode-stack",
                "a torch function mode exits out of order (eager Python raises; its message "
                "shows the modes' reprs, which are user code)",
            )
        tx.output.pop_mode(tx)
        return ConstantVariable(None)

    def call_pop_temporarily(self, tx: TranslatorBase) -> VariableTracker:
        return PopModeTemporarilyVariable()

    def call_has_torch_function(
        self, tx: TranslatorBase, items: VariableTracker
    ) -> VariableTracker:
        items = items.realize()
        if isinstance(items, ListVariable | TupleVariable):
            return ConstantVariable(has_torch_function(tx, items.items))
        if isinstance(items, ConstantVariable) and type(items.value) is tuple:  # `(1, None)`
            constants = [ConstantVariable(value) for value in items.value]
            return ConstantVariable(has_torch_function(tx, constants))
        unimplemented("has-torch-function", f"has_torch_function({items!r})")

    def call_has_torch_function_unary(
        self, tx: TranslatorBase, item: VariableTracker
    ) -> VariableTracker:
        return ConstantVariable(has_torch_function(tx, [item]))

    def call_has_torch_function_variadic(
        self, tx: TranslatorBase, *items: VariableTracker
    ) -> VariableTracker:
        return ConstantVariable(has_torch_function(tx, items))

    def __repr__(self) -> str:
        return f"ModeStackFunctionVariable({self.kind})"


def has_torch_function(tx: TranslatorBase, items: Sequence[VariableTracker]) -> bool:
    """torch's `has_torch_function` on these items, decided while tracing: True as soon as one
    item is met while an op would go to a mode (`modes_consulted`); else whether an item's
    type has a `__torch_function__` of its own. Plain tensors (exactly the world's
    `plain_tensor_classes`) and constants have none; any other item (a tensor subclass, a
    user object) breaks, as the answer then also depends on `DisableTorchFunctionSubclass`."""
    from variables.tensor import TensorVariable  # (it builds on this module, via the builder)

    if not items:
        return False
    if tx.output.modes_consulted():
        return True
    for item in items:
        item = item.realize()
        if isinstance(item, TensorVariable):
            plain = item.python_type() in tx.output.world.plain_tensor_classes
        else:
            plain = item.is_python_constant() and (
                getattr(type(item.as_python_constant()), "__torch_function__", None) is None
            )
        if not plain:
            unimplemented("has-torch-function", f"has_torch_function on {item!r}")
    return False


class PopModeTemporarilyVariable(VariableTracker):
    """`with _pop_mode_temporarily() as mode:` pops on enter and pushes back on exit."""

    __slots__ = ("popped",)

    def __init__(self) -> None:
        super().__init__(None)
        self.popped: VariableTracker | None = None

    def enter_context(self, tx: TranslatorBase) -> tuple[VariableTracker, VariableTracker]:
        self.popped = tx.output.pop_mode(tx)
        return _PushBack(self.popped), self.popped

    def __repr__(self) -> str:
        return f"PopModeTemporarilyVariable({self.popped!r})"


class _PushBack(VariableTracker):
    """The `__exit__` of `_pop_mode_temporarily()`: pushes the popped mode back."""

    __slots__ = ("mode",)

    def __init__(self, mode: VariableTracker) -> None:
        super().__init__(None)
        self.mode = mode

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        tx.output.push_mode(tx, self.mode)
        return ConstantVariable(None)

    def type_name(self) -> str:
        return "_pop_mode_temporarily()"  # as a graph-break reason names its `with` block

    def __repr__(self) -> str:
        return f"_PushBack({self.mode!r})"


def mode_functions() -> dict[int, tuple[Any, str]]:
    """id(real function) -> (function, kind) for every stack function the tracer models, in
    the world of the trace."""
    return worlds.current().mode_functions()


def unsupported_mode_function(name: str) -> None:
    unimplemented("mode-stack", f"{name} on the torch function mode stack is not supported")


def mode_types(
    world: worlds.TensorWorld,
    public: Any,
    args: list[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> list[type]:
    """The `types` the runtime hands a mode for this call (see `overridable._tensor_types`):
    the tensor types among the arguments, one level into lists and tuples, without `Tensor`
    itself for ops torch parses against a signature."""
    from variables.tensor import TensorVariable  # (it builds on this module, via the builder)

    found: dict[type, None] = {}
    for vt in (*args, *kwargs.values()):
        vt = vt.realize()
        items = vt.items if isinstance(vt, BaseListVariable) else [vt]
        for item in items:
            item = item.realize()
            if isinstance(item, TensorVariable):
                found[item.python_type()] = None
    if world.tensor_type in found:
        shown = [_shown_to_world(vt) for vt in args]
        shown_kwargs = {name: _shown_to_world(vt) for name, vt in kwargs.items()}
        if not world.passes_tensor_types(public, shown, shown_kwargs):
            found.pop(world.tensor_type)
    return list(found)


def _shown_to_world(vt: VariableTracker) -> Any:
    """An argument as `TensorWorld.passes_tensor_types` is given it: TENSOR_ARG for a tensor,
    the constant, a list or tuple of such, else UNKNOWN_ARG."""
    from variables.tensor import TensorVariable

    vt = vt.realize()
    if isinstance(vt, TensorVariable):
        return worlds.TENSOR_ARG
    if isinstance(vt, ListVariable | TupleVariable) and type(vt) in (ListVariable, TupleVariable):
        return vt.python_type()(_shown_to_world(item) for item in vt.items)

    if isinstance(vt, ConstantVariable):
        return vt.value
    return worlds.UNKNOWN_ARG
