"""Compile metrics: MetricsContext per thread, one CompilationMetrics per compile, timed phases.

Split by concept: `context` (the re-entrant dict), `compilation` (the record and its central
filling), `timing` (timed spans, the thread's context, the benchmark stub), `store` (the records
in a SQLite database, loaded only when used) and `report` (what `python -m tracer metrics` reads
from one).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from tracer.observability.metrics.compilation import (
    FIELD_NAMES,
    CompilationMetrics,
    clear_compilation_metrics,
    failure_metrics,
    get_compilation_metrics,
    record_compilation_metrics,
)
from tracer.observability.metrics.context import MetricsContext
from tracer.observability.metrics.timing import (
    disabled,
    get_metrics_context,
    metrics_context,
    timed,
)

if TYPE_CHECKING:
    from tracer.observability.metrics.store import MetricsStore


def metrics_store(
    path: str | os.PathLike[str] | None, *, batch: int = 16, interval_s: float = 2.0
) -> MetricsStore | None:
    """Store every compile from now on in the SQLite database at `path` (see `store`); None
    stops storing. `with tracer.metrics_store(path): ...` stores the block's compiles only.
    `batch` compiles are written per transaction, or fewer once the oldest is `interval_s` old.
    """
    from tracer.observability.metrics import store

    return store.metrics_store(path, batch=batch, interval_s=interval_s)


if os.environ.get("MODETRACE_METRICS_DB"):  # the store module (and sqlite3) load only if used
    from tracer.observability.metrics import store as _store

    _store.install_from_env()


__all__ = [
    "FIELD_NAMES",
    "CompilationMetrics",
    "MetricsContext",
    "clear_compilation_metrics",
    "disabled",
    "failure_metrics",
    "get_compilation_metrics",
    "get_metrics_context",
    "metrics_context",
    "metrics_store",
    "record_compilation_metrics",
    "timed",
]
