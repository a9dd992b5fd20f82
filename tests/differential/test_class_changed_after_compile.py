"""A class changed after a compile: objects the tracer models by their builtin base or by what
their class was made with (a plain subclass of int, tuple or dict, a named tuple, an enum
member) answered `len(t)`, `d.get(k)`, `i + 1`, `str(member)` with the base's code, and a
special method or a shadowing method set on the class later was ignored by the cached entry
(2 where plain Python gave 9). Each class's names are now guarded as traced
(`variables.class_lookup.guard_class_names`), and a constant read from a class is guarded
where it is read."""

from __future__ import annotations

import collections
import dataclasses
import enum
import fractions
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

import tracer
from tracer.testing import CompileCounter


def _make_classes() -> dict[str, Any]:
    """Fresh classes for each test: the tests change them."""

    class Tally(dict):  # type: ignore[type-arg]
        scale = 2

        def total(self) -> int:
            return sum(self.values())

    class Pair(tuple):  # type: ignore[type-arg]
        def first(self) -> Any:
            return self[0]

    class Count(int):
        unit = "n"

        def double(self) -> int:
            return self * 2

    class Point(NamedTuple):
        x: int
        y: int

    Span = collections.namedtuple("Span", "start stop")
    Step = collections.namedtuple("Step", "start size", defaults=(5,))

    class Color(enum.Enum):
        RED = 1
        BLUE = 2

    return {
        "Tally": Tally, "Pair": Pair, "Count": Count, "Point": Point, "Span": Span,
        "Step": Step, "Color": Color,
    }  # fmt: skip


# (what the function does with the classes, the change made on them after the first call)
CASES: dict[str, tuple[Callable[[dict[str, Any], Any], Any], Callable[[dict[str, Any]], None]]] = {
    "dict subclass: a method shadowing dict's": (
        lambda c, x: c["Tally"](a=x).get("a"),
        lambda c: setattr(c["Tally"], "get", lambda self, key: 99),
    ),
    "dict subclass: __len__ set on the class": (
        lambda c, x: len(c["Tally"](a=x)),
        lambda c: setattr(c["Tally"], "__len__", lambda self: 7),
    ),
    "dict subclass: a constant of the class": (
        lambda c, x: c["Tally"](a=x).scale * x,
        lambda c: setattr(c["Tally"], "scale", 3),
    ),
    "tuple subclass: __len__ set on the class": (
        lambda c, x: len(c["Pair"]((x, 2))),
        lambda c: setattr(c["Pair"], "__len__", lambda self: 9),
    ),
    "tuple subclass: a method shadowing tuple's": (
        lambda c, x: c["Pair"]((x, 2)).count(2),
        lambda c: setattr(c["Pair"], "count", lambda self, v: 42),
    ),
    "int subclass: __add__ set on the class": (
        lambda c, x: c["Count"](x) + 1,
        lambda c: setattr(c["Count"], "__add__", lambda self, other: -5),
    ),
    "int subclass: a constant of the class": (
        lambda c, x: c["Count"](x).unit,
        lambda c: setattr(c["Count"], "unit", "k"),
    ),
    "named tuple made in the frame: __repr__ set on the class": (
        lambda c, x: repr(c["Span"](x, 2)),
        lambda c: setattr(c["Span"], "__repr__", lambda self: "R"),
    ),
    "named tuple made in the frame: its __new__'s defaults changed": (
        lambda c, x: c["Step"](x).size,
        lambda c: setattr(c["Step"].__new__, "__defaults__", (7,)),
    ),
    "enum member: __str__ set on the class": (
        lambda c, x: str(c["Color"](x)),
        lambda c: setattr(c["Color"], "__str__", lambda self: "S"),
    ),
}


