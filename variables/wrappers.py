"""Function wrappers from functools: `functools.partial` objects (traced) and the wrappers
`functools.lru_cache` makes (a call is a graph break: see `LruCacheWrapperVariable`).
(`functools.wraps` needs nothing here: it copies attributes onto a plain Python function.)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from guards.guard import GuardKind
from guards.sources import AttrSource
from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.functions import BaseUserFunctionVariable
from variables.lists import TupleVariable

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.translator.base import TranslatorBase
    from variables.builder import VariableBuilder


class FunctoolsPartialVariable(VariableTracker):
    """`FunctoolsPartialVariable(scale, args=[2])`: `functools.partial(func, *args, **keywords)`
    made in the frame, or read from outside (pinned by identity, its `func`, `args` and
    `keywords` read at their sources). A call traces `func` with the bound arguments first and
    the call's keywords over the bound ones, as `partial.__call__` does."""

    __slots__ = ("args", "func", "keywords")

    def __init__(
        self,
        func: VariableTracker,
        args: Sequence[VariableTracker],
        keywords: dict[str, VariableTracker],
        source: Source | None = None,
    ) -> None:
        super().__init__(source)
        self.func = func
        self.args = list(args)
        self.keywords = dict(keywords)

    @classmethod
    def create(
        cls,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        """`functools.partial(...)` called in the traced code. A partial of an exact partial
        is flattened, as CPython does; a first argument not known to be callable falls back
        (CPython's TypeError then comes from plain Python)."""
        if not args:
            tx.run_user_operation(functools.partial)  # CPython's TypeError
        func = args[0].realize()
        bound, keywords = list(args[1:]), dict(kwargs)
        if isinstance(func, FunctoolsPartialVariable):
            bound = [*func.args, *bound]
            keywords = {**func.keywords, **keywords}
            func = func.func
        elif not _known_callable(func):
            unimplemented("partial", f"functools.partial of {func!r}, not known to be callable")
        return cls(func, bound, keywords)

    @classmethod
    def wrap(cls, builder: VariableBuilder, value: Any, source: Source) -> VariableTracker:
        """A partial from outside: identity, then its parts, each guarded as it is read."""
        builder.output.add_guard(GuardKind.ID_MATCH, source, value)
        func = builder.lazy(value.func, AttrSource(source, "func"))
        args = builder.wrap(value.args, AttrSource(source, "args"))
        assert isinstance(args, TupleVariable)
        keywords: dict[str, VariableTracker] = {}
        if value.keywords:
            keywords_vt = builder.wrap(value.keywords, AttrSource(source, "keywords"))
            keywords = dict(keywords_vt.items)  # type: ignore[attr-defined]
        return cls(func, args.items, keywords, source)

    def python_type(self) -> type:
        return functools.partial

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.func.call_function(tx, [*self.args, *args], {**self.keywords, **kwargs})

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "func":
            return self.func
        if name == "args":
            return TupleVariable(self.args)
        unimplemented("partial", f"attribute {name!r} of a functools.partial")

    def reconstruct(self, cg: PyCodegen) -> None:
        if self.source is not None:
            cg.load_source(self.source)
            return
        if self.keywords:
            unimplemented("reconstruct", "a functools.partial with keywords made in the frame")

        def build() -> None:
            cg.load_function(functools.partial)
            cg(self.func)
            for arg in self.args:
                cg(arg)
            cg.call(1 + len(self.args))

        cg.rebuild_once(self, build)  # one object wherever the tracker is

    def __repr__(self) -> str:
        return f"FunctoolsPartialVariable({self.func!r}, args={self.args!r}{self._src()})"


def _known_callable(vt: VariableTracker) -> bool:
    """A Python function or method, or a constant that is callable (a builtin, a class)."""
    if isinstance(vt, BaseUserFunctionVariable | FunctoolsPartialVariable):
        return True
    return vt.is_python_constant() and callable(vt.as_python_constant())


class LruCacheWrapperVariable(VariableTracker):
    """The wrapper `functools.lru_cache` puts around a function, read from outside (pinned by
    identity). Calling it is a hit or a miss of its cache, state the compiled code could not
    replay (`cache_info()` counts them; a miss runs the function and stores the result), so a
    call is a graph break: the call runs in Python and the frame resumes after it."""

    __slots__ = ("value",)

    def __init__(self, value: Any, source: Source) -> None:
        super().__init__(source)
        self.value = value

    @classmethod
    def wrap(cls, builder: VariableBuilder, value: Any, source: Source) -> VariableTracker:
        builder.output.add_guard(GuardKind.ID_MATCH, source, value)
        return cls(value, source)

    def python_type(self) -> type:
        return type(self.value)

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        name = getattr(self.value, "__qualname__", "?")
        unimplemented(
            "lru-cache",
            f"call to {name}, a functools.lru_cache wrapper: its cache hit or miss is state "
            "the compiled code cannot replay",
        )

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        if name == "__wrapped__":
            assert self.source is not None
            return tx.output.builder.lazy(self.value.__wrapped__, AttrSource(self.source, name))
        unimplemented("lru-cache", f"attribute {name!r} of a functools.lru_cache wrapper")

    def reconstruct(self, cg: PyCodegen) -> None:
        assert self.source is not None
        cg.load_source(self.source)

    def __repr__(self) -> str:
        return f"LruCacheWrapperVariable({getattr(self.value, '__qualname__', '?')}{self._src()})"
