"""Test-wide settings: hypothesis profiles (small in CI, larger locally) and debug checks on."""

import os

# Every handler's stack effect is checked against dis.stack_effect in tests.
os.environ.setdefault("MODETRACE_DEBUG_CHECKS", "1")

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
