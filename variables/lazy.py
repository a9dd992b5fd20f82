"""LazyVariableTracker: a value found at a Source, wrapped (and guarded) only when first used.

Moving a value around (loading, storing, passing it to an inlined call, returning it) does not
look at it, so it adds no guard; anything that inspects it realizes the tracker through the
builder, which installs exactly the guards that wrapping relies on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from variables.base import VariableTracker

if TYPE_CHECKING:
    from guards.sources import Source
    from tracer.codegen import PyCodegen
    from tracer.output_graph import OutputGraph
    from tracer.translator.base import TranslatorBase


class LazyVariableTracker(VariableTracker):
    """`LazyVariableTracker(unrealized: G['cfg'])` until realized, then forwards to the result."""

    __slots__ = ("_realized", "output", "value")

    def __init__(self, value: Any, source: Source, output: OutputGraph) -> None:
        super().__init__(source)
        self.value = value
        self.output = output
        self._realized: VariableTracker | None = None

    def realize(self) -> VariableTracker:
        if self._realized is None:
            assert self.source is not None
            self._realized = self.output.builder.wrap(self.value, self.source)
        return self._realized

    @property
    def is_realized(self) -> bool:
        return self._realized is not None

    def python_type(self) -> type:
        return self.realize().python_type()

    def as_python_constant(self) -> Any:
        return self.realize().as_python_constant()

    def is_python_constant(self) -> bool:
        return self.realize().is_python_constant()

    def var_getattr(self, tx: TranslatorBase, name: str) -> VariableTracker:
        return self.realize().var_getattr(tx, name)

    def call_function(
        self,
        tx: TranslatorBase,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.realize().call_function(tx, args, kwargs)

    def call_method(
        self,
        tx: TranslatorBase,
        name: str,
        args: Sequence[VariableTracker],
        kwargs: dict[str, VariableTracker],
    ) -> VariableTracker:
        return self.realize().call_method(tx, name, args, kwargs)

    def unpack(self, tx: TranslatorBase) -> list[VariableTracker]:
        return self.realize().unpack(tx)

    def truthy(self, tx: TranslatorBase) -> bool:
        return self.realize().truthy(tx)

    def reconstruct(self, cg: PyCodegen) -> None:
        if self._realized is not None:
            self._realized.reconstruct(cg)
        else:
            assert self.source is not None
            cg.load_source(self.source)

    def __repr__(self) -> str:
        if self._realized is not None:
            return repr(self._realized)
        assert self.source is not None
        return f"LazyVariableTracker(unrealized: {self.source.name})"
