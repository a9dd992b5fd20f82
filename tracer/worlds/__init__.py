"""Tensor worlds: the one interface through which the tracer meets a tensor library.

The translator, the trackers and the codegen never name a tensor library. What they need to
know about tensors (which values are tensors, what their metadata is, how an op runs on fake
values, which callables are ops, what a torch-function mode sees, the live mode stack) they ask
the world of the trace: `current()`. Two worlds implement it: `RuntimeWorld` (tracer.runtime,
the pure-Python torch-like library, the default) and `TorchWorld` (real PyTorch, in
tracer/torch_adapter/world.py, chosen when a compiled function is called with real torch
tensors). convert_frame
picks the world for each compile and makes it current for the trace, the guards and the codegen
(`using(world)`). notes/torch-adapter.md describes the interface member by member.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from guards.guard import Guard, TensorSpec, state_part_guard
from tracer.graph.passes import writes_in_place

TENSOR_ARG: Any = object()
"""A tensor among the arguments `TensorWorld.passes_tensor_types` is given."""

UNKNOWN_ARG: Any = object()
"""An argument `TensorWorld.passes_tensor_types` is given whose value the trace does not know
as a constant."""


class TensorWorld:
    """What the tracer asks about tensors. Every member is one question; a world answers all.
    A question about a user's value is answered from its real type, never by `isinstance`,
    which reads the value's `__class__` (user code: it may raise, or claim Tensor)."""

    name: str = "?"
    tensor_type: type = object
    """The base class of the world's tensors (`Tensor.shape` and friends are looked up here)."""
    mode_base: type = object
    """The world's TorchFunctionMode base class (its `__enter__`/`__exit__` push and pop)."""
    properties: frozenset[str] = frozenset()
    """Tensor attributes a torch-function mode sees as `Tensor.<name>.__get__`."""
    random_ops: frozenset[str] = frozenset()
    """Ops that read or advance the global generator when run on fake values: running them
    while tracing would change state that eager code sees, so they break the graph."""
    stack_errors_modeled: bool = True
    """Does the tracer raise the world's own error for a stack function's refused call (an
    empty stack popped, an index out of range), as it does for the runtime's, plain Python
    over a list? torch's are C functions with messages of their own: such a call runs eagerly
    (a graph break), and raises torch's."""
    declined_op_runs: bool = True

    """When the top mode's `__torch_function__` returns NotImplemented, does the op run (the
    runtime's rule)? torch asks the remaining handlers, and raises TypeError when all decline
    ("Multiple dispatch failed", or "unsupported operand" for an operator): not modeled, the
    trace breaks there and the op runs eagerly."""

    # -- values ---------------------------------------------------------------------------------
    def is_tensor(self, value: object) -> bool:
        raise NotImplementedError

    def traces_subclass(self, cls: type) -> bool:
        """Is an input of this tensor subclass traced (its exact class guarded by TENSOR_MATCH)
        rather than a graph break?"""
        return False

    def tensor_spec(self, value: Any) -> TensorSpec:
        """What the TENSOR_MATCH guard on a tensor input pins."""
        raise NotImplementedError

    def is_constant(self, value: object) -> bool:
        """A metadata object the tracer treats as a constant (a dtype, a device, a size)."""
        raise NotImplementedError

    def is_op(self, value: object) -> bool:
        """A callable whose calls become graph nodes (a torch function or factory)."""
        raise NotImplementedError

    def wrap_object(self, output: Any, value: object, source: Any) -> Any:
        """The tracker for an object this world models itself (a torch `nn.Module`), with
        its guards installed on `output`, or None for an ordinary user object."""
        return None

    # -- fake values ----------------------------------------------------------------------------
    def fake_of(self, value: Any) -> Any:
        """The fake tensor standing for a real input while tracing."""
        raise NotImplementedError

    def shape(self, fake: Any) -> tuple[int, ...]:
        """The fake tensor's shape, read where no mode sees it."""
        raise NotImplementedError

    def dtype_text(self, fake: Any) -> str:
        raise NotImplementedError

    def read_attr(self, fake: Any, name: str) -> Any:
        """A plain metadata attribute (`requires_grad`) of a fake tensor, read without modes."""
        raise NotImplementedError

    def run_fake(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        blocks: Sequence[tuple[StateContextKind, tuple[Any, ...]]] = (),
    ) -> Any:
        """`fn` on fake values, where no mode sees it: the op's result metadata. A need for data
        raises `NeedsData`; an exception it raises is the user's, so a world whose fake errors
        may read differently from the real op's breaks the graph instead (`unimplemented`).
        `blocks` are the state blocks open at the op in the trace (`state_contexts`), entered
        around it, outermost first, as the graph enters them around the real op."""
        raise NotImplementedError

    def mutates(self, target: object, kwargs: dict[str, Any]) -> bool:
        """Does this op write to a tensor (an in-place op, an `out=` argument)? Such a node
        runs even when its result is unused."""
        return False

    # -- what a mode sees -------------------------------------------------------------------------
    def overridable(self, fn: object) -> bool:
        """Does a torch-function mode see calls of `fn`?"""
        raise NotImplementedError

    def operator_target(self, method: object) -> Any:
        """For a Tensor operator dunder (`Tensor.__add__`), the op a mode sees and the graph
        records (`Tensor.add`), or None when the dunder is an op of its own."""
        raise NotImplementedError

    def accepts_operand(self, value: object) -> bool:
        """Would a Tensor operator dunder take this (fake) right operand?"""
        raise NotImplementedError

    def property_getters(self, name: str) -> tuple[Any, Any]:
        """(the getter a mode is handed for `x.<name>`, the getter run on the fake value)."""
        raise NotImplementedError

    def passes_tensor_types(self, fn: object, args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
        """Does a mode get plain Tensor among `types` for this call (see tracer.runtime)?
        `args` and `kwargs` are the call's, with each tensor as TENSOR_ARG and each value the
        trace does not know as a constant as UNKNOWN_ARG (lists and tuples of them kept)."""
        raise NotImplementedError

    # -- the mode stack and global state ----------------------------------------------------------
    # (functions, not methods: the compiled code and the guards call them as they are)
    mode_stack: Callable[[], Sequence[Any]]
    """The live torch-function mode stack, bottom first (the MODE_STACK guard's accessor)."""
    mode_stack_len: Callable[[], int]
    """The live stack's length (the MODE_STACK guard on an empty stack reads only this)."""
    set_mode_stack: Callable[[Sequence[Any]], None]
    """Make the live stack exactly the given modes (the compiled code's mode-stack replay)."""
    get_mode_at: Callable[[int], Any]
    """The live mode at a position, 0 at the bottom (the compiled code loads modes with it)."""

    def mode_functions(self) -> dict[int, tuple[Any, str]]:
        """id(function) -> (function, kind) for the stack functions the tracer models
        (variables/modes.py: push, pop, len, get_at, enter, exit, pop_temporarily...)."""
        raise NotImplementedError

    def global_state_guards(self) -> list[Guard]:
        """Guards on global state every trace of this world relies on (grad mode...)."""
        return []

    state_read_on_demand: Mapping[int, tuple[Callable[[], Any], str]] = {}
    """id(function) -> (function, part name), for readers of global state no guard pins on
    every trace (`torch._C._get_cublas_allow_tf32`, read by `torch.backends.cuda.matmul
    .allow_tf32`): a call is folded to the value at trace time, and the entry gets a
    GLOBAL_STATE guard of that one part (`StateReadVariable`)."""

    constant_classes: frozenset[type] = frozenset()
    """Classes of the world's constants whose call on constant arguments makes one
    (`torch.device("cpu")`, `torch.finfo(x.dtype)`): made while tracing, as Dynamo does."""

    plain_tensor_classes: frozenset[type] = frozenset()
    """Tensor classes torch's `has_torch_function` reports no `__torch_function__` for (plain
    Tensor and Parameter), in a world that has that function."""

    def modes_dispatch(self) -> bool:
        """Do ops go to the torch-function modes on the stack now? Not inside
        `torch._C.DisableTorchFunction()`, which keeps the stack but makes every op skip it."""
        raise NotImplementedError

    def mode_dispatch_guard(self, enabled: bool) -> Guard:
        """The GLOBAL_STATE guard pinning `modes_dispatch()` at the call, added once a trace
        depends on it (an op, or a question, met while the stack held a mode)."""
        raise NotImplementedError

    guarded_state_readers: Mapping[
        int, tuple[Callable[..., Any], Callable[[tuple[Any, ...]], bool]]
    ] = {}
    """id(function) -> (function, whether the guard covers a call with these arguments), for the
    functions that read global state the GLOBAL_STATE guard of every trace pins (grad mode
    aside, which a trace can change): a covered call is the value it reads at trace time
    (`torch.get_default_dtype()`, `torch.is_autocast_enabled("cpu")`), as in Dynamo."""

    # -- grad mode --------------------------------------------------------------------------------
    grad_mode_setter: object = None
    """The world's `torch._C._set_grad_enabled` when the tracer models changes of grad mode
    (variables/grad_mode.py records each as a node calling it), else None."""
    grad_mode_reader: object = None
    """The world's `torch.is_grad_enabled` (answered from the trace's mode, not called)."""
    grad_mode_classes: Mapping[type, bool | None] = types.MappingProxyType({})
    """The world's grad-mode context managers and the mode entering each sets: `no_grad`
    False, `enable_grad` True, `set_grad_enabled` None (its argument says, at construction)."""

    def is_grad_enabled(self) -> bool:
        """The live grad mode (per thread)."""
        return True

    def set_grad_enabled_now(self, mode: bool) -> None:
        """Set the live grad mode where no torch-function mode sees it (the trace sets it for
        real as it goes, so fake results get the `requires_grad` eager ones would)."""

    def entered_grad_context(self, cls: type, target: bool, restore: bool) -> Any:
        """A real grad-mode context of `cls` (one of `grad_mode_classes`) as a `with` block
        leaves it once entered: in mode `target`, its `__exit__` sets `restore`. Made without
        running its `__init__` (`set_grad_enabled`'s sets the mode), so no mode sees it: the
        compiled code hands it, around a break inside the block, to the resume function."""
        raise NotImplementedError

    def grad_mode_guard(self, enabled: bool) -> Guard | None:
        """The GLOBAL_STATE guard pinning grad mode at the call, added once a trace depends on
        it; None when `global_state_guards` pins it on every trace already."""
        return None

    # -- other thread-local state ----------------------------------------------------------
    state_contexts: Mapping[type, StateContextKind] = types.MappingProxyType({})
    """The world's context managers of thread-local state other than grad mode, by class
    (torch's `autocast` and `inference_mode`): variables/state_contexts.py models them."""

    def wrap_graph(self, graph_fn: Callable[..., Any]) -> Callable[..., Any]:
        """The callable the compiled code calls for the graph: ops compute, modes are not
        consulted (the trace already inlined them)."""
        return graph_fn


@dataclasses.dataclass(frozen=True)
class StateContextKind:
    """A context manager class whose block changes thread-local state the ops inside read
    (`torch.autocast`: the dtype some ops compute in; `torch.inference_mode`: grad mode and
    whether results are inference tensors), modeled as Dynamo models it. The object is made
    while tracing, for real, from constant arguments (its constructor's errors and warnings
    are eager's: the frame runs eagerly). Entering it is a graph node calling
    `enter(*enter_args(obj))`, which returns the context the graph's exit node hands to
    `exit`; the fake runs of the ops inside enter the same state (`TensorWorld.run_fake`).
    Nothing is entered for real while tracing, so the tracer's own reads (a tensor input's
    guard, its fake) see the state of the call."""

    enter: Callable[..., Any]
    """The graph's node entering the block (`torch.amp._enter_autocast`)."""
    exit: Callable[[Any], Any]
    """The graph's node leaving it, given what `enter` returned (`torch.amp._exit_autocast`)."""
    enter_args: Callable[[Any], tuple[Any, ...]]
    """`enter`'s arguments for an object of the class, all constants (autocast: device type,
    dtype, enabled, cache enabled, as its constructor resolved them)."""
    state_read: Callable[[tuple[Any, ...], dict[str, Any]], list[Guard]]
    """GLOBAL_STATE guards on what the constructor read of global state for these arguments
    (autocast's default dtype when given none), so an entry's resolved arguments hold."""
    grad_mode: Callable[[tuple[Any, ...]], bool | None]
    """Grad mode inside the block, given `enter`'s arguments (`inference_mode(True)`: off);
    None when the block leaves it alone."""
    refuses: Callable[[tuple[Any, ...], dict[str, Any]], str | None]
    """Why a call of the class with these constant arguments is not modeled (the decorator
    form `inference_mode(fn)`), else None."""
    enter_returns_self: bool
    """`__enter__` returns the object (autocast's), else None (inference_mode's)."""
    exit_result: object
    """What `__exit__` returns: False (autocast) or None (inference_mode)."""


class NeedsData(Exception):
    """`run_fake` found that the op needs the tensor's data (a data-dependent op)."""


class RuntimeWorld(TensorWorld):
    """tracer.runtime, the pure-Python torch-like library (imported on first use)."""

    name = "runtime"
    random_ops = frozenset({"rand", "randn", "manual_seed", "rand_like", "randn_like"})

    def __init__(self) -> None:
        from tracer import runtime
        from tracer.runtime import overridable

        self.rt = runtime
        self.ov = overridable
        self.tensor_type = runtime.Tensor
        self.mode_base = runtime.overrides.TorchFunctionMode
        self.properties = frozenset(
            name
            for name, attr in vars(runtime.Tensor).items()
            if isinstance(attr, overridable.overridable_property)
        )
        self._disable: Any = None
        self.mode_stack = runtime._C._torch_function_mode_stack
        self.mode_stack_len = runtime._C._len_torch_function_stack
        self.set_mode_stack = runtime._C._set_torch_function_mode_stack
        self.get_mode_at = runtime._C._get_function_stack_at
        self._mode_functions: dict[int, tuple[Any, str]] | None = None
        self.grad_mode_setter = runtime._C._set_grad_enabled
        self.grad_mode_reader = runtime.grad_mode.is_grad_enabled
        self.grad_mode_classes = {
            runtime.no_grad: False,
            runtime.enable_grad: True,
            runtime.set_grad_enabled: None,
        }
        # questions the runtime answers with a function of its own, asked as they are (a fake
        # tensor's metadata attributes are plain attributes: `read_attr` is getattr)
        self.is_grad_enabled = runtime.grad_mode.is_grad_enabled  # type: ignore[method-assign]
        self.operator_target = overridable.operator_target  # type: ignore[method-assign,assignment]
        self.accepts_operand = overridable.accepts_operand  # type: ignore[method-assign,assignment]
        self.read_attr = getattr  # type: ignore[method-assign,assignment]

    def is_tensor(self, value: object) -> bool:
        return issubclass(type(value), self.rt.Tensor)

    def traces_subclass(self, cls: type) -> bool:
        """`nn.Parameter` (a module's parameters), whose ops give plain tensors."""
        return cls is self.rt.nn.Parameter

    def tensor_spec(self, value: Any) -> TensorSpec:
        return TensorSpec.of(value)

    def is_constant(self, value: object) -> bool:
        return issubclass(type(value), self.rt.dtype | self.rt.device)

    def is_op(self, value: object) -> bool:
        """A runtime op or factory: a function carrying the op marker or defined in the
        factories module. Nothing else is asked for an attribute, so no `__getattr__` of a
        user object runs while tracing. A method bound to a tensor (`t.add`, kept on a resume
        function's stack) is not one itself: the builder wraps it as its op with the tensor
        as the first argument (`VariableBuilder.wrap_method`)."""
        if type(value) is not types.FunctionType:
            return False
        marked = "__modetrace_op__" in value.__dict__
        return marked or value.__module__ == "tracer.runtime.factories"

    def fake_of(self, value: Any) -> Any:
        return self.rt.FakeTensor.from_tensor(value)

    def shape(self, fake: Any) -> tuple[int, ...]:
        return tuple(fake._shape)

    def dtype_text(self, fake: Any) -> str:
        return str(fake._dtype).removeprefix("torch.")

    def run_fake(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        blocks: Sequence[tuple[StateContextKind, tuple[Any, ...]]] = (),
    ) -> Any:
        """A runtime op's mode-free `impl` (what the graph's forward calls), anything else
        with torch functions disabled. (The runtime has no `state_contexts`: no `blocks`.)"""
        info = self.ov.op_info(fn)
        try:
            if info is not None:
                return info.impl(*args, **kwargs)
            if self._disable is None:  # one re-entrant context for every fake run
                self._disable = self.rt._C.DisableTorchFunction()
            with self._disable:
                return fn(*args, **kwargs)
        except self.rt.DataDependentError as e:
            raise NeedsData(str(e)) from None

    def mutates(self, target: object, kwargs: dict[str, Any]) -> bool:
        """An in-place op (`add_`, `x[i] = v`), named as torch names them."""
        if isinstance(target, str):  # a method called by name
            return writes_in_place(target)
        info = self.ov.op_info(target)
        return info is not None and writes_in_place(info.name)

    def entered_grad_context(self, cls: type, target: bool, restore: bool) -> Any:
        context: Any = object.__new__(cls)
        context._saved = [restore]  # what `__exit__` pops
        if cls is self.rt.grad_mode.set_grad_enabled:
            context._target, context._before = target, restore
        return context

    def set_grad_enabled_now(self, mode: bool) -> None:
        info = self.ov.op_info(self.grad_mode_setter)
        assert info is not None
        info.impl(mode)

    def grad_mode_guard(self, enabled: bool) -> Guard | None:
        return state_part_guard("grad_enabled", enabled, self.rt.grad_mode.is_grad_enabled)

    def modes_dispatch(self) -> bool:
        return bool(self.rt._C._is_torch_function_enabled())

    def mode_dispatch_guard(self, enabled: bool) -> Guard:
        reader = self.rt._C._is_torch_function_enabled
        return state_part_guard("torch_function_enabled", enabled, reader)

    def overridable(self, fn: object) -> bool:
        return self.ov.op_info(fn) is not None

    def property_getters(self, name: str) -> tuple[Any, Any]:
        prop = vars(self.rt.Tensor)[name]
        return prop.fget, prop.getter

    def passes_tensor_types(self, fn: object, args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
        info = self.ov.op_info(fn)

        return info is not None and info.passes_tensor_types

    def mode_functions(self) -> dict[int, tuple[Any, str]]:
        if self._mode_functions is None:
            self._mode_functions = self._mode_function_table()
        return self._mode_functions

    def _mode_function_table(self) -> dict[int, tuple[Any, str]]:
        C, overrides = self.rt._C, self.rt.overrides
        table = {
            C._push_on_torch_function_stack: "push",
            overrides._push_mode: "push",
            C._pop_torch_function_stack: "pop",
            overrides._pop_mode: "pop",
            C._len_torch_function_stack: "len",
            C._get_function_stack_at: "get_at",
            overrides._get_current_function_mode: "current",
            overrides._get_current_function_mode_stack: "stack",
            C._is_torch_function_mode_enabled: "enabled",
            overrides.TorchFunctionMode.__dict__["__enter__"]: "enter",
            overrides.TorchFunctionMode.__dict__["__exit__"]: "exit",
            overrides._pop_mode_temporarily: "pop_temporarily",
        }
        return {id(fn): (fn, kind) for fn, kind in table.items()}


_RUNTIME: list[TensorWorld] = []
_CURRENT: contextvars.ContextVar[TensorWorld | None] = contextvars.ContextVar(
    "modetrace_tensor_world", default=None
)


def runtime_world() -> TensorWorld:
    if not _RUNTIME:
        _RUNTIME.append(RuntimeWorld())
    return _RUNTIME[0]


def current() -> TensorWorld:
    """The world of the compile under way (the runtime's outside any compile)."""
    world = _CURRENT.get()
    return world if world is not None else runtime_world()


@contextlib.contextmanager
def using(world: TensorWorld) -> Iterator[TensorWorld]:
    token = _CURRENT.set(world)
    try:
        yield world
    finally:
        _CURRENT.reset(token)
