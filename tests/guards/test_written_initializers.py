"""Guard, TensorSpec and the sources with fields have written-out initializers (slot setters
instead of the generated `object.__setattr__` per field): they must store what the generated
ones stored, keep the dataclass protocol (fields, replace, equality, copies, pickles) and
still refuse bad values. Each check here compares against a value worked out independently."""

import copy
import dataclasses
import pickle

import pytest

from guards.constants import constant_key, safe_label
from guards.guard import Guard, GuardKind, TensorSpec
from guards.sources import (
    AttrSource,
    BuiltinSource,
    ClosureSource,
    DefaultsSource,
    GlobalsDictSource,
    GlobalSource,
    ItemSource,
    LocalSource,
    ModeStackSource,
    Source,
    TypeSource,
)

SOURCES: list[tuple[Source, tuple[object, ...], str]] = [
    (LocalSource("x"), ("x",), "L['x']"),
    (GlobalSource("g"), ("g",), "G['g']"),
    (BuiltinSource("len"), ("len",), "B['len']"),
    (ClosureSource("n", 2), ("n", 2), "C['n']"),
    (AttrSource(LocalSource("x"), "a"), (LocalSource("x"), "a"), "L['x'].a"),
    (ItemSource(LocalSource("x"), 3), (LocalSource("x"), ("int", 3)), "L['x'][3]"),
]


@pytest.mark.parametrize(("source", "fields", "name"), SOURCES)
def test_sources_store_their_fields_and_hash_them(
    source: Source, fields: tuple[object, ...], name: str
) -> None:
    assert source.name == name
    assert hash(source) == hash(fields)
    twin = type(source)(*[getattr(source, f.name) for f in dataclasses.fields(source) if f.init])
    assert twin == source and twin is not source and hash(twin) == hash(source)
    for clone in (copy.copy(source), copy.deepcopy(source), pickle.loads(pickle.dumps(source))):
        assert type(clone) is type(source) and clone == source and hash(clone) == hash(source)
        assert clone.name == name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(source, dataclasses.fields(source)[0].name, None)


def test_stored_names_are_the_access_expression_on_the_base_name() -> None:
    """Sources with written-out initializers store their name when built (guards.sources);
    it must be what `access(base.name)` gives, whatever the base (stored or a property) and
    however the member or key prints, and it stays read-only."""
    deep = ItemSource(TypeSource(AttrSource(DefaultsSource(LocalSource("x"), 0), "a")), "k")
    assert deep.name == "type(L['x'].__defaults__[0].a)['k']"
    cases: list[Source] = [
        deep,
        AttrSource(ModeStackSource(1), "mode"),
        AttrSource(GlobalSource("cfg"), "not-an-identifier"),
        AttrSource(ItemSource(BuiltinSource("b"), ("t", 1.5, None)), "x"),
        ItemSource(AttrSource(ClosureSource("n", 0), "__closure__"), -1),
        ItemSource(GlobalsDictSource(), True),
    ]
    for source in cases:
        assert source.base is not None
        assert source.name == source.access(source.base.name)
        # (a frozen slots dataclass of 3.11 refuses a non-field with TypeError)
        with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
            source.name = "other"  # type: ignore[misc]
    assert AttrSource(GlobalSource("cfg"), "not-an-identifier").name == (
        "getattr(G['cfg'], 'not-an-identifier')"
    )
    assert ItemSource(LocalSource("d"), ("t", 1.5, None)).name == "L['d'][('t', 1.5, None)]"


def test_sources_differ_by_every_field_and_class() -> None:
    assert LocalSource("x") != LocalSource("y")
    assert LocalSource("x") != GlobalSource("x")
    assert GlobalSource("len") != BuiltinSource("len")
    assert ClosureSource("n", 0) != ClosureSource("n", 1)
    assert ClosureSource("n", 0) != ClosureSource("m", 0)
    assert len({LocalSource("x"), LocalSource("x"), GlobalSource("x")}) == 2
    assert GlobalsDictSource() == GlobalsDictSource()


def test_sources_refuse_what_they_refused() -> None:
    with pytest.raises(ValueError, match="one AttrSource at a time"):
        AttrSource(LocalSource("x"), "a.b")
    with pytest.raises(ValueError):
        ItemSource(LocalSource("x"), [1])
    with pytest.raises(TypeError):
        LocalSource()  # type: ignore[call-arg]
    assert AttrSource(base=LocalSource("x"), member="a") == AttrSource(LocalSource("x"), "a")
    assert ItemSource(base=LocalSource("x"), key="k").exact_key == ("str", "k")


