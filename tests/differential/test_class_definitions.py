"""Class statements inside a traced function (LOAD_BUILD_CLASS, the class body's name opcodes).

Each function first asserts that CPython compiles it to LOAD_BUILD_CLASS; then compiled ==
eager (fullgraph where the point is that the class traces whole), or, for what falls back,
that the reason says why. Identity: the compiled code builds a new class on every call, as
plain Python does.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

import tracer
from tests.differential.helpers import check
from tests.differential.opcodes import assert_uses
from tracer.testing import CompileCounter, assert_same_behavior


class ModuleBase:
    def __init__(self, a: Any) -> None:
        self.a = a

    def total(self) -> Any:
        return self.a


SCALE = 3


def plain(x: Any) -> Any:
    class C:
        pass

    c = C()
    c.v = x
    return c.v, type(c).__name__


def methods(x: Any) -> Any:
    class Counter:
        step = 2

        def __init__(self, start: Any) -> None:
            self.n = start
            self.history: list[Any] = []

        def bump(self) -> Any:
            self.n += self.step
            self.history.append(self.n)
            return self

    c = Counter(x).bump().bump()
    return c.n, c.history, Counter.step


def class_attributes(x: Any) -> Any:
    class Config:
        """The settings."""

        name = "cfg"
        sizes = (1, 2, 3)
        scale = SCALE  # a global, read (and guarded) in the class body
        doubled = scale * 2  # a name the body bound before

    return Config.name, Config.sizes, Config.doubled + x, Config.__doc__, Config().scale


def inherits_module_class(x: Any) -> Any:
    class Child(ModuleBase):
        def __init__(self, a: Any) -> None:
            super().__init__(a)
            self.b = a * 2

        def total(self) -> Any:
            return super().total() + self.b

    child = Child(x)
    return child.total(), isinstance(child, ModuleBase), issubclass(Child, ModuleBase)


def inherits_frame_class(x: Any) -> Any:
    class Base:
        kind = "base"

        def describe(self) -> Any:
            return f"{self.kind}:{self.value()}"

        def value(self) -> Any:
            return 0

    class Derived(Base):
        kind = "derived"

        def value(self) -> Any:
            return super().value() + x

    d = Derived()
    return d.describe(), isinstance(d, Base), issubclass(Derived, Base), type(d) is Derived


def dunders(x: Any) -> Any:
    class V:
        def __init__(self, v: Any) -> None:
            self.v = v

        def __eq__(self, other: object) -> Any:
            return self.v == other.v

        def __lt__(self, other: Any) -> Any:
            return self.v < other.v

        def __hash__(self) -> Any:
            return hash(self.v)

        def __add__(self, other: Any) -> Any:
            return V(self.v + other.v)

    values = [V(3), V(x), V(1)]
    ordered = [v.v for v in sorted(values)]
    return ordered, V(1) == V(1), V(1) < V(2), hash(V(4)) == hash(4), (V(1) + V(x)).v


def closes_over_local(x: Any) -> Any:
    y = x + 1

    class C:
        def get(self) -> Any:
            return y

    c = C()
    first = c.get()
    y = 10  # the method reads the cell: it sees the new value
    return first, c.get()


def closes_over_closure(x: Any) -> Any:
    def make() -> Any:
        class C:
            def get(self) -> Any:
                return x * 2

        return C().get()

    return make()


def class_body_closure(x: Any) -> Any:
    label = "outer"
    kind = "frame's"

    class C:
        tag = label  # LOAD_CLASSDEREF: the namespace first, then the frame's cell
        kind = "class's"
        again = kind  # LOAD_NAME: the namespace

        def get(self) -> Any:
            return label, kind

    return C.tag, C.again, C().get(), x


def class_body_comprehensions(x: Any) -> Any:
    """3.12 inlines a comprehension into the class body (PEP 709): its variables are the
    body's fast locals (LOAD_FAST_AND_CLEAR), a free variable is read through its cell and the
    first iterable through LOAD_LOCALS + LOAD_FROM_DICT_OR_DEREF."""
    step = 2
    label = "outer"

    class C:
        squares = tuple([y * step for y in range(x)])
        labels = len({label + str(y): y for y in range(x)})
        total = sum(y for y in range(x))  # a generator: a function of its own on 3.12 too

    return C.squares, C.labels, C.total, hasattr(C, "y")


def static_and_class_methods(x: Any) -> Any:
    class Shape:
        sides = 4

        @staticmethod
        def double(a: Any) -> Any:
            return a * 2

        @classmethod
        def make(cls) -> Any:
            return cls()

        @property
        def perimeter(self) -> Any:
            return self.sides * x

    return Shape.double(x), type(Shape.make()).__name__, Shape().perimeter


def property_setter(x: Any) -> Any:
    class Box:
        def __init__(self) -> None:
            self._v = 0

        @property
        def v(self) -> Any:
            return self._v

        @v.setter
        def v(self, value: Any) -> None:
            self._v = value * 2

    b = Box()
    b.v = x
    return b.v


def names_and_qualname(x: Any) -> Any:
    class C:
        pass

    return C.__name__, C.__qualname__, C.__module__, x


def returns_instance(x: Any) -> Any:
    class Point:
        def __init__(self, a: Any, b: Any) -> None:
            self.a = a
            self.b = b

        def norm1(self) -> Any:
            return abs(self.a) + abs(self.b)

    return Point(x, -x)


def returns_bound_method(x: Any) -> Any:
    class C:
        def scaled(self, k: Any) -> Any:
            return k * x

    return C().scaled


def stores_class_in_global(x: Any) -> Any:
    global LAST_CLASS

    class Made:
        value = 7

    LAST_CLASS = Made
    return Made.value + x


LAST_CLASS: Any = None


BODY_LOG: list[Any] = []


def body_changes_state(x: Any) -> Any:
    """The body's side effects are traced and replayed; the class is built from its namespace."""
    seen = len(BODY_LOG)

    class C:
        BODY_LOG.append(x)
        count = seen + 1

    BODY_LOG.append(C.count)
    return C.count