@pytest.mark.parametrize("uses, change", CASES.values(), ids=list(CASES))
def test_a_class_changed_after_the_compile_is_seen(
    uses: Callable[[dict[str, Any], Any], Any], change: Callable[[dict[str, Any]], None]
) -> None:
    tracer.reset()
    classes = _make_classes()

    def fn(x: Any) -> Any:
        return uses(classes, x)

    compiled = tracer.compile(fn)
    with CompileCounter() as counter:
        assert compiled(1) == fn(1)
        assert compiled(1) == fn(1)
    assert counter.compiles == 1, "an unchanged class hits the entry"
    change(classes)
    assert compiled(1) == fn(1), "the changed class is what plain Python uses"


def test_a_named_tuple_input_whose_class_changed_misses() -> None:
    tracer.reset()
    Point = _make_classes()["Point"]

    def fn(p: Any) -> Any:
        return len(p), p[0] + p.y

    compiled = tracer.compile(fn)
    assert compiled(Point(1, 2)) == fn(Point(1, 2)) == (2, 3)
    Point.__len__ = lambda self: 5
    assert compiled(Point(1, 2)) == fn(Point(1, 2)) == (5, 3)


def test_a_class_reached_again_without_a_source_is_guarded_once() -> None:
    """`s.__class__(5, 6)`: the class of an input, reached again as `s.__class__`, was guarded
    through the input's type; making an object of it traces."""
    tracer.reset()
    Span = _make_classes()["Span"]

    def fn(s: Any) -> Any:
        return s.__class__(s.stop, 6)

    with CompileCounter() as counter:
        assert tracer.compile(fn)(Span(1, 2)) == Span(2, 6)
    assert counter.graph_breaks == 0


# An operation folded on the real object (`str(member)`, `repr(p)`, `a == b`, `f | g`) runs
# whatever special method its class has: a method of the user's ran once, while tracing, and its
# answer was kept (it may read anything); the stdlib's (Enum's `__str__`, Flag's `__or__`, a
# dataclass's generated `__eq__`, Fraction's `__add__`) was not pinned, so one set later was
# ignored. A user's method now breaks the frame (it runs on every call), and a stdlib one is
# pinned where it was found (`class_protocols.guard_instance_specials`).


def test_a_users_special_method_runs_on_every_call_not_once_while_tracing() -> None:
    tracer.reset()
    state = {"tag": "a"}
    calls: list[str] = []

    class Color(enum.Enum):
        RED = 1

        def __str__(self) -> str:
            calls.append("str")
            return state["tag"]

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int

        def __repr__(self) -> str:
            return "P" + state["tag"]

    def fn(x: int) -> str:
        return str(Color.RED) + repr(Point(x))

    compiled = tracer.compile(fn)
    assert compiled(1) == fn(1) == "aPa"
    state["tag"] = "b"
    assert compiled(1) == fn(1) == "bPb"
    assert len(calls) == 4, "once per call, compiled or not"


def test_a_stdlib_special_method_replaced_after_the_compile_is_seen() -> None:
    tracer.reset()

    class Perm(enum.Flag):
        R = 1
        W = 2

    @dataclasses.dataclass(frozen=True, order=True)
    class Version:
        major: int

    def fn(x: int) -> Any:
        return (Perm.R | Perm.W).value + x, Version(x) == Version(x), Version(x) < Version(2)

    compiled = tracer.compile(fn)
    assert compiled(1) == fn(1) == (4, True, True)
    Perm.__or__ = lambda self, other: Perm.R  # type: ignore[method-assign,assignment]
    Version.__eq__ = lambda self, other: "EQ"  # type: ignore[method-assign,assignment,return-value]
    Version.__lt__ = lambda self, other: "LT"  # type: ignore[method-assign,assignment,return-value]
    assert compiled(1) == fn(1) == (2, "EQ", "LT")


def test_fraction_patched_after_the_compile_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    tracer.reset()

    def fn(x: int) -> Any:
        return fractions.Fraction(1, 2) + x

    compiled = tracer.compile(fn)
    assert compiled(1) == fn(1) == fractions.Fraction(3, 2)
    monkeypatch.setattr(fractions.Fraction, "__add__", lambda self, other: "patched")
    assert compiled(1) == fn(1) == "patched"


