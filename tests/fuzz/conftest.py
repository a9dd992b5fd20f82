"""Every fuzz test starts from an empty compile cache."""

from collections.abc import Iterator

import pytest

import tracer


@pytest.fixture(autouse=True)
def _reset_tracer() -> Iterator[None]:
    tracer.reset()
    yield
    tracer.reset()
