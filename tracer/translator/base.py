"""TranslatorBase: the symbolic interpreter's state and its step loop.

Opcode handlers live in mixins named after opcode families (stack_ops, names, operators,
builders, control_flow, calls, exception_ops); `__init_subclass__` turns them into a dispatch
table indexed by opcode, asserting that every SCREAMING_CASE method is a real opcode of a
supported CPython (tracer/bytecode_versions.py). `run()` runs the step loop (`steps`) until
RETURN_VALUE; it is the one place where a graph break (`Unsupported`) gets the user's file:line
attached.
"""

from __future__ import annotations

import dis
import functools
import logging
import math
import sys
import types
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from guards.guard import state_part_guard
from tracer import config
from tracer.bytecode_versions import (
    KNOWN_OPNAMES,
    STACK_EFFECT_ADJUST,
    is_implicit_handler,
)
from tracer.exc import (
    BreakReason,
    InternalError,
    LocationsByLine,
    LocationTextsByLine,
    Unsupported,
    UserLocation,
    unimplemented,
)
from tracer.translator.inlining import inline_call
from tracer.translator.instructions import (
    ExceptionTableEntry,
    Instruction,
    exception_table,
    instructions_of,
)
from tracer.translator.trace_warnings import break_on_warning
from variables.base import NotConstantError, VariableTracker
from variables.constant import ConstantVariable
from variables.misc import OUTER_EXCEPTION, ExceptionVariable

if TYPE_CHECKING:
    from tracer.output_graph import OutputGraph
    from variables.functions import BaseUserFunctionVariable
    from variables.misc import CellVariable

Handler = Callable[["TranslatorBase", Instruction], None]
bytecode_log = logging.getLogger("modetrace.trace_bytecode")

EXPLICITLY_UNSUPPORTED: dict[str, str] = {
    "ASYNC_GEN_WRAP": "async generators",
    "BEFORE_ASYNC_WITH": "async with",
    "GET_AITER": "async for",
    "GET_ANEXT": "async for",
    "END_ASYNC_FOR": "async for",
    "GET_AWAITABLE": "await",
    "IMPORT_STAR": "import statements",
    "PRINT_EXPR": "interactive-mode expressions",
    "CHECK_EG_MATCH": "except* (exception groups)",
    "PREP_RERAISE_STAR": "except* (exception groups)",
    "DELETE_DEREF": "closure-variable deletion",
    # 3.12 and later
    "LOAD_FROM_DICT_OR_GLOBALS": "class bodies with type parameters",
    "CLEANUP_THROW": "throw() into a `yield from` on 3.12 and later",
}
"""Every opcode (of any supported version) without a handler, with the construct it belongs to
(checked by a test against each version's dis.opmap and notes/unsupported.md)."""

CodeFacts = tuple[tuple[Instruction, ...], LocationsByLine, LocationTextsByLine]
"""A code object's decoded instructions and its user locations (and their text) by line."""


class TraceCaches:
    """What the translators of one trace work out once and share: for each code object its
    decoded instructions (`instructions_of`, itself kept per code object across traces) and
    its user locations by line, which `TranslatorBase.location` reads for every guard and
    recorded op. The root frame's translator creates it; inlined frames share their caller's.
    """

    def __init__(self) -> None:
        self._code_facts: dict[types.CodeType, CodeFacts] = {}

    def code_facts(self, code: types.CodeType) -> CodeFacts:
        facts = self._code_facts.get(code)
        if facts is None:
            facts = (instructions_of(code), LocationsByLine(code), LocationTextsByLine(code))
            self._code_facts[code] = facts
        return facts


class ExceptionState:
    """What `sys.exc_info()` would say while tracing: the exception the traced frames are
    handling (PUSH_EXC_INFO sets it, POP_EXCEPT restores it), or OUTER_EXCEPTION."""

    def __init__(self) -> None:
        self.handled: VariableTracker = OUTER_EXCEPTION


