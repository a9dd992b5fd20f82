"""The check is one condition, `if (<guard> and <guard> ...): return True`, with hoisted reads
written as walruses at their first use (guards/builder.py `guard_lines`): it returns exactly
True or False, catches an exception in any guard (the truth test of the last one included),
and reads a value before every use of its name."""

from __future__ import annotations

import dis
import io
import tokenize

import pytest

import guards.builder as builder_module
from guards import AttrSource, GlobalsDictSource, Guard, ItemSource, LocalSource
from guards import GuardKind as K
from guards.guard import FactsSpec, GlobalStateSpec, TensorSpec
from guards.sources import GlobalStateSource
from tests.guards.helpers import compile_guards, guard, make_tensor
from tests.guards.test_builder import _sample_of_every_kind


class RaisingBool:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth value")


class Answers:
    """What a (contract-breaking) facts reader returns: `==` answers `answer`."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def __eq__(self, other: object) -> object:  # type: ignore[override]
        return self.answer

    __hash__ = None  # type: ignore[assignment]


def facts(answer: object) -> Guard:
    return guard(K.FACTS_MATCH, "m", FactsSpec(("{}.ready",), (True,), lambda v: Answers(answer)))


def test_no_guards_at_all() -> None:
    compiled = compile_guards([])
    assert "        return True\n" in compiled.source
    assert compiled.check({}) is True


def test_the_check_returns_exactly_true_or_false() -> None:
    """The last guard's value is truth-tested, never returned: a truthy or falsy non-bool is
    True or False."""
    for answer, expected in [(1, True), ("yes", True), (0, False), ([], False)]:
        compiled = compile_guards([guard(K.TYPE_MATCH, "a", int), facts(answer)])
        assert compiled.guards[-1].kind is K.FACTS_MATCH
        assert compiled.check({"a": 1, "m": object()}) is expected
        assert compiled.check({"a": "1", "m": object()}) is False


def test_a_raising_truth_test_of_the_last_guard_is_a_miss() -> None:
    compiled = compile_guards([guard(K.TYPE_MATCH, "a", int), facts(RaisingBool())])
    assert compiled.guards[-1].kind is K.FACTS_MATCH
    assert compiled.check({"a": 1, "m": object()}) is False


def global_state(answer: object) -> Guard:
    # a part expected to be 3, not a bool: the check compares it with `==`, which answers
    spec = GlobalStateSpec(("level",), (3,), (lambda: Answers(answer),))
    return Guard(K.GLOBAL_STATE, GlobalStateSource(), spec)


def test_a_raising_truth_test_of_a_middle_guard_is_a_miss() -> None:
    for middle, expected in [(RaisingBool(), False), (True, True)]:
        compiled = compile_guards(
            [guard(K.TYPE_MATCH, "a", int), global_state(middle), facts(True)]
        )
        assert [g.kind for g in compiled.guards] == [K.TYPE_MATCH, K.GLOBAL_STATE, K.FACTS_MATCH]
        assert compiled.check({"a": 1, "m": object()}) is expected


def test_a_hoisted_read_used_by_two_guards_and_an_aliasing_guard() -> None:
    a, b = LocalSource("a"), LocalSource("b")
    guards = [
        guard(K.TYPE_MATCH, a, list),
        guard(K.LENGTH_CHECK, a, 2),
        guard(K.EQUALS_MATCH, ItemSource(a, 0), 1),
        guard(K.TYPE_MATCH, b, list),
        Guard(K.OBJECT_ALIASING, b, a),
    ]
    compiled = compile_guards(guards)
    code = [line.split("  #")[0] for line in compiled.source.splitlines()]
    assert sum(line.count("L['a']") for line in code) == 1
    assert "type(___v0 := L['a']) is list" in compiled.source
    assert "___v1 is ___v0" in compiled.source  # L['b'], read again by the aliasing guard
    shared = [1, 2]
    assert compiled.check({"a": shared, "b": shared}) is True
    assert compiled.check({"a": shared, "b": [1, 2]}) is False
    assert compiled.check({"a": [2, 1], "b": [2, 1]}) is False
    assert compiled.check({"a": [1], "b": [1]}) is False
    assert compiled.check({"b": shared}) is False


def test_an_aliasing_guard_is_the_first_use_of_its_sources() -> None:
    """Sources read only by aliasing guards get their walrus inside the first of them, at the
    left-most use; a source named twice in one guard (`L['s'].x is L['s']`) too."""
    p, q, r = LocalSource("p"), LocalSource("q"), LocalSource("r")
    s = LocalSource("s")
    guards = [
        Guard(K.NO_ALIASING, p, (q, r)),
        Guard(K.NO_ALIASING, q, (r,)),
        Guard(K.OBJECT_ALIASING, AttrSource(s, "x"), s),
    ]
    compiled = compile_guards(guards)
    text = compiled.source
    assert "(___v1 := (___v0 := L['s']).x) is ___v0  # OBJECT_ALIASING" in text
    assert "is not (___v3 := L['q']) and ___v2 is not (___v4 := L['r'])  # NO_ALIASING" in text
    assert "___v3 is not ___v4  # NO_ALIASING L['q']" in text
    box = type("Box", (), {})()
    box.x = box
    one, two, three = [], [], []
    assert compiled.check({"p": one, "q": two, "r": three, "s": box}) is True
    assert compiled.check({"p": one, "q": two, "r": two, "s": box}) is False
    assert compiled.check({"p": one, "q": one, "r": three, "s": box}) is False
    other = type("Box", (), {})()
    other.x = box
    assert compiled.check({"p": one, "q": two, "r": three, "s": other}) is False


def test_strings_that_look_like_names_or_keywords_stay_strings() -> None:
    """A constant that spells a hoisted name, or `or`/`if`, is compared as the string it is
    (a keyword in a guard's text puts it in parentheses and its reads in statements)."""
    guards = [
        guard(K.EQUALS_MATCH, "n", "___v0"),
        guard(K.EQUALS_MATCH, "k", "a if b else c or d"),
        guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), ("x or y",)),
    ]
    compiled = compile_guards(guards, f_globals={"x": 1})
    assert "        ___v0 = L['k']\n" in compiled.source
    assert "(type(___v0) is str and ___v0 == 'a if b else c or d')" in compiled.source
    assert "type(___v1 := L['n']) is str and ___v1 == '___v0'" in compiled.source
    assert "('x or y' not in G)" in compiled.source
    values = {"n": "___v0", "k": "a if b else c or d"}
    assert compiled.check(values) is True
    assert compiled.check({**values, "n": "___v1"}) is False
    assert compiled.check({**values, "k": "a"}) is False
    assert compile_guards(guards, f_globals={"x or y": 1}).check(values) is False


