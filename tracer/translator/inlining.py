"""Inlining calls to Python functions: a child translator runs the callee's bytecode on the
caller's OutputGraph, so its tensor ops, guards and side effects join the same trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

# the package as a module, its class read at call time: the package imports translator.base,
# which imports this module
from tracer import translator
from tracer.exc import unimplemented
from variables.base import VariableTracker

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.functions import BaseUserFunctionVariable


def inline_call(
    parent: TranslatorBase,
    fn: BaseUserFunctionVariable,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """Run `fn(*args, **kwargs)` symbolically and return what it returns.

    Every inlined call comes through here (a helper in a loop, each comprehension), so the
    per-call work is kept to what depends on the call: the callee's instructions, line caches
    and parameter shape are worked out once per trace (OutputGraph.code_facts and
    parameter_shape), the depth limit is read once per trace."""
    output = parent.output
    if parent.depth >= output.inline_depth_limit:
        limit = output.inline_depth_limit
        unimplemented(
            "inline-depth",
            f"inlining {fn.get_name()} would pass the depth limit of {limit}",
            hints=("raise config inline_depth_limit, or avoid deep recursion",),
        )
    code, f_globals, bound, cells = fn.frame_inputs(parent, args, kwargs)
    child = translator.InliningInstructionTranslator(
        code, f_globals, bound, cells, output, parent, fn
    )
    if child.depth > output.inline_depth_max:
        output.note_inline_depth(child.depth)
    try:
        return child.run()
    finally:
        # the child set itself current when it started; a caller may catch a graph break
        # (getattr with a default) and go on tracing
        output.current_tx = parent
