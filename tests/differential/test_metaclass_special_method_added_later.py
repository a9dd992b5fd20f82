"""A protocol operation on a class itself (the class is the value: `C == 5`, `bool(C)`,
`hash(C)`, `str(C)`, `C | int`, `C in [1, 2]`, `isinstance(x, C)`) is answered by special
methods CPython looks up on the class's metaclass at every call. A user metaclass
(`class Meta(type)`) can gain one after a compile, so a trace that decided the operation
while tracing holds only while the metaclass still lacks it. Each test compiles, calls,
sets the method on the metaclass (or its base), and compares the same cached function with
plain Python: value, or exception type and message. A class whose metaclass is `type`
(which cannot change) costs no guard for any of this."""

from __future__ import annotations

import abc
import collections
import enum
import operator
from collections.abc import Callable
from typing import Any

import pytest

import tracer


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    try:
        return ("returned", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e), str(e))


def with_meta() -> tuple[type, type]:
    """(the metaclass to change, a class made with it)."""

    class Meta(type):
        pass

    class C(metaclass=Meta):
        pass

    return Meta, C


def with_base_meta() -> tuple[type, type]:
    """A metaclass whose base is the one changed."""

    class BaseMeta(type):
        pass

    class Meta(BaseMeta):
        pass

    class C(metaclass=Meta):
        pass

    return BaseMeta, C


def with_abc_meta() -> tuple[type, type]:
    """A metaclass built on ABCMeta (whose own checks are pinned where found)."""

    class Meta(abc.ABCMeta):
        pass

    class C(metaclass=Meta):
        pass

    return Meta, C


def with_enum_meta() -> tuple[type, type]:
    """An Enum whose metaclass is built on EnumType."""

    class Meta(enum.EnumType):
        pass

    class E(enum.Enum, metaclass=Meta):
        A = 1

    return Meta, E


def truth_branch(cls: Any) -> Any:
    if cls:
        return "true"
    return "false"


def formatted(cls: Any) -> Any:
    return f"<{cls}>"


def list_after(method: str, *args: Any) -> Callable[[Any], Any]:
    """`lst.<method>(c, *args)` on a new list: its result and the list afterwards."""

    def run(c: Any) -> Any:
        lst = [10, 20, 30]
        return getattr(lst, method)(c, *args), lst

    return run


def deque_after(method: str, *args: Any) -> Callable[[Any], Any]:
    def run(c: Any) -> Any:
        dq = collections.deque([10, 20, 30])
        return getattr(dq, method)(c, *args), dq

    return run


def bytearray_after(method: str, *args: Any) -> Callable[[Any], Any]:
    def run(c: Any) -> Any:
        b = bytearray(b"ab")
        return getattr(b, method)(c, *args), b

    return run


def set_item(c: Any) -> Any:
    lst = [10, 20, 30]
    lst[c] = 5
    return lst


def del_item(c: Any) -> Any:
    lst = [10, 20, 30]
    del lst[c]
    return lst


def removed(seq: Any, x: Any) -> list[bool]:
    """`seq.remove(x)`, then which items left are the class (equal-looking ones all compare
    equal once its metaclass has an `__eq__`)."""
    seq.remove(x)
    return [type(item) is not int for item in seq]


_INDEX = {"__index__": lambda c: 1}
_EQ = {"__eq__": lambda c, o: True}
_ORDER = {"__eq__": lambda c, o: False, "__lt__": lambda c, o: True}
_INDEX_OR_ITER = {"__index__": lambda c: 1, "__iter__": lambda c: iter([65])}


