"""Objects whose `__class__` is user code: a property that raises, or one that names another
class (`unittest.mock.Mock(spec=Tensor)` claims Tensor). CPython looks at the real type to
run the object (attribute reads, `type(o)`, calls), and reads `__class__` only in
`isinstance` (when the real type does not answer it) and where Python code asks for it.

modetrace decides how to wrap a value from its real type (`issubclass(type(v), C)`, never
`isinstance`, which reads `__class__`): an argument, a closure cell, a global, a class
attribute or a module such an object stands for is traced like any other object of its
class. User code calling `isinstance(o, C)` gets CPython's answer, error included: the
trace answers from the type when CPython would, and breaks the frame when CPython would run
the user's `__class__` (or `__getattribute__`). Each test compares compiled (twice: the
second call is the cache hit) with plain Python: value, exception type and message, and
what the call changed."""

from __future__ import annotations

import abc
import enum
import sys
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

import tracer
import tracer.runtime as rt
from tests.real_torch import real_torch


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    try:
        return ("returned", fn(*args))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e), str(e))


def check(
    fn: Callable[..., Any], make_args: Callable[[], tuple[Any, ...]], *, fullgraph: bool = False
) -> None:
    """`fn` on fresh arguments, plain and compiled (twice), gives the same outcome."""
    expected = outcome(fn, *make_args())
    compiled = tracer.compile(fn, fullgraph=fullgraph)
    for _ in range(2):
        assert outcome(compiled, *make_args()) == expected


class Raises:
    """`__class__` raises; everything else is an ordinary object."""

    def __init__(self) -> None:
        self.x = 1

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise RuntimeError("no class for you")


class Color(enum.Enum):
    RED = 1


class Claims:
    """`__class__` answers `claimed`, a class it is not an instance of."""

    claimed: Any = int

    def __init__(self) -> None:
        self.x = 1

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        return type(self).claimed


def claiming(cls: Any) -> type[Claims]:
    return type(f"Claims{cls.__name__}", (Claims,), {"claimed": cls})


CLAIMED: dict[str, Any] = {
    "int": int,
    "tuple": tuple,
    "enum": Color,
    "class": type,
    "mode": rt.overrides.TorchFunctionMode,
    "tensor": rt.Tensor,
}


def lying_objects() -> dict[str, Callable[[], Any]]:
    made: dict[str, Callable[[], Any]] = {"raises": Raises}
    made.update({f"claims-{name}": claiming(cls) for name, cls in CLAIMED.items()})
    made["mock-tensor"] = lambda: mock.Mock(spec=rt.Tensor)
    return made


LYING = lying_objects()


class AnABC(abc.ABC):  # noqa: B024 - an ABC, for ABCMeta's isinstance (it reads __class__)
    pass


# -- the object used, not asked its class ------------------------------------------------------
def type_name(o: Any) -> Any:
    return type(o).__name__


def attribute(o: Any) -> Any:
    return getattr(o, "x", "none") == 1


def passed_through(o: Any) -> Any:
    return o


def stored(o: Any, out: list[Any]) -> Any:
    out.append(o)
    return len(out)


def class_attribute_read(o: Any) -> Any:
    return o.__class__


@pytest.mark.parametrize("name", sorted(LYING))
@pytest.mark.parametrize(
    "fn", [type_name, attribute, class_attribute_read], ids=lambda f: f.__name__
)
def test_a_lying_argument_is_used_as_python_uses_it(name: str, fn: Callable[..., Any]) -> None:
    """Failed before for `raises` (InternalError: the builder's `is_tensor` read `__class__`)
    and `claims-class` (wrapped as a class: TypeError from `type.__qualname__`)."""
    make = LYING[name]
    check(fn, lambda: (make(),))


@pytest.mark.parametrize("name", sorted(LYING))
def test_a_lying_argument_passed_through_and_stored(name: str) -> None:
    obj = LYING[name]()
    assert tracer.compile(passed_through)(obj) is obj
    assert tracer.compile(passed_through)(obj) is obj
    out: list[Any] = []
    compiled = tracer.compile(stored)
    assert compiled(obj, out) == 1 and compiled(obj, out) == 2
    assert len(out) == 2 and out[0] is obj and out[1] is obj


@pytest.mark.parametrize("name", ["raises", "claims-tuple", "claims-enum", "claims-tensor"])
def test_a_lying_argument_is_traced_as_an_object_of_its_class(name: str) -> None:
    """Whole, as any object of its class: before, the builder took a lying object for what it
    claimed (a tuple or a tensor subclass: a graph break; an Enum member: its attributes
    broke the frame) or raised InternalError (`raises`)."""
    make = LYING[name]
    check(attribute, lambda: (make(),), fullgraph=True)
    check(type_name, lambda: (make(),), fullgraph=True)


