"""Sources: where a value the trace relied on came from, as immutable, hashable value objects.

A Source prints its `name` (`L['x'].a[0]`, used in every printout and failure reason) and the
Python expression that reads it inside the generated check function. Chained sources build that
expression from a hoisted local holding their base (`access("___v3")` -> `___v3.a`), so a shared
prefix is read once. The check function's roots are `L` (bound arguments), `G` (the function's
globals), `B` (its builtins dict), `C` (its closure cells) and `___mode_stack()` (the live
torch-function mode stack), and `sys.modules` for modules named by their import name.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import math
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from types import CodeType
from typing import TYPE_CHECKING, Any, ClassVar

from guards.constants import constant_key, is_constant

MODE_STACK_FN = "___mode_stack"
"""Global name of the mode-stack accessor inside the check function."""

MODE_STACK_LEN_FN = "___mode_stack_len"
"""Global name of the mode stack's length accessor inside the check function: the guard on an
empty stack reads only the length, through the world's own counter (torch's is a C function)."""

SYS_MODULES = "___sys_modules"
"""Global name of `sys.modules` inside the check function (the root of ModuleSource)."""


class Source(abc.ABC):
    """Base of every source: a root (`base is None`) or one access step from its `base`."""

    __slots__ = ("_hash", "depth", "name")
    _hash: int
    """Every source hashes its fields once, at construction (`__post_init__`): sources are dict
    keys everywhere, and a chained source's hash covers its whole chain. The value is the
    dataclass hash of the fields."""
    name: str
    """The exact string used in guard printouts and failure reasons."""
    depth: int
    """Number of access steps from a root (roots have depth 0), stored at construction: the
    guard planner ranks every guard by it."""

    if TYPE_CHECKING:  # what subclasses refine: a field, or a property (ModeStackSource)

        @property
        def base(self) -> Source | None: ...

    else:
        base = None
        """Roots have none; chained sources shadow this class attribute with their field."""

    exact_type: ClassVar[type | None] = None
    """The exact type of every value this source reads, when its access step makes one (a
    keys view): a guard that needs an exact type (`len`, listing keys) needs no TYPE_MATCH."""

    def _store(self, fields: tuple[object, ...], name: str) -> None:
        """Store the hash of `fields` (the dataclass hash), the name and the depth; fields are
        frozen, so none of them can change."""
        object.__setattr__(self, "_hash", hash(fields))
        object.__setattr__(self, "name", name)
        base = self.base
        object.__setattr__(self, "depth", 0 if base is None else base.depth + 1)

    @abc.abstractmethod
    def access(self, base_expr: str) -> str:
        """Python that reads this source given an expression holding the base's value (roots
        ignore `base_expr`)."""

    def expr(self) -> str:
        """The full expression, from the roots, that evaluates this source in the check."""
        base = self.base
        return self.access(base.expr() if base is not None else "")

    def chain(self) -> tuple[Source, ...]:
        """This source's ancestors and itself, root first."""
        base = self.base
        return (self,) if base is None else (*base.chain(), self)

    def root(self) -> Source:
        """The root this source is read from (itself for a root)."""
        source = self
        while (base := source.base) is not None:
            source = base
        return source

    def get_value(
        self,
        L: Mapping[str, object],
        G: Mapping[str, object] | None = None,
        B: Mapping[str, object] | None = None,
        C: Sequence[object] = (),
        mode_stack: Callable[[], Sequence[object]] | None = None,
    ) -> object:
        """Evaluate the source for real, with the very expression the check function runs."""
        scope: dict[str, object] = {
            "L": L,
            "G": G,
            "B": B,
            "C": C,
            MODE_STACK_FN: mode_stack,
            SYS_MODULES: sys.modules,
        }
        return eval(_compiled(self.expr()), scope)  # the code is ours, from `expr()`

    def __repr__(self) -> str:
        return self.name


@functools.lru_cache(maxsize=1024)
def _compiled(expr: str) -> CodeType:
    return compile(expr, f"<source {expr}>", "eval")


def is_item_key(key: object) -> bool:
    """Can `key` be the key of an ItemSource? (A frozenset cannot: see `_check_key`.)"""
    try:
        _check_key(key)
    except ValueError:
        return False
    return True