class LooseBuilder(builder_module.GuardBuilder):
    """Renders EQUALS_MATCH of an int with `or` and a second read of the value: no real
    guard kind does, but the chain must stay exact if one ever does."""

    def EQUALS_MATCH(self, guard: Guard, v: str) -> str:
        return f"type({v}) is int and {v} == {guard.expected!r} or {v} is None"


def test_a_guard_with_or_keeps_to_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builder_module, "GuardBuilder", LooseBuilder)
    guards = [
        guard(K.TYPE_MATCH, "x", int),
        guard(K.EQUALS_MATCH, "y", 2),
        guard(K.TYPE_MATCH, "z", str),
    ]
    compiled = compile_guards(guards)
    assert [g.kind for g in compiled.guards] == [K.TYPE_MATCH, K.TYPE_MATCH, K.EQUALS_MATCH]
    text = compiled.source
    assert "(type(___v0) is int and ___v0 == 2 or ___v0 is None)" in text
    assert "        ___v0 = L['y']\n" in text  # a statement, not a walrus inside the `or`
    assert compiled.check({"x": 1, "y": 2, "z": ""}) is True
    assert compiled.check({"x": 1, "y": None, "z": ""}) is True
    assert compiled.check({"x": 1, "y": 3, "z": ""}) is False
    assert compiled.check({"x": "1", "y": 2, "z": ""}) is False  # `x and y == 2 or ...`: True
    assert compiled.check({"x": 1, "y": None, "z": 0}) is False
    assert compiled.check({"x": 1, "z": ""}) is False


class BlindBuilder(builder_module.GuardBuilder):
    """Renders EQUALS_MATCH without naming the value it was hoisted for."""

    def EQUALS_MATCH(self, guard: Guard, v: str) -> str:
        return "G is not None"


def test_a_hoisted_read_its_guard_does_not_name_is_a_statement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The read still runs where it did (a missing local is a miss), before the guard."""
    monkeypatch.setattr(builder_module, "GuardBuilder", BlindBuilder)
    compiled = compile_guards([guard(K.TYPE_MATCH, "x", int), guard(K.EQUALS_MATCH, "n", 1)])
    assert "        ___v0 = L['n']\n" in compiled.source
    assert compiled.check({"x": 1, "n": 5}) is True
    assert compiled.check({"x": 1}) is False


def test_every_kinds_text_writes_its_loose_keywords_between_spaces() -> None:
    """`_is_loose` finds `or`, `if`, `lambda`, `for` by their spaces: hold every guard kind's
    text (and a string constant's) to that, token by token."""
    samples = [*_sample_of_every_kind(), guard(K.EQUALS_MATCH, "s", "x if y else z or w")]
    builder = builder_module.GuardBuilder()
    for g in samples:
        code = builder.code_for(g, "___v")
        tokens = tokenize.generate_tokens(io.StringIO(code).readline)
        keywords = {t.string for t in tokens if t.type == tokenize.NAME} & _LOOSE_KEYWORDS
        if keywords:
            assert builder_module._is_loose(code), code
    assert builder_module._is_loose("'x if y else z or w'")  # a false alarm: only parentheses


_LOOSE_KEYWORDS = {"or", "if", "else", "lambda", "for"}


def test_a_long_check_is_conditions_whose_jumps_need_no_extended_arg() -> None:
    """Every failed guard jumps to the `return False` after its condition; conditions are cut
    short enough that no jump needs an EXTENDED_ARG (it would run on every call)."""
    guards = [guard(K.TENSOR_MATCH, f"x{i}", TensorSpec.of(make_tensor((2, i)))) for i in range(30)]
    guards += [guard(K.EQUALS_MATCH, f"n{i}", i) for i in range(30)]
    compiled = compile_guards(guards)
    assert compiled.source.count("        if not (\n") > 5
    opnames = [i.opname for i in dis.get_instructions(compiled.check)]
    assert "EXTENDED_ARG" not in opnames
    values = {f"x{i}": make_tensor((2, i)) for i in range(30)} | {f"n{i}": i for i in range(30)}
    assert compiled.check(values) is True
    for key in ["x0", "x29", "n0", "n29"]:
        assert compiled.check({**values, key: None}) is False
