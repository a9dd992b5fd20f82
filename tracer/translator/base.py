"""TranslatorBase: the symbolic interpreter's state and its step loop.

Opcode handlers live in mixins named after opcode families (stack_ops, names, operators,
builders, control_flow, calls, exception_ops); `__init_subclass__` turns them into a 256-entry
dispatch table, asserting that every SCREAMING_CASE method is a real 3.11 opcode. The step loop in
`run()` is the one place where a graph break (`Unsupported`) gets the user's file:line attached.
"""

from __future__ import annotations

import dis
import itertools
import logging
import types
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Protocol

from tracer import config
from tracer.exc import BreakReason, InternalError, Unsupported, UserLocation, unimplemented
from tracer.instructions import ExceptionTableEntry, Instruction, exception_table
from tracer.translator.inlining import inline_call
from variables.base import VariableTracker

if TYPE_CHECKING:
    from tracer.output_graph import OutputGraph
    from variables.functions import BaseUserFunctionVariable
    from variables.misc import CellVariable

Handler = Callable[["TranslatorBase", Instruction], None]
bytecode_log = logging.getLogger("modetrace.trace_bytecode")

EXPLICITLY_UNSUPPORTED: dict[str, str] = {
    "YIELD_VALUE": "generators",
    "RETURN_GENERATOR": "generators",
    "SEND": "generators",
    "GET_YIELD_FROM_ITER": "generators",
    "ASYNC_GEN_WRAP": "async generators",
    "BEFORE_ASYNC_WITH": "async with",
    "GET_AITER": "async for",
    "GET_ANEXT": "async for",
    "END_ASYNC_FOR": "async for",
    "GET_AWAITABLE": "await",
    "IMPORT_NAME": "import statements",
    "IMPORT_FROM": "import statements",
    "IMPORT_STAR": "import statements",
    "LOAD_BUILD_CLASS": "class definitions",
    "SETUP_ANNOTATIONS": "annotations at module or class level",
    "LOAD_NAME": "module- or class-level name lookup",
    "STORE_NAME": "module- or class-level name binding",
    "DELETE_NAME": "module- or class-level name deletion",
    "LOAD_CLASSDEREF": "class-body closures",
    "PRINT_EXPR": "interactive-mode expressions",
    "MATCH_CLASS": "match statements",
    "MATCH_KEYS": "match statements",
    "MATCH_MAPPING": "match statements",
    "MATCH_SEQUENCE": "match statements",
    "GET_LEN": "match statements",
    "CHECK_EG_MATCH": "except* (exception groups)",
    "PREP_RERAISE_STAR": "except* (exception groups)",
    "PUSH_EXC_INFO": "exception handlers",
    "POP_EXCEPT": "exception handlers",
    "CHECK_EXC_MATCH": "exception handlers",
    "RERAISE": "exception handlers",
    "WITH_EXCEPT_START": "exceptions inside a with block",
    "DELETE_GLOBAL": "global deletion",
    "DELETE_DEREF": "closure-variable deletion",
}
"""Every 3.11 opcode without a handler, with the construct it belongs to (checked by a test
against dis.opmap and notes/unsupported.md)."""

# PRECALL/CALL split the stack effect between them in 3.11; our CALL does all the work.
_EFFECT_ADJUST: dict[str, Callable[[int | None], int]] = {
    "PRECALL": lambda arg: 0,
    "CALL": lambda arg: (
        dis.stack_effect(dis.opmap["PRECALL"], arg) + dis.stack_effect(dis.opmap["CALL"], arg)
    ),
}


class Cursor(Protocol):
    """A list iterator over a frame's instructions, as the step loop uses it: `__setstate__`
    moves it to an index in O(1) (a jump), `__length_hint__` says how many are left."""

    def __iter__(self) -> Iterator[Instruction]: ...
    def __next__(self) -> Instruction: ...
    def __setstate__(self, index: int, /) -> None: ...
    def __length_hint__(self) -> int: ...


