"""variables package: the VariableTrackers a trace works with.

These modules and the tracer import each other (the output graph builds trackers; trackers
raise the tracer's errors and record into its graph). The tracer is imported first, so that
importing any of these modules on its own (`from variables.tensor import TensorVariable` in a
fresh interpreter) loads both packages in the one order that works, instead of failing on a
partly initialized module."""

import tracer  # noqa: F401  (import order, see above)
