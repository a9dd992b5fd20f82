"""modetrace: a pure-Python model of Dynamo's tracing machinery for CPython 3.11."""

# The trackers first, through their builder: the builder imports every tracker family at its
# top, and the families call it back while tracing (see variables/__init__.py).
import variables.builder  # noqa: F401
from tracer.api import CompiledFunction, RecompileError, compile, reset
from tracer.debug import breakpoint, graph_break, set_breakpoint_hook
from tracer.exc import BreakReason, InternalError, Unsupported, UserError
from tracer.explain import Explanation, explain, trace
from tracer.observability import logs, metrics, trace_log
from tracer.observability.events import export_chrome_trace, get_chromium_events, get_compile_events
from tracer.observability.metrics import get_compilation_metrics, metrics_store
from tracer.side_by_side import compare

# `logs`, `metrics` and `trace_log` keep their public paths: `tracer.trace_log.enable(dir)`,
# `tracer.logs.set_logs(...)`, `tracer.metrics.disabled()`.
__all__ = [
    "BreakReason",
    "CompiledFunction",
    "Explanation",
    "InternalError",
    "RecompileError",
    "Unsupported",
    "UserError",
    "breakpoint",
    "compare",
    "compile",
    "explain",
    "export_chrome_trace",
    "get_chromium_events",
    "get_compilation_metrics",
    "get_compile_events",
    "graph_break",
    "logs",
    "metrics",
    "metrics_store",
    "reset",
    "set_breakpoint_hook",
    "trace",
    "trace_log",
]
