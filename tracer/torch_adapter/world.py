"""TorchWorld: the tracer's questions about tensors (tracer.worlds.TensorWorld) answered by
real PyTorch.

- Fake values are torch's own fake tensors: one `FakeTensorMode` per compile converts each
  input (`from_tensor`) and runs every op while tracing (`run_fake`), with torch functions
  disabled, so no user mode sees the tracer's own calls.
- Ops are torch's functions (`torch.add`, `torch.nn.functional.relu`), Tensor methods and
  operators; the graph records the very callables torch hands a mode (`x + y` records
  `Tensor.add`, as `__torch_function__` receives it), found by asking torch once (`_probe`).
- Guards: TENSOR_MATCH pins type, dtype, device, shape, strides, requires_grad and the
  dispatch key set, tested at once by torch's C++ tensor check (`tensor_match`) and read one by
  one by `tensor_facts` to explain a failure; GLOBAL_STATE pins grad mode, the default dtype
  and deterministic algorithms.
- The mode stack is torch's (`torch._C._len_torch_function_stack`, `_get_function_stack_at`,
  `_push_on_torch_function_stack`, `_pop_torch_function_stack`).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import operator
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch
from torch._subclasses.fake_tensor import (
    DataDependentOutputException,
    DynamicOutputShapeException,
    FakeTensorMode,
    UnsupportedOperatorException,
)

from guards.guard import GlobalStateSpec, Guard, GuardKind, TensorSpec, state_part_guard
from guards.sources import GlobalStateSource
from tracer.exc import unimplemented
from tracer.graph.passes import writes_in_place
from tracer.graph.resolve import OPERATOR_DUNDERS
from tracer.torch_adapter.state_contexts import STATE_CONTEXTS
from tracer.worlds import TENSOR_ARG, UNKNOWN_ARG, NeedsData, StateContextKind, TensorWorld
from variables.grad_mode import no_arguments

_C = torch._C
_len_stack = _C._len_torch_function_stack
OP_NAMESPACES = tuple(
    getattr(_C, name) for name in ("_nn", "_linalg", "_fft", "_special") if hasattr(_C, name)
)
"""The C modules whose functions are torch ops (`torch._C._nn.linear`); `torch.add` and its
kind are static methods of `_VariableFunctionsClass`, with no `__self__`."""
OP_MODULES = frozenset({"torch.nn.functional", "torch.functional"})
"""Python modules whose functions are torch ops (they dispatch to a mode themselves)."""
CONSTANT_TYPES = (
    torch.dtype,
    torch.device,
    torch.Size,
    torch.layout,
    torch.memory_format,
    torch.finfo,
    torch.iinfo,
)
PROPERTIES = frozenset(
    name
    for name, attr in vars(_C.TensorBase).items()
    if type(attr).__name__ == "getset_descriptor" and not name.startswith("_")
)
"""`shape`, `dtype`, `T`, `requires_grad`...: reads torch hands a mode as a getter."""


def tensor_facts(t: Any) -> tuple[object, ...]:
    """(dtype, device, shape, strides, requires_grad, dispatch keys) of a tensor, as
    `TensorSpec.facts()` lists them, read with torch functions disabled (a mode on the stack
    would otherwise see the reads). The dispatch keys are the tensor's own with the thread's
    included and excluded keys applied, as torch's tensor check computes them (an inference
    mode, say, excludes the autograd keys)."""
    with _C.DisableTorchFunction():
        return (
            t.dtype,
            t.device,
            tuple(t.shape),
            tuple(t.stride()),
            t.requires_grad,
            dispatch_keys(t),
        )


def dispatch_keys(t: Any) -> Any:
    """The dispatch key set an op on `t` dispatches on in this thread."""
    own = _C._dispatch_keys(t)
    return (own | _C._dispatch_tls_local_include_set()) - _C._dispatch_tls_local_exclude_set()


def tensor_match(t: Any) -> Callable[[Any], bool]:
    """One test of every fact of TENSOR_MATCH on a live tensor, in a single call: torch's C++
    tensor check, the one Dynamo's TENSOR_MATCH runs (`torch._C._dynamo.guards.TensorGuards`).
    Built from `t`, it tests that a live tensor has `t`'s exact class, dtype, device index,
    requires_grad, sizes, strides and dispatch key set (which holds the device type), the
    facts `tensor_facts` reads one by one to explain a failure. It reads them in C++, where
    no torch-function mode sees them, and keeps no reference to `t`."""
    check = _TensorGuards(
        t, dynamic_dims_sizes=[list(t.size())], dynamic_dims_strides=[list(t.stride())]
    )
    fn: Callable[[Any], bool] = check.check
    return fn


_TensorGuards: Any = _C._dynamo.guards.TensorGuards
"""(Typed Any: torch's stub leaves out the tensors it is built from, and gives each tensor's
sizes and strides as one list where the class takes a list per tensor.)"""


GLOBAL_STATE_NAMES = (
    "grad_enabled",
    "default_dtype",
    "deterministic_algorithms",
    "any_autocast",
)
GLOBAL_STATE_READERS = (
    _C.is_grad_enabled,
    _C.get_default_dtype,
    _C._get_deterministic_algorithms,
    _C._is_any_autocast_enabled,
)
"""The global state a trace relies on, one reader per name of GLOBAL_STATE_NAMES: the C
function behind torch's Python-level getter, which every check calls (autocast: whether it
is on for any device type, one call where a reader per device type costs 100 ns each)."""


def _autocast_off(values: tuple[Any, ...]) -> bool:
    """`is_autocast_enabled(device_type)` is pinned when autocast is off everywhere (the
    `any_autocast` part): it is False for every device type. When it is on somewhere, the part
    does not say where: not folded."""
    return len(values) <= 1 and not _C._is_any_autocast_enabled()


_READ_ON_DEMAND = {
    id(reader): (reader, reader.__name__.removeprefix("_get_").lstrip("_"))
    for reader in (
        _C._get_cublas_allow_tf32,
        _C._get_cudnn_allow_tf32,
        _C._get_cudnn_enabled,
        _C._get_cudnn_benchmark,
        _C._get_cudnn_deterministic,
        _C._get_mkldnn_enabled,
        _C._get_float32_matmul_precision,
        _C._get_cublas_allow_fp16_reduced_precision_reduction,
        _C._get_cublas_allow_bf16_reduced_precision_reduction,
        _C._get_flash_sdp_enabled,
        _C._get_mem_efficient_sdp_enabled,
        _C._get_math_sdp_enabled,
        _C._is_tracing,
    )
}
"""Backend flags read through `torch.backends` (`cuda.matmul.allow_tf32`, `cudnn.enabled`),
and whether `torch.jit.trace` is tracing (`torch.jit.is_tracing()`, which library code such as
`pad_sequence` asks): each returns a bool, a str or a tuple of bools and takes no argument; a
trace that reads one pins it (`TensorWorld.state_read_on_demand`)."""

_GUARDED_STATE_READERS = {
    id(reader): (reader, covered)
    for reader, covered in (
        (_C.get_default_dtype, no_arguments),
        (_C._get_deterministic_algorithms, no_arguments),
        (_C.is_autocast_enabled, _autocast_off),
    )
}
"""Getters of the state GLOBAL_STATE pins, folded while tracing when the guard covers the call
with these arguments (`TensorWorld.guarded_state_readers`); grad mode has its own tracker."""


def live_mode_stack() -> list[Any]:
    """torch's torch-function mode stack, bottom first."""
    n = _len_stack()
    return [_C._get_function_stack_at(i) for i in range(n)] if n else []


