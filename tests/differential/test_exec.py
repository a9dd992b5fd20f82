# ruff: noqa: S102  (exec is what these tests are about)
"""`exec(source, globals[, locals])` inside a traced function (tracer/translator/exec_source.py).

With a dict the trace tracks, the code exec runs is traced: its names go to the dict, the
functions it defines have the dict as globals, `__builtins__` is put in as CPython does. Each
test compares compiled with eager; where the point is tracing whole, under fullgraph. Without a
dict, or with a source not known while tracing, the frame falls back with a reason.
"""

from __future__ import annotations

import builtins
from typing import Any

import pytest

import tracer
import tracer.runtime as torch
from tests.differential.helpers import check
from tracer.testing import CompileCounter, assert_same_behavior


def unpack_400_shape(n: Any) -> Any:
    """The shape of test_unpack's test_extended_oparg_not_ignored."""
    target = "(" + "y," * 400 + ")"
    code = f"""def unpack_400(x):
        {target} = x
        return y
    """
    ns: dict[str, Any] = {}
    exec(code, ns)
    unpack_400 = ns["unpack_400"]
    return [unpack_400(range(n)) for _ in range(3)]


def defines_and_calls(x: Any) -> Any:
    ns: dict[str, Any] = {"scale": 3}
    exec("def f(v):\n    return v * scale + offset\noffset = 1\n", ns)
    return ns["f"](x), ns["offset"], sorted(k for k in ns if k != "__builtins__")


def assigns_names(x: Any) -> Any:
    ns: dict[str, Any] = {"x": x}
    exec("a = x + 1\nb = [a, a * 2]\ndel x\n", ns)
    return ns["a"], ns["b"], "x" in ns


def global_statement(x: Any) -> Any:
    ns: dict[str, Any] = {"count": x}
    exec("def bump():\n    global count\n    count += 1\n    return len([count])\nbump()\n", ns)
    return ns["count"], ns["bump"]()


def separate_locals(x: Any) -> Any:
    g: dict[str, Any] = {"base": x}
    loc: dict[str, Any] = {}
    exec("y = base * 2\nz = y + 1\n", g, loc)
    return sorted(g), loc


def returns_the_dict(x: Any) -> Any:
    ns: dict[str, Any] = {}
    exec("a = 1\nb = 'two'\n", ns)
    return ns


def syntax_error(x: Any) -> Any:
    ns: dict[str, Any] = {}
    try:
        exec("a = = 1", ns)
    except SyntaxError as e:
        return str(e), "__builtins__" in ns
    return None


def raises_name_error(x: Any) -> Any:
    ns: dict[str, Any] = {}
    exec("a = undefined_name + 1", ns)
    return ns


def input_dict(ns: dict[str, Any]) -> Any:
    exec("total = a + b\n", ns)
    return ns["total"]


TRACED_WHOLE = [
    unpack_400_shape,
    defines_and_calls,
    assigns_names,
    global_statement,
    separate_locals,
    syntax_error,
    raises_name_error,
]


@pytest.mark.parametrize("fn", TRACED_WHOLE, ids=lambda fn: fn.__name__)
def test_traced_whole_same_as_eager(fn: Any) -> None:
    check(fn, 5)


def test_the_dict_returned_holds_the_builtins() -> None:
    assert_same_behavior(returns_the_dict, 1)
    ns = tracer.compile(returns_the_dict, fullgraph=True)(1)
    assert ns["__builtins__"] is vars(builtins)  # the very dict, as eager puts in


def test_a_string_argument_is_guarded_by_value() -> None:
    compiled = tracer.compile(source_from_argument, fullgraph=True)
    with CompileCounter() as counter:
        assert compiled("y = 2") == 2 and compiled("y = 2") == 2
        assert compiled(b"y = 3") == 3  # exec takes bytes too
        assert compiled("y = 'a' * 2") == "aa"
    assert (counter.compiles, counter.graph_breaks) == (3, 0)


def test_an_input_dict_is_changed_as_in_eager() -> None:
    assert_same_behavior(input_dict, {"a": 1, "b": 2})
    compiled = tracer.compile(input_dict, fullgraph=True)
    ns = {"a": 3, "b": 4}
    assert compiled(ns) == 7
    assert ns["total"] == 7 and ns["__builtins__"] is vars(builtins)
    ns["a"] = 5
    assert compiled(ns) == 9  # now with its __builtins__: pinned by identity, not read through


