"""OutputGraph: everything one trace produces. The graph under construction, its inputs, the
guards, the side effects, and the three ways a tensor op gets recorded (runtime function,
tensor method, Python operator), each checked on fake tensors before it joins the graph.
"""

from __future__ import annotations

import dataclasses
import operator
import re
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from guards.guard import Guard, GuardKind
from guards.sources import AttrSource
from tracer import config, worlds
from tracer.config import CompileOptions
from tracer.exc import Unsupported, unimplemented
from tracer.graph import Graph, Node
from tracer.graph.naming import op_name
from tracer.graph.node import Op
from tracer.graph.resolve import OPERATOR_DUNDERS
from tracer.side_effects import SideEffects
from variables.base import VariableTracker
from variables.builder import VariableBuilder, wrap_class, wrap_constant_result
from variables.constant import ConstantVariable
from variables.dicts import ConstDictVariable
from variables.lists import TupleVariable
from variables.modes import TorchFunctionModeVariable, mode_types
from variables.operators import OPERATOR_SYMBOLS, identical, raise_operator_error
from variables.structured import StructSequenceVariable, is_struct_sequence
from variables.sym import SymNumberVariable, pin_scalar_arguments, symbolic_int_operand
from variables.tensor import TensorVariable, TorchOpVariable, as_graph_arg, returned_input

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.exc import UserLocation
    from tracer.translator.base import TranslatorBase
    from tracer.worlds import StateContextKind


_UNTRACED_EFFECTS = {
    "_version": "`x._version` counts the writes a tensor has seen at run time, which its fake "
    "value does not know",
    "storage_offset": "`x.storage_offset()` of a view depends on where its base starts in the "
    "storage, which the tensor guards do not check",
    **dict.fromkeys(
        ("__deepcopy__", "__copy__", "__reduce_ex__", "__setstate__"),
        "copying or pickling a tensor runs torch's Python, which fills the caller's memo and "
        "keeps the tensor's class (a Parameter's copy is a Parameter)",
    ),
}
"""Runtime ops the graph would not record faithfully: a version counter is a run-time count;
a view's storage offset is not pinned by TENSOR_MATCH (two views of one shape and strides at
other offsets pass it); the copy protocol's methods change their arguments. They break the
graph where an op called by its name or function is recorded (`_call_op`; none is a Python
operator)."""

_PLAIN_OF_INPLACE = {
    operator.iadd: operator.add, operator.isub: operator.sub, operator.imul: operator.mul,
    operator.itruediv: operator.truediv, operator.ifloordiv: operator.floordiv,
    operator.imod: operator.mod, operator.ipow: operator.pow, operator.imatmul: operator.matmul,
    operator.ilshift: operator.lshift, operator.irshift: operator.rshift,
    operator.iand: operator.and_, operator.ior: operator.or_, operator.ixor: operator.xor,
}  # fmt: skip


@dataclasses.dataclass(frozen=True, eq=False)
class StateBlock:
    """An open block of `torch.autocast` or `torch.inference_mode` in a trace."""

    kind: StateContextKind
    args: tuple[Any, ...]
    """The arguments of its enter node."""
    node: Node
    """The enter node, whose result (the run-time context) the exit node takes."""
    grad_before: tuple[bool, bool]
    """The trace's grad mode, and whether the trace had set it, when the block was entered."""
    sets_grad_mode: bool


