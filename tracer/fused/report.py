"""Where the fused kernels are shown: `MODETRACE_LOGS=output_code` and the structured log."""

from __future__ import annotations

from tracer.fused.plan import FusedPlan
from tracer.observability import logs, trace_log


def kernels_text(plan: FusedPlan) -> str:
    """Every kernel's source, then `forward`, as one listing."""
    parts = [f"# {len(plan.kernels)} kernel(s); stats {plan.stats}"]
    parts += [f"# {k.name}: nodes {', '.join(k.nodes)}\n{k.source}" for k in plan.kernels]
    parts.append(plan.forward)
    return "\n".join(parts)


def report_kernels(plan: FusedPlan) -> None:
    if logs.enabled("output_code"):
        logs.get_logger("output_code").info("%s", kernels_text(plan))
    trace_log.trace_artifact("fused_output_code", "string", lambda: kernels_text(plan))
    trace_log.trace_artifact("fused_plan", "json", plan.to_dict)
