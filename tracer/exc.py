"""The exceptions of modetrace and the structured reason a graph breaks.

`Unsupported` is the public graph-break signal; `InternalError` is a bug of ours and is never
turned into a graph break; `UserError` marks misuse of the API (a bad argument to compile).
"""

from __future__ import annotations

import dataclasses
import linecache
import types
from typing import Any, NoReturn

from tracer import config


@dataclasses.dataclass(frozen=True, slots=True)
class UserLocation:
    """Where in the user's code something happened: file, line, function and the line's text."""

    filename: str
    lineno: int
    function: str = ""
    source_line: str = ""

    @classmethod
    def at(cls, filename: str, lineno: int, function: str = "") -> UserLocation:
        line = linecache.getline(filename, lineno)
        if not line:  # a stale cache entry (the file changed on disk): read it again
            linecache.checkcache(filename)
            line = linecache.getline(filename, lineno)
        return cls(filename, lineno, function, line.strip())

    @property
    def short_filename(self) -> str:
        return self.filename.rsplit("/", 1)[-1]

    @staticmethod
    def text(filename: str, lineno: int, function: str = "") -> str:
        """`str()` of the location with these fields, without reading the source line: every
        recorded op stores it, most on lines nothing else needs a location for."""
        where = f"{filename.rsplit('/', 1)[-1]}:{lineno}"
        return f"{where} in {function}" if function else where

    def __str__(self) -> str:
        return UserLocation.text(self.filename, self.lineno, self.function)


class LocationsByLine(dict[int | None, UserLocation]):
    """One code object's `UserLocation` for each line, built the first time a line is asked
    for (`locations[inst.lineno]`; None, no line, means the code's first line).

    A line's location (and its source line, from linecache) is worked out once per trace
    (TraceCaches.code_facts)."""

    __slots__ = ("code",)

    def __init__(self, code: types.CodeType) -> None:
        super().__init__()
        self.code = code

    def __missing__(self, lineno: int | None) -> UserLocation:
        code = self.code
        line = lineno or code.co_firstlineno
        location = self[lineno] = UserLocation.at(code.co_filename, line, code.co_name)
        return location


class LocationTextsByLine(dict[int | None, str]):
    """`str()` of `LocationsByLine`'s locations (`UserLocation.text`), built without reading
    the source line: every recorded op stores one in its node's meta, most on lines nothing
    else needs a location for."""

    __slots__ = ("code",)

    def __init__(self, code: types.CodeType) -> None:
        super().__init__()
        self.code = code

    def __missing__(self, lineno: int | None) -> str:
        code = self.code
        line = lineno or code.co_firstlineno
        text = self[lineno] = UserLocation.text(code.co_filename, line, code.co_name)
        return text


@dataclasses.dataclass(frozen=True, slots=True)
class BreakReason:
    """Why a frame could not be traced: a fixed `kind`, words for the user, and where."""

    kind: str
    explanation: str
    hints: tuple[str, ...] = ()
    context: str = ""
    location: UserLocation | None = None
    instruction: str = ""

    def __str__(self) -> str:
        prefix = f"{self.location}: " if self.location is not None else ""
        return f"{prefix}{self.explanation}"

    def as_data(self) -> dict[str, Any]:
        """JSON-ready parts: kind, explanation, hints, and where (`location` is `user.py:12`;
        `file`, `line` and `function` are None when the break has no user location)."""
        loc = self.location
        return {
            "kind": self.kind,
            "explanation": self.explanation,
            "hints": list(self.hints),
            "location": None if loc is None else f"{loc.short_filename}:{loc.lineno}",
            "file": None if loc is None else loc.filename,
            "line": None if loc is None else loc.lineno,
            "function": None if loc is None else loc.function,
            "source_line": None if loc is None else loc.source_line,
        }


class Unsupported(Exception):
    """Raised when tracing meets something it cannot model; the frame falls back to Python."""

    def __init__(self, reason: BreakReason, user_exception: BaseException | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.user_exception = user_exception
        """The Python exception the traced code would raise here, when that is the reason."""
        self.compilable_raise = False
        """True when compiled code may raise `user_exception` itself (no handler in scope)."""
        self.exception_vt: Any = None
        """The traced exception (an ExceptionVariable) that a traced handler may catch."""
        self.break_index: int | None = None
        """Set by the compiled frame's translator: the index of its instruction where a resume
        may start, the one that broke or, for a break inside a function it inlined (then
        `in_callee` is True), its CALL of that function, which is the break (the callee runs
        as a frame of its own)."""
        self.in_callee = False

    def with_location(self, location: UserLocation, instruction: str) -> Unsupported:
        """Attach the user's file:line once, at the innermost frame that knows it."""
        if self.reason.location is not None:
            return self
        reason = dataclasses.replace(self.reason, location=location, instruction=instruction)
        located = Unsupported(reason, self.user_exception)
        located.compilable_raise = self.compilable_raise
        located.exception_vt = self.exception_vt
        located.break_index = self.break_index
        located.in_callee = self.in_callee
        return located.with_traceback(self.__traceback__)


class InternalError(Exception):
    """A bug in modetrace. Never converted into a graph break."""


class BreakRequested(AssertionError):
    """`MODETRACE_BREAK=<kind>`: a graph break of that kind stops here instead of breaking, so
    its traceback (or pdb's post-mortem) shows where in the tracer, and why, it was raised.
    Never a graph break, never wrapped as an InternalError."""


class UserError(Exception):
    """The API was misused (e.g. a bad argument to `tracer.compile`)."""


def unimplemented(
    kind: str, explanation: str, hints: tuple[str, ...] = (), context: str = ""
) -> NoReturn:
    """The one way to break a graph: raise Unsupported with a structured reason."""
    if config.current().break_on == kind:
        raise BreakRequested(f"MODETRACE_BREAK={kind}: {explanation}")
    raise Unsupported(BreakReason(kind, explanation, hints, context))
