"""Which compile is running on this thread: the id every metric, event and log line is tagged with.

The current id is thread-local, so two threads compiling at once never tag each other's records;
`compile_context` restores the previous id on exit, so nested compiles (a frame compiled while
another is being compiled) unwind correctly.
"""

from __future__ import annotations

import dataclasses
import threading
from types import TracebackType


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
    text: str = dataclasses.field(init=False, repr=False, compare=False)
    """`str(self)`, computed once at creation: every event and metric is tagged with it."""

    def __post_init__(self) -> None:
        base = f"{self.frame_id}/{self.frame_compile_id}"
        object.__setattr__(self, "text", f"{base}_{self.attempt}" if self.attempt else base)

    def __str__(self) -> str:
        return self.text

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


_NO_TAG: dict[str, str] = {}


class _Current(threading.local):
    """This thread's compile: its id and its tag, set only by `compile_context` (read them through
    the functions below, or `current.tag` as timed phases do)."""

    compile_id: CompileId | None = None
    tag: dict[str, str] = _NO_TAG

    def __repr__(self) -> str:
        return f"current({self.compile_id})"


current = _Current()


def current_compile_id() -> CompileId | None:
    """The id of the compile running on this thread, or None outside any compile."""
    return current.compile_id


def current_tag() -> dict[str, str]:
    """`{"compile_id": text}` for the compile running on this thread, `{}` outside any compile.

    One dict per `compile_context`, shared by every event that carries no other arguments (about
    seven spans per compile): callers read it or copy it and never write to it.
    """
    return current.tag


class compile_context:  # lower-case: used like a function (as contextlib's are)
    """Make `compile_id` current on this thread for the body; the previous id comes back after.

    One instance may be entered again once exited, but not while it is entered."""

    __slots__ = ("_compile_id", "_saved")

    def __init__(self, compile_id: CompileId) -> None:
        self._compile_id = compile_id
        self._saved: tuple[CompileId | None, dict[str, str]] | None = None

    def __enter__(self) -> CompileId:
        if self._saved is not None:
            raise RuntimeError("this compile_context is already entered (make one per `with`)")
        compile_id = self._compile_id
        state = current
        self._saved = state.compile_id, state.tag
        state.compile_id, state.tag = compile_id, {"compile_id": compile_id.text}
        return compile_id

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        saved = self._saved
        assert saved is not None, "compile_context exited before it was entered"
        current.compile_id, current.tag = saved
        self._saved = None
