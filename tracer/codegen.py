"""PyCodegen: bytecode for the compiled function, built from `Instr` objects (tracer.assembler).

The new code object keeps the original signature, closure and globals. It calls the compiled
graph with its inputs (loaded from their Sources), rebuilds the return value from graph outputs,
constants and Sources, replays side effects, and returns. Objects created inside the trace are
rebuilt once and kept in a temporary, so aliasing in the result is Python's.
"""

from __future__ import annotations

import dis
import inspect
import types
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from guards.sources import (
    AttrSource,
    BuiltinSource,
    ClosureSource,
    GlobalSource,
    ItemSource,
    LocalSource,
    ModeStackSource,
    Source,
    TypeSource,
)
from tracer.assembler import (
    _BY_IDENTITY,
    COUNTED,
    ENCODED,
    Assembly,
    FreeVar,
    Instr,
    const_key,
    encoded,
)
from tracer.exc import unimplemented
from tracer.runtime import _C
from variables.base import VariableTracker
from variables.lazy import LazyVariableTracker

if TYPE_CHECKING:
    from tracer.graph import Node


_instr = tuple.__new__
"""`_instr(Instr, (name, arg, lineno))` builds an Instr without the NamedTuple's Python-level
`__new__`: the verbs below run for every instruction of every compile."""
_OP: Final = dis.opmap
_LOAD_FAST: Final = ENCODED[_OP["LOAD_FAST"]]
_STORE_FAST: Final = ENCODED[_OP["STORE_FAST"]]
_LOAD_CONST: Final = ENCODED[_OP["LOAD_CONST"]]
_LOAD_ATTR: Final = ENCODED[_OP["LOAD_ATTR"]]
"""Rows by oparg below 256, lists: indexing one is quicker than a dict subclass with
`__missing__` (whose subscript the interpreter cannot specialize), so the verbs test the size."""
_PUSH_NULL: Final = ENCODED[_OP["PUSH_NULL"]][0]
_POP_TOP: Final = ENCODED[_OP["POP_TOP"]][0]
_BINARY_SUBSCR: Final = ENCODED[_OP["BINARY_SUBSCR"]][0]
_PUSH_NULL_INSTR: Final = Instr("PUSH_NULL")
_POP_TOP_INSTR: Final = Instr("POP_TOP")
_BINARY_SUBSCR_INSTR: Final = Instr("BINARY_SUBSCR")
"""Instructions without an argument: one shared (immutable) Instr each."""
_CALLS: Final = [
    ((precall, call), precall_code + call_code)
    for (precall, precall_code), (call, call_code) in zip(
        COUNTED["PRECALL"], COUNTED["CALL"], strict=True
    )
]
"""By argument count below 256: (the PRECALL and CALL Instrs, their bytes)."""
_OUTPUT_NAMES: Final = tuple(f"___out_{i}" for i in range(256))
"""The locals graph outputs are unpacked into, in order (more are named when needed)."""


