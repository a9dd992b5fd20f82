"""CompiledGuards' slow side: failure reasons in words, the tree printout, flat and data forms."""

from __future__ import annotations

from guards import (
    AttrSource,
    GlobalsDictSource,
    GlobalSource,
    Guard,
    GuardKind,
    ItemSource,
    LocalSource,
    TensorSpec,
    mode_stack_guard,
)
from tests.guards.helpers import at, compile_guards, float64, guard, make_tensor

K = GuardKind


class Config:
    def __init__(self, scale: float) -> None:
        self.scale = scale


class LoggingMode:
    pass


def demo_guards() -> list[Guard]:
    x = make_tensor((2, 3))
    cfg = LocalSource("cfg")
    return [
        mode_stack_guard([], at(5, "with LoggingMode():")),
        Guard(K.TENSOR_MATCH, LocalSource("x"), TensorSpec.of(x), at(7, "return x * 2")),
        guard(K.TYPE_MATCH, cfg, Config, line=6),
        guard(K.HASATTR, cfg, "scale"),
        guard(K.EQUALS_MATCH, AttrSource(cfg, "scale"), 0.5, line=6),
        guard(K.TYPE_MATCH, "xs", list),
        guard(K.LENGTH_CHECK, "xs", 3, line=8),
        guard(K.EQUALS_MATCH, GlobalSource("flag"), True),
        guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), ("len",)),
    ]


def demo_frame() -> dict[str, object]:
    return {"x": make_tensor((2, 3)), "cfg": Config(0.5), "xs": [1, 2, 3]}


def test_tree_printout_golden() -> None:
    compiled = compile_guards(demo_guards(), f_globals={"flag": True})
    assert str(compiled) == "\n".join(
        [
            "TREE_GUARD_MANAGER:",
            "+- RootGuardManager",
            '| +- MODE_STACK: len(___mode_stack) == 0, from "with LoggingMode():" at demo.py:5',
            "| +- GuardManager: source=L['cfg'], type=Config",
            "| | +- TYPE_MATCH: type(L['cfg']) is Config, from demo.py:6",
            "| | +- HASATTR: hasattr(L['cfg'], 'scale')",
            "| | +- GuardManager: source=L['cfg'].scale",
            "| | | +- EQUALS_MATCH: L['cfg'].scale == 0.5, from demo.py:6",
            "| +- GuardManager: source=L['xs'], type=list",
            "| | +- TYPE_MATCH: type(L['xs']) is list",
            "| | +- LENGTH_CHECK: len(L['xs']) == 3, from demo.py:8",
            "| +- GuardManager: source=G['flag']",
            "| | +- EQUALS_MATCH: G['flag'] == True",
            "| +- GuardManager: source=G",
            "| | +- DICT_NOT_CONTAINS: 'len' not in G",
            f"| +- GuardManager: source=L['x'], type={type(make_tensor((1,))).__name__}",
            (
                f"| | +- TENSOR_MATCH: type(L['x']) is {type(make_tensor((1,))).__name__} and "
                "L['x'].dtype == torch.float32 and L['x'].shape == (2, 3) and "
                "L['x'].requires_grad == False, from \"return x * 2\" at demo.py:7"
            ),
        ]
    )


def test_flat_and_as_data() -> None:
    compiled = compile_guards(demo_guards(), f_globals={"flag": True})
    assert compiled.flat()[:3] == [
        "type(L['cfg']) is Config",
        "type(L['xs']) is list",
        "G['flag'] == True",
    ]
    assert compiled.as_data()[0] == {
        "kind": "TYPE_MATCH",
        "source": "L['cfg']",
        "expected": "Config",
        "location": "demo.py:6 in f",
    }


def reason(change: dict[str, object], f_globals: dict[str, object] | None = None) -> str | None:
    globals_ = {"flag": True} if f_globals is None else f_globals
    compiled = compile_guards(demo_guards(), f_globals=globals_, mode_stack=[])
    frame = {**demo_frame(), **change}
    reason = compiled.failure_reason(frame)
    assert compiled.check(frame) is (reason is None)
    return reason


def test_failure_reason_wording() -> None:
    assert reason({}) is None
    assert reason({"x": make_tensor((2, 3), dtype=float64)}) == (
        "L['x'].dtype == torch.float32 (actual torch.float64), from \"return x * 2\" at demo.py:7"
    )
    assert reason({"x": make_tensor((3,))}) == (
        "L['x'].shape == (2, 3) (actual (3,)), from \"return x * 2\" at demo.py:7"
    )
    assert reason({"xs": [1, 2]}) == "len(L['xs']) == 3 (actual 2), from demo.py:8"
    assert reason({"xs": (1, 2, 3)}) == "type(L['xs']) is list (actual tuple)"
    assert reason({"cfg": Config(0.25)}) == "L['cfg'].scale == 0.5 (actual 0.25), from demo.py:6"
    assert reason({"cfg": Config(-0.0)}) is not None
    assert reason({}, {"flag": 1}) == "G['flag'] == True (actual 1)"
    assert reason({}, {}) == "G['flag']: missing key (expected True)"
    assert reason({}, {"flag": True, "len": len}) == ("'len' not in G (actual G['len'] is present)")


def test_failure_reason_mode_stack() -> None:
    compiled = compile_guards(
        [mode_stack_guard([LoggingMode()])], mode_stack=[LoggingMode(), LoggingMode()]
    )
    assert compiled.failure_reason({}) == (
        "mode stack: expected [LoggingMode] (actual [LoggingMode, LoggingMode])"
    )
    empty = compile_guards([mode_stack_guard([LoggingMode()], at(3, "with LoggingMode():"))])
    assert empty.failure_reason({}) == (
        'mode stack: expected [LoggingMode] (actual []), from "with LoggingMode():" at demo.py:3'
    )


def test_failure_reason_item_and_keys() -> None:
    d = LocalSource("d")
    guards = [
        guard(K.TYPE_MATCH, d, dict),
        guard(K.DICT_KEYS_MATCH, d, ("a", "b")),
        guard(K.EQUALS_MATCH, ItemSource(d, "a"), 1),
    ]
    compiled = compile_guards(guards)
    assert compiled.failure_reason({"d": {"b": 1, "a": 1}}) == (
        "list(L['d']) == ['a', 'b'] (actual ['b', 'a'])"
    )
    assert compiled.failure_reason({"d": {"a": 1.0, "b": 1}}) == "L['d']['a'] == 1 (actual 1.0)"
    assert compiled.failure_reason({}) == "L['d']: missing key (expected dict)"