def _check_key(key: object) -> None:
    """Item keys are printed with repr and re-read from the text, so they must round-trip."""
    if not is_constant(key) or type(key) is frozenset:
        raise ValueError(f"item keys must be int/str/bool/None/float or tuples of them: {key!r}")
    if type(key) is float and not math.isfinite(key):
        raise ValueError(f"item key {key!r} has no literal form")
    if type(key) is tuple:
        for item in key:
            _check_key(item)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class LocalSource(Source):
    """An argument of the compiled function: `L['x']`."""

    local_name: str

    def __post_init__(self) -> None:
        self._store((self.local_name,), f"L[{self.local_name!r}]")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[LocalSource], tuple[str]]:
        return (LocalSource, (self.local_name,))

    def access(self, base_expr: str) -> str:
        return self.name


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class GlobalSource(Source):
    """A name in the function's globals: `G['y']`."""

    global_name: str

    def __post_init__(self) -> None:
        self._store((self.global_name,), f"G[{self.global_name!r}]")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[GlobalSource], tuple[str]]:
        return (GlobalSource, (self.global_name,))

    def access(self, base_expr: str) -> str:
        return self.name


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class BuiltinSource(Source):
    """A name in the builtins dict the function sees: `B['len']`."""

    builtin_name: str

    def __post_init__(self) -> None:
        self._store((self.builtin_name,), f"B[{self.builtin_name!r}]")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[BuiltinSource], tuple[str]]:
        return (BuiltinSource, (self.builtin_name,))

    def access(self, base_expr: str) -> str:
        return self.name


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class GlobalsDictSource(Source):
    """The globals dict itself, `G`: the root of "this name is not a global" guards."""

    def __post_init__(self) -> None:
        self._store((), "G")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[GlobalsDictSource], tuple[()]]:
        return (GlobalsDictSource, ())

    def access(self, base_expr: str) -> str:
        return "G"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class BuiltinsDictSource(Source):
    """The builtins dict itself, `B`: the root of "this name is not a builtin" guards (a
    NameError the trace raised holds while neither the globals nor the builtins define it)."""

    def __post_init__(self) -> None:
        self._store((), "B")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[BuiltinsDictSource], tuple[()]]:
        return (BuiltinsDictSource, ())

    def access(self, base_expr: str) -> str:
        return "B"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class ModuleSource(Source):
    """A module by its import name: `sys.modules['math']`. The root of a module an `import`
    inside the traced code found, and of the globals of a function from another module
    (`sys.modules['m'].__dict__['n']`), as Dynamo reaches them through an alias global."""

    module_name: str

    def __post_init__(self) -> None:
        self._store((self.module_name,), f"sys.modules[{self.module_name!r}]")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[ModuleSource], tuple[str]]:
        return (ModuleSource, (self.module_name,))

    def access(self, base_expr: str) -> str:
        return f"{SYS_MODULES}[{self.module_name!r}]"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class ClosureSource(Source):
    """The contents of closure cell `index`, named after its free variable: `C['n']`.

    The name says which variable a reader should look at; the code reads the cell by position,
    `C[index].cell_contents`, because the cell tuple is what the function actually holds.
    """

    freevar_name: str
    index: int

    def __post_init__(self) -> None:
        self._store((self.freevar_name, self.index), f"C[{self.freevar_name!r}]")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[ClosureSource], tuple[str, int]]:
        return (ClosureSource, (self.freevar_name, self.index))

    def access(self, base_expr: str) -> str:
        return f"C[{self.index}].cell_contents"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class ModeStackListSource(Source):
    """The live torch-function mode stack (a list, bottom first): `___mode_stack`."""

    def __post_init__(self) -> None:
        self._store((), MODE_STACK_FN)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[ModeStackListSource], tuple[()]]:
        return (ModeStackListSource, ())

    def access(self, base_expr: str) -> str:
        return f"{MODE_STACK_FN}()"


