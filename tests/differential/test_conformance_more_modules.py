"""Behaviours `make conformance` found wrong once more of CPython's test modules ran (test_fstring
to test_bytes, branch conf7): one minimal function each, compiled == eager, twice, with the
exception's type and message."""

from __future__ import annotations

import gc
import weakref
from collections import namedtuple
from typing import Any, NamedTuple

import pytest

import tracer
from tracer.testing import CompileCounter, assert_same_behavior


def syntax_error_with_details(details: tuple[Any, ...]) -> Any:
    try:
        error = SyntaxError("bad bad", details)
    except TypeError as e:
        return "rejected", str(e)
    return "made", repr(error)


@pytest.mark.parametrize(
    "details",
    [
        ("bad.py", 1, 2),  # too few: function takes at least 4 arguments (3 given)
        ("bad.py", 1, 2, 4, 5, 6, 7),  # too many
        ("bad.py", 1, 2, "abcdefg", 1),  # end_lineno without end_offset
        ("bad.py", 1, 2, "abcdefg"),  # accepted
    ],
)
def test_exception_constructor_checks_its_arguments(details: tuple[Any, ...]) -> None:
    """test_exceptions `SyntaxErrorTests.test_incorrect_constructor`: CPython's SyntaxError
    rejects a details tuple of the wrong shape when it is made; the traced call raises that
    TypeError too (it was made lazily, only when raised), and the frame still traces whole."""
    assert_same_behavior(syntax_error_with_details, details)
    tracer.reset()
    with CompileCounter() as counter:
        tracer.compile(syntax_error_with_details)(details)
    assert counter.graph_breaks == 0
    assert counter.compiles == 1


class Slotted:
    __slots__ = ("b",)
    a = 1  # a class attribute, not a slot: read-only on instances


def store_where_there_is_no_room(obj: Any, name: str) -> Any:
    try:
        setattr(obj, name, 10)
    except AttributeError as e:
        return "rejected", str(e)
    return "stored", getattr(obj, name)


def store_on_a_new_object(name: str) -> Any:
    obj = Slotted()
    try:
        setattr(obj, name, 10)
    except AttributeError as e:
        return "rejected", str(e)
    return "stored", getattr(obj, name)


@pytest.mark.parametrize("name", ["b", "c", "a"])
def test_setattr_on_an_object_without_a_dict(name: str) -> None:
    """test_fractions `FractionTest.test_slots`: `setattr(Fraction(13, 7), 'a', 10)` under
    `assertRaises`. An instance with `__slots__` and no `__dict__` has no room for a new
    attribute; the store was recorded as a side effect, so the AttributeError came when it was
    replayed, after the `except` that should have caught it. Now it raises in the trace."""
    assert_same_behavior(store_where_there_is_no_room, Slotted(), name)
    assert_same_behavior(store_on_a_new_object, name)
    tracer.reset()
    with CompileCounter() as counter:
        tracer.compile(store_where_there_is_no_room)(Slotted(), name)
    assert counter.graph_breaks == 0


def test_setattr_on_a_fraction() -> None:
    from fractions import Fraction

    assert_same_behavior(store_where_there_is_no_room, Fraction(13, 7), "a")


Conflicting = namedtuple("Conflicting", "itemgetter property self cls tuple tx")
Pair = namedtuple("Pair", "a b")


def replace_a_field_named_self(n: int) -> Any:
    t = Conflicting(n, 2, 3, 4, 5, 6)
    return t._replace(itemgetter=10, self=30, tx=60)


def replace_with_a_positional_argument(n: int) -> Any:
    t = Pair(n, 2)
    try:
        return t._replace(5)
    except TypeError as e:
        return str(e)


def dataclass_replace_of_a_field_named_obj(n: int) -> Any:
    import dataclasses

    @dataclasses.dataclass
    class D:
        obj: int
        tx: int = 0

    return dataclasses.replace(D(n), obj=3, tx=4).obj


@pytest.mark.parametrize("fn", [replace_a_field_named_self, replace_with_a_positional_argument])
def test_namedtuple_replace_call_shapes(fn: Any) -> None:
    """test_collections `TestNamedTuple.test_name_conflicts`: `t._replace(self=30)` did not
    bind to the handler (its own `self`), and the refused call then looked `_replace` up on a
    plain tuple: InternalError. The handlers' own parameters are positional-only now, and a
    refused call runs on an instance of the named tuple class."""
    assert_same_behavior(fn, 1)


