"""BuiltinVariable.call_function finds a builtin's `call_<name>` handler through a table built at
import (`_HANDLERS`); the table must agree with the lookup by name it replaces. (Where
`builtins.<name>` has been rebound since, call_function's check sends the call down that
lookup as before.)"""

import builtins

from variables.builtin import _HANDLERS, BuiltinVariable


def test_the_table_is_the_lookup_by_name() -> None:
    for name, value in vars(builtins).items():
        handler = getattr(BuiltinVariable, f"call_{name}", None)
        named = getattr(value, "__name__", None) == name
        if handler is not None and named:
            assert _HANDLERS[value] == f"call_{name}"
    for value, name in _HANDLERS.items():
        assert getattr(builtins, name[5:]) is value
        assert callable(getattr(BuiltinVariable, name))