class PyCodegen(Assembly):
    """Accumulates instructions, assembled as they come (tracer.assembler.Assembly). `cg(vt)`
    leaves `vt`'s value on the stack; the other verbs emit. The common verbs number their
    argument and append their bytes themselves (no call into the assembler)."""

    def __init__(
        self, graph_outputs: dict[Node, str] | None = None, argnames: tuple[str, ...] = ()
    ) -> None:
        super().__init__(argnames)
        self.graph_outputs = graph_outputs or {}
        self.tempvars: dict[int, str] = {}
        self._building: set[int] = set()
        self._temp_count = 0

    def __repr__(self) -> str:
        return f"<PyCodegen of {len(self.instructions)} instructions>"

    # -- values -------------------------------------------------------------------------------
    def __call__(self, vt: VariableTracker) -> None:
        if isinstance(vt, LazyVariableTracker):
            vt.reconstruct(self)
            return
        outputs: dict[Any, str] = self.graph_outputs  # asked by any tracker's node, or None
        name = outputs.get(getattr(vt, "node", None))
        if name is not None:  # a graph output: its local (load_fast, inline: the common value)
            self.instructions.append(_instr(Instr, ("LOAD_FAST", name, None)))
            varnames = self.varnames
            slot = varnames.setdefault(name, len(varnames))
            self.code += _LOAD_FAST[slot] if slot < 256 else encoded(_OP["LOAD_FAST"], slot)
            return
        vt.reconstruct(self)

    def rebuild_once(self, vt: VariableTracker, build: Callable[[], Any]) -> None:
        """Build a new mutable object the first time, then reuse it (identity is preserved)."""
        key = id(vt)
        if key in self.tempvars:
            self.load_fast(self.tempvars[key])
            return
        if key in self._building:
            unimplemented("reconstruct", f"{vt!r} contains itself")
        self._building.add(key)
        build()
        self._building.discard(key)
        name = self.new_temp()
        self.tempvars[key] = name
        self.counted("COPY", 1)
        self.store_fast(name)

    def new_object(self, vt: VariableTracker, cls: type, attrs: dict[str, VariableTracker]) -> None:
        """`object.__new__(cls)` plus its attributes, set without running user __setattr__.
        The temporary is registered before the attributes, so an object may refer to itself."""
        key = id(vt)
        if key in self.tempvars:
            self.load_fast(self.tempvars[key])
            return
        name = self.tempvars[key] = self.new_temp()
        self.push_null()
        self.load_const(object.__new__)
        self.load_const(cls)
        self.call(1)
        self.store_fast(name)
        for attr, value in attrs.items():
            self.push_null()
            self.load_const(object.__setattr__)
            self.load_fast(name)
            self.load_const(attr)
            self(value)
            self.call(3)
            self.pop_top()
        self.load_fast(name)

    def load_source(self, source: Source) -> None:
        if type(source) is LocalSource:  # the usual graph input: no loader call
            self.load_fast(source.local_name)
            return
        loader = _SOURCE_LOADERS.get(type(source))
        if loader is None:
            unimplemented("reconstruct", f"cannot load {source.name} in compiled code")
        loader(self, source)

    # -- verbs --------------------------------------------------------------------------------
    def emit(self, instr: Instr) -> None:
        self.add(instr)  # the verbs below append directly: codegen's hot path

    def new_temp(self) -> str:
        self._temp_count += 1
        return f"___tmp_{self._temp_count}"

    def store_temp(self) -> str:
        """Store the top of the stack into a new temporary; returns its name."""
        self._temp_count += 1  # new_temp, inline (side-effect replay keeps every value so)
        name = f"___tmp_{self._temp_count}"
        self.store_fast(name)
        return name

    def load_const(self, value: Any) -> None:
        self.instructions.append(_instr(Instr, ("LOAD_CONST", value, None)))
        consts = self.consts
        cls = type(value)
        key = (cls, id(value)) if cls in _BY_IDENTITY else const_key(value)
        slot = self.const_slots.setdefault(key, len(consts))
        if slot == len(consts):
            consts.append(value)
        self.code += _LOAD_CONST[slot] if slot < 256 else encoded(_OP["LOAD_CONST"], slot)

    def load_fast(self, name: str) -> None:
        self.instructions.append(_instr(Instr, ("LOAD_FAST", name, None)))
        varnames = self.varnames
        slot = varnames.setdefault(name, len(varnames))
        self.code += _LOAD_FAST[slot] if slot < 256 else encoded(_OP["LOAD_FAST"], slot)

    def store_fast(self, name: str) -> None:
        self.instructions.append(_instr(Instr, ("STORE_FAST", name, None)))
        varnames = self.varnames
        slot = varnames.setdefault(name, len(varnames))
        self.code += _STORE_FAST[slot] if slot < 256 else encoded(_OP["STORE_FAST"], slot)

    def store_fasts(self, names: Iterable[str]) -> None:
        """`store_fast` of each name in turn, in one call (the graph's outputs, unpacked)."""
        instructions, varnames, code = self.instructions, self.varnames, self.code
        for name in names:
            instructions.append(_instr(Instr, ("STORE_FAST", name, None)))
            slot = varnames.setdefault(name, len(varnames))
            # in place: `code` is self.code, a bytearray
            code += _STORE_FAST[slot] if slot < 256 else encoded(_OP["STORE_FAST"], slot)

    def load_global(self, name: str) -> None:
        self.add(_instr(Instr, ("LOAD_GLOBAL", (False, name), None)))

    def store_global(self, name: str) -> None:
        self.add(_instr(Instr, ("STORE_GLOBAL", name, None)))

    def delete_global(self, name: str) -> None:
        self.add(_instr(Instr, ("DELETE_GLOBAL", name, None)))

    def load_attr(self, name: str) -> None:
        self.instructions.append(_instr(Instr, ("LOAD_ATTR", name, None)))
        names = self.names
        slot = names.setdefault(name, len(names))
        self.code += _LOAD_ATTR[slot] if slot < 256 else encoded(_OP["LOAD_ATTR"], slot)

    def store_attr(self, name: str) -> None:
        self.add(_instr(Instr, ("STORE_ATTR", name, None)))

    def push_null(self) -> None:
        self.instructions.append(_PUSH_NULL_INSTR)
        self.code += _PUSH_NULL

    def pop_top(self) -> None:
        self.instructions.append(_POP_TOP_INSTR)
        self.code += _POP_TOP

    def call(self, argc: int) -> None:
        """Call with [NULL, callable, *args] on the stack (3.11 convention)."""
        if argc < 256:  # PRECALL and CALL from one row (two `counted` calls, written out)
            instrs, code = _CALLS[argc]
            self.instructions += instrs
            self.code += code
        else:
            self.counted("PRECALL", argc)
            self.counted("CALL", argc)

    def binary_subscr(self) -> None:
        self.instructions.append(_BINARY_SUBSCR_INSTR)
        self.code += _BINARY_SUBSCR

    def build_tuple(self, n: int) -> None:
        self.counted("BUILD_TUPLE", n)

    def build_list(self, n: int) -> None:
        self.counted("BUILD_LIST", n)

    def build_map(self, n: int) -> None:
        self.counted("BUILD_MAP", n)

    def counted(self, name: str, arg: int | None = None) -> None:
        """An instruction whose argument is a count (or that has none): nothing to number, and
        its Instr and bytes are shared constants (`COUNTED`)."""
        if arg is None or arg < 256:
            instr, code = COUNTED[name][arg or 0]
            self.instructions.append(instr)
            self.code += code
        else:
            self.add(Instr(name, arg))

    # -- side-effect replay (see NOTE [two-phase replay] in side_effects.py) --------------------
    def load_target(self, vt: VariableTracker | None) -> None:
        """The real object a mutation applies to."""
        assert vt is not None
        if vt.source is not None:
            self.load_source(vt.source)
        else:
            self(vt)

    def build_items_of(self, values: list[VariableTracker]) -> None:
        """A fresh list of the given trackers' values."""
        for value in values:
            self(value)
        self.build_list(len(values))

    def build_items(self, vt: Any) -> None:
        """A fresh list or dict holding the tracker's final contents."""
        items = vt.items
        if isinstance(items, dict):
            for key, value in items.items():
                self.load_const(key)
                self(value)
            self.build_map(len(items))
        else:
            for item in items:
                self(item)
            self.build_list(len(items))

    def assign_slice(self, target: str, value: str) -> None:
        """`target[:] = value`."""
        self.load_fast(value)
        self.load_fast(target)
        self.load_const(None)
        self.load_const(None)
        self.counted("BUILD_SLICE", 2)
        self.counted("STORE_SUBSCR")

    def call_method_on(self, target: str, name: str, arg: str | None = None, **const: Any) -> None:
        """`target.name(arg)` (or with one constant argument), result discarded."""
        self.load_fast(target)
        self.add(Instr("LOAD_METHOD", name))
        argc = 0
        if arg is not None:
            self.load_fast(arg)
            argc = 1
        elif "const" in const:
            self.load_const(const["const"])
            argc = 1
        self.call(argc)
        self.pop_top()

    def call_function_on(self, fn: Any, *args: tuple[str, Any]) -> None:
        """`fn(*args)`, result discarded; each arg is ("fast", temp name) or ("const", value)."""
        self.push_null()
        self.load_const(fn)
        for kind, value in args:
            if kind == "fast":
                self.load_fast(value)
            else:
                self.load_const(value)
        self.call(len(args))
        self.pop_top()

    def delete_attr(self, name: str) -> None:
        self.add(Instr("DELETE_ATTR", name))

    def store_cell(self, cell: Any) -> None:
        """Store TOS into a closure cell: the function's own free variable, or a cell reached
        through a source (`<fn>.__closure__[i]`)."""
        source = cell.source
        if isinstance(source, ClosureSource):
            self.add(Instr("STORE_DEREF", FreeVar(source.freevar_name)))
            return
        assert isinstance(source, AttrSource) and source.member == "cell_contents"
        self.load_source(source.base)
        self.store_attr("cell_contents")

    def set_mode_stack(self, modes: str) -> None:
        self.push_null()
        self.load_const(_C._set_torch_function_mode_stack)
        self.load_fast(modes)
        self.call(1)
        self.pop_top()


