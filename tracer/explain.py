"""`tracer.explain` and `tracer.trace`: look at what compiling a call produces.

`explain(fn)(*args)` runs fn once through a fresh compiled wrapper and summarizes the entries it
made; `trace(fn)(*args)` builds the entry a call would create without running compiled code.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable, Mapping
from typing import Any

from tracer.cache import resume
from tracer.cache.entry import CacheEntry
from tracer.cache.function import CompiledFunction, make_binder
from tracer.cache.targets import UNBOUND, function_of
from tracer.exc import BreakReason
from tracer.fused import plan_of
from tracer.graph import GraphModule
from tracer.graph.naming import target_name
from tracer.options import checked as options_checked


@dataclasses.dataclass
class Explanation:
    """What compiling one call produced: graphs, breaks with reasons, guards, side effects."""

    graph_count: int
    graphs: list[GraphModule]
    graph_break_count: int
    break_reasons: list[BreakReason]
    guards: list[str]
    side_effects: list[str]
    ops_per_graph: list[list[str]]
    entries: list[CacheEntry]
    result: Any = None
    kernels_per_graph: list[GraphKernels] = dataclasses.field(default_factory=list)
    """With backend="fused": each graph's kernels (their count and source)."""

    @property
    def guard_tree(self) -> str:
        return "\n".join(str(e.guard_manager) for e in self.entries)

    def __str__(self) -> str:
        """The summary `print(tracer.explain(f)(...))` shows, laid out like the text of
        Dynamo's ExplainOutput: the counts, each break (kind, reason, where, hints), the ops of
        each graph, then each graph's code, the guards and the side effects."""
        lines = [
            f"Graph Count: {self.graph_count}",
            f"Graph Break Count: {self.graph_break_count}",
            f"Op Count: {sum(len(ops) for ops in self.ops_per_graph)}",
            "Break Reasons:",
        ]
        for number, reason in enumerate(self.break_reasons, 1):
            lines += [f"  Break Reason {number}:", *_indent(_reason_lines(reason), "    ")]
        lines.append("Ops per Graph:")
        for number, ops in enumerate(self.ops_per_graph, 1):
            lines += [f"  Ops {number}:", *(f"    {op}" for op in ops)]
        lines.append("Graphs:")
        for number, gm in enumerate(self.graphs, 1):
            lines += [f"  Graph {number}:", *_indent(gm.code.strip().splitlines(), "    ")]
        lines.append("Guards:")
        lines.extend(f"  {g}" for g in self.guards)
        lines.append("Side Effects:")
        lines.extend(f"  {s}" for s in self.side_effects or ["(none)"])
        return "\n".join(lines)


def _reason_lines(reason: BreakReason) -> list[str]:
    """`Kind:`, `Reason:`, `User Stack:` (the line that broke, with its source) and `Hints:`."""
    lines = [f"Kind: {reason.kind}", f"Reason: {reason.explanation}"]
    if reason.location is not None:
        where = str(reason.location)
        if reason.location.source_line:
            where += f": {reason.location.source_line}"
        lines += ["User Stack:", f"  {where}"]
    if reason.hints:
        lines += ["Hints:", *(f"  - {hint}" for hint in reason.hints)]
    return lines


def _indent(lines: list[str], prefix: str) -> list[str]:
    return [prefix + line for line in lines]


@dataclasses.dataclass
class GraphKernels:
    """The kernels the fused backend made of one graph, and the `forward` that calls them."""

    count: int
    sources: list[str]
    forward: str

    def __str__(self) -> str:
        return "\n".join([*self.sources, self.forward])


def _kernels(gm: GraphModule) -> GraphKernels:
    plan = plan_of(gm)
    if plan is None:
        return GraphKernels(0, [], gm.code)
    return GraphKernels(len(plan.kernels), [k.source for k in plan.kernels], plan.forward)


def _function(fn: Callable[..., Any]) -> tuple[types.FunctionType, tuple[Any, ...]]:
    """The Python function `fn` stands for (anything `tracer.compile` accepts: a function, a
    bound method, an nn.Module, a callable object), and the arguments a call passes before the
    caller's (the bound `self`, if any)."""
    target, bound = function_of(fn)
    return target, () if bound is UNBOUND else (bound,)