def enters(o: Any) -> Any:
    with o:
        return 1


def test_an_object_claiming_to_be_a_mode_is_no_mode() -> None:
    """Before, `with o:` on an object claiming TorchFunctionMode was traced as a mode's: an
    AttributeError where CPython raises TypeError (no `__enter__` on its class)."""
    make = LYING["claims-mode"]
    check(enters, lambda: (make(),))


# -- user code asking isinstance ---------------------------------------------------------------
def is_int(o: Any) -> Any:
    return isinstance(o, int)


def is_own_class(o: Any) -> Any:
    return isinstance(o, type(o))


def is_claims_first(o: Any) -> Any:
    return isinstance(o, (Claims, Raises, int))


def is_int_first(o: Any) -> Any:
    return isinstance(o, (int, Claims, Raises))


def is_int_union(o: Any) -> Any:
    return isinstance(o, int | Claims | Raises)


def is_abc(o: Any) -> Any:
    return isinstance(o, AnABC)


def is_object(o: Any) -> Any:
    return isinstance(o, object)


def is_tensor(o: Any) -> Any:
    return isinstance(o, rt.Tensor)


def matches_int(o: Any) -> Any:
    match o:
        case int():
            return "int"
        case _:
            return "other"


ISINSTANCE = [
    is_int,
    is_own_class,
    is_claims_first,
    is_int_first,
    is_int_union,
    is_abc,
    is_object,
    is_tensor,
    matches_int,
]


@pytest.mark.parametrize("name", sorted(LYING))
@pytest.mark.parametrize("fn", ISINSTANCE, ids=lambda f: f.__name__)
def test_isinstance_on_a_lying_object_answers_as_python(name: str, fn: Callable[..., Any]) -> None:
    """Failed before: the trace answered from the type where CPython reads `__class__`
    (`claims-int` was no int, in `isinstance` and in `case int():`), or raised InternalError
    where the wrapping itself read it (`raises`), or took `claims-class` for a class (a
    TypeError). (Mock(spec=Tensor) was right by accident here: taken for a tensor subclass,
    the frame broke; in torch's world it was an InternalError, below.)"""
    make = LYING[name]
    check(fn, lambda: (make(),))


def is_raises_first(o: Any) -> Any:
    return isinstance(o, Raises), isinstance(o, (Raises, int)), isinstance(o, Raises | int)


@pytest.mark.parametrize("fn", [is_raises_first, is_object], ids=lambda f: f.__name__)
def test_isinstance_answered_by_the_type_is_traced(fn: Callable[..., Any]) -> None:
    """Where the real type answers (the object's own class, first), CPython reads no
    `__class__`: the trace answers without a break."""
    check(fn, lambda: (Raises(),), fullgraph=True)


class AsksGetattribute:
    def __getattribute__(self, name: str) -> Any:
        return int if name == "__class__" else object.__getattribute__(self, name)


def test_isinstance_through_a_user_getattribute() -> None:
    """`isinstance` reads `__class__` through the class's `__getattribute__`: True here.
    Before, the trace answered False."""
    check(is_int, lambda: (AsksGetattribute(),))


def test_a_lying_base_put_in_after_the_compile() -> None:
    """`isinstance(o, int)` of a plain object, compiled; then its class gets a base whose
    `__class__` claims int (`__bases__` assigned: `__class__` itself cannot be set on a
    class), and CPython's answer changes: the cached trace must miss (the class's MRO is
    pinned), and the new trace breaks where CPython reads `__class__`. Failed before: the
    new trace answered False from the type."""

    class Base:
        pass

    class Later(Base):
        pass

    compiled = tracer.compile(is_int)
    assert compiled(Later()) is False
    Later.__bases__ = (claiming(int),)
    assert is_int(Later()) is True
    assert compiled(Later()) is True


# -- a lying object reached through a closure cell, a global, a class, a module --------------
def make_cell_reader(obj: Any) -> Callable[[], Any]:
    def read_cell() -> Any:
        return type(obj).__name__, getattr(obj, "x", None)

    return read_cell


LYING_GLOBAL: Any = Raises()


def read_global() -> Any:
    return type(LYING_GLOBAL).__name__, LYING_GLOBAL.x


def is_int_global() -> Any:
    return isinstance(LYING_GLOBAL, int)


class Holder:
    thing: Any = Raises()