def test_dataclass_replace_of_a_field_named_obj() -> None:
    assert_same_behavior(dataclass_replace_of_a_field_named_obj, 1)


def resize_an_exported_bytearray(n: int) -> Any:
    b = bytearray(range(10))
    view = memoryview(b)  # a graph break: the rest runs in a resume function, `b` an input
    try:
        b[1:-1] = range(n)
    except BufferError as e:
        return "refused", str(e), bytes(b), len(view)
    b.append(n)
    return "resized", bytes(b)


def test_resize_a_bytearray_from_outside() -> None:
    """test_bytes `ByteArrayTest.test_resize_forbidden`: after `memoryview(b)` (a graph break)
    the resume function gets `b` from outside; resizing it was modeled on a copy and replayed
    after the trace, where CPython refused (BufferError) outside the user's `except`. The trace
    cannot see a bytearray's exports, so resizing one from outside breaks the graph."""
    assert_same_behavior(resize_an_exported_bytearray, 3)


class Plain:
    pass


def attribute_functions_with_a_non_str_name(obj: Any, name: Any) -> Any:
    found = []
    for fn, args in ((getattr, ()), (getattr, (None,)), (hasattr, ()), (setattr, (1,))):
        try:
            fn(obj, name, *args)
        except (TypeError, AttributeError) as e:
            found.append((type(e).__name__, str(e)))
    try:
        delattr(obj, name)
    except (TypeError, AttributeError) as e:
        found.append((type(e).__name__, str(e)))
    return found


@pytest.mark.parametrize("name", [9, None, b"x"])
def test_attribute_name_that_is_not_a_str(name: Any) -> None:
    """test_decimal `ContextInputValidation.test_invalid_context`: `getattr(c, 9)` raised
    AttributeError ("'Context' object has no attribute '9'"); CPython raises TypeError
    ("attribute name must be string, not 'int'") before it looks at the object."""
    assert_same_behavior(attribute_functions_with_a_non_str_name, Plain(), name)
    tracer.reset()
    with CompileCounter() as counter:
        tracer.compile(attribute_functions_with_a_non_str_name)(Plain(), name)
    assert counter.graph_breaks == 0


def exec_with_locals_after_a_break(n: int) -> Any:
    helper = len  # read by name only, in the string below
    tracer.graph_break()
    return eval("helper([1, 2]) + n", globals(), locals())


def locals_after_a_break(n: int) -> Any:
    helper = len
    tracer.graph_break()
    return sorted(locals()), helper([n])


@pytest.mark.parametrize("fn", [exec_with_locals_after_a_break, locals_after_a_break])
def test_locals_read_by_name_after_a_break(fn: Any) -> None:
    """test_decimal `CWhitebox.test_c_context_errors`: after a break,
    `exec('with localcontext("xyz"): pass', locals())` raised NameError: the resume function
    got only the locals some instruction reads, and `localcontext` is read by name only.
    Code that may read its locals by name now gets them all; and the resume function's stack
    parameters are unbound once its prologue has pushed them, so `locals()` shows none."""
    assert_same_behavior(fn, 1)


class Base:
    def f(self) -> str:
        return "Base"


class OwnClassAttribute(Base):
    def f(self) -> str:
        return super().f()

    __class__ = 413  # type: ignore[assignment]


def super_of_three(n: int) -> Any:
    try:
        return super(int, int, int)  # type: ignore[call-arg]
    except TypeError as e:
        return str(e)


def super_of_a_non_type(n: int) -> Any:
    try:
        return super(n, int)  # type: ignore[arg-type]
    except TypeError as e:
        return str(e)


def super_of_an_unrelated_object(n: int) -> Any:
    try:
        return super(int, "x")
    except TypeError as e:
        return str(e)


def super_of_an_unrelated_class(n: int) -> Any:
    try:
        return super(OwnClassAttribute, Base)
    except TypeError as e:
        return str(e)


def super_of_an_unrelated_instance(obj: Any) -> Any:
    try:
        return super(OwnClassAttribute, obj).f()
    except TypeError as e:
        return str(e)


