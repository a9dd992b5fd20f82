"""Functions whose globals are a dict the trace tracks: the module code `exec(source, ns)`
runs, and every function that code defines (tracer/translator/exec_source.py).

CPython gives such a function `ns` as its `__globals__`: its LOAD_GLOBAL reads `ns`, its
STORE_GLOBAL writes it. While tracing, `ns` is a dict tracker (made in the frame, or an input
dict), so the frame that runs the function reads and writes that tracker (`globals_vt`), and
what it stores is replayed like any other dict change.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

from tracer.exc import unimplemented
from variables.base import KnownObjectVariable
from variables.dicts import ConstDictVariable
from variables.functions import NestedUserFunctionVariable

if TYPE_CHECKING:
    from tracer.codegen import PyCodegen


class BuiltinsDictVariable(KnownObjectVariable):
    """The builtins module's dict, which `exec` puts in a globals dict as `__builtins__` (the
    calling frame's builtins: the compiled frame's are the same dict, checked when `exec` is
    traced). Rebuilt as that very object."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(vars(builtins))

    def reconstruct(self, cg: PyCodegen) -> None:
        cg.load_const(self.fn)

    def __repr__(self) -> str:
        return "BuiltinsDictVariable()"


class ExecFunctionVariable(NestedUserFunctionVariable):
    """`ExecFunctionVariable(f, globals=ConstDictVariable(...))`: a function made by code that
    `exec` ran with a dict as its globals."""

    __slots__ = ("globals_vt",)

    def __init__(self, fn: NestedUserFunctionVariable, globals_vt: ConstDictVariable) -> None:
        super().__init__(fn.code, fn.f_globals, fn.qualname, fn.defaults, fn.kwdefaults, fn.closure)
        self.globals_vt = globals_vt

    def reconstruct(self, cg: PyCodegen) -> None:
        unimplemented(
            "reconstruct",
            f"the function {self.qualname} that exec() defined leaves the traced frame",
        )

    def __repr__(self) -> str:
        return f"ExecFunctionVariable({self.qualname})"
