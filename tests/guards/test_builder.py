"""Each guard kind passes on the value it was built from and fails after one exact change; the
generated text is deduped, ordered, hoisted and deterministic; no user code runs."""

from __future__ import annotations

import linecache
import random
import traceback
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from guards import (
    AttrSource,
    ClosureSource,
    GlobalsDictSource,
    GlobalSource,
    Guard,
    GuardKind,
    GuardPlanError,
    ItemSource,
    LocalSource,
    TensorSpec,
    build_check_source,
    has_instance_attr,
    mode_stack_guard,
)
from guards.builder import GuardBuilder, reads_value_once
from guards.guard import FunctionSpec
from tests.guards.helpers import (
    HashableHostile,
    Hostile,
    compile_guards,
    float64,
    guard,
    make_tensor,
)

K = GuardKind
NAN = float("nan")


@pytest.mark.parametrize(
    ("expected", "same", "changed"),
    [
        (3, 3, True),
        (1, 1, 1.0),
        (True, True, 1),
        (0.0, 0.0, -0.0),
        (-0.0, -0.0, 0.0),
        (NAN, float("nan"), 0.0),
        (0.5, 0.5, NAN),
        (float("inf"), float("inf"), float("-inf")),
        ("a", "a", b"a"),
        (None, None, 0),
        ((1, 2.0), (1, 2.0), (1.0, 2.0)),
        ((1, (True, "x")), (1, (True, "x")), (1, (1, "x"))),
        ((1, 2), (1, 2), [1, 2]),
        ((1, 2), (1, 2), (1, 2, 3)),
        (frozenset({1, "a"}), frozenset({1, "a"}), frozenset({True, "a"})),
        (1 + 2j, 1 + 2j, 1 - 2j),
    ],
)
def test_EQUALS_MATCH_is_exact(expected: object, same: object, changed: object) -> None:
    check = compile_guards([guard(K.EQUALS_MATCH, "v", expected)]).check
    assert check({"v": same}) is True
    assert check({"v": changed}) is False


def test_TYPE_MATCH_and_ID_MATCH() -> None:
    obj, other = Hostile(), Hostile()
    check = compile_guards([guard(K.TYPE_MATCH, "t", int), guard(K.ID_MATCH, "o", obj)]).check
    assert check({"t": 5, "o": obj})
    assert not check({"t": True, "o": obj})  # bool is a subclass, not the exact type
    assert not check({"t": 5, "o": other})
    assert Hostile.calls == 0


def test_LENGTH_CHECK_and_DICT_KEYS_MATCH() -> None:
    guards = [
        guard(K.TYPE_MATCH, "xs", list),
        guard(K.LENGTH_CHECK, "xs", 2),
        guard(K.TYPE_MATCH, "d", dict),
        guard(K.DICT_KEYS_MATCH, "d", ("a", 1)),
    ]
    check = compile_guards(guards).check
    assert check({"xs": [1, 2], "d": {"a": 0, 1: 0}})
    assert not check({"xs": [1, 2, 3], "d": {"a": 0, 1: 0}})
    assert not check({"xs": (1, 2), "d": {"a": 0, 1: 0}})
    assert not check({"xs": [1, 2], "d": {1: 0, "a": 0}})  # key order
    assert not check({"xs": [1, 2], "d": {"a": 0, True: 0}})  # key type
    assert not check({"xs": [1, 2], "d": {"a": 0}})


def test_TENSOR_MATCH() -> None:
    x = make_tensor((2, 3))
    check = compile_guards([guard(K.TENSOR_MATCH, "x", TensorSpec.of(x))]).check
    assert check({"x": x}) and check({"x": make_tensor((2, 3))})
    assert not check({"x": make_tensor((2, 3), dtype=float64)})
    assert not check({"x": make_tensor((3, 2))})
    assert not check({"x": make_tensor((2, 3), requires_grad=True)})
    assert not check({"x": Hostile(_shape=(2, 3))})


def test_HASATTR_and_NO_HASATTR_read_no_user_code() -> None:
    obj = Hostile(a=1)
    guards = [
        guard(K.TYPE_MATCH, "o", Hostile),
        guard(K.HASATTR, "o", "a"),
        guard(K.NO_HASATTR, "o", "b"),
        guard(K.NO_HASATTR, "o", "prop"),
        guard(K.EQUALS_MATCH, AttrSource(LocalSource("o"), "a"), 1),
    ]
    compiled = compile_guards(guards)
    assert compiled.check({"o": obj})
    obj.b = 2
    assert not compiled.check({"o": obj})  # attribute added
    del obj.b, obj.a
    assert not compiled.check({"o": obj})  # attribute missing: __getattr__ must not run
    assert compiled.failure_reason({"o": obj}) == "L['o'].a: missing attribute (expected 1)"
    assert Hostile.calls == 0


