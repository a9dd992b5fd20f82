"""MetricsContext: the dict of metrics one compile fills in, recorded once when the compile ends.

Re-entrant: nested `with ctx:` blocks share one dict and only the outermost exit hands it on, so
helpers may enter the context without knowing whether their caller already did. `set` refuses to
overwrite silently and says where the earlier value came from.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Collection
from types import TracebackType
from typing import Any, Self

OnExit = Callable[
    [int, int, dict[str, Any], type[BaseException] | None, BaseException | None], object
]
"""(start_ns, end_ns, metrics, exc_type, exc_value), called once per outermost exit."""

_THIS_FILE = __file__


class _Site:
    """Where a metric was set, kept as (code, line) and formatted only for an error message."""

    __slots__ = ("code", "line")

    def __init__(self, code: Any, line: int) -> None:
        self.code = code
        self.line = line

    def __str__(self) -> str:
        return f"{self.code.co_filename}:{self.line}"


def _call_site() -> _Site:
    """The caller of the public method that set the metric (two frames up)."""
    frame = sys._getframe(2)
    return _Site(frame.f_code, frame.f_lineno)


class MetricsContext:
    """Metrics of the compile in progress on one thread.

    >>> seen = []
    >>> ctx = MetricsContext(lambda start, end, metrics, et, ev: seen.append(metrics))
    >>> with ctx:
    ...     ctx.set("co_name", "f")
    ...     with ctx:
    ...         ctx.increment("graph_break_count", 1)
    >>> seen
    [{'co_name': 'f', 'graph_break_count': 1}]
    """

    __slots__ = ("_fields", "_level", "_metrics", "_on_exit", "_set_at", "_start_ns")

    def __init__(self, on_exit: OnExit, fields: Collection[str] | None = None) -> None:
        self._on_exit = on_exit
        self._fields = frozenset(fields) if fields is not None else None
        self._metrics: dict[str, Any] = {}
        self._set_at: dict[str, _Site] = {}
        self._start_ns = 0
        self._level = 0

    def __repr__(self) -> str:
        return f"MetricsContext(level={self._level}, {self._metrics!r})"

    def __enter__(self) -> Self:
        if self._level == 0:
            self._metrics = {}
            self._set_at = {}
            self._start_ns = time.time_ns()
        self._level += 1
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        assert self._level > 0, "MetricsContext exited more often than entered"
        self._level -= 1
        if self._level == 0:
            self._on_exit(self._start_ns, time.time_ns(), self._metrics, exc_type, exc_value)

    def in_progress(self) -> bool:
        return self._level > 0

    def get(self, key: str, default: Any = None) -> Any:
        """Read a metric of the compile in progress (for code that decides from it)."""
        return self._metrics.get(key, default)

    def set(self, key: str, value: Any, overwrite: bool = False) -> None:
        """Set `key` once; a second set is a bug unless `overwrite=True` says it is intended."""
        self._check(key, "set")
        if key in self._metrics and not overwrite:
            raise RuntimeError(
                f"metric {key!r} was already set in this compile (at {self._where(key)}); "
                f"pass overwrite=True to replace it"
            )
        self._metrics[key] = value
        self._set_at[key] = _call_site()

    def update(self, values: dict[str, Any], overwrite: bool = False) -> None:
        """`set` for several keys at once; nothing is written if any key is refused."""
        for key in values:  # refused: the first key `set` would refuse
            self._check(key, "update")
        metrics = self._metrics
        if not overwrite and not metrics.keys().isdisjoint(values):
            clashes = [key for key in values if key in metrics]
            where = ", ".join(f"{key!r} at {self._where(key)}" for key in clashes)
            raise RuntimeError(
                f"metrics already set in this compile: {where}; pass overwrite=True to replace them"
            )
        metrics.update(values)
        site = _call_site()
        self._set_at.update(dict.fromkeys(values, site))

    def update_outer(self, values: dict[str, Any]) -> None:
        """`update`, but only from the outermost level; nested levels are silently skipped.

        Lets code that runs both as a whole compile and as part of a bigger one write its
        summary only when it is the whole compile.
        """
        if self._level == 0:
            raise RuntimeError(self._outside("update_outer", next(iter(values), "")))
        if self._level == 1:
            self.update(values)

    def increment(self, key: str, amount: float) -> None:
        """Add to a counter or a time column (`*_us`); missing counters start at 0."""
        self._check(key, "increment")
        if key not in self._metrics:
            self._metrics[key] = 0
            self._set_at[key] = _call_site()
        self._metrics[key] += amount

    def add_time(self, column: str, us: int) -> None:
        """`increment` for a timed phase's column (already validated by `timed`); nothing
        outside a compile, since a phase may run on its own (a backend called directly)."""
        if self._level:  # no call site kept: `_where` names the phase instead
            metrics = self._metrics
            metrics[column] = metrics.get(column, 0) + us

    def add_to_set(self, key: str, value: Any) -> None:
        """Collect distinct values (recorded as a sorted list)."""
        self._check(key, "add_to_set")
        if key not in self._metrics:
            self._metrics[key] = set()
            self._set_at[key] = _call_site()
        self._metrics[key].add(value)

    def set_key_value(self, key: str, subkey: str, value: Any) -> None:
        """Set one entry of a dict-valued metric; entries may be rewritten."""
        self._check(key, "set_key_value")
        if key not in self._metrics:
            self._metrics[key] = {}
            self._set_at[key] = _call_site()
        self._metrics[key][subkey] = value

    def _where(self, key: str) -> str:
        """Where `key` was first set, for an error message; `add_time` keeps no site, so a time
        column names the phase kind instead."""
        site = self._set_at.get(key)
        return "a timed phase's exit" if site is None else str(site)

    def _check(self, key: str, method: str) -> None:
        if self._level == 0:
            raise RuntimeError(self._outside(method, key))
        if self._fields is not None and key not in self._fields:
            raise ValueError(
                f"unknown metric {key!r}: not a CompilationMetrics field "
                "(add the field, with a docstring, in tracer/observability/metrics/compilation.py)"
            )

    @staticmethod
    def _outside(method: str, key: str) -> str:
        return (
            f"cannot {method} metric {key!r} outside of a MetricsContext; "
            "wrap the compile in `with metrics_context():`"
        )