class TranslatorBase:
    """Symbolic state of one frame: stack, locals, cells; shared OutputGraph with parents."""

    dispatch_table: ClassVar[list[Handler]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in dir(cls):
            typo = name.isupper() and name not in KNOWN_OPNAMES and not name.startswith("_")
            if typo and callable(getattr(cls, name)):
                raise InternalError(f"{cls.__name__}.{name} is not a CPython opcode")
        table: list[Handler] = []
        for opcode in range(len(dis.opname)):  # pseudo-instructions included (3.12 and later)
            name = dis.opname[opcode]
            handler = getattr(cls, name, None) if name in dis.opmap else None
            table.append(handler if handler is not None else _missing_opcode)
        cls.dispatch_table = table

    def __init__(
        self,
        code: types.CodeType,
        f_globals: dict[str, Any],
        symbolic_locals: dict[str, VariableTracker],
        closure: Sequence[CellVariable],
        output: OutputGraph,
        parent: TranslatorBase | None = None,
        globals_owner: BaseUserFunctionVariable | None = None,
    ) -> None:
        self.code = code
        self.f_globals = f_globals
        self.caches: TraceCaches = parent.caches if parent is not None else TraceCaches()
        """Shared by every frame of the trace."""
        self.instructions, self._locations, self._location_texts = self.caches.code_facts(code)
        self.symbolic_locals = symbolic_locals
        """Taken over, not copied: every caller builds the dict for this frame alone (the bound
        arguments of an inlined call, the wrapped locals of the compiled frame)."""
        self.closure = closure
        self.cells: dict[str, CellVariable] = {}
        self.stack: list[VariableTracker] = []
        """The symbolic value stack, top last. It is never replaced, only changed in place, so
        `push` and `pop` are its own `append` and `pop`."""
        self.push = self.stack.append
        self.pop = self.stack.pop
        self.output = output
        self.parent = parent
        self.globals_owner = globals_owner
        self.ip = 0
        """The index of the next instruction to step; a jump handler sets it to the target."""
        self.returned = False
        """Set by RETURN_VALUE: the frame is done, and `return_value` is its result."""
        self.suspended = False
        """Set by YIELD_VALUE in a generator's frame (generators.py): the frame is paused."""
        self.debug_checks = config.current().debug_checks
        """Check each handler's stack effect against `dis.stack_effect` (see `steps`)."""
        self.log_steps = bytecode_log.isEnabledFor(logging.DEBUG)
        """Log each step at trace_bytecode."""
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.exception_entries: list[ExceptionTableEntry] | None = None
        self.kw_names: tuple[str, ...] = ()
        self.current_inst: Instruction | None = None
        self.return_value: VariableTracker | None = None
        self.exc_state: ExceptionState = (
            parent.exc_state if parent is not None else ExceptionState()
        )
        """The exception being handled (CPython's per-thread exc_info), shared by all frames."""

    # -- stack (push and pop: see `stack`) -----------------------------------------------------
    def popn(self, n: int) -> list[VariableTracker]:
        if n == 0:
            return []
        items = self.stack[-n:]
        del self.stack[-n:]
        return items

    def peek(self, depth: int = 1) -> VariableTracker:
        return self.stack[-depth]

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> VariableTracker:
        """Execute the frame symbolically, one instruction at a time, until RETURN_VALUE.

        This is the one place where a graph break (`Unsupported`) gets the user's file:line
        attached: the innermost frame that sees it attaches its current instruction's location.
        """
        self.run_until(None)
        assert self.return_value is not None
        return self.return_value

    def run_until(self, stop: int | None) -> None:
        """Step until RETURN_VALUE or until the next instruction is at index `stop` (where a
        graph break resumes: the state before the breaking instruction is the live state). A
        user exception that a `try` or `with` of this frame covers continues at its handler."""
        self.output.current_tx = self
        while True:
            try:
                self.steps(stop)
                return
            except Unsupported as e:
                if not self.handle_exception(e):
                    raise self._located(e) from None
            except NotConstantError as e:
                # A model met a traced value where it needs a Python value (a list indexed by
                # a tensor, say): a limit of the model, so the frame runs as plain Python.
                try:
                    unimplemented(
                        "not-constant",
                        f"{e.vt!r} is used where its value is needed while tracing",
                    )
                except Unsupported as limit:
                    raise self._located(limit) from None

    def _located(self, e: Unsupported) -> Unsupported:
        """`e` with this frame's file:line, unless an inlined frame attached its own first. In
        the compiled frame (no parent) it also records where a resume may start: the breaking
        instruction, or, for a break inside a function it inlined (the location is the
        callee's), the CALL that inlined it, as Dynamo makes that call the break."""
        if self.parent is None and self.current_inst and e.break_index is None:
            e.break_index = self.current_inst.index
            e.in_callee = e.reason.location is not None
        return e.with_location(self.location(), repr(self.current_inst))

    def steps(self, stop: int | None) -> None:
        """The step loop, until RETURN_VALUE sets `self.returned`, a generator frame's
        YIELD_VALUE sets `self.suspended`, or the next instruction is at index `stop`. Each
        step fetches the instruction at `self.ip`, counts it against the trace's instruction
        budget and runs its handler; a jump handler sets `self.ip` to its target. What the
        loop reads on every step and no handler changes is read once, before it. A step that
        emitted a warning breaks there (trace_warnings.py)."""
        instructions = self.instructions
        dispatch_table = self.dispatch_table
        output = self.output
        warned = output.trace_warnings
        log_steps = self.log_steps
        debug_checks = self.debug_checks
        while not (self.returned or self.suspended) and self.ip != stop:
            inst = instructions[self.ip]
            self.current_inst = inst
            self.ip += 1
            output.instruction_count += 1  # one count for every frame of the trace
            if output.instruction_count > output.budget:
                output.over_budget()
            if log_steps:
                bytecode_log.debug("%s%r  stack=%r", "  " * self.depth, inst, self.stack)
            if debug_checks:
                depth_before = len(self.stack)
            dispatch_table[inst.opcode](self, inst)
            if warned:
                break_on_warning(warned)
            if debug_checks:
                self.check_stack_effect(inst, len(self.stack) - depth_before)

    def jump_to(self, target: int | None) -> None:
        """Continue at instruction index `target` (a jump's `inst.target`)."""
        assert target is not None
        self.ip = target

    def check_stack_effect(self, inst: Instruction, actual: int) -> None:
        """The handler changed the stack by `actual`: CPython's compiler must agree."""
        jumped = self.ip != inst.index + 1
        adjust = STACK_EFFECT_ADJUST.get(inst.opname)
        if adjust is not None:
            expected = adjust(inst.arg)
        elif inst.opcode < dis.HAVE_ARGUMENT:
            expected = dis.stack_effect(inst.opcode, jump=jumped)
        else:
            expected = dis.stack_effect(inst.opcode, inst.arg, jump=jumped)
        if actual != expected:
            raise InternalError(
                f"{inst.opname} at offset {inst.offset} changed the stack by {actual}, "
                f"CPython says {expected}"
            )

    # -- locations and user errors ------------------------------------------------------------
    def location(self) -> UserLocation:
        """Where the current instruction is (the code's first line before any step)."""
        lineno = self.current_inst.lineno if self.current_inst is not None else None
        return self._locations[lineno]

    def location_text(self) -> str:
        """`str(self.location())`, which every recorded op stores in its node's meta."""
        lineno = self.current_inst.lineno if self.current_inst is not None else None
        return self._location_texts[lineno]

    def user_stack(self) -> list[UserLocation]:
        frames: list[UserLocation] = []
        tx: TranslatorBase | None = self
        while tx is not None:
            frames.append(tx.location())
            tx = tx.parent
        return frames[::-1]

    def raise_user_error(self, error: BaseException) -> NoReturn:
        """The traced code raises `error` here (a modeled operation's error, CPython's own type
        and message). A `try` or `with` of a traced frame may catch it (`handle_exception`);
        if none does, the compiled code raises it (after replaying the side effects made so
        far), or the frame falls back and eager Python raises it."""
        vt = ExceptionVariable.of(error)
        if vt is None:
            # not rebuildable: no traced handler may see it (see handle_exception)
            name = type(error).__name__
            detail = f": {error}" if str(error) else ""
            unsupported = Unsupported(
                _reason("user-exception", f"{name}{detail} raised in traced code"), error
            )
            unsupported.compilable_raise = self.exc_state.handled is OUTER_EXCEPTION
            raise unsupported
        self.raise_exception(vt)

    def raise_exception(self, vt: ExceptionVariable, reraise: bool = False) -> NoReturn:
        """Raise the traced exception `vt` here: `raise`, a modeled operation's error, or (with
        `reraise`) RERAISE and a bare `raise`, which leave its `__context__` alone. As CPython
        does, a new raise chains the exception being handled as `__context__`, cutting a cycle
        if `vt` is already in that chain."""
        if not reraise:
            handled = self.exc_state.handled
            if handled is not vt:
                link: VariableTracker | None = handled
                while isinstance(link, ExceptionVariable):
                    if link.context is vt:
                        link.context = None
                        break
                    link = link.context
                vt.context = handled
            vt.raised = True
        error = vt.create()
        detail = f": {error}" if str(error) else ""
        unsupported = Unsupported(
            _reason("user-exception", f"{vt.cls.__name__}{detail} raised in traced code"), error
        )
        unsupported.exception_vt = vt
        unsupported.compilable_raise = True  # whether it can is decided where it leaves
        raise unsupported

    def handle_exception(self, e: Unsupported) -> bool:
        """A user exception reached this frame's current instruction: when an exception-table
        entry covers it, unwind as CPython does (cut the stack to the entry's depth, push the
        offset if the entry says lasti, push the exception) and continue at the handler."""
        inst = self.current_inst
        if e.user_exception is None or inst is None:
            return False
        if self.exception_entries is None:
            self.exception_entries = exception_table(self.code)
        offset = inst.offset
        entry = next((x for x in self.exception_entries if x.start <= offset < x.end), None)
        if entry is None:
            return False
        vt = e.exception_vt
        if not isinstance(vt, ExceptionVariable):
            unimplemented(
                "user-exception",
                f"{type(e.user_exception).__name__} raised where a `try` or `with` handles it, "
                "and it cannot be rebuilt from its arguments",
            )
        del self.stack[entry.depth :]
        if entry.lasti:
            self.push(ConstantVariable(offset))
        self.push(vt)
        self.kw_names = ()
        self.jump_to(self._index_of_offset(entry.target))
        return True

    def _index_of_offset(self, offset: int) -> int:
        for inst in self.instructions:
            if inst.offset == offset:
                return inst.index
        raise InternalError(f"no instruction at offset {offset} in {self.code.co_name}")

    def run_user_operation(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a real, pure operation on constants; its exception is the user's exception.
        An operation on an int of 640 digits or more, or on a text that long, may convert
        between the two (`str(n)`, `f"{n}"`, `int(s)`), which CPython limits to
        `sys.get_int_max_str_digits()` digits (a ValueError past it): the limit it ran under
        is guarded, so `sys.set_int_max_str_digits(...)` later misses."""
        if _may_convert_long_digits(args) or _may_convert_long_digits(kwargs.values()):
            limit = sys.get_int_max_str_digits()
            part = state_part_guard("int_max_str_digits", limit, sys.get_int_max_str_digits)
            self.output.add_guard(part.kind, part.source, part.expected)
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            self.raise_user_error(e)

    def in_try_block(self) -> bool:
        """Is the current instruction (or a caller's) covered by a user `try`, not a `with`?"""
        tx: TranslatorBase | None = self
        while tx is not None:
            if tx.current_inst is not None and tx.current_inst.offset in tx.try_offsets:
                return True
            tx = tx.parent
        return False

    def in_handled_region(self) -> bool:
        """Is the current instruction (or a caller's) covered by any exception-table entry
        (a `try`, a `with`, an `except` body's cleanup)? A raise there is handled in the frame."""
        tx: TranslatorBase | None = self
        while tx is not None:
            if tx.exception_entries is None:
                tx.exception_entries = exception_table(tx.code)
            inst = tx.current_inst
            if inst is not None and any(
                e.start <= inst.offset < e.end for e in tx.exception_entries
            ):
                return True
            tx = tx.parent
        return False

    @functools.cached_property
    def try_offsets(self) -> frozenset[int]:
        """The offsets that the exception-table entries of a `try` (not of a `with` cleanup,
        nor of an implicit handler) cover, worked out once per translator."""
        if self.exception_entries is None:
            self.exception_entries = exception_table(self.code)
        entries = self.exception_entries
        by_offset = {inst.offset: inst for inst in self.instructions} if entries else {}
        return frozenset(
            offset
            for entry in entries
            if not self._is_with_cleanup(by_offset.get(entry.target))
            and not self.is_implicit_handler(by_offset.get(entry.target))
            for offset in range(entry.start, entry.end)
        )

    def is_implicit_handler(self, handler: Instruction | None) -> bool:
        """Is the handler starting at `handler` one the compiler adds with no `try` in the
        source (3.12 and later: an inlined comprehension's, a generator's)?"""
        if handler is None:
            return False
        names: list[tuple[str, int | None]] = []
        for inst in self.instructions[handler.index :]:
            names.append((inst.opname, inst.arg))
            if inst.opname == "RERAISE":
                break
        return is_implicit_handler(names)

    def _is_with_cleanup(self, handler: Instruction | None) -> bool:
        """Does the handler starting at `handler` run a `with` statement's `__exit__`?"""
        if handler is None:
            return False
        following = self.instructions[handler.index : handler.index + 2]
        names = [inst.opname for inst in following]
        return names == ["PUSH_EXC_INFO", "WITH_EXCEPT_START"]

    # -- calls --------------------------------------------------------------------------------
    def inline_user_function(
        self,
        fn: BaseUserFunctionVariable,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return inline_call(self, fn, args, kwargs)


def _reason(kind: str, explanation: str) -> Any:
    return BreakReason(kind, explanation)


def _missing_opcode(tx: TranslatorBase, inst: Instruction) -> None:
    construct = EXPLICITLY_UNSUPPORTED.get(inst.opname)
    if construct is None:
        raise InternalError(f"opcode {inst.opname} has neither a handler nor an unsupported entry")
    unimplemented("unsupported-opcode", f"{construct} ({inst.opname}) are not supported")


_LONG_DIGITS = sys.int_info.str_digits_check_threshold
"""CPython checks the digit limit on conversions of this many digits or more (640): below it, no
limit (the smallest one allowed is this) applies."""
_LONG_DIGITS_BITS = math.floor(_LONG_DIGITS * math.log2(10))
"""An int with fewer bits has fewer than `_LONG_DIGITS` decimal digits."""


def _may_convert_long_digits(values: Iterable[Any]) -> bool:
    """Is one of `values` an int, or a text, long enough for the int digit limit to apply?"""
    for value in values:
        kind = type(value)
        if kind is int and value.bit_length() >= _LONG_DIGITS_BITS:
            return True
        if (kind is str or kind is bytes or kind is bytearray) and len(value) >= _LONG_DIGITS:
            return True
    return False
