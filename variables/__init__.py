"""variables package: the VariableTrackers a trace works with.

The trackers import from the tracer only its leaf modules (errors, config, the runtime, the graph
IR, `tracer.debug`); the translator and the output graph import the trackers. Inside this
package one module imports every other: `builder`, which turns any value into a tracker. The
tracker families call it back while tracing (a folded result, a class met in `type(x)`), so they
import it as a module, `from variables import builder`, and read `builder.wrap_class` when called.

That works when the builder is the first of these modules to load: each family then finds it in
`sys.modules`, still loading. `tracer/__init__.py` imports `variables.builder` before anything
else, and this package imports `tracer` first, so whichever module a program imports first
(`import tracer`, or `from variables.tensor import TensorVariable` in a fresh interpreter), the
builder loads first (tests/test_imports.py checks every module of this package)."""

import tracer  # noqa: F401  (import order, see above)
