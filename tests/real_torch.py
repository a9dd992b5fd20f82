"""Real torch for oracle tests: `real_torch()` is the module, or skips the test where torch is
not installed (modetrace itself never needs it). `make test` installs the pinned torch and sets
MODETRACE_REQUIRE_TORCH=1, so there a missing torch fails instead of skipping."""

from __future__ import annotations

import importlib.util
import os
import types

import pytest


def real_torch() -> types.ModuleType:
    if importlib.util.find_spec("torch") is None:
        if os.environ.get("MODETRACE_REQUIRE_TORCH") == "1":
            pytest.fail("MODETRACE_REQUIRE_TORCH=1 but torch is not installed")
        pytest.skip("torch is not installed (pip install -e '.[torch]')")
    import torch

    return torch
