"""`specialize_float=False`: a float argument is a graph input, not a guarded constant, until
Python needs its concrete value (the whitelisted calls), where it is specialized with a guard
`L['alpha'] == value` and a new value recompiles. The default (`specialize_float=True`)
guards every float by value."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tracer.testing import assert_same_behavior


def x3() -> Any:
    return torch.tensor([1.0, -2.0, 3.0])


def compiles_of(fn: Callable[..., Any]) -> int:
    """How many compiles of fn's code the metrics record (run before and after a test)."""
    name = fn.__code__.co_name
    return len([r for r in tracer.get_compilation_metrics() if r.co_name == name])


def alpha_affine(x, alpha):
    return x * alpha + alpha


# -- one compile for many values -------------------------------------------------------------------


def test_hundred_floats_compile_once():
    compiled = tracer.compile(alpha_affine, specialize_float=False, fullgraph=True)
    before = compiles_of(alpha_affine)
    x = x3()
    for i in range(100):
        alpha = 0.5 + i * 0.37
        out = compiled(x, alpha)
        assert out.tolist() == alpha_affine(x, alpha).tolist(), alpha
    assert compiles_of(alpha_affine) - before == 1
    assert len(compiled.entries) == 1


def test_graph_takes_alpha_as_input():
    compiled = tracer.compile(alpha_affine, specialize_float=False, fullgraph=True)
    compiled(x3(), 0.5)
    entry = compiled.entries[0]
    code = entry.graph.code
    signature = code.split("\n", 1)[0]
    assert re.search(r"def forward\(.*\balpha\b", signature), code
    assert "0.5" not in code, code
    assert not any("L['alpha'] ==" in g for g in entry.guards), entry.guards
    assert "type(L['alpha']) is float" in entry.guards, entry.guards


@pytest.mark.parametrize("alpha", [0.5, 1.25, -3.0, 1e-3, 7.75])
def test_symbolic_float_matches_eager(alpha):
    compiled = tracer.compile(alpha_affine, specialize_float=False, fullgraph=True)
    compiled(x3(), 0.1)  # the graph compiled for another value serves this one
    assert_same_behavior(alpha_affine, x3(), alpha, compiled=compiled)
    assert len(compiled.entries) == 1


def test_scalar_arithmetic_stays_symbolic():
    def arith(alpha, beta):
        return (
            alpha * 2 - beta,
            -alpha,
            abs(alpha),
            alpha**2,
            alpha / beta,
            alpha // 0.3,
            alpha % 0.3,
        )

    compiled = tracer.compile(arith, specialize_float=False, fullgraph=True)
    before = compiles_of(arith)
    for alpha, beta in [(0.5, 0.25), (1.5, -2.0), (-2.25, 3.5), (10.0, 0.125)]:
        assert_same_behavior(arith, alpha, beta, compiled=compiled)
    assert compiles_of(arith) - before == 1


def test_returning_symbolic_float_gives_plain_float():
    def ident(alpha):
        return alpha, alpha + 1.0

    compiled = tracer.compile(ident, specialize_float=False, fullgraph=True)
    for alpha in (0.5, 2.5):
        out = compiled(alpha)
        assert out == (alpha, alpha + 1.0)
        assert type(out[0]) is float and type(out[1]) is float
    assert len(compiled.entries) == 1


def test_int_after_float_recompiles_and_matches_eager():
    def half(alpha):
        return alpha / 2, alpha * 3

    compiled = tracer.compile(half, specialize_float=False, fullgraph=True)
    for value in (0.5, 3, 1.5, 4):
        assert_same_behavior(half, value, compiled=compiled)
        result = compiled(value)
        assert type(result[1]) is type(value)


def test_zero_division_with_symbolic_float():
    def inv(alpha):
        return 1.0 / (alpha - 0.5)

    compiled = tracer.compile(inv, specialize_float=False, fullgraph=True)
    compiled(1.5)
    outcome = assert_same_behavior(inv, 0.5, compiled=compiled)
    assert isinstance(outcome.error, ZeroDivisionError)
    assert len(compiled.entries) == 1


# -- whitelisted calls specialize ------------------------------------------------------------------


def use_floor(x, alpha):
    return x * math.floor(alpha) + alpha


def use_ceil(x, alpha):
    return x * math.ceil(alpha)


def use_trunc(x, alpha):
    return x * math.trunc(alpha)


def use_round(x, alpha):
    return x * round(alpha)


def use_int(x, alpha):
    return x * int(alpha)


def use_is_integer(x, alpha):
    return x + 1 if alpha.is_integer() else x - 1


def use_branch(x, alpha):
    if alpha > 0:
        return x * alpha
    return x - alpha


def use_fstring(x, alpha):
    return x * alpha, f"{alpha}"


SPECIALIZING = [
    use_floor,
    use_ceil,
    use_trunc,
    use_round,
    use_int,
    use_is_integer,
    use_branch,
    use_fstring,
]


@pytest.mark.parametrize("fn", SPECIALIZING, ids=lambda f: getattr(f, "__name__", "fn"))
def test_whitelisted_call_specializes_and_recompiles(fn):
    compiled = tracer.compile(fn, specialize_float=False, fullgraph=True)
    before = compiles_of(fn)
    x = x3()
    for alpha, expected_compiles in ((0.5, 1), (0.5, 1), (1.5, 2)):
        assert_same_behavior(fn, x, alpha, compiled=compiled)
        assert compiles_of(fn) - before == expected_compiles, alpha
    first = compiled.entries[-1]
    assert "L['alpha'] == 0.5" in first.guards, first.guards
    assert "L['alpha'] == 1.5" in compiled.entries[0].guards, compiled.entries[0].guards
    assert any("L['alpha'] == 0.5" in r for r in compiled.last_miss_reasons), (
        compiled.last_miss_reasons
    )