def set_live_mode_stack(modes: Sequence[Any]) -> None:
    """Make torch's stack exactly `modes`, through torch's own pop and push (the compiled
    code's replay of the trace's final stack)."""
    while _C._len_torch_function_stack():
        _C._pop_torch_function_stack()
    for mode in modes:
        _C._push_on_torch_function_stack(mode)


class TorchWorld(TensorWorld):
    """Real torch, for one compile (each compile gets its own FakeTensorMode, as in Dynamo)."""

    name = "torch"
    tensor_type = torch.Tensor
    mode_base = torch.overrides.TorchFunctionMode
    declined_op_runs = False
    stack_errors_modeled = False

    properties = PROPERTIES
    plain_tensor_classes = frozenset({torch.Tensor, torch.nn.Parameter})
    constant_classes = frozenset({torch.device, torch.Size, torch.finfo, torch.iinfo})

    grad_mode_setter = _C._set_grad_enabled
    grad_mode_reader = _C.is_grad_enabled
    grad_mode_classes = types.MappingProxyType(
        {torch.no_grad: False, torch.enable_grad: True, torch.set_grad_enabled: None}
    )

    def __init__(self) -> None:
        self.fake_mode = FakeTensorMode()
        self.starts_with_no_mode = not _len_stack()
        """The stack this compile starts from, which its MODE_STACK guard pins, is empty."""
        self.mode_stack = live_mode_stack
        self.mode_stack_len = _len_stack
        self.set_mode_stack = set_live_mode_stack
        self.get_mode_at = _C._get_function_stack_at

    # -- values ---------------------------------------------------------------------------------
    def is_tensor(self, value: object) -> bool:
        return issubclass(type(value), torch.Tensor)

    def tensor_spec(self, value: Any) -> TensorSpec:
        cls = type(value)
        if cls is not torch.Tensor and cls.__torch_function__ not in _PLAIN_TORCH_FUNCTIONS:
            unimplemented("tensor-subclass", _subclass_reason(cls))
        with _C.DisableTorchFunction():
            shape, strides = tuple(value.shape), tuple(value.stride())
            dtype, device, requires_grad = value.dtype, value.device, bool(value.requires_grad)
            keys, check = dispatch_keys(value), tensor_match(value)
        return TensorSpec(
            dtype, shape, requires_grad, cls, device, strides, keys, tensor_facts, check
        )

    def is_constant(self, value: object) -> bool:
        return issubclass(type(value), CONSTANT_TYPES)

    def is_op(self, value: object) -> bool:
        # by exact type (neither type can be subclassed): `isinstance` would ask a user
        # object's `__class__`, which may raise or claim to be a function
        if type(value) is types.BuiltinFunctionType:
            if value is _C._set_grad_enabled:  # recorded as a change of grad mode
                return True
            if value.__self__ is None:  # `torch.add`: a static method of _VariableFunctions
                in_namespace = value.__module__ == "torch"
            else:
                in_namespace = any(value.__self__ is ns for ns in OP_NAMESPACES)
            if not in_namespace:
                return False
            return not value.__name__.startswith("_") or _returns_tensors(value.__name__)
        if type(value) is types.FunctionType:
            return value.__module__ in OP_MODULES and not value.__name__.startswith("_")
        return False

    def wrap_object(self, output: Any, value: object, source: Any) -> Any:
        from tracer.torch_adapter.modules import wrap_module

        return wrap_module(output, value, source)

    # -- fake values ----------------------------------------------------------------------------
    def fake_of(self, value: Any) -> Any:
        with _C.DisableTorchFunction():
            return self.fake_mode.from_tensor(value)

    def shape(self, fake: Any) -> tuple[int, ...]:
        with _C.DisableTorchFunction():
            return tuple(fake.shape)

    def dtype_text(self, fake: Any) -> str:
        with _C.DisableTorchFunction():
            return str(fake.dtype).removeprefix("torch.")

    def read_attr(self, fake: Any, name: str) -> Any:
        with _C.DisableTorchFunction():
            return getattr(fake, name)

    def run_fake(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        blocks: Sequence[tuple[StateContextKind, tuple[Any, ...]]] = (),
    ) -> Any:
        _FAKE_RUN_LOG.running = True
        try:
            with _C.DisableTorchFunction(), _entered(blocks) if blocks else _NONE, self.fake_mode:
                return fn(*args, **kwargs)
        except (DataDependentOutputException, DynamicOutputShapeException) as e:
            raise NeedsData(type(e).__name__) from None
        except UnsupportedOperatorException as e:
            unimplemented("fake-tensor", f"torch's fake tensors do not support {e}")
        except Exception as e:  # noqa: BLE001
            # The real op would raise too, but not necessarily this error: a fake tensor's
            # checks are torch's meta functions, whose messages differ from the kernels' (a
            # broadcast error reads differently). Eager torch raises its own.
            name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", repr(fn))
            unimplemented(
                "fake-tensor-error",
                f"{name} raised {type(e).__name__} on fake tensors; the call runs eagerly, "
                "so the error raised is torch's own",
            )
        finally:
            _FAKE_RUN_LOG.running = False

    def mutates(self, target: object, kwargs: dict[str, Any]) -> bool:
        """`add_` and the other in-place methods (torch's naming rule), `x[i] = v`
        (`__setitem__`), or an `out=` call."""
        name = target if isinstance(target, str) else getattr(target, "__name__", "")
        return writes_in_place(name) or "out" in kwargs

    # -- what a mode sees -------------------------------------------------------------------------
    def overridable(self, fn: object) -> bool:
        return True  # every torch op, method, operator and getter consults the mode stack

    def operator_target(self, method: object) -> Any:
        return _probe().get(id(method))

    def accepts_operand(self, value: object) -> bool:
        return issubclass(type(value), torch.Tensor | int | float | bool | complex)

    def property_getters(self, name: str) -> tuple[Any, Any]:
        getter = inspect.getattr_static(torch.Tensor, name).__get__
        return getter, getter

    def passes_tensor_types(self, fn: object, args: Sequence[Any], kwargs: dict[str, Any]) -> bool:
        """Asked of torch itself: the call made on stand-in tensors under a mode that records
        its `types` and stops the call there (`_types_torch_passes`). Where an argument is not
        known, the rule that probe bears out: torch lists plain Tensor for what it hands a mode
        straight from the tensor (a getter, a Python-level Tensor method or function:
        `__rsub__`, `F.relu`; a method of the tensor alone: `neg`, `dim`), not for ops it parses
        against a signature (`size`, `x.sum(dim=0)`)."""
        found = _types_torch_passes(fn, args, kwargs)
        if found is not None:
            return found
        if isinstance(fn, types.FunctionType):
            return True
        if getattr(fn, "__name__", None) == "__get__":
            return True
        return len(args) == 1 and not kwargs and isinstance(fn, types.MethodDescriptorType)

    # -- global state -----------------------------------------------------------------------------
    def global_state_guards(self) -> list[Guard]:
        values = tuple(read() for read in GLOBAL_STATE_READERS)
        spec = GlobalStateSpec(GLOBAL_STATE_NAMES, values, GLOBAL_STATE_READERS)
        return [Guard(GuardKind.GLOBAL_STATE, GlobalStateSource(), spec)]

    def modes_dispatch(self) -> bool:
        """Not inside `DisableTorchFunction` (`DisableTorchFunctionSubclass` leaves modes on)."""
        return not _C._is_torch_function_all_disabled()

    def mode_dispatch_guard(self, enabled: bool) -> Guard:
        reader = _C._is_torch_function_all_disabled
        return state_part_guard("torch_function_all_disabled", not enabled, reader)

    def traces_subclass(self, cls: type) -> bool:
        """Every subclass (`tensor_spec` breaks on one with its own `__torch_function__`)."""
        return True

    def is_grad_enabled(self) -> bool:
        return bool(_C.is_grad_enabled())

    def set_grad_enabled_now(self, mode: bool) -> None:
        _C._set_grad_enabled(mode)

    def entered_grad_context(self, cls: type, target: bool, restore: bool) -> Any:
        context: Any = object.__new__(cls)
        context.prev = restore  # what `__exit__` sets
        if cls is torch.set_grad_enabled:
            context.mode = target
        return context

    def wrap_graph(self, graph_fn: Callable[..., Any]) -> Callable[..., Any]:
        """The graph's ops compute: the modes were traced already, so none sees them. With no
        mode on the stack no `__torch_function__` runs (a traced tensor's class has none of
        its own: `tensor_spec`): the graph runs as it is when its entry's MODE_STACK guard
        pins an empty stack, since the compiled code calls the graph first, before it replays
        anything (a mode pushed in the frame is pushed after), and otherwise whenever the
        stack is found empty."""
        if self.starts_with_no_mode:
            return graph_fn

        def run_graph(*args: Any) -> Any:
            if not _len_stack():
                return graph_fn(*args)
            with _C.DisableTorchFunction():
                return graph_fn(*args)

        return run_graph

    def mode_functions(self) -> dict[int, tuple[Any, str]]:
        return _MODE_FUNCTIONS

    guarded_state_readers = _GUARDED_STATE_READERS
    state_read_on_demand = _READ_ON_DEMAND
    state_contexts = STATE_CONTEXTS


