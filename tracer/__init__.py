"""modetrace: a pure-Python model of Dynamo's tracing machinery for CPython 3.11."""

# The trackers first, through their builder: the builder imports every tracker family at its
# top, and the families call it back while tracing (see variables/__init__.py).
import variables.builder  # noqa: F401
from tracer.api import CompiledFunction, RecompileError, compile, reset
from tracer.debug import breakpoint, set_breakpoint_hook
from tracer.events import export_chrome_trace, get_chromium_events, get_compile_events
from tracer.exc import BreakReason, InternalError, Unsupported, UserError
from tracer.explain import Explanation, explain, trace
from tracer.metrics import get_compilation_metrics

__all__ = [
    "BreakReason",
    "CompiledFunction",
    "Explanation",
    "InternalError",
    "RecompileError",
    "Unsupported",
    "UserError",
    "breakpoint",
    "compile",
    "explain",
    "export_chrome_trace",
    "get_chromium_events",
    "get_compilation_metrics",
    "get_compile_events",
    "reset",
    "set_breakpoint_hook",
    "trace",
]
