"""Which compile is running on this thread: the id every metric, event and log line is tagged with.

The current id is thread-local, so two threads compiling at once never tag each other's records;
`compile_context` restores the previous id on exit, so nested compiles (a frame compiled while
another is being compiled) unwind correctly.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@dataclasses.dataclass(frozen=True, slots=True)
class CompileId:
    """One compile of one frame: `frame_id` counts frames, `frame_compile_id` counts recompiles.

    `attempt` counts restarts of the same compile (a restart re-traces after learning something).

    >>> str(CompileId(0, 1)), str(CompileId(0, 1, attempt=1))
    ('0/1', '0/1_1')
    """

    frame_id: int
    frame_compile_id: int
    attempt: int = 0

    def __str__(self) -> str:
        base = f"{self.frame_id}/{self.frame_compile_id}"
        return f"{base}_{self.attempt}" if self.attempt else base

    text: str = dataclasses.field(init=False, repr=False, compare=False)
    """`str(self)`, computed once at creation: every event and metric is tagged with it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", str(self))

    def with_attempt(self, attempt: int) -> CompileId:
        return dataclasses.replace(self, attempt=attempt)

    @property
    def key(self) -> str:
        """The id without the attempt: restarts of one compile share per-compile accumulators."""
        return f"{self.frame_id}/{self.frame_compile_id}"

    @classmethod
    def from_string(cls, text: str) -> CompileId:
        """Parse `str(cid)` back: '0/1' or '0/1_2'."""
        frame, _, rest = text.partition("/")
        compile_part, _, attempt = rest.partition("_")
        try:
            return cls(int(frame), int(compile_part), int(attempt or 0))
        except ValueError:
            expected = "expected like '0/1' or '0/1_2'"
            raise ValueError(f"not a compile id: {text!r} ({expected})") from None


class _Current(threading.local):
    compile_id: CompileId | None = None


_current = _Current()


def current_compile_id() -> CompileId | None:
    """The id of the compile running on this thread, or None outside any compile."""
    return _current.compile_id


@contextmanager
def compile_context(compile_id: CompileId) -> Iterator[CompileId]:
    """Make `compile_id` current on this thread for the body; the previous id comes back after."""
    saved = _current.compile_id
    _current.compile_id = compile_id
    try:
        yield compile_id
    finally:
        _current.compile_id = saved
