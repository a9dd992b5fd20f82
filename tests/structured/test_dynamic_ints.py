"""Dynamic ints. Automatic dynamic (the default, `dynamic=None`): the first compile specializes
an int; when its value changes, the recompile marks it dynamic (a graph input), and no further
value recompiles unless Python needs the concrete value (`range(n)`, `xs[n]`, `if n > 3:`), where
it is specialized with a guard. `dynamic=False` turns that off (a compile per value);
`dynamic=True` makes ints and floats symbolic from the first compile."""

from __future__ import annotations

import collections
import re
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.structured.test_dataclasses_namedtuples import Config
from tracer.testing import assert_same_behavior


def x3() -> Any:
    return torch.tensor([1.0, -2.0, 3.0])


def compiles_of(fn: Callable[..., Any]) -> int:
    name = fn.__code__.co_name
    return len([r for r in tracer.get_compilation_metrics() if r.co_name == name])


def records_of(fn: Callable[..., Any]) -> list[Any]:
    return [r for r in tracer.get_compilation_metrics() if r.co_name == fn.__code__.co_name]


def scale_by_n(x, n):
    return x * n + n


def loop_n(x, n):
    for i in range(n):
        x = x + i
    return x


def index_n(x, n):
    xs = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]
    return x * xs[n]


def branch_n(x, n):
    if n > 3:
        return x * n
    return x - n


def says_dynamic(text: str) -> bool:
    """ "dynamic" as a word, not inside a file name such as test_dynamic_ints.py."""
    return re.search(r"\bdynamic\b", text) is not None


def graph_inputs(entry: Any) -> str:
    return entry.graph.code.split("\n", 1)[0]


# -- automatic dynamic -----------------------------------------------------------------------------


def test_changing_int_compiles_exactly_twice():
    compiled = tracer.compile(scale_by_n, fullgraph=True)
    before = compiles_of(scale_by_n)
    counts = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # hitting the recompile limit would warn
        for n in range(1, 11):
            assert_same_behavior(scale_by_n, x3(), n, compiled=compiled)
            counts.append(compiles_of(scale_by_n) - before)
    assert counts == [1] + [2] * 9, counts
    assert len(compiled.entries) == 2


def test_second_compile_takes_n_as_graph_input():
    compiled = tracer.compile(scale_by_n, fullgraph=True)
    compiled(x3(), 1)
    assert not re.search(r"\bn\b", graph_inputs(compiled.entries[0]))
    assert "L['n'] == 1" in compiled.entries[0].guards
    compiled(x3(), 2)
    newest = compiled.entries[0]
    assert re.search(r"\bn\b", graph_inputs(newest)), newest.graph.code
    assert not any(g.startswith("L['n'] ==") for g in newest.guards), newest.guards
    assert "type(L['n']) is int" in newest.guards, newest.guards


def test_recompile_reason_says_dynamic():
    compiled = tracer.compile(scale_by_n)
    compiled(x3(), 1)
    compiled(x3(), 2)
    reason = records_of(scale_by_n)[-1].recompile_reason or ""
    misses = " ".join(compiled.last_miss_reasons)
    # a word of its own: this file's name (test_dynamic_ints.py) is in the reasons too
    assert says_dynamic(reason) or says_dynamic(misses), (reason, misses)
    assert "L['n']" in reason + misses


def test_old_static_entry_still_serves_its_value():
    compiled = tracer.compile(scale_by_n, fullgraph=True)
    before = compiles_of(scale_by_n)
    for n in (1, 2, 3, 1, 7, 1):
        assert compiled(x3(), n).tolist() == scale_by_n(x3(), n).tolist()
    assert compiles_of(scale_by_n) - before == 2


def test_unchanging_int_compiles_once():
    compiled = tracer.compile(scale_by_n, fullgraph=True)
    before = compiles_of(scale_by_n)
    for _ in range(10):
        assert_same_behavior(scale_by_n, x3(), 3, compiled=compiled)
    assert compiles_of(scale_by_n) - before == 1
    assert "L['n'] == 3" in compiled.entries[0].guards