_NONE = contextlib.nullcontext()


class _QuietWhileTracing(logging.Filter):
    """fake_tensor logs "failed while attempting to run meta for <op>", with a traceback, when
    an op raises on fake tensors. In a trace that error is the user's: the op runs eagerly at
    the break and raises torch's own, as plain torch does, which writes nothing to stderr. So
    the logger's records are dropped while `TorchWorld.run_fake` runs an op."""

    running = False

    def filter(self, record: logging.LogRecord) -> bool:
        return not self.running


_FAKE_RUN_LOG = _QuietWhileTracing()
logging.getLogger(torch._subclasses.fake_tensor.__name__).addFilter(_FAKE_RUN_LOG)

"""No state block is open at the op (a context of no cost, entered again and again)."""


@contextlib.contextmanager
def _entered(blocks: Sequence[tuple[StateContextKind, tuple[Any, ...]]]) -> Iterator[None]:
    """The state blocks open at an op (`torch.autocast`, `torch.inference_mode`), entered with
    the functions the graph's nodes call, outermost first, and left in reverse."""
    with contextlib.ExitStack() as stack:
        for kind, args in blocks:
            stack.callback(kind.exit, kind.enter(*args))
        yield


@functools.cache
def _returns_tensors(name: str) -> bool:
    """Is `torch.<name>` (a private binding: `torch._transformer_encoder_layer_fwd`, the fused
    path `nn.TransformerEncoderLayer` takes in inference) an aten operator all of whose
    overloads return tensors? Such an op computes tensors from tensors, as a public op does.
    Other private bindings (`torch._print`, `torch._assert_async`, setters of backend caches)
    return nothing and act on the world outside: not ops, so a call to one breaks."""
    packet = getattr(torch.ops.aten, name, None)
    if packet is None:
        return False
    schemas = [getattr(packet, overload)._schema for overload in packet.overloads()]
    return bool(schemas) and all(
        schema.returns and all(isinstance(r.type, torch.TensorType) for r in schema.returns)
        for schema in schemas
    )