class OutputGraph:
    """The result of tracing one frame (inlined calls included)."""

    def __init__(self, f_globals: dict[str, Any], options: Any = None) -> None:
        if not options:  # (tests) imported only then: convert_frame imports this module
            options = CompileOptions()
        self.options: CompileOptions = options
        self.graph = Graph()
        self.builder = VariableBuilder(self)
        self.side_effects = SideEffects(self)
        self.root_globals = f_globals
        self.guards: dict[Guard, Guard] = {}
        self._absent_names: dict[Source, tuple[UserLocation | None, set[str]]] = {}
        """The names `guard_name_absent` guarded missing from each dict, with the user line
        of the first: `all_guards` makes them one DICT_NOT_CONTAINS per dict."""
        self._attrs_present: dict[tuple[Source, str], UserLocation | None] = {}
        """(object source, name) of each attribute found in an instance dict, with the user
        line (`guard_attr_present`): `all_guards` guards those whose value was never read."""
        self._names_present: dict[tuple[Source, str], tuple[UserLocation | None, Source]] = {}
        """(dict source, name) of each global or builtin found, with the user line and the
        value's source (`guard_name_present`): `all_guards` guards those never read."""
        self.class_dict_sources: dict[type, Source] = {}
        """The source through which this trace guards each class's `__dict__`, the first one
        it used: one reached through an instance pinned to its class by TYPE_MATCH reaches
        the same dict for every instance of that class (tracer/torch_adapter/modules.py)."""
        self.class_names_absent: set[tuple[type, str, type | None, int]] = set()
        """(class, name, owner, start) whose absence from the class dicts of the class's MRO
        from position `start` to `owner` (to the end for None) this trace guarded
        (`variables.class_lookup.guard_not_in_classes`): a store or read of the same name on
        objects of that class in a loop walks the MRO once."""
        self.class_mro_sources: dict[type, Source] = {}
        """The source through which this trace reads each class's `__mro__` at fixed
        positions, pinned by ID_MATCH (`variables.class_lookup.mro_source`)."""
        self.classes_named: set[type] = set()
        """The classes whose names this trace guarded as they are
        (`variables.class_lookup.guard_class_names`), each once, through its first source."""
        self.graph_inputs: list[tuple[Source, Node]] = []
        self.instruction_count = 0
        self.inline_depth_max = 0
        self.current_tx: TranslatorBase | None = None
        self.trace_warnings: list[warnings.WarningMessage] = []
        """Warnings emitted while tracing, not yet broken on (tracer/translator/trace_warnings)."""
        knobs = config.current()
        self.budget = knobs.instruction_budget
        self.world = worlds.current()
        """The tensor world of this trace (tracer.worlds): every question about tensors."""
        self.mode_stack: list[VariableTracker] = []
        """The symbolic torch-function mode stack, bottom first (shared by inlined frames)."""
        self.initial_mode_stack: list[VariableTracker] = []
        self.initial_modes_dispatch = self.world.modes_dispatch()
        """Do ops go to the modes at the call (not inside `DisableTorchFunction`)? The frame
        does not change it: entering `DisableTorchFunction` in it is not modeled."""
        self._modes_dispatch_guarded = False
        self.classes_made: list[VariableTracker] = []
        """Classes defined in the traced frame (variables/new_classes.py), kept for codegen."""
        self.tensor_inputs: dict[int, TensorVariable] = {}
        """The tracker of each tensor input, by id of the real tensor (variables/builder.py
        `wrap_tensor`: a tensor reached at two sources is one input)."""
        self.written_inputs: dict[int, TensorVariable] = {}
        """Tensor inputs an in-place op wrote, by id of the tracker: each is guarded to alias
        no other tensor input (`install_tensor_aliasing_guards`)."""
        self.mutating_nodes: list[Node] = []
        """Ops that write to a tensor (`x.add_(1)`): graph outputs whether or not their
        result is used, so the graph exists and runs them, in order."""
        self.has_scalar_inputs = False
        """Whether a symbolic scalar input was made (`add_scalar_input`)."""
        self.raising_nodes: list[Node] = []
        """Arithmetic on symbolic scalars that raises for some values (`a // n`): graph
        outputs too, so that it runs, and raises, whether or not its result is used."""
        self.initial_grad_enabled: bool = self.world.is_grad_enabled()
        """Grad mode at the call (a global state, guarded when the trace depends on it)."""
        self.grad_enabled = self.initial_grad_enabled
        """Grad mode at this point of the trace, also set for real while tracing (per thread)
        so that fake results get the `requires_grad` eager ones would; restored afterwards."""
        self._grad_mode_set = False
        self.grad_mode_nodes: list[tuple[Node, bool]] = []
        """The `_set_grad_enabled` nodes of the graph in order, each with whether it changed
        the mode (a call by hand may set the mode it has)."""
        self._grad_mode_by_context = False
        """Is the change under way one of `no_grad`, `enable_grad`, `set_grad_enabled`?"""
        self.last_grad_mode_node: Node | None = None
        """The last `_set_grad_enabled` node: an output when the frame leaves the mode changed."""
        self._grad_mode_guarded = False
        self.state_blocks: list[StateBlock] = []
        """The blocks of `torch.autocast` and `torch.inference_mode` open at this point of the
        trace, outermost first (`enter_state_block`)."""

    def release(self) -> None:
        """Called once the compile is over (built or fallen back), after which nothing reads
        this object. The builder, the side effects, every lazy tracker and cell point back
        here, and the translator, the mode stacks and the caches are pointed at from here, so
        a whole trace is one reference cycle. Emptying this object frees the trace by reference
        counting the moment the compile returns, not at some later garbage collection."""
        self.restore_grad_mode()
        self.__dict__.clear()

    # -- grad mode --------------------------------------------------------------------------------
    def read_grad_mode(self) -> bool:
        """Grad mode now, in the trace. Until the trace sets it, that is the mode at the call,
        so the entry guards it (its GLOBAL_STATE guard): a call in the other mode misses."""
        self.depends_on_grad_mode()
        return self.grad_enabled

    def depends_on_grad_mode(self) -> None:
        """Guard the mode at the call unless the trace set the mode itself before. Also called
        for every tensor of the trace that requires grad (an input, an op's result): whether
        ops on it give results that require grad is up to the mode. A trace with no such
        tensor computes the same metadata in either mode, and does not guard it."""
        if not self._grad_mode_set and not self._grad_mode_guarded:
            self._grad_mode_guarded = True
            guard = self.world.grad_mode_guard(self.initial_grad_enabled)
            if guard is not None:  # else the world's GLOBAL_STATE guard pins it on every trace
                self.guards.setdefault(guard, guard)

    def set_grad_mode(self, tx: TranslatorBase, mode: bool) -> None:
        """Change grad mode here (entering or leaving `torch.no_grad()`, ...): the world's
        `torch._C._set_grad_enabled(mode)`, handed to the innermost torch-function mode as
        eagerly, else recorded (`_record_grad_mode`)."""
        fn = self.world.grad_mode_setter
        if fn is None:
            unimplemented("grad-mode", f"changes of grad mode in the {self.world.name} world")
        self._grad_mode_by_context = True
        try:
            self._call_op(tx, "call_function", fn, fn, [ConstantVariable(mode)], {})
        finally:
            self._grad_mode_by_context = False

    def _record_grad_mode(
        self, tx: TranslatorBase, target: Any, args: Sequence[VariableTracker]
    ) -> VariableTracker:
        """`_set_grad_enabled(mode)` as a graph node, so the graph changes the mode at run time
        where eager code does, in order with its ops (the node is impure: no pass drops, merges
        or moves anything across it); set for real now, for the fake runs that follow."""
        value = args[0].realize() if len(args) == 1 else None
        if value is None or not value.is_python_constant():
            unimplemented(
                "grad-mode", "torch._C._set_grad_enabled with a mode known only at run time"
            )
        mode = value.as_python_constant()
        if type(mode) is not bool:
            unimplemented("grad-mode", f"grad mode set to {mode!r}, not a bool")
        changes = mode != self.read_grad_mode()
        if changes and any(block.sets_grad_mode for block in self.state_blocks):
            unimplemented("grad-mode", "a change of grad mode inside a torch.inference_mode block")
        if not changes and self._grad_mode_by_context:
            # entering `enable_grad()` where grad is on changes nothing: no node (Dynamo's
            # GradModeVariable coalesces the same way; a call by hand is recorded as made)
            return ConstantVariable(None)
        last_op = next((n for n in reversed(self.graph.nodes) if n.op != "placeholder"), None)
        last = self.grad_mode_nodes[-1] if self.grad_mode_nodes else None
        if changes and last is not None and last[1] and last_op is last[0]:
            # this change undoes the change just before it, with no op between: neither is
            # needed (Dynamo's graph drops such pairs too: `no_grad` around nothing)
            self.graph.erase_node(last_op)
            self.grad_mode_nodes.pop()
        else:
            meta = {"val": None, "user_location": tx.location_text()}
            node = self.graph.create_node("call_function", target, (mode,), {}, meta=meta)
            self.grad_mode_nodes.append((node, changes))
        self.last_grad_mode_node = self.grad_mode_nodes[-1][0] if self.grad_mode_nodes else None
        self.world.set_grad_enabled_now(mode)
        self.grad_enabled = mode
        self._grad_mode_set = True
        return ConstantVariable(None)

    # -- other thread-local state: torch.autocast, torch.inference_mode --------------------------
    def enter_state_block(
        self, tx: TranslatorBase, kind: StateContextKind, args: tuple[Any, ...]
    ) -> StateBlock:
        """Enter a block of `kind` (tracer.worlds.StateContextKind): a node calling
        `kind.enter(*args)`, whose result the block's exit node takes. The fake runs of the ops
        inside enter the same state (`_run_fake`). Grad mode inside is the block's when it sets
        one (`inference_mode(True)`: off, whatever it was at the call), and the mode from before
        the block is back after it."""
        meta = {"val": None, "user_location": tx.location_text()}
        node = self.graph.create_node("call_function", kind.enter, args, {}, meta=meta)
        grad_mode = kind.grad_mode(args)
        block = StateBlock(
            kind, args, node, (self.grad_enabled, self._grad_mode_set), grad_mode is not None
        )
        self.state_blocks.append(block)
        if grad_mode is not None:
            self.grad_enabled, self._grad_mode_set = grad_mode, True
        return block

    def exit_state_block(self, tx: TranslatorBase, block: StateBlock) -> None:
        """Leave `block`, the innermost open one: a node calling its kind's `exit` on what its
        enter node returned."""
        if not self.state_blocks or self.state_blocks[-1] is not block:
            unimplemented("state-context", "state blocks left in another order than entered")
        self.state_blocks.pop()
        meta = {"val": None, "user_location": tx.location_text()}
        self.graph.create_node("call_function", block.kind.exit, (block.node,), {}, meta=meta)
        self.grad_enabled, self._grad_mode_set = block.grad_before

    def restore_grad_mode(self) -> None:
        """Put back the grad mode of the call (the trace set it for real as it went)."""
        if self.world.is_grad_enabled() != self.initial_grad_enabled:
            self.world.set_grad_enabled_now(self.initial_grad_enabled)

    # -- the mode stack ---------------------------------------------------------------------------
    def modes_consulted(self) -> bool:
        """Does an op called now go to a mode (the stack holds one and dispatch is on)? Once
        the stack holds a mode, the answer depends on whether dispatch is on, which the entry
        then guards (the world's `mode_dispatch_guard`)."""
        if not self.mode_stack:
            return False
        if not self._modes_dispatch_guarded:
            self._modes_dispatch_guarded = True
            guard = self.world.mode_dispatch_guard(self.initial_modes_dispatch)
            self.guards.setdefault(guard, guard)
        return self.initial_modes_dispatch

    def push_mode(self, tx: TranslatorBase, mode: VariableTracker) -> None:
        if not isinstance(mode.realize(), TorchFunctionModeVariable):
            unimplemented("mode-stack", f"pushing {mode!r}, which is not a TorchFunctionMode")
        self.mode_stack.append(mode)

    def pop_mode(self, tx: TranslatorBase) -> VariableTracker:
        if not self.mode_stack:
            if not self.world.stack_errors_modeled:  # the pop runs eagerly, torch's error
                unimplemented("mode-stack", "popping an empty torch function mode stack")
            tx.raise_user_error(
                RuntimeError("Trying to pop from an empty torch function mode stack")
            )
        return self.mode_stack.pop()

    def mode_stack_changed(self) -> bool:
        current = [vt.realize() for vt in self.mode_stack]
        initial = [vt.realize() for vt in self.initial_mode_stack]
        return len(current) != len(initial) or any(
            a is not b for a, b in zip(current, initial, strict=False)
        )

    def _dispatch_to_mode(
        self,
        tx: TranslatorBase,
        public: Any,
        args: list[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker | None:
        """Trace the top mode's `__torch_function__` with the mode popped for the duration, as
        the runtime does eagerly. None means the handler answered NotImplemented."""
        mode = self.mode_stack.pop()
        try:
            handler = mode.realize().var_getattr(tx, "__torch_function__")
            types = mode_types(self.world, public, args, kwargs)
            types_vt = TupleVariable([wrap_class(t) for t in types])
            result = handler.call_function(
                tx,
                [TorchOpVariable(public), types_vt, TupleVariable(args), ConstDictVariable(kwargs)],
                {},
            )
        finally:
            self.mode_stack.append(mode)
        if result.is_python_constant() and result.as_python_constant() is NotImplemented:
            if not self.world.declined_op_runs:
                unimplemented("mode", f"{mode!r} returned NotImplemented for {op_name(public)}")
            return None
        return result

    # -- bookkeeping ----------------------------------------------------------------------------
    def over_budget(self) -> NoReturn:
        """The step loop (`TranslatorBase.steps`) counts each step in `instruction_count` and
        calls this once the count passes the budget."""
        unimplemented(
            "instruction-budget",
            f"tracing passed the budget of {self.budget} instructions",
            hints=("a loop may be too long to unroll; raise config instruction_budget",),
        )

    def note_inline_depth(self, depth: int) -> None:
        self.inline_depth_max = max(self.inline_depth_max, depth)

    def add_guard(self, kind: GuardKind, source: Source, expected: object) -> None:
        location = self.current_tx.location() if self.current_tx is not None else None
        guard = Guard(kind, source, expected, location)
        self.guards.setdefault(guard, guard)

    def guard_name_absent(self, dict_source: Source, name: str) -> None:
        """Guard `name not in <dict_source>` (a builtin not shadowed by a global, a class
        attribute not shadowed in the instance dict). The names of one dict become one guard
        (`all_guards`): a module's instance dict lacks `weight`, `bias` and `forward`, which
        `Module.__getattr__` and `__call__` looked for, and one guard testing the three plans,
        renders and compiles once. A trace looks a name up again and again (`len` in a loop, a
        mode's `__torch_function__` for every op): a repeat only finds the name in a set."""
        recorded = self._absent_names.get(dict_source)
        if recorded is None:
            location = self.current_tx.location() if self.current_tx is not None else None
            self._absent_names[dict_source] = (location, {name})
        else:
            recorded[1].add(name)

    def guard_attr_present(self, obj_source: Source, name: str) -> None:
        """`name` was found in the instance dict of the object at `obj_source`, and its value
        handed on lazily: `hasattr(o, name)`, or the value returned or passed on unread, rely
        on its presence alone, which a HASATTR guards. A value the trace reads after all is
        wrapped (and guarded) at `<obj_source>.name`, and reading it there fails the check
        when it is missing: that HASATTR is left out (`all_guards`), so reading an attribute
        costs no extra guard."""
        if (obj_source, name) not in self._attrs_present:
            location = self.current_tx.location() if self.current_tx is not None else None
            self._attrs_present[obj_source, name] = location

    def guard_name_present(self, dict_source: Source, name: str, value_source: Source) -> None:
        """`name` was found in the dict at `dict_source` (the globals, the builtins) and its
        value handed on lazily, at `value_source`: code that returns or passes it on unread
        relies on its presence alone (deleted later, the compiled code would read it outside
        the user's `try`), which a DICT_CONTAINS guards, one per dict. A value the trace reads
        is guarded where it is read, which fails the check when it is gone: then its name is
        left out (`all_guards`), so reading a global costs no extra guard."""
        if (dict_source, name) not in self._names_present:
            location = self.current_tx.location() if self.current_tx is not None else None
            self._names_present[dict_source, name] = (location, value_source)

    def all_guards(self) -> list[Guard]:
        """Every guard of the trace: `guards`, then one DICT_NOT_CONTAINS per dict of the names
        `guard_name_absent` recorded there, sorted (the text does not depend on the order the
        trace met them), with the user line of the first; then one DICT_CONTAINS per dict of
        the names found whose value was never read (`guard_name_present`), and the HASATTR of
        each attribute found present whose value was never read (`guard_attr_present`)."""
        absent = [
            Guard(GuardKind.DICT_NOT_CONTAINS, source, tuple(sorted(names)), location)
            for source, (location, names) in self._absent_names.items()
        ]
        unread: dict[Source, tuple[UserLocation | None, list[str]]] = {}
        for (source, name), (location, value_source) in self._names_present.items():
            if value_source not in self.builder.cache:
                unread.setdefault(source, (location, []))[1].append(name)
        defined = [
            Guard(GuardKind.DICT_CONTAINS, source, tuple(sorted(names)), location)
            for source, (location, names) in unread.items()
        ]
        present = [
            Guard(GuardKind.HASATTR, source, name, location)
            for (source, name), location in self._attrs_present.items()
            if AttrSource(source, name) not in self.builder.cache
        ]
        return [
            *self.guards.values(),
            *absent,
            *defined,
            *(g for g in present if g not in self.guards),
        ]

    def add_scalar_input(self, value: Any, source: Source) -> VariableTracker:
        """A float/int input that stays symbolic: guarded by type only, passed to the graph."""
        self.add_guard(GuardKind.TYPE_MATCH, source, type(value))
        self.has_scalar_inputs = True
        name = source.name
        node = self.graph.placeholder(_placeholder_name(name), {"val": value, "source": name})
        self.graph_inputs.append((source, node))
        return SymNumberVariable(node, value, self, source)

    def add_graph_input(self, value: Any, source: Source) -> TensorVariable:
        name = source.name  # a chained source builds its name on every read
        fake = self.world.fake_of(value)
        node = self.graph.placeholder(_placeholder_name(name), {"val": fake, "source": name})
        self.graph_inputs.append((source, node))
        if self.world.read_attr(fake, "requires_grad"):
            self.depends_on_grad_mode()
        cls = type(value)
        vt = TensorVariable(node, fake, source, None if cls is self.world.tensor_type else cls)
        vt.real = value
        return vt

    # -- recording tensor ops -------------------------------------------------------------------
    def call_runtime_function(
        self,
        tx: TranslatorBase,
        fn: Any,
        args: list[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        name = getattr(getattr(fn, "__modetrace_op__", None), "name", None)
        if name is None:
            name = getattr(fn, "__name__", "")
        if name in self.world.random_ops:
            unimplemented("random", f"call to torch.{name} reads the global random generator")
        if self.world.operator_target(fn) is not None and not kwargs:  # `Tensor.__add__(x, y)`
            return self._operator_result(tx, fn, args)
        return self._call_op(tx, "call_function", fn, fn, args, kwargs)

    def call_tensor_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: list[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        self_vt = args[0]
        assert isinstance(self_vt, TensorVariable)
        method = getattr(self.world.tensor_type, name, None)
        if method is None:
            tx.raise_user_error(AttributeError(f"'Tensor' object has no attribute '{name}'"))
        if self.world.operator_target(method) is not None and not kwargs:  # `x.__add__(y)`
            return self._operator_result(tx, method, args)
        return self._call_op(tx, "call_method", name, method, args, kwargs)

    def call_tensor_property(
        self, tx: TranslatorBase, name: str, self_vt: TensorVariable
    ) -> VariableTracker:
        """`x.shape`: the getter `Tensor.shape.__get__` handed to the mode, as torch does, or
        the property's mode-free getter run on the fake tensor (a tensor result is a node)."""
        public, getter = self.world.property_getters(name)
        return self._call_op(tx, "call_function", public, getter, [self_vt], {})

    def _call_op(
        self,
        tx: TranslatorBase,
        op: Op,
        target: Any,
        impl: Any,
        args: list[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """A runtime op's call: handed to the innermost torch-function mode if one is active
        and handles it, else recorded as a graph node."""
        if self.modes_consulted() and self.world.overridable(impl):
            result = self._dispatch_to_mode(tx, impl, args, kwargs)
            if result is not None:
                return result
        name = target if isinstance(target, str) else op_name(target)
        if name in _UNTRACED_EFFECTS:
            unimplemented("side-effect", _UNTRACED_EFFECTS[name])
        if name == "requires_grad_" and self._flag_holds(args, kwargs):
            return args[0]  # `x.requires_grad_(False)` on x that does not: no node, as Dynamo
        recorded: VariableTracker | None = self._record(tx, op, target, impl, args, kwargs)
        return ConstantVariable(NotImplemented) if recorded is None else recorded

    def _flag_holds(self, args: list[VariableTracker], kwargs: dict[str, VariableTracker]) -> bool:
        """Does `x.requires_grad_(flag)` ask for the flag `x` has already? Then the call only
        returns `x` (eagerly too)."""
        if len(args) + len(kwargs) > 2 or kwargs.keys() - {"requires_grad"}:
            return False  # (CPython's TypeError, from the call)
        flag = args[1] if len(args) > 1 else kwargs.get("requires_grad", ConstantVariable(True))
        if not isinstance(args[0], TensorVariable):
            return False
        if not flag.is_python_constant() or type(flag.as_python_constant()) is not bool:
            return False
        has = self.world.read_attr(args[0].fake, "requires_grad")
        return bool(has) is flag.as_python_constant()

    def call_operator(
        self, tx: TranslatorBase, fn: Callable[..., Any], args: list[VariableTracker]
    ) -> VariableTracker:
        """Python's operator protocol: the left operand's method, then the right's reflected one."""
        if fn not in OPERATOR_DUNDERS:
            unimplemented("operator", f"operator {fn.__name__} on tensors is not supported")
        dunder, reflected = OPERATOR_DUNDERS[fn]
        tensor_cls = self.world.tensor_type
        first = args[0]
        if isinstance(first, TensorVariable):
            method = getattr(tensor_cls, dunder, None)
            if method is not None:
                result = self._operator_call(tx, method, args)
                if result is not None:
                    return result
        if len(args) == 2 and reflected is not None and isinstance(args[1], TensorVariable):
            method = getattr(tensor_cls, reflected, None)
            if method is not None:
                result = self._operator_call(tx, method, [args[1], args[0]])
                if result is not None:
                    return result
        if fn is operator.mul and _repeats_sequence(args):
            unimplemented(
                "data-dependent-op",
                "a sequence repeated a tensor's number of times needs its value "
                "(`Tensor.__index__`, which a mode sees)",
            )
        if fn is operator.eq or fn is operator.ne:  # both declined: Python compares identity
            return ConstantVariable(identical(args[0], args[1], tx) == (fn is operator.eq))
        if len(args) == 2:
            raise_operator_error(tx, fn, args[0], args[1])
        symbol = OPERATOR_SYMBOLS.get(fn, fn.__name__)
        tx.raise_user_error(TypeError(f"bad operand type for {symbol}: '{args[0].type_name()}'"))

    def call_inplace_operator(
        self, tx: TranslatorBase, fn: Callable[..., Any], a: TensorVariable, b: VariableTracker
    ) -> VariableTracker | None:
        """`a += b` on a tensor: the runtime Tensor's in-place dunder (`__iadd__` is
        `Tensor.add_`, which writes `a` and returns it), or None when the Tensor has none or it
        answers NotImplemented (then Python computes `a + b` and rebinds, as for `**=`)."""
        dunder = "__i" + OPERATOR_DUNDERS[_PLAIN_OF_INPLACE[fn]][0][2:]
        method = getattr(self.world.tensor_type, dunder, None)
        if method is None:
            return None
        result = self._operator_call(tx, method, [a, b])
        return None if result is None else returned_input(result, [a])

    def _operator_result(
        self, tx: TranslatorBase, method: Any, args: list[VariableTracker]
    ) -> VariableTracker:
        """An operator dunder called by name: its result, NotImplemented included."""
        result = self._operator_call(tx, method, args)
        return ConstantVariable(NotImplemented) if result is None else result

    def _operator_call(
        self, tx: TranslatorBase, method: Any, args: list[VariableTracker]
    ) -> VariableTracker | None:
        """`method(*args)` for a Tensor operator dunder; None when it answers NotImplemented.

        A dunder made by `operator_method` hands the mode, and the graph, the public op it
        calls (`x + y` and `2 + x` are `Tensor.add` with the tensor first, as in torch), after
        its own check of the other operand, applied to the value the fake run would get."""
        op = self.world.operator_target(method)
        if op is None:  # an op of its own (`__eq__`, `__rsub__`): the mode sees every call
            op = method
        elif len(args) == 2 and not self.world.accepts_operand(as_graph_arg(args[1])[1]):
            return None
        if self.modes_consulted() and self.world.overridable(op):
            result = self._dispatch_to_mode(tx, op, args, {})
            if result is not None:
                return result
        symbolic = self.has_scalar_inputs and op_name(op) in _TOTAL_IN_A_SCALAR
        overflows = symbolic and symbolic_int_operand(tx, args)
        recorded: VariableTracker | None = self._record(
            tx, "call_function", op, op, args, {}, symbolic_scalars=symbolic and not overflows
        )
        if overflows is None and isinstance(recorded, TensorVariable):
            self.raising_nodes.append(recorded.node)  # it runs (and raises) even if unused
        return recorded

    def _record(
        self,
        tx: TranslatorBase,
        op: Op,
        target: Any,
        fake_fn: Callable[..., Any],
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
        symbolic_scalars: bool = False,
    ) -> Any:
        """Run `fake_fn` on fake values; if it produced tensors, add the node to the graph.
        Returns None when the op answered NotImplemented (operator protocol). Symbolic scalars
        among the arguments are guarded by value (their examples fixed the result's shape, or
        whether the op raises) unless `symbolic_scalars` says the op is total in them."""
        # each argument as (what the graph node holds, what the fake run gets)
        node_args: tuple[Any, ...] = ()
        fake_args: tuple[Any, ...] = ()
        if args:
            node_args, fake_args = zip(*map(as_graph_arg, args), strict=True)
        node_kwargs: dict[str, Any] = {}
        fake_kwargs: dict[str, Any] = {}
        for key, value in kwargs.items():
            node_kwargs[key], fake_kwargs[key] = as_graph_arg(value)
        if fake_fn is self.world.grad_mode_setter:
            return self._record_grad_mode(tx, target, args)
        if self.has_scalar_inputs and not symbolic_scalars:
            pin_scalar_arguments(self, (node_args, node_kwargs))
        fake_result = self._run_fake(tx, target, fake_fn, fake_args, fake_kwargs)
        if fake_result is NotImplemented:
            return None
        mutates = self.world.mutates(target, node_kwargs)
        if fake_result is None and not mutates:
            # An op computes a value; one that returns None is called for what it does to
            # state the fake run does not touch (`loss.backward()` fills `.grad`,
            # `y.retain_grad()`, `torch.set_rng_state(s)`). Folded to None, the compiled code
            # would not do it: the call runs eagerly instead (Dynamo breaks on these too).
            unimplemented(
                "effect-op",
                f"{_op_name(target)} returned None on fake tensors: it is called for an effect "
                "that the graph would not have, or reads state the fake does not hold",
            )
        if not mutates and not _contains_tensor(self.world, fake_result):
            return wrap_constant_result(fake_result)
        if tx.in_try_block():
            unimplemented(
                "try-block",
                f"try/except around a tensor op ({_op_name(target)}) is not supported",
            )
        meta = {"val": fake_result, "user_location": tx.location_text()}
        result = self.graph.create_node(op, target, node_args, node_kwargs, meta=meta)
        if mutates:
            self.mutating_nodes.append(result)
            self._note_written_inputs(fake_result, [*args, *kwargs.values()])
            if not _contains_tensor(self.world, fake_result):  # `x[i] = v` returns None
                return wrap_constant_result(fake_result)
        return self._wrap_result(result, fake_result)

    def _run_fake(
        self,
        tx: TranslatorBase,
        target: Any,
        fake_fn: Callable[..., Any],
        fake_args: tuple[Any, ...],
        fake_kwargs: dict[str, Any],
    ) -> Any:
        """`fake_fn` run on fake values where no mode sees it (the world's `run_fake`). Its
        errors are the user's, except a need for tensor data, which breaks the graph."""
        blocks = [(b.kind, b.args) for b in self.state_blocks] if self.state_blocks else ()
        try:
            return self.world.run_fake(fake_fn, fake_args, fake_kwargs, blocks)
        except worlds.NeedsData as e:
            unimplemented("data-dependent-op", f"{_op_name(target)} needs tensor data: {e}")
        except Unsupported:
            raise
        except Exception as e:  # noqa: BLE001
            tx.raise_user_error(e)

    def _note_written_inputs(self, fake_result: Any, operands: list[VariableTracker]) -> None:
        """An in-place op returns the tensor it wrote (`x.add_(1)` is `x`, `out=` the out
        tensor): the input whose fake that is was written."""
        written = fake_result if isinstance(fake_result, tuple | list) else (fake_result,)
        for vt in operands:
            vt = vt.realize()
            if not isinstance(vt, TensorVariable) or vt.source is None:
                continue  # not an input
            if any(vt.fake is fake for fake in written):
                self.written_inputs[id(vt)] = vt

    def install_tensor_aliasing_guards(self) -> None:
        """A tensor input an in-place op wrote must not be another tensor input on later
        calls: the trace read the other's metadata from its own fake, which the op did not
        change (`a.unsqueeze_(0)` then `b.shape`, called with `a is b`)."""
        for written in self.written_inputs.values():
            assert written.source is not None
            others = tuple(
                vt.source
                for vt in self.tensor_inputs.values()
                if vt is not written and vt.source is not None
            )
            if others:
                self.add_guard(GuardKind.NO_ALIASING, written.source, others)

    def _wrap_result(self, node: Node, fake: Any) -> VariableTracker:
        if self.world.is_tensor(fake):
            if self.world.read_attr(fake, "requires_grad"):
                self.depends_on_grad_mode()
            return TensorVariable(node, fake)
        named = isinstance(fake, tuple) and type(fake) is not tuple
        if named and not is_struct_sequence(type(fake)):
            unimplemented(
                "op-result",
                f"op result of type {type(fake).__qualname__}: a named tuple other than "
                "torch's struct sequences (torch.return_types.max, from `max(x, dim)`) is not "
                "traced yet",
            )
        if isinstance(fake, tuple | list):
            items: list[VariableTracker] = []
            for i, item in enumerate(fake):
                if item is None:  # a result left out (`need_weights=False`'s attention weights)
                    items.append(ConstantVariable(None))
                    continue
                getter = self.graph.call_function(operator.getitem, (node, i))
                getter.meta["val"] = item
                items.append(self._wrap_result(getter, item))
            return StructSequenceVariable(items, type(fake)) if named else TupleVariable(items)
        unimplemented("op-result", f"op result of type {type(fake).__name__}")


_TOTAL_IN_A_SCALAR = frozenset(
    {"add", "sub", "mul", "div", "__rsub__", "__rdiv__", "lt", "le", "gt", "ge", "eq", "ne"}
)
"""Tensor operators whose result's shape and dtype do not depend on the value of a scalar
operand, and that raise for none: a symbolic scalar stays symbolic in them (`x * n`)."""
_NON_WORD = re.compile(r"\W+")


def _placeholder_name(source_name: str) -> str:
    """`L['x']` -> `x`, `L['ws'][0]` -> `ws_0`: the source's name as an identifier."""
    if source_name.startswith("L['") and source_name.endswith("']"):
        # a plain local (most graph inputs): nothing for the regex to replace
        inner = source_name[3:-2]
        if inner.isascii() and inner.isidentifier():
            return inner.strip("_") or "input"
    name = _NON_WORD.sub("_", source_name.replace("L[", "").replace("G[", "")).strip("_")
    return name or "input"


def _repeats_sequence(args: list[VariableTracker]) -> bool:
    """`[1] * t` or `t * "ab"`: CPython repeats the sequence `operator.index(t)` times."""
    sequences = (list, tuple, str, bytes, bytearray)
    kinds = [a.realize().python_type() for a in args]
    return len(args) == 2 and any(issubclass(k, sequences) for k in kinds)


def _op_name(target: Any) -> str:
    info = getattr(target, "__modetrace_op__", None)
    if info is not None:
        return f"torch.{info.name}"
    return (
        f"Tensor.{target}" if isinstance(target, str) else getattr(target, "__name__", str(target))
    )


def _contains_tensor(world: worlds.TensorWorld, value: Any) -> bool:
    if world.is_tensor(value):
        return True
    if isinstance(value, tuple | list):
        return any(_contains_tensor(world, v) for v in value)
    return False
