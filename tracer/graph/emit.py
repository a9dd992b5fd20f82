"""Graph -> code object directly, without rendering source and running `compile()` on it.

A graph's forward is straight-line code: calls, infix and prefix operators, subscripts, tuple,
list and dict displays, and one return. `compile()` spent ~10 µs per generated line on it, and
the source text ~3 µs more, on every compile. This module writes the CPython 3.11 bytecode for
the same program as it walks the graph: opcode and oparg bytes appended to one buffer, constants,
names and locals numbered through dicts, inline CACHE entries as zero bytes.

It does not decide anything itself: `_Codegen.plan` (tracer.graph.codegen) chooses how each node
is computed (impl call, infix operator, method call, ...) and binds the globals, for the text and
for this emitter alike, so both run the same operations in the same order under the same global
names. The text stays the readable form (`GraphModule.code`, tracebacks through `linecache`); it
is rendered only when read, and the line table written here points each node's instructions at
its line in that text. What the emitter does not handle (`**` keyword arguments whose names are
not identifiers) raises `NotEmittable`, and the caller falls back to `compile()`.
"""

from __future__ import annotations

import builtins
import dis
import keyword
import math
import sys
import types
from typing import Any, Final

from tracer.graph.codegen import (
    _LITERAL_TYPES,
    BINARY,
    CALL,
    GETATTR_CALL,
    GETITEM,
    METHOD,
    RETURN,
    UNARY,
    _Codegen,
    _constant_hint,
)
from tracer.graph.graph import Graph
from tracer.graph.node import Argument, Node
from tracer.graph.resolve import resolve_method

SUPPORTED: Final = sys.version_info[:2] == (3, 11)
"""The bytes written here are CPython 3.11's; on any other version every graph falls back."""
_OP: Final = dis.opmap
_CACHES: Final[list[bytes]] = [bytes(2 * n) for n in dis._inline_cache_entries]  # type: ignore[attr-defined]
_EXTENDED_ARG: Final = _OP["EXTENDED_ARG"]
_LOAD_FAST: Final = _OP["LOAD_FAST"]
_STORE_FAST: Final = _OP["STORE_FAST"]
_LOAD_CONST: Final = _OP["LOAD_CONST"]
_LOAD_GLOBAL: Final = _OP["LOAD_GLOBAL"]
_LOAD_METHOD: Final = _OP["LOAD_METHOD"]
_PUSH_NULL: Final = _OP["PUSH_NULL"]
_KW_NAMES: Final = _OP["KW_NAMES"]
_PRECALL: Final = _OP["PRECALL"]
_CALL: Final = _OP["CALL"]
_BINARY_SUBSCR: Final = _OP["BINARY_SUBSCR"]
_BUILD_SLICE: Final = _OP["BUILD_SLICE"]
_BUILD_TUPLE: Final = _OP["BUILD_TUPLE"]
_BUILD_LIST: Final = _OP["BUILD_LIST"]
_BUILD_MAP: Final = _OP["BUILD_MAP"]
_RETURN_VALUE: Final = _OP["RETURN_VALUE"]
_RESUME: Final = _OP["RESUME"]
_INFIX: Final[dict[str, tuple[int, int]]] = {
    **{symbol: (_OP["BINARY_OP"], i) for i, (_, symbol) in enumerate(dis._nb_ops)},  # type: ignore[attr-defined]
    **{symbol: (_OP["COMPARE_OP"], i) for i, symbol in enumerate(dis.cmp_op)},
    "is": (_OP["IS_OP"], 0),
    "is not": (_OP["IS_OP"], 1),
}
"""Infix symbol (as codegen writes it) -> (opcode, oparg); every one pops two and pushes one."""
_PREFIX: Final[dict[str, int]] = {
    "-": _OP["UNARY_NEGATIVE"],
    "+": _OP["UNARY_POSITIVE"],
    "~": _OP["UNARY_INVERT"],
    "not ": _OP["UNARY_NOT"],
}
_FUNCTION_FLAGS: Final = 0x1 | 0x2  # CO_OPTIMIZED | CO_NEWLOCALS, as compile() sets for a def
_LINE_ONLY: Final = 0x80 | (13 << 3)
"""First byte of a location-table entry of kind 13, "line number only" (Objects/locations.md)."""