def _subclass_reason(cls: type) -> str:
    """Why a tensor of subclass `cls` is not traced: its own `__torch_function__`, or the one
    it inherits from Tensor, which turns every op's result into a `cls` (not modeled)."""
    inherited = getattr(getattr(cls, "__torch_function__", None), "__func__", None)
    if inherited is not None and inherited is getattr(
        torch.Tensor.__torch_function__, "__func__", None
    ):
        return (
            f"tensor subclass {cls.__name__}: Tensor.__torch_function__ returns each op's "
            f"result as a {cls.__name__}, which is not modeled"
        )
    return f"tensor subclass {cls.__name__} with its own __torch_function__"


_PLAIN_TORCH_FUNCTIONS = (
    torch.Tensor.__torch_function__,
    getattr(_C, "_disabled_torch_function_impl", None),
)
"""A subclass whose `__torch_function__` is one of these (Parameter, Buffer) behaves as Tensor."""

_overrides = torch.overrides
_MODE_FUNCTIONS = {
    id(fn): (fn, kind)
    for fn, kind in {
        _C._push_on_torch_function_stack: "push",
        _overrides._push_mode: "push",
        _C._pop_torch_function_stack: "pop",
        _overrides._pop_mode: "pop",
        _C._len_torch_function_stack: "len",
        _C._get_function_stack_at: "get_at",
        _overrides._get_current_function_mode: "current",
        _overrides._get_current_function_mode_stack: "stack",
        _C._is_torch_function_mode_enabled: "enabled",
        _overrides.TorchFunctionMode.__dict__["__enter__"]: "enter",
        _overrides.TorchFunctionMode.__dict__["__exit__"]: "exit",
        _overrides._pop_mode_temporarily: "pop_temporarily",
        _C._has_torch_function: "has_torch_function",
        _C._has_torch_function_unary: "has_torch_function_unary",
        _C._has_torch_function_variadic: "has_torch_function_variadic",
    }.items()
}


