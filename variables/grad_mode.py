"""Grad mode in a trace: `torch.no_grad()`, `torch.enable_grad()`, `torch.set_grad_enabled(b)`
and `torch.is_grad_enabled()` of the trace's tensor world (the runtime's,
tracer/runtime/grad_mode.py, or real torch's: `TensorWorld.grad_mode_classes`), modeled.

Grad mode is global state (per thread). Like Dynamo's GradModeVariable, a change of mode is
not run at trace time only: it becomes a `torch._C._set_grad_enabled(mode)` node of the graph
(`OutputGraph.set_grad_mode`), so the compiled code changes the mode at run time exactly where
eager code does, in order with the ops around it, and a torch-function mode sees the same
`_set_grad_enabled` calls as it does eagerly. The mode at the call is guarded (a GLOBAL_STATE
guard with the one part `grad_enabled`, from the world's `grad_mode_guard`) as soon as the
trace depends on it (`OutputGraph.depends_on_grad_mode`).

Leaving a `with` block restores the mode it was entered in, on the normal path and when an
exception leaves the block (the `with` cleanup calls `__exit__` in the trace too). A graph break
inside the block resumes, as in Dynamo: the graph before it sets the block's mode, the call
that broke runs in it, and the resume function gets the block's `__exit__` on its stack, from a
real context made in the state the block left it (`GradModeContextVariable.reconstruct`), so
the block ends as eagerly (tracer/cache/resume.py `with_contexts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import state_part_guard
from tracer import worlds
from tracer.exc import unimplemented
from variables.base import GetAttrVariable, KnownObjectVariable, NotConstantError, VariableTracker
from variables.constant import ConstantVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


def is_grad_mode_class(value: Any) -> bool:
    """`no_grad`, `enable_grad` or `set_grad_enabled` of the trace's tensor world."""
    return issubclass(type(value), type) and value in worlds.current().grad_mode_classes


def is_grad_mode_reader(value: Any) -> bool:
    """`torch.is_grad_enabled` of the trace's tensor world."""
    reader = worlds.current().grad_mode_reader
    return reader is not None and value is reader


