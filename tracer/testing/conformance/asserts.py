"""Plain assertion methods the tracer can follow, put in place of unittest's own on both sides.

unittest's `assertEqual` looks its comparison function up in a dict keyed by types, and
`assertRaises` builds its context manager from a class of another module: modetrace falls back
on both, so nearly every CPython test would fall back at its first assertion and compare
nothing. Like PyTorch's CPythonTestCase, which swaps some assertions for traceable polyfills,
the conformance run gives each test class these plain versions, for the eager run AND the
compiled run, so both sides execute the same code and only the test body is under test. Their
messages are short (`1 != 2`), not unittest's diffs. A class that defines an assertion itself
keeps its own; `--unittest-asserts` turns the swap off.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any, Self


class RaisesContext:
    """`with self.assertRaises(E):` in plain Python: suppresses E, fails when nothing raised."""

    def __init__(self, test: Any, expected: Any) -> None:
        self.test = test
        self.expected = expected
        self.exception: BaseException | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if exc_type is None:
            self.test.fail(f"{_exception_name(self.expected)} not raised")
            return False
        if not issubclass(exc_type, self.expected):
            return False
        self.exception = exc
        return True


def _exception_name(expected: Any) -> str:
    if isinstance(expected, tuple):
        return ", ".join(e.__name__ for e in expected)
    return str(expected.__name__)


class PlainAsserts:
    """The assertions CPython's tests use most, written as plain comparisons and raises."""

    failureException: type[BaseException]
    raises_context = RaisesContext
    """Reached through self: modetrace does not follow an inlined function's globals into
    another module, and the test's module is the compiled frame's."""

    def fail(self, msg: Any = None) -> None:
        raise self.failureException(msg)

    def assertEqual(self, first: Any, second: Any, msg: Any = None) -> None:
        if not first == second:  # noqa: SIM201 - unittest's test: __eq__, not __ne__
            self.fail(msg or f"{first!r} != {second!r}")

    def assertNotEqual(self, first: Any, second: Any, msg: Any = None) -> None:
        if not first != second:  # noqa: SIM202 - unittest's test: __ne__, not __eq__
            self.fail(msg or f"{first!r} == {second!r}")

    def assertTrue(self, expr: Any, msg: Any = None) -> None:
        if not expr:
            self.fail(msg or f"{expr!r} is not true")

    def assertFalse(self, expr: Any, msg: Any = None) -> None:
        if expr:
            self.fail(msg or f"{expr!r} is not false")

    def assertIs(self, first: Any, second: Any, msg: Any = None) -> None:
        if first is not second:
            self.fail(msg or f"{first!r} is not {second!r}")

    def assertIsNot(self, first: Any, second: Any, msg: Any = None) -> None:
        if first is second:
            self.fail(msg or f"unexpectedly identical: {first!r}")

    def assertIsNone(self, obj: Any, msg: Any = None) -> None:
        if obj is not None:
            self.fail(msg or f"{obj!r} is not None")

    def assertIsNotNone(self, obj: Any, msg: Any = None) -> None:
        if obj is None:
            self.fail(msg or "unexpectedly None")

    def assertIn(self, member: Any, container: Any, msg: Any = None) -> None:
        if member not in container:
            self.fail(msg or f"{member!r} not found in {container!r}")

    def assertNotIn(self, member: Any, container: Any, msg: Any = None) -> None:
        if member in container:
            self.fail(msg or f"{member!r} unexpectedly found in {container!r}")

    def assertIsInstance(self, obj: Any, cls: Any, msg: Any = None) -> None:
        if not isinstance(obj, cls):
            self.fail(msg or f"{obj!r} is not an instance of {cls!r}")

    def assertNotIsInstance(self, obj: Any, cls: Any, msg: Any = None) -> None:
        if isinstance(obj, cls):
            self.fail(msg or f"{obj!r} is an instance of {cls!r}")

    def assertLess(self, a: Any, b: Any, msg: Any = None) -> None:
        if not a < b:
            self.fail(msg or f"{a!r} not less than {b!r}")

    def assertLessEqual(self, a: Any, b: Any, msg: Any = None) -> None:
        if not a <= b:
            self.fail(msg or f"{a!r} not less than or equal to {b!r}")

    def assertGreater(self, a: Any, b: Any, msg: Any = None) -> None:
        if not a > b:
            self.fail(msg or f"{a!r} not greater than {b!r}")

    def assertGreaterEqual(self, a: Any, b: Any, msg: Any = None) -> None:
        if not a >= b:
            self.fail(msg or f"{a!r} not greater than or equal to {b!r}")

    def assertRaises(self, expected: Any, *args: Any, **kwargs: Any) -> Any:
        context = self.raises_context(self, expected)
        if not args:
            return context
        function: Callable[..., Any] = args[0]
        with context:
            function(*args[1:], **kwargs)
        return None


PLAIN_ASSERTS: dict[str, Any] = {
    name: value
    for name, value in vars(PlainAsserts).items()
    if name == "fail" or name.startswith("assert")
}
"""Name -> the plain method, for the names a test class does not define itself."""
