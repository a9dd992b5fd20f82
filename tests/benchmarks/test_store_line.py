"""`make bench`'s metrics-store line measures the store as users get it."""

from __future__ import annotations

from benchmarks.compile_time import STORE_BATCH
from tracer.observability.metrics import store


def test_the_store_line_writes_batches_of_the_default_size() -> None:
    assert STORE_BATCH == store.DEFAULT_BATCH
