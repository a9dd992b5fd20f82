"""One compile: trace the frame, build guards, run the backend, generate code, and package
it all as a CacheEntry, every phase timed through the MetricsContext.

On `Unsupported` the frame falls back to the original function under the guards collected so
far (or re-raises under fullgraph=True). Any other exception is a modetrace bug and is raised
as InternalError, never silently turned into a fallback.
"""

from __future__ import annotations

import dataclasses
import time
import traceback
import types
from collections.abc import Callable
from typing import Any

import tracer.runtime
from guards.manager import CompiledGuards
from guards.mode_stack import mode_stack_guard
from guards.sources import ClosureSource, LocalSource, ModeStackSource
from tracer import torch_adapter, worlds
from tracer.backends import lookup_backend
from tracer.bytecode_versions import CALL_OPNAMES, OPERAND_BREAKS
from tracer.cache.entry import CacheEntry, _format_instr
from tracer.cache.resume import (
    DEFAULT_POLICY,
    CachePolicy,
    CalleeFrames,
    callee_frames,
    cells_used_after,
    cells_written_after,
    functions_made_again,
    kept_though_dead,
    live_locals,
    resume_function,
    why_not_resumable,
    with_contexts,
)
from tracer.codegen import assemble
from tracer.codegen.pycodegen import parameter_count
from tracer.codegen.resume import (
    PART_PREFIX,
    STACK_PREFIX,
    break_code,
    frame_name,
    jump_break_code,
    stack_nulls,
)
from tracer.config import CompileOptions
from tracer.exc import (
    BreakReason,
    BreakRequested,
    InternalError,
    Unsupported,
    UserError,
    UserLocation,
    unimplemented,
)
from tracer.graph import GraphModule, Node
from tracer.observability import logs, trace_log
from tracer.observability.compile_context import CompileId, compile_context
from tracer.observability.events import get_chromium_event_logger
from tracer.observability.metrics import (
    failure_metrics,
    get_metrics_context,
    metrics_context,
    timed,
)
from tracer.output_graph import OutputGraph
from tracer.translator import InstructionTranslator
from tracer.translator.names import builtins_of
from tracer.translator.trace_warnings import recording_warnings
from variables.base import VariableTracker
from variables.constant import is_constant_value
from variables.functions import NestedUserFunctionVariable
from variables.misc import OUTER_EXCEPTION, ChainedRaiseVariable, ExceptionVariable, NullVariable
from variables.sym import SymNumberVariable
from variables.tensor import TensorVariable


def convert_frame(
    fn: types.FunctionType,
    L: dict[str, Any],
    options: CompileOptions,
    compile_id: CompileId,
    recompile_reason: str | None = None,
    cache_size: int = 0,
    recompile_guard_failures: list[dict[str, Any]] | None = None,
    *,
    policy: CachePolicy = DEFAULT_POLICY,
) -> CacheEntry:
    """Compile `fn` for the bound arguments `L` (one cache entry); a recompile says why in
    words (`recompile_reason`) and in parts (`recompile_guard_failures`). `policy` is the
    recompile limit and mode of `fn`'s cache, which its resume functions inherit."""
    code = fn.__code__
    trace_log.reset_overhead(compile_id)
    with compile_context(compile_id), metrics_context() as metrics:
        metrics.update(
            {
                "co_name": frame_name(code),
                "co_filename": code.co_filename,
                "co_firstlineno": code.co_firstlineno,
                "frame_key": str(compile_id.frame_id),
                "cache_size": cache_size,
                "is_forward": True,
            }
        )
        if recompile_reason is not None:  # a first compile leaves them unset (None)
            metrics.update(
                {
                    "recompile_reason": recompile_reason,
                    "recompile_guard_failures": recompile_guard_failures,
                }
            )
        if trace_log._active:  # what trace_structured asks first: no closure made when off
            trace_log.trace_structured(
                "dynamo_start",
                lambda: {"stack": trace_log.user_stack_to_json([_frame_summary(fn)])},
            )
            if recompile_reason is not None:  # as Dynamo logs it: tlparse shows it per compile
                trace_log.trace_artifact("recompile_reasons", "json", lambda: recompile_reason)
        with timed(
            "compile",
            phase_name="entire_frame_compile",
            metrics_column="entire_frame_compile_time_us",
            log_compile_event=True,
        ):
            return _compile(fn, L, options, compile_id, policy)