def shadows_a_builtin(ns: dict[str, Any]) -> Any:
    exec("n = len(a)\n", ns)
    return ns["n"]


def test_a_global_of_the_dict_shadows_a_builtin() -> None:
    """`len` is looked up in the dict first: a dict that gains the name is a recompile."""
    compiled = tracer.compile(shadows_a_builtin, fullgraph=True)
    with CompileCounter() as counter:
        assert compiled({"a": [1, 2]}) == 2
        assert compiled({"a": [1, 2], "len": lambda v: 99}) == 99
    assert counter.compiles == 2


def comprehension_and_generator(x: Any) -> Any:
    ns: dict[str, Any] = {"k": x}
    exec(
        "ys = [v * k for v in range(3)]\n"
        "def g(n):\n    for i in range(n):\n        yield i * k\n"
        "s = sum(g(4))\n",
        ns,
    )
    return ns["ys"], ns["s"]


def exec_in_a_helper(x: Any) -> Any:
    def helper() -> Any:
        ns: dict[str, Any] = {"x": x}
        exec("z = x * 2", ns)
        return ns["z"]

    return helper() + 1


@pytest.mark.parametrize("fn", [comprehension_and_generator, exec_in_a_helper])
def test_functions_of_the_code_read_the_dict(fn: Any) -> None:
    check(fn, 3)


def no_dict(x: Any) -> Any:
    exec("y = 1")
    return x


def source_from_argument(src: Any) -> Any:
    ns: dict[str, Any] = {}
    exec(src, ns)
    return ns["y"]


def source_not_known(t: Any) -> Any:
    ns: dict[str, Any] = {}
    try:
        exec(t, ns)  # a tensor: CPython's TypeError, from the eager frame
    except TypeError as e:
        return str(e), ns
    return None


def function_escapes(x: Any) -> Any:
    ns: dict[str, Any] = {}
    exec("def f():\n    return 1\n", ns)
    return ns["f"]


def imports(x: Any) -> Any:
    ns: dict[str, Any] = {}
    exec("import math\nz = math.sqrt(4)", ns)
    return ns["z"] + x


def reads_name(x: Any) -> Any:
    ns: dict[str, Any] = {}
    exec("n = __name__", ns)  # the builtins' __name__, which this module's globals shadow
    return ns["n"]


def class_statement(x: Any) -> Any:
    ns: dict[str, Any] = {}
    exec("class C:\n    pass\n", ns)
    return x


@pytest.mark.parametrize(
    ("fn", "arg", "reason"),
    [
        (no_dict, 1, "reads the frame"),
        (source_not_known, torch.ones(2), "not known while tracing"),
        (function_escapes, 1, "leaves the traced frame"),
        (class_statement, 1, "class statement"),
        (imports, 1, "import of 'math'"),
        (reads_name, 1, "'__name__' read by code that exec() runs is shadowed"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_falls_back_with_a_reason(fn: Any, arg: Any, reason: str) -> None:
    if fn is function_escapes:
        eager, compiled = fn(arg), tracer.compile(fn)(arg)
        assert eager() == compiled() == 1
    else:
        assert_same_behavior(fn, arg)
    explained = tracer.explain(fn)(arg)
    assert explained.graph_break_count >= 1
    assert reason in str(explained.break_reasons[0])


def breaks_inside_with_a_dict(x: Any) -> Any:
    y = x + 1
    ns: dict[str, Any] = {"y": y}
    exec("print('inside')\nz = y * 2\n", ns)
    return ns["z"] - 1


def breaks_inside_with_globals_none(x: Any) -> Any:
    y = x + 1
    exec("print('inside')\n", None)
    return y - 1


def test_a_break_inside_exec_with_a_dict_resumes_after_it() -> None:
    """The break is at the exec call of the frame: exec runs eagerly there, with the dict it is
    given (it reads no frame), and the frame resumes after it."""
    assert_same_behavior(breaks_inside_with_a_dict, torch.ones(2))
    explained = tracer.explain(breaks_inside_with_a_dict)(torch.ones(2))
    reasons = " ".join(str(r) for r in explained.break_reasons)
    assert "reads the frame" not in reasons
    assert explained.graph_count == 2


def test_a_break_inside_exec_with_globals_none_still_refuses() -> None:
    assert_same_behavior(breaks_inside_with_globals_none, torch.ones(2))
    explained = tracer.explain(breaks_inside_with_globals_none)(torch.ones(2))
    assert "reads the frame" in " ".join(str(r) for r in explained.break_reasons)
