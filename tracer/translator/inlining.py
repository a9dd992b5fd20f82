"""Inlining calls to Python functions: a child translator runs the callee's bytecode on the
caller's OutputGraph, so its tensor ops, guards and side effects join the same trace.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tracer import config, translator
from tracer.exc import unimplemented
from variables.base import VariableTracker

if TYPE_CHECKING:
    from tracer.translator.base import TranslatorBase
    from variables.functions import BaseUserFunctionVariable
    from variables.misc import CellVariable


def inline_call(
    parent: TranslatorBase,
    fn: BaseUserFunctionVariable,
    args: Sequence[VariableTracker],
    kwargs: dict[str, VariableTracker],
) -> VariableTracker:
    """Run `fn(*args, **kwargs)` symbolically and return what it returns."""
    output = parent.output
    limit = config.current().inline_depth_limit
    if parent.depth >= limit:
        unimplemented(
            "inline-depth",
            f"inlining {fn.get_name()} would pass the depth limit of {limit}",
            hints=("raise config inline_depth_limit, or avoid deep recursion",),
        )
    code, f_globals, bound, cells = fn.frame_inputs(parent, args, kwargs)
    if code.co_flags & inspect.CO_GENERATOR:
        return make_generator(parent, fn, code, f_globals, bound, cells)
    child = translator.InliningInstructionTranslator(
        code, f_globals, bound, cells, output, parent, fn
    )
    output.note_inline_depth(child.depth)
    try:
        return child.run()
    finally:
        # the child set itself current when it started; a caller may catch a graph break
        # (getattr with a default) and go on tracing
        output.current_tx = parent


def make_generator(
    parent: TranslatorBase,
    fn: BaseUserFunctionVariable,
    code: types.CodeType,
    f_globals: dict[str, Any],
    bound: dict[str, VariableTracker],
    cells: Sequence[CellVariable],
) -> VariableTracker:
    """Calling a generator function: its frame runs to RETURN_GENERATOR now, and on from
    there one `next` at a time (tracer/translator/generators.py)."""
    output = parent.output
    gen_frame = translator.InliningGeneratorInstructionTranslator(
        code, f_globals, bound, cells, output, parent, fn
    )
    output.note_inline_depth(gen_frame.depth)
    try:
        return gen_frame.start()
    finally:
        output.current_tx = parent
