"""Guard: one fact a trace relied on, as `(kind, source, expected)` plus the user line behind it.

Kinds are listed in cost order, cheapest first; the builder runs cheaper kinds first wherever the
base-before-child order allows. Equality and hashing go through `Guard.key`, never through
`expected.__eq__`/`__hash__`, so an ID_MATCH on an unhashable or hostile object is fine.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from guards.constants import constant_key, is_constant, safe_label, type_label
from guards.sources import (
    BuiltinsDictSource,
    BuiltinSource,
    ClosureSource,
    GlobalsDictSource,
    GlobalSource,
    GlobalStateSource,
    ModuleSource,
    Source,
)

if TYPE_CHECKING:
    from tracer.exc import UserLocation


class GuardKind(enum.Enum):
    """What is checked about the value at a source. Values give the cost order."""

    TYPE_MATCH = 0
    """`type(v) is T` (exact type, subclasses fail)."""
    FUNCTION_MATCH = 1
    """`v is fn and v.__code__ is code` (a FunctionSpec): a Python function, and the code it
    had when traced, since `__code__` is writable. Ranked before ID_MATCH though it tests one
    thing more: the guards on a function's closure cells and defaults are read through it, and
    a guard on an ancestor must run first (guards.tree), which rank order then gives at once."""
    ID_MATCH = 2
    """`v is obj`; the guard holds a strong reference to `obj`."""
    EQUALS_MATCH = 3
    """exact type, then value (see guards.constants)."""
    CLOSURE_MATCH = 4
    """a cell's contents: EQUALS_MATCH for constants, ID_MATCH for anything else."""
    LENGTH_CHECK = 5
    """`len(v) == n`; needs a TYPE_MATCH to a builtin container on the same source."""
    DICT_NOT_CONTAINS = 6
    """`key not in v` for each of a tuple of keys (v a dict, e.g. "the global `len` is not
    shadowed"); a trace records one per dict (`OutputGraph.all_guards`)."""
    HASATTR = 7
    """the instance has attribute `name` (instance `__dict__` or a filled slot)."""
    NO_HASATTR = 8
    """the instance does not have attribute `name`."""
    DICT_KEYS_MATCH = 9
    """the dict's keys, in order; needs a TYPE_MATCH to dict on the same source."""
    TENSOR_MATCH = 10
    """exact tensor type, dtype, shape and requires_grad, read from slots."""
    MODE_STACK = 11
    """the torch-function mode stack: its length and the exact type at each position."""
    OBJECT_ALIASING = 12
    """`v is <other source>`: two sources reached one mutable object while tracing."""
    NO_ALIASING = 13
    """`v is not <s>` for each of a tuple of sources: a mutated object aliases none of them."""
    GLOBAL_STATE = 14
    """the tensor library's global state, in named parts (grad mode, default dtype...): a
    GlobalStateSpec, whose reader the check calls."""
    FACTS_MATCH = 15
    """named facts about the object at the source, read at once by its FactsSpec's reader
    (what `Module.__call__` tests before it calls `forward`: no hook, not compiled)."""
    DICT_CONTAINS = 16
    """`key in v` for each of a tuple of keys (v a dict): a global or builtin whose value the
    trace handed on unread is still defined (`OutputGraph.guard_name_present`)."""

    # Members are singletons compared by identity, so identity hashing agrees with `==`.
    __hash__ = object.__hash__


