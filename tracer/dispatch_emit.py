"""The dispatcher written straight to bytecode, for the linear shape (no dispatch key).

`tracer.dispatch` describes the dispatcher as Python text; compiling that text was a third of
a small function's first call. This module writes the same function instruction by
instruction (tracer.bytecode_writer) from the entries' planned guards, with the same checks in
the same order, and a line table that points at the matching lines of the text, which is
rendered only when someone reads it (a traceback, a debugger, a test). See NOTE [emitted
dispatcher] in notes/guards.md.

Shape (one block per entry, newest first; `fail` of an entry is the start of the next one):

    [___ms = ___mode_stack()]
    if fn.__defaults__ is not D or fn.__kwdefaults__ is not KD: return refresh(args, kwargs)
    if x is UNSET: x = <default>                       # one per parameter with a default
    try: <guards of entry i, each failing with a jump to fail_i>
    except Exception: goto fail_i
    return run_i(<fn's arguments>)
    fail_i: ...
    return miss(locals, args, kwargs)

Everything the text reads as a global (`___fn`, `___c0_Tensor`, `len`, `G`, ...) is a constant
here: the same object, loaded without a dict lookup, and no parameter name can shadow it, so
the text's renaming for clashes has no counterpart. Whatever this module does not know (a
source or guard kind it does not list, a parameter named like its temporaries) raises
`Unsupported`, and the caller compiles the text instead: correctness never depends on
coverage.
"""

from __future__ import annotations

import builtins
import math
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self

from guards.builder import has_instance_attr
from guards.constants import constants_equal, is_constant
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
    ModeStackListSource,
    ModeStackSource,
    Source,
    TypeSource,
)
from tracer.bytecode_writer import OP, BytecodeWriter, Label, TooComplex

if TYPE_CHECKING:
    from tracer.cache import CacheEntry
    from tracer.dispatch import Signature

_CO_OPTIMIZED_NEWLOCALS = 0x1 | 0x2
_CO_VARARGS_VARKEYWORDS = 0x4 | 0x8
_EQ, _NE = 2, 3  # COMPARE_OP opargs (dis.cmp_op)


def _stack_bound(params: int) -> int:
    """An upper bound of the value stack: a guard test holds at most 5 values (NULL,
    `copysign`, 1.0, then `v[i]` being indexed), an exception handler 4 (COPY 3 on the
    previous and current exception and the raising offset); the calls of miss, refresh and
    the entries hold NULL, the callable, the locals dict or args tuple built so far, and up to
    two values per parameter (a name and a value) while building one of them."""
    return 8 + 2 * params


class Unsupported(Exception):
    """This dispatcher needs something the emitter does not write; compile the text."""


Ref = tuple[bool, Any]
"""Where a value is: (True, the constant object) or (False, the name of a local)."""


