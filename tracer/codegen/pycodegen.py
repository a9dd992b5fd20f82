"""PyCodegen: bytecode for the compiled function, as `bytecode.Instr`s (the `bytecode` package).

The new code object keeps the original signature, closure and globals. It calls the compiled
graph with its inputs (loaded from their Sources), rebuilds the return value from graph outputs,
constants and Sources, replays side effects, and returns. Objects created inside the trace are
rebuilt once and kept in a temporary, so aliasing in the result is Python's.

Each verb appends one or a few `Instr`s naming their argument by value (the constant, the local's
or attribute's name, a `FreeVar`); the `bytecode` package numbers constants, names and locals
and writes EXTENDED_ARG, CACHE entries and the line table (`code_object`). Constants
that marshal cannot write (functions, classes, modules) share a slot only with the very same
object, so generated code loads them by identity.
"""

from __future__ import annotations

import inspect
import itertools
import re
import sys
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bytecode import Bytecode, CompilerFlags, Instr
from bytecode.instr import FreeVar, const_key

from guards.sources import (
    AttrSource,
    BuiltinSource,
    ClosureSource,
    DictGetSource,
    DictValueSource,
    GlobalSource,
    ItemSource,
    IterationSource,
    LocalSource,
    ModeStackSource,
    ModuleSource,
    Source,
    TupleItemSource,
    TypeSource,
)
from tracer import worlds
from tracer.bytecode_versions import (
    NULL_AFTER_CALLABLE,
    call_instrs,
    kw_call_instrs,
    load_attr_instr,
    load_cell_instr,
)
from tracer.exc import unimplemented
from variables.base import VariableTracker
from variables.constant import CONSTANT_TYPES, ConstantVariable
from variables.lazy import LazyVariableTracker
from variables.new_classes import TEMPLATES, made_in_frame

if TYPE_CHECKING:
    from tracer.graph import Node


