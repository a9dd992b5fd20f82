"""Guards printed for dataclass and NamedTuple inputs read like the Python that checks them:
`type(L['cfg']) is Config`, `L['cfg'].scale == 0.5`, and every one of them is true of the
inputs it was built from."""

from __future__ import annotations

from typing import Any

import tracer
import tracer.runtime as torch
from tests.structured.test_dataclasses_namedtuples import (
    Config,
    Inner,
    Nested,
    Outer,
    Pair,
    Point,
    Span,
)


def scale_fn(cfg, x):
    return x * cfg.scale + cfg.bias


def explain_guards(fn: Any, *args: Any, **options: Any) -> list[str]:
    explanation = tracer.explain(fn, **options)(*args)
    assert explanation.graph_break_count == 0, explanation
    return explanation.guards


def x3() -> Any:
    return torch.tensor([1.0, 2.0, 3.0])


NAMESPACE = {
    "Config": Config,
    "Inner": Inner,
    "Outer": Outer,
    "Pair": Pair,
    "Point": Point,
    "Span": Span,
    "Nested": Nested,
    "Tensor": torch.Tensor,
    "torch": torch,
}


def assert_guards_hold(guards: list[str], **frame_locals: Any) -> None:
    """Every printed guard (the mode-stack one and identity pins aside: `... is <function
    Pair.__repr__>` names the object pinned) is a Python expression, true of L."""
    for guard in guards:
        if "___" in guard or " is <" in guard:
            continue
        assert eval(guard, {**NAMESPACE, "L": frame_locals}), guard


def test_spec_printouts_for_config():
    guards = explain_guards(scale_fn, Config(0.5, 2), x3())
    assert "L['cfg'].scale == 0.5" in guards, guards
    assert "type(L['cfg']) is Config" in guards, guards
    assert "L['cfg'].bias == 2" in guards, guards


def test_printed_guards_evaluate_true_on_their_inputs():
    cfg, x = Config(0.5, 2), x3()
    guards = explain_guards(scale_fn, cfg, x)
    assert_guards_hold(guards, cfg=cfg, x=x)


def test_printed_guards_evaluate_false_after_change():
    guards = explain_guards(scale_fn, Config(0.5, 2), x3())
    assert not eval("L['cfg'].scale == 0.5", {"L": {"cfg": Config(0.25, 2)}})
    failing = [
        g
        for g in guards
        if "cfg" in g and not eval(g, {**NAMESPACE, "L": {"cfg": Config(0.25, 2)}})
    ]
    assert failing == ["L['cfg'].scale == 0.5"]


def test_string_field_guard_uses_repr():
    def fn(cfg, x):
        return x * 2 if cfg.name == "fast" else x

    guards = explain_guards(fn, Config(0.5, 0, "fast"), x3())
    assert "L['cfg'].name == 'fast'" in guards, guards
    assert not any(".scale" in g for g in guards), guards


def test_each_guard_printed_once_when_field_read_twice():
    def fn(cfg, x):
        return x * cfg.scale + cfg.scale * cfg.scale

    guards = explain_guards(fn, Config(0.5), x3())
    assert guards.count("L['cfg'].scale == 0.5") == 1, guards
    assert guards.count("type(L['cfg']) is Config") == 1, guards


def test_nested_dataclass_printouts():
    def fn(o, x):
        return x * o.inner.shift + o.factor

    o = Outer(Inner(x3(), 0.25), 3)
    guards = explain_guards(fn, o, x3())
    for expected in (
        "type(L['o']) is Outer",
        "type(L['o'].inner) is Inner",
        "L['o'].inner.shift == 0.25",
        "L['o'].factor == 3",
    ):
        assert expected in guards, guards
    assert not any(".weight" in g or ".tag" in g for g in guards), guards
    assert_guards_hold(guards, o=o, x=x3())


def test_symbolic_float_field_prints_type_guard_not_value():
    guards = explain_guards(scale_fn, Config(0.5, 2), x3(), specialize_float=False)
    assert "type(L['cfg']) is Config" in guards, guards
    assert "type(L['cfg'].scale) is float" in guards, guards
    assert not any("L['cfg'].scale ==" in g for g in guards), guards
    assert "L['cfg'].bias == 2" in guards, guards


def test_namedtuple_printouts():
    def fn(p, x):
        return x + p.right

    p = Pair(2, 0.5)
    guards = explain_guards(fn, p, x3())
    assert "type(L['p']) is Pair" in guards, guards
    assert "tuple.__getitem__(L['p'], 1) == 0.5" in guards, guards
    assert not any("L['p'][0]" in g or ".left" in g for g in guards), guards
    assert_guards_hold(guards, p=p, x=x3())


def test_nested_namedtuple_printouts_hold():
    def fn(n, x):
        return x * n.point.y + n.span[0] + n.scale

    n = Nested(Point(1, 2), Span(3, 4), 0.5)
    guards = explain_guards(fn, n, x3())
    assert "type(L['n']) is Nested" in guards, guards
    assert any("Point" in g for g in guards), guards
    assert any("Span" in g for g in guards), guards
    assert_guards_hold(guards, n=n, x=x3())


def test_miss_reason_names_the_field_guard():
    compiled = tracer.compile(scale_fn)
    compiled(Config(0.5, 2), x3())
    compiled(Config(0.75, 2), x3())
    assert len(compiled.entries) == 2
    assert any("L['cfg'].scale == 0.5" in r for r in compiled.last_miss_reasons), (
        compiled.last_miss_reasons
    )


def test_wrong_type_input_fails_type_guard_first():
    compiled = tracer.compile(scale_fn)
    compiled(Config(0.5, 2), x3())
    entry = compiled.entries[0]
    assert "type(L['cfg']) is Config" in entry.failure({"cfg": Inner(1, 2), "x": x3()})