def test_guard_stores_its_fields_and_key() -> None:
    source = LocalSource("n")
    guard = Guard(GuardKind.EQUALS_MATCH, source, 3)
    assert (guard.kind, guard.source, guard.expected, guard.user_location) == (
        GuardKind.EQUALS_MATCH,
        source,
        3,
        None,
    )
    assert guard.key == (GuardKind.EQUALS_MATCH, source, constant_key(3))
    assert hash(guard) == hash(guard.key)
    assert guard == Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 3, None)
    assert guard != Guard(GuardKind.EQUALS_MATCH, source, 4)
    by_keyword = Guard(kind=GuardKind.LENGTH_CHECK, source=source, expected=2, user_location=None)
    assert by_keyword == Guard(GuardKind.LENGTH_CHECK, source, 2)
    assert [f.name for f in dataclasses.fields(guard)] == [
        "kind",
        "source",
        "expected",
        "user_location",
        "_key",
        "_hash",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        guard.expected = 5  # type: ignore[misc]


def test_guard_replace_recomputes_the_key() -> None:
    guard = Guard(GuardKind.LENGTH_CHECK, LocalSource("xs"), 3)
    other = dataclasses.replace(guard, expected=4)
    assert other.expected == 4 and other != guard
    assert other == Guard(GuardKind.LENGTH_CHECK, LocalSource("xs"), 4)
    assert hash(other) == hash(other.key)


def test_guard_refuses_bad_expected_values() -> None:
    with pytest.raises(TypeError, match="TYPE_MATCH expects a type"):
        Guard(GuardKind.TYPE_MATCH, LocalSource("x"), 3)
    with pytest.raises(TypeError, match="LENGTH_CHECK expects an int"):
        Guard(GuardKind.LENGTH_CHECK, LocalSource("x"), "3")
    with pytest.raises(TypeError):
        Guard(GuardKind.LENGTH_CHECK, LocalSource("x"))  # type: ignore[call-arg]


class _Odd:
    def __repr__(self) -> str:
        return "<odd>"


BAD_EXPECTED: list[tuple[GuardKind, object, str]] = [
    (GuardKind.TYPE_MATCH, 3, "TYPE_MATCH expects a type, got "),
    (GuardKind.EQUALS_MATCH, [1], "EQUALS_MATCH expects a constant, got "),
    (GuardKind.LENGTH_CHECK, 3.0, "LENGTH_CHECK expects an int, got "),
    (GuardKind.DICT_NOT_CONTAINS, _Odd(), "DICT_NOT_CONTAINS expects a constant key, got "),
    (GuardKind.HASATTR, 1, "HASATTR expects an attribute name, got "),
    (GuardKind.NO_HASATTR, None, "NO_HASATTR expects an attribute name, got "),
    (GuardKind.TENSOR_MATCH, "float32", "TENSOR_MATCH expects a TensorSpec, got "),
    (GuardKind.MODE_STACK, [int], "MODE_STACK expects a tuple of mode types, got "),
    (GuardKind.MODE_STACK, (int, 1), "MODE_STACK expects a tuple of mode types, got "),
    (GuardKind.OBJECT_ALIASING, "L['a']", "OBJECT_ALIASING expects a Source, got "),
    (GuardKind.NO_ALIASING, [LocalSource("a")], "NO_ALIASING expects a tuple of Sources, got "),
    (GuardKind.NO_ALIASING, (LocalSource("a"), 1), "NO_ALIASING expects a tuple of Sources, got "),
]


@pytest.mark.parametrize(("kind", "expected", "prefix"), BAD_EXPECTED)
def test_every_kind_checks_its_expected_value(
    kind: GuardKind, expected: object, prefix: str
) -> None:
    """One table checks `expected` and makes its key (guards.guard._KEY_OF): each kind that
    constrains `expected` refuses a bad one with its own message, naming it safely."""
    with pytest.raises(TypeError) as raised:
        Guard(kind, LocalSource("x"), expected)
    assert str(raised.value) == prefix + safe_label(expected)


def test_dict_keys_match_names_its_bad_keys_with_repr() -> None:
    for bad in (["a"], ("a", [])):
        with pytest.raises(TypeError) as raised:
            Guard(GuardKind.DICT_KEYS_MATCH, LocalSource("x"), bad)
        assert str(raised.value) == f"DICT_KEYS_MATCH expects a tuple of constant keys, got {bad!r}"


def test_kinds_without_a_check_take_any_expected_value() -> None:
    odd = _Odd()
    assert Guard(GuardKind.ID_MATCH, LocalSource("x"), odd).key[2] == id(odd)
    assert Guard(GuardKind.CLOSURE_MATCH, LocalSource("x"), odd).key[2] == ("id", id(odd))
    assert Guard(GuardKind.CLOSURE_MATCH, LocalSource("x"), 2).key[2] == constant_key(2)


def test_tensor_spec_fields_replace_and_equality() -> None:
    spec = TensorSpec("float32", (2, 3), False)
    assert (spec.dtype, spec.shape, spec.requires_grad, spec.cls) == (
        "float32",
        (2, 3),
        False,
        None,
    )
    assert spec == TensorSpec("float32", (2, 3), False, None)
    assert hash(spec) == hash(TensorSpec(dtype="float32", shape=(2, 3), requires_grad=False))
    assert spec != TensorSpec("float32", (2, 3), True)
    with_cls = dataclasses.replace(spec, cls=int)
    assert with_cls.cls is int and with_cls.shape == (2, 3) and with_cls != spec
    assert str(spec) == "float32[2, 3]"
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.shape = (1,)  # type: ignore[misc]