class PyCodegen:
    """Accumulates the instructions of one code object. `cg(vt)` leaves `vt`'s value on the
    stack; the other verbs emit what their name says."""

    def __init__(self, graph_outputs: dict[Node, str] | None = None) -> None:
        self.instructions: list[Instr] = []
        self.graph_outputs = graph_outputs or {}
        self.tempvars: dict[int, str] = {}
        self._building: set[int] = set()
        self._temp_count = 0
        self._constants: dict[Any, Any] = {}
        """The first object loaded for each constant slot (see `load_const`)."""
        self._kept_reads: dict[Source, str | None] = {}
        """Sources `load_sources` reads once: the local each is kept in, once read."""
        self._read_count = 0
        self.unshared_cells: dict[int, str] = {}
        """At a break, the frame's own cells (tracker id -> name) that its resume function,
        which makes its own cells from their values, may write: a function made again here
        can't close over them (`cells_written_after` in tracer/cache/resume.py)."""
        self.made_by_resume: dict[int, str] = {}
        """At a break, the functions defined in the frame (tracker id -> qualified name) that
        the resume function makes again itself (`FunctionAgain`): the compiled code must not
        make a second one."""
        self.resume_inputs = False
        """True while the code pushes what a resume function gets or can read (its arguments,
        the state the side effects leave): a function defined in the frame can't be among
        them (NestedUserFunctionVariable.reconstruct)."""

    def __repr__(self) -> str:
        return f"<PyCodegen of {len(self.instructions)} instructions>"

    # -- values -------------------------------------------------------------------------------
    def __call__(self, vt: VariableTracker) -> None:
        if isinstance(vt, LazyVariableTracker):
            vt.reconstruct(self)
            return
        outputs: dict[Any, str] = self.graph_outputs  # asked by any tracker's node, or None
        name = outputs.get(getattr(vt, "node", None))
        if name is not None:  # a graph output: the local it was unpacked into
            self.load_fast(name)
            return
        vt.reconstruct(self)

    def rebuild_once(self, vt: VariableTracker, build: Callable[[], Any]) -> None:
        """Build a new object the first time, then reuse it: every place that holds the tracker
        gets the same object, as in eager code (a list, and a tuple or frozenset too)."""
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
        self.emit(Instr("COPY", 1))
        self.store_fast(name)

    def new_object(self, vt: VariableTracker, cls: type, attrs: dict[str, VariableTracker]) -> None:
        """`object.__new__(cls)` plus its attributes, set without running user __setattr__.
        The temporary is registered before the attributes, so an object may refer to itself."""
        key = id(vt)
        if key in self.tempvars:
            self.load_fast(self.tempvars[key])
            return
        name = self.tempvars[key] = self.new_temp()
        self.load_function(object.__new__)
        self.load_const(cls)
        self.call(1)
        self.store_fast(name)
        for attr, value in attrs.items():
            self.load_function(object.__setattr__)
            self.load_fast(name)
            self.load_const(attr)
            self(value)
            self.call(3)
            self.pop_top()
        self.load_fast(name)

    def load_source(self, source: Source) -> None:
        kept = self._kept_reads
        if kept and source in kept:
            name = kept[source]
            if name is not None:  # read before: the same object
                self.load_fast(name)
                return
            self._load_fresh(source)
            self.emit(Instr("COPY", 1))
            self._read_count += 1
            name = kept[source] = f"___read_{self._read_count}"
            self.store_fast(name)
            return
        self._load_fresh(source)

    def _load_fresh(self, source: Source) -> None:
        loader = _SOURCE_LOADERS.get(type(source))
        if loader is None:
            unimplemented("reconstruct", f"cannot load {source.name} in compiled code")
        loader(self, source)

    def load_sources(self, sources: Sequence[Source]) -> None:
        """Push each source's value, in order (a graph's inputs). An attribute or item read
        that the chains of two or more of them pass through and go on from differently
        (`L['self']._modules['norm1']._parameters`, then `['weight']` and `['bias']`) is read
        once, when the first needs it, and kept in a local (`___read_1`, ...) for the others.
        That reads the same objects: such a read runs no user code (the tracer resolved it as a
        plain instance, class, module or container read, under guards pinning the types it
        relied on), nothing runs between the loads, and the guard check that passed just before
        read each shared prefix once too. The locals are deleted once the last source is
        pushed, so the frame holds no reference eager code would not (a module deleted later
        dies when eager code's would)."""
        chained = (AttrSource, ItemSource)  # a local, global or cell is read as itself each time
        reads: dict[Source, set[Source]] = {}  # a chain's read -> the reads that go on from it
        for source in sources:
            if isinstance(source, chained):
                reads.setdefault(source, set()).add(source)  # read for itself
                while isinstance(source.base, chained):
                    reads.setdefault(source.base, set()).add(source)
                    source = source.base
        self._kept_reads = {read: None for read, next_reads in reads.items() if len(next_reads) > 1}
        first = self._read_count
        for source in sources:
            self.load_source(source)
        for i in range(first + 1, self._read_count + 1):  # every kept read, in load order
            self.emit(Instr("DELETE_FAST", f"___read_{i}"))
        self._kept_reads = {}

    # -- verbs --------------------------------------------------------------------------------
    def emit(self, instr: Instr) -> None:
        self.instructions.append(instr)

    def new_temp(self) -> str:
        self._temp_count += 1
        return f"___tmp_{self._temp_count}"

    def store_temp(self) -> str:
        """Store the top of the stack into a new temporary; returns its name."""
        name = self.new_temp()
        self.store_fast(name)
        return name

    def release_locals(
        self,
        template: types.CodeType,
        keep: Sequence[str] = (),
        only: Sequence[str] | None = None,
    ) -> None:
        """Delete the locals of this code (`del x`): `template`'s parameters and what this
        code made (temporaries, graph outputs), all bound by then, except those in `keep`
        (or only those in `only`, which may be none). Emitted around a resume function's
        call: from then on only the resume function holds what it was handed, as the original
        frame would (an object it drops dies, and a weak reference to it sees that). (Not
        before the eager call: `exec(src)` or `locals()` there reads the frame's locals.)
        """
        made = [f"___tmp_{i}" for i in range(1, self._temp_count + 1)]
        parameters = template.co_varnames[: parameter_count(template)]
        for name in [*parameters, *made, *self.graph_outputs.values()]:
            if name not in keep and (only is None or name in only):
                self.emit(Instr("DELETE_FAST", name))

    def load_const(self, value: Any) -> None:
        """Push `value` itself. Two equal strings, numbers or tuples can be two objects (`a[:3]
        + a[3:]` is not `a`), but a constant slot may not keep the object: the package gives
        equal constants one slot (it compares their marshal bytes), and CPython's code objects
        swap a name-like string among their constants for the interned equal one. Such a
        value is loaded out of a namespace holding it instead, so `is` stays as in eager code."""
        if TEMPLATES and (type(value) is type or type(value) is types.FunctionType):
            made = made_in_frame(value)
            if made is not None:  # a class defined in the frame: the one this call built
                made.load_member(self, value)
                return
        first = self._constants.setdefault(const_key(value), value)
        if first is not value or _interned_by_code(value):
            self.emit(Instr("LOAD_CONST", types.SimpleNamespace(value=value)))
            self.load_attr("value")
            return
        self.emit(Instr("LOAD_CONST", value))

    def load_key(self, key: Any) -> None:
        """Push a subscript key of an ItemSource: an int, str, bool, None, finite float or
        tuple of them, indexing a container of an exact built-in type (list, tuple, dict and
        its stdlib subclasses, a mappingproxy). Their lookup compares keys by hash and value,
        never by identity, so a constant slot holding an equal object will do: `_modules['0']`
        with the key `str(0)` made, which is not the interned '0', is a plain LOAD_CONST.
        (The key is registered as the slot's first object, as `load_const` does, so a later
        `load_const` of an equal object that must keep its identity still sees the slot.)"""
        self._constants.setdefault(const_key(key), key)
        self.emit(Instr("LOAD_CONST", key))

    def load_fast(self, name: str) -> None:
        self.emit(Instr("LOAD_FAST", name))

    def load_closure(self, name: str) -> None:
        """The cell of this code's free variable `name` (not its contents)."""
        self.emit(load_cell_instr(FreeVar(name)))

    def store_fast(self, name: str) -> None:
        self.emit(Instr("STORE_FAST", name))

    def load_global(self, name: str) -> None:
        self.emit(Instr("LOAD_GLOBAL", (False, name)))  # (push NULL first?, name)

    def store_global(self, name: str) -> None:
        self.emit(Instr("STORE_GLOBAL", name))

    def delete_global(self, name: str) -> None:
        self.emit(Instr("DELETE_GLOBAL", name))

    def load_attr(self, name: str) -> None:
        self.emit(load_attr_instr(name))

    def load_method(self, name: str) -> None:
        """TOS.name, ready for `call(argc)` (the object becomes the call's first argument)."""
        self.emit(load_attr_instr(name, method=True))

    def store_attr(self, name: str) -> None:
        self.emit(Instr("STORE_ATTR", name))

    def delete_attr(self, name: str) -> None:
        self.emit(Instr("DELETE_ATTR", name))

    def push_null(self) -> None:
        self.emit(Instr("PUSH_NULL"))

    def load_function(self, fn: Any) -> None:
        """Push the callable `fn` (a constant) ready for `call(argc)`: with the NULL a plain
        call needs beside it, in this version's order (bytecode_versions.NULL_AFTER_CALLABLE)."""
        self.null_before_callable()
        self.load_const(fn)
        self.null_after_callable()

    def null_before_callable(self) -> None:
        """Before code that pushes a callable: its NULL slot, where it goes first (3.11, 3.12)."""
        if not NULL_AFTER_CALLABLE:
            self.push_null()

    def null_after_callable(self) -> None:
        """After code that pushed a callable: its NULL slot, where it goes second (3.13)."""
        if NULL_AFTER_CALLABLE:
            self.push_null()

    def pop_top(self) -> None:
        self.emit(Instr("POP_TOP"))

    def call(self, argc: int, **where: Any) -> None:
        """Call with the callable and its NULL (`load_function`), or a method and its object
        (`load_method`), and `argc` arguments on the stack."""
        self.instructions += call_instrs(argc, **where)

    def call_kw(self, kw_names: tuple[str, ...], argc: int, **where: Any) -> None:
        """`call(argc)` whose last len(kw_names) arguments are keywords by these names."""
        self.instructions += kw_call_instrs(kw_names, argc, **where)

    def binary_subscr(self) -> None:
        self.emit(Instr("BINARY_SUBSCR"))

    def build_tuple(self, n: int) -> None:
        self.emit(Instr("BUILD_TUPLE", n))

    def build_list(self, n: int) -> None:
        self.emit(Instr("BUILD_LIST", n))

    def build_map(self, n: int) -> None:
        self.emit(Instr("BUILD_MAP", n))

    # -- side-effect replay (see NOTE [two-phase replay] in side_effects.py) --------------------
    def load_target(self, vt: VariableTracker | None) -> None:
        """The real object a mutation applies to."""
        assert vt is not None
        if vt.source is not None:
            self.load_source(vt.source)
        else:
            self(vt)

    def build_items_of(self, values: list[VariableTracker]) -> None:
        """A fresh list of the given trackers' values. Three or more plain constants come from
        one tuple constant, as CPython compiles a list display of constants (`[1, 2, 3]`), so
        a long list of constants is a few instructions, not one per item."""
        if len(values) >= 3 and all(
            type(v) is ConstantVariable and type(v.value) in CONSTANT_TYPES for v in values
        ):
            self.build_list(0)
            self.load_const(tuple(v.as_python_constant() for v in values))
            self.emit(Instr("LIST_EXTEND", 1))
            return
        for value in values:
            self(value)
        self.build_list(len(values))

    def build_items(self, vt: Any) -> None:
        """A fresh list or dict holding the tracker's final contents."""
        items = vt.items
        if isinstance(items, dict):
            for key, value in items.items():
                self(vt.key_vt(key))  # a constant, or the tracker of an object key
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
        self.emit(Instr("BUILD_SLICE", 2))
        self.emit(Instr("STORE_SUBSCR"))

    def call_method_on(self, target: str, name: str, arg: str | None = None, **const: Any) -> None:
        """`target.name(arg)` (or with one constant argument), result discarded."""
        self.load_fast(target)
        self.load_method(name)
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
        self.load_function(fn)
        for kind, value in args:
            if kind == "fast":
                self.load_fast(value)
            else:
                self.load_const(value)
        self.call(len(args))
        self.pop_top()

    def store_cell(self, cell: Any) -> None:
        """Store TOS into a closure cell: the function's own free variable, or a cell reached
        through a source (`<fn>.__closure__[i]`)."""
        source = cell.source
        if isinstance(source, ClosureSource):
            self.emit(Instr("STORE_DEREF", FreeVar(source.freevar_name)))
            return
        assert isinstance(source, AttrSource) and source.member == "cell_contents"
        self.load_source(source.base)
        self.store_attr("cell_contents")

    def set_mode_stack(self, modes: str) -> None:
        self.load_function(worlds.current().set_mode_stack)
        self.load_fast(modes)
        self.call(1)
        self.pop_top()

    # -- the code object ----------------------------------------------------------------------
    def code_object(
        self, template: types.CodeType, *, flags: int, try_depths_given: bool = False
    ) -> types.CodeType:
        """The instructions as a code object with `template`'s signature, names, first line and
        free variables. Parameters are the first locals; the package numbers the rest, the
        constants and the names in order of first use. `try_depths_given`: every TryBegin
        carries the stack depth its handler starts from (a `with` block's, not the depth where
        the try region begins), so the package must not compute it."""
        bc = Bytecode(self.instructions)
        bc.argcount = template.co_argcount
        bc.posonlyargcount = template.co_posonlyargcount
        bc.kwonlyargcount = template.co_kwonlyargcount
        bc.argnames = list(template.co_varnames[: parameter_count(template)])
        bc.name = template.co_name
        bc.qualname = template.co_qualname
        bc.filename = template.co_filename
        bc.first_lineno = template.co_firstlineno
        bc.freevars = list(template.co_freevars)
        bc.flags = CompilerFlags(flags)
        depth = self.straight_line_depth()
        if depth is None:  # jumps or an exception table: the package walks the flow graph
            return bc.to_code(compute_exception_stack_depths=not try_depths_given)
        return bc.to_code(stacksize=depth, compute_exception_stack_depths=False)

    def straight_line_depth(self) -> int | None:
        """The deepest the value stack gets in code without jumps: the largest running sum of
        the instructions' stack effects. None for code with a jump, a label or a try region,
        which needs the package's walk of its control-flow graph instead (`code_object`;
        what each costs: benchmarks/README.md)."""
        effects = []
        for instr in self.instructions:
            if not isinstance(instr, Instr) or instr.has_jump():
                return None
            effects.append(instr.stack_effect())
        return max(itertools.accumulate(effects, initial=0))


