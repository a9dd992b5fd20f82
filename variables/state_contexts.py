"""`torch.autocast(...)` and `torch.inference_mode(...)` in a trace: context managers of
thread-local state other than grad mode, each a `StateContextKind` of the trace's tensor world
(`TensorWorld.state_contexts`; torch's are in tracer/torch_adapter/state_contexts.py).

As Dynamo's AutocastModeVariable and InferenceModeVariable do, entering the block is a graph
node (`torch.amp._enter_autocast(...)`) whose result, the run-time context, the exit node
hands back (`torch.amp._exit_autocast(ctx)`), so the compiled code changes the state where
eager code does, in order with the ops around it. The ops inside are run on fake values in that
state (`OutputGraph.enter_state_block`). The object is made for real while tracing, from
constant arguments: what its constructor computes (autocast's default dtype) is eager's, and
the global state it read is guarded. A block open at a graph break, or when the frame
returns, is not rebuilt: the frame runs eagerly (tracer/cache/resume.py `with_contexts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer import worlds
from tracer.exc import unimplemented
from variables.base import GetAttrVariable, KnownObjectVariable, VariableTracker
from variables.constant import ConstantVariable

if TYPE_CHECKING:
    from tracer.output_graph import StateBlock
    from tracer.translator.base import TranslatorBase
    from tracer.worlds import StateContextKind


def is_state_context_class(value: Any) -> bool:
    """`torch.autocast` or `torch.inference_mode` of the trace's tensor world."""
    return issubclass(type(value), type) and value in worlds.current().state_contexts


class StateContextClassVariable(KnownObjectVariable):
    """`torch.autocast` or `torch.inference_mode`: calling it with constant arguments makes the
    real object (its errors and warnings are eager's: the frame runs eagerly to raise or emit
    them), tracked by a StateContextVariable."""

    __slots__ = ()

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        cls = self.fn
        values = tuple(_constant(cls, vt) for vt in args)
        named = {name: _constant(cls, vt) for name, vt in kwargs.items()}
        kind = worlds.current().state_contexts[cls]
        refused = kind.refuses(values, named)
        if refused is not None:
            unimplemented("state-context", f"{cls.__name__}(...): {refused}")
        try:
            obj = cls(*values, **named)
        except Exception as e:  # noqa: BLE001 - eager raises it: the frame runs eagerly
            unimplemented(
                "state-context",
                f"{cls.__name__}(...) raised {type(e).__name__}: {e}; the frame runs eagerly, "
                "where it raises",
            )
        for guard in kind.state_read(values, named):
            tx.output.guards.setdefault(guard, guard)
        return StateContextVariable(cls, kind, kind.enter_args(obj))

    def __repr__(self) -> str:
        return f"StateContextClassVariable({self.fn.__name__})"


class StateContextVariable(VariableTracker):
    """An object of `torch.autocast` or `torch.inference_mode` made in the trace: `kind` says
    how entering and leaving it are recorded, `args` are its enter node's arguments."""

    __slots__ = ("args", "block", "cls", "kind")

    def __init__(self, cls: type, kind: StateContextKind, args: tuple[Any, ...]) -> None:
        super().__init__(None)
        self.cls = cls
        self.kind = kind
        self.args = args
        self.block: StateBlock | None = None

    def python_type(self) -> type:
        return self.cls

    def enter_context(self, tx: TranslatorBase) -> tuple[VariableTracker, VariableTracker]:
        """BEFORE_WITH: the bound `__exit__`, and what `__enter__` returns."""
        entered = self.method___enter__(tx)
        return GetAttrVariable(self, "__exit__"), entered

    def method___enter__(self, tx: TranslatorBase) -> VariableTracker:
        """autocast's `__enter__` returns the object, inference_mode's None."""
        if self.block is not None:
            unimplemented("state-context", f"{self.cls.__name__} object entered twice")
        self.block = tx.output.enter_state_block(tx, self.kind, self.args)
        return self if self.kind.enter_returns_self else ConstantVariable(None)

    def method___exit__(self, tx: TranslatorBase, *exc_info: VariableTracker) -> VariableTracker:
        """Leave the block; what the class's `__exit__` returns (False or None: neither
        suppresses an exception)."""
        if self.block is None:
            unimplemented("state-context", f"{self.cls.__name__}.__exit__ without __enter__")
        tx.output.exit_state_block(tx, self.block)
        self.block = None
        return ConstantVariable(self.kind.exit_result)

    def __repr__(self) -> str:
        return f"StateContextVariable({self.cls.__name__})"


def _constant(cls: type, vt: VariableTracker) -> Any:
    vt = vt.realize()
    if not vt.is_python_constant():
        unimplemented(
            "state-context", f"{cls.__name__}({vt!r}): its arguments must be known while tracing"
        )
    return vt.as_python_constant()
