"""The dispatcher written straight to bytecode, for the linear shape (no dispatch key).

`tracer.dispatch` describes the dispatcher as Python text; compiling that text was a third of
a small function's first call. This module writes the same function instruction by
instruction (tracer.bytecode_writer) from the entries' planned guards, with the same checks in
the same order, and a line table that points at the matching lines of the text, which is
rendered only when someone reads it (a traceback, a debugger, a test). See NOTE [emitted
dispatcher] in notes/guards.md.

Shape (one block per entry, newest first; `fail` of an entry is the start of the next one):

    [___ms = ___mode_stack()]
    if fn.__code__ is not C or fn.__defaults__ is not D or fn.__kwdefaults__ is not KD:
        return refresh(args, kwargs)
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
import operator
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from guards.builder import has_instance_attr
from guards.constants import constants_equal, is_constant
from guards.guard import FunctionSpec, Guard, GuardKind, TensorSpec
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
from tracer.bytecode_writer import (
    CALLS,
    EQUAL,
    IS,
    IS_NOT,
    LOAD_CONST,
    LOAD_FAST,
    NOT_EQUAL,
    NOT_IN,
    NULL,
    OP,
    RETURN,
    STORE_FAST,
    SUBSCR,
    BytecodeWriter,
    Label,
    TooComplex,
    call_bytes,
    encode,
)

if TYPE_CHECKING:
    from tracer.cache import CacheEntry
    from tracer.dispatch import Signature

_CO_OPTIMIZED_NEWLOCALS = 0x1 | 0x2
_CO_VARARGS_VARKEYWORDS = 0x4 | 0x8


def _stack_bound(params: int) -> int:
    """An upper bound of the value stack: a guard test holds at most 5 values (NULL,
    `copysign`, 1.0, then `v[i]` being indexed), an exception handler 4 (COPY 3 on the
    previous and current exception and the raising offset); the calls of miss, refresh and
    the entries hold NULL, the callable, the locals dict or args tuple built so far, and up to
    two values per parameter (a name and a value) while building one of them."""
    return 8 + 2 * params


class Unsupported(Exception):
    """This dispatcher needs something the emitter does not write; compile the text."""


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
        if any(map(_IS_TEMPORARY, sig.names)):
            raise Unsupported("a parameter named like the emitter's temporaries")
        self.fn = fn
        self.sig = sig
        self.entries = entries
        self.miss = miss
        self.refresh = refresh
        self.roots = roots
        self.needs_mode_stack = needs_mode_stack
        self.unset = unset
        self.w = w = BytecodeWriter(list(sig.names))
        self._code = w.code  # the writer's own buffer and line list (appended in place)
        self._lines = w.lines
        self.lineno = 1
        self.hoisted = 0
        self.temps = 0
        self.local_of: dict[Source, bytes] = {}
        """The code that pushes each source's value read so far in this entry (a LOAD_FAST of
        its hoisted local, or a LOAD_CONST of a root object)."""
        self.arg_loads: dict[str, bytes] = (
            dict(zip(sig.names, LOAD_FAST[: len(sig.names)], strict=True))  # the first locals
            if len(sig.names) <= 0x100
            else {n: w.fast(n) for n in sig.names}
        )
        """LOAD_FAST of each argument, by name (`_read` finds `L['x']` without a source hash);
        the arguments are the first locals, in order."""
        self.root_loads: dict[Source, bytes] = {}
        if needs_mode_stack:
            self.root_loads[_MODE_STACK_LIST] = w.fast("___ms")
        self._tensor_parts: dict[tuple[int, int, int], tuple[bytes, bytes, bytes, bytes]] = {}
        """(ids of a TENSOR_MATCH's class, dtype and flag) -> its tests' bytes but the shape's
        (`_tensor`)."""
        self._args = self._kwargs = b""
        """`_args_tuple()` and `_kwargs_dict()`, made once (`_defaults_check`)."""
        self.fail = _NO_LABEL  # each entry's own from `_entry` on
        self.exit_at = _NO_EXIT
        """Where the current entry's guards leave for `fail` (tracer.bytecode_writer); far
        below 0 while there is none, so that no backward distance to it is ever in reach."""

    def __repr__(self) -> str:
        return f"<DispatchEmitter {self.fn.__qualname__}: {len(self.entries)} entries>"

    def function(self, filename: str) -> Callable[..., Any]:
        try:
            emitted = self._code_object(filename)
        except TooComplex as error:
            raise Unsupported(str(error)) from None
        code = self.fn.__code__
        dispatch = types.FunctionType(emitted, _GLOBALS)
        dispatch.__qualname__ = code.co_qualname  # fn's own TypeError messages on bad calls
        if self.fn.__defaults__:
            dispatch.__defaults__ = (self.unset,) * len(self.fn.__defaults__)
        if self.fn.__kwdefaults__:
            dispatch.__kwdefaults__ = dict.fromkeys(self.fn.__kwdefaults__, self.unset)
        return dispatch

    def _code_object(self, filename: str) -> types.CodeType:
        w = self.w
        self._lines += (0, 1)
        self._code += _RESUME
        if self.needs_mode_stack:
            self._next_line()
            w.code += b"".join(
                (NULL, w.const(self.roots["___mode_stack"]), CALLS[0], w.store("___ms"))
            )
        self._defaults_check()
        self._fill_defaults()
        cleanup = Label()
        for index in range(len(self.entries)):
            self._entry(index, cleanup)
        self._next_line()
        self._miss_call()
        if self.entries:
            w.bind(cleanup)  # the handler's stack (prev exc, exc) plus the raising offset
            w.code += _CLEANUP
        code = self.fn.__code__
        return w.code_object(
            argcount=code.co_argcount,
            posonlyargcount=code.co_posonlyargcount,
            kwonlyargcount=code.co_kwonlyargcount,
            flags=_CO_OPTIMIZED_NEWLOCALS | (code.co_flags & _CO_VARARGS_VARKEYWORDS),
            stacksize=_stack_bound(len(self.sig.names)),
            filename=filename,
            name=code.co_name,
            qualname=code.co_qualname,
        )

    def _next_line(self) -> None:
        self.lineno += 1
        self._lines.append(len(self._code))
        self._lines.append(self.lineno)

    # ------------------------------------------------------------------ the frame around

    def _defaults_check(self) -> None:
        """NOTE [live defaults] (tracer.dispatch): reassigned code or defaults start the call
        over.

        The block's shape is fixed, so its jumps are written with their distances (from the
        parts' lengths) rather than through labels; the constants and names are taken in the
        order they appear, as the tables need."""
        w, fn, code = self.w, self.fn, self._code
        fn_load = w.const(fn)
        code_attr, code_load = w.attr("__code__"), w.const(fn.__code__)
        defaults_attr, defaults_load = w.attr("__defaults__"), w.const(fn.__defaults__)
        kw_attr, kw_load = w.attr("__kwdefaults__"), w.const(fn.__kwdefaults__)
        refresh_load = w.const(self.refresh)  # before the keyword names' constants
        self._args = args = self._args_tuple()
        self._kwargs = kwargs = self._kwargs_dict()
        # `fn.<attr>; <value>; IS_OP 1; POP_JUMP_FORWARD_IF_TRUE refresh` twice, then the
        # same with POP_JUMP_FORWARD_IF_FALSE after; distances in code units, from the parts'
        # lengths: the block is one join, no test's bytes made apart (cheaper on this path).
        to_refresh = (len(fn_load) + len(kw_attr) + len(kw_load) + _IS_NOT_JUMP) >> 1
        over_defaults = (
            (len(fn_load) + len(defaults_attr) + len(defaults_load) + _IS_NOT_JUMP) >> 1
        ) + to_refresh
        over_refresh = (len(refresh_load) + len(args) + len(kwargs) + _REFRESH_FIXED) >> 1
        if over_defaults > 0xFF or over_refresh > 0xFF:
            raise TooComplex(f"short jump of {max(over_defaults, over_refresh)} units")
        self.lineno = lineno = self.lineno + 2
        lines = self._lines
        lines.append(len(code))
        lines.append(lineno - 1)
        code += b"".join(
            (
                fn_load, code_attr, code_load, IS_NOT, _FORWARD_IF_TRUE[over_defaults],
                fn_load, defaults_attr, defaults_load, IS_NOT, _FORWARD_IF_TRUE[to_refresh],
                fn_load, kw_attr, kw_load, IS_NOT, _FORWARD_IF_FALSE[over_refresh],
            )
        )  # fmt: skip
        lines.append(len(code))
        lines.append(lineno)
        code += b"".join((NULL, refresh_load, args, kwargs, _CALL_2_RETURN))

    def _fill_defaults(self) -> None:
        """`if x is UNSET: x = <default>` for each parameter with a default."""
        if not self.fn.__defaults__ and not self.fn.__kwdefaults__:
            return
        w = self.w
        defaults = self.fn.__defaults__ or ()
        with_default = self.sig.positional[len(self.sig.positional) - len(defaults) :]
        kwdefaults = self.fn.__kwdefaults__ or {}
        pairs = [*zip(with_default, defaults, strict=True), *kwdefaults.items()]
        for name, value in pairs:
            self._next_line()
            test = self.arg_loads[name] + w.const(self.unset) + IS
            fill = w.const(value) + w.store(name)
            self._code += test + _short_jump(_IF_FALSE, len(fill) >> 1) + fill

    # The calls below load arguments with `map` over `arg_loads.__getitem__`: no Python frame
    # per argument.

    def _args_tuple(self) -> bytes:
        """`(x, y, *args)`: the positional arguments as the caller's tuple."""
        sig, arg_loads = self.sig, self.arg_loads
        loads = b"".join(map(arg_loads.__getitem__, sig.positional))
        if sig.star is None:
            return loads + encode(_BUILD_TUPLE, len(sig.positional))
        return (
            loads
            + encode(OP["BUILD_LIST"], len(sig.positional))
            + arg_loads[sig.star]
            + encode(OP["LIST_EXTEND"], 1)
            + encode(OP["LIST_TO_TUPLE"])
        )

    def _kwargs_dict(self, merge: bool = False) -> bytes:
        """`{'k': k, **kw}`: the keyword-only arguments and the `**` dict."""
        w, sig = self.w, self.sig
        if not sig.kwonly and sig.starstar is None:
            return _EMPTY_MAP
        pairs = b"".join([w.const(name) + self.arg_loads[name] for name in sig.kwonly])
        built = pairs + encode(OP["BUILD_MAP"], len(sig.kwonly))
        if sig.starstar is None:
            return built
        update = encode(OP["DICT_MERGE" if merge else "DICT_UPDATE"], 1)
        return built + self.arg_loads[sig.starstar] + update

    def _miss_call(self) -> None:
        w, names = self.w, self.sig.names
        frame = b"".join(map(self.arg_loads.__getitem__, names))
        if names:
            frame += w.const(tuple(names)) + encode(OP["BUILD_CONST_KEY_MAP"], len(names))
        else:
            frame += _EMPTY_MAP
        w.code += b"".join(
            (NULL, w.const(self.miss), frame, self._args, self._kwargs, _CALL_3_RETURN)
        )

    def _run_call(self, run: Callable[..., Any]) -> None:
        """`run_i(x, y, *args, k=k, **kw)`: fn's arguments re-passed so it binds them alike."""
        w, sig = self.w, self.sig
        head = NULL + w.const(run)
        if sig.star is None and sig.starstar is None:
            loads = b"".join(map(self.arg_loads.__getitem__, [*sig.positional, *sig.kwonly]))
            argc = len(sig.positional) + len(sig.kwonly)
            if sig.kwonly:
                loads += encode(OP["KW_NAMES"], w.const_index(tuple(sig.kwonly)))
            w.code += b"".join((head, loads, call_bytes(argc), RETURN))
        elif sig.kwonly or sig.starstar is not None:
            call = encode(OP["CALL_FUNCTION_EX"], 1)
            w.code += head + self._args_tuple() + self._kwargs_dict(merge=True) + call + RETURN
        else:
            w.code += head + self._args_tuple() + encode(OP["CALL_FUNCTION_EX"]) + RETURN

    # ------------------------------------------------------------------ one entry

    def _entry(self, index: int, cleanup: Label) -> None:
        """`while True: try: <guards> except Exception: break; return run(...)` of the text:
        lines `while`, `try`, the guard lines, `except`, `break`, `return`."""
        w, code, lines = self.w, self._code, self._lines
        entry = self.entries[index]
        self.lineno += 2  # `while True:` and `try:` hold no instruction
        start = len(code)
        self.local_of = dict(self.root_loads)
        self.hoisted = 0
        self.fail = fail = Label()
        self.exit_at = _NO_EXIT
        self._guards(entry.guard_manager.guards)
        end = len(code)
        except_line = self.lineno + 1
        self.lineno += 3
        lines.append(end)
        lines.append(self.lineno)
        self._run_call(entry.run)
        if end == start:
            w.bind(fail)
            return  # nothing can raise: no handler (the text could not even say `try:`)
        # The handler, as CPython compiles `except Exception: break` (its one jump, over the
        # RERAISE, written with its distance).
        handler = len(code)  # the exception is on the stack
        w.handler(start >> 1, end >> 1, handler >> 1, 0, False)
        lines.append(handler)
        lines.append(except_line)
        code += _PUSH_EXC_INFO
        code += w.const(Exception)
        code += _MATCH_OR_RERAISE
        handler_end = len(code)
        w.handler(handler >> 1, handler_end >> 1, cleanup, 1, True)
        lines.append(handler_end)
        lines.append(except_line + 1)
        code += _POP_EXCEPT
        w.bind(fail)

    def _read(self, source: Source) -> bytes:
        """The code that pushes the value of `source`: an argument by its name (a str hashes
        in C, a source not), a source read before in this entry by its local, else `_hoist`."""
        if type(source) is LocalSource:
            load = self.arg_loads.get(source.local_name)
        else:
            load = self.local_of.get(source)
        return self._hoist(source) if load is None else load

    def _hoist(self, source: Source) -> bytes:
        """Read `source` (not read before in this entry) into a new local, one text line after
        its base's lines, as guards.builder.guard_lines hoists it; returns the local's load.

        Written out for speed (every new read comes here): AttrSource, the commonest read, with
        a base read before and a name seen before found without a call; `w.hoist` inline."""
        kind = type(source)
        w = self.w
        if kind is AttrSource:  # `base.member`
            attr: AttrSource = source  # type: ignore[assignment]
            base = self.local_of.get(attr.base) or self._read(attr.base)  # no load is b""
            read = base + (w.attr_loads.get(attr.member) or w.attr(attr.member))
        elif kind is GlobalsDictSource:  # `G`: a root that is already a name
            load = self.local_of[source] = w.const(self.roots["G"])
            return load
        else:
            reader = _READERS.get(kind)
            if reader is None:
                raise Unsupported(f"source {kind.__name__}")
            parent = source.base
            read = reader(self, source, b"" if parent is None else self._read(parent))
        # The base's reads (and lines) come first: this read's line starts here.
        code = self._code
        self.lineno = lineno = self.lineno + 1
        lines = self._lines
        lines.append(len(code))
        lines.append(lineno)
        hoisted = self.hoisted
        self.hoisted = hoisted + 1
        name = _HOISTED[hoisted] if hoisted < 64 else f"___v{hoisted}"
        slots = w.local_slots
        slot = slots.get(name)
        if slot is None:
            slot = slots[name] = len(slots)
        if slot < 0x100:
            store, load = STORE_FAST[slot], LOAD_FAST[slot]
        else:
            store, load = w.hoist(name)
        code += read
        code += store
        self.local_of[source] = load
        return load

    # One reader per source type: the code that pushes the value, given the code that pushes
    # its base's value (roots get b""). Roots that need a base, and the reverse, never meet
    # here: a source's type fixes whether it has a base.

    def _read_global(self, source: GlobalSource, base: bytes) -> bytes:
        w = self.w
        return w.const(self.roots["G"]) + w.const(source.global_name) + SUBSCR

    def _read_builtin(self, source: BuiltinSource, base: bytes) -> bytes:
        w = self.w
        return w.const(self.roots["B"]) + w.const(source.builtin_name) + SUBSCR

    def _read_closure(self, source: ClosureSource, base: bytes) -> bytes:
        """`C[i].cell_contents` with the cell itself as the constant: a function's closure
        tuple cannot be replaced, so `C[i]` is always this very cell (one subscript less on
        every call)."""
        w = self.w
        cell = w.const(self.roots["C"][source.index])
        return cell + (w.attr_loads.get("cell_contents") or w.attr("cell_contents"))

    def _read_item(self, source: ItemSource, base: bytes) -> bytes:
        return base + self.w.const(source.key) + SUBSCR

    def _read_mode(self, source: ModeStackSource, base: bytes) -> bytes:
        return base + self.w.const(source.index) + SUBSCR

    def _read_type(self, source: TypeSource, base: bytes) -> bytes:
        return NULL + self.w.const(type) + base + CALLS[1]

    def _read_defaults(self, source: DefaultsSource, base: bytes) -> bytes:
        w = self.w
        return base + w.attr("__defaults__") + w.const(source.index) + SUBSCR

    # ------------------------------------------------------------------ guards

    def _guards(self, guards: Sequence[Guard]) -> None:
        """One line per guard: its reads first (hoist lines), then its tests, each false result
        a jump to the entry's fail label (`if not (a and b): break` of the text, test by test).

        Written out for speed (every guard comes here): a source read before is found without
        a call (`_read`'s first half), and ID_MATCH, the commonest guard, is `_id_is` with
        `w.const` inline. The line number lives in a local, handed over to `self.lineno`
        around the calls that write lines of their own (`_hoist`, `_aliasing`)."""
        code, lines, w = self._code, self._lines, self.w
        local_of, arg_loads = self.local_of, self.arg_loads
        consts, const_loads = w.consts, w.const_loads
        lineno = self.lineno
        for guard in guards:
            source = guard.source
            v = local_of.get(source)
            if v is None:
                if type(source) is LocalSource and source.local_name in arg_loads:
                    v = local_of[source] = arg_loads[source.local_name]  # found by name, once
                else:
                    self.lineno = lineno
                    v = self._hoist(source)
                    lineno = self.lineno
            kind = guard.kind._value_
            if kind == _ID_MATCH:
                lineno += 1
                lines.append(len(code))
                lines.append(lineno)
                expected = guard.expected  # `w.const(expected)`, inline: mostly a new constant
                key = id(expected)
                load = const_loads.get(key)
                if load is None:
                    slot = len(consts)
                    load = LOAD_CONST[slot] if slot < 0x100 else encode(_LOAD_CONST_OP, slot)
                    const_loads[key] = load
                    consts.append(expected)
                code += v
                code += load
                code += IS
                back = (len(code) >> 1) + 1 - self.exit_at
                if back <= 0xFF:
                    code += _EXIT_BACK[back]
                else:
                    self.exit_at = w.exit_if(False, self.exit_at, self.fail)
            elif kind < _FIRST_ALIASING:
                lineno += 1
                lines.append(len(code))
                lines.append(lineno)
                _GUARD_WRITERS[kind](self, v, guard.expected)
            else:  # the aliasing kinds read other sources first
                self.lineno = lineno
                self._aliasing(v, kind == _OBJECT_ALIASING._value_, guard.expected)
                lineno = self.lineno
        self.lineno = lineno

    def _aliasing(self, v: bytes, same: bool, expected: Any) -> None:
        others = [self._read(expected)] if same else [self._read(o) for o in expected]
        self._next_line()
        test = IS if same else IS_NOT
        for other in others:
            self._test(v + other + test)

    def _id_is(self, value: bytes, expected: Any) -> None:
        """`value is expected` (`_test` inline: the commonest guard)."""
        code = self._code
        code += value + self.w.const(expected) + IS
        back = (len(code) >> 1) + 1 - self.exit_at
        if back <= 0xFF:
            code += _EXIT_BACK[back]
        else:
            self.exit_at = self.w.exit_if(False, self.exit_at, self.fail)

    def _function_is(self, value: bytes, spec: FunctionSpec) -> None:
        """`value is fn and value.__code__ is code`."""
        w = self.w
        self._tests(
            value + w.const(spec.fn) + IS, value + w.attr("__code__") + w.const(spec.code) + IS
        )

    def _closure(self, value: bytes, expected: Any) -> None:
        if is_constant(expected):
            self._constant(value, expected)
        else:
            self._id_is(value, expected)

    def _not_contains(self, value: bytes, expected: Any) -> None:
        self._test(self.w.const(expected) + value + NOT_IN)

    def _hasattr(self, value: bytes, expected: Any) -> None:
        self._has_attr(value, expected, False)

    def _no_hasattr(self, value: bytes, expected: Any) -> None:
        self._has_attr(value, expected, True)

    def _has_attr(self, value: bytes, name: Any, absent: bool) -> None:
        w = self.w
        w.code += NULL + w.const(has_instance_attr) + value + w.const(name) + CALLS[2]
        self.exit_at = w.exit_if(absent, self.exit_at, self.fail)

    def _mode_stack(self, stack: bytes, expected: Any) -> None:
        w = self.w
        self._len_is(stack, len(expected))
        for i, mode_type in enumerate(expected):
            self._type_is(stack + w.const(i) + SUBSCR, mode_type)

    def _test(self, test: bytes) -> None:
        """Append `test` (leaving a truth value); leave for the fail label when it is false
        (`BytecodeWriter.exit_if`, its common case inlined: every guard test comes here)."""
        code = self._code
        code += test
        back = (len(code) >> 1) + 1 - self.exit_at
        if back <= 0xFF:  # never while there is no exit (`_NO_EXIT`)
            code += _EXIT_BACK[back]
        else:
            self.exit_at = self.w.exit_if(False, self.exit_at, self.fail)

    def _tests(self, *tests: bytes) -> None:
        """`_test` of each of `tests` in turn, in one call (a guard of several tests)."""
        code = self._code
        past_exit = 1 - self.exit_at  # the distance back to the exit is (units so far) + this
        for test in tests:
            code += test
            back = (len(code) >> 1) + past_exit
            if back <= 0xFF:
                code += _EXIT_BACK[back]
            else:
                self.exit_at = self.w.exit_if(False, self.exit_at, self.fail)
                past_exit = 1 - self.exit_at

    def _type_is(self, value: bytes, kind: object) -> None:
        """`type(value) is kind`; `value` is the code that pushes the value."""
        w = self.w
        self._test(b"".join((NULL, w.const(type), value, CALLS[1], w.const(kind), IS)))

    def _len_is(self, value: bytes, length: int) -> None:
        w = self.w
        self._test(b"".join((NULL, w.const(len), value, CALLS[1], w.const(length), EQUAL)))

    def _constant(self, value: bytes, expected: Any) -> None:
        """guards.constants.constant_match_expr, test by test; `value` is the code that pushes
        the value (a local, or an item of one, re-read for each test as the text does)."""
        kind = type(expected)
        w = self.w
        if expected is None or kind is bool:
            self._test(value + w.const(expected) + IS)
        elif kind is int or kind is str or kind is bytes:
            self._type_is(value, kind)
            self._test(value + w.const(expected) + EQUAL)
        elif kind is float:
            self._type_is(value, float)
            if math.isnan(expected):
                self._test(value + value + NOT_EQUAL)
            elif expected == 0.0:
                self._test(value + w.const(0.0) + EQUAL)
                sign = math.copysign(1.0, expected)
                head = NULL + w.const(math.copysign) + w.const(1.0)
                self._test(head + value + CALLS[2] + w.const(sign) + EQUAL)
            else:
                self._test(value + w.const(expected) + EQUAL)
        elif kind is tuple:
            self._type_is(value, tuple)
            self._len_is(value, len(expected))
            for i, item in enumerate(expected):
                self._constant(value + w.const(i) + SUBSCR, item)
        elif is_constant(expected):
            head = NULL + w.const(constants_equal)
            self._test(head + value + w.const(expected) + CALLS[2])
        else:
            raise Unsupported(f"constant of type {kind.__name__}")

    def _dict_keys(self, value: bytes, keys: tuple[object, ...]) -> None:
        if not keys:
            self._len_is(value, 0)
            return
        w = self.w
        name = f"___keys{self.temps}"
        self.temps += 1
        store, listed = w.hoist(name)
        w.code += NULL + w.const(list) + value + CALLS[1] + store
        self._len_is(listed, len(keys))
        for i, key in enumerate(keys):
            self._constant(listed + w.const(i) + SUBSCR, key)

    def _tensor(self, value: bytes, spec: TensorSpec) -> None:
        """`type(v) is cls`, then `v._dtype is dtype`, `v._shape == shape`, `v.requires_grad
        is rg`. Every constant and name but the shape is a repeat after the first guard with
        the same class, dtype and flag: their bytes are held per emitter, by the objects' ids
        (kept alive by the writer), and only the shape goes through `w.const` again."""
        if spec.cls is None:
            raise Unsupported("TensorSpec without its class")
        w = self.w
        key = (id(spec.cls), id(spec.dtype), id(spec.requires_grad))
        parts = self._tensor_parts.get(key)
        if parts is None:  # in the text's order: the tables take first uses in that order
            head = NULL + w.const(type)
            is_cls = CALLS[1] + w.const(spec.cls) + IS
            is_dtype = w.attr("_dtype") + w.const(spec.dtype) + IS
            shape = w.attr("_shape")
            shape += w.const(spec.shape)
            is_grad = w.attr("requires_grad") + w.const(spec.requires_grad) + IS
            self._tensor_parts[key] = head, is_cls, is_dtype, is_grad
        else:
            head, is_cls, is_dtype, is_grad = parts
            shape = w.attr_loads["_shape"] + w.const(spec.shape)
        self._tests(head + value + is_cls, value + is_dtype, value + shape + EQUAL, value + is_grad)


_READERS: dict[type, Callable[[DispatchEmitter, Any, bytes], bytes]] = {
    GlobalSource: DispatchEmitter._read_global,
    BuiltinSource: DispatchEmitter._read_builtin,
    ClosureSource: DispatchEmitter._read_closure,
    ItemSource: DispatchEmitter._read_item,
    ModeStackSource: DispatchEmitter._read_mode,
    TypeSource: DispatchEmitter._read_type,
    DefaultsSource: DispatchEmitter._read_defaults,
}
"""Source type -> the reader that writes its load: with AttrSource (`_read` writes its
load itself) and GlobalsDictSource (a constant), the sources this module knows."""
_MODE_STACK_LIST = ModeStackListSource()
"""The mode stack list's source (no fields: one instance serves every dispatcher)."""
_OBJECT_ALIASING = GuardKind.OBJECT_ALIASING
_ID_MATCH = GuardKind.ID_MATCH._value_
_FIRST_ALIASING = min(GuardKind.OBJECT_ALIASING._value_, GuardKind.NO_ALIASING._value_)
"""The aliasing kinds come last (they read other sources first, `_aliasing`)."""
assert {k for k in GuardKind if k._value_ >= _FIRST_ALIASING} == {
    GuardKind.OBJECT_ALIASING,
    GuardKind.NO_ALIASING,
}


def _writers() -> list[Callable[[DispatchEmitter, bytes, Any], None]]:
    by_kind: dict[GuardKind, Callable[[DispatchEmitter, bytes, Any], None]] = {
        GuardKind.TYPE_MATCH: DispatchEmitter._type_is,
        GuardKind.ID_MATCH: DispatchEmitter._id_is,
        GuardKind.FUNCTION_MATCH: DispatchEmitter._function_is,
        GuardKind.EQUALS_MATCH: DispatchEmitter._constant,
        GuardKind.CLOSURE_MATCH: DispatchEmitter._closure,
        GuardKind.LENGTH_CHECK: DispatchEmitter._len_is,
        GuardKind.DICT_NOT_CONTAINS: DispatchEmitter._not_contains,
        GuardKind.HASATTR: DispatchEmitter._hasattr,
        GuardKind.NO_HASATTR: DispatchEmitter._no_hasattr,
        GuardKind.DICT_KEYS_MATCH: DispatchEmitter._dict_keys,
        GuardKind.TENSOR_MATCH: DispatchEmitter._tensor,
        GuardKind.MODE_STACK: DispatchEmitter._mode_stack,
    }
    return [by_kind.get(kind, _unsupported_kind(kind)) for kind in GuardKind]


def _unsupported_kind(kind: GuardKind) -> Callable[[DispatchEmitter, bytes, Any], None]:
    def write(emitter: DispatchEmitter, value: bytes, expected: Any) -> None:
        raise Unsupported(f"guard {kind.name}")

    return write


_GUARD_WRITERS = _writers()
"""Writer of each guard kind, indexed by the kind's value (a list index, no enum hashing);
the aliasing kinds read other sources first and have their own path."""
assert [kind.value for kind in GuardKind] == list(range(len(GuardKind)))


_NO_EXIT = -0x10000
_NO_LABEL = Label()
"""`fail` before the first entry (never bound: no jump is written outside an entry)."""
"""`exit_at` of an entry with no exit yet: every distance to it is out of reach."""


_HOISTED = [f"___v{i}" for i in range(64)]
"""Names of an entry's first hoisted locals."""

_GLOBALS: dict[str, Any] = {"__builtins__": builtins.__dict__}
"""The emitted dispatchers' globals: they read none (everything is a constant)."""
_EXIT_BACK = [encode(OP["POP_JUMP_BACKWARD_IF_FALSE"], distance) for distance in range(256)]
_IF_TRUE = OP["POP_JUMP_FORWARD_IF_TRUE"]
_IF_FALSE = OP["POP_JUMP_FORWARD_IF_FALSE"]
_FORWARD_IF_TRUE = [encode(_IF_TRUE, distance) for distance in range(256)]
_FORWARD_IF_FALSE = [encode(_IF_FALSE, distance) for distance in range(256)]
_CALL_2_RETURN = CALLS[2] + RETURN
_CALL_3_RETURN = CALLS[3] + RETURN
_IS_NOT_JUMP = len(IS_NOT) + len(_FORWARD_IF_TRUE[0])
"""Bytes of a defaults test's `IS_OP 1` and conditional jump (neither has CACHE entries)."""
_REFRESH_FIXED = len(NULL) + len(_CALL_2_RETURN)
"""Bytes of the refresh call but its loads."""


def _short_jump(opcode: int, distance: int) -> bytes:
    """A forward jump (no CACHE entries) over `distance` code units; past 255 the dispatcher
    is compiled from its text instead (as `BytecodeWriter.jump` would say at the end)."""
    if distance > 0xFF:
        raise TooComplex(f"short jump of {distance} units")
    return bytes((opcode, distance))


_RESUME = encode(OP["RESUME"])
_BUILD_TUPLE = OP["BUILD_TUPLE"]
_LOAD_CONST_OP = OP["LOAD_CONST"]
_EMPTY_MAP = encode(OP["BUILD_MAP"], 0)
_IS_TEMPORARY = operator.methodcaller("startswith", "___")
"""A parameter named like the emitter's temporaries (`___v0`, `___ms`, ...)."""
_PUSH_EXC_INFO = encode(OP["PUSH_EXC_INFO"])
_MATCH_OR_RERAISE = (
    encode(OP["CHECK_EXC_MATCH"])
    + encode(_IF_TRUE, 1)  # over the RERAISE
    + encode(OP["RERAISE"], 0)
    + encode(OP["POP_TOP"])
)
_POP_EXCEPT = encode(OP["POP_EXCEPT"])
_CLEANUP = encode(OP["COPY"], 3) + _POP_EXCEPT + encode(OP["RERAISE"], 1)
"""Where an exception raised inside a handler goes: restore the previous one and re-raise."""