class DispatchEmitter:
    """Writes one linear dispatcher; `function()` returns it. Line numbers follow the text
    that `tracer.dispatch._Generator` renders for the same entries (checked by the tests)."""

    def __init__(
        self,
        fn: Any,
        sig: Signature,
        entries: Sequence[CacheEntry],
        miss: Callable[..., Any],
        refresh: Callable[..., Any] | None,
        roots: dict[str, Any],
        needs_mode_stack: bool,
        unset: object,
    ) -> None:
        if any(n.startswith("___") for n in sig.names):
            raise Unsupported("a parameter named like the emitter's temporaries")
        self.fn = fn
        self.sig = sig
        self.entries = entries
        self.miss = miss
        self.refresh = refresh
        self.roots = roots
        self.needs_mode_stack = needs_mode_stack
        self.unset = unset
        self.w = BytecodeWriter(list(sig.names))
        self.lineno = 1
        self.hoisted = 0
        self.temps = 0
        self.local_of: dict[Source, Ref] = {}
        self.fail = Label()
        self.exit_at = -1
        """Where the current entry's guards leave for `fail` (tracer.bytecode_writer)."""

    def __repr__(self) -> str:
        return f"<DispatchEmitter {self.fn.__qualname__}: {len(self.entries)} entries>"

    def function(self, filename: str) -> Callable[..., Any]:
        w, sig = self.w, self.sig
        w.line(1)
        w.op(OP["RESUME"])
        if self.needs_mode_stack:
            self._next_line()
            self._call_const(self.roots["___mode_stack"], [])
            w.store_fast("___ms")
        self._defaults_check()
        self._fill_defaults()
        cleanup = Label()
        for index in range(len(self.entries)):
            self._entry(index, cleanup)
        self._next_line()
        self._miss_call()
        if self.entries:
            w.bind(cleanup)  # the handler's stack (prev exc, exc) plus the raising offset
            w.op(OP["COPY"], 3)
            w.op(OP["POP_EXCEPT"])
            w.op(OP["RERAISE"], 1)
        code = self.fn.__code__
        flags = _CO_OPTIMIZED_NEWLOCALS | (code.co_flags & _CO_VARARGS_VARKEYWORDS)
        try:
            emitted = w.code_object(
                argcount=code.co_argcount,
                posonlyargcount=code.co_posonlyargcount,
                kwonlyargcount=code.co_kwonlyargcount,
                flags=flags,
                stacksize=_stack_bound(len(sig.names)),
                filename=filename,
                name=code.co_name,
                qualname=code.co_qualname,
            )
        except TooComplex as error:
            raise Unsupported(str(error)) from None
        dispatch = types.FunctionType(emitted, {"__builtins__": builtins.__dict__})
        dispatch.__qualname__ = code.co_qualname  # fn's own TypeError messages on bad calls
        dispatch.__defaults__ = tuple(self.unset for _ in self.fn.__defaults__ or ())
        dispatch.__kwdefaults__ = dict.fromkeys(self.fn.__kwdefaults__ or {}, self.unset) or None
        return dispatch

    def _next_line(self) -> None:
        self.lineno += 1
        self.w.line(self.lineno)

    # ------------------------------------------------------------------ the frame around

    def _defaults_check(self) -> None:
        """NOTE [live defaults] (tracer.dispatch): reassigned defaults start the call over."""
        w = self.w
        refresh, after = Label(), Label()
        self._next_line()
        w.load_const(self.fn)
        w.load_attr("__defaults__")
        w.load_const(self.fn.__defaults__)
        w.op(OP["IS_OP"], 1)
        w.jump(OP["POP_JUMP_FORWARD_IF_TRUE"], refresh)
        w.load_const(self.fn)
        w.load_attr("__kwdefaults__")
        w.load_const(self.fn.__kwdefaults__)
        w.op(OP["IS_OP"], 1)
        w.jump(OP["POP_JUMP_FORWARD_IF_FALSE"], after)
        w.bind(refresh)
        self._next_line()
        w.op(OP["PUSH_NULL"])
        w.load_const(self.refresh)
        self._args_tuple()
        self._kwargs_dict()
        w.call(2)
        w.op(OP["RETURN_VALUE"])
        w.bind(after)

    def _fill_defaults(self) -> None:
        w = self.w
        defaults = self.fn.__defaults__ or ()
        with_default = self.sig.positional[len(self.sig.positional) - len(defaults) :]
        kwdefaults = self.fn.__kwdefaults__ or {}
        pairs = [*zip(with_default, defaults, strict=True), *kwdefaults.items()]
        for name, value in pairs:
            skip = Label()
            self._next_line()
            w.load_fast(name)
            w.load_const(self.unset)
            w.op(OP["IS_OP"])
            w.jump(OP["POP_JUMP_FORWARD_IF_FALSE"], skip)
            w.load_const(value)
            w.store_fast(name)
            w.bind(skip)

    def _args_tuple(self) -> None:
        """`(x, y, *args)`: the positional arguments as the caller's tuple."""
        w, sig = self.w, self.sig
        for name in sig.positional:
            w.load_fast(name)
        if sig.star is None:
            w.op(OP["BUILD_TUPLE"], len(sig.positional))
            return
        w.op(OP["BUILD_LIST"], len(sig.positional))
        w.load_fast(sig.star)
        w.op(OP["LIST_EXTEND"], 1)
        w.op(OP["LIST_TO_TUPLE"])

    def _kwargs_dict(self, merge: bool = False) -> None:
        """`{'k': k, **kw}`: the keyword-only arguments and the `**` dict."""
        w, sig = self.w, self.sig
        for name in sig.kwonly:
            w.load_const(name)
            w.load_fast(name)
        w.op(OP["BUILD_MAP"], len(sig.kwonly))
        if sig.starstar is not None:
            w.load_fast(sig.starstar)
            w.op(OP["DICT_MERGE" if merge else "DICT_UPDATE"], 1)

    def _miss_call(self) -> None:
        w, names = self.w, self.sig.names
        w.op(OP["PUSH_NULL"])
        w.load_const(self.miss)
        for name in names:
            w.load_fast(name)
        if names:
            w.load_const(tuple(names))
            w.op(OP["BUILD_CONST_KEY_MAP"], len(names))
        else:
            w.op(OP["BUILD_MAP"])
        self._args_tuple()
        self._kwargs_dict()
        w.call(3)
        w.op(OP["RETURN_VALUE"])

    def _run_call(self, run: Callable[..., Any]) -> None:
        """`run_i(x, y, *args, k=k, **kw)`: fn's arguments re-passed so it binds them alike."""
        w, sig = self.w, self.sig
        w.op(OP["PUSH_NULL"])
        w.load_const(run)
        if sig.star is None and sig.starstar is None:
            for name in [*sig.positional, *sig.kwonly]:
                w.load_fast(name)
            argc = len(sig.positional) + len(sig.kwonly)
            if sig.kwonly:
                w.op(OP["KW_NAMES"], w.const_index(tuple(sig.kwonly)))
            w.call(argc)
        else:
            self._args_tuple()
            if sig.kwonly or sig.starstar is not None:
                self._kwargs_dict(merge=True)
                w.op(OP["CALL_FUNCTION_EX"], 1)
            else:
                w.op(OP["CALL_FUNCTION_EX"])
        w.op(OP["RETURN_VALUE"])

    def _call_const(self, func: object, args: list[Ref]) -> None:
        w = self.w
        w.op(OP["PUSH_NULL"])
        w.load_const(func)
        for ref in args:
            self._load(ref)
        w.call(len(args))

    # ------------------------------------------------------------------ one entry

    def _entry(self, index: int, cleanup: Label) -> None:
        """`while True: try: <guards> except Exception: break; return run(...)` of the text:
        lines `while`, `try`, the guard lines, `except`, `break`, `return`."""
        w = self.w
        entry = self.entries[index]
        self.lineno += 2  # `while True:` and `try:` hold no instruction
        start, end, handler, fail = Label(), Label(), Label(), Label()
        w.bind(start)
        roots: dict[Source, Ref] = {LocalSource(n): (False, n) for n in self.sig.names}
        if self.needs_mode_stack:
            roots[ModeStackListSource()] = (False, "___ms")
        self.local_of = roots
        self.hoisted = 0
        self.fail = fail
        self.exit_at = -1
        for guard in entry.guard_manager.guards:
            self._guard(guard)
        w.bind(end)
        except_line = self.lineno + 1
        self.lineno += 3
        w.line(self.lineno)
        self._run_call(entry.run)
        if end.position == start.position:
            w.bind(fail)
            return  # nothing can raise: no handler (the text could not even say `try:`)
        w.handler(start, end, handler, 0, False)
        # The handler, as CPython compiles `except Exception: break`.
        handler_end, matched = Label(), Label()
        w.bind(handler)  # the exception
        w.line(except_line)
        w.op(OP["PUSH_EXC_INFO"])
        w.load_const(Exception)
        w.op(OP["CHECK_EXC_MATCH"])
        w.jump(OP["POP_JUMP_FORWARD_IF_TRUE"], matched)
        w.op(OP["RERAISE"], 0)
        w.bind(matched)
        w.op(OP["POP_TOP"])
        w.bind(handler_end)
        w.handler(handler, handler_end, cleanup, 1, True)
        w.line(except_line + 1)
        w.op(OP["POP_EXCEPT"])
        w.bind(fail)

    def _read(self, source: Source) -> Ref:
        """The value of `source`, read once into a local (one text line) before first use,
        as guards.builder.guard_lines hoists it."""
        ref = self.local_of.get(source)
        if ref is not None:
            return ref
        kind = type(source)
        if kind is GlobalsDictSource:  # `G`: a root that is already a name
            ref = (True, self.roots["G"])
            self.local_of[source] = ref
            return ref
        base = source.base
        base_ref = self._read(base) if base is not None else None
        w = self.w
        self._next_line()
        if kind is GlobalSource:
            assert isinstance(source, GlobalSource)
            self._subscript((True, self.roots["G"]), source.global_name)
        elif kind is BuiltinSource:
            assert isinstance(source, BuiltinSource)
            self._subscript((True, self.roots["B"]), source.builtin_name)
        elif kind is ClosureSource:
            assert isinstance(source, ClosureSource)
            self._subscript((True, self.roots["C"]), source.index)
            w.load_attr("cell_contents")
        elif base_ref is None:
            raise Unsupported(f"root source {source.name}")
        elif kind is AttrSource:
            assert isinstance(source, AttrSource)
            self._load(base_ref)
            w.load_attr(source.member)
        elif kind is ItemSource or kind is ModeStackSource:
            assert isinstance(source, ItemSource | ModeStackSource)
            key = source.key if isinstance(source, ItemSource) else source.index
            self._subscript(base_ref, key)
        elif kind is TypeSource:
            self._call_const(type, [base_ref])
        elif kind is DefaultsSource:
            assert isinstance(source, DefaultsSource)
            self._load(base_ref)
            w.load_attr("__defaults__")
            w.load_const(source.index)
            w.op(OP["BINARY_SUBSCR"])
        else:
            raise Unsupported(f"source {type(source).__name__}")
        name = f"___v{self.hoisted}"
        self.hoisted += 1
        w.store_fast(name)
        ref = (False, name)
        self.local_of[source] = ref
        return ref

    def _load(self, ref: Ref) -> None:
        if ref[0]:
            self.w.load_const(ref[1])
        else:
            self.w.load_fast(ref[1])

    def _subscript(self, ref: Ref, key: object) -> None:
        self._load(ref)
        self.w.load_const(key)
        self.w.op(OP["BINARY_SUBSCR"])

    # ------------------------------------------------------------------ guards

    def _guard(self, guard: Guard) -> None:
        """One guard line: its reads first (hoist lines), then its tests, each false result a
        jump to `fail` (`if not (a and b): break` of the text, conjunct by conjunct)."""
        v = self._read(guard.source)
        kind, expected = guard.kind, guard.expected
        others: list[Ref] = []
        if kind is GuardKind.OBJECT_ALIASING:
            others = [self._read(expected)]
        elif kind is GuardKind.NO_ALIASING:
            others = [self._read(o) for o in expected]
        self._next_line()
        w = self.w
        if kind is GuardKind.CLOSURE_MATCH:
            kind = GuardKind.EQUALS_MATCH if is_constant(expected) else GuardKind.ID_MATCH
        if kind is GuardKind.TYPE_MATCH:
            self._type_is(v, (), expected)
        elif kind is GuardKind.ID_MATCH:
            self._is(v, (), expected)
        elif kind is GuardKind.EQUALS_MATCH:
            self._constant(v, (), expected)
        elif kind is GuardKind.LENGTH_CHECK:
            self._len_is(v, expected)
        elif kind is GuardKind.DICT_NOT_CONTAINS:
            w.load_const(expected)
            self._load(v)
            w.op(OP["CONTAINS_OP"], 1)
            self._exit(False)
        elif kind is GuardKind.HASATTR or kind is GuardKind.NO_HASATTR:
            self._call_const(has_instance_attr, [v, (True, expected)])
            self._exit(kind is GuardKind.NO_HASATTR)
        elif kind is GuardKind.DICT_KEYS_MATCH:
            self._dict_keys(v, expected)
        elif kind is GuardKind.TENSOR_MATCH:
            self._tensor(v, expected)
        elif kind is GuardKind.MODE_STACK:
            self._len_is(v, len(expected))
            for i, mode_type in enumerate(expected):
                self._type_is(v, (i,), mode_type)
        elif kind is GuardKind.OBJECT_ALIASING or kind is GuardKind.NO_ALIASING:
            for other in others:
                self._load(v)
                self._load(other)
                w.op(OP["IS_OP"], int(kind is GuardKind.NO_ALIASING))
                self._exit(False)
        else:
            raise Unsupported(f"guard {kind.name}")

    def _exit(self, value: bool) -> None:
        """Pop a test's result; leave for the entry's fail label when it is `value`."""
        self.exit_at = self.w.exit_if(value, self.exit_at, self.fail)

    def _load_path(self, v: Ref, path: tuple[int, ...]) -> None:
        """`v[i][j]...`: an item of a value already pinned to an exact tuple (or a list)."""
        self._load(v)
        for i in path:
            self.w.load_const(i)
            self.w.op(OP["BINARY_SUBSCR"])

    def _type_is(self, v: Ref, path: tuple[int, ...], kind: object) -> None:
        w = self.w
        w.op(OP["PUSH_NULL"])
        w.load_const(type)
        self._load_path(v, path)
        w.call(1)
        w.load_const(kind)
        w.op(OP["IS_OP"])
        self._exit(False)

    def _is(self, v: Ref, path: tuple[int, ...], obj: object) -> None:
        self._load_path(v, path)
        self.w.load_const(obj)
        self.w.op(OP["IS_OP"])
        self._exit(False)

    def _compare(self, v: Ref, path: tuple[int, ...], value: object) -> None:
        self._load_path(v, path)
        self.w.load_const(value)
        self.w.op(OP["COMPARE_OP"], _EQ)
        self._exit(False)

    def _len_is(self, v: Ref, length: int, path: tuple[int, ...] = ()) -> None:
        w = self.w
        w.op(OP["PUSH_NULL"])
        w.load_const(len)
        self._load_path(v, path)
        w.call(1)
        w.load_const(length)
        w.op(OP["COMPARE_OP"], _EQ)
        self._exit(False)

    def _constant(self, v: Ref, path: tuple[int, ...], value: Any) -> None:
        """guards.constants.constant_match_expr, test by test."""
        kind = type(value)
        w = self.w
        if value is None or kind is bool:
            self._is(v, path, value)
        elif kind is int or kind is str or kind is bytes:
            self._type_is(v, path, kind)
            self._compare(v, path, value)
        elif kind is float:
            self._type_is(v, path, float)
            if math.isnan(value):
                self._load_path(v, path)
                self._load_path(v, path)
                w.op(OP["COMPARE_OP"], _NE)
                self._exit(False)
            elif value == 0.0:
                self._compare(v, path, 0.0)
                w.op(OP["PUSH_NULL"])
                w.load_const(math.copysign)
                w.load_const(1.0)
                self._load_path(v, path)
                w.call(2)
                w.load_const(math.copysign(1.0, value))
                w.op(OP["COMPARE_OP"], _EQ)
                self._exit(False)
            else:
                self._compare(v, path, value)
        elif kind is tuple:
            self._type_is(v, path, tuple)
            self._len_is(v, len(value), path)
            for i, item in enumerate(value):
                self._constant(v, (*path, i), item)
        elif is_constant(value):
            w.op(OP["PUSH_NULL"])
            w.load_const(constants_equal)
            self._load_path(v, path)
            w.load_const(value)
            w.call(2)
            self._exit(False)
        else:
            raise Unsupported(f"constant of type {kind.__name__}")

    def _dict_keys(self, v: Ref, keys: tuple[object, ...]) -> None:
        if not keys:
            self._len_is(v, 0)
            return
        name = f"___keys{self.temps}"
        self.temps += 1
        self._call_const(list, [v])
        self.w.store_fast(name)
        listed: Ref = (False, name)
        self._len_is(listed, len(keys))
        for i, key in enumerate(keys):
            self._constant(listed, (i,), key)

    def _tensor(self, v: Ref, spec: TensorSpec) -> None:
        if spec.cls is None:
            raise Unsupported("TensorSpec without its class")
        w = self.w
        self._type_is(v, (), spec.cls)
        self._load(v)
        w.load_attr("_dtype")
        w.load_const(spec.dtype)
        w.op(OP["IS_OP"])
        self._exit(False)
        self._load(v)
        w.load_attr("_shape")
        w.load_const(spec.shape)
        w.op(OP["COMPARE_OP"], _EQ)
        self._exit(False)
        self._load(v)
        w.load_attr("requires_grad")
        w.load_const(spec.requires_grad)
        w.op(OP["IS_OP"])
        self._exit(False)


class LazyLines(tuple):  # type: ignore[type-arg]
    """A `linecache` entry whose lines are rendered on first read.

    linecache's own lazy entries (`(get_source,)`) are never loaded for `<...>` file names,
    which CPython's `updatecache` skips. This is a full entry instead, `(size, None, lines,
    name)` with mtime None (so `checkcache` keeps it, without reading it), whose `[2]`, the
    only item `getlines` reads, renders the text the first time."""

    _render: Callable[[], str]
    _lines: list[str] | None

    def __new__(cls, filename: str, render: Callable[[], str]) -> Self:
        entry = super().__new__(cls, (0, None, [], filename))
        entry._render = render
        entry._lines = None
        return entry

    def __getitem__(self, index: Any) -> Any:
        if index == 2:
            if self._lines is None:
                self._lines = self._render().splitlines(keepends=True)
            return self._lines
        return super().__getitem__(index)

    def __repr__(self) -> str:
        state = "rendered" if self._lines is not None else "not rendered yet"
        return f"<LazyLines {super().__getitem__(3)}: {state}>"
