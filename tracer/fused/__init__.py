"""The fused backend: each graph lowered to generated Python loop kernels.

`fused(gm, example_inputs)` is the backend (`tracer.compile(fn, backend="fused")`): pointwise
ops fuse into one loop with no intermediate tensors, a reduction runs in the loop of the
pointwise ops that feed it, views and broadcasting become index arithmetic, and anything else
stays a call into the runtime. See notes/fused-backend.md. The modules, in pipeline order:
`lowering` (node -> value), `scheduler` (what is stored, loop orders, kernels), `codegen`
(kernel source), `compiler` (forward and the plan), `plan` (the plan as data and its loading).
"""

from __future__ import annotations

import weakref

from tracer.fused.compiler import plan_graph
from tracer.fused.plan import FusedPlan, KernelPlan
from tracer.graph import GraphModule

_PLANS: weakref.WeakKeyDictionary[GraphModule, FusedPlan] = weakref.WeakKeyDictionary()


def remember_plan(gm: GraphModule, plan: FusedPlan) -> None:
    """Record the plan a graph was compiled to (for `explain`), for as long as the graph lives."""
    _PLANS[gm] = plan


def plan_of(gm: GraphModule) -> FusedPlan | None:
    """The plan the fused backend made of `gm`, if it compiled it."""
    return _PLANS.get(gm)


__all__ = ["FusedPlan", "KernelPlan", "plan_graph", "plan_of", "remember_plan"]
