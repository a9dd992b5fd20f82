"""A protocol the trace decided from a special method's absence (`len(obj)` raising TypeError,
`bool(obj)` true without `__bool__` or `__len__`, `==` falling back to identity) holds only
while no class on the object's MRO gains that method: CPython looks special methods up on the
type at every call. Each test compiles, calls, changes the class (or a base), and compares the
same cached function with plain Python: value, or exception type and message."""

from __future__ import annotations

import gc
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


def plain() -> type:
    class Plain:
        pass

    return Plain


def derived() -> type:
    """A class whose base (`Derived.base`) is the one changed."""

    class Base:
        pass

    class Derived(Base):
        base = Base

    return Derived


def defines_eq() -> type:
    class WithEq:  # `__hash__` is None
        def __eq__(self, other: object) -> bool:
            return self is other

    return WithEq


def iterable() -> type:
    class Iterable:
        def __iter__(self) -> Any:
            return iter([1, 2])

    return Iterable


def with_block(obj: Any) -> Any:
    with obj as entered:
        return entered


def truth_branch(obj: Any) -> Any:
    if obj:
        return "true"
    return "false"


def sort_two(a: Any, b: Any) -> Any:
    return sorted([a, b]) == [a, b]


def len_and_hint(obj: Any) -> Any:
    return operator.length_hint(obj, 7)


def missing_attribute(obj: Any) -> Any:
    return obj.absent


def getattr_default(obj: Any) -> Any:
    return getattr(obj, "absent", "default")


def identity_in_list(a: Any, b: Any) -> Any:
    return [a].count(b), b in [a]


def store_item(obj: Any) -> Any:
    obj[0] = 1
    return "stored"


def _exit(self: Any, *exc: Any) -> None:
    return None