class NotEmittable(Exception):
    """This graph needs a construct the emitter does not write; compile its text instead."""


def emit_forward(
    graph: Graph, fn_name: str, filename: str
) -> tuple[types.CodeType, dict[str, Any]]:
    """The code object of `def <fn_name>(<placeholders>): ...` and the globals it runs with:
    what `compile()` + `exec` of `python_code(graph, fn_name)` would give, line numbers included.
    """
    if not SUPPORTED:
        raise NotEmittable(f"bytecode emission is written for CPython 3.11, not {sys.version}")
    return _Emitter(graph, fn_name).code_object(filename)


class _Opargs(dict[int, bytes]):
    """One opcode's instruction bytes by oparg: `table[arg]` is the opcode, its argument and
    its zeroed CACHE entries. Arguments below 256 are filled in up front (a plain dict lookup);
    larger ones are built with their EXTENDED_ARG prefixes when asked for."""

    def __init__(self, *opcodes: int) -> None:
        self.opcodes = opcodes
        """One or more opcodes written one after the other with the same oparg."""
        super().__init__({arg: self.encode(arg) for arg in range(256)})

    def encode(self, arg: int) -> bytes:
        wide = [
            b
            for shift in (24, 16, 8)
            if arg >> shift
            for b in (_EXTENDED_ARG, (arg >> shift) & 0xFF)
        ]
        return b"".join(
            bytes((*wide, opcode, arg & 0xFF)) + _CACHES[opcode] for opcode in self.opcodes
        )

    def __missing__(self, arg: int) -> bytes:
        return self.encode(arg)

    def __repr__(self) -> str:
        return f"_Opargs({' + '.join(dis.opname[op] for op in self.opcodes)})"


_LOAD_FAST_BYTES: Final = _Opargs(_LOAD_FAST)
_STORE_FAST_BYTES: Final = _Opargs(_STORE_FAST)
_LOAD_CONST_BYTES: Final = _Opargs(_LOAD_CONST)
_LOAD_GLOBAL_BYTES: Final = _Opargs(_LOAD_GLOBAL)
_LOAD_METHOD_BYTES: Final = _Opargs(_LOAD_METHOD)
_KW_NAMES_BYTES: Final = _Opargs(_KW_NAMES)
_BUILD_BYTES: Final = {op: _Opargs(op) for op in (_BUILD_TUPLE, _BUILD_LIST, _BUILD_MAP)}
_CALL_BYTES: Final = _Opargs(_PRECALL, _CALL)
"""PRECALL + CALL by argument count, for [NULL or self, callable, *args] on the stack."""
_SLICE_BYTES: Final = {n: _Opargs(_BUILD_SLICE)[n] for n in (2, 3)}
_INFIX_BYTES: Final = {symbol: _Opargs(op)[arg] for symbol, (op, arg) in _INFIX.items()}
_PREFIX_BYTES: Final = {symbol: bytes((op, 0)) for symbol, op in _PREFIX.items()}
_SUBSCR_BYTES: Final = bytes((_BINARY_SUBSCR, 0)) + _CACHES[_BINARY_SUBSCR]
_PUSH_NULL_BYTES: Final = bytes((_PUSH_NULL, 0))
_RETURN_BYTES: Final = bytes((_RETURN_VALUE, 0))
_RESUME_BYTES: Final = bytes((_RESUME, 0))


