"""In-memory streams made in the frame: `io.StringIO` and `io.BytesIO`.

A stream is mutable, so unlike the value objects (variables/value_objects.py) it can't be held as
a constant. But one made inside the frame, from constants, that never leaves it (pprint's
`pformat` writes into one and returns its `getvalue()`) can be driven by CPython: the tracker
holds a real stream made while tracing, each method runs on it with constant arguments, and
what the method returns is a constant (a str, bytes or int) computed once, while tracing. That
is exact because nothing but the frame's own constant-argument calls can reach the stream, and
its results are all the frame sees of it. A stream that would leave the frame (returned,
stored in an outside object, live at a graph break) can't be rebuilt with its contents and
position, so the frame falls back, as it does for a method call with an argument known only
at run time.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer.exc import unimplemented
from variables import builder
from variables.base import GetAttrVariable, NotConstantError, VariableTracker
from variables.constant import is_constant_value

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase

_COMMON = frozenset(
    {
        "write", "writelines", "read", "readline", "readlines", "getvalue", "seek", "tell",
        "truncate", "close", "readable", "writable", "seekable", "isatty", "flush",
    }
)  # fmt: skip

METHODS: dict[type, frozenset[str]] = {io.StringIO: _COMMON, io.BytesIO: _COMMON | {"read1"}}
"""The methods run on the real stream (constant arguments only). Left out: `detach`, `fileno`,
`getbuffer` (a view that would see later writes), iteration (an iterator over the stream)."""

ATTRIBUTES = frozenset({"closed", "newlines", "line_buffering", "encoding", "errors"})

STREAM_CLASSES: frozenset[type] = frozenset(METHODS)


def _real(what: str, vt: VariableTracker) -> Any:
    vt = vt.realize()
    try:
        value = vt.as_python_constant()
    except NotConstantError:
        unimplemented("stream", f"{what} with the non-constant argument {vt!r}")
    if not (is_constant_value(value) or type(value) is list and all(map(is_constant_value, value))):
        unimplemented("stream", f"{what} with an argument of type {type(value).__name__}")
    return value


def make_stream(
    tx: TranslatorBase,
    cls: type,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """`io.StringIO(...)` in the frame: a real stream made from constants."""
    what = f"creating {cls.__name__}"
    real_args = [_real(what, a) for a in args]
    real_kwargs = {k: _real(what, v) for k, v in kwargs.items()}
    return StreamVariable(tx.run_user_operation(cls, *real_args, **real_kwargs))


class StreamVariable(VariableTracker):
    """`StreamVariable(StringIO)`: a stream made in the frame, driven by CPython."""

    __slots__ = ("stream",)

    def __init__(self, stream: Any) -> None:
        super().__init__(None)
        self.stream = stream

    @property
    def is_new(self) -> bool:
        return True

    def python_type(self) -> type:
        return type(self.stream)

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        kind = type(self.stream)
        if name in METHODS[kind]:
            return GetAttrVariable(self, name)
        if name in ATTRIBUTES and hasattr(self.stream, name):
            return builder.wrap_constant_result(tx.run_user_operation(getattr, self.stream, name))
        if not hasattr(kind, name):  # CPython's AttributeError
            tx.run_user_operation(getattr, self.stream, name)
        unimplemented("stream", f"attribute {kind.__name__}.{name} is not supported while tracing")

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        kind = type(self.stream)
        if name not in METHODS[kind]:
            return super().call_method(tx, name, args, kwargs)
        what = f"{kind.__name__}.{name}"
        real_args = [_real(what, a) for a in args]
        real_kwargs = {k: _real(what, v) for k, v in kwargs.items()}
        result = tx.run_user_operation(getattr(self.stream, name), *real_args, **real_kwargs)
        return builder.wrap_constant_result(result)

    def reconstruct(self, cg: PyCodegen) -> None:
        unimplemented(
            "stream",
            f"a {type(self.stream).__name__} made in the frame leaves it (its contents and "
            "position can't be rebuilt)",
        )

    def __repr__(self) -> str:
        return f"StreamVariable({type(self.stream).__name__})"