@pytest.mark.parametrize(
    "fn",
    [
        super_of_three,
        super_of_a_non_type,
        super_of_an_unrelated_object,
        super_of_an_unrelated_class,
    ],
)
def test_super_arguments_it_refuses(fn: Any) -> None:
    """test_super `test_super_argcount`, `test_super_argtype`: `super(int, int, int)` and
    `super(1, int)` made a super object; CPython raises TypeError (and for an object that is
    neither an instance nor a subclass of the class)."""
    assert_same_behavior(fn, 1)
    assert_same_behavior(super_of_an_unrelated_instance, Base())
    assert_same_behavior(super_of_an_unrelated_instance, OwnClassAttribute())


def read_dunder_class(obj: Any) -> Any:
    return obj.f(), obj.__class__


def test_a_class_attribute_named_dunder_class() -> None:
    """test_super `test_various___class___pathologies`: a class body's `__class__ = 413`
    shadows object's `__class__` descriptor, so `x.__class__` is 413."""
    assert_same_behavior(read_dunder_class, OwnClassAttribute())


def ordered_dict_fromkeys_by_keyword(n: int) -> Any:
    from collections import OrderedDict

    return (
        list(OrderedDict.fromkeys("abc", value=n).items()),
        list(OrderedDict.fromkeys(iterable="ab").items()),
        list(OrderedDict.fromkeys(value=n, iterable="ab").items()),
    )


def test_ordered_dict_fromkeys_by_keyword() -> None:
    """test_ordered_dict `test_fromkeys`: OrderedDict.fromkeys takes `iterable` and `value`
    by keyword; `value=0` was dropped (every value None)."""
    assert_same_behavior(ordered_dict_fromkeys_by_keyword, 0)


def repr_of(od: Any) -> Any:
    try:
        return repr(od)
    except KeyError as e:
        return "KeyError", str(e)


def test_an_ordered_dict_changed_through_dicts_methods() -> None:
    """test_ordered_dict `test_dict_delitem` and the like: `dict.__delitem__(od, 'spam')`
    leaves a C OrderedDict whose iteration raises KeyError; wrapping it as an input listed
    its keys and the KeyError left the tracer as InternalError. Now the frame falls back."""
    from collections import OrderedDict

    od: Any = OrderedDict(spam=1, ham=2)
    dict.__delitem__(od, "spam")
    with CompileCounter() as counter:
        assert tracer.compile(repr_of)(od) == repr_of(od)
    assert counter.graph_breaks == 1
    grown: Any = OrderedDict(spam=1)
    dict.__setitem__(grown, "ham", 2)  # held, but not in the order
    assert tracer.compile(repr_of)(grown) == repr_of(grown)


def takes_any_keyword(**kwargs: Any) -> Any:
    return sorted(kwargs.items())


def test_a_compiled_function_called_with_the_keyword_self() -> None:
    """test_typing `test_namedtuple_special_keyword_names` (a NamedTuple with a field named
    `self`, made after a break): `CompiledFunction.__call__(self, *args, **kwargs)` took a
    keyword `self` for its own, a TypeError plain Python does not raise."""
    assert_same_behavior(takes_any_keyword, self=1, args=2, kwargs=3)


def isinstance_of_any(n: int) -> Any:
    from typing import Any as AnyType

    try:
        return isinstance(n, AnyType)
    except TypeError as e:
        return str(e)


def isinstance_of_a_protocol(obj: Any) -> Any:
    from typing import Protocol, runtime_checkable

    @runtime_checkable
    class HasX(Protocol):
        x: int

    return isinstance(obj, HasX), isinstance(obj, (int, str))


def test_isinstance_with_a_metaclass_instancecheck() -> None:
    """test_typing `test_any_instance_type_error` (`isinstance(42, Any)`: CPython's TypeError,
    compiled False) and `test_protocols_isinstance_py36` (a runtime-checkable Protocol reads
    the object's attributes; `issubclass` on it raised TypeError inside the tracer): a class
    whose metaclass has its own `__instancecheck__` is not decided from the object's type."""
    assert_same_behavior(isinstance_of_any, 42)
    assert_same_behavior(isinstance_of_a_protocol, Slotted())
    plain = Plain()
    plain.x = 1  # type: ignore[attr-defined]
    assert_same_behavior(isinstance_of_a_protocol, plain)


def set_an_attribute_of_a_c_type(cls: Any) -> Any:
    try:
        cls.foo = 1
    except TypeError as e:
        return str(e)
    return cls.foo