class _Loads(dict[Node, bytes]):
    """The emitter's `loads`: the LOAD_FAST of each parameter and node stored so far. A literal
    looked up (a number among an op's arguments: `add(x, 1)`) gives its LOAD_CONST, as `value`
    writes it, without being kept; anything else missing raises KeyError, so the caller falls
    back to `value` argument by argument. Joining the loads of a call's arguments then needs no
    Python loop and no exception for the commonest constants.

    It holds the emitter's constant tables, not the emitter (a bound method would make emitter
    and loads a cycle holding the graph until a garbage collection: NOTE [acyclic graph])."""

    __slots__ = ("const_values", "consts")

    def __init__(self, consts: dict[Any, int], const_values: list[Any]) -> None:
        super().__init__()
        self.consts = consts
        self.const_values = const_values

    def __missing__(self, arg: Argument) -> bytes:
        kind = type(arg)
        if kind in _LITERAL_TYPES or (kind is float and math.isfinite(arg)) or arg is Ellipsis:
            # _const_index, inline: a literal argument comes here on every use
            key = (kind, repr(arg)) if kind is float else (kind, arg)
            consts = self.consts
            index = consts.get(key)
            if index is None:
                index = consts[key] = len(self.const_values)
                self.const_values.append(arg)
            return _LOAD_CONST_BYTES[index]
        raise KeyError(arg)

    def __repr__(self) -> str:
        return f"_Loads({len(self)} locals)"


def _const_index(consts: dict[Any, int], values: list[Any], value: Any) -> int:
    """The `co_consts` slot of `value`, a new one on first use."""
    kind = type(value)
    # Floats by repr, so 0.0 and -0.0 keep separate slots; types keep 1, 1.0, True apart.
    key = (kind, repr(value)) if kind is float else (kind, value)
    index = consts.get(key)
    if index is None:
        index = consts[key] = len(values)
        values.append(value)
    return index