def _load_local(cg: PyCodegen, src: Any) -> None:
    cg.load_fast(src.local_name)


def _load_global(cg: PyCodegen, src: Any) -> None:
    cg.load_global(src.global_name)


def _load_builtin(cg: PyCodegen, src: Any) -> None:
    cg.load_global(src.builtin_name)


def _load_closure(cg: PyCodegen, src: Any) -> None:
    cg.emit(Instr("LOAD_DEREF", FreeVar(src.freevar_name)))


def _load_attr(cg: PyCodegen, src: Any) -> None:
    cg.load_source(src.base)
    cg.load_attr(src.member)


def _load_item(cg: PyCodegen, src: Any) -> None:
    cg.load_source(src.base)
    cg.load_const(src.key)
    cg.binary_subscr()


def _load_type(cg: PyCodegen, src: Any) -> None:
    cg.push_null()
    cg.load_const(type)
    cg.load_source(src.base)
    cg.call(1)


def _load_mode(cg: PyCodegen, src: Any) -> None:
    cg.push_null()
    cg.load_const(_C._get_function_stack_at)
    cg.load_const(src.index)
    cg.call(1)


_SOURCE_LOADERS: dict[type, Callable[[PyCodegen, Any], None]] = {
    LocalSource: _load_local,
    GlobalSource: _load_global,
    BuiltinSource: _load_builtin,
    ClosureSource: _load_closure,
    AttrSource: _load_attr,
    ItemSource: _load_item,
    TypeSource: _load_type,
    ModeStackSource: _load_mode,
}