def explain(fn: Callable[..., Any], **options: Any) -> Callable[..., Explanation]:
    target, bound = _function(fn)
    checked = options_checked(options)

    def run(*args: Any, **kwargs: Any) -> Explanation:
        compiled = CompiledFunction(
            target, checked.compile, checked.recompile_limit, checked.on_recompile
        )
        # Resume functions are shared by every compile of a frame; fresh ones make this call
        # compile every frame it runs, as Dynamo's explain does after its reset(). Compiled
        # functions made before keep the resume functions they call.
        resume.clear()
        result = compiled(*bound, *args, **kwargs)
        entries = _all_entries(compiled)
        graphs = [e.graph for e in entries if e.graph is not None]
        return Explanation(
            graph_count=len(graphs),
            graphs=graphs,
            graph_break_count=sum(_breaks(e) for e in entries),
            break_reasons=[e.break_reason for e in entries if e.break_reason is not None],
            guards=[g for e in entries for g in e.guards],
            side_effects=[s for e in entries for s in e.side_effects],
            ops_per_graph=[_ops(g) for g in graphs],
            entries=entries,
            result=result,
            kernels_per_graph=[_kernels(g) for g in graphs],
        )

    return run


def _all_entries(compiled: CompiledFunction) -> list[CacheEntry]:
    """The entries of `compiled` and of every resume function its entries call, frame by
    frame in the order the breaks happen (a resume function's own breaks after it)."""
    found: list[CacheEntry] = []
    seen: set[int] = set()

    def visit(function: CompiledFunction) -> None:
        if id(function) in seen:
            return
        seen.add(id(function))
        for entry in reversed(function.entries):  # oldest first
            found.append(entry)
            if entry.callees is not None:  # the functions called at a break inside them
                for callee in list(entry.callees.compiled.values()):
                    visit(callee)
            for resume_function in entry.resumes:
                visit(resume_function)

    visit(compiled)
    return found


def _breaks(entry: CacheEntry) -> int:
    """The graph breaks of one entry, counted as Dynamo's explain counts them (the places the
    code leaves a graph): a break inside a function the frame inlined counts twice, as the
    code leaves the graph into the callee's own frame and leaves that again to resume."""
    if entry.break_reason is None:
        return 0
    return 2 if entry.callees is not None else 1


def _ops(gm: GraphModule) -> list[str]:
    return [
        target_name(n.target) for n in gm.graph.nodes if n.op in ("call_function", "call_method")
    ]


@dataclasses.dataclass
class TracedEntry:
    """The cache entry a call would create, with its checks bound to the function's signature."""

    entry: CacheEntry
    binder: Callable[..., dict[str, Any]]

    @property
    def guards(self) -> list[Any]:
        return list(self.entry.guard_manager.guards)

    @property
    def graph(self) -> GraphModule | None:
        return self.entry.graph

    @property
    def side_effects(self) -> list[str]:
        return self.entry.side_effects

    def check(self, *args: Any, **kwargs: Any) -> bool:
        return bool(self.entry.check(self.binder(*args, **kwargs)))

    def failure(self, *args: Any, **kwargs: Any) -> str | None:
        return self.entry.failure(self.binder(*args, **kwargs))

    def __repr__(self) -> str:
        return f"TracedEntry({self.entry!r})"


def trace(fn: Callable[..., Any], **options: Any) -> Callable[..., TracedEntry]:
    target, bound = _function(fn)
    checked = options_checked(options)

    def run(*args: Any, **kwargs: Any) -> TracedEntry:
        compiled = CompiledFunction(
            target, checked.compile, checked.recompile_limit, checked.on_recompile
        )
        frame_locals: Mapping[str, Any] = compiled._bind(*bound, *args, **kwargs)
        entry = compiled.compile_entry(dict(frame_locals), [])
        binder = make_binder(target)
        if bound:
            binder = functools.partial(binder, *bound)
        return TracedEntry(entry, binder)

    return run
