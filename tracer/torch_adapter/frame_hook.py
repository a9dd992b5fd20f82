"""Dynamo's frame-evaluation hook (PEP 523), as a torch.compile call that raised leaves it.

Why modetrace cares. CPython 3.11+ runs a call of one Python function by another inside the
same evaluation loop, the callee's frame taking the arguments off the caller's stack, only
while no PEP 523 hook is installed. With one installed, the caller's stack keeps its references
to the arguments until the call returns. A compiled frame hands what it holds to its resume
function by such a call (notes/resume-functions.md), so an object the resume function drops
dies there, as in the original function, only while calls are inlined.

What Dynamo leaves behind (torch 2.13). `torch._C._dynamo.eval_frame.set_eval_frame(callback)`
keeps a count of the callbacks set (one a thread), and counts a change of the calling thread's
callback only from None to not None (up) or back (down); the hook is installed when the count
leaves 0 and removed when it comes back to 0. The hook itself sets the thread's callback
without counting: to None while it compiles a frame, and back once the frame's code is chosen.
When the compile raises, it leaves the callback None on purpose (Dynamo is off for the rest of
that torch.compile call). The `finally` of torch.compile's wrapper then sets None over None,
which counts nothing: the count stays one too high and the hook stays installed, with no
callback (it passes every frame to CPython's evaluator), for the rest of the process. A
torch.compile call that succeeds afterwards counts up and down and leaves it so.

`restoring_frame_evaluation()` notices that (calls were inlined before, not after) and counts
the leaked registration down through Dynamo's own entry point (`_count_down`), so the hook is
removed as Dynamo removes it, and Dynamo's count is right for its later calls.
"""

from __future__ import annotations

import contextlib
import warnings
import weakref
from collections.abc import Iterator
from typing import Any

from torch._C._dynamo import eval_frame as dynamo_c
from torch._dynamo.types import ConvertFrameReturn


class _Probe:
    """A fresh object whose only reference is the argument of one call."""


def _drops(arg: object) -> bool:
    ref = weakref.ref(arg)
    del arg
    return ref() is None


def calls_are_inlined() -> bool:
    """Does a call of one Python function by another leave the arguments to the callee alone?
    (False while a PEP 523 hook is installed: the caller's stack keeps the probe alive.)"""
    return _drops(_Probe())


@contextlib.contextmanager
def restoring_frame_evaluation() -> Iterator[None]:
    """Run a torch._dynamo call; if calls were inlined before it and are not after, Dynamo's
    hook was left installed (see the module docstring): count it down until they are again.
    A hook that was already there before is someone else's and is left alone."""
    inlined = calls_are_inlined()
    try:
        yield
    finally:
        # one torch.compile call leaves at most one count behind (its own `set_eval_frame`
        # is the only counted one); a few more tries cover a call that ran several
        for _ in range(4):
            if not inlined or calls_are_inlined():
                break
            _count_down()
        if inlined and not calls_are_inlined():
            warnings.warn(
                "torch._dynamo left its frame-evaluation hook installed and it could not be "
                "removed: Python calls are no longer inlined, so an object a compiled "
                "function's resume function drops stays alive until that function returns",
                RuntimeWarning,
                stacklevel=3,
            )


def _count_down() -> None:
    """One net count down of Dynamo's registrations, through `set_eval_frame` only.

    Counted: set `_skip_every_frame` (up), then `_release_once` sets None while the callback is
    False (down: False, run-only mode, is a callback). Not counted: the hook runs
    `_release_once` with its callees in run-only mode (its frame strategy, below), so it sets
    the callback False for it and, as `_release_once` returns, back to `_skip_every_frame`,
    and setting None after that counts down again. Up once, down twice. Where the count is
    already 0, Dynamo keeps it at 0."""
    dynamo_c.set_code_exec_strategy(
        _release_once.__code__,
        dynamo_c._FrameExecStrategy(dynamo_c._FrameAction.SKIP, dynamo_c._FrameAction.RUN_ONLY),
    )
    dynamo_c.set_eval_frame(_skip_every_frame)
    _release_once()
    dynamo_c.set_eval_frame(None)


def _release_once() -> None:
    dynamo_c.set_eval_frame(None)


def _skip_every_frame(frame: Any, cache_entry: Any, frame_state: Any) -> ConvertFrameReturn:
    """The callback while `_count_down` runs: should the hook be handed a frame then (a
    finalizer run by a collection), the frame runs as it is and nothing is compiled."""
    return ConvertFrameReturn(apply_to_code=False)
