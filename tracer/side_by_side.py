"""`tracer.compare(fn)(*args)`: modetrace and torch._dynamo on the same call, side by side.

The comparison itself (tracer/torch_adapter/compare.py) imports torch; this entry point does not,
so `import tracer` works without torch and a call without it is a UserError saying so.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tracer.exc import UserError
from tracer.options import checked

if TYPE_CHECKING:
    from tracer.torch_adapter.compare import Comparison

NO_TORCH = "comparing with Dynamo needs PyTorch, which is not installed (pip install -e '.[torch]')"


def compare(fn: Callable[..., Any], **options: Any) -> Callable[..., Comparison]:
    """A callable that runs `fn` eagerly, through modetrace and through Dynamo, on copies of
    the same arguments, and returns a `Comparison` (print it for the two explains side by
    side). `options` go to modetrace's compile."""
    if importlib.util.find_spec("torch") is None:
        raise UserError(NO_TORCH)
    checked(options)  # (a bad one is the user's error here, not a "no" from modetrace's side)
    from tracer.torch_adapter.compare import compare as run_compare

    return run_compare(fn, **options)