@dataclasses.dataclass(frozen=True, slots=True)
class TensorSpec:
    """The tensor properties a TENSOR_MATCH pins. `cls` is the exact tensor type (None: the
    runtime's `Tensor`, resolved when the check is built).

    >>> str(TensorSpec("float32", (2, 3), False))
    'float32[2, 3]'
    """

    dtype: object
    shape: tuple[int, ...]
    requires_grad: bool
    cls: type | None = None
    device: object = None
    """The device, for a world whose tensors have one (None: not guarded)."""
    strides: tuple[int, ...] | None = None
    """The strides, for a world whose tensors have them (None: not guarded)."""
    dispatch_keys: object = None
    """For a world whose tensors carry a dispatch key set (torch): the set an op on the
    tensor dispatches on (its own keys, with the thread's included and excluded keys applied);
    None: not guarded."""
    reader: Callable[[Any], tuple[object, ...]] | None = dataclasses.field(
        default=None, compare=False
    )
    """For a tensor without the runtime's slots: reads `facts()` of a live tensor, where no
    torch-function mode sees the reads (a failure's explanation calls it; see `facts`)."""
    check: Callable[[Any], bool] | None = dataclasses.field(default=None, compare=False)
    """A world's own test, on any live value, that it is a tensor of the exact class `cls`
    with all of `facts()` (torch's is its C++ tensor check); a world that sets `reader` sets
    this too, and a failure is explained fact by fact through `reader`. None: the runtime's
    tensor, whose type and slots the check reads."""

    @classmethod
    def of(cls, tensor: Any) -> TensorSpec:
        """Snapshot a tensor's guarded properties by reading its slots (every graph input)."""
        return cls(
            tensor._dtype,
            tuple(tensor._shape),
            bool(tensor.requires_grad),
            type(tensor),
        )

    def key(self) -> Hashable:
        return (
            id(self.dtype),
            self.shape,
            self.requires_grad,
            id(self.cls),
            None if self.device is None else str(self.device),
            self.strides,
            None if self.dispatch_keys is None else str(self.dispatch_keys),
        )

    FACT_NAMES = ("dtype", "device", "shape", "stride()", "requires_grad", "dispatch_keys")
    """The parts `facts` lists, as a failure names them."""

    def facts(self) -> tuple[object, ...]:
        """What `reader` must return for a tensor that passes (dtype, device, shape, strides,
        requires_grad, dispatch keys)."""
        return (
            self.dtype,
            self.device,
            self.shape,
            self.strides,
            self.requires_grad,
            self.dispatch_keys,
        )

    def __str__(self) -> str:
        return f"{dtype_label(self.dtype).removeprefix('torch.')}{list(self.shape)}"


@dataclasses.dataclass(frozen=True, slots=True)
class GlobalStateSpec:
    """What a GLOBAL_STATE guard pins: named parts of a tensor library's global state and their
    values when traced; `readers[i]()` returns part i's live value. The check calls each
    reader in its own test (`___c3_is_grad_enabled() is True and ...`), so a check of three
    parts calls three functions and builds no tuple.

    >>> str(GlobalStateSpec(("grad_enabled",), (True,), (lambda: True,)))
    'grad_enabled=True'
    """

    names: tuple[str, ...]
    values: tuple[object, ...]
    readers: tuple[Callable[[], object], ...] = dataclasses.field(compare=False)

    def __post_init__(self) -> None:
        if not len(self.names) == len(self.values) == len(self.readers):
            raise ValueError("GlobalStateSpec needs one value and one reader per name")

    def text(self, sep: str = ", ") -> str:
        return sep.join(f"{n}={v!r}" for n, v in zip(self.names, self.values, strict=True))

    def first_difference(self) -> tuple[str, object, object] | None:
        """(name, expected, actual) of the first part that differs now, or None."""
        for name, want, read in zip(self.names, self.values, self.readers, strict=True):
            got = read()
            if want != got:
                return name, want, got
        return None

    def __str__(self) -> str:
        return self.text()


@dataclasses.dataclass(frozen=True, slots=True)
class FactsSpec:
    """What a FACTS_MATCH pins about the object at its source: named facts and their values
    when traced; `reader(v)` reads them from a live object in the same order. A tensor world
    gives the reader, which runs no user code and returns only ints, bools and None, so the
    check compares its tuple with `==`. Each name is a format string for the source's name.

    >>> spec = FactsSpec(("len({}.hooks)", "{}.ready"), (0, True), lambda v: (0, True))
    >>> spec.text("L['m']")
    "len(L['m'].hooks) == 0 and L['m'].ready"
    """

    names: tuple[str, ...]
    values: tuple[int | bool | None, ...]
    reader: Callable[[Any], tuple[object, ...]] = dataclasses.field(compare=False)

    def text(self, name: str, sep: str = " and ") -> str:
        parts = zip(self.names, self.values, strict=True)
        return sep.join(self.claim(fact.format(name), value) for fact, value in parts)

    @staticmethod
    def claim(fact: str, value: object) -> str:
        """`len(m.hooks) == 0`; a fact expected true reads as itself, one expected false as
        `not (...)`."""
        if value is True:
            return fact
        return f"not ({fact})" if value is False else f"{fact} == {value!r}"

    def first_difference(self, name: str, value: object) -> tuple[str, object, object] | None:
        """(fact, expected, actual) of the first fact that differs on `value`, or None."""
        live = self.reader(value)
        for fact, want, got in zip(self.names, self.values, live, strict=True):
            if want != got:
                return fact.format(name), want, got
        return None


