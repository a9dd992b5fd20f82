"""Generated programs (`tracer.testing.programs`) behave the same compiled as in plain Python.

CI runs a short profile (CI_EXAMPLES programs, a few seconds); `make fuzz` runs the `fuzz`
hypothesis profile (10,000 programs, see tests/conftest.py) and prints how many programs ran,
how many traced whole and how many fell back, and the commonest reasons. The same run calls a
quarter as many programs, each compiled once, with several argument tuples in turn
(`check_program_calls`: the entries compiled for other values, recompiles, dynamic ints). A
mismatch fails with the shrunk program's text and arguments. Features in `KNOWN_OPEN` (open
issue-20 cases) are left out; remove an entry there when its fix lands.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from tracer.testing.programs import (
    FEATURES,
    KNOWN_OPEN,
    FuzzStats,
    Program,
    ProgramMismatch,
    arguments,
    build_function,
    check_program,
    check_program_calls,
    programs,
)

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
CI_EXAMPLES = 80
"""Programs per CI run: each is traced once and run three times; 80 take a few seconds."""


def test_generated_programs_behave_as_in_python() -> None:
    stats = FuzzStats()

    @settings(max_examples=settings().max_examples if LONG else CI_EXAMPLES)
    @given(programs())
    def run(program: Program) -> None:
        stats.record(program, check_program(program))
        if LONG and stats.programs % 1000 == 0:
            print(f"{stats.programs} programs, {stats.traced_whole} traced whole", flush=True)

    run()
    print(f"\n{stats.summary()}")  # shown by `make fuzz` (pytest -s)
    assert stats.programs > 0


CI_CALL_EXAMPLES = 40
"""Programs per CI run of the several-calls property (each compiled once, called 2-5 times)."""


def test_generated_programs_behave_as_in_python_across_calls() -> None:
    """One compiled `f` called with several argument tuples: the later calls run the entry
    compiled for other values, or recompile (ints that change become graph inputs). Found
    symbolic ints fixing a tensor's shape by their first value (`len(torch.ones(n))`)."""
    stats = FuzzStats()

    @settings(max_examples=settings().max_examples // 4 if LONG else CI_CALL_EXAMPLES)
    @given(programs(), st.lists(arguments(), min_size=1, max_size=4))
    def run(program: Program, calls: list[tuple[object, ...]]) -> None:
        tracer.reset()
        stats.record(program, check_program_calls(program, calls))

    run()
    print(f"\n{stats.summary()}")
    assert stats.programs > 0


@settings(max_examples=30)
@given(st.data())
def test_every_feature_writes_valid_python(data: st.DataObject) -> None:
    feature = data.draw(st.sampled_from(sorted(FEATURES)))
    program = data.draw(programs({feature, "loops"}, exclude=()))
    compile(program.source, "<program>", "exec")


def test_known_open_features_are_features() -> None:
    assert set(KNOWN_OPEN) <= set(FEATURES)
    assert all("case" in why or "found by the fuzzer" in why for why in KNOWN_OPEN.values())


def test_unknown_feature_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown features"):
        programs({"no_such_feature"})


def test_a_mismatch_shows_the_program_and_its_arguments() -> None:
    # A mutable default is state the comparison does not restore: each call sees one more item.
    source = "def f(i, j, x, s, xs, d, t, seen=[]):\n    seen.append(i)\n    return len(seen)\n"
    args = (1, 2, 0.5, "a", [1], {"a": 1}, torch.ones(2))
    with pytest.raises(ProgramMismatch) as info:
        check_program(Program(source, args, frozenset({"core"})))
    text = str(info.value)
    assert "return: 2, expected 1" in text
    assert "seen.append(i)" in text and "tensor(float32[2]: [1.0, 1.0])" in text


def test_program_lines_show_in_tracebacks() -> None:
    f = build_function("def f(n):\n    return 1 // n\n")
    with pytest.raises(ZeroDivisionError) as info:
        f(0)
    assert "return 1 // n" in str(info.traceback[-1])


def test_a_program_that_falls_back_is_counted() -> None:
    source = "def f(i, j, x, s, xs, d, t):\n    print(end='')\n    return i\n"
    run = check_program(Program(source, (1, 2, 0.5, "", [], {}, torch.ones(1)), frozenset()))
    assert not run.traced_whole and run.break_reasons
    stats = FuzzStats()
    stats.record(Program(source, (), frozenset({"core"})), run)
    assert "1 programs: 0 traced whole, 1 fell back" in stats.summary()