def body_prints(x: Any) -> Any:
    class C:
        print("in the body")

    return x


def user_metaclass(x: Any) -> Any:
    class Meta(type):
        pass

    class C(metaclass=Meta):
        pass

    return type(C).__name__, x


def a_dataclass(x: Any) -> Any:
    @dataclasses.dataclass
    class P:
        a: int
        b: int = 2

    p = P(x)
    return p.b, dataclasses.astuple(p), dataclasses.asdict(p), p == P(x, 2), p == P(x, 3)


def frozen_ordered_dataclass(x: Any) -> Any:
    @dataclasses.dataclass(frozen=True, order=True)
    class P:
        a: int
        b: int = 0

    p = P(x)
    try:
        p.a = 3  # type: ignore[misc]
    except dataclasses.FrozenInstanceError as e:
        error = str(e)
    return p.a, error, P(x) < P(x, 1), [q.a for q in sorted([P(9), p])]


def dataclass_with_bad_fields(x: Any) -> Any:
    @dataclasses.dataclass
    class P:
        a: int = 1
        b: int  # type: ignore[misc]

    return x


def asdict_of_the_class(x: Any) -> Any:
    @dataclasses.dataclass
    class P:
        a: int

    try:
        dataclasses.asdict(P)  # type: ignore[call-overload]
    except TypeError as e:
        return str(e), x


def slots_dataclass(x: Any) -> Any:
    @dataclasses.dataclass(slots=True)
    class P:
        a: int

    return P(x).a


def mutable_class_default(x: Any) -> Any:
    class C:
        items: list[Any] = []  # noqa: RUF012 - the class-level mutable default under test

    C.items.append(x)
    return C.items


def annotations_only(x: Any) -> Any:
    class C:
        a: int
        b: str = "s"

    return C.b, C().b, x


TRACED_WHOLE = [
    plain,
    methods,
    class_attributes,
    inherits_module_class,
    inherits_frame_class,
    dunders,
    closes_over_local,
    closes_over_closure,
    class_body_closure,
    static_and_class_methods,
    property_setter,
    names_and_qualname,
    body_changes_state,
    class_body_comprehensions,
    a_dataclass,
    frozen_ordered_dataclass,
    dataclass_with_bad_fields,
    asdict_of_the_class,
]


@pytest.mark.parametrize("fn", TRACED_WHOLE, ids=lambda fn: fn.__name__)
def test_traced_whole_same_as_eager(fn: Any) -> None:
    assert_uses(fn, "LOAD_BUILD_CLASS")
    check(fn, 5)