class _Emitter(_Codegen):
    """`_Codegen` writing bytes instead of text: `value` mirrors `render`, `subscript` mirrors
    `index`, `statement_bytes` mirrors `statement`, `code_object` mirrors `generate`.

    Stack depth: every statement starts and ends on an empty stack, and `value` returns the
    highest the stack gets while it pushes its one value (relative to where it started), so
    a statement's peak is computed from its parts; the largest is co_stacksize.
    """

    fast_calls = True
    """Write op calls on stored nodes inline (NOTE [op calls inline]); tests turn it off to
    compare with the general path."""

    def __init__(self, graph: Graph, fn_name: str) -> None:
        super().__init__(graph, fn_name)
        self.buf = bytearray()
        self.consts: dict[Any, int] = {(type(None), None): 0}
        """Constant key -> index; None first, so the function's `__doc__` is None, as for a
        def without a docstring (a str at index 0 would become the docstring)."""
        self.const_values: list[Any] = [None]
        self.co_names: dict[str, int] = {}
        self.varnames: dict[str, int] = {}
        self.loads = _Loads(self.consts, self.const_values)
        """The LOAD_FAST of each parameter and of each node stored so far (and the LOAD_CONST
        of a literal asked for)."""

    def __repr__(self) -> str:
        return f"_Emitter({self.fn_name}, {len(self.buf)} bytes, {len(self.globals)} globals)"

    # -- numbering ------------------------------------------------------------------------------
    def const_index(self, value: Any) -> int:
        return _const_index(self.consts, self.const_values, value)

    def global_bytes(self, name: str, push_null: bool) -> bytes:
        co_names = self.co_names
        return _LOAD_GLOBAL_BYTES[co_names.setdefault(name, len(co_names)) << 1 | push_null]

    def local(self, name: str) -> int:
        index = self.varnames.get(name)
        if index is None:
            index = self.varnames[name] = len(self.varnames)
        return index

    # -- mirrors of the text renderer -------------------------------------------------------------
    def code_object(self, filename: str) -> tuple[types.CodeType, dict[str, Any]]:
        """`generate`: parameters, one statement per node (its own line), the line table.

        Each line's bytes are one chunk (RESUME the def line's): the code is their join and
        the line table their sizes."""
        placeholders = [node for node in self.nodes if node.op == "placeholder"]
        loads, varnames = self.loads, self.varnames
        for node in placeholders:  # `local` of each, inline
            loads[node] = _LOAD_FAST_BYTES[varnames.setdefault(node.name, len(varnames))]
        chunks = [_RESUME_BYTES]
        if self.fast_calls:
            stacksize = self.fast_statements(chunks)
        else:
            stacksize = self.general_statements(chunks)
        code = types.CodeType(
            len(placeholders),
            0,
            0,
            len(self.varnames),
            stacksize,
            _FUNCTION_FLAGS,
            b"".join(chunks),
            tuple(self.const_values),
            tuple(self.co_names),
            tuple(self.varnames),
            filename,
            self.fn_name,
            self.fn_name,
            1,
            _line_table(chunks),
            b"",  # no exception table: nothing is caught
            (),
            (),
        )
        return code, {**self.globals, "__builtins__": builtins.__dict__}

    def general_statements(self, chunks: list[bytes]) -> int:
        """Each statement's bytes appended to `chunks`, all through `statement_bytes` (which
        writes into `self.buf`); returns the deepest the stack gets."""
        buf, stacksize = self.buf, 1
        for node in self.nodes:
            if node.op != "placeholder" and node.op != "get_attr":  # parameters, globals
                stacksize = max(stacksize, self.statement_bytes(node))
                chunks.append(bytes(buf))
                buf.clear()
        return stacksize

    def fast_statements(self, chunks: list[bytes]) -> int:
        """`general_statements` with op calls inline.

        NOTE [op calls inline]: the commonest statement, an op's impl (a torch function, or a
        Tensor method `plan` resolves) called on stored nodes and literals, is
        `statement_bytes`'s CALL plan written out here: the same bytes, the same names bound in
        the same order (the impl's first, as in `plan`). So is the usual return, a tuple of
        stored nodes (its RETURN plan, which binds nothing). The emitter tests compare the two.
        `_args`/`_kwargs`: the node's slots."""
        buf, loads, varnames, find = self.buf, self.loads, self.varnames, self.loads.__getitem__
        widest = -1  # most arguments of a call written inline
        stacksize = 1
        heads: dict[int, bytes] = {}
        """id of a call_function's target, or of a method's OpInfo -> the bytes that load its
        impl (`head_bytes`, which binds it), b"" for a target that is not an op."""
        for node in self.nodes:
            op = node.op
            if op == "call_function":
                head = heads.get(id(node.target))
                if head is None:
                    info = getattr(node.target, "__modetrace_op__", None)
                    head = heads[id(node.target)] = self.head_bytes(info)
            elif op == "call_method":
                info = resolve_method(node._args[0], str(node.target))
                head = b"" if info is None else heads.get(id(info))
                if head is None:
                    head = heads[id(info)] = self.head_bytes(info)
            elif op == "output":
                returned = node._args[0]
                if type(returned) is tuple:  # `return (a, b)` of stored nodes: inline too
                    try:
                        pushed = b"".join(map(find, returned))
                    except (KeyError, TypeError):
                        pass
                    else:
                        count = len(returned)
                        chunks.append(pushed + _BUILD_BYTES[_BUILD_TUPLE][count] + _RETURN_BYTES)
                        if count > stacksize:  # noqa: PLR1730 - a compare, not a max() call
                            stacksize = count
                        continue
                head = b""
            else:
                continue  # parameters / inlined globals
            if head and not node._kwargs:
                args = node._args
                try:  # stored nodes and literals (`_Loads`), the usual arguments
                    pushed = b"".join(map(find, args))
                except (KeyError, TypeError):  # a get_attr, a container, a bound object...
                    pass
                else:
                    index = varnames.setdefault(node.name, len(varnames))
                    count = len(args)
                    chunks.append(head + pushed + _CALL_BYTES[count] + _STORE_FAST_BYTES[index])
                    loads[node] = _LOAD_FAST_BYTES[index]
                    if count > widest:  # noqa: PLR1730 - a compare, not a max() call
                        widest = count
                    continue
            stacksize = max(stacksize, self.statement_bytes(node))
            chunks.append(bytes(buf))
            buf.clear()
        return max(stacksize, 2 + widest)

    def head_bytes(self, info: Any) -> bytes:
        """PUSH_NULL + LOAD_GLOBAL of an op's impl (bound now, if it was not), b"" for None."""
        if info is None:
            return b""
        co_names = self.co_names
        return _LOAD_GLOBAL_BYTES[co_names.setdefault(self.bind_impl(info), len(co_names)) << 1 | 1]

    def statement_bytes(self, node: Node) -> int:
        """`statement`: the node's plan, then the store into its local (or the return).
        Returns the deepest the stack gets."""
        plan = self.plan(node)
        kind = plan[0]
        buf = self.buf
        if kind == CALL:
            co_names = self.co_names
            buf += _LOAD_GLOBAL_BYTES[co_names.setdefault(plan[1], len(co_names)) << 1 | 1]
            args = plan[2]
            if plan[3]:
                peak = 2 + self.arguments_bytes(args, plan[3])
            else:  # the usual case, inline
                peak = 2 + self.values(args)
                buf += _CALL_BYTES[len(args)]
        elif kind == BINARY:
            peak = max(self.value(plan[2]), 1 + self.value(plan[3]))
            buf += _INFIX_BYTES[plan[1]]
        elif kind == RETURN:
            peak = self.value(plan[1])
            buf += _RETURN_BYTES
            return peak
        elif kind == METHOD:
            peak = self.value(plan[1])
            buf += _LOAD_METHOD_BYTES[self.name_index(plan[2])]
            peak = max(peak, 2 + self.arguments_bytes(plan[3], plan[4]))
        elif kind == UNARY:
            peak = self.value(plan[2])
            buf += _PREFIX_BYTES[plan[1]]
        elif kind == GETITEM:
            peak = max(self.value(plan[1]), 1 + self.subscript(plan[2]))
            buf += _SUBSCR_BYTES
        elif kind == GETATTR_CALL:  # `getattr_(receiver, name)(*args)`: NULL first, as compile()
            buf += _PUSH_NULL_BYTES
            buf += self.global_bytes(plan[1], True)
            peak = 3 + self.value(plan[2])
            buf += _LOAD_CONST_BYTES[self.const_index(plan[3])]
            buf += _CALL_BYTES[2]
            peak = max(peak, 5, 2 + self.arguments_bytes(plan[4], plan[5]))
        else:
            raise NotEmittable(f"unknown plan kind {kind!r}")
        varnames = self.varnames
        index = varnames.setdefault(node.name, len(varnames))
        buf += _STORE_FAST_BYTES[index]
        self.loads[node] = _LOAD_FAST_BYTES[index]
        return peak

    def name_index(self, name: str) -> int:
        index = self.co_names.get(name)
        if index is None:
            index = self.co_names[name] = len(self.co_names)
        return index

    def arguments_bytes(self, args: tuple[Argument, ...], kwargs: dict[str, Argument]) -> int:
        """`arguments` and the call: positional values, keyword values with KW_NAMES.
        Returns the peak while the arguments are pushed (at least their count)."""
        if not kwargs:
            peak = self.values(args)
            self.buf += _CALL_BYTES[len(args)]
            return peak
        if not all(k.isidentifier() and not keyword.iskeyword(k) for k in kwargs):
            raise NotEmittable("a keyword argument name that is not an identifier")
        peak = self.values((*args, *kwargs.values()))
        self.buf += _KW_NAMES_BYTES[self.const_index(tuple(kwargs))]
        self.buf += _CALL_BYTES[len(args) + len(kwargs)]
        return peak

    def values(self, args: tuple[Argument, ...] | list[Argument]) -> int:
        """Push each of `args` (`value` on each, nodes inline); returns the peak height."""
        loads = self.loads
        try:  # stored nodes and literals (the usual case): their loads, joined
            self.buf += b"".join(map(loads.__getitem__, args))
            return len(args)
        except (KeyError, TypeError):  # a constant (unhashable ones raise TypeError)
            pass
        peak = len(args)
        buf = self.buf
        for position, arg in enumerate(args):
            if type(arg) is Node and arg in loads:
                buf += loads[arg]
            else:
                reached = position + self.value(arg)
                peak = max(peak, reached)
        return peak

    def subscript(self, arg: Argument) -> int:
        """`index`: slices as BUILD_SLICE, tuples of them built element by element."""
        if isinstance(arg, slice):
            return self.slice_bytes(arg)
        if type(arg) is tuple and arg:
            peak = len(arg)
            for position, item in enumerate(arg):
                if isinstance(item, slice):
                    reached = position + self.slice_bytes(item)
                else:
                    reached = position + self.value(item)
                peak = max(peak, reached)
            self.buf += _BUILD_BYTES[_BUILD_TUPLE][len(arg)]
            return peak
        return self.value(arg)

    def slice_bytes(self, arg: slice) -> int:
        bounds = (arg.start, arg.stop) if arg.step is None else (arg.start, arg.stop, arg.step)
        peak = self.values(bounds)
        self.buf += _SLICE_BYTES[len(bounds)]
        return peak

    def value(self, arg: Argument) -> int:
        """`render`: push `arg`'s value, branch for branch in the same order; returns the peak
        height reached (relative to the start)."""
        buf = self.buf
        if isinstance(arg, Node):
            if arg.op == "get_attr":
                target = str(arg.target)
                buf += self.global_bytes(self.bind(self.graph.constants[target], target), False)
            else:
                load = self.loads.get(arg)
                buf += _LOAD_FAST_BYTES[self.local(arg.name)] if load is None else load
            return 1
        kind = type(arg)
        if kind in _LITERAL_TYPES or (kind is float and math.isfinite(arg)) or arg is Ellipsis:
            buf += _LOAD_CONST_BYTES[self.const_index(arg)]
            return 1
        if kind is tuple or kind is list:
            peak = self.values(arg)
            buf += _BUILD_BYTES[_BUILD_TUPLE if kind is tuple else _BUILD_LIST][len(arg)]
            return max(peak, 1)
        if kind is dict:
            peak = self.values([part for pair in arg.items() for part in pair])
            buf += _BUILD_BYTES[_BUILD_MAP][len(arg)]
            return max(peak, 1)
        if isinstance(arg, slice):
            buf += self.global_bytes(self.bind(slice, "slice"), True)
            peak = 2 + self.values((arg.start, arg.stop, arg.step))
            buf += _CALL_BYTES[3]
            return peak
        if isinstance(arg, tuple):  # namedtuples take fields, other subclasses one iterable
            buf += self.global_bytes(self.bind(kind, kind.__name__), True)
            if hasattr(arg, "_fields"):
                peak = 2 + self.values(arg)
                buf += _CALL_BYTES[len(arg)]
            else:
                peak = 2 + self.value(tuple(arg))
                buf += _CALL_BYTES[1]
            return peak
        buf += self.global_bytes(self.bind(arg, _constant_hint(arg)), False)
        return 1


