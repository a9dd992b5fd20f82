"""Debug logging by topic: `MODETRACE_LOGS=recompiles,graph_breaks` turns topics on, nothing else.

One standard-library logger per topic, `modetrace.<topic>`, printing `[modetrace.<topic>] message`
to stderr. Topics are switches, not levels: a topic is on or off. `enabled(topic)` is one set
lookup, so call sites can skip building expensive messages (bytecode dumps, graph code) when off.
"""

from __future__ import annotations

import logging
import os
import sys
import warnings
from typing import TextIO

TOPICS = (
    "recompiles",
    "graph_breaks",
    "guards",
    "bytecode",
    "graph_code",
    "side_effects",
    "trace_bytecode",
    "output_code",
)
"""Every topic; `all` in MODETRACE_LOGS means all of them."""
ENV_VAR = "MODETRACE_LOGS"
_OFF = logging.CRITICAL + 1


class _StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever `sys.stderr` is at emit time (so pytest's capture sees the lines)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


_handler = _StderrHandler()
_handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
_loggers = {topic: logging.getLogger(f"modetrace.{topic}") for topic in TOPICS}
for _logger in _loggers.values():
    _logger.addHandler(_handler)
    _logger.propagate = False
    _logger.setLevel(_OFF)
_enabled: frozenset[str] = frozenset()


def parse_topics(spec: str) -> tuple[str, ...]:
    """`"recompiles, guards"` -> ("recompiles", "guards"); `all` expands; unknown names raise."""
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if "all" in names:
        return TOPICS
    unknown = [name for name in names if name not in _loggers]
    if unknown:
        raise ValueError(
            f"unknown {ENV_VAR} topic(s) {', '.join(map(repr, unknown))}; "
            f"valid topics: {', '.join(TOPICS)} (or all)"
        )
    return tuple(dict.fromkeys(names))


def set_logs(*topics: str) -> None:
    """Turn exactly these topics on (all others off); `set_logs()` turns everything off."""
    global _enabled
    chosen = parse_topics(",".join(topics))
    for topic, logger in _loggers.items():
        logger.setLevel(logging.DEBUG if topic in chosen else _OFF)
    _enabled = frozenset(chosen)


def enabled(topic: str) -> bool:
    """Is `topic` on? A misspelt topic raises instead of staying off."""
    if topic in _enabled:
        return True
    if topic not in _loggers:
        parse_topics(topic)
    return False


def get_logger(topic: str) -> logging.Logger:
    """The logger of a topic; messages at any level print only while the topic is on."""
    try:
        return _loggers[topic]
    except KeyError:
        parse_topics(topic)
        raise


def _from_environment() -> tuple[str, ...]:
    """The topics MODETRACE_LOGS names. An unknown one is warned about in one line and left
    out: a misspelt topic must not stop `import tracer` with a traceback."""
    spec = os.environ.get(ENV_VAR, "")
    try:
        return parse_topics(spec)
    except ValueError as e:
        warnings.warn(str(e), stacklevel=2)
    known = [name.strip() for name in spec.split(",") if name.strip() in (*_loggers, "all")]
    return parse_topics(",".join(known))


set_logs(*_from_environment())
