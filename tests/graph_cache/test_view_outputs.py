"""A fused plan read back from the cache returns views where eager does (issue 25): the views
are runtime calls of its `forward`, named as data, so a hit shares storage as a miss does."""

from __future__ import annotations

from pathlib import Path

import tracer
from tests.fused.test_fused_aliasing import (
    DTYPES,
    _input,
    a_view_read_by_a_runtime_call,
    assert_aliasing_like_eager,
    views_of_another_output,
)


def test_a_cache_hit_returns_the_same_views_as_eager(cache_dir: Path) -> None:
    for fn in (views_of_another_output, a_view_read_by_a_runtime_call):
        for dtype in DTYPES:
            x = _input(dtype, transposed=True)
            assert_aliasing_like_eager(fn, x)  # a miss: compiled and stored
            miss = tracer.get_compilation_metrics()[-1]
            assert miss.inductor_fx_cache_miss_count == 1, fn.__name__
            assert_aliasing_like_eager(fn, x)  # recompiled after reset: read back
            hit = tracer.get_compilation_metrics()[-1]
            assert hit.inductor_fx_cache_hit_count == 1, fn.__name__
            assert hit.inductor_fx_cache_hit_keys == miss.inductor_fx_cache_miss_keys
