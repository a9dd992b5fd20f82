"""`import m`, `from m import a` and their relative forms inside traced code (IMPORT_NAME,
IMPORT_FROM), as Dynamo traces them.

The import runs for real while tracing, through the builtin `__import__` the frame sees (so a
module imported for the first time runs its code once, at the point of the call where plain
Python would run it). The module it gives is then a constant of the trace, found at
`sys.modules['m']` and guarded there by identity, together with the builtin `__import__`: the
compiled code does not import again, and a call that would find another module (or another
`__import__`) misses the guards. An import that fails falls back, so plain Python raises its
exact ImportError.
"""

from __future__ import annotations

import builtins
import sys
import types
from typing import Any

from guards.sources import BuiltinSource, ModuleSource
from tracer.exc import unimplemented
from tracer.translator.instructions import Instruction
from tracer.translator.names import Names, builtins_of
from variables.base import NotConstantError, VariableTracker
from variables.misc import ModuleVariable


class Imports(Names):
    """Import opcodes; a `Names` for the frame's builtins dict."""

    def IMPORT_NAME(self, inst: Instruction) -> None:
        """IMPORT_NAME(name): pops `level` and `fromlist`, pushes what `__import__` returns
        (the top-level package for `import a.b`, the module itself when names follow)."""
        fromlist_vt = self.pop().realize()
        level_vt = self.pop().realize()
        try:
            fromlist = fromlist_vt.as_python_constant()
            level = level_vt.as_python_constant()
        except NotConstantError:
            unimplemented("import", f"import of {inst.argval!r} with a non-constant fromlist")
        self._guard_real_import()
        name: str = inst.argval
        try:
            module = builtins.__import__(name, self.f_globals, None, fromlist, level)
        except Exception as e:  # noqa: BLE001 - any failure: plain Python raises it, exactly
            unimplemented("import", f"import of {name!r} failed ({type(e).__name__}: {e})")
        self.push(self._wrap_module(module, name))
        if not fromlist and "." in name:
            # `import a.b` binds `a`; plain Python would import `a.b` again were it gone
            self._wrap_module(sys.modules.get(name), name)

    def IMPORT_FROM(self, inst: Instruction) -> None:
        """IMPORT_FROM(name): leaves the module on the stack and pushes its attribute `name`."""
        module_vt = self.peek().realize()
        name: str = inst.argval
        if not isinstance(module_vt, ModuleVariable):
            unimplemented("import", f"from-import of {name!r} from {module_vt!r}")
        if name not in vars(module_vt.module):
            # CPython then tries sys.modules['<package>.<name>'] or raises ImportError with
            # its own message: plain Python does it exactly
            unimplemented("import", f"from-import of {name!r}, not an attribute of the module")
        self.push(module_vt.var_getattr(self, name))

    def _guard_real_import(self) -> None:
        """The frame's builtin `__import__` must be the real one (guarded by identity)."""
        found = builtins_of(self.f_globals).get("__import__")
        if found is not builtins.__import__:
            unimplemented("import", "the builtin __import__ is replaced")
        self.output.builder.wrap(found, BuiltinSource("__import__"))

    def _wrap_module(self, module: object, name: str) -> VariableTracker:
        """The module as a constant found at `sys.modules[its name]`, guarded by identity."""
        module_name: Any = getattr(module, "__name__", None)
        if (
            not issubclass(type(module), types.ModuleType)
            or not issubclass(type(module_name), str)
            or sys.modules.get(module_name) is not module
        ):
            unimplemented("import", f"import of {name!r} gave a value not in sys.modules")
        return self.output.builder.wrap(module, ModuleSource(module_name))