def test_HASATTR_sees_filled_slots_only() -> None:
    class Slotted:
        __slots__ = ("a",)

    obj = Slotted()
    assert not has_instance_attr(obj, "a")
    obj.a = 1
    assert has_instance_attr(obj, "a") and not has_instance_attr(obj, "b")


def test_DICT_NOT_CONTAINS_and_GlobalSource() -> None:
    guards = [
        guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), ("len",)),
        guard(K.EQUALS_MATCH, GlobalSource("scale"), 2),
    ]
    f_globals: dict[str, object] = {"scale": 2}
    compiled = compile_guards(guards, f_globals=f_globals)
    assert compiled.check({})
    f_globals["len"] = lambda xs: 0
    assert not compiled.check({})
    del f_globals["len"], f_globals["scale"]
    assert not compiled.check({})


def test_CLOSURE_MATCH_identity_and_value() -> None:
    helper, n = (lambda: 1), 3

    def fn() -> int:
        return helper() + n

    cells = fn.__closure__
    assert cells is not None
    guards = [
        guard(K.CLOSURE_MATCH, ClosureSource("helper", 0), helper),
        guard(K.CLOSURE_MATCH, ClosureSource("n", 1), 3),
    ]
    compiled = compile_guards(guards, closure=cells)
    assert compiled.check({})
    cells[1].cell_contents = 3.0
    assert not compiled.check({})
    cells[1].cell_contents = 3
    cells[0].cell_contents = lambda: 1
    assert not compiled.check({})


def test_no_user_code_runs_in_check_or_failure_reason() -> None:
    obj = Hostile(a=Hostile(), items=[Hostile()])
    o = LocalSource("o")
    guards = [
        guard(K.TYPE_MATCH, o, Hostile),
        guard(K.HASATTR, o, "a"),
        guard(K.HASATTR, o, "items"),
        guard(K.ID_MATCH, AttrSource(o, "a"), obj.a),
        guard(K.TYPE_MATCH, AttrSource(o, "items"), list),
        guard(K.LENGTH_CHECK, AttrSource(o, "items"), 1),
        guard(K.TYPE_MATCH, ItemSource(AttrSource(o, "items"), 0), Hostile),
        guard(K.EQUALS_MATCH, LocalSource("t"), (1, "x")),
        guard(K.TYPE_MATCH, LocalSource("d"), dict),
        guard(K.DICT_KEYS_MATCH, LocalSource("d"), ("k",)),
    ]
    compiled = compile_guards(guards)
    frames = [
        {"o": obj, "t": (1, "x"), "d": {"k": 1}},
        {"o": obj, "t": (1, Hostile()), "d": {"k": 1}},
        {"o": obj, "t": (1, "x"), "d": {HashableHostile(): 1}},
        {"o": Hostile(), "t": (1, "x"), "d": {"k": 1}},
        {"o": Hostile(a=obj.a, items=Hostile()), "t": (1, "x"), "d": {"k": 1}},
        {"o": Hostile(a=obj.a, items=[Hostile(), 1]), "t": (1, "x"), "d": {"k": 1}},
    ]
    results = [(compiled.check(L), compiled.failure_reason(L)) for L in frames]
    assert [r[0] for r in results] == [True, False, False, False, False, False]
    assert [r[1] is None for r in results] == [True, False, False, False, False, False]
    assert Hostile.calls == 0, results


def test_dedupe_and_implied_guards() -> None:
    x = make_tensor((2,))
    spec = TensorSpec.of(x)
    guards = [
        guard(K.TYPE_MATCH, "x", type(x)),
        guard(K.TENSOR_MATCH, "x", spec),
        guard(K.TENSOR_MATCH, "x", TensorSpec.of(make_tensor((2,)))),  # same spec, new tensor
        guard(K.TYPE_MATCH, "n", int),
        guard(K.EQUALS_MATCH, "n", 4),
        guard(K.EQUALS_MATCH, "n", 4),
        guard(K.TYPE_MATCH, "t", tuple),
        guard(K.LENGTH_CHECK, "t", 2),
        guard(K.EQUALS_MATCH, "t", (1, 2)),
    ]
    compiled = compile_guards(guards)
    assert [repr(g) for g in compiled.guards] == [
        "Guard(EQUALS_MATCH L['n']: 4)",
        "Guard(EQUALS_MATCH L['t']: (1, 2))",
        "Guard(TENSOR_MATCH L['x']: float32[2], requires_grad=False)",
    ]
    assert compiled.source.count("type(___v") == 5  # n, t, t[0], t[1], and x once
    assert compiled.source.count("type(___v2 := L['x']) is") == 1