class Rect(NamedTuple):
    """A named tuple class of the module (objects made in the frame reach it by its name)."""

    w: int
    h: int
    UNIT = 2

    def area(self) -> int:
        return self.w * self.h * self.UNIT

    @property
    def wide(self) -> bool:
        return self.w > self.h


@pytest.mark.parametrize(
    "name, value",
    [
        ("area", lambda self: 100),
        ("wide", property(lambda self: "replaced")),
        ("UNIT", 5),
        ("w", property(lambda self: -1)),  # a field's accessor
    ],
)
def test_a_named_tuple_member_replaced_after_the_compile_is_seen(
    monkeypatch: pytest.MonkeyPatch, name: str, value: Any
) -> None:
    tracer.reset()

    def fn(x: int) -> Any:
        r = Rect(x, 2)
        return r.area(), r.wide, r.UNIT, r.w

    compiled = tracer.compile(fn)
    with CompileCounter() as counter:
        assert compiled(3) == fn(3) == (12, True, 2, 3)
    assert counter.graph_breaks == 0
    monkeypatch.setattr(Rect, name, value)
    assert compiled(3) == fn(3)


def test_a_class_renamed_after_the_compile_is_seen() -> None:
    """`__name__` and `__qualname__` of a class were folded unguarded (`type(self).__name__`
    in a message kept the old name); they are read at the class's source now."""
    tracer.reset()

    class Config:
        pass

    config = Config()

    def fn(x: str) -> str:
        return type(config).__name__ + Config.__qualname__.rpartition(".")[2] + x

    compiled = tracer.compile(fn)
    assert compiled("!") == fn("!") == "ConfigConfig!"
    Config.__name__ = "Renamed"
    Config.__qualname__ = "Renamed"
    assert compiled("!") == fn("!") == "RenamedRenamed!"


def _field(name: str, default: Any) -> dataclasses.Field[Any]:
    """A field as `@dataclass` makes one (its name and kind are set by the decorator)."""
    made: Any = dataclasses.field(default=default)
    made.name, made.type, made._field_type = name, int, dataclasses._FIELD  # type: ignore[attr-defined]
    return made


# (what the function does with a dataclass instance `p`, what is changed after the first call)
DATACLASS_CASES: dict[str, tuple[Callable[[Any], Any], Callable[[type], None]]] = {
    "fields(): a field added": (
        lambda p: [f.name for f in dataclasses.fields(p)],
        lambda P: P.__dataclass_fields__.__setitem__("z", _field("z", 3)),
    ),
    "fields(): a field renamed": (
        lambda p: [f.name for f in dataclasses.fields(p)],
        lambda P: setattr(P.__dataclass_fields__["y"], "name", "w"),
    ),
    "is_dataclass(): no longer one": (
        lambda p: (dataclasses.is_dataclass(p), dataclasses.is_dataclass(type(p))),
        lambda P: delattr(P, "__dataclass_fields__"),
    ),
    "asdict(): a field added": (
        lambda p: dataclasses.asdict(p),
        lambda P: P.__dataclass_fields__.__setitem__("z", _field("z", 3)),
    ),
    "astuple(): a field turned into a class variable": (
        lambda p: dataclasses.astuple(p),
        lambda P: setattr(P.__dataclass_fields__["y"], "_field_type", dataclasses._FIELD_CLASSVAR),  # type: ignore[attr-defined]
    ),
    "replace(): a field made init=False": (
        lambda p: dataclasses.replace(p, x=5),
        lambda P: setattr(P.__dataclass_fields__["x"], "init", False),
    ),
}


@pytest.mark.parametrize("uses, change", DATACLASS_CASES.values(), ids=list(DATACLASS_CASES))
def test_a_dataclass_changed_after_the_compile_is_seen(
    uses: Callable[[Any], Any], change: Callable[[type], None]
) -> None:
    """`dataclasses.fields()`, `is_dataclass()`, `replace()` were modeled on the class's fields
    as they were while tracing, unguarded: a field added, renamed or removed later (or the
    class no longer a dataclass) kept the cached answer. The stdlib's Python for them is
    traced now, so what it reads is guarded where read; `asdict` and `astuple` (modeled: their
    deep copy does not trace) read the field list through the traced `fields()`."""
    tracer.reset()

    @dataclasses.dataclass
    class P:
        x: int = 1
        y: int = 2

    p = P()
    compiled = tracer.compile(uses)
    with CompileCounter() as counter:
        assert compiled(p) == uses(p)
        assert compiled(p) == uses(p)
    assert counter.compiles == 1 and counter.graph_breaks == 0, "traced, and hit when unchanged"
    change(P)
    assert _outcome(compiled, p) == _outcome(uses, p), "what plain Python does with the change"


