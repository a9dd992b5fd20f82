"""The corpus in CI: a fixed sample of the cases (every `MODETRACE_CORPUS_EVERY`-th, 10 by
default, 1 for all of them; `make corpus` runs all and writes the report) compiled and compared
with eager. A mismatch or an internal error fails; so does a call that did not trace whole
without a reason naming the user's file and line, and a call that traced whole but does not
compile under fullgraph=True."""

from __future__ import annotations

import functools
import os

import pytest

import tracer
from tests.corpus.sources import all_cases
from tracer.testing.corpus import Case, run_case
from tracer.testing.corpus.report import LOCATED

EVERY = int(os.environ.get("MODETRACE_CORPUS_EVERY", "10"))
SAMPLE = all_cases()[::EVERY]


def test_the_corpus_has_at_least_500_calls_from_three_sources() -> None:
    cases = all_cases()
    assert len(cases) >= 500
    assert {c.source for c in cases} == {"stdlib", "pyperformance", "TheAlgorithms"}


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.id[:90])
def test_compiled_behaves_as_eager_and_every_fallback_says_where(case: Case) -> None:
    result = run_case(case)
    # a timeout (20 s) is reported, not failed here: on a loaded CI machine it says nothing
    assert result.verdict in ("equal", "eager error", "timeout"), result.detail
    if result.mode in ("breaks", "fallback"):
        assert result.reasons, "a call that did not trace whole gave no reason"
        for reason in result.reasons:
            assert LOCATED.search(reason), f"the reason names no file:line: {reason!r}"
    if result.mode == "whole":  # traced whole means: fullgraph=True compiles it, no break
        strict = run_case(case, compile_fn=functools.partial(tracer.compile, fullgraph=True))
        # the rerun traces as long again: a timeout there says as little as the first's
        assert strict.verdict in ("equal", "timeout"), f"under fullgraph=True: {strict.detail}"