def _root_lineno(output: OutputGraph) -> int | None:
    """The line the compiled function's own frame was at when tracing stopped."""
    tx = output.current_tx
    while tx is not None and tx.parent is not None:
        tx = tx.parent
    if tx is None or tx.current_inst is None:
        return None
    return tx.current_inst.lineno


def _frame_summary(fn: types.FunctionType) -> Any:
    code = fn.__code__
    return traceback.FrameSummary(code.co_filename, code.co_firstlineno, code.co_name)


def _compile(
    fn: types.FunctionType,
    L: dict[str, Any],
    options: CompileOptions,
    compile_id: CompileId,
    policy: CachePolicy,
) -> CacheEntry:
    with worlds.using(_world_for(fn, L)):
        output = OutputGraph(fn.__globals__, options)
        try:
            return _compile_with(fn, L, options, compile_id, output, policy)
        finally:
            output.release()


def _compile_with(
    fn: types.FunctionType,
    L: dict[str, Any],
    options: CompileOptions,
    compile_id: CompileId,
    output: OutputGraph,
    policy: CachePolicy,
) -> CacheEntry:
    raised: VariableTracker | None = None
    return_vt: VariableTracker | None = None
    try:
        with timed(
            "bytecode_tracing", metrics_column="bytecode_tracing_time_us", log_compile_event=True
        ):
            try:
                return_vt = _trace(fn, L, output)
            except Unsupported as e:
                raised = _compilable_raise(e)
                if raised is None:
                    raise
                _finish_trace(output)
            finally:
                output.restore_grad_mode()  # the trace set it for real as it went
    except Unsupported as e:
        try:
            return _break(fn, L, output, options, compile_id, e, policy)
        except RecursionError:  # (rebuilding a deeply nested object the trace made)
            return _fall_back(fn, output, options, compile_id, _too_deep())
    except RecursionError:
        # the tracer's own recursion went past Python's limit (folding a deeply nested
        # constant, inlining at a deep point of the user's stack): the frame runs eagerly,
        # which raises the RecursionError plain Python raises, where it raises it, or none
        return _fall_back(fn, output, options, compile_id, _too_deep())
    except (InternalError, BreakRequested, UserError):
        raise

    except Exception as e:
        where = output.current_tx.location() if output.current_tx else None
        raise InternalError(
            f"modetrace failed while tracing {fn.__qualname__} at {where}: {e!r}"
        ) from e

    try:
        return _finish_compile(fn, output, options, compile_id, return_vt, raised)
    except Unsupported as e:  # something the trace made can't be rebuilt in bytecode
        return _fall_back(fn, output, options, compile_id, e)
    except RecursionError:  # (rebuilding a deeply nested object the trace made)
        return _fall_back(fn, output, options, compile_id, _too_deep())


def _world_for(fn: types.FunctionType, L: dict[str, Any]) -> worlds.TensorWorld:
    """The tensor world of one trace of `fn` on `L` (torch's, with fake tensors of its own,
    when torch is involved)."""
    return torch_adapter.world_for(fn, L) or worlds.runtime_world()


def _too_deep() -> Unsupported:
    """The tracer's own recursion went past Python's limit, tracing or rebuilding what the
    trace made (a list of 1,000 nested lists): the frame runs eagerly."""
    return Unsupported(BreakReason("recursion", "tracing went past Python's recursion limit"))


def _break(
    fn: types.FunctionType,
    L: dict[str, Any],
    output: OutputGraph,
    options: CompileOptions,
    compile_id: CompileId,
    e: Unsupported,
    policy: CachePolicy,
) -> CacheEntry:
    """A graph break: resume after it where that is possible (a partial graph, the break run
    eagerly, a resume function for the rest), else the whole frame runs eagerly."""
    if options.fullgraph:
        return _fall_back(fn, output, options, compile_id, e)  # raises e
    reason = why_not_resumable(fn, e)
    if reason is None and output.classes_made:
        # the class is new on every call: a resume function handed it (or an instance of it)
        # would be guarded on it and recompile on every call
        reason = dataclasses.replace(
            e.reason,
            explanation=f"{e.reason.explanation} (the frame does not resume: it defined a "
            "class, which a resume function would be guarded on)",
        )
    if reason is not None:
        if reason is not e.reason:
            e = Unsupported(reason, e.user_exception)
        return _fall_back(fn, output, options, compile_id, e)
    # a world of its own: the first trace's fake tensors carry what it did to them
    # (`x.requires_grad_()`, `x.t_()`), which the second must not see at its start
    with worlds.using(_world_for(fn, L)):
        entry = _compile_partial(fn, L, options, compile_id, e, policy)
    if isinstance(entry, Unsupported):
        return _fall_back(fn, output, options, compile_id, entry)
    return entry