def read_class_attribute(holder: Any) -> Any:
    return type(holder.thing).__name__, type(Holder.thing).__name__


def read_module() -> Any:
    import lying_module  # type: ignore[import-not-found]

    return type(lying_module).__name__


def raises_it(o: Any) -> Any:
    try:
        raise o
    except TypeError as e:
        return str(e)


@pytest.mark.parametrize("name", sorted(LYING))
def test_a_lying_closure_cell(name: str) -> None:
    """Failed before for `raises` (InternalError) and `claims-class` (TypeError)."""
    fn = make_cell_reader(LYING[name]())
    check(fn, lambda: ())


def test_a_lying_global() -> None:
    """Failed before: InternalError."""
    check(read_global, lambda: ())
    check(is_int_global, lambda: ())


def test_a_lying_class_attribute() -> None:
    """Failed before: InternalError (`isinstance(member, property)` on the class's member)."""
    check(read_class_attribute, lambda: (Holder(),))


def test_a_lying_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """Failed before: InternalError (the import checked `isinstance(module, ModuleType)`)."""
    monkeypatch.setitem(sys.modules, "lying_module", Raises())
    check(read_module, lambda: ())


def test_raising_a_lying_object() -> None:
    """Failed before: InternalError (`raise o` asked `isinstance(o, type)`)."""
    check(raises_it, lambda: (Raises(),))


# -- the torch world ---------------------------------------------------------------------------
def torch_lying_objects(torch: Any) -> dict[str, Callable[[], Any]]:
    return {
        "raises": Raises,
        "claims-tensor": claiming(torch.Tensor),
        "claims-mode": claiming(torch.overrides.TorchFunctionMode),
        "claims-int": claiming(int),
        "mock-tensor": lambda: mock.Mock(spec=torch.Tensor),
    }


TORCH_NAMES = ["raises", "claims-tensor", "claims-mode", "claims-int", "mock-tensor"]


# (the object is used before `tolist()`, which breaks the graph: the trace meets it first)
def with_tensor_type_name(t: Any, o: Any) -> Any:
    name = type(o).__name__
    return (t + 1).tolist(), name


def with_tensor_attribute(t: Any, o: Any) -> Any:
    has_x = getattr(o, "x", "none") == 1
    return (t * 2).tolist(), has_x


def with_tensor_stored(t: Any, o: Any, out: list[Any]) -> Any:
    out.append(o)
    n = len(out)
    return (t - 1).tolist(), n


def with_tensor_is_tensor(t: Any, o: Any) -> Any:
    import torch

    answers = isinstance(o, torch.Tensor), isinstance(o, int)
    return (t + 1).tolist(), answers


@pytest.mark.parametrize("name", TORCH_NAMES)
@pytest.mark.parametrize(
    "fn",
    [with_tensor_type_name, with_tensor_attribute, with_tensor_is_tensor],
    ids=lambda f: f.__name__,
)
def test_torch_world_lying_argument(name: str, fn: Callable[..., Any]) -> None:
    """A real tensor picks torch's world. Failed before for `raises` (InternalError),
    `claims-tensor` and `mock-tensor` (taken for tensors: InternalError reading their
    class's `__torch_function__`), `claims-int` with `isinstance` (False where CPython says
    True)."""
    torch = real_torch()
    make = torch_lying_objects(torch)[name]
    check(fn, lambda: (torch.ones(2), make()))


@pytest.mark.parametrize("name", TORCH_NAMES)
def test_torch_world_lying_argument_stored(name: str) -> None:
    torch = real_torch()
    obj = torch_lying_objects(torch)[name]()
    out: list[Any] = []
    compiled = tracer.compile(with_tensor_stored)
    assert compiled(torch.ones(2), obj, out) == ([0.0, 0.0], 1)
    assert compiled(torch.ones(2), obj, out) == ([0.0, 0.0], 2)
    assert len(out) == 2 and out[0] is obj and out[1] is obj


def read_global_with_torch() -> Any:
    import torch

    return type(LYING_GLOBAL).__name__, str(torch.float32), torch.ones(2).dtype is torch.float32


def test_torch_world_lying_global_and_cell() -> None:
    """With torch imported, choosing the world looks at the globals a function reads: it
    asked `isinstance(value, ModuleType)` of each, so a lying global raised the user's error
    out of the compile (before the trace). The closure cell failed before with
    InternalError."""
    torch = real_torch()
    check(read_global_with_torch, lambda: ())
    obj = Raises()

    def read_cell(t: Any) -> Any:
        name = type(obj).__name__
        return (t * 2).tolist(), name

    check(read_cell, lambda: (torch.ones(2),))
