"""Sources: printed names, the expressions the check runs, real evaluation, value semantics."""

from __future__ import annotations

import pytest

from guards import (
    AttrSource,
    BuiltinSource,
    ClosureSource,
    DefaultsSource,
    GlobalsDictSource,
    GlobalSource,
    ItemSource,
    LocalSource,
    ModeStackListSource,
    ModeStackSource,
    TypeSource,
)


class Config:
    def __init__(self) -> None:
        self.scale = 0.5


def make_closure() -> tuple[object, ...]:
    n = 7

    def inner() -> int:
        return n

    assert inner.__closure__ is not None
    return inner.__closure__


def test_sources_names_and_exprs() -> None:
    x = LocalSource("x")
    cases = [
        (x, "L['x']", "L['x']"),
        (GlobalSource("y"), "G['y']", "G['y']"),
        (BuiltinSource("len"), "B['len']", "B['len']"),
        (GlobalsDictSource(), "G", "G"),
        (ClosureSource("n", 2), "C['n']", "C[2].cell_contents"),
        (AttrSource(x, "a"), "L['x'].a", "L['x'].a"),
        (AttrSource(x, "a-b"), "getattr(L['x'], 'a-b')", "getattr(L['x'], 'a-b')"),
        (ItemSource(LocalSource("xs"), 0), "L['xs'][0]", "L['xs'][0]"),
        (ItemSource(LocalSource("d"), "k"), "L['d']['k']", "L['d']['k']"),
        (ItemSource(LocalSource("d"), (1, None)), "L['d'][(1, None)]", "L['d'][(1, None)]"),
        (TypeSource(x), "type(L['x'])", "type(L['x'])"),
        (DefaultsSource(LocalSource("f"), 0), "L['f'].__defaults__[0]", "L['f'].__defaults__[0]"),
        (ModeStackListSource(), "___mode_stack", "___mode_stack()"),
        (ModeStackSource(1), "___mode_stack[1]", "___mode_stack()[1]"),
        (ItemSource(AttrSource(x, "a"), 0), "L['x'].a[0]", "L['x'].a[0]"),
    ]
    for source, name, expr in cases:
        assert (source.name, source.expr(), repr(source)) == (name, expr, name)


def test_chained_names_are_access_of_the_base_name() -> None:
    """AttrSource and ItemSource write `access(base.name)` out in `name`: the same text."""
    x = LocalSource("x")
    chained = [
        AttrSource(x, "a"),
        AttrSource(x, "a-b"),
        AttrSource(AttrSource(ClosureSource("m", 0), "__closure__"), "not an identifier"),
        ItemSource(x, 0),
        ItemSource(x, "k"),
        ItemSource(x, (1, None)),
        ItemSource(x, -0.5),
        ItemSource(AttrSource(ItemSource(x, 1), "a"), True),
    ]
    for source in chained:
        assert source.base is not None
        assert source.name == source.access(source.base.name)


def test_sources_get_value_reads_every_root() -> None:
    def f(a: int, b: int = 5) -> int:
        return a + b

    cells = make_closure()
    stack = ["bottom", "top"]
    L = {"cfg": Config(), "f": f, "xs": [10, {"k": "v"}]}
    G = {"g": 3}
    B = {"len": len}
    read = {
        AttrSource(LocalSource("cfg"), "scale"): 0.5,
        ItemSource(ItemSource(LocalSource("xs"), 1), "k"): "v",
        DefaultsSource(LocalSource("f"), 0): 5,
        GlobalSource("g"): 3,
        GlobalsDictSource(): G,
        BuiltinSource("len"): len,
        ClosureSource("n", 0): 7,
        TypeSource(LocalSource("cfg")): Config,
        ModeStackSource(1): "top",
    }
    for source, expected in read.items():
        assert source.get_value(L, G, B, cells, lambda: stack) == expected


def test_sources_are_values() -> None:
    a = AttrSource(ItemSource(LocalSource("xs"), 0), "a")
    b = AttrSource(ItemSource(LocalSource("xs"), 0), "a")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert ItemSource(LocalSource("xs"), 1) != ItemSource(LocalSource("xs"), True)
    assert LocalSource("x") != GlobalSource("x")
    assert ModeStackSource(0).base == ModeStackListSource()
    assert [s.name for s in a.chain()] == ["L['xs']", "L['xs'][0]", "L['xs'][0].a"]
    assert (a.depth, LocalSource("x").depth) == (2, 0)
    with pytest.raises(AttributeError):
        a.member = "b"  # type: ignore[misc]


@pytest.mark.parametrize("key", [float("inf"), float("nan"), object(), [1], frozenset({1})])
def test_sources_item_key_must_round_trip(key: object) -> None:
    with pytest.raises(ValueError, match="key"):
        ItemSource(LocalSource("d"), key)


def test_sources_attr_rejects_dotted_member() -> None:
    with pytest.raises(ValueError, match="one AttrSource at a time"):
        AttrSource(LocalSource("x"), "a.b")