def _compile_partial(
    fn: types.FunctionType,
    L: dict[str, Any],
    options: CompileOptions,
    compile_id: CompileId,
    e: Unsupported,
    policy: CachePolicy,
) -> CacheEntry | Unsupported:
    """Trace `fn` again up to the breaking CALL (the first trace ran into the call and left
    its state half-changed) and compile that prefix; else the break the frame falls back with:
    `e` when the second trace did not reach the break, why a `with` block around the break
    can't be restored, or `e` saying why the live state can't be rebuilt (a function defined
    in the trace, say)."""
    index = e.break_index
    assert index is not None
    output = OutputGraph(fn.__globals__, options)
    try:
        tx = _start(fn, L, output)
        with recording_warnings(output.trace_warnings):
            tx.run_until(index)
        output.restore_grad_mode()
        if tx.returned:
            return e
        stack = list(tx.stack)
        inst = tx.instructions[index]
        try:
            with_blocks = with_contexts(fn.__code__, inst.offset, stack, e)
        except Unsupported as not_restored:
            return not_restored
        _finish_trace(output)
        # the resume function (one for each way of a jump) gets the bound locals live there
        starts = [index + 1] if inst.target is None else [index + 1, inst.target]
        operands = OPERAND_BREAKS.get(inst.opname)
        if inst.opname in CALL_OPNAMES:  # under the call's NULL/callable slots and arguments
            # (3.13's CALL_KW: and the keyword names tuple on top)
            kept_stack = stack[: len(stack) - (inst.arg or 0) - 2 - (inst.opname == "CALL_KW")]
        elif operands is not None:  # under the instruction's operands (`x`, `i` of `x[i]`)
            kept_stack = stack[: len(stack) - operands[0]]
        else:  # a jump: under the condition
            kept_stack = stack[:-1]
        call_args = stack[len(kept_stack) :] if inst.target is None else []
        live = live_locals(fn.__code__, starts)
        names = [
            name
            for name in fn.__code__.co_varnames
            if name in tx.symbolic_locals
            and (name in live or kept_though_dead(tx.symbolic_locals[name], call_args))
            and not name.startswith(STACK_PREFIX)
        ]  # a resume function's stack parameters are dead once its prologue has run
        local_values = [tx.symbolic_locals[name] for name in names]
        # a function defined in the frame and live in a local or in a slot of the stack
        # under the break is made again by the resume function, over its own cells: it gets
        # the function's parts instead
        slots = [
            (f"{STACK_PREFIX}{i}", vt)
            for i, vt in enumerate(kept_stack)
            if not isinstance(vt, NullVariable)
        ]
        made_again = functions_made_again(fn.__code__, tx.cells, names, local_values, slots)
        names, local_values = made_again.names, made_again.values
        # the frame's own cells with a value, if used after the break (or closed over by a
        # function made again), are passed by value too: the resume function makes its own
        # cells from them (MAKE_CELL of a parameter; an empty one for the others). A function
        # defined in the trace and called at the break is made again by the compiled code,
        # over cells made there with the same values, which is the same while neither is
        # written: those the resume function may write it can't close over (`unshared`)
        used_cells = cells_used_after(fn.__code__, starts) | made_again.cells
        for name in fn.__code__.co_cellvars:
            contents = tx.cells[name].contents if name in tx.cells else None
            if contents is not None and name in used_cells:
                names.append(name)
                local_values.append(contents)
        unshared = {
            id(tx.cells[name]): name
            for name in cells_written_after(fn.__code__, starts)
            if name in tx.cells
        }
        again = made_again.again
        graph_outputs = _graph_outputs([*stack, *local_values], output)
        gm, graph_inputs, graph_fn = _compile_graph(output, graph_outputs, options)
        replay = output.side_effects.codegen_replay
        callees: CalleeFrames | None = None
        with timed("codegen", metrics_column="codegen_time_us", log_compile_event=True):
            if inst.target is None:  # the call (or operation) runs eagerly; its result, if
                # any, is on the stack
                kw_names = tx.kw_names
                if inst.opname == "CALL_KW":  # 3.13: the keyword names are on top of the stack
                    kw_names, stack = tuple(stack[-1].as_python_constant()), stack[:-1]
                # the result replaces the call's NULL/callable slots and arguments, or the
                # operands (`x[i] = v` leaves none)
                pushes = 1 if operands is None else operands[1]
                after = (*stack_nulls(kept_stack), *[False] * pushes)
                resumes: tuple[Any, ...] = (
                    resume_function(fn, index + 1, after, names, options, policy, index, again),
                )
                # a break inside the function this call inlined: it runs as its own frame (a
                # special method an operation inlined, `__getitem__` of `box[i]`, runs eagerly)
                in_a_call = e.in_callee and operands is None
                callees = callee_frames(options, policy) if in_a_call else None
                # the parameters the trace deleted: the original frame holds them no more (a
                # resume function's parts of a function it made again are not: its prologue
                # deleted them, and they are read to be handed on; the function holds them too)
                unbound = [
                    name
                    for name in fn.__code__.co_varnames[: parameter_count(fn.__code__)]
                    if name not in tx.symbolic_locals
                    and not name.startswith((STACK_PREFIX, PART_PREFIX))
                    and name not in fn.__code__.co_cellvars  # its cell: passed by value above
                ]
                new_code, instructions = break_code(
                    fn.__code__, index, kw_names, graph_fn, graph_inputs, graph_outputs,
                    stack, local_values, resumes[0], replay, callees, with_blocks, unbound,
                    unshared, made_again.made,
                )  # fmt: skip
            else:  # a jump on a tensor: one resume function for each way
                assert inst.target is not None
                below = stack_nulls(kept_stack)
                ways = (
                    resume_function(fn, index + 1, below, names, options, policy, index, again),
                    resume_function(fn, inst.target, below, names, options, policy, index, again),
                )
                resumes = ways
                new_code, instructions = jump_break_code(
                    fn.__code__, index, graph_fn, graph_inputs, graph_outputs, stack,
                    local_values, ways, replay, with_blocks, made_again.made,
                )  # fmt: skip
            compiled = types.FunctionType(
                new_code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
            )
            compiled.__kwdefaults__ = fn.__kwdefaults__
        guards = _build_guards(fn, output, compile_id)
        side_effects = output.side_effects.describe()
        traced = output.instruction_count
        inline_depth = output.inline_depth_max
    except Unsupported as why:  # the break's reason, and why it can't resume
        reason = dataclasses.replace(
            e.reason,
            explanation=f"{e.reason.explanation} (the frame does not resume: "
            f"{why.reason.explanation})",
        )
        return Unsupported(reason, e.user_exception)
    finally:
        output.release()
    _log_break(e, compile_id)
    get_metrics_context().update(
        {
            "graph_op_count": _op_count(gm),
            "graph_node_count": len(gm.graph.nodes) if gm is not None else 0,
            "graph_input_count": len(graph_inputs),
            "traced_instruction_count": traced,
            "inline_depth_max": inline_depth,
            "has_guarded_code": True,
            "guard_count": len(guards.guards),
            "graph_break_count": 1,
            "graph_break_reasons": [str(e.reason)],
        },
        overwrite=True,
    )
    _log_compiled(gm, guards, instructions, side_effects)
    return CacheEntry(
        compiled, compile_id, guards, gm, side_effects, instructions, break_reason=e.reason,
        traced_instructions=traced, resumes=resumes, callees=callees,
    )  # fmt: skip