def test_set_an_attribute_of_an_immutable_type() -> None:
    """test_array `MiscTest.test_immutable`: `array.array.foo = 1` was recorded as a class
    attribute store and replayed after the trace, where CPython raised TypeError outside the
    user's `except`; now it raises in the trace."""
    import array

    assert_same_behavior(set_an_attribute_of_a_c_type, array.array)


class WithOperators(NamedTuple):
    x: int
    y: int = 1

    def __add__(self, other: Any) -> Any:  # type: ignore[override]
        return 0

    def __len__(self) -> int:
        return 7


def named_tuple_operators(a: Any, n: int) -> Any:
    b = WithOperators(n)
    return a + b, b + a, len(a), len(b), a * 2


def test_a_named_tuple_class_with_its_own_operators() -> None:
    """test_typing `NamedTupleTests.test_annotation_usage_with_methods`: `XRepr(1, 2) +
    XRepr(3)` with the class's own `__add__` returning 0 gave tuple concatenation; a named
    tuple class that defines special methods of its own is not modeled as a tuple now."""
    assert_same_behavior(named_tuple_operators, WithOperators(1, 2), 3)


def functional_named_tuple(n: int) -> Any:
    Emp = NamedTuple("Emp", [("name", str), ("cool", int)])  # noqa: UP014
    return Emp.__module__, Emp("x", n).cool


def test_a_callee_whose_helper_reads_the_calling_frame() -> None:
    """test_typing `NamedTupleTests.test_copy_and_pickle`: `NamedTuple('Emp', ...)` breaks
    inside its helper `_caller()` (`sys._getframe`), so the call ran as a CompiledFunction
    and `Emp.__module__` named `tracer.cache.function`, the frame `_caller` found. A callee
    that calls a function of its module that reads calling frames now runs as it is."""
    assert_same_behavior(functional_named_tuple, 1)


class WithMethod:
    def method(self) -> int:
        return 1


def make_bound_method() -> Any:
    return WithMethod().method


def one_bound_method_in_two_places(factory: Any) -> Any:
    o = factory()
    ref = weakref.ref(o)  # a graph break: `o` is rebuilt for the call and for what follows
    return ref() is not None, ref() is o


def test_a_bound_method_made_in_the_frame_is_one_object() -> None:
    """test_weakref `test_basic_ref` (`create_bound_method`): a bound method made in the frame
    was rebuilt at each place that held it after a break, so `weakref.ref(o)` referred to a
    temporary copy, dead at once; it is built once now."""
    assert_same_behavior(one_bound_method_in_two_places, make_bound_method)


class ReadsClassCell:
    def method(self) -> Any:
        class X:
            x = __class__  # the method's `__class__`; X has a `__class__` cell of its own too

            def f() -> None:
                __class__  # noqa: B018

        return X.x, super().__init__()


def class_body_reading_the_method_class_cell(obj: Any) -> Any:
    return obj.method()


def test_a_class_body_that_reads_the_enclosing_class_cell() -> None:
    """test_super `test_various___class___pathologies`: a class body in a method reads the
    method's `__class__` (LOAD_CLASSDEREF of the free variable) while it has a `__class__`
    cell of its own; cells were kept by name, so the read found the class's own, empty cell:
    UnboundLocalError. Such a code object breaks the graph now."""
    assert_same_behavior(class_body_reading_the_method_class_cell, ReadsClassCell())


class Counts:
    """test_weakref's `check_basic_callback`, reached through a method that inlines it."""

    def callback(self, ref: Any) -> None:
        self.cbcalled += 1

    def check(self, factory: Any) -> Any:
        self.cbcalled = 0
        o = factory()
        ref = weakref.ref(o, self.callback)  # a graph break
        del o
        gc.collect()  # a graph break: `o` is let go when its frame calls the resume function
        if self.cbcalled == 1:  # the value is guarded: the entry is chosen by it
            return "called", ref() is None
        return "not called", ref() is None

    def test(self) -> Any:
        return self.check(Plain)


def callback_count_after_breaks(obj: Counts) -> Any:
    return obj.test()


def test_an_object_dropped_at_a_break_dies_before_the_guards_run() -> None:
    """test_weakref `test_basic_callback`: the frame let go of `o` after the resume function's
    guards had read `self.cbcalled` (0), so the weak reference's callback made it 1 only
    then, and the entry chosen for 0 ran: the count read 0. What a frame does not hand on is
    let go before the guards run now."""
    assert_same_behavior(callback_count_after_breaks, Counts())