class FunctionSpec(NamedTuple):
    """What a FUNCTION_MATCH pins: a Python function and the code object it had when the trace
    read it. The identity alone does not cover the code (`fn.__code__ = other.__code__` keeps
    the function object), and a helper given new code must not hit a trace of the old one.

    """

    fn: Any
    """The function, or a WeakPin of it once its guard holds it weakly (NOTE [weak pins])."""
    code: types.CodeType

    @classmethod
    def of(cls, fn: types.FunctionType) -> FunctionSpec:
        return cls(fn, fn.__code__)

    def __repr__(self) -> str:
        return f"FunctionSpec({pinned_label(self.fn)}, {safe_label(self.code)})"


def dtype_label(dtype: object) -> str:
    """`torch.float32`: dtypes are runtime objects with a readable repr (not user code)."""
    return dtype if isinstance(dtype, str) else repr(dtype)


_OBJECT_GETATTRIBUTE = object.__dict__["__getattribute__"]
_MODULE_GETATTRIBUTE = vars(types.ModuleType)["__getattribute__"]
"""A module's attribute read: `object`'s generic one, then, for a name it does not find, the
module's own `__getattr__` (PEP 562). An object of a module subclass (`torch.backends`) reads
its attributes as any object does (`UserDefinedObjectVariable.missing_attr` breaks instead of
that last step)."""
IMMUTABLE_TYPE = 1 << 8
"""Py_TPFLAGS_IMMUTABLETYPE: a type whose attributes cannot be set or deleted (`object`,
`array.array`)."""


def generic_getattribute(cls: type) -> Any:
    """The generic `__getattribute__` the objects of `cls` would find with none of their own:
    `object`'s, or `module`'s for a module subclass."""
    return _MODULE_GETATTRIBUTE if issubclass(cls, types.ModuleType) else _OBJECT_GETATTRIBUTE


def generic_attribute_class(cls: type) -> bool:
    """Whether attribute reads of `cls`'s objects are the generic ones (the first
    `__getattribute__` on its MRO is `generic_getattribute(cls)`) and a class on that MRO can
    still gain one of its own (`cls` is not immutable; an immutable class has only immutable
    bases)."""
    if cls.__flags__ & IMMUTABLE_TYPE:
        return False
    for klass in cls.__mro__:
        if "__getattribute__" in klass.__dict__:
            return klass.__dict__["__getattribute__"] is generic_getattribute(cls)
    return False


class PinRef(weakref.ref):  # type: ignore[type-arg]
    """The weak reference of a WeakPin: a class of its own, so that CPython never hands it out
    as the object's shared `weakref.ref(obj)` (it reuses a plain reference without a
    callback), and so that what looks at an object's weak references can leave the guards'
    out (variables/lifetimes.py)."""

    __slots__ = ()


class WeakPin:
    """An object an identity guard pins without keeping it alive.

    NOTE [weak pins]: an ID_MATCH, CLOSURE_MATCH or FUNCTION_MATCH guard pins one object, and a
    cache entry lives as long as its function. Held strongly, the pinned object would live as
    long too: a module or a function that an eager call at a break returned, handed to a
    resume function and pinned by its guards, outlived every reference the user's code had
    (CPython's test_struct `test__struct_reference_cycle_cleaned_up`, test_functools
    `test_lru_cache_weakrefable`). Dynamo pins these by id and drops the entry when the object
    dies (a `weakref.finalize`); here the check tests `v is ref() is not None` with a weak
    reference: an entry whose object died fails its check by itself, whenever the object died,
    and a None at the source does not pass a dead reference. It costs about 20 ns a guard in
    the check (benchmarks/README.md), so only what is read through an argument is pinned
    weakly: an object found through a module's globals, the builtins, `sys.modules` or the
    compiled function's own closure cells lives as long as they hold it, and its guard fails
    once they hold another (`_HELD_ROOTS`). Classes are pinned strongly too: a class's own
    `__mro__` holds it, so only the collector frees one. So are objects that can't be weakly
    referenced (`None`, builtin constants, instances of classes with `__slots__`). A pin adds
    a weak reference of its own (`PinRef`), which `weakref.getweakrefcount` counts, as
    Dynamo's do.
    """

    __slots__ = ("cls", "ident", "ref")

    def __init__(self, obj: object) -> None:
        self.ref = PinRef(obj)
        self.ident = id(obj)
        self.cls = type(obj)

    def get(self) -> Any:
        """The pinned object, or None once it died."""
        return self.ref()

    def label(self) -> str:
        """`safe_label` of the object, while it lives."""
        obj = self.ref()
        return safe_label(obj) if obj is not None else f"<dead {type_label(self.cls)} object>"

    def __repr__(self) -> str:
        return f"WeakPin({self.label()})"


