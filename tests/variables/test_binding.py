"""`bind_fast` against inspect: on generated signatures and calls, it binds exactly what
`inspect.signature(...).bind(...)` + `apply_defaults()` binds (same names, order and values), gives
up on every call inspect rejects, and leaves to inspect only the few successful calls whose rules
are subtle."""

from __future__ import annotations

import inspect
import types
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from variables.binding import bind_fast, parameter_shape

NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]


def reference(
    code: types.CodeType,
    defaults: tuple[Any, ...],
    kwdefaults: dict[str, Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> dict[str, Any] | None:
    """What the inspect route binds (local names, as bind_with_signature maps them), or None."""
    stand_in = types.FunctionType(code, {}, "f", defaults or None)
    stand_in.__kwdefaults__ = dict(kwdefaults) or None
    try:
        bound = inspect.signature(stand_in).bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    result = {}
    for name, value in bound.arguments.items():
        if name not in code.co_varnames and name.startswith("implicit"):
            name = "." + name.removeprefix("implicit")
        result[name] = value
    return result


@st.composite
def signatures(draw: st.DrawFn) -> tuple[types.CodeType, tuple[Any, ...], dict[str, Any]]:
    names = iter(draw(st.permutations(NAMES)))
    posonly = [next(names) for _ in range(draw(st.integers(0, 2)))]
    plain = [next(names) for _ in range(draw(st.integers(0, 3)))]
    varargs = next(names) if draw(st.booleans()) else None
    kwonly = [next(names) for _ in range(draw(st.integers(0, 2)))]
    varkw = next(names) if draw(st.booleans()) else None
    parts = [*posonly, *(["/"] if posonly else []), *plain]
    if varargs:
        parts.append(f"*{varargs}")
    elif kwonly:
        parts.append("*")
    parts += kwonly
    if varkw:
        parts.append(f"**{varkw}")
    source = f"def f({', '.join(parts)}): pass"
    code = compile(source, "<sig>", "exec").co_consts[0]
    npos = len(posonly) + len(plain)
    # sometimes more defaults than parameters: inspect's own business
    defaults = tuple(f"default{i}" for i in range(draw(st.integers(0, npos + 1))))
    kw_default_names = draw(st.lists(st.sampled_from([*kwonly, "zz"]), unique=True))
    return code, defaults, {name: f"kwdefault_{name}" for name in kw_default_names}


@st.composite
def calls(draw: st.DrawFn, code: types.CodeType) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args = tuple(f"arg{i}" for i in range(draw(st.integers(0, code.co_argcount + 2))))
    keys = draw(st.lists(st.sampled_from([*NAMES, "zz", "implicit0", ".0"]), unique=True))
    return args, {key: f"kw_{key}" for key in keys}


def check(
    code: types.CodeType,
    defaults: tuple[Any, ...],
    kwdefaults: dict[str, Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    expected = reference(code, defaults, kwdefaults, args, kwargs)
    shape = parameter_shape(code)
    assert shape is not None
    got = bind_fast(shape, defaults, kwdefaults, args, dict(kwargs))
    if got is not None:
        assert list(got.items()) == list(expected.items()) if expected is not None else False
    elif expected is not None:
        # the only successful calls left to inspect: a keyword that names a positional-only
        # parameter or a `.N` one, and more defaults than positional parameters
        assert (
            not shape.reserved.isdisjoint(kwargs)
            or any(key in code.co_varnames[: code.co_argcount] for key in kwargs)
            or len(defaults) > code.co_argcount
        )


@given(st.data())
def test_bind_fast_matches_inspect(data: st.DataObject) -> None:
    code, defaults, kwdefaults = data.draw(signatures())
    args, kwargs = data.draw(calls(code))
    check(code, defaults, kwdefaults, args, kwargs)


@given(st.data())
def test_bind_fast_matches_inspect_on_comprehensions(data: st.DataObject) -> None:
    """A comprehension's code takes its iterator as `.0`, which inspect calls `implicit0`."""
    code = compile("[x for x in y]", "<comp>", "eval").co_consts[0]
    assert code.co_varnames[0] == ".0"
    defaults = tuple(f"default{i}" for i in range(data.draw(st.integers(0, 1))))
    args, kwargs = data.draw(calls(code))
    check(code, defaults, {}, args, kwargs)


def plain_code(**changes: Any) -> types.CodeType:
    def f(a: int, b: int, c: int) -> None:
        pass

    return f.__code__.replace(**changes)


@pytest.mark.parametrize(
    "code",
    [
        plain_code(co_varnames=("a", "class", "c")),
        plain_code(co_varnames=("a", "a", "c")),
        plain_code(co_varnames=("a", ".0", "c")),
        plain_code(co_varnames=(".0", "b", "c"), co_posonlyargcount=1),
        plain_code(co_varnames=(".0", "implicit0", "c")),
    ],
    ids=["keyword", "duplicate", "implicit-after-plain", "implicit-posonly", "renamed-clash"],
)
def test_parameter_shape_leaves_odd_names_to_inspect(code: types.CodeType) -> None:
    """inspect refuses these names, or silently merges or reorders the parameters."""
    assert parameter_shape(code) is None


def test_parameter_shape_accepts_leading_implicit_parameters() -> None:
    code = plain_code(co_varnames=(".0", ".1", "c"))
    inspect.signature(types.FunctionType(code, {}))  # inspect accepts it too
    shape = parameter_shape(code)
    assert shape is not None
    assert shape.reserved == {"implicit0", "implicit1"} and shape.keywords == {"c"}
    check(code, (), {}, ("x", "y"), {"c": 1})


def _general(code: types.CodeType) -> Any:
    from variables.binding import _general_shape

    argcount, kwonly_count = code.co_argcount, code.co_kwonlyargcount
    names, index = code.co_varnames, argcount + kwonly_count
    kwonly = names[argcount:index]
    varargs = varkw = None
    if code.co_flags & inspect.CO_VARARGS:
        varargs, index = names[index], index + 1
    if code.co_flags & inspect.CO_VARKEYWORDS:
        varkw = names[index]
    return _general_shape(names[:argcount], code.co_posonlyargcount, kwonly, varargs, varkw)


@given(signatures())
def test_parameter_shape_shortcuts_agree_with_the_general_route(
    signature: tuple[types.CodeType, tuple[Any, ...], dict[str, Any]],
) -> None:
    code = signature[0]
    assert parameter_shape(code) == _general(code)


@pytest.mark.parametrize(
    "code",
    [
        compile("[x for x in y]", "<comp>", "eval").co_consts[0],
        compile("{k: v for k, v in y}", "<comp>", "eval").co_consts[0],
        plain_code(co_varnames=("a", "class", "c")),
        plain_code(co_varnames=("a", "a", "c")),
        plain_code(co_varnames=("a", ".0", "c")),
        plain_code(co_varnames=(".0", "b", "c")),
        plain_code(co_varnames=(".0", "b", "c"), co_argcount=1),
        plain_code(co_varnames=(".0", ".1", "c")),
    ],
)
def test_parameter_shape_shortcuts_agree_on_odd_codes(code: types.CodeType) -> None:
    assert parameter_shape(code) == _general(code)


class _FakeOutput:
    parameter_shape = staticmethod(parameter_shape)


class _FakeTx:
    output = _FakeOutput()

    def raise_user_error(self, error: BaseException) -> Any:
        raise error


@given(st.data())
def test_bind_with_signature_takes_the_plain_shortcut_only_where_bind_fast_agrees(
    data: st.DataObject,
) -> None:
    """bind_with_signature binds an all-positional call to an all-positional function itself;
    it must bind exactly what bind_fast and inspect bind, and leave the rest to them."""
    from variables.functions import bind_with_signature

    code, defaults, kwdefaults = data.draw(signatures())
    args, kwargs = data.draw(calls(code))
    if data.draw(st.booleans()):
        kwargs = {}
    expected = reference(code, defaults, kwdefaults, args, kwargs)
    shape = parameter_shape(code)
    assert shape is not None
    try:
        got = bind_with_signature(
            _FakeTx(),  # type: ignore[arg-type]
            code, "f", defaults, kwdefaults, args, kwargs,  # type: ignore[arg-type]
        )  # fmt: skip
    except TypeError:
        assert expected is None
        return
    assert expected is not None
    if shape.plain:
        assert list(got.items()) == list(expected.items())


def _comprehension_codes() -> list[types.CodeType]:
    """Every kind of comprehension code object, nested ones and closures included."""
    source = """
def outer(xs, k):
    a = [x * k for x in xs]
    b = {x for x in xs if x}
    c = {x: k for x in xs}
    d = [[y for y in xs] for x in xs]
    e = [x for x in xs for y in xs]
    return a, b, c, d, e
"""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<comprehensions>", "exec"), namespace)  # noqa: S102 (fixed text)
    found: list[types.CodeType] = []
    pending = [namespace["outer"].__code__]
    while pending:
        code = pending.pop()
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                found.append(const)
                pending.append(const)
    return found


@pytest.mark.parametrize("code", _comprehension_codes(), ids=lambda c: c.co_name)
def test_comprehension_shortcut_binds_what_bind_with_signature_binds(
    code: types.CodeType,
) -> None:
    """NestedUserFunctionVariable.frame_inputs binds a comprehension's iterator itself; the
    result is bind_with_signature's, and any other call still goes through it."""
    from variables.constant import ConstantVariable
    from variables.functions import NestedUserFunctionVariable, bind_with_signature

    tx: Any = types.SimpleNamespace(output=types.SimpleNamespace(parameter_shape=parameter_shape))
    fn = NestedUserFunctionVariable(code, {}, code.co_qualname)
    iterator = ConstantVariable(iter(()))
    _code, _globals, bound, _cells = fn.frame_inputs(tx, [iterator], {})
    assert bound == bind_with_signature(tx, code, code.co_name, (), {}, [iterator], {})
    assert list(bound) == [".0"] and bound[".0"] is iterator
    # two arguments: not the shortcut, and the inspect route's own TypeError
    tx.raise_user_error = lambda error: (_ for _ in ()).throw(error)
    with pytest.raises(TypeError, match="too many positional arguments"):
        fn.frame_inputs(tx, [iterator, iterator], {})