def assemble(
    original: types.CodeType,
    graph_fn: Callable[..., Any] | None,
    graph_inputs: list[Source],
    graph_outputs: list[Node],
    return_value: VariableTracker | None,
    replay: Callable[[PyCodegen], None],
    raised: VariableTracker | None = None,
    raise_lineno: int | None = None,
) -> tuple[types.CodeType, list[Instr]]:
    """The compiled function's code: graph call, return value, side effects, return (or, when
    the traced code raised, side effects made before the raise and then the raise)."""
    names = _OUTPUT_NAMES
    if len(graph_outputs) > len(names):
        names = tuple(f"___out_{i}" for i in range(len(graph_outputs)))
    # A node returned twice is named by its last place. `names` may outnumber the outputs:
    # zip stops at the shorter (a `strict=False` keyword would cost more than the dict).
    outputs = dict(zip(graph_outputs, names))  # noqa: B905
    flags = original.co_flags
    n_args = original.co_argcount + original.co_kwonlyargcount
    n_args += bool(flags & inspect.CO_VARARGS) + bool(flags & inspect.CO_VARKEYWORDS)
    cg = PyCodegen(outputs, original.co_varnames[:n_args])
    if original.co_freevars:
        cg.counted("COPY_FREE_VARS", len(original.co_freevars))
    cg.counted("RESUME", 0)
    if graph_fn is not None and graph_outputs:
        cg.push_null()
        cg.load_const(graph_fn)
        for source in graph_inputs:
            cg.load_source(source)
        cg.call(len(graph_inputs))
        cg.counted("UNPACK_SEQUENCE", len(graph_outputs))
        cg.store_fasts(map(outputs.__getitem__, graph_outputs))
    if raised is not None:
        replay(cg)
        cg(raised)
        cg.emit(Instr("RAISE_VARARGS", 1, lineno=raise_lineno or None))
    else:
        assert return_value is not None
        cg(return_value)
        cg.store_fast("___return_value")
        replay(cg)
        cg.load_fast("___return_value")
        cg.counted("RETURN_VALUE")

    code = cg.code_object(
        original,
        flags=flags & ~(inspect.CO_GENERATOR | inspect.CO_COROUTINE),
        # Every instruction pushes at most one value net, so the count bounds the stack depth
        # (our code is straight-line).
        stacksize=len(cg.instructions) + 2,
    )
    return code, cg.instructions