def pin(obj: object) -> object:
    """What an identity guard keeps of `obj` (NOTE [weak pins]): a WeakPin, or `obj` itself
    for a constant, a class or an object without weak references."""
    kind = type(obj)
    if kind.__weakrefoffset__ and not issubclass(kind, type) and not is_constant(obj):
        return WeakPin(obj)
    return obj


def _weakly(kind: GuardKind, expected: Any) -> Any:
    """`expected` of an identity guard with its object pinned weakly where it can be."""
    if kind is not GuardKind.FUNCTION_MATCH:
        return pin(expected)
    if type(expected) is not FunctionSpec:
        return expected  # (the key's check says what is wrong)
    return expected._replace(fn=pin(expected.fn))


def pinned_object(expected: object) -> Any:
    """The object an identity guard pins, held weakly or not (None once a weak one died)."""
    return expected.get() if type(expected) is WeakPin else expected


def pinned_label(expected: object) -> str:
    """`safe_label` of what an identity guard pins, held weakly or not."""
    return expected.label() if type(expected) is WeakPin else safe_label(expected)


def pinned_id(expected: object) -> int:
    """The id of what an identity guard pins, held weakly or not."""
    return expected.ident if type(expected) is WeakPin else id(expected)


_PINS_WEAKLY = frozenset({GuardKind.ID_MATCH, GuardKind.CLOSURE_MATCH, GuardKind.FUNCTION_MATCH})
"""The kinds that pin an object by identity: ID_MATCH's and CLOSURE_MATCH's `expected`,
FUNCTION_MATCH's function."""

_HELD_ROOTS: tuple[type[Source], ...] = (
    GlobalSource,
    BuiltinSource,
    BuiltinsDictSource,
    GlobalsDictSource,
    ModuleSource,
    ClosureSource,
)
"""Roots that outlive a call: a module's globals, the builtins, `sys.modules`, and the cells
of the compiled function's closure (which the function, and so the cache, holds). What a
guard finds through them lives as long as they keep it there, and a guard that pinned it fails
once they hold another; so it is pinned strongly, at no cost per call (NOTE [weak pins]).
An argument, and all that is read through one, lives per call: pinned weakly."""

