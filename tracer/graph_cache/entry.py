"""One cache entry as JSON text, and the checks it passes before anything in it is used.

    {"format": "modetrace-graph-cache-entry", "version": 1, "key": "fx3a...",
     "modetrace_version": "0.1.0", "backend": "fused", "compile_time_us": 41200,
     "checksum": "<sha256 of the payload>", "payload": {<the backend's data: a fused plan>}}

`decode` refuses (EntryError, with the reason) text that is not JSON (truncated, corrupt),
another format or version, an entry written by another modetrace version, an entry whose key
or backend is not the one asked for (a file renamed, a hash collision in a shortened key), a
field of the wrong type, and a payload whose checksum does not match (a changed byte inside a
string would still be valid JSON). The payload's own schema is the backend's to check.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tracer.graph_cache.key import ENTRY_VERSION
from tracer.version import __version__

ENTRY_FORMAT = "modetrace-graph-cache-entry"


class EntryError(ValueError):
    """An entry that must not be used; the message says why."""


class GraphCacheWarning(UserWarning):
    """A cache entry or a cache that could not be used: the graph is compiled instead."""


def checksum(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def encode(key: str, backend: str, compile_time_us: int, payload: dict[str, Any]) -> str:
    entry = {
        "format": ENTRY_FORMAT,
        "version": ENTRY_VERSION,
        "key": key,
        "modetrace_version": __version__,
        "backend": backend,
        "compile_time_us": compile_time_us,
        "checksum": checksum(payload),
        "payload": payload,
    }
    return json.dumps(entry, separators=(",", ":"))


def decode(text: str | bytes, key: str, backend: str) -> tuple[dict[str, Any], int]:
    """The payload and the compile time it saves, from an entry checked against `key`."""
    try:
        # entries are written as UTF-8: other bytes are damage (and a hit's text is written
        # to the local cache as it is)
        entry = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except ValueError as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise EntryError(f"not JSON ({e.__class__.__name__}: {e}): corrupt or truncated") from e
    if not isinstance(entry, dict) or entry.get("format") != ENTRY_FORMAT:
        raise EntryError("not a modetrace graph cache entry")
    if entry.get("version") != ENTRY_VERSION:
        raise EntryError(f"entry format version {entry.get('version')!r}, not {ENTRY_VERSION}")
    if entry.get("modetrace_version") != __version__:
        raise EntryError(
            f"written by modetrace {entry.get('modetrace_version')!r}, this is {__version__!r}"
        )
    if entry.get("key") != key:
        raise EntryError(f"the entry's key {entry.get('key')!r} is not {key!r}")
    if entry.get("backend") != backend:
        raise EntryError(f"the entry is of backend {entry.get('backend')!r}, not {backend!r}")
    payload, saved = entry.get("payload"), entry.get("compile_time_us")
    if not isinstance(payload, dict) or type(saved) is not int or saved < 0:
        raise EntryError("the entry's payload or compile_time_us does not fit the schema")
    if entry.get("checksum") != checksum(payload):
        raise EntryError("the payload's checksum does not match: corrupt")
    extra = set(entry) - {
        *("format", "version", "key", "modetrace_version", "backend", "compile_time_us"),
        *("checksum", "payload"),
    }
    if extra:
        raise EntryError(f"unknown fields {sorted(extra)}")
    return payload, saved