# (function, class factory, the special methods set on the class (or its base) later, args)
CASES: dict[str, tuple[Callable[..., Any], Callable[[], type], dict[str, Any], int]] = {
    "len": (len, plain, {"__len__": lambda self: 3}, 1),
    "len_on_base": (len, derived, {"__len__": lambda self: 3}, 1),
    "add": (lambda o: o + 1, plain, {"__add__": lambda self, other: 42}, 1),
    "radd": (lambda o: 1 + o, plain, {"__radd__": lambda self, other: 42}, 1),
    "bool_from_len": (bool, plain, {"__len__": lambda self: 0}, 1),
    "bool": (bool, derived, {"__bool__": lambda self: False}, 1),
    "if": (truth_branch, plain, {"__bool__": lambda self: False}, 1),
    "not": (operator.not_, plain, {"__bool__": lambda self: False}, 1),
    "getitem": (lambda o: o[0], plain, {"__getitem__": lambda self, i: 7}, 1),
    "with": (with_block, plain, {"__enter__": lambda self: 5, "__exit__": _exit}, 1),
    "hash_when_none": (hash, defines_eq, {"__hash__": lambda self: 5}, 1),
    "eq": (lambda o: o == 1, plain, {"__eq__": lambda self, other: True}, 1),
    "eq_two": (operator.eq, derived, {"__eq__": lambda self, other: True}, 2),
    "ne": (lambda o: o != 1, plain, {"__ne__": lambda self, other: False}, 1),
    "in": (lambda o: 5 in o, plain, {"__contains__": lambda self, item: True}, 1),
    "call": (lambda o: o(), plain, {"__call__": lambda self: 9}, 1),
    "lt": (operator.lt, plain, {"__lt__": lambda self, other: True}, 2),
    "sorted": (sort_two, plain, {"__lt__": lambda self, other: False}, 2),
    "length_hint": (len_and_hint, plain, {"__length_hint__": lambda self: 3}, 1),
    "getattr_hook": (getattr_default, plain, {"__getattr__": lambda self, name: 6}, 1),
    "getattr_hook_error": (missing_attribute, derived, {"__getattr__": lambda self, n: 6}, 1),
    "repeat_by_index": (lambda o: [1] * o, plain, {"__index__": lambda self: 2}, 1),
    "setitem": (store_item, plain, {"__setitem__": lambda self, key, value: None}, 1),
    "eq_in_list": (identity_in_list, plain, {"__eq__": lambda self, other: True}, 2),
    # found, then replaced or deleted: the method is read through the class, whose guard sees it
    "len_replaced": (len, lambda: type("Sized", (), {"__len__": lambda s: 1}), {}, 1),
    "iter_added": (list, plain, {"__iter__": lambda self: iter([1, 2])}, 1),
    "contains_added": (lambda o: 5 in o, iterable, {"__contains__": lambda s, i: True}, 1),
    "neg_added": (operator.neg, plain, {"__neg__": lambda self: 3}, 1),
    "str_added": (lambda o: str(o)[:1], plain, {"__str__": lambda self: "s"}, 1),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_special_method_set_on_the_class_later_is_used(case: str) -> None:
    fn, make_class, methods, arity = CASES[case]
    cls = make_class()
    target = getattr(cls, "base", cls)

    def run_both() -> None:
        args = [cls() for _ in range(arity)]
        assert outcome(compiled, *args) == outcome(fn, *args)

    compiled = tracer.compile(lambda *args: fn(*args))  # a builtin is not compiled itself
    run_both()
    if not methods:  # replaced, then deleted
        target.__len__ = lambda self: 2
        run_both()
        del target.__len__
        run_both()
        return
    for name, method in methods.items():
        setattr(target, name, method)
    run_both()
    for name in methods:
        delattr(target, name)
    run_both()


def test_a_found_special_method_replaced_on_a_subclass_is_used() -> None:
    class Base:
        def __len__(self) -> int:
            return 1

    class Derived(Base):
        pass

    compiled = tracer.compile(lambda obj: len(obj))
    assert compiled(Derived()) == len(Derived()) == 1
    Derived.__len__ = lambda self: 2  # type: ignore[method-assign]
    assert compiled(Derived()) == len(Derived()) == 2


def delete_own(obj: Any) -> Any:
    del obj.x
    return hasattr(obj, "x"), sorted(vars(obj))


def test_a_delattr_set_on_the_class_later_takes_the_deletion() -> None:
    class Holder:
        def __init__(self) -> None:
            self.x = 1

    deleted: list[str] = []
    compiled = tracer.compile(delete_own)
    assert outcome(compiled, Holder()) == outcome(delete_own, Holder()) == ("returned", (False, []))
    Holder.__delattr__ = lambda self, name: deleted.append(name)  # type: ignore[method-assign,assignment]
    assert outcome(compiled, Holder()) == outcome(delete_own, Holder())
    assert deleted == ["x", "x"]
    del Holder.__delattr__
    assert outcome(compiled, Holder()) == ("returned", (False, []))


def make_one(cls: type) -> Any:
    made = cls()
    return getattr(made, "value", None)


@pytest.mark.parametrize("name", ["__init__", "__new__", "__del__"])
def test_a_constructor_hook_set_on_the_class_later_runs(name: str) -> None:
    """`cls()` made the object with `object`'s `__new__` and `__init__` and no finalizer;
    one set on the class afterwards is what CPython runs."""

    class Made:
        pass

    ran: list[str] = []

    def init(self: Any) -> None:
        ran.append("init")
        self.value = 1

    def new(cls: type) -> Any:
        ran.append("new")
        made = object.__new__(cls)
        made.value = 2
        return made

    hooks = {"__init__": init, "__new__": staticmethod(new), "__del__": lambda s: ran.append("del")}
    compiled = tracer.compile(make_one)
    assert compiled(Made) == make_one(Made) is None
    setattr(Made, name, hooks[name])
    assert compiled(Made) == make_one(Made)
    gc.collect()  # the call that compiles lets its frame go only to the collector
    assert ran == [name.strip("_")] * 2


def read_x(obj: Any) -> Any:
    return obj.x, obj.method()


def make_and_read_x(cls: type) -> Any:
    return read_x(cls())


def test_a_getattribute_set_on_the_class_later_takes_every_read() -> None:
    """A `__getattribute__` that logs and delegates: the compiled reads must run it too, for
    an object from outside and for one the function makes. (The call that recompiles logs
    the reads tracing makes of the object as well; the calls after it are compared.)"""

    class Logged:
        def __init__(self) -> None:
            self.x = 1

        def method(self) -> str:
            return "method"

    log: list[str] = []

    def logging_getattribute(self: Any, name: str) -> Any:
        log.append(name)
        return object.__getattribute__(self, name)

    compiled_read, compiled_make = tracer.compile(read_x), tracer.compile(make_and_read_x)
    assert compiled_read(Logged()) == compiled_make(Logged) == (1, "method")
    Logged.__getattribute__ = logging_getattribute  # type: ignore[method-assign]
    assert compiled_read(Logged()) == compiled_make(Logged) == (1, "method")
    log.clear()
    assert compiled_read(Logged()) == read_x(Logged()) == (1, "method")
    assert compiled_make(Logged) == make_and_read_x(Logged)
    assert log == ["x", "method"] * 4


class QuietMeta(type):
    pass


class ReadingMeta(type):
    """A metaclass whose own `__getattribute__` counts the reads of its classes' attributes:
    the guard that checks a class's `__getattribute__` must not run it."""

    reads = 0

    def __getattribute__(cls, name: str) -> Any:
        ReadingMeta.reads += 1
        return super().__getattribute__(name)


@pytest.mark.parametrize("meta", [type, QuietMeta, ReadingMeta])
@pytest.mark.parametrize("on", ["base", "class"])
def test_a_getattribute_set_later_on_a_base_or_under_a_metaclass_takes_every_read(
    meta: type, on: str
) -> None:
    """The hook set on the object's class or on its base, for a class of any metaclass; and
    for an object of a class the function makes from that base."""

    class Base(metaclass=meta):  # type: ignore[misc]
        def method(self) -> str:
            return "method"

    class Logged(Base):
        def __init__(self) -> None:
            self.x = 1

    def make_from_base(base: type) -> Any:
        class Made(base):  # type: ignore[valid-type, misc]
            def __init__(self) -> None:
                self.x = 2

        return read_x(Made())

    log: list[str] = []

    def logging_getattribute(self: Any, name: str) -> Any:
        log.append(name)
        return object.__getattribute__(self, name)

    def read_only_x(obj: Any) -> Any:  # no class attribute read: no guard reads one
        return obj.x

    compiled_read, compiled_made = tracer.compile(read_x), tracer.compile(make_from_base)
    compiled_x = tracer.compile(read_only_x)
    assert compiled_read(Logged()) == (1, "method")
    assert compiled_made(Base) == (2, "method")
    assert compiled_x(Logged()) == 1
    reads = ReadingMeta.reads
    assert compiled_x(Logged()) == 1  # a hit: the check ran no metaclass __getattribute__
    assert ReadingMeta.reads == reads
    changed = Base if on == "base" else Logged
    changed.__getattribute__ = logging_getattribute  # type: ignore[method-assign]
    # the calls that recompile log the reads tracing makes too; the calls after are compared
    compiled_read(Logged()), compiled_made(Base), compiled_x(Logged())
    log.clear()
    assert compiled_read(Logged()) == read_x(Logged()) == (1, "method")
    assert compiled_made(Base) == make_from_base(Base) == (2, "method")
    assert compiled_x(Logged()) == read_only_x(Logged()) == 1
    made_reads = ["x", "method"] * 2 if on == "base" else []  # Made's base is Base
    assert log == ["x", "method"] * 2 + made_reads + ["x"] * 2


class Meta(type):
    pass


def test_a_metaclass_that_gains_an_attribute_or_getattr_later_is_used() -> None:
    class WithMeta(metaclass=Meta):
        pass

    def missing(cls: Any) -> Any:
        return getattr(cls, "absent", "default")

    compiled = tracer.compile(missing)
    assert compiled(WithMeta) == missing(WithMeta) == "default"
    try:
        Meta.absent = "on the metaclass"  # type: ignore[attr-defined]
        assert compiled(WithMeta) == missing(WithMeta) == "on the metaclass"
        del Meta.absent  # type: ignore[attr-defined]
        Meta.__getattr__ = lambda cls, name: "from __getattr__"  # type: ignore[attr-defined]
        assert compiled(WithMeta) == missing(WithMeta) == "from __getattr__"
    finally:
        for name in ("absent", "__getattr__"):
            if name in vars(Meta):
                delattr(Meta, name)


def test_bytes_of_an_iterable_whose_class_gains_bytes_later() -> None:
    class Items:
        def __iter__(self) -> Any:
            return iter([1, 2])

    compiled = tracer.compile(lambda obj: bytes(obj))
    assert compiled(Items()) == bytes(Items()) == b"\x01\x02"
    Items.__bytes__ = lambda self: b"own"  # type: ignore[attr-defined]
    assert compiled(Items()) == bytes(Items()) == b"own"


def test_a_module_class_that_gains_getattr_later_is_asked() -> None:
    """A submodule is found by `Module.__getattr__`; a subclass's own `__getattr__` set after
    the compile is what Python asks instead."""
    import tracer.runtime as torch
    from tracer.runtime import nn

    class Wrapper(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = nn.Linear(2, 2)

    def call_inner(module: Any, x: Any) -> Any:
        try:
            return module.inner(x).tolist()
        except TypeError as e:
            return str(e)

    module, x = Wrapper(), torch.ones(2)
    compiled = tracer.compile(call_inner)
    assert compiled(module, x) == call_inner(module, x)
    Wrapper.__getattr__ = lambda self, name: "hooked"  # type: ignore[assignment,method-assign]
    assert compiled(module, x) == call_inner(module, x) == "'str' object is not callable"


def test_a_mode_class_that_gains_enter_later_is_entered_through_it() -> None:
    """`with mode:` pushed the mode itself while its class kept the base `__enter__`; an
    `__enter__` set on the class afterwards is what Python runs."""
    import tracer.runtime as torch
    from tracer.runtime.overrides import TorchFunctionMode

    class Passing(TorchFunctionMode):
        def __torch_function__(
            self, func: Any, types: Any, args: Any = (), kwargs: Any = None
        ) -> Any:
            return func(*args, **(kwargs or {}))

    entered: list[str] = []

    def own_enter(self: Any) -> Any:
        entered.append("entered")
        return TorchFunctionMode.__enter__(self)

    def under_mode(mode: Any, x: Any) -> Any:
        with mode:
            return torch.sin(x).tolist()

    x = torch.ones(2)
    compiled = tracer.compile(under_mode)
    assert compiled(Passing(), x) == under_mode(Passing(), x)
    Passing.__enter__ = own_enter  # type: ignore[method-assign]
    assert compiled(Passing(), x) == under_mode(Passing(), x)
    assert entered == ["entered", "entered"]


def in_a_dict_made_here(a: Any, b: Any) -> Any:
    return b in {a: 1}


def in_a_dict_passed_in(d: dict[Any, int], b: Any) -> Any:
    return b in d


@pytest.mark.parametrize("fn", [in_a_dict_made_here, in_a_dict_passed_in])
@pytest.mark.parametrize("change", ["hash_and_eq", "unhashable"])
def test_the_same_keys_after_their_class_gains_hash(fn: Any, change: str) -> None:
    """Objects hashed by identity while tracing (object's `__hash__` and `__eq__`) are keys by
    identity only while their class keeps both: guarded where CPython looks them up. The same
    objects, passed again after the class changed, hit the entry before."""
    base = derived()
    cls = base.base  # type: ignore[attr-defined]
    a, b = base(), base()

    def args() -> tuple[Any, Any]:
        return (a, b) if fn is in_a_dict_made_here else ({a: 1}, b)

    compiled = tracer.compile(fn)
    assert outcome(compiled, *args()) == outcome(fn, *args()) == ("returned", False)
    if change == "hash_and_eq":
        cls.__hash__ = lambda self: 5
        cls.__eq__ = lambda self, other: True
        expected = outcome(fn, *args())
        assert expected == ("returned", True)
        assert outcome(compiled, *args()) == expected
    else:
        if fn is in_a_dict_passed_in:
            d = {a: 1}
            cls.__hash__ = None
            assert outcome(compiled, d, b) == outcome(fn, d, b)
        else:
            cls.__hash__ = None
            expected = outcome(fn, *args())
            assert expected[0] == "raised"
            assert outcome(compiled, *args()) == expected
