"""Inlining calls to Python functions: a child translator runs the callee's bytecode on the
caller's OutputGraph, so its tensor ops, guards and side effects join the same trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tracer import config
from tracer.exc import Unsupported, unimplemented
from tracer.translator import InliningInstructionTranslator
from variables.base import VariableTracker
from variables.functions import check_code_supported

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.functions import BaseUserFunctionVariable


def inline_call(
    parent: TranslatorBase,
    fn: BaseUserFunctionVariable,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """Run `fn(*args, **kwargs)` symbolically and return what it returns."""
    limit = config.current().inline_depth_limit
    if parent.depth >= limit:
        unimplemented(
            "inline-depth",
            f"inlining {fn.get_name()} would pass the depth limit of {limit}",
            hints=("raise config inline_depth_limit, or avoid deep recursion",),
        )
    code = fn.get_code()
    check_code_supported(code, fn)
    output = parent.output
    child = InliningInstructionTranslator(
        code,
        fn.get_globals(),
        fn.bind_args(parent, args, kwargs),
        fn.closure_cells(parent),
        output,
        parent,
        fn,
    )
    if child.depth > output.inline_depth_max:
        output.note_inline_depth(child.depth)
    try:
        result = child.run()
    except Unsupported:
        # a caller may catch it (getattr with a default) and go on tracing
        output.current_tx = parent
        raise
    output.current_tx = parent  # the child set itself current when it started
    return result