def test_returned_instance_is_of_a_new_class_each_call() -> None:
    assert_uses(returns_instance, "LOAD_BUILD_CLASS")
    compiled = tracer.compile(returns_instance, fullgraph=True)
    first, second = compiled(2), compiled(2)
    eager = returns_instance(2)
    assert type(first) is not type(second)  # two calls, two classes, as in plain Python
    for made in (first, second):
        cls = type(made)
        assert cls.__qualname__ == type(eager).__qualname__ == "returns_instance.<locals>.Point"
        assert cls.__module__ == __name__
        assert (made.a, made.b, made.norm1()) == (2, -2, 4)
        assert made.norm1.__func__ is cls.__dict__["norm1"]
        assert cls(5, 1).norm1() == 6


def test_dataclass_methods_belong_to_the_new_class() -> None:
    def returns_dataclass(x: Any) -> Any:
        @dataclasses.dataclass
        class P:
            a: int

        return P, P.__init__, P(x)

    assert_uses(returns_dataclass, "LOAD_BUILD_CLASS")
    compiled = tracer.compile(returns_dataclass, fullgraph=True)
    cls, init, made = compiled(3)
    assert cls.__dict__["__init__"] is init and type(made) is cls and made == cls(3)
    assert repr(made) == "test_dataclass_methods_belong_to_the_new_class.<locals>." + (
        "returns_dataclass.<locals>.P(a=3)"
    )
    assert compiled(3)[0] is not cls


def test_asdict_with_a_factory_falls_back() -> None:
    def with_factory(x: Any) -> Any:
        @dataclasses.dataclass
        class P:
            a: int

        return dataclasses.asdict(P(x), dict_factory=list)

    assert_same_behavior(with_factory, 2)
    assert "dict_factory" in str(tracer.explain(with_factory)(2).break_reasons[0])


def test_returned_bound_method_belongs_to_the_new_class() -> None:
    assert_uses(returns_bound_method, "LOAD_BUILD_CLASS")
    compiled = tracer.compile(returns_bound_method, fullgraph=True)
    method = compiled(3)
    assert method(4) == 12 == returns_bound_method(3)(4)
    cls = type(method.__self__)
    assert method.__func__ is cls.__dict__["scaled"]
    assert type(compiled(3).__self__) is not cls


def test_class_stored_in_a_global_is_the_call_s_class() -> None:
    assert_uses(stores_class_in_global, "LOAD_BUILD_CLASS")
    compiled = tracer.compile(stores_class_in_global, fullgraph=True)
    assert compiled(1) == 8
    first = LAST_CLASS
    compiled(1)
    assert LAST_CLASS is not first and LAST_CLASS.__qualname__ == first.__qualname__


def test_calls_reuse_the_compiled_code() -> None:
    """The class is not an input: nothing is guarded on it, so later calls do not recompile."""
    compiled = tracer.compile(methods, dynamic=True)
    with CompileCounter() as counter:
        for x in range(5):
            assert compiled(x) == methods(x)
    assert (counter.compiles, counter.graph_breaks) == (1, 0)