class GradModeClassVariable(KnownObjectVariable):
    """`torch.no_grad`, `torch.enable_grad` or `torch.set_grad_enabled`: calling it makes a
    context manager. `set_grad_enabled(b)` sets the mode right away, as the runtime's does."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        cls = self.fn
        target = worlds.current().grad_mode_classes[cls]
        if target is None:  # set_grad_enabled(mode)
            if len(args) + len(kwargs) != 1 or (kwargs and "mode" not in kwargs):
                unimplemented("grad-mode", "set_grad_enabled called without exactly one mode")
            mode = _constant_mode(args[0] if args else kwargs["mode"])
            before = tx.output.read_grad_mode()
            tx.output.set_grad_mode(tx, mode)
            return GradModeContextVariable(cls, mode, before)
        if args or kwargs:  # `torch.no_grad(fn)`: the decorator form
            unimplemented("grad-mode", f"{cls.__name__}(...) used as a decorator while tracing")
        return GradModeContextVariable(cls, target, None)

    def __repr__(self) -> str:
        return f"GradModeClassVariable({self.fn.__name__})"


class GradModeContextVariable(VariableTracker):
    """`GradModeContextVariable(no_grad)`: a grad-mode context manager made in the trace.
    Entering sets `target` and remembers the mode to restore; `__exit__` restores it. For
    `set_grad_enabled` the mode was set when it was made, and `before` is what exit restores."""

    __slots__ = ("before", "cls", "saved", "target")

    def __init__(self, cls: type, target: bool, before: bool | None) -> None:
        super().__init__(None)
        self.cls = cls
        self.target = target
        self.before = before
        self.saved: list[bool] = []

    def python_type(self) -> type:
        return self.cls

    def enter_context(self, tx: TranslatorBase) -> tuple[VariableTracker, VariableTracker]:
        """BEFORE_WITH: the bound `__exit__`, and what `__enter__` returns (None)."""
        entered = self.method___enter__(tx)
        return GetAttrVariable(self, "__exit__"), entered

    def method___enter__(self, tx: TranslatorBase) -> VariableTracker:
        if self.before is not None:  # set_grad_enabled: already set, restore `before`
            self.saved.append(self.before)
        else:
            self.saved.append(tx.output.read_grad_mode())
            tx.output.set_grad_mode(tx, self.target)
        return ConstantVariable(None)

    def method___exit__(self, tx: TranslatorBase, *exc_info: VariableTracker) -> VariableTracker:
        """Restore the mode from before `__enter__`; None, so an exception goes on."""
        if not self.saved:
            unimplemented("grad-mode", f"{self.cls.__name__}.__exit__ without __enter__")
        tx.output.set_grad_mode(tx, self.saved.pop())
        return ConstantVariable(None)

    def reconstruct(self, cg: PyCodegen) -> None:
        """Entered once (the `with` block around a break): a real context of the class in
        that state, whose `__exit__` restores the mode from before the block (the world's
        `entered_grad_context`). A context in any other state is not rebuilt."""
        if len(self.saved) != 1:
            unimplemented("reconstruct", f"{self!r} entered {len(self.saved)} times")
        cg.load_function(worlds.current().entered_grad_context)
        for value in (self.cls, self.target, self.saved[0]):
            cg.load_const(value)
        cg.call(3)

    def __repr__(self) -> str:
        return f"GradModeContextVariable({self.cls.__name__})"


def no_arguments(values: tuple[Any, ...]) -> bool:
    """What a GLOBAL_STATE part covers of most getters: the call without arguments."""
    return not values


class GuardedStateReaderVariable(KnownObjectVariable):
    """`torch.get_default_dtype()`: a reader of global state every trace's GLOBAL_STATE guard
    pins (`TensorWorld.guarded_state_readers`), so its value at trace time holds whenever the
    entry runs; the call, with constant arguments whose state the guard covers (`covered`),
    is that value (`read`)."""

    __slots__ = ("covered",)

    answers_inside_state_blocks = False
    """Whether `read` is right inside a `torch.autocast` or `torch.inference_mode` block of the
    trace, which the state at the call, and so the guard, does not describe (the block's state
    is entered only around the fake runs of its ops): only the trace's own grad mode is."""

    def __init__(self, fn: Any, covered: Callable[[tuple[Any, ...]], bool] = no_arguments) -> None:
        super().__init__(fn)
        self.covered = covered

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        try:
            values = tuple(arg.realize().as_python_constant() for arg in args)
        except NotConstantError:
            values = None
        if kwargs or values is None or not self.covered(values):
            # the eager call reads it (or raises CPython's TypeError)
            unimplemented(
                "global-state", f"{self.fn.__name__}() with arguments whose state no guard covers"
            )
        if tx.output.state_blocks and not self.answers_inside_state_blocks:
            unimplemented(
                "global-state",
                f"{self.fn.__name__}() inside a block of torch.autocast or torch.inference_mode",
            )
        try:
            value = self.read(tx, values)
        except Exception:  # noqa: BLE001 - a bad argument (a device type torch does not know)
            unimplemented("global-state", f"{self.fn.__name__}() raised: the eager call raises")
        return ConstantVariable(value)  # a bool or a dtype: constants of the world

    def read(self, tx: TranslatorBase, values: tuple[Any, ...]) -> Any:
        return self.fn(*values)


class StateReadVariable(GuardedStateReaderVariable):
    """`torch._C._get_cublas_allow_tf32()`: a reader of global state that no guard pins on
    every trace (`TensorWorld.state_read_on_demand`); a call without arguments is the value
    at trace time, and the entry gets a GLOBAL_STATE guard of that part."""

    __slots__ = ("part",)

    def __init__(self, fn: Any, part: str) -> None:
        super().__init__(fn)
        self.part = part

    def read(self, tx: TranslatorBase, values: tuple[Any, ...]) -> Any:
        value = self.fn()
        guard = state_part_guard(self.part, value, self.fn)
        tx.output.guards.setdefault(guard, guard)
        return value


class IsGradEnabledVariable(GuardedStateReaderVariable):
    """`torch.is_grad_enabled()`: the mode at this point of the trace, which the trace may
    have set (guarded at the call when it has not set it yet)."""

    __slots__ = ()

    answers_inside_state_blocks = True  # the trace's grad mode, which such a block sets

    def read(self, tx: TranslatorBase, values: tuple[Any, ...]) -> Any:
        return tx.output.read_grad_mode()


def _constant_mode(value: VariableTracker) -> bool:
    value = value.realize()
    if not value.is_python_constant() or type(value.as_python_constant()) is not bool:
        unimplemented("grad-mode", f"set_grad_enabled({value!r}): the mode must be a known bool")
    mode: bool = value.as_python_constant()
    return mode