_NAME_CHARS = re.compile(r"[A-Za-z0-9_]*")
"""The strings CPython interns when they are constants of a code object."""


def _interned_by_code(value: Any) -> bool:
    """Whether a code object would hold an equal object in place of `value` among its
    constants: a name-like string (also inside a tuple or frozenset) that is not the interned
    one. (`sys.intern` makes `value` the interned string when there is none yet, which is
    what making the code object would do.)"""
    if type(value) is str:
        return _NAME_CHARS.fullmatch(value) is not None and sys.intern(value) is not value
    if type(value) is tuple or type(value) is frozenset:
        return any(map(_interned_by_code, value))
    return False


def parameter_count(code: types.CodeType) -> int:
    """How many of `code`'s locals are parameters (`*args` and `**kwargs` included)."""
    flags = code.co_flags
    count = code.co_argcount + code.co_kwonlyargcount
    return count + bool(flags & inspect.CO_VARARGS) + bool(flags & inspect.CO_VARKEYWORDS)


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
    cg.load_key(src.key)
    cg.binary_subscr()


def _load_dict_get(cg: PyCodegen, src: Any) -> None:
    cg.load_function(dict.get)
    cg.load_source(src.base)
    cg.load_key(src.key)
    cg.call(2)


def _load_tuple_item(cg: PyCodegen, src: Any) -> None:
    cg.load_function(tuple.__getitem__)
    cg.load_source(src.base)
    cg.load_const(src.index)
    cg.call(2)