def _fall_back(
    fn: types.FunctionType,
    output: OutputGraph,
    options: CompileOptions,
    compile_id: CompileId,
    e: Unsupported,
) -> CacheEntry:
    """The frame runs as plain Python under the guards collected so far (or, fullgraph, the
    break is the user's error)."""
    metrics = get_metrics_context()
    metrics.update(
        {
            "traced_instruction_count": output.instruction_count,
            "graph_break_count": 1,
            "graph_break_reasons": [str(e.reason)],
        },
        overwrite=True,
    )
    _log_break(e, compile_id)
    if options.fullgraph:
        raise e
    metrics.update(failure_metrics(e), overwrite=True)
    metrics.set("has_guarded_code", False, overwrite=True)
    guards = _build_guards(fn, output, compile_id)
    metrics.update({"guard_count": len(guards.guards)})
    if logs.enabled("guards"):
        logs.get_logger("guards").info("%s", guards)
    return CacheEntry(
        fn, compile_id, guards, break_reason=e.reason,
        traced_instructions=output.instruction_count,
    )  # fmt: skip


def _finish_compile(
    fn: types.FunctionType,
    output: OutputGraph,
    options: CompileOptions,
    compile_id: CompileId,
    return_vt: VariableTracker | None,
    raised: VariableTracker | None,
) -> CacheEntry:
    metrics = get_metrics_context()
    result = return_vt if return_vt is not None else raised
    assert result is not None
    graph_outputs = _graph_outputs([result], output)
    gm, graph_inputs, graph_fn = _compile_graph(output, graph_outputs, options)
    with timed("codegen", metrics_column="codegen_time_us", log_compile_event=True):
        new_code, instructions = assemble(
            fn.__code__, graph_fn, graph_inputs, graph_outputs, return_vt,
            output.side_effects.codegen_replay, raised, _root_lineno(output),
        )  # fmt: skip
        compiled = types.FunctionType(
            new_code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
        )
        compiled.__kwdefaults__ = fn.__kwdefaults__
    guards = _build_guards(fn, output, compile_id)
    side_effects = output.side_effects.describe()
    metrics.update(
        {
            "graph_op_count": _op_count(gm),
            "graph_node_count": len(gm.graph.nodes) if gm is not None else 0,
            "graph_input_count": len(graph_inputs),
            "traced_instruction_count": output.instruction_count,
            "inline_depth_max": output.inline_depth_max,
            "has_guarded_code": True,
            "guard_count": len(guards.guards),
        }
    )
    _log_compiled(gm, guards, instructions, side_effects)
    return CacheEntry(
        compiled, compile_id, guards, gm, side_effects, instructions,
        traced_instructions=output.instruction_count,
    )  # fmt: skip


