"""Generator frames: the opcodes of a generator's body and the translator that runs one lazily.

In CPython 3.11 a generator's code starts with RETURN_GENERATOR: the call runs the frame up to
there (making cells, copying free variables) and returns the generator object. Each later `next`
or `send(v)` pushes the sent value (None for `next`) and continues; YIELD_VALUE hands TOS to the
consumer and suspends, and the sent value is pushed again on the next resume (the `POP_TOP`
after a bare `yield` drops it). `yield from it` is GET_YIELD_FROM_ITER, then a SEND/YIELD_VALUE
loop: SEND passes the sent value to the inner iterator and either pushes what it yields (to be
yielded on) or, once it is exhausted, replaces it with its return value and jumps past the loop.
3.11 gives a generator no implicit exception-table entries (3.12 adds a StopIteration handler).

`InliningGeneratorTranslator` is the translator of one generator's frame: `start` runs it to
RETURN_GENERATOR when the generator is made, `resume` to its next suspension on each `next`,
with the consumer's translator as its parent for that run (for locations, handlers and depth).
The tracker the consumer sees is variables/generators.py's LocalGeneratorObjectVariable.
"""

from __future__ import annotations

from typing import Any

from tracer.bytecode_versions import SEND_LEAVES_RECEIVER
from tracer.exc import Unsupported, unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction, exception_table
from variables.base import VariableTracker
from variables.constant import ConstantVariable
from variables.generators import LocalGeneratorObjectVariable
from variables.iterators import IteratorVariable, UserIteratorVariable, iterate


class GeneratorOps(TranslatorBase):
    """The generator opcodes. Outside a generator frame (the compiled function is itself a
    generator function) they are a graph break."""

    def RETURN_GENERATOR(self, inst: Instruction) -> None:
        generator_frame(self).suspend(None)

    def YIELD_VALUE(self, inst: Instruction) -> None:
        """TOS goes to the consumer; it stays on the stack until the resume replaces it with
        the sent value (so the stack effect is CPython's 0)."""
        generator_frame(self).suspend(self.peek())

    def GET_YIELD_FROM_ITER(self, inst: Instruction) -> None:
        """A generator stays itself; anything else becomes `iter(TOS)`."""
        self.push(iterate(self, self.pop()))

    def SEND(self, inst: Instruction) -> None:
        """SEND(delta): TOS1 is the inner iterator, TOS the value to send into it."""
        sent = self.pop()
        receiver = self.peek()
        assert isinstance(receiver, IteratorVariable)
        result: VariableTracker = ConstantVariable(None)
        if isinstance(receiver, LocalGeneratorObjectVariable):
            item = receiver.send_value(self, sent)
            if item is None and receiver.stop_value is not None:
                result = receiver.stop_value
        else:
            if isinstance(receiver, UserIteratorVariable):
                # CPython hands its throw() and close() on, and takes the value of the
                # StopIteration its __next__ raises: not modeled
                unimplemented("generator", f"`yield from` the user iterator {receiver!r}")
            value = sent.realize()
            if not (value.is_python_constant() and value.as_python_constant() is None):
                unimplemented(
                    "generator", f"send() of a value through `yield from` into {receiver!r}"
                )
            item = receiver.next_item(self)
        generator_frame(self).delegate = receiver if item is not None else None
        if item is not None:
            self.push(item)
        else:
            if not SEND_LEAVES_RECEIVER:  # 3.12 and later: END_SEND pops it
                self.pop()
            self.push(result)
            self.jump_to(inst.target)


def generator_frame(tx: TranslatorBase) -> InliningGeneratorTranslator:
    if not isinstance(tx, InliningGeneratorTranslator):
        unimplemented("generator", f"compiling the generator function {tx.code.co_name} itself")
    return tx


