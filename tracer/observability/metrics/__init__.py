"""Compile metrics: MetricsContext per thread, one CompilationMetrics per compile, timed phases.

Split by concept: `context` (the re-entrant dict), `compilation` (the record and its central
filling), `timing` (timed spans, the thread's context, the benchmark stub).
"""

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
    "record_compilation_metrics",
    "timed",
]