# (function of the class, how to make (metaclass, class), special methods set on it later)
CASES: dict[str, tuple[Callable[..., Any], Callable[[], tuple[type, type]], dict[str, Any]]] = {
    "instancecheck": (
        lambda c: isinstance(1, c),
        with_meta,
        {"__instancecheck__": lambda c, i: True},
    ),
    "subclasscheck": (
        lambda c: issubclass(int, c),
        with_meta,
        {"__subclasscheck__": lambda c, s: True},
    ),
    "instancecheck_in_tuple": (
        lambda c: isinstance(1, (str, c)),
        with_meta,
        {"__instancecheck__": lambda c, i: True},
    ),
    "hasattr_of_type": (lambda c: hasattr(type(c), "__len__"), with_meta, {"__len__": lambda c: 3}),
    "len": (len, with_meta, {"__len__": lambda c: 3}),
    "bool": (bool, with_meta, {"__bool__": lambda c: False}),
    "bool_from_len": (bool, with_base_meta, {"__len__": lambda c: 0}),
    "if": (truth_branch, with_meta, {"__bool__": lambda c: False}),
    "not": (operator.not_, with_meta, {"__bool__": lambda c: False}),
    "eq": (lambda c: c == 5, with_meta, {"__eq__": lambda c, o: True}),
    "eq_reflected": (lambda c: 5 == c, with_meta, {"__eq__": lambda c, o: True}),
    "ne": (lambda c: c != 5, with_meta, {"__ne__": lambda c, o: False}),
    "ne_from_eq": (lambda c: c != 5, with_meta, {"__eq__": lambda c, o: True}),
    "lt": (lambda c: c < 5, with_meta, {"__lt__": lambda c, o: True}),
    "gt_reflected": (lambda c: 5 < c, with_meta, {"__gt__": lambda c, o: True}),
    "hash": (lambda c: hash(c) == 7, with_meta, {"__hash__": lambda c: 7}),
    "in_list": (lambda c: c in [1, 2], with_meta, {"__eq__": lambda c, o: True}),
    "list_count": (lambda c: [1, 2].count(c), with_meta, {"__eq__": lambda c, o: True}),
    "in_range": (lambda c: c in range(3), with_meta, {"__eq__": lambda c, o: True}),
    "in_iterator": (lambda c: c in iter([1, 2]), with_meta, {"__eq__": lambda c, o: True}),
    "found_in_list": (lambda c: 1 in [c], with_meta, {"__eq__": lambda c, o: True}),
    "str": (str, with_meta, {"__str__": lambda c: "x"}),
    "str_from_repr": (str, with_base_meta, {"__repr__": lambda c: "x"}),
    "repr": (repr, with_meta, {"__repr__": lambda c: "x"}),
    "format": (formatted, with_meta, {"__format__": lambda c, spec: "x"}),
    "or": (lambda c: c | int, with_meta, {"__or__": lambda c, o: 5}),
    "ror": (lambda c: 1 | c, with_meta, {"__ror__": lambda c, o: 5}),
    "add": (lambda c: c + 1, with_meta, {"__add__": lambda c, o: 5}),
    "neg": (operator.neg, with_meta, {"__neg__": lambda c: 5}),
    "getitem": (lambda c: c[0], with_meta, {"__getitem__": lambda c, i: 5}),
    "index_of_tuple": (lambda c: (1, 2)[c], with_meta, {"__index__": lambda c: 1}),
    "index_of_list": (lambda c: [10, 20][c], with_meta, {"__index__": lambda c: 1}),
    "sorted": (lambda c: sorted([c, c]) == [c, c], with_meta, {"__lt__": lambda c, o: True}),
    "repeat": (lambda c: [1] * c, with_meta, {"__index__": lambda c: 2}),
    "range": (lambda c: list(range(c)), with_meta, {"__index__": lambda c: 2}),
    "int": (int, with_meta, {"__index__": lambda c: 2}),
    # a class used as a position, a count or a slice bound is converted with `__index__`
    "list_pop": (list_after("pop"), with_meta, _INDEX),
    "list_insert": (list_after("insert", 5), with_meta, _INDEX),
    "list_setitem": (set_item, with_meta, _INDEX),
    "list_delitem": (del_item, with_base_meta, _INDEX),
    "list_index_start": (lambda c: [1, 2, 3].index(3, c), with_meta, _INDEX),
    "list_index_stop": (lambda c: [1, 2, 3].index(1, 0, c), with_meta, _INDEX),
    "slice_start_of_list": (lambda c: [1, 2, 3][c:], with_meta, _INDEX),
    "slice_stop_of_tuple": (lambda c: (1, 2, 3)[:c], with_meta, _INDEX),
    "slice_step_of_str": (lambda c: "abcd"[::c], with_meta, _INDEX),
    "slice_of_bytes": (lambda c: b"abc"[c:], with_meta, _INDEX),
    "slice_of_range": (lambda c: list(range(10)[c:5]), with_meta, _INDEX),
    "slice_call": (lambda c: [1, 2, 3][slice(c, None)], with_meta, _INDEX),
    "slice_compared": (
        lambda c: slice(c) == slice(c, None),
        with_meta,
        {"__eq__": lambda c, o: False},
    ),
    "round_digits": (lambda c: round(1.25, c), with_meta, _INDEX),
    "enumerate_start": (lambda c: list(enumerate("ab", c)), with_meta, _INDEX),
    "deque_rotate": (deque_after("rotate"), with_meta, _INDEX),
    "deque_insert": (deque_after("insert", 9), with_meta, _INDEX),
    "deque_delitem": (deque_after("__delitem__"), with_meta, _INDEX),
    "deque_index_start": (lambda c: collections.deque([1, 2, 3]).index(3, c), with_meta, _INDEX),
    "bytearray_of_class": (bytearray, with_meta, _INDEX_OR_ITER),
    "bytearray_append": (bytearray_after("append"), with_meta, _INDEX),
    "bytearray_extend": (bytearray_after("extend"), with_meta, _INDEX_OR_ITER),
    "bytearray_pop": (bytearray_after("pop"), with_meta, _INDEX),
    # a class among a container's items is compared by its metaclass's `__eq__` (a deque's
    # searches and comparisons run in C on the items' values)
    "deque_item_in": (lambda c: 5 in collections.deque([1, c]), with_meta, _EQ),
    "deque_item_count": (lambda c: collections.deque([c, 1]).count(5), with_meta, _EQ),
    "deque_item_index": (lambda c: collections.deque([c, 5]).index(5), with_meta, _EQ),
    "deque_item_remove": (lambda c: removed(collections.deque([c, 5]), 5), with_meta, _EQ),
    "deque_item_contains": (lambda c: collections.deque([c]).__contains__(5), with_base_meta, _EQ),
    "deque_eq": (lambda c: collections.deque([c]) == collections.deque([5]), with_meta, _EQ),
    "deque_lt": (lambda c: collections.deque([c]) < collections.deque([5]), with_meta, _ORDER),
    "deque_eq_class": (lambda c: collections.deque([1]) == c, with_meta, _EQ),
    "tuple_in_deque": (lambda c: (5,) in collections.deque([(c,)]), with_meta, _EQ),
    "tuple_in_list": (lambda c: (5,) in [(c,)], with_meta, _EQ),
    "tuple_count_of_list": (lambda c: [(c,)].count((5,)), with_meta, _EQ),
    "tuple_index_of_list": (lambda c: [(c,), (5,)].index((5,)), with_meta, _EQ),
    "tuple_in_tuple": (lambda c: (5,) in ((c,),), with_meta, _EQ),
    "list_in_deque": (lambda c: [5] in collections.deque([[c]]), with_meta, _EQ),
    "ordered_dict_eq": (
        lambda c: collections.OrderedDict([(1, c)]) == collections.OrderedDict([(1, 5)]),
        with_meta,
        _EQ,
    ),
    "counter_eq_dict": (lambda c: collections.Counter({1: 2}) == {1: c}, with_meta, _EQ),
    "counter_most_common": (
        lambda c: [n for n, _ in collections.Counter({1: c, 2: 5}).most_common()],
        with_meta,
        {"__lt__": lambda c, o: True, "__gt__": lambda c, o: True},
    ),
    "list_item_in": (lambda c: 5 in [c, 1], with_meta, _EQ),
    "list_item_index": (lambda c: [c, 5].index(5), with_meta, _EQ),
    "list_item_remove": (lambda c: removed([c, 5], 5), with_meta, _EQ),
    "tuple_item_count": (lambda c: (c,).count(5), with_meta, _EQ),
    "tuples_eq": (lambda c: (c,) == (5,), with_meta, _EQ),
    "tuples_lt": (lambda c: (c, 1) < (5, 2), with_meta, _ORDER),
    "lists_ge": (
        lambda c: [c] >= [5],
        with_meta,
        {"__eq__": lambda c, o: False, "__ge__": lambda c, o: True},
    ),
    # a dict or set hashes and compares its keys: the class's metaclass's `__hash__`/`__eq__`
    "dict_key_get": (
        lambda c: {c: 1}.get(5),
        with_meta,
        {"__hash__": lambda c: 5, "__eq__": lambda c, o: True},
    ),
    "dict_key_in": (
        lambda c: 5 in {c: 1},
        with_meta,
        {"__hash__": lambda c: 5, "__eq__": lambda c, o: True},
    ),
    "set_item_in": (
        lambda c: 5 in {c},
        with_meta,
        {"__hash__": lambda c: 5, "__eq__": lambda c, o: True},
    ),
    "set_len": (
        lambda c: len({c, 5}),
        with_meta,
        {"__hash__": lambda c: 5, "__eq__": lambda c, o: True},
    ),
    "percent_format": (lambda c: "%s" % c, with_meta, {"__str__": lambda c: "x"}),  # noqa: UP031
    "str_format": (lambda c: "{}".format(c), with_meta, {"__format__": lambda c, s: "x"}),  # noqa: UP032
    "tuple_index": (lambda c: (1, 2).index(c), with_meta, {"__eq__": lambda c, o: True}),
    "repr_in_tuple": (lambda c: str((c,)), with_meta, {"__repr__": lambda c: "x"}),
    "abc_instancecheck": (
        lambda c: isinstance(1, c),
        with_abc_meta,
        {"__instancecheck__": lambda c, i: True},
    ),
    "enum_eq": (lambda e: e == 5, with_enum_meta, {"__eq__": lambda c, o: True}),
    "enum_bool": (bool, with_enum_meta, {"__bool__": lambda c: False}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_special_method_set_on_the_metaclass_later_is_used(case: str) -> None:
    fn, make, methods = CASES[case]
    meta, cls = make()
    compiled = tracer.compile(lambda c: fn(c))  # a builtin is not compiled itself
    assert outcome(compiled, cls) == outcome(fn, cls)
    for name, method in methods.items():
        setattr(meta, name, method)
    assert outcome(compiled, cls) == outcome(fn, cls)
    for name in methods:
        delattr(meta, name)
    assert outcome(compiled, cls) == outcome(fn, cls)


def test_a_class_given_another_metaclass_later() -> None:
    """Assigning a class's `__class__` swaps its metaclass (both heap types): what the trace
    decided from the old one (`type(c) is Meta`, `isinstance(c, Meta)`) is guarded."""
    meta, cls = with_meta()

    class Other(type):
        pass

    def fn(c: Any) -> Any:
        return type(c) is meta, isinstance(c, meta), c == 5

    compiled = tracer.compile(fn)
    assert compiled(cls) == fn(cls) == (True, True, False)
    cls.__class__ = Other
    assert compiled(cls) == fn(cls) == (False, False, False)


GLOBAL_META, GLOBAL_CLASS = with_meta()


def test_a_class_read_from_a_global_is_guarded_through_it() -> None:
    compiled = tracer.compile(lambda: GLOBAL_CLASS == 5)
    assert compiled() is False
    GLOBAL_META.__eq__ = lambda c, o: True  # type: ignore[method-assign,assignment]
    try:
        assert compiled() is True
    finally:
        del GLOBAL_META.__eq__
    assert compiled() is False


def test_a_metaclass_with_its_own_method_is_not_run_while_tracing() -> None:
    """A user metaclass's `__eq__` is user code: folding would run it while tracing and keep
    whatever it answered, so the frame falls back and it runs on every call."""
    calls: list[object] = []

    class Meta(type):
        def __eq__(cls, other: object) -> bool:
            calls.append(other)
            return len(calls) % 2 == 1

        __hash__ = type.__hash__

    class C(metaclass=Meta):
        pass

    compiled = tracer.compile(lambda c: c == 5)
    assert [compiled(C), compiled(C), compiled(C)] == [True, False, True]
    assert calls == [5, 5, 5]


def every_protocol(c: Any, x: Any) -> Any:
    return (
        c == 5,
        5 != c,
        bool(c),
        hash(c) == 0,
        str(c),
        repr(c),
        f"{c}",
        c | int,
        c in [1, 2],
        isinstance(x, c),
        issubclass(int, c),
        1 if c else 0,
    )


def test_a_class_whose_metaclass_is_type_costs_no_guard() -> None:
    """The class is pinned (its ID_MATCH) and nothing of its metaclass is read through it:
    `type`'s special methods cannot change. (`repr(C)` names the class: its writable
    `__module__` and `__qualname__` are guarded, `guard_class_naming`.)"""

    class Plain:
        pass

    guards = tracer.explain(every_protocol)(Plain, 1).guards
    assert [g for g in guards if "L['c']" in g] == [
        f"L['c'] is {Plain.__qualname__}",
        f"L['c'].__module__ == {Plain.__module__!r}",
        f"L['c'].__qualname__ == {Plain.__qualname__!r}",
    ], guards
    assert every_protocol(Plain, 1) == tracer.compile(every_protocol)(Plain, 1)


def every_index_or_item(c: Any) -> Any:
    """`c` as a position, a slice bound, a count (each raises for a class of metaclass `type`,
    which has no `__index__`: caught), and as an item compared in a deque or a tuple."""
    lst, dq, found = [1, 2, 3], collections.deque([1, 2]), []
    for use in (
        lambda: lst.pop(c),
        lambda: lst.insert(c, 0),
        lambda: lst[c:],
        lambda: "abc"[:c],
        lambda: lst.index(1, c),
        lambda: dq.rotate(c),
        lambda: round(1.5, c),
        lambda: list(enumerate(lst, c)),
    ):
        try:
            found.append(use())
        except TypeError as e:
            found.append(str(e))
    items = collections.deque([c, 1])
    compared = (5 in items, items.count(5), items == collections.deque([5, 1]), (5,) in [(c,)])
    return found, lst, dq, compared


def test_a_class_whose_metaclass_is_type_costs_no_guard_as_an_index_or_item() -> None:
    class Plain:
        pass

    explained = tracer.explain(every_index_or_item)(Plain)
    assert explained.graph_break_count == 0
    guards = explained.guards
    assert [g for g in guards if "L['c']" in g] == [f"L['c'] is {Plain.__qualname__}"], guards
    assert every_index_or_item(Plain) == tracer.compile(every_index_or_item)(Plain)


def test_a_user_metaclass_is_guarded_through_the_class() -> None:
    _meta, cls = with_meta()
    guards = tracer.explain(every_protocol)(cls, 1).guards
    assert any("type(L['c']).__dict__" in g for g in guards), guards


class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self) -> float: ...


class Color(enum.Enum):
    RED = 1


def test_stdlib_metaclasses_fold_their_own_methods() -> None:
    """ABCMeta and EnumType are heap types (their attributes can change), guarded like any
    metaclass; their own methods (EnumType's `__len__`, `__repr__`, `__bool__`) still fold."""

    def uses(shape: Any, color: Any, x: Any) -> Any:
        return isinstance(x, shape), len(color), repr(color), bool(color), color == 1

    compiled = tracer.compile(uses)
    assert compiled(Shape, Color, 1) == uses(Shape, Color, 1)
    assert tracer.explain(uses)(Shape, Color, 1).graph_break_count == 0


def subscripted(c: Any) -> Any:
    try:
        return c[int]
    except TypeError as e:
        return str(e)


def with_plain_base() -> tuple[type, type]:
    """(a base whose metaclass is `type`, a class built on it): `C[x]` asks the class's MRO."""

    class Base:
        pass

    class C(Base):
        pass

    return Base, C


def with_meta_base() -> tuple[type, type]:
    """(a class with a changeable metaclass, the same class)."""
    _meta, cls = with_meta()
    return cls, cls


@pytest.mark.parametrize("make", [with_plain_base, with_meta_base])
def test_a_class_getitem_set_on_the_class_later_is_used(make: Callable[[], Any]) -> None:
    """`C[x]` with no `__getitem__` on the metaclass calls `C.__class_getitem__(x)`: one set on
    the class or a base after the compile answers, whatever the metaclass."""
    holder, cls = make()
    compiled = tracer.compile(subscripted)
    assert compiled(cls) == subscripted(cls) == f"type '{cls.__name__}' is not subscriptable"
    holder.__class_getitem__ = classmethod(lambda c, item: ("alias of", c, item))
    assert compiled(cls) == subscripted(cls) == ("alias of", cls, int)
    del holder.__class_getitem__
    assert compiled(cls) == subscripted(cls)


@pytest.mark.parametrize(
    "methods",
    [{"__class_getitem__": lambda c, item: 5}, {"__getattr__": lambda c, name: lambda item: 7}],
    ids=["class_getitem", "getattr"],
)
def test_a_metaclass_attribute_set_later_answers_class_getitem(methods: dict[str, Any]) -> None:
    """`C.__class_getitem__` is read through the metaclass's attribute lookup: the metaclass's
    own attribute (when the class's MRO has none), or its `__getattr__`."""
    meta, cls = with_meta()
    compiled = tracer.compile(subscripted)
    assert compiled(cls) == subscripted(cls)
    for name, method in methods.items():
        setattr(meta, name, method)
    assert outcome(compiled, cls) == outcome(subscripted, cls)
    for name in methods:
        delattr(meta, name)
    assert compiled(cls) == subscripted(cls)


def test_a_user_class_getitem_is_not_run_while_tracing() -> None:
    calls: list[object] = []

    class Own:
        def __class_getitem__(cls, item: object) -> int:
            calls.append(item)
            return len(calls)

    compiled = tracer.compile(subscripted)
    assert [compiled(Own), compiled(Own), compiled(Own)] == [1, 2, 3]
    assert calls == [int, int, int]


class SubList(list[int]):
    pass


def test_builtin_and_stdlib_generic_aliases_fold() -> None:
    """`list[int]`, `dict[str, int]` fold with no guard of their own (the builtin classes
    cannot change); a user class built on one, or an ABC of collections.abc
    (`classmethod(GenericAlias)`), folds with its `__class_getitem__` pinned where found."""

    def aliases(sub: Any) -> Any:
        return list[int], dict[str, int], sub[str], collections.abc.Iterable[int]

    explained = tracer.explain(aliases)(SubList)
    assert explained.graph_break_count == 0
    assert explained.result == aliases(SubList)
    assert not [g for g in explained.guards if "'list'" in g and "__" in g], explained.guards
    assert [g for g in explained.guards if "L['sub']" in g] == [
        "L['sub'] is SubList",
        "L['sub'].__mro__ is <tuple object>",
        "'__class_getitem__' not in L['sub'].__dict__",
    ], explained.guards
