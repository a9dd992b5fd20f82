"""The one assertion the differential tests use: compiled == eager, with zero graph breaks."""

from __future__ import annotations

from typing import Any

from hypothesis import settings

from tracer.testing import assert_same_behavior

FULLGRAPH = {"fullgraph": True}


def check(fn: Any, *args: Any, **kwargs: Any) -> None:
    """Run `fn` eagerly and compiled (fullgraph, twice) and compare everything observable."""
    assert_same_behavior(fn, *args, compile_options=FULLGRAPH, **kwargs)


FAST = settings(max_examples=20)
"""Each example compiles afresh; 20 keeps the whole directory well under the time budget."""