def _outcome(fn: Callable[[Any], Any], p: Any) -> Any:
    try:
        return fn(p)
    except (TypeError, ValueError, AttributeError) as e:  # the same error, compiled or not
        return type(e), str(e)


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


def _named() -> None:
    """A module-level function whose `__qualname__` the test changes."""


@pytest.mark.parametrize(
    "uses",
    [
        lambda m: m.value + 1,
        lambda m: m.name + "!",
        lambda m: str(m) + repr(m) + f"{m}",
        lambda m: Level.LOW.value * 10,
    ],
    ids=["value", "name", "str, repr, format", "member of the class"],
)
def test_an_enum_members_state_assigned_after_the_compile_is_seen(
    monkeypatch: pytest.MonkeyPatch, uses: Callable[[Any], Any]
) -> None:
    """A member's `value` and `name` (and what Enum's `__str__`/`__repr__` answer from) are its
    `_value_` and `_name_`, writable instance attributes: they were read while tracing and
    kept. They are read at the member's source now."""
    tracer.reset()
    compiled = tracer.compile(uses)
    assert compiled(Level.LOW) == uses(Level.LOW)
    monkeypatch.setattr(Level.LOW, "_value_", 7)
    monkeypatch.setattr(Level.LOW, "_name_", "BOTTOM")
    assert compiled(Level.LOW) == uses(Level.LOW)
    try:
        Level.__name__ = "Grade"  # (monkeypatch would delete it afterwards: a type's slot)
        assert compiled(Level.LOW) == uses(Level.LOW)
    finally:
        Level.__name__ = "Level"


def test_a_functions_repr_after_its_qualname_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`repr(f)`, `str(f)`, `f"{f}"` name the function's `__qualname__` (writable): folded
    while tracing, it is now guarded at the function's source. A module's repr (importlib
    builds it from several attributes) breaks the frame."""
    tracer.reset()

    def fn(x: str) -> str:
        return repr(_named) + str(_named) + f"{_named}" + x

    compiled = tracer.compile(fn)
    assert compiled("!") == fn("!")
    monkeypatch.setattr(_named, "__qualname__", "renamed")
    assert compiled("!") == fn("!")

    def module_repr(x: str) -> str:
        return repr(enum) + x

    with CompileCounter() as counter:
        assert tracer.compile(module_repr)("!") == module_repr("!")
    assert counter.graph_breaks == 1


class Named:
    """A class whose naming attributes the test changes."""


Pair = collections.namedtuple("Pair", "a b")


@pytest.mark.parametrize(
    "value, uses, change",
    [
        (Named, lambda c: repr(c) + str(c), lambda: setattr(Named, "__qualname__", "Renamed")),
        (Named, lambda c: f"{c}", lambda: setattr(Named, "__module__", "elsewhere")),
        (Pair(1, 2), lambda p: repr(p), lambda: setattr(Pair, "__name__", "Couple")),
    ],
    ids=["repr of a class, __qualname__", "format of a class, __module__", "a named tuple's repr"],
)
def test_a_class_renamed_after_a_folded_repr(
    value: Any, uses: Callable[[Any], Any], change: Callable[[], None]
) -> None:
    """`repr(C)` (`<class 'module.qualname'>`) and the repr of a named tuple or an enum
    member name their class: folded while tracing, they kept the old name. The naming
    attributes are guarded at the class's source now (`guard_class_naming`)."""
    cls = value if isinstance(value, type) else type(value)
    saved = {n: getattr(cls, n) for n in ("__name__", "__qualname__", "__module__")}
    tracer.reset()
    compiled = tracer.compile(uses)
    try:
        assert compiled(value) == uses(value)
        change()
        assert compiled(value) == uses(value)
    finally:
        for name, old in saved.items():
            setattr(cls, name, old)