_PROBED: dict[int, Any] = {}


def _probe() -> dict[int, Any]:
    """id(Tensor operator dunder) -> the op torch hands a mode for it, where that is another
    op (`Tensor.__add__` -> `Tensor.add`). Asked of torch once, on small real tensors, under a
    mode that notes the first function it is handed. The user's modes are off the stack
    meanwhile (none of them may see the tracer's own calls), and dispatch is on, even when the
    first compile happens inside `DisableTorchFunction` (the table is kept for the process)."""
    if _PROBED:
        return _PROBED
    users = live_mode_stack()
    set_live_mode_stack(())
    try:
        with _C._EnableTorchFunction():
            _probe_into(_PROBED)
    finally:
        set_live_mode_stack(users)
    return _PROBED


def _probe_into(found: dict[int, Any]) -> None:
    seen: list[Any] = []

    class Note(torch.overrides.TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            seen.append(func)
            return func(*args, **(kwargs or {}))

    x = torch.ones(2, 2, dtype=torch.int64)
    dunders = {name for pair in OPERATOR_DUNDERS.values() for name in pair if name}
    for name in sorted(dunders):
        method = getattr(torch.Tensor, name, None)
        if method is None:
            continue
        unary = name in ("__neg__", "__pos__", "__abs__", "__invert__")
        seen.clear()
        try:
            with Note():
                method(x) if unary else method(x, 0 if name == "__getitem__" else x)
        except Exception:  # noqa: BLE001, S112 - an operator torch's ints refuse: its own op
            continue
        if seen and seen[0] is not method and getattr(seen[0], "__name__", name) != name:
            found[id(method)] = seen[0]
    found[id(operator.add)] = None  # (marks the table built even when nothing was found)


class _Stop(Exception):
    """Raised by `_TypesNote` once it has seen the call's `types`."""


class _TypesNote(torch.overrides.TorchFunctionMode):
    """Notes the `types` torch hands a mode, and stops the call before anything runs."""

    types: tuple[type, ...] = ()

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self.types = tuple(types)
        raise _Stop


def _types_torch_passes(fn: Any, args: Sequence[Any], kwargs: dict[str, Any]) -> bool | None:
    """Does torch list plain Tensor among the `types` it hands a mode for `fn(*args,
    **kwargs)`? Asked of torch: the call made with each TENSOR_ARG a small real tensor, under
    `_TypesNote` alone (the user's modes off the stack, as in `_probe`); None when an argument
    is not known (UNKNOWN_ARG) or the call did not reach the mode (torch refused the
    arguments first)."""

    def stand_in(value: Any) -> Any:
        if value is UNKNOWN_ARG:
            raise _Stop
        if value is TENSOR_ARG:
            return torch.empty(())
        if type(value) in (list, tuple):
            return type(value)(stand_in(item) for item in value)
        return value

    note = _TypesNote()
    users = live_mode_stack()
    set_live_mode_stack(())  # (before the stand-ins are made: no mode of the user's sees them)
    try:
        try:
            real_args = [stand_in(a) for a in args]
            real_kwargs = {k: stand_in(v) for k, v in kwargs.items()}
        except _Stop:
            return None
        with _C._EnableTorchFunction(), note:
            fn(*real_args, **real_kwargs)
    except _Stop:
        return torch.Tensor in note.types
    except Exception:  # noqa: BLE001 - torch refused the arguments before any mode saw them
        return None
    finally:
        set_live_mode_stack(users)
    return None
