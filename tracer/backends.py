"""Backends turn a traced GraphModule into the callable the compiled code invokes.

`eager` runs the graph passes (one timed phase for all of them) and calls the generated Python;
`interpret` runs node by node through the Interpreter (slow, for debugging). Users may register
their own: a backend is `(graph_module, example_inputs) -> callable`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tracer.exc import UserError
from tracer.fused import FusedPlan, plan_graph, remember_plan
from tracer.fused.report import report_kernels as _report_kernels
from tracer.graph import GraphModule, Interpreter, passes
from tracer.graph_cache import compile_cached
from tracer.observability.metrics import timed

Backend = Callable[[GraphModule, list[Any]], Callable[..., Any]]

GRAPH_PASSES: tuple[tuple[str, Callable[..., int]], ...] = (
    ("fold_constants", passes.fold_constants),
    ("eliminate_common_subexpressions", passes.eliminate_common_subexpressions),
    ("eliminate_dead_code", passes.eliminate_dead_code),
)


def run_graph_passes(gm: GraphModule) -> dict[str, int]:
    """The passes in order, as one span adding to graph_pass_time_us; returns nodes changed by
    each."""
    with timed("graph_passes", metrics_column="graph_pass_time_us"):
        changed = {name: graph_pass(gm.graph) for name, graph_pass in GRAPH_PASSES}
    if any(changed.values()):
        gm.recompile()
    return changed


def eager(gm: GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
    run_graph_passes(gm)
    return gm.forward


def interpret(gm: GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
    interpreter = Interpreter(gm)
    return interpreter.run


def fused_backend(*, reorder_loops: bool = True) -> Backend:
    """The fused backend with its options: the graph passes, then the graph lowered to fused
    loop kernels (tracer/fused/), through the graph cache (tracer/graph_cache/: a graph
    compiled before, in this process or another, loads its plan instead).
    `reorder_loops=False` keeps every statement's first loop order (to measure what
    reordering gains). The plan stays known for the graph's lifetime
    (`tracer.fused.plan_of(gm)`)."""

    def fused(gm: GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
        run_graph_passes(gm)

        def compile() -> tuple[FusedPlan, Callable[..., Any]]:
            plan = plan_graph(gm, reorder_loops=reorder_loops)
            return plan, plan.load()

        plan, forward = compile_cached(
            gm, example_inputs, "fused", {"reorder_loops": reorder_loops},
            compile, _plan_payload, _plan_from_payload,
        )  # fmt: skip
        remember_plan(gm, plan)
        _report_kernels(plan)
        return forward

    return fused


def _plan_payload(compiled: tuple[FusedPlan, Callable[..., Any]]) -> dict[str, Any] | None:
    """What the graph cache stores of a fused compile: the plan, when all of it is data."""
    plan = compiled[0]
    return plan.to_dict() if plan.portable else None


def _plan_from_payload(payload: dict[str, Any]) -> tuple[FusedPlan, Callable[..., Any]]:
    """A cached plan, checked against its schema, loaded (ValueError: refused)."""
    plan = FusedPlan.from_dict(payload)
    if not plan.portable:
        raise ValueError("a cached plan names an object that is not data")
    return plan, plan.load()


def no_passes(gm: GraphModule, example_inputs: list[Any]) -> Callable[..., Any]:
    """The generated code as traced, without graph passes (for tests of the passes)."""
    return gm.forward


_REGISTRY: dict[str, Backend] = {
    "eager": eager,
    "interpret": interpret,
    "no_passes": no_passes,
    "fused": fused_backend(),
}


def register_backend(name: str, backend: Backend) -> None:
    _REGISTRY[name] = backend


def lookup_backend(backend: str | Backend) -> Backend:
    if callable(backend):
        return backend
    try:
        return _REGISTRY[backend]
    except (KeyError, TypeError):  # (TypeError: an unhashable value, a list of names)
        known = ", ".join(sorted(_REGISTRY))
        raise UserError(f"unknown backend {backend!r}; known backends: {known}") from None