class Pt:
    __match_args__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y


class Coded(Exception):
    code = 1


class Maker:
    k = 1

    @classmethod
    def make(cls) -> int:
        return cls.k + 1


def _class_reads(o: Any) -> Any:
    match o:
        case Pt(0, y):
            matched: Any = ("zero", y)
        case _:
            matched = "other"
    try:
        raise Coded("x")
    except Coded as e:
        code = type(e).code + 1
    return matched, code, Maker().make()


def test_a_class_reached_without_a_source_is_read_through_its_module() -> None:
    """A class reached with no source of its own (a class pattern's `__match_args__`,
    `type(e)` of an exception made in the frame, a classmethod called through an object made
    in the frame) was read unguarded: a class attribute changed later kept its traced value.
    Such a class is read through its module's global of its name now (`module_path_source`)."""
    tracer.reset()
    compiled = tracer.compile(_class_reads)
    p = Pt(0, 1)
    assert compiled(p) == _class_reads(p) == (("zero", 1), 2, 2)
    saved = Pt.__match_args__
    try:
        Pt.__match_args__ = ("y", "x")
        Coded.code = 7
        Maker.k = 5
        assert compiled(p) == _class_reads(p) == ("other", 8, 6)
    finally:
        Pt.__match_args__, Coded.code, Maker.k = saved, 1, 1


def _outcome(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return ("returned", fn(*args))
    except Exception as e:  # noqa: BLE001 - the outcome is what is compared
        return ("raised", type(e).__name__, str(e))


def test_a_property_given_its_missing_accessor_later_is_used() -> None:
    """The AttributeError of a property with no setter (getter) was cached with no guard on
    the property: `C.p = C.p.setter(f)` (a new property) still raised."""

    class C:
        p = property(lambda self: 1)
        q = property(None, lambda self, v: None)

    def store(o: Any) -> Any:
        o.p = 5
        return "stored"

    def read(o: Any) -> Any:
        return o.q

    compiled_store, compiled_read = tracer.compile(store), tracer.compile(read)
    for compiled, plain in ((compiled_store, store), (compiled_read, read)):
        assert _outcome(compiled, C()) == _outcome(plain, C())
        assert _outcome(compiled, C())[0] == "raised"
    C.p = C.p.setter(lambda self, v: None)  # type: ignore[attr-defined]
    C.q = C.q.getter(lambda self: "got")  # type: ignore[attr-defined]
    for compiled, plain in ((compiled_store, store), (compiled_read, read)):
        assert _outcome(compiled, C()) == _outcome(plain, C())
        assert _outcome(compiled, C())[0] == "returned"


def test_a_slot_replaced_or_deleted_on_the_class_later() -> None:
    """The `__slots__` member was not pinned: after `C.x = 7` the trace still read the empty
    slot, and after `del C.x` its replayed store raised outside the user's `try`."""

    class Read:
        __slots__ = ("x",)

    class Store:
        __slots__ = ("x",)

    def read(o: Any) -> Any:
        return hasattr(o, "x"), getattr(o, "x", "default")

    def store(o: Any) -> Any:
        try:
            o.x = 3
            return o.x
        except AttributeError as e:
            return f"caught: {e}"

    compiled_read, compiled_store = tracer.compile(read), tracer.compile(store)
    assert _outcome(compiled_read, Read()) == _outcome(read, Read())
    assert _outcome(compiled_store, Store()) == _outcome(store, Store())
    Read.x = 7  # type: ignore[misc]
    del Store.x
    assert _outcome(compiled_read, Read()) == _outcome(read, Read()) == ("returned", (True, 7))
    assert _outcome(compiled_store, Store()) == _outcome(store, Store())
    assert _outcome(compiled_store, Store())[1].startswith("caught: ")
