"""The instruction counter itself, on every supported Python: it counts one per instruction
executed, only in code under its roots and only while its entry function runs (3.11 through
`sys.settrace`, 3.12 and later through `sys.monitoring`: `count_instructions`)."""

from __future__ import annotations

import dis
import sys
from pathlib import Path

import pytest

from benchmarks.check_instruction_counts import expected_path
from benchmarks.instruction_count import count_instructions, read_csv

HERE = Path(__file__).resolve().parent


def leaf(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def entry(n: int) -> int:
    return leaf(n)


def failing_entry(n: int) -> int:
    leaf(n)
    raise ValueError(n)


def _count(run: object, roots: tuple[Path, ...] = (HERE,)) -> int:
    assert callable(run)
    return count_instructions(entry.__code__, roots, run)


def _loop_body_length() -> int:
    """Instructions one more iteration of `leaf`'s loop executes, read from its bytecode: from
    FOR_ITER to the jump back, both included."""
    names = [i.opname for i in dis.get_instructions(leaf)]
    start = names.index("FOR_ITER")
    return names.index("JUMP_BACKWARD", start) - start + 1


def test_one_count_per_instruction_executed() -> None:
    three, four, ten = _count(lambda: entry(3)), _count(lambda: entry(4)), _count(lambda: entry(10))
    assert three > 0
    assert four - three == _loop_body_length()
    assert ten - three == 7 * _loop_body_length()


def test_only_inside_the_entry_and_only_code_under_the_roots() -> None:
    inside = _count(lambda: entry(3))
    assert _count(lambda: (leaf(50), entry(3), leaf(50))) == inside
    assert _count(lambda: entry(3), roots=(HERE / "elsewhere",)) == 0


def test_an_exception_leaving_the_entry_ends_its_count() -> None:
    def run() -> None:
        with pytest.raises(ValueError):
            count_instructions(failing_entry.__code__, (HERE,), lambda: failing_entry(3))

    def raise_then_loop() -> None:
        try:
            failing_entry(3)
        except ValueError:
            pass
        leaf(100)

    run()  # the counter is switched off again after an exception escapes `run`
    assert count_instructions(failing_entry.__code__, (HERE,), raise_then_loop) == (
        count_instructions(failing_entry.__code__, (HERE,), lambda: _swallow(failing_entry, 3))
    )


def _swallow(fn: object, n: int) -> None:
    assert callable(fn)
    try:
        fn(n)
    except ValueError:
        pass


def test_counts_repeat_and_the_hook_is_removed() -> None:
    first = _count(lambda: entry(5))
    assert _count(lambda: entry(5)) == first
    assert sys.gettrace() is None
    if sys.version_info >= (3, 12):
        assert sys.monitoring.get_tool(sys.monitoring.PROFILER_ID) is None


@pytest.mark.parametrize("version", [(3, 11), (3, 12), (3, 13)], ids=lambda v: f"{v[0]}.{v[1]}")
def test_every_supported_version_has_its_expected_counts(version: tuple[int, int]) -> None:
    path = expected_path(version)
    assert path.exists(), path
    assert len(read_csv(path)) == len(read_csv(expected_path((3, 11))))
