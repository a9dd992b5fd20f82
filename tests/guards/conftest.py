"""Every test starts with the hostile-object call counter at zero."""

from collections.abc import Iterator

import pytest

from tests.guards.helpers import Hostile


@pytest.fixture(autouse=True)
def _reset_hostile_calls() -> Iterator[None]:
    Hostile.calls = 0
    yield