def _trace(fn: types.FunctionType, L: dict[str, Any], output: OutputGraph) -> VariableTracker:
    with recording_warnings(output.trace_warnings):
        return_vt = _start(fn, L, output).run()
    _finish_trace(output)
    return return_vt


def _start(fn: types.FunctionType, L: dict[str, Any], output: OutputGraph) -> InstructionTranslator:
    """The translator of `fn`'s frame with the arguments `L`, ready to run."""
    code = fn.__code__
    symbolic_locals: dict[str, VariableTracker] = {
        name: output.builder.lazy(value, LocalSource(name)) for name, value in L.items()
    }
    closure = [
        output.side_effects.existing_cell(cell, ClosureSource(name, i))
        for i, (name, cell) in enumerate(zip(code.co_freevars, fn.__closure__ or (), strict=False))
    ]
    tx = InstructionTranslator(code, fn.__globals__, symbolic_locals, closure, output)
    _seed_mode_stack(fn, output)
    return tx


def _finish_trace(output: OutputGraph) -> None:
    """What every completed trace records last: the mode stack's final state, aliasing guards
    (of mutated objects, and of tensor inputs an in-place op wrote). A `torch.autocast` or
    `torch.inference_mode` block left open (entered by hand) is not rebuilt: the frame runs
    eagerly."""
    if output.state_blocks:
        unimplemented(
            "state-context",
            f"a {output.state_blocks[-1].kind.enter.__name__} block is still open where the "
            "graph ends",
        )
    if output.mode_stack_changed():
        output.side_effects.mode_stack_changed(list(output.mode_stack))
    output.side_effects.install_aliasing_guards()
    output.install_tensor_aliasing_guards()


def _compilable_raise(e: Unsupported) -> VariableTracker | None:
    """The exception the compiled code raises itself, when the trace ended in a user exception
    that no `try`/`with` of the traced frames could see, and that can be rebuilt exactly."""
    error = e.user_exception
    if error is None or not e.compilable_raise or isinstance(error, StopIteration):
        return None
    raised = e.exception_vt
    if isinstance(raised, ExceptionVariable) and (
        raised.cause is not None
        or raised.suppress_context
        or raised.context not in (None, OUTER_EXCEPTION)
    ):
        # chained to exceptions of the trace: raised again in a chain, or Python raises it
        return ChainedRaiseVariable.of(raised)
    if not all(is_constant_value(arg) for arg in error.args):
        return None
    try:
        rebuilt = type(error)(*error.args)
    except Exception:  # noqa: BLE001 - can't be rebuilt from its args: let Python raise it
        return None
    if str(rebuilt) != str(error):
        return None
    return ExceptionVariable(type(error), error.args)