class InliningGeneratorTranslator(TranslatorBase):
    """The frame of a generator made inside the trace, run one `next` at a time (mixed into
    tracer.translator.InliningGeneratorInstructionTranslator with the opcode families)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        owner = self.globals_owner
        self.name = owner.get_name() if owner is not None else self.code.co_name
        self.finished = False
        self.running = False
        self.started = False
        self.delegate: VariableTracker | None = None
        self.yielded: VariableTracker | None = None
        """The value of the YIELD_VALUE this frame is suspended at (None at RETURN_GENERATOR)."""

    def suspend(self, yielded: VariableTracker | None) -> None:
        self.suspended = True
        self.yielded = yielded

    def start(self) -> LocalGeneratorObjectVariable:
        """Run the frame to RETURN_GENERATOR (what calling a generator function runs) and
        return the generator. A `yield` inside a `try` or `with` is refused here: its cleanup
        would run whenever CPython finalizes the generator, which the trace can't place."""
        for inst in self.instructions:
            if inst.opname == "YIELD_VALUE" and self._handled_in_source(inst.offset):
                unimplemented(
                    "generator", f"the generator {self.name} yields inside a try or with block"
                )
        maker = self.parent
        assert maker is not None
        made_at = (maker.location(), repr(maker.current_inst))
        self._run_to_suspension()
        return LocalGeneratorObjectVariable(self, made_at)

    def _handled_in_source(self, offset: int) -> bool:
        """Does an exception raised at `offset` reach a handler the source wrote (a `try`,
        `except` or `with` block's)? The table gives each offset its innermost handler only.
        An implicit handler (see TranslatorBase.is_implicit_handler) re-raises what it does
        not absorb from its last instruction, where the table names the next handler out:
        3.12's `yield from` has its YIELD_VALUE covered by CLEANUP_THROW's entry alone, and the
        `try` around the `yield from` covers that CLEANUP_THROW, not the YIELD_VALUE."""
        by_offset = {inst.offset: inst for inst in self.instructions}
        entries = exception_table(self.code)
        seen: set[int] = set()
        while offset not in seen:
            seen.add(offset)
            entry = next((e for e in entries if e.start <= offset < e.end), None)
            if entry is None:
                return False
            handler = by_offset.get(entry.target)
            if not self.is_implicit_handler(handler):
                return True
            assert handler is not None
            offset = self._implicit_handler_exit(handler).offset
        return False

    def _implicit_handler_exit(self, handler: Instruction) -> Instruction:
        """The instruction an implicit handler re-raises from: CLEANUP_THROW itself, or the
        handler's RERAISE."""
        if handler.opname == "CLEANUP_THROW":
            return handler
        for inst in self.instructions[handler.index :]:
            if inst.opname == "RERAISE":
                return inst
        raise AssertionError(f"no RERAISE after the handler at {handler.offset}")

    def resume(self, tx: TranslatorBase, sent: VariableTracker) -> VariableTracker | None:
        """Continue with `sent` as the value of the suspended `yield`, consumed from `tx`: the
        next yielded value, or None when the frame returns (`return_value` holds its result).
        """
        self.parent = tx
        self.depth = tx.depth + 1
        if self.yielded is not None:
            self.pop()  # the yielded value, replaced by the sent one
        self.push(sent)
        self.started = self.running = True
        self.suspended = False
        self.yielded = None
        try:
            self._run_to_suspension()
        except Unsupported:
            self.finished = True
            raise
        finally:
            self.running = False
            self.output.current_tx = tx
        if self.returned:
            self.finished = True
            return None
        return self.yielded

    def _run_to_suspension(self) -> None:
        """Step to the next suspension or return. A StopIteration escaping the body is
        CPython's RuntimeError (PEP 479): not modeled, the frame falls back."""
        self.output.current_tx = self
        try:
            try:
                self.steps(None)
            except Unsupported as e:
                if isinstance(e.user_exception, StopIteration):
                    unimplemented(
                        "generator",
                        f"StopIteration raised inside the generator {self.name} "
                        "(CPython turns it into a RuntimeError)",
                    )
                raise
        except Unsupported as e:
            raise e.with_location(self.location(), repr(self.current_inst)) from None