MODE_STACK_LIST = ModeStackListSource()
"""The one stack: the base of every ModeStackSource (sources are values, so any equal one would
do; this one is built once)."""


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class GlobalStateSource(Source):
    """The tensor library's global state (grad mode, default dtype...): `___global_state`.
    Nothing is read through it: the GLOBAL_STATE guard on it calls its spec's own readers, so
    it evaluates to None in the check."""

    def __post_init__(self) -> None:
        self._store((), "___global_state")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[GlobalStateSource], tuple[()]]:
        return (GlobalStateSource, ())

    def access(self, base_expr: str) -> str:
        return "None"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class ModeStackSource(Source):
    """One mode on the stack, 0 at the bottom: `___mode_stack[0]`. Its base is the whole stack,
    so the MODE_STACK guard (length and types) runs before any entry is read."""

    index: int

    def __post_init__(self) -> None:
        self._store((self.index,), f"{MODE_STACK_FN}[{self.index}]")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[ModeStackSource], tuple[int]]:
        return (ModeStackSource, (self.index,))

    @property
    def base(self) -> Source:
        return MODE_STACK_LIST

    def access(self, base_expr: str) -> str:
        return f"{base_expr}[{self.index}]"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class AttrSource(Source):
    """An attribute of the base: `L['x'].a` (or `getattr(L['x'], 'a-b')` for non-identifiers).

    The check reads it with ordinary attribute syntax. Whoever records a guard below an
    AttrSource also records a HASATTR on the base when a class `__getattr__` could otherwise
    run for a missing attribute; the builder orders that HASATTR before the read.
    """

    base: Source = dataclasses.field()
    member: str

    def __post_init__(self) -> None:
        if "." in self.member:
            raise ValueError(f"chain attributes one AttrSource at a time: {self.member!r}")
        self._store((self.base, self.member), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[AttrSource], tuple[Source, str]]:
        return (AttrSource, (self.base, self.member))  # copies and pickles rebuild `_hash`

    def access(self, base_expr: str) -> str:
        if self.member.isidentifier():
            return f"{base_expr}.{self.member}"
        return f"getattr({base_expr}, {self.member!r})"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class ItemSource(Source):
    """A subscript of the base with a constant key: `L['xs'][0]`, `L['d']['k']`.

    Sources compare keys exactly (`[1]`, `[True]` and `[1.0]` are three sources, as they are
    three names), so equal sources always print the same.
    """

    base: Source = dataclasses.field()
    key: Any = dataclasses.field(compare=False)
    exact_key: Hashable = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_key(self.key)
        exact = constant_key(self.key)
        object.__setattr__(self, "exact_key", exact)
        self._store((self.base, exact), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[ItemSource], tuple[Source, Any]]:
        return (ItemSource, (self.base, self.key))  # copies and pickles rebuild `_hash`

    def access(self, base_expr: str) -> str:
        return f"{base_expr}[{self.key!r}]"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class TupleItemSource(Source):
    """An item of an object of a tuple subclass, read with tuple's own `__getitem__`:
    `tuple.__getitem__(L['p'], 0)`. A named tuple's class can gain a `__getitem__` after a
    compile; the trace modeled the tuple's item, so the check reads that, and reading it runs
    no user code whatever order the guards run in (`L['p'][0]` would call the new method
    before the guard on the class's names fails)."""

    base: Source = dataclasses.field()
    index: int

    def __post_init__(self) -> None:
        self._store((self.base, self.index), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[TupleItemSource], tuple[Source, int]]:
        return (TupleItemSource, (self.base, self.index))

    def access(self, base_expr: str) -> str:
        return f"tuple.__getitem__({base_expr}, {self.index!r})"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class DictKeysSource(Source):
    """The keys of an object of a dict subclass, as dict's own view lists them:
    `dict.keys(L['cfg'])`. Listing them runs no `__iter__` or `keys` of the class (a
    DICT_KEYS_MATCH on it reads `tuple(dict.keys(L['cfg']))`)."""

    base: Source = dataclasses.field()
    exact_type: ClassVar[type | None] = type({}.keys())

    def __post_init__(self) -> None:
        self._store((self.base,), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[DictKeysSource], tuple[Source]]:
        return (DictKeysSource, (self.base,))

    def access(self, base_expr: str) -> str:
        return f"dict.keys({base_expr})"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class DictGetSource(Source):
    """A value of an object of a dict subclass, read with dict's own `get`:
    `dict.get(L['cfg'], 'k')`. It runs no `__getitem__` or `__missing__` of the class, in
    whatever order the guards run (the guard on the keys may come after it)."""

    base: Source = dataclasses.field()
    key: Any = dataclasses.field(compare=False)
    exact_key: Hashable = dataclasses.field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_key(self.key)
        exact = constant_key(self.key)
        object.__setattr__(self, "exact_key", exact)
        self._store((self.base, exact), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[DictGetSource], tuple[Source, Any]]:
        return (DictGetSource, (self.base, self.key))

    def access(self, base_expr: str) -> str:
        return f"dict.get({base_expr}, {self.key!r})"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class TypeSource(Source):
    """The exact type of the base: `type(L['x'])`."""

    base: Source = dataclasses.field()

    def __post_init__(self) -> None:
        self._store((self.base,), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[TypeSource], tuple[Source]]:
        return (TypeSource, (self.base,))

    def access(self, base_expr: str) -> str:
        return f"type({base_expr})"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class IterationSource(Source):
    """The items of the base in iteration order, as a tuple: `tuple(L['s'])`. A guard on it
    pins a set's members and its iteration order (which equal sets need not share), a
    bytearray's contents, or a dict's keys (`tuple(L['d'])[0]`); only for a base whose exact
    type is guarded first to a builtin container, so iterating runs no user code."""

    base: Source = dataclasses.field()

    def __post_init__(self) -> None:
        self._store((self.base,), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[IterationSource], tuple[Source]]:
        return (IterationSource, (self.base,))

    def access(self, base_expr: str) -> str:
        return f"tuple({base_expr})"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class DictValueSource(Source):
    """The value at a position of the base dict, in iteration order: `tuple(L['d'].values())[0]`.
    Reaches the value of a key that can't be written in a guard (a user object, guarded by
    identity at `tuple(L['d'])[0]`); only for a base whose exact type is a builtin dict."""

    base: Source = dataclasses.field()
    index: int = dataclasses.field()

    def __post_init__(self) -> None:
        self._store((self.base, self.index), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[DictValueSource], tuple[Source, int]]:
        return (DictValueSource, (self.base, self.index))

    def access(self, base_expr: str) -> str:
        return f"tuple({base_expr}.values())[{self.index!r}]"


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class DefaultsSource(Source):
    """A positional default of a function found at the base: `L['f'].__defaults__[0]`."""

    base: Source = dataclasses.field()
    index: int

    def __post_init__(self) -> None:
        self._store((self.base, self.index), self.access(self.base.name))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[DefaultsSource], tuple[Source, int]]:
        return (DefaultsSource, (self.base, self.index))

    def access(self, base_expr: str) -> str:
        return f"{base_expr}.__defaults__[{self.index}]"