def test_distinct_constants_are_not_deduped() -> None:
    guards = [guard(K.EQUALS_MATCH, "v", 1), guard(K.EQUALS_MATCH, "v", True)]
    guards += [guard(K.EQUALS_MATCH, "w", 0.0), guard(K.EQUALS_MATCH, "w", -0.0)]
    assert len(compile_guards(guards).guards) == 4


def test_shared_prefix_is_read_once_after_its_base_is_pinned() -> None:
    cfg = LocalSource("cfg")
    inner = AttrSource(cfg, "inner")
    guards = [
        guard(K.EQUALS_MATCH, AttrSource(inner, "a"), 1),
        guard(K.EQUALS_MATCH, AttrSource(inner, "b"), 2),
        guard(K.HASATTR, cfg, "inner"),
        guard(K.TYPE_MATCH, cfg, Hostile),
    ]
    text, _ = build_check_source(guards)
    lines = [line.split("  #")[0] for line in text.splitlines()]  # code, not comments
    assert sum(line.count("L['cfg']") for line in lines) == 1
    assert sum(line.count(".inner") for line in lines) == 1
    assert lines.index(
        "            and type(___v2 := (___v1 := ___v0.inner).a) is int and ___v2 == 1"
    ) > next(i for i, line in enumerate(lines) if "___has_attr(___v0, 'inner')" in line)


def test_generated_text_golden() -> None:
    x = make_tensor((2, 3))
    guards = [
        guard(K.EQUALS_MATCH, AttrSource(LocalSource("cfg"), "scale"), 0.5),
        guard(K.TENSOR_MATCH, "x", TensorSpec.of(x)),
        guard(K.TYPE_MATCH, "cfg", Hostile),
    ]
    text, bindings = build_check_source(guards)
    assert text == (
        "def ___check_0(L):\n"
        '    """3 guards, generated by guards.builder."""\n'
        "    try:\n"
        "        if (\n"
        "            type(___v0 := L['cfg']) is ___c0_Hostile"
        " and ___c0_Hostile.__getattribute__ is ___c1_object_getattribute  # TYPE_MATCH L['cfg']\n"
        "            and type(___v1 := ___v0.scale) is float and ___v1 == 0.5"
        "  # EQUALS_MATCH L['cfg'].scale\n"
        "            and type(___v2 := L['x']) is ___c2_Tensor and ___v2._dtype is ___c3_dtype"
        " and ___v2._shape == (2, 3) and ___v2.requires_grad is False  # TENSOR_MATCH L['x']\n"
        "        ):\n"
        "            return True\n"
        "        return False\n"
        "    except Exception:\n"
        "        return False\n"
    ).replace("___c2_Tensor", f"___c2_{type(x).__name__}").replace(
        "___c3_dtype", f"___c3_{type(x._dtype).__name__}"
    )
    assert bindings["___c0_Hostile"] is Hostile
    assert bindings["___c1_object_getattribute"] is object.__getattribute__


guard_lists = st.lists(
    st.sampled_from(
        [
            guard(K.TYPE_MATCH, "a", list),
            guard(K.LENGTH_CHECK, "a", 2),
            guard(K.EQUALS_MATCH, ItemSource(LocalSource("a"), 0), 1.5),
            guard(K.EQUALS_MATCH, ItemSource(LocalSource("a"), 1), (None, -0.0)),
            guard(K.TYPE_MATCH, "cfg", Hostile),
            guard(K.HASATTR, "cfg", "k"),
            guard(K.EQUALS_MATCH, AttrSource(LocalSource("cfg"), "k"), "v"),
            guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), ("len",)),
            guard(K.EQUALS_MATCH, "n", 3),
            guard(K.EQUALS_MATCH, "n", 3, line=9),
        ]
    ),
    min_size=1,
)


@given(guard_lists, st.randoms(use_true_random=False))
def test_source_text_is_deterministic_for_any_input_order(
    guards: list[Guard], rng: random.Random
) -> None:
    guards = [*guards, guard(K.TYPE_MATCH, "a", list)]  # LENGTH_CHECK needs it
    shuffled = list(guards)
    rng.shuffle(shuffled)
    assert build_check_source(guards)[0] == build_check_source(shuffled)[0]
    assert str(compile_guards(guards)) == str(compile_guards(shuffled))


