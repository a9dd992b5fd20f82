"""CompileCounter: how many compiles, recompiles and graph breaks happened inside a block.

It reads the CompilationMetrics records that `tracer.get_compilation_metrics()` keeps, counting
only the records created after the block was entered (it holds the earlier ones, so identities
stay unique). The history is bounded by `config.metrics_limit`; a block that compiles more than
that many frames undercounts.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, Self

from tracer.observability.metrics import CompilationMetrics, get_compilation_metrics


class CompileCounter:
    """Count compiles inside a `with` block.

    >>> import tracer
    >>> with CompileCounter() as counter:
    ...     _ = tracer.compile(lambda x: x + 1)(1)
    >>> counter.compiles, counter.recompiles, counter.graph_breaks
    (1, 0, 0)

    Counts are live inside the block and frozen when it exits.
    """

    def __init__(self) -> None:
        self._before: list[CompilationMetrics] | None = None
        self._frozen: list[CompilationMetrics] | None = None

    def __enter__(self) -> Self:
        self._before = list(get_compilation_metrics())
        self._frozen = None
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._frozen = self._new_records()
        self._before = None

    def _new_records(self) -> list[CompilationMetrics]:
        if self._frozen is not None:
            return self._frozen
        if self._before is None:
            return []
        old = {id(r) for r in self._before}
        return [r for r in get_compilation_metrics() if id(r) not in old]

    @property
    def records(self) -> list[CompilationMetrics]:
        """The CompilationMetrics of every compile in the block, oldest first."""
        return list(self._new_records())

    @property
    def compiles(self) -> int:
        """Frames compiled (each recompile counts once more)."""
        return len(self._new_records())

    @property
    def recompiles(self) -> int:
        """Compiles caused by a guard failure of an existing cache entry."""
        return sum(1 for r in self._new_records() if r.recompile_reason is not None)

    @property
    def graph_breaks(self) -> int:
        return sum(r.graph_break_count or 0 for r in self._new_records())

    @property
    def graph_break_reasons(self) -> list[str]:
        return [reason for r in self._new_records() for reason in r.graph_break_reasons or ()]

    def __repr__(self) -> str:
        return (
            f"CompileCounter(compiles={self.compiles}, recompiles={self.recompiles}, "
            f"graph_breaks={self.graph_breaks})"
        )

    def summary(self) -> dict[str, Any]:
        return {
            "compiles": self.compiles,
            "recompiles": self.recompiles,
            "graph_breaks": self.graph_breaks,
        }