class TranslatorBase:
    """Symbolic state of one frame: stack, locals, cells; shared OutputGraph with parents."""

    dispatch_table: ClassVar[list[Handler]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in dir(cls):
            typo = name.isupper() and name not in dis.opmap and not name.startswith("_")
            if typo and callable(getattr(cls, name)):
                raise InternalError(f"{cls.__name__}.{name} is not a CPython 3.11 opcode")
        table: list[Handler] = []
        for opcode in range(256):
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
        self.instructions, self._locations, self._location_texts = output.code_facts(code)
        self.symbolic_locals = symbolic_locals
        """Taken over, not copied: every caller builds the dict for this frame alone (the bound
        arguments of an inlined call, the wrapped locals of the compiled frame)."""
        self.closure = closure
        self.cells: dict[str, CellVariable] = {}
        self.stack: list[VariableTracker] = []
        self.output = output
        self.parent = parent
        self.globals_owner = globals_owner
        self.cursor: Cursor = iter(self.instructions)  # type: ignore[assignment]
        """The next instruction to step; a jump handler repositions it with
        `self.cursor.__setstate__(inst.target)`."""
        self.tickets: itertools.repeat[bool]
        """The steps left in the instruction budget, one True per step, shared by every frame
        of the trace (see `run`)."""
        self.checked: bool
        """Step with `_run_checked` (trace_bytecode logging or config.debug_checks, decided once
        per trace: neither changes while a trace runs)."""
        if parent is None:
            self.tickets = itertools.repeat(True, output.budget)
            self.checked = config.current().debug_checks or bytecode_log.isEnabledFor(logging.DEBUG)
            self.depth = 0
            never_in_try: bool = False  # not known until asked (in_try_block)
        else:  # what is fixed for the whole trace comes from the caller
            self.tickets = parent.tickets
            self.checked = parent.checked
            self.depth = parent.depth + 1
            # a caller known never to be in a `try` calling code with no `try` or `with` at all
            # (most helpers): known at once, without in_try_block's first-time work
            never_in_try = parent._never_in_try and not code.co_exceptiontable
        # every attribute is set here, in one order, so that all translators share one key
        # layout (attribute reads in the handlers stay specialized)
        self.exception_entries: list[ExceptionTableEntry] | None = None
        self.kw_names: tuple[str, ...] = ()
        self.current_inst: Instruction | None = None
        self.return_value: VariableTracker | None = None
        self._try_entries: list[ExceptionTableEntry] | None = None
        self._callers_in_try: bool | None = None
        self._never_in_try: bool = never_in_try

    # -- stack --------------------------------------------------------------------------------
    def push(self, vt: VariableTracker) -> None:
        # (the most frequent handlers use self.stack.append / .pop directly)
        self.stack.append(vt)

    def pop(self) -> VariableTracker:
        return self.stack.pop()

    def popn(self, n: int) -> list[VariableTracker]:
        if n == 0:
            return []
        items = self.stack[-n:]
        del self.stack[-n:]
        return items

    def peek(self, depth: int = 1) -> VariableTracker:
        return self.stack[-depth]

    # -- the loop -----------------------------------------------------------------------------
    @property
    def ip(self) -> int:
        """The index of the next instruction to step."""
        return len(self.instructions) - self.cursor.__length_hint__()

    def run(self) -> VariableTracker:
        """Execute the frame symbolically, one instruction at a time, until RETURN_VALUE.

        This loop is the hottest code of a trace, so a step does as little as it can: the next
        instruction comes from `self.cursor`, an iterator over the instructions that jumps
        reposition, filtered by `self.tickets`, the budget's remaining steps shared by every
        frame of the trace: `compress` takes the next instruction, then a ticket (as `zip`
        would, but with no pair to unpack), so the fetch and the budget count are one C-level
        `next` each. The loop ends when either runs out: RETURN_VALUE sets `return_value` and
        moves the cursor past the end; otherwise the budget is spent (or the frame fell off its
        end).
        OutputGraph.current_tx is set when a frame starts and when a call it made returns
        (inline_call), not at each step; the trace's instruction count is worked out from the
        tickets left when the trace stops. Stepping with trace_bytecode logging or
        config.debug_checks on (`self.checked`) is the same loop with more to do at each step:
        `_run_checked`.
        """
        if self.checked:
            return self._run_checked()
        dispatch_table = self.dispatch_table
        self.output.current_tx = self
        try:
            for inst in itertools.compress(self.cursor, self.tickets):
                self.current_inst = inst
                dispatch_table[inst.opcode](self, inst)
            if self.return_value is None:
                self._stopped_early()
        except Unsupported as e:
            self._count_steps()
            raise e.with_location(self.location(), repr(self.current_inst)) from None
        if self.parent is None:
            self._count_steps()
        return self.return_value

    def _run_checked(self) -> VariableTracker:
        """`run` with each step logged at trace_bytecode and/or its stack effect checked."""
        log_steps = bytecode_log.isEnabledFor(logging.DEBUG)
        check_effects = config.current().debug_checks
        dispatch_table = self.dispatch_table
        self.output.current_tx = self
        for inst in itertools.compress(self.cursor, self.tickets):
            self.current_inst = inst
            if log_steps:
                bytecode_log.debug("%s%r  stack=%r", "  " * self.depth, inst, self.stack)
            depth_before = len(self.stack)
            try:
                dispatch_table[inst.opcode](self, inst)
            except Unsupported as e:
                self._count_steps()
                raise e.with_location(self.location(), repr(inst)) from None
            if check_effects:
                self._check_stack_effect(inst, len(self.stack) - depth_before)
        if self.return_value is None:
            try:
                self._stopped_early()
            except Unsupported as e:
                self._count_steps()
                raise e.with_location(self.location(), repr(self.current_inst)) from None
        if self.parent is None:
            self._count_steps()
        return self.return_value

    def _stopped_early(self) -> NoReturn:
        """The step loop ran out of tickets before RETURN_VALUE (the step it had fetched would
        pass the instruction budget) or of instructions (the frame fell off its end, which
        CPython's compiler never emits)."""
        if self.tickets.__length_hint__():
            raise InternalError(f"{self.code.co_name} ran past its last instruction")
        self.current_inst = self.instructions[self.ip - 1]
        self.output.instruction_count = self.output.budget + 1  # this step is over budget
        self.output.over_budget()

    def _count_steps(self) -> None:
        """The trace's instruction count, from the tickets left: set where a trace can stop
        (the compiled frame returns, or a graph break leaves a frame)."""
        output = self.output
        if output.instruction_count <= output.budget:
            left = self.tickets.__length_hint__()
            output.instruction_count = output.budget - left

    def _check_stack_effect(self, inst: Instruction, actual: int) -> None:
        jumped = self.ip != inst.index + 1
        adjust = _EFFECT_ADJUST.get(inst.opname)
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
        """Where the current instruction is. Every guard asks (OutputGraph.add_guard), so each
        line's location (a linecache read) is built once per trace, in a dict the code's
        translators share (see OutputGraph.code_facts): asking is one lookup."""
        try:
            return self._locations[self.current_inst.lineno]  # type: ignore[union-attr]
        except AttributeError:
            if self.current_inst is not None:
                raise
            return self._locations[None]  # no step yet: the code's first line

    def location_text(self) -> str:
        """`str(self.location())`, which every recorded op stores in its node's meta: built once
        per line, and without the source line `location()` reads (the same lookup)."""
        try:
            return self._location_texts[self.current_inst.lineno]  # type: ignore[union-attr]
        except AttributeError:
            if self.current_inst is not None:
                raise
            return self._location_texts[None]  # no step yet: the code's first line

    def user_stack(self) -> list[UserLocation]:
        frames: list[UserLocation] = []
        tx: TranslatorBase | None = self
        while tx is not None:
            frames.append(tx.location())
            tx = tx.parent
        return frames[::-1]

    def raise_user_error(self, error: BaseException) -> NoReturn:
        """The traced code raises `error` here. Where no `try` or `with` of any traced frame
        covers this point, the compiled code can raise it too (after replaying the side effects
        made so far); otherwise the frame falls back and eager Python raises it."""
        name = type(error).__name__
        detail = f": {error}" if str(error) else ""
        unsupported = Unsupported(
            _reason("user-exception", f"{name}{detail} raised in traced code"), error
        )
        unsupported.compilable_raise = not self.any_handler_active()
        raise unsupported

    def any_handler_active(self) -> bool:
        """Is any exception-table entry (a `try` or a `with`) active here or in a caller?"""
        tx: TranslatorBase | None = self
        while tx is not None:
            if tx.current_inst is not None:
                if tx.exception_entries is None:
                    tx.exception_entries = exception_table(tx.code)
                offset = tx.current_inst.offset
                if any(e.start <= offset < e.end for e in tx.exception_entries):
                    return True
            tx = tx.parent
        return False

    def run_user_operation(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a real, pure operation on constants; its exception is the user's exception."""
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            self.raise_user_error(e)

    def in_try_block(self) -> bool:
        """Is the current instruction (or a caller's) covered by a user `try`, not a `with`?

        Every recorded tensor op asks. A caller stays at its call while this frame runs, so
        the callers' answer is worked out once per translator; a frame with no `try` of its own
        under callers outside any `try` (almost all) then answers at once, from its first op
        when its code has no exception table and its caller already knew (`__init__`)."""
        if self._never_in_try:
            return False
        if self._covered_by_try():
            return True
        callers = self._callers_in_try
        if callers is None:
            callers = self._callers_in_try = self.parent is not None and self.parent.in_try_block()
        self._never_in_try = not callers and not self._try_entries
        return callers

    def _covered_by_try(self) -> bool:
        """The entries that belong to a `try` (not to a `with` cleanup) are picked out once per
        translator; most frames have none."""
        entries = self._try_entries
        if entries is None:
            if not self.code.co_exceptiontable:  # no `try` or `with` at all (most helpers)
                entries = self._try_entries = []
            else:
                if self.exception_entries is None:
                    self.exception_entries = exception_table(self.code)
                entries = self._try_entries = [
                    entry
                    for entry in self.exception_entries
                    if not self._is_with_cleanup(entry.target)
                ]
        if not entries or self.current_inst is None:
            return False
        offset = self.current_inst.offset
        for entry in entries:
            if entry.start <= offset < entry.end:
                return True
        return False

    def _is_with_cleanup(self, target_offset: int) -> bool:
        by_offset = {inst.offset: inst for inst in self.instructions}
        first = by_offset.get(target_offset)
        if first is None:
            return False
        following = self.instructions[first.index : first.index + 2]
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