def _seed_mode_stack(fn: types.FunctionType, output: OutputGraph) -> None:
    """Read the real stack into the symbolic one and guard its length and mode types (and
    the global state the tensor world's traces rely on)."""
    modes = list(output.world.mode_stack())
    output.initial_mode_stack = [
        output.builder.lazy(mode, ModeStackSource(i)) for i, mode in enumerate(modes)
    ]
    output.mode_stack = list(output.initial_mode_stack)
    guard = mode_stack_guard(modes, location_of(fn))
    output.guards.setdefault(guard, guard)
    for guard in output.world.global_state_guards():
        output.guards.setdefault(guard, guard)


def _graph_outputs(results: list[VariableTracker], output: OutputGraph) -> list[Node]:
    """Tensors computed by the graph that the results or the side effects need, in first-use
    order (graph inputs are reloaded from their sources, so identity is preserved), and the
    nodes that write a tensor (an in-place op: its effect must run even when nothing reads it),
    that may raise, or that change grad mode for good."""
    # (an assignment into a tensor, `x[i] = v`, returns None: not an output, but it runs all
    # the same, as every node that writes a tensor does: no graph pass drops one)
    writes = [node for node in output.mutating_nodes if node.meta["val"] is not None]
    needed: dict[Node, None] = dict.fromkeys([*writes, *output.raising_nodes])
    seen: set[int] = set()
    # A worklist, not a recursive closure: a closure that calls itself is a reference cycle,
    # left for the garbage collector after every compile.
    pending: list[Any] = [*reversed(output.side_effects.values_to_rebuild()), *reversed(results)]
    while pending:
        vt = pending.pop()
        if id(vt) in seen:
            continue
        seen.add(id(vt))
        vt = vt.realize() if getattr(vt, "is_realized", True) else vt
        if isinstance(vt, TensorVariable | SymNumberVariable):
            if vt.source is None:
                needed.setdefault(vt.node)
            continue
        pending.extend(reversed(_children(vt)))
    # So is a grad mode the frame leaves changed (`torch.set_grad_enabled(False)` outside a
    # `with`): the last change is an output, so a graph with nothing else to return still runs.
    if output.grad_enabled != output.initial_grad_enabled:
        assert output.last_grad_mode_node is not None
        needed.setdefault(output.last_grad_mode_node)
    return list(needed)


def _children(vt: Any) -> list[Any]:
    if isinstance(vt, NestedUserFunctionVariable):  # what the compiled code makes it again of
        cells = [cell.contents for cell in vt.closure if cell.contents is not None]
        return [*vt.defaults, *vt.kwdefaults.values(), *cells]
    items = getattr(vt, "items", None)
    if isinstance(items, list):
        return items
    if isinstance(items, dict):
        return list(items.values())
    attrs = getattr(vt, "attrs", None)
    if isinstance(attrs, dict):
        return list(attrs.values())
    obj = getattr(vt, "obj", None)  # an attribute of a value, `t.item` on a graph break's stack
    if isinstance(obj, VariableTracker):
        return [obj]
    return []