@pytest.mark.parametrize("fn", SPECIALIZING, ids=lambda f: getattr(f, "__name__", "fn"))
def test_whitelisted_call_recompile_reason_in_metrics(fn):
    compiled = tracer.compile(fn, specialize_float=False, fullgraph=True)
    compiled(x3(), 0.5)
    compiled(x3(), 1.5)
    records = [r for r in tracer.get_compilation_metrics() if r.co_name == fn.__name__]
    assert records[-1].recompile_reason is not None
    assert "L['alpha'] == 0.5" in records[-1].recompile_reason


def test_specialized_value_still_matches_eager_across_many_values():
    compiled = tracer.compile(use_branch, specialize_float=False, fullgraph=True)
    for alpha in (0.5, -0.5, 0.5, 2.0, -3.0):
        assert_same_behavior(use_branch, x3(), alpha, compiled=compiled)


def test_other_specializing_calls():
    def many(alpha):
        return (
            math.isnan(alpha),
            math.isinf(alpha),
            math.isfinite(alpha),
            float(alpha),
            str(alpha),
            repr(alpha),
            format(alpha, ".3f"),
            bool(alpha),
            divmod(alpha, 0.25),
            alpha == 0.5,
        )

    compiled = tracer.compile(many, specialize_float=False, fullgraph=True)
    for alpha in (0.5, 0.5, 0.0, float("inf"), float("nan")):
        assert_same_behavior(many, alpha, compiled=compiled)
    assert "L['alpha'] == 0.5" in compiled.entries[-1].guards


@pytest.mark.parametrize(
    ("method", "value", "options"),
    [("hex", 0.5, {"specialize_float": False}), ("bit_length", 5, {"dynamic": True})],
)
def test_specializing_methods_of_symbolic_scalars(method, value, options):
    def hexed(v):
        return v.hex()

    def bit_length(v):
        return v.bit_length()

    target = hexed if method == "hex" else bit_length
    compiled = tracer.compile(target, fullgraph=True, **options)
    assert_same_behavior(target, value, compiled=compiled)


def test_nan_specialization_does_not_recompile_every_call():
    compiled = tracer.compile(use_floor_safe, specialize_float=False, fullgraph=True)
    nan = float("nan")
    for _ in range(3):
        assert_same_behavior(use_floor_safe, x3(), nan, compiled=compiled)
    assert len(compiled.entries) == 1


def use_floor_safe(x, alpha):
    if math.isnan(alpha):
        return x
    return x * math.floor(alpha)


def test_negative_zero_is_not_confused_with_zero():
    def sign(x, alpha):
        return x * math.copysign(1.0, alpha), str(alpha)

    for options in ({"specialize_float": False}, {}):
        compiled = tracer.compile(sign, fullgraph=True, **options)
        for alpha in (0.0, -0.0, 0.0):
            assert_same_behavior(sign, x3(), alpha, compiled=compiled)


def test_specializing_a_computed_scalar():
    def fn(x, alpha):
        if alpha * 2 > 1:
            return x * math.floor(alpha * 2)
        return -x

    compiled = tracer.compile(fn, specialize_float=False, fullgraph=True)
    for alpha in (0.7, 0.7, 0.2):
        assert_same_behavior(fn, x3(), alpha, compiled=compiled)


def test_computed_scalar_in_branch_matches_eager_without_fullgraph():
    def fn(x, alpha):
        if alpha * 2 > 1:
            return x * alpha
        return -x

    compiled = tracer.compile(fn, specialize_float=False)
    for alpha in (0.7, 0.2, 0.9):
        assert_same_behavior(fn, x3(), alpha, compiled=compiled)


def test_symbolic_field_of_dataclass_input():
    from tests.structured.test_dataclasses_namedtuples import Config

    def fn(cfg, x):
        return x * cfg.scale

    compiled = tracer.compile(fn, specialize_float=False, fullgraph=True)
    before = compiles_of(fn)
    for i in range(20):
        assert_same_behavior(fn, Config(0.5 + i, 1), x3(), compiled=compiled)
    assert compiles_of(fn) - before == 1


# -- the default: specialize_float=True ------------------------------------------------------------


def test_default_specializes_every_float():
    compiled = tracer.compile(alpha_affine, fullgraph=True)
    before = compiles_of(alpha_affine)
    x = x3()
    for alpha, expected in ((0.5, 1), (0.5, 1), (1.5, 2), (2.5, 3)):
        assert_same_behavior(alpha_affine, x, alpha, compiled=compiled)
        assert compiles_of(alpha_affine) - before == expected
    guards = [g for e in compiled.entries for g in e.guards]
    for alpha in (0.5, 1.5, 2.5):
        assert f"L['alpha'] == {alpha}" in guards, guards
    first = compiled.entries[-1]
    assert "alpha" not in first.graph.code.split("\n", 1)[0], first.graph.code
    assert any("L['alpha'] == 1.5" in r for r in compiled.last_miss_reasons)


def test_default_recompile_reason_names_float_guard():
    compiled = tracer.compile(alpha_affine)
    compiled(x3(), 0.5)
    compiled(x3(), 0.75)
    reason = tracer.get_compilation_metrics()[-1].recompile_reason
    assert reason is not None and "L['alpha'] == 0.5" in reason, reason


def test_default_explain_shows_value_guard():
    explanation = tracer.explain(alpha_affine)(x3(), 0.5)
    assert "L['alpha'] == 0.5" in explanation.guards, explanation.guards
    explanation = tracer.explain(alpha_affine, specialize_float=False)(x3(), 0.5)
    assert "L['alpha'] == 0.5" not in explanation.guards, explanation.guards
