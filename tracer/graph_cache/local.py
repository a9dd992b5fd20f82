"""The local cache: one JSON file per key in a directory, written atomically.

The directory is `config.cache_dir` (MODETRACE_CACHE_DIR), else the user's cache directory
(`$XDG_CACHE_HOME/modetrace`, `~/.cache/modetrace`), then `fxgraph/`. A write goes to a
temporary file in the same directory, which `os.replace` then renames over the entry's name:
a rename within one file system is atomic, so a reader, in this process or another, sees the
old complete file or the new complete file, never a half-written one, and two processes
writing the same key at once both succeed (the last rename wins; both wrote the same entry).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from tracer import config


def cache_dir() -> Path:
    """The local graph cache's directory (not created until something is written)."""
    chosen = config.current().cache_dir
    if chosen:
        return Path(chosen).expanduser() / "fxgraph"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "modetrace" / "fxgraph"


class LocalCache:
    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def __repr__(self) -> str:
        return f"LocalCache({str(self.directory)!r})"

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> bytes | None:
        """The entry's bytes, or None when there is none (or it can't be read)."""
        try:
            return self.path(key).read_bytes()
        except OSError:
            return None

    def put(self, key: str, text: str | bytes) -> None:
        """Write the entry atomically (OSError when the directory can't be written); `text`
        as it is when it is bytes (an entry read from Redis), else encoded as UTF-8."""
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        self.directory.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{key}.", suffix=".tmp")
        try:
            os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide entries from a shared cache's users
            with open(fd, "wb") as file:
                file.write(data)
            os.replace(temporary, self.path(key))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def clear(self) -> None:
        """Remove every entry (what a test or a user does to start cold)."""
        for path in self.directory.glob("*.json"):
            with contextlib.suppress(OSError):
                path.unlink()