def _compile_graph(
    output: OutputGraph, graph_outputs: list[Node], options: CompileOptions
) -> tuple[GraphModule | None, list[Any], Callable[..., Any] | None]:
    graph = output.graph
    # As Dynamo: a graph is compiled and called when it calls anything, even when nothing it
    # computes is needed afterwards (`torch.cat(xs).shape`): its ops run, and the call's empty
    # result is dropped. A graph of placeholders alone is not made.
    if not graph_outputs and not any(node.op in _CALL_OPS for node in graph.nodes):
        return None, [], None
    graph.output(tuple(graph_outputs))
    unused = [node for node in graph.placeholders if not node.users]
    for node in unused:
        graph.erase_node(node)
    # The graph's placeholders are exactly the nodes of `graph_inputs` (OutputGraph makes both
    # at once), so the inputs are those not just erased: usually all of them, as they are.
    inputs = output.graph_inputs
    if unused:
        erased = set(unused)
        inputs = [(src, node) for src, node in inputs if node not in erased]
    gm = GraphModule(graph)
    example_inputs = [node.meta.get("val") for _src, node in inputs]
    with timed("backend_compile", metrics_column="backend_compile_time_us", log_compile_event=True):
        graph_fn = lookup_backend(options.backend)(gm, example_inputs)
        if not callable(graph_fn):
            name = getattr(options.backend, "__name__", repr(options.backend))
            raise UserError(
                f"backend {name} returned {type(graph_fn).__name__}, not a callable: a backend "
                "returns the function that runs the graph (the GraphModule itself will do)"
            )
        if graph_fn is gm:
            # NOTE [generated on first use]: generate it here, inside backend_compile, not on
            # the first run of the compiled code.
            gm.forward  # noqa: B018
        graph_fn = output.world.wrap_graph(graph_fn)
    return gm, [src for src, _node in inputs], graph_fn


def _build_guards(
    fn: types.FunctionType, output: OutputGraph, compile_id: CompileId
) -> CompiledGuards:
    with timed("build_guards", metrics_column="build_guards_time_us", log_compile_event=True):
        guards = CompiledGuards(
            output.all_guards(),
            f_globals=fn.__globals__,
            builtins=builtins_of(fn.__globals__),
            closure=fn.__closure__,
            mode_stack_fn=output.world.mode_stack,
            mode_stack_len_fn=output.world.mode_stack_len,
            name=f"___check_{compile_id.frame_id}_{compile_id.frame_compile_id}",
            tensor_type=tracer.runtime.Tensor,
            distinct=True,  # keyed by guard, and one DICT_NOT_CONTAINS per dict: one per key
        )
        # rendered and compiled here, as Dynamo builds its guard tree within its compile: the
        # compile's record times it, and the first call that hits the entry does not
        guards.check  # noqa: B018
    return guards


_CALL_OPS = frozenset({"call_function", "call_method"})


def _op_count(gm: GraphModule | None) -> int:
    if gm is None:
        return 0
    return sum(node.op in ("call_function", "call_method") for node in gm.graph.nodes)


def _log_break(e: Unsupported, compile_id: CompileId) -> None:
    get_chromium_event_logger().log_instant_event(
        "graph_break", time.time_ns(), {"reason": str(e.reason), "compile_id": str(compile_id)}
    )
    if logs.enabled("graph_breaks"):
        logs.get_logger("graph_breaks").info("Graph break in %s: %s", compile_id, e.reason)
    trace_log.trace_artifact("graph_break", "string", lambda: str(e.reason))


def _log_compiled(
    gm: GraphModule | None, guards: CompiledGuards, instructions: list[Any], side_effects: list[str]
) -> None:
    if not trace_log._active and not logs._enabled:  # nothing logs: no closures, no calls
        return

    def graph_text() -> str:  # rendered only when logged
        return gm.code if gm is not None else "(no graph)"

    trace_log.trace_structured("dynamo_output_graph", payload=graph_text)
    trace_log.trace_structured("dynamo_cpp_guards_str", payload=lambda: str(guards))
    trace_log.trace_artifact("side_effects", "string", lambda: "\n".join(side_effects) or "(none)")

    def listing() -> str:
        return "\n".join(_format_instr(i) for i in instructions)

    trace_log.trace_artifact("modetrace_generated_bytecode", "string", listing)
    if logs.enabled("bytecode"):
        logs.get_logger("bytecode").info("generated bytecode:\n%s", listing())
    if logs.enabled("graph_code"):
        logs.get_logger("graph_code").info("%s", graph_text())
    if logs.enabled("guards"):
        logs.get_logger("guards").info("%s", guards)
    if logs.enabled("side_effects") and side_effects:
        logs.get_logger("side_effects").info("%s", "\n".join(side_effects))


def location_of(fn: types.FunctionType) -> UserLocation:
    """The `def` line (past any decorators): the line of the first instruction that has one
    (the prologue, RESUME and what precedes it, carries the `def` line, the smallest line)."""
    code = fn.__code__
    lines = (line for _start, _end, line in code.co_lines() if line is not None)
    return UserLocation.at(code.co_filename, next(lines, code.co_firstlineno), code.co_name)