@pytest.mark.parametrize(
    ("fn", "reason"),
    [
        (body_prints, "print"),
        (user_metaclass, "metaclass Meta"),
        (slots_dataclass, "slots=True"),
        (mutable_class_default, "C.items"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_falls_back_with_a_reason(fn: Any, reason: str) -> None:
    assert_uses(fn, "LOAD_BUILD_CLASS")
    assert_same_behavior(fn, 4)
    explained = tracer.explain(fn)(4)
    assert explained.graph_break_count == 1
    assert reason in str(explained.break_reasons[0])


def test_break_after_a_class_does_not_resume() -> None:
    """A resume function would be handed the class, new on every call, and be guarded on it:
    the frame runs eagerly instead of recompiling on every call."""

    def defines_then_breaks(x: Any) -> Any:
        class C:
            k = 1

        tracer.graph_break()
        return C.k + x

    assert_uses(defines_then_breaks, "LOAD_BUILD_CLASS")
    assert_same_behavior(defines_then_breaks, 1)
    explained = tracer.explain(defines_then_breaks)(1)
    assert "it defined a class" in str(explained.break_reasons[0])
    compiled = tracer.compile(defines_then_breaks)
    with CompileCounter() as counter:
        for x in range(4):
            assert compiled(x) == x + 1
    assert counter.compiles == 1


def test_annotations_in_the_body() -> None:
    assert_uses(annotations_only, "SETUP_ANNOTATIONS")
    check(annotations_only, 1)


def test_in_on_an_object_without_contains_raises_cpythons_type_error() -> None:
    def contains(x: Any) -> Any:
        class Empty:
            pass

        try:
            return x in Empty()
        except TypeError as e:
            return str(e)

    check(contains, 1)


def test_list_equality_rereads_lengths_after_a_user_eq() -> None:
    """CPython's list `==` compares items while both lists still have one there, then the
    lengths: an `__eq__` that empties both lists makes them equal (test_list's
    test_equal_operator_modifying_operand)."""

    def empties_both(x: Any) -> Any:
        class X:
            def __eq__(self, other: object) -> Any:
                list2.clear()
                return NotImplemented

        class Y:
            def __eq__(self, other: object) -> Any:
                list1.clear()
                return NotImplemented

        list1 = [X()]
        list2 = [Y()]
        return list1 == list2, list1, list2, x

    check(empties_both, 1)


FINALIZED: list[Any] = []


class Finalized:
    def __del__(self) -> None:
        FINALIZED.append("module class")


def test_objects_with_a_finalizer_are_not_made_symbolically() -> None:
    """An object made in the frame exists at run time only if the compiled code rebuilds it:
    a class with `__del__` (its finalizer is a side effect) falls back."""

    def makes_and_drops(x: Any) -> Any:
        class Local:
            def __del__(self) -> None:
                FINALIZED.append("local class")

        Local()
        Finalized()
        return len(FINALIZED) + x

    assert_uses(makes_and_drops, "LOAD_BUILD_CLASS")
    compiled = tracer.compile(makes_and_drops)
    FINALIZED.clear()
    compiled(1)
    assert FINALIZED == ["local class", "module class"]
    assert "defines __del__" in str(tracer.explain(makes_and_drops)(1).break_reasons[0])


def names_itself(x: Any) -> Any:
    class Node:
        def __init__(self, v: Any, nxt: Any = None) -> None:
            self.v = v
            self.nxt = nxt

        def push(self, v: Any) -> Any:
            return Node(v, self)  # the class through the frame's cell

        def total(self) -> Any:
            return self.v + (self.nxt.total() if self.nxt is not None else 0)

    return Node(x).push(2).push(3)


def test_a_class_whose_methods_name_it() -> None:
    assert_uses(names_itself, "LOAD_BUILD_CLASS")
    compiled = tracer.compile(names_itself, fullgraph=True)
    node = compiled(1)
    assert node.total() == 6 == names_itself(1).total()
    pushed = node.push(5)  # after the call: the cell holds the class this call built
    assert type(pushed) is type(node) and pushed.total() == 11


def nested_class(x: Any) -> Any:
    class Outer:
        class Inner:
            k = 5

        def make(self) -> Any:
            return self.Inner()

    return Outer().make().k + x, Outer.Inner.__qualname__


def test_nested_class() -> None:
    assert_uses(nested_class, "LOAD_BUILD_CLASS")
    check(nested_class, 1)


def test_methods_keep_their_annotations_and_defaults() -> None:
    def annotated(x: Any) -> Any:
        class C:
            def m(self, a: int, *, b: str = "s") -> float:
                return float(a)

            @staticmethod
            def s(q: list[int], r: Any = None) -> None:
                pass

        return C

    assert_uses(annotated, "LOAD_BUILD_CLASS")
    made = tracer.compile(annotated, fullgraph=True)(1)
    eager = annotated(1)
    for name in ("m", "s"):
        assert getattr(made, name).__annotations__ == getattr(eager, name).__annotations__
        assert str(inspect.signature(getattr(made, name))) == str(
            inspect.signature(getattr(eager, name))
        )
    assert made.m.__kwdefaults__ == {"b": "s"} and made.s.__defaults__ == (None,)


def test_a_method_over_the_compiled_function_s_free_variable() -> None:
    """The rebuilt method closes over the compiled function's own cell: on 3.13 that cell is
    loaded by LOAD_FAST (LOAD_CLOSURE is a pseudo-instruction there)."""

    def outer(k: int) -> Any:
        def returns_a_class() -> Any:
            class C:
                def m(self) -> int:
                    return k

            return C

        return returns_a_class

    fn = outer(7)
    made = tracer.compile(fn, fullgraph=True)()
    assert made().m() == 7
    assert made.m.__closure__[0] is fn.__closure__[0]