def test_only_the_changing_int_becomes_dynamic():
    def two(x, n, m):
        return x * n + m

    compiled = tracer.compile(two, fullgraph=True)
    before = compiles_of(two)
    for n in range(1, 8):
        assert_same_behavior(two, x3(), n, 2, compiled=compiled)
    assert compiles_of(two) - before == 2
    newest = compiled.entries[0]
    assert "L['m'] == 2" in newest.guards, newest.guards
    assert not any(g.startswith("L['n'] ==") for g in newest.guards), newest.guards


def test_changing_int_field_of_dataclass_becomes_dynamic():
    def fn(cfg, x):
        return x + cfg.bias

    compiled = tracer.compile(fn, fullgraph=True)
    before = compiles_of(fn)
    for bias in range(1, 9):
        assert_same_behavior(fn, Config(0.5, bias), x3(), compiled=compiled)
    assert compiles_of(fn) - before == 2


@pytest.mark.parametrize("fn", [loop_n, index_n, branch_n], ids=lambda f: f.__name__)
def test_concrete_use_specializes_with_guard_under_automatic_dynamic(fn):
    """Marked dynamic or not, `range(n)`, `xs[n]` and `if n > 3:` need n's value: every new
    value compiles, and each entry guards `L['n'] == value`."""
    compiled = tracer.compile(fn, fullgraph=True)
    before = compiles_of(fn)
    values = (1, 2, 5, 6)
    for i, n in enumerate(values):
        assert_same_behavior(fn, x3(), n, compiled=compiled)
        assert compiles_of(fn) - before == i + 1
    for entry, n in zip(compiled.entries, reversed(values), strict=True):
        assert f"L['n'] == {n}" in entry.guards, (n, entry.guards)


def test_specialized_dynamic_int_mixed_with_graph_use():
    """Once n is dynamic, `x * n` is in the graph but `range(n)` still specializes."""

    def mixed(x, n, k):
        total = x * k
        for i in range(n):
            total = total + i
        return total

    compiled = tracer.compile(mixed, fullgraph=True)
    before = compiles_of(mixed)
    for k in range(1, 6):
        assert_same_behavior(mixed, x3(), 2, k, compiled=compiled)
    assert compiles_of(mixed) - before == 2
    assert "L['n'] == 2" in compiled.entries[0].guards


# -- dynamic=False ---------------------------------------------------------------------------------


def test_dynamic_false_compiles_per_value():
    compiled = tracer.compile(scale_by_n, dynamic=False, fullgraph=True)
    before = compiles_of(scale_by_n)
    records_before = len(tracer.get_compilation_metrics())
    for n in range(1, 7):
        assert_same_behavior(scale_by_n, x3(), n, compiled=compiled)
        assert compiles_of(scale_by_n) - before == n
    for entry in compiled.entries:
        assert not re.search(r"\bn\b", graph_inputs(entry)), entry.graph.code
    new_records = tracer.get_compilation_metrics()[records_before:]
    assert not any(says_dynamic(r.recompile_reason or "") for r in new_records)


def test_dynamic_false_floats_still_specialize_by_default():
    def fl(x, alpha):
        return x * alpha

    compiled = tracer.compile(fl, dynamic=False, fullgraph=True)
    for alpha in (0.5, 1.5, 2.5):
        compiled(x3(), alpha)
    assert len(compiled.entries) == 3


# -- dynamic=True ----------------------------------------------------------------------------------


def test_dynamic_true_one_compile_for_all_ints():
    compiled = tracer.compile(scale_by_n, dynamic=True, fullgraph=True)
    before = compiles_of(scale_by_n)
    for n in range(1, 11):
        assert_same_behavior(scale_by_n, x3(), n, compiled=compiled)
    assert compiles_of(scale_by_n) - before == 1
    entry = compiled.entries[0]
    assert re.search(r"\bn\b", graph_inputs(entry)), entry.graph.code
    assert "type(L['n']) is int" in entry.guards, entry.guards
    assert not any(g.startswith("L['n'] ==") for g in entry.guards)


