"""One cache entry as JSON text, and the checks it passes before anything in it is used.

    {"checksum": "<sha256 of the text after this field>", "format": "modetrace-graph-cache-entry",
     "version": 2, "key": "fx3a...", "modetrace_version": "0.1.0", "backend": "fused",
     "compile_time_us": 41200, "payload": {<the backend's data: a fused plan>}}

The checksum is the first field, and covers the entry's text after it, byte for byte: checking
it is one sha256 over the bytes as read, before they are parsed, and a changed byte anywhere
(inside a kernel's source, in the compile time) fails it. `decode` refuses (EntryError, with
the reason) text that does not start with a checksum or whose checksum does not match
(truncated, corrupt), text that is not JSON, another format or version, an entry written by
another modetrace version, an entry whose key or backend is not the one asked for (a file
renamed, a hash collision in a shortened key) and a field of the wrong type. The payload's own
schema is the backend's to check.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tracer.graph_cache.key import ENTRY_VERSION
from tracer.version import __version__

ENTRY_FORMAT = "modetrace-graph-cache-entry"
_CHECKSUM_FIELD = b'{"checksum":"'
_BODY = len(_CHECKSUM_FIELD) + 64 + 2
"""Where the checksummed text starts: after `{"checksum":"`, 64 hex digits and `",`."""


class EntryError(ValueError):
    """An entry that must not be used; the message says why."""


class GraphCacheWarning(UserWarning):
    """A cache entry or a cache that could not be used: the graph is compiled instead."""


def seal(text: str) -> str:
    """The entry's text: the JSON object `text`, with a first field `checksum` that is the
    sha256 of everything after it (`text` without its opening brace)."""
    body = text[1:]
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return f'{_CHECKSUM_FIELD.decode()}{digest}",{body}'


def encode(key: str, backend: str, compile_time_us: int, payload: dict[str, Any]) -> str:
    entry = {
        "format": ENTRY_FORMAT,
        "version": ENTRY_VERSION,
        "key": key,
        "modetrace_version": __version__,
        "backend": backend,
        "compile_time_us": compile_time_us,
        "payload": payload,
    }
    return seal(json.dumps(entry, separators=(",", ":")))


def decode(text: str | bytes, key: str, backend: str) -> tuple[dict[str, Any], int]:
    """The payload and the compile time it saves, from an entry checked against `key`."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    if not data.startswith(_CHECKSUM_FIELD) or data[_BODY - 2 : _BODY] != b'",':
        raise EntryError("not a modetrace graph cache entry (no checksum first)")
    expected = data[len(_CHECKSUM_FIELD) : _BODY - 2]
    if hashlib.sha256(data[_BODY:]).hexdigest().encode() != expected:
        raise EntryError("the entry's checksum does not match: corrupt or truncated")
    try:
        # entries are written as UTF-8: other bytes are damage (and a hit's text is written
        # to the local cache as it is)
        entry = json.loads(data.decode("utf-8"))
    except ValueError as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise EntryError(f"not JSON ({e.__class__.__name__}: {e})") from e
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
    extra = set(entry) - {
        *("checksum", "format", "version", "key", "modetrace_version", "backend"),
        *("compile_time_us", "payload"),
    }
    if extra:
        raise EntryError(f"unknown fields {sorted(extra)}")
    return payload, saved