def _load_type(cg: PyCodegen, src: Any) -> None:
    cg.load_function(type)
    cg.load_source(src.base)
    cg.call(1)


def _load_iteration(cg: PyCodegen, src: Any) -> None:
    cg.load_function(tuple)
    cg.load_source(src.base)
    cg.call(1)


def _load_dict_value(cg: PyCodegen, src: Any) -> None:
    cg.load_function(nth_value)
    cg.load_source(src.base)
    cg.load_const(src.index)
    cg.call(2)


def nth_value(d: dict[Any, Any], index: int) -> Any:
    """`tuple(d.values())[index]`: what a DictValueSource reads."""
    return tuple(d.values())[index]


def _load_module(cg: PyCodegen, src: Any) -> None:
    """`sys.modules['m']`, as the guards read it (a value read lazily from a module's globals
    and handed on unread: `torch.compiler.is_compiling()` returns its `_is_compiling_flag`)."""
    cg.load_const(sys.modules)
    cg.load_key(src.module_name)
    cg.binary_subscr()


def _load_mode(cg: PyCodegen, src: Any) -> None:
    cg.load_function(worlds.current().get_mode_at)
    cg.load_const(src.index)
    cg.call(1)


_SOURCE_LOADERS: dict[type, Callable[[PyCodegen, Any], None]] = {
    LocalSource: _load_local,
    GlobalSource: _load_global,
    BuiltinSource: _load_builtin,
    ClosureSource: _load_closure,
    AttrSource: _load_attr,
    ItemSource: _load_item,
    DictGetSource: _load_dict_get,
    TupleItemSource: _load_tuple_item,
    TypeSource: _load_type,
    IterationSource: _load_iteration,
    DictValueSource: _load_dict_value,
    ModeStackSource: _load_mode,
    ModuleSource: _load_module,
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
    # A node returned twice is named by its last place.
    outputs = {node: f"___out_{i}" for i, node in enumerate(graph_outputs)}
    cg = PyCodegen(outputs)
    if original.co_freevars:
        cg.emit(Instr("COPY_FREE_VARS", len(original.co_freevars)))
    cg.emit(Instr("RESUME", 0))
    if graph_fn is not None:  # (a graph with no outputs returns (): nothing unpacked)
        cg.load_function(graph_fn)
        cg.load_sources(graph_inputs)
        cg.call(len(graph_inputs))
        cg.emit(Instr("UNPACK_SEQUENCE", len(graph_outputs)))
        for node in graph_outputs:
            cg.store_fast(outputs[node])
    if raised is not None:
        replay(cg)
        cg(raised)
        if raise_lineno:  # reported on the line that raised; the rest is on the `def` line
            cg.emit(Instr("RAISE_VARARGS", 1, lineno=raise_lineno))
        else:
            cg.emit(Instr("RAISE_VARARGS", 1))
    else:
        assert return_value is not None
        cg(return_value)
        # The return value waits on the stack: the replay below leaves the stack as it found it.
        replay(cg)
        cg.emit(Instr("RETURN_VALUE"))
    code = cg.code_object(
        original, flags=original.co_flags & ~(inspect.CO_GENERATOR | inspect.CO_COROUTINE)
    )
    return code, cg.instructions