class _LineEntries(dict[int, bytes]):
    """`co_linetable` entries for one statement line by its size in bytes: entries of at most
    8 code units, the first stepping the line number by one, the others by zero. Sizes up to
    1 KiB are filled in up front; larger statements are encoded when asked for."""

    def __init__(self) -> None:
        super().__init__({size: self.encode(size) for size in range(2, 1024, 2)})

    @staticmethod
    def encode(size: int) -> bytes:
        units, entries, step = size >> 1, bytearray(), 2  # 2: the signed varint of +1
        while units > 0:
            chunk = min(units, 8)
            entries += bytes((_LINE_ONLY | (chunk - 1), step))
            step, units = 0, units - chunk
        return bytes(entries)

    def __missing__(self, size: int) -> bytes:
        return self.encode(size)

    def __repr__(self) -> str:
        return f"_LineEntries({len(self)} sizes)"


_NEXT_LINE: Final = _LineEntries()
_DEF_LINE: Final = bytes((_LINE_ONLY, 0))
"""The entry for RESUME: one code unit on the def line itself (a step of zero)."""


def _line_table(chunks: list[bytes]) -> bytes:
    """`co_linetable` for the def line (RESUME, `chunks[0]`) then one line per statement, in
    order; `chunks[i]` holds the bytes of line `i`."""
    return _DEF_LINE + b"".join(map(_NEXT_LINE.__getitem__, map(len, chunks[1:])))
