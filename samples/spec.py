"""`Sample`: one gallery entry, the function plus the inputs it is called with.

A sample is a plain function written like torch code against `tracer.runtime`; each samples
module lists its `Sample`s at the bottom, with the inputs and how the gallery exercises it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

Inputs = Callable[[], tuple[Any, ...]]


@dataclasses.dataclass(frozen=True)
class Sample:
    """`Sample('mutated input list')`: what one gallery entry runs and what it shows.

    `inputs` builds fresh positional arguments for each call. `then_call_with` makes a second
    call (a recompile when its guards fail); `failure_with` asks `tracer.trace(fn)(*inputs)`
    which guard other inputs would fail; `active_mode` is a context manager active around every
    call; `after` describes state the call changed (a mutated input, a global).
    """

    name: str
    shows: str
    fn: Callable[..., Any]
    inputs: Inputs
    then_call_with: Inputs | None = None
    failure_with: Inputs | None = None
    active_mode: Callable[[], AbstractContextManager[Any]] | None = None
    after: Callable[[tuple[Any, ...]], str] | None = None
    also_show: tuple[Any, ...] = ()
    """Classes or functions whose source is printed before the sample's own."""

    def __repr__(self) -> str:
        return f"Sample({self.name!r})"