_PINS_A_CLASS = frozenset({GuardKind.TYPE_MATCH, GuardKind.ID_MATCH, GuardKind.CLOSURE_MATCH})
"""The kinds whose expected class may be one whose objects' attribute reads a check tests
(`Guard.pins_generic_reads`): a CLOSURE_MATCH of a class renders as an ID_MATCH."""


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class Guard:
    """One check on one source.

    >>> from guards.sources import LocalSource
    >>> Guard(GuardKind.LENGTH_CHECK, LocalSource("xs"), 3)
    Guard(LENGTH_CHECK L['xs']: 3)
    >>> Guard(GuardKind.EQUALS_MATCH, LocalSource("n"), 0.5).describe()
    "L['n'] == 0.5"
    """

    kind: GuardKind
    source: Source
    expected: Any
    user_location: UserLocation | None = None
    key: tuple[GuardKind, Source, Hashable] = dataclasses.field(init=False, repr=False)
    """What makes two guards the same check (the user line does not): kind, source and
    `expected_key`, worked out once in `__post_init__`."""
    _hash: int = dataclasses.field(init=False, repr=False)
    pins_generic_reads: bool = dataclasses.field(init=False, repr=False)
    """A TYPE_MATCH of, or ID_MATCH (CLOSURE_MATCH) on, a class whose objects read
    attributes generically when the guard was made (`generic_attribute_class`): its check
    also tests that they still do (NOTE [generic attribute reads] in guards.builder).
    Decided here, at trace time, since the check and a miss's explanation are rendered
    later, from a class that may have changed."""

    def __post_init__(self) -> None:
        """Check `expected` (an object an identity kind pins is held weakly: NOTE [weak
        pins]), then work out the key and its hash once (all fields are frozen)."""
        if self.kind in _PINS_WEAKLY and not isinstance(self.source.root(), _HELD_ROOTS):
            object.__setattr__(self, "expected", _weakly(self.kind, self.expected))
        key = (self.kind, self.source, _KEY_OF[self.kind](self.expected))  # TypeError if bad
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_hash", hash(key))
        pins = (
            self.kind in _PINS_A_CLASS
            and issubclass(type(self.expected), type)  # (no `__class__` of a hostile object)
            and generic_attribute_class(self.expected)
        )
        object.__setattr__(self, "pins_generic_reads", pins)

    @property
    def expected_key(self) -> Hashable:
        """`expected` as a hashable key: identity for objects and types, exact value for
        constants (guards.constants), so comparing guards never calls user `__eq__`."""
        return _KEY_OF[self.kind](self.expected)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Guard) and (
            self is other or (self._hash == other._hash and self.key == other.key)
        )

    def __hash__(self) -> int:
        return self._hash

    def expected_text(self) -> str:
        """The expected side in a few words: `Config`, `0.5`, `float32[2, 3]`, `[Mode]`."""
        return _EXPECTED_TEXT[self.kind](self.expected)

    def describe(self) -> str:
        """The guard as one line of Python-like text, as `flat()` and `explain()` show it."""
        return _DESCRIBE[self.kind](self.source.name, self.expected)

    def __repr__(self) -> str:
        return f"Guard({self.kind.name} {self.source.name}: {self.expected_text()})"


# kind -> `expected` as a hashable key, after checking `expected` suits the kind (a TypeError
# saying what the kind expects, otherwise).


def state_part_guard(name: str, value: object, reader: Callable[[], object]) -> Guard:
    """A GLOBAL_STATE guard of one part: `name` read by `reader`, expected `value` (grad mode
    in the runtime, whether modes are dispatched to, a backend flag, the ABC cache token).

    >>> state_part_guard("grad_enabled", True, lambda: True)
    Guard(GLOBAL_STATE ___global_state: grad_enabled=True)
    """
    spec = GlobalStateSpec((name,), (value,), (reader,))
    return Guard(GuardKind.GLOBAL_STATE, GlobalStateSource(), spec)


def _type_key(expected: Any) -> Hashable:
    if isinstance(expected, type):
        return id(expected)
    raise TypeError(f"TYPE_MATCH expects a type, got {safe_label(expected)}")


def _function_key(expected: Any) -> Hashable:
    if type(expected) is FunctionSpec:
        return (pinned_id(expected.fn), id(expected.code))
    raise TypeError(f"FUNCTION_MATCH expects a FunctionSpec, got {safe_label(expected)}")


def _equals_key(expected: Any) -> Hashable:
    if is_constant(expected):
        return constant_key(expected)
    raise TypeError(f"EQUALS_MATCH expects a constant, got {safe_label(expected)}")


def _closure_key(expected: Any) -> Hashable:
    return constant_key(expected) if is_constant(expected) else ("id", pinned_id(expected))


def _length_key(expected: Any) -> Hashable:
    if type(expected) is int:
        return expected
    raise TypeError(f"LENGTH_CHECK expects an int, got {safe_label(expected)}")


def _absent_key(expected: Any) -> Hashable:
    if type(expected) is tuple and expected:
        try:
            return constant_key(expected)
        except TypeError:  # constant_key's answer for a non-constant
            pass
    raise TypeError(
        "DICT_NOT_CONTAINS and DICT_CONTAINS expect a non-empty tuple of constant keys, got "
        f"{safe_label(expected)}"
    )