def test_dynamic_true_one_compile_for_ints_and_floats():
    def fl(x, n, alpha):
        return x * n + alpha, n * 2, alpha / 4

    compiled = tracer.compile(fl, dynamic=True, fullgraph=True)
    before = compiles_of(fl)
    for n in range(1, 11):
        assert_same_behavior(fl, x3(), n, n / 3 + 0.25, compiled=compiled)
    assert compiles_of(fl) - before == 1
    inputs = graph_inputs(compiled.entries[0])
    assert re.search(r"\bn\b", inputs) and re.search(r"\balpha\b", inputs), inputs


def test_dynamic_true_int_arithmetic_keeps_int_semantics():
    def arith(n, m):
        return n // m, n % m, n / m, -n, abs(n), n**2, n * m

    compiled = tracer.compile(arith, dynamic=True, fullgraph=True)
    for n, m in ((7, 2), (-7, 2), (9, -4), (3, 5)):
        assert_same_behavior(arith, n, m, compiled=compiled)
        result = compiled(n, m)
        assert [type(v) for v in result] == [type(v) for v in arith(n, m)]
    assert len(compiled.entries) == 1


def test_dynamic_true_division_by_zero_int():
    def div(n, m):
        return n // m

    compiled = tracer.compile(div, dynamic=True, fullgraph=True)
    compiled(4, 2)
    outcome = assert_same_behavior(div, 4, 0, compiled=compiled)
    assert isinstance(outcome.error, ZeroDivisionError)


@pytest.mark.parametrize("fn", [loop_n, index_n, branch_n], ids=lambda f: f.__name__)
def test_dynamic_true_concrete_use_specializes(fn):
    compiled = tracer.compile(fn, dynamic=True, fullgraph=True)
    for n, expected in ((2, 1), (2, 1), (5, 2)):
        assert_same_behavior(fn, x3(), n, compiled=compiled)
        assert len(compiled.entries) == expected
    assert "L['n'] == 2" in compiled.entries[-1].guards, compiled.entries[-1].guards
    assert any("L['n'] == 2" in r for r in compiled.last_miss_reasons)


def test_dynamic_true_index_out_of_range_matches_eager():
    compiled = tracer.compile(index_n, dynamic=True, fullgraph=True)
    compiled(x3(), 1)
    outcome = assert_same_behavior(index_n, x3(), 50, compiled=compiled)
    assert isinstance(outcome.error, IndexError)


def test_dynamic_true_bool_is_not_an_int_input():
    def flag(x, b):
        return x * b, b + 1

    compiled = tracer.compile(flag, dynamic=True, fullgraph=True)
    for b in (True, False, 1, 0, True):
        assert_same_behavior(flag, x3(), b, compiled=compiled)
        assert type(compiled(x3(), b)[1]) is int


def test_a_miss_reads_an_old_entrys_ints_only_where_its_guards_hold() -> None:
    """On a miss, automatic dynamic compares the ints each entry guarded by value with the new
    arguments. It read them out of the check's order, with no guard on the base's type first:
    a defaultdict passed where a dict was traced got `'k'` inserted by its `__missing__`, and a
    property of another class ran (`CompiledGuards.changed_ints` reads them in order now)."""

    def get(d: Any) -> Any:
        return d.get("k", 10) + 1, sorted(d)

    tracer.reset()
    compiled = tracer.compile(get)
    assert compiled({"k": 1}) == get({"k": 1})
    given, plain = collections.defaultdict(int, j=2), collections.defaultdict(int, j=2)
    assert compiled(given) == get(plain) == (11, ["j"])
    assert given == plain == {"j": 2}
