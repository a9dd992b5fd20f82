"""Generators created and consumed inside the traced frame.

Calling a generator function (or evaluating a generator expression) while tracing makes a
`LocalGeneratorObjectVariable`. It owns a translator for the generator's frame that runs lazily:
each `next` (or `send`) steps that translator until its next YIELD_VALUE or its RETURN_VALUE,
exactly where CPython would run the generator's code. So the generator's side effects interleave
with the consumer's in CPython's order: `g = gen(); a = next(g); xs.append(1); b = next(g)` runs
the body up to the first `yield`, then the append, then the body up to the second `yield`.

A generator tracker is one more kind of IteratorVariable, so every consumer (FOR_ITER, `next()`,
`list`, `sum`, `zip`, unpacking, `yield from`) pulls from it like any other iterator.

What this does not model falls back with a reason: a generator that escapes the frame (returned,
stored where the compiled code would have to rebuild it), `throw` of StopIteration or
GeneratorExit, and a generator
whose `yield` sits inside a `try` or `with` block (its cleanup would run when CPython finalizes
the generator, which the trace can't place).
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Protocol

from tracer.exc import Unsupported, UserLocation, unimplemented
from variables.base import NotConstantError, VariableTracker
from variables.constant import ConstantVariable
from variables.iterators import IteratorVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase


class GeneratorFrame(Protocol):
    """What a generator tracker needs from the translator of the generator's frame
    (tracer/translator/generators.py implements it)."""

    name: str
    finished: bool
    """The frame has returned (or raised): every later `next` finds it exhausted."""
    running: bool
    """The frame is between a resume and its next suspension."""
    started: bool
    """The frame has been resumed at least once."""
    delegate: VariableTracker | None
    """The iterator of the `yield from` the frame is suspended in, if any."""

    def resume(self, tx: TranslatorBase, sent: VariableTracker) -> VariableTracker | None:
        """Continue the frame with `sent` as the value of the suspended `yield`: the next
        yielded value, or None when the frame returns (`return_value` then holds its result)."""
        ...

    @property
    def return_value(self) -> VariableTracker | None: ...


class LocalGeneratorObjectVariable(IteratorVariable):
    """`LocalGeneratorObjectVariable(<genexpr>)`: a generator made inside the traced frame."""

    __slots__ = ("frame", "made_at", "stop_value")

    def __init__(self, frame: GeneratorFrame, made_at: tuple[UserLocation, str]) -> None:
        super().__init__(None)
        self.frame = frame
        self.made_at = made_at
        """Where the generator was made (location, instruction): an escape is reported there,
        since it is found after tracing, when the compiled code would have to rebuild it."""
        self.stop_value: VariableTracker | None = None
        """What the last exhausted `next_item` returned with: the frame's return value the
        first time it finishes, None after (CPython's StopIteration carries it only once)."""

    def python_type(self) -> type:
        return types.GeneratorType

    def next_item(self, tx: TranslatorBase) -> VariableTracker | None:
        return self.send_value(tx, ConstantVariable(None))

    def send_value(self, tx: TranslatorBase, sent: VariableTracker) -> VariableTracker | None:
        """Resume the generator with `sent`; its yielded value, or None once it is exhausted
        (then `stop_value` is what its StopIteration carries)."""
        frame = self.frame
        self.stop_value = None
        if frame.running:
            tx.raise_user_error(ValueError("generator already executing"))
        if frame.finished:
            return None
        item = frame.resume(tx, sent)
        if item is None:
            self.stop_value = frame.return_value
        return item

    def stop_iteration(self, tx: TranslatorBase) -> BaseException:
        value = self.stop_value
        if value is None:
            return StopIteration()
        try:
            constant = value.realize().as_python_constant()
        except NotConstantError:
            unimplemented(
                "generator",
                f"the StopIteration of {self.frame.name} carries {value!r}, not a constant",
            )
        return StopIteration() if constant is None else StopIteration(constant)

    def method_send(self, tx: TranslatorBase, value: VariableTracker) -> VariableTracker:
        frame = self.frame
        if not frame.started and not frame.finished:
            sent = value.realize()
            if not (sent.is_python_constant() and sent.as_python_constant() is None):
                tx.raise_user_error(
                    TypeError("can't send non-None value to a just-started generator")
                )
        item = self.send_value(tx, value)
        if item is None:
            tx.raise_user_error(self.stop_iteration(tx))
        return item

    def method_throw(self, tx: TranslatorBase, *args: VariableTracker) -> VariableTracker:
        """`g.throw(exc)` raises `exc` where the generator is suspended. No `yield` of a
        traced generator is inside a `try` or `with` (see InliningGeneratorTranslator.start),
        so nothing in its body can catch it: it leaves the generator (and, through a `yield
        from`, the inner generator first), which is then finished, and the caller gets it.
        A generator not started, or finished, raises it too. StopIteration and GeneratorExit
        (which a generator turns into RuntimeError, or swallows) and the forms with more
        than one argument are not modeled."""
        from variables.misc import ExceptionVariable, make_exception

        error = args[0].realize() if len(args) == 1 else None
        if error is not None and not isinstance(error, ExceptionVariable):
            cls = error.as_python_constant() if error.is_python_constant() else None
            if isinstance(cls, type) and issubclass(cls, BaseException):  # `throw(KeyError)`
                error = make_exception(tx, cls, [], {}).realize()
        if not isinstance(error, ExceptionVariable) or issubclass(
            error.cls, StopIteration | GeneratorExit
        ):
            unimplemented("generator", f"throw() of {args!r} into {self.frame.name}")
        if self.frame.running:
            tx.raise_user_error(ValueError("generator already executing"))
        generator: LocalGeneratorObjectVariable | None = self
        while generator is not None:  # the exception leaves every frame of the chain
            frame = generator.frame
            delegate = frame.delegate
            frame.delegate = None
            frame.finished = True
            generator = delegate if isinstance(delegate, LocalGeneratorObjectVariable) else None
        tx.raise_exception(error)

    def method_close(self, tx: TranslatorBase) -> VariableTracker:
        """CPython raises GeneratorExit at the suspended `yield`. No `yield` of a traced
        generator is inside a `try` or `with` (see InliningGeneratorTranslator.start), so
        nothing in the body can see it: the generator just finishes. Suspended in a
        `yield from` over another generator, CPython closes that one first."""
        frame = self.frame
        if frame.running:
            tx.raise_user_error(ValueError("generator already executing"))
        if isinstance(frame.delegate, LocalGeneratorObjectVariable):
            frame.delegate.method_close(tx)
        frame.delegate = None
        frame.finished = True
        return ConstantVariable(None)

    def reconstruct(self, cg: PyCodegen) -> None:
        try:
            unimplemented(
                "generator",
                f"the generator {self.frame.name} made here escapes the traced frame "
                "(returned or stored outside it) and can't be rebuilt at its position",
            )
        except Unsupported as e:
            raise e.with_location(*self.made_at) from None

    def __repr__(self) -> str:
        return f"LocalGeneratorObjectVariable({self.frame.name})"