def _hasattr_key(expected: Any) -> Hashable:
    if type(expected) is str:
        return expected
    raise TypeError(f"HASATTR expects an attribute name, got {safe_label(expected)}")


def _no_hasattr_key(expected: Any) -> Hashable:
    if type(expected) is str:
        return expected
    raise TypeError(f"NO_HASATTR expects an attribute name, got {safe_label(expected)}")


def _keys_key(expected: Any) -> Hashable:
    if type(expected) is tuple:
        try:
            return constant_key(expected)
        except TypeError:  # constant_key's answer for a non-constant
            pass
    raise TypeError(f"DICT_KEYS_MATCH expects a tuple of constant keys, got {safe_label(expected)}")


def _tensor_key(expected: Any) -> Hashable:
    if isinstance(expected, TensorSpec):
        return expected.key()
    raise TypeError(f"TENSOR_MATCH expects a TensorSpec, got {safe_label(expected)}")


def _global_state_key(expected: Any) -> Hashable:
    if isinstance(expected, GlobalStateSpec):
        return (
            expected.names,
            tuple(constant_key(v) if is_constant(v) else id(v) for v in expected.values),
        )
    raise TypeError(f"GLOBAL_STATE expects a GlobalStateSpec, got {safe_label(expected)}")


def _facts_key(expected: Any) -> Hashable:
    if isinstance(expected, FactsSpec):
        # ints, bools and None compare exactly once their types are equal too (`1 == True`)
        types = tuple(map(type, expected.values))
        if _FACT_TYPES.issuperset(types):
            return (expected.names, types, expected.values)
    raise TypeError(f"FACTS_MATCH expects a FactsSpec of ints, bools and None, got {expected!r}")


_FACT_TYPES = frozenset({int, bool, type(None)})


def _mode_stack_key(expected: Any) -> Hashable:
    if type(expected) is tuple and all(isinstance(t, type) for t in expected):
        return tuple(map(id, expected))
    raise TypeError(f"MODE_STACK expects a tuple of mode types, got {safe_label(expected)}")


def _aliasing_key(expected: Any) -> Hashable:
    if isinstance(expected, Source):
        return expected
    raise TypeError(f"OBJECT_ALIASING expects a Source, got {safe_label(expected)}")


def _no_aliasing_key(expected: Any) -> Hashable:
    if type(expected) is tuple and all(isinstance(item, Source) for item in expected):
        key: Hashable = expected
        return key
    raise TypeError(f"NO_ALIASING expects a tuple of Sources, got {safe_label(expected)}")


_KEY_OF: dict[GuardKind, Callable[[Any], Hashable]] = {
    GuardKind.TYPE_MATCH: _type_key,
    GuardKind.ID_MATCH: pinned_id,
    GuardKind.FUNCTION_MATCH: _function_key,
    GuardKind.EQUALS_MATCH: _equals_key,
    GuardKind.CLOSURE_MATCH: _closure_key,
    GuardKind.LENGTH_CHECK: _length_key,
    GuardKind.DICT_NOT_CONTAINS: _absent_key,
    GuardKind.HASATTR: _hasattr_key,
    GuardKind.NO_HASATTR: _no_hasattr_key,
    GuardKind.DICT_KEYS_MATCH: _keys_key,
    GuardKind.TENSOR_MATCH: _tensor_key,
    GuardKind.MODE_STACK: _mode_stack_key,
    GuardKind.OBJECT_ALIASING: _aliasing_key,
    GuardKind.NO_ALIASING: _no_aliasing_key,
    GuardKind.GLOBAL_STATE: _global_state_key,
    GuardKind.FACTS_MATCH: _facts_key,
    GuardKind.DICT_CONTAINS: _absent_key,
}
assert set(_KEY_OF) == set(GuardKind), "every guard kind needs a key"


def mode_types_text(types: Iterable[type]) -> str:
    """`[LoggingMode, OtherMode]`, the exact mode types bottom first."""
    return "[" + ", ".join(type_label(t) for t in types) + "]"