def test_length_check_needs_a_type_match() -> None:
    with pytest.raises(GuardPlanError, match="LENGTH_CHECK on L\\['xs'\\] needs a TYPE_MATCH"):
        build_check_source([guard(K.LENGTH_CHECK, "xs", 3)])
    with pytest.raises(GuardPlanError, match="builtin container"):
        build_check_source([guard(K.TYPE_MATCH, "xs", Hostile), guard(K.LENGTH_CHECK, "xs", 3)])
    with pytest.raises(GuardPlanError, match="DICT_KEYS_MATCH on L\\['d'\\] needs a TYPE_MATCH"):
        build_check_source([guard(K.TYPE_MATCH, "d", list), guard(K.DICT_KEYS_MATCH, "d", ())])


def test_bad_expected_values_are_rejected() -> None:
    with pytest.raises(TypeError, match="EQUALS_MATCH expects a constant"):
        guard(K.EQUALS_MATCH, "x", [1])
    with pytest.raises(TypeError, match="TYPE_MATCH expects a type"):
        guard(K.TYPE_MATCH, "x", 3)


class Escape(BaseException):
    """Not an Exception, so it passes the check's `except Exception` and shows the traceback."""


class EscapingLocals(dict[str, object]):
    """Its own items read normally; any other key escapes the check."""

    def __getitem__(self, key: str) -> object:
        if key in self:
            return dict.__getitem__(self, key)
        raise Escape(key)


def test_traceback_through_the_check_is_readable() -> None:
    """One guard a line, inside the one condition: a traceback names the guard's own line."""
    compiled = compile_guards([guard(K.EQUALS_MATCH, "n", 1), guard(K.ID_MATCH, "m", None)])
    assert compiled.check.__code__.co_filename == compiled.filename
    line = "and type(___v0 := L['n']) is int and ___v0 == 1  # EQUALS_MATCH L['n']"
    assert linecache.getline(compiled.filename, 6).strip() == line
    with pytest.raises(Escape) as info:
        compiled.check(EscapingLocals(m=None))  # `L['m'] is None` first
    text = "".join(traceback.format_exception(info.value))
    assert f'File "{compiled.filename}", line 6, in ___check_0' in text
    assert line in text


def _sample_of_every_kind() -> list[Guard]:
    def fn() -> None:
        pass

    assert isinstance(fn, types.FunctionType)
    return [
        guard(K.TYPE_MATCH, "a", list),
        guard(K.ID_MATCH, "a", None),
        guard(K.ID_MATCH, "a", Hostile),
        guard(K.FUNCTION_MATCH, "f", FunctionSpec.of(fn)),
        guard(K.EQUALS_MATCH, "n", 3),
        guard(K.EQUALS_MATCH, "n", None),
        guard(K.EQUALS_MATCH, "n", True),
        guard(K.EQUALS_MATCH, "n", (1, 2)),
        guard(K.CLOSURE_MATCH, "c", 3),
        guard(K.CLOSURE_MATCH, "c", Hostile),
        guard(K.LENGTH_CHECK, "a", 2),
        guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), ("len",)),
        guard(K.HASATTR, "cfg", "k"),
        guard(K.NO_HASATTR, "cfg", "k"),
        guard(K.DICT_KEYS_MATCH, "d", ()),
        guard(K.DICT_KEYS_MATCH, "d", ("a", "b")),
        guard(K.TENSOR_MATCH, "x", TensorSpec.of(make_tensor((2,)))),
        mode_stack_guard([]),
        mode_stack_guard([Hostile()]),
    ]


def test_reads_value_once_says_how_often_the_expression_names_the_value() -> None:
    builder = GuardBuilder()
    for g in _sample_of_every_kind():
        expression = builder.code_for(g, "___probe")
        # at most once: the empty mode stack's guard reads the length accessor, not the list
        assert reads_value_once(g) == (expression.count("___probe") <= 1), expression


def test_a_value_read_once_is_read_where_it_is_used() -> None:
    guards = [
        guard(K.ID_MATCH, AttrSource(AttrSource(LocalSource("m"), "a"), "b"), None),
        guard(K.TENSOR_MATCH, "x", TensorSpec.of(make_tensor((2,)))),
        mode_stack_guard([]),
    ]
    text, _ = build_check_source(guards)
    lines = [line.strip().split("  #")[0] for line in text.splitlines()]
    assert "L['m'].a.b is None" in lines
    assert "and type(___v0 := L['x']) is" in text  # TENSOR_MATCH reads it four times
    assert "and ___mode_stack_len() == 0" in lines
    compiled = compile_guards(guards)
    m = types.SimpleNamespace(a=types.SimpleNamespace(b=None))
    assert compiled.check({"m": m, "x": make_tensor((2,))})
    m.a.b = 1
    assert not compiled.check({"m": m, "x": make_tensor((2,))})
    assert not compiled.check({"m": types.SimpleNamespace(), "x": make_tensor((2,))})
