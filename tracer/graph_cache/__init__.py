"""The graph cache: what a compiled backend made of a graph, kept as JSON data on local disk
and in Redis, and reused by the next process that compiles the same graph.

Modules: `key` (what the key hashes), `entry` (the entry format and its checks), `local`
(files, written atomically), `remote` (Redis, never needed for a correct compile), `cached`
(`compile_cached`: the lookups, the fresh compile on a miss, the statistics). The fused
backend is its user (`tracer.backends.fused_backend`). See notes/graph-cache.md.
"""

from __future__ import annotations

from tracer.graph_cache.cached import compile_cached
from tracer.graph_cache.entry import EntryError, GraphCacheWarning
from tracer.graph_cache.local import LocalCache, cache_dir
from tracer.graph_cache.remote import REMOTE_CACHE_VERSION, forget_remotes, remote_cache

__all__ = [
    "REMOTE_CACHE_VERSION",
    "EntryError",
    "GraphCacheWarning",
    "LocalCache",
    "cache_dir",
    "compile_cached",
    "forget_remotes",
    "remote_cache",
]