def _tensor_describe(name: str, spec: TensorSpec) -> str:
    parts = [
        f"type({name}) is {type_label(spec.cls)}" if spec.cls is not None else "",
        f"{name}.dtype == {dtype_label(spec.dtype)}",
        f"{name}.device == {spec.device}" if spec.device is not None else "",
        f"{name}.shape == {spec.shape!r}",
        f"{name}.stride() == {spec.strides!r}" if spec.strides is not None else "",
        f"{name}.requires_grad == {spec.requires_grad!r}",
        f"{name}.dispatch_keys == {spec.dispatch_keys}" if spec.dispatch_keys is not None else "",
    ]
    return " and ".join(part for part in parts if part)


def _keys_text(keys: Any) -> str:
    return repr(list(keys))


_EXPECTED_TEXT: dict[GuardKind, Callable[[Any], str]] = {
    GuardKind.TYPE_MATCH: type_label,
    GuardKind.ID_MATCH: pinned_label,
    GuardKind.FUNCTION_MATCH: lambda spec: pinned_label(spec.fn),
    GuardKind.EQUALS_MATCH: repr,
    GuardKind.CLOSURE_MATCH: pinned_label,
    GuardKind.LENGTH_CHECK: repr,
    GuardKind.DICT_NOT_CONTAINS: lambda keys: ", ".join(map(repr, keys)) + " absent",
    GuardKind.HASATTR: lambda attr: f"has .{attr}",
    GuardKind.NO_HASATTR: lambda attr: f"no .{attr}",
    GuardKind.DICT_KEYS_MATCH: _keys_text,
    GuardKind.TENSOR_MATCH: lambda spec: f"{spec}, requires_grad={spec.requires_grad}",
    GuardKind.MODE_STACK: mode_types_text,
    GuardKind.OBJECT_ALIASING: lambda other: f"is {other.name}",
    GuardKind.NO_ALIASING: lambda others: "is none of " + ", ".join(o.name for o in others),
    GuardKind.GLOBAL_STATE: lambda spec: spec.text(),
    GuardKind.FACTS_MATCH: lambda spec: spec.text("v", ", "),
    GuardKind.DICT_CONTAINS: lambda keys: ", ".join(map(repr, keys)) + " present",
}


def _closure_describe(name: str, expected: object) -> str:
    op = "==" if is_constant(expected) else "is"
    return f"{name} {op} {pinned_label(expected)}"


def _mode_stack_describe(name: str, types: tuple[type, ...]) -> str:
    checks = [f"len({name}) == {len(types)}"]
    checks += [f"type({name}[{i}]) is {type_label(t)}" for i, t in enumerate(types)]
    return " and ".join(checks)


_DESCRIBE: dict[GuardKind, Callable[[str, Any], str]] = {
    GuardKind.TYPE_MATCH: lambda name, t: f"type({name}) is {type_label(t)}",
    GuardKind.ID_MATCH: lambda name, obj: f"{name} is {pinned_label(obj)}",
    GuardKind.FUNCTION_MATCH: lambda name, spec: (
        f"{name} is {pinned_label(spec.fn)} and {name}.__code__ is {safe_label(spec.code)}"
    ),
    GuardKind.EQUALS_MATCH: lambda name, value: f"{name} == {value!r}",
    GuardKind.CLOSURE_MATCH: _closure_describe,
    GuardKind.LENGTH_CHECK: lambda name, n: f"len({name}) == {n}",
    GuardKind.DICT_NOT_CONTAINS: lambda name, keys: " and ".join(
        f"{key!r} not in {name}" for key in keys
    ),
    GuardKind.HASATTR: lambda name, attr: f"hasattr({name}, {attr!r})",
    GuardKind.NO_HASATTR: lambda name, attr: f"not hasattr({name}, {attr!r})",
    GuardKind.DICT_KEYS_MATCH: lambda name, keys: f"list({name}) == {_keys_text(keys)}",
    GuardKind.TENSOR_MATCH: _tensor_describe,
    GuardKind.MODE_STACK: _mode_stack_describe,
    GuardKind.OBJECT_ALIASING: lambda name, other: f"{name} is {other.name}",
    GuardKind.NO_ALIASING: lambda name, others: " and ".join(
        f"{name} is not {o.name}" for o in others
    ),
    GuardKind.GLOBAL_STATE: lambda name, spec: spec.text(" and "),
    GuardKind.FACTS_MATCH: lambda name, spec: spec.text(name),
    GuardKind.DICT_CONTAINS: lambda name, keys: " and ".join(f"{key!r} in {name}" for key in keys),
}
