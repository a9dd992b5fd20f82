"""Test-wide settings: hypothesis profiles (small in CI, larger locally), the debug checks, and
no test leaving torch._dynamo's frame-evaluation hook installed.

Tests run the step loop as users run it, with `config.debug_checks` off (unless the environment
sets MODETRACE_DEBUG_CHECKS=1 for the whole run). The modules in DEBUG_CHECKED run with the debug
checks on: every handler's stack effect is checked against `dis.stack_effect` there, so a
handler that leaves the stack wrong fails them.
"""

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tracer import config

TESTS = Path(__file__).resolve().parent
DEBUG_CHECKED = (TESTS / "differential", TESTS / "tracer" / "test_opcodes.py")
"""Test modules (or directories of them) that run with `config.debug_checks` on."""

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "fuzz",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""`make fuzz`: tests/fuzz/test_programs.py runs 10,000 generated programs under it."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True, scope="module")
def _debug_checks_in_dedicated_modules(request: pytest.FixtureRequest) -> Iterator[None]:
    path = Path(request.path).resolve()
    if any(path == place or place in path.parents for place in DEBUG_CHECKED):
        with config.patch(debug_checks=True):
            yield
    else:
        yield


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fused-check",
        action="store_true",
        help="run every eager-backend graph through backend='fused' too (tests/fused/checking.py)",
    )


@pytest.fixture(autouse=True, scope="session")
def _fused_check(request: pytest.FixtureRequest) -> Iterator[None]:
    if not request.config.getoption("--fused-check"):
        yield
        return
    from tests.fused.checking import checked_backend
    from tracer import backends

    original = backends.lookup_backend("eager")
    backends.register_backend("eager", checked_backend)
    try:
        yield
    finally:
        backends.register_backend("eager", original)


@pytest.fixture(autouse=True, scope="session")
def _graph_cache_in_a_temporary_directory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """The graph cache (backend='fused') writes into a directory of this session, never the
    user's cache directory, and asks no remote cache unless a test says so."""
    directory = tmp_path_factory.mktemp("graph-cache")
    with config.patch(cache_dir=str(directory), remote_cache=""):
        yield


@pytest.fixture(autouse=True)
def _no_frame_evaluation_hook_left_behind() -> Iterator[None]:
    """A test that runs torch._dynamo must not leave its PEP 523 hook installed (a
    torch.compile call that raised does: tracer/torch_adapter/frame_hook.py). Under it CPython
    stops inlining Python calls, so an object a resume function drops stays alive and tests
    run later in the process (tests/resume/test_release.py) fail far from the cause; this
    fails the test that left it."""
    inlined = _calls_are_inlined()
    yield
    if inlined and not _calls_are_inlined():
        pytest.fail(
            "this test left torch._dynamo's frame-evaluation hook installed: run the Dynamo "
            "call under tracer.torch_adapter.frame_hook.restoring_frame_evaluation()"
        )


def _calls_are_inlined() -> bool:
    """Only torch._dynamo installs the hook here: without it imported, nothing is probed (and
    torch is not imported for it)."""
    if "torch._dynamo" not in sys.modules:
        return True
    from tracer.torch_adapter.frame_hook import calls_are_inlined

    return calls_are_inlined()
