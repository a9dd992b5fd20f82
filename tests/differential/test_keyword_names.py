"""`f(**mapping)` whose mapping has a key that is not a str: CPython's TypeError "keywords
must be strings" (found by test_dict's test_invalid_keyword_arguments, where the key was
turned into a str and the call went through), for a dict and a dict subclass made in the
frame; callees that check their arguments in another order make the frame fall back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.differential.helpers import check
from tracer.testing import assert_same_behavior


def dict_of_int_keywords(kind: int) -> Any:
    class Custom(dict):  # type: ignore[type-arg]
        pass

    invalid = {1: 2} if kind == 0 else Custom({1: 2})
    out = []
    try:
        dict(**invalid)
    except TypeError as e:
        out.append(str(e))
    target: dict[Any, Any] = {}
    try:
        target.update(**invalid)
    except TypeError as e:
        out.append(str(e))
    return out, target


def python_function_of_int_keywords(key: Any) -> Any:
    def g(**kw: Any) -> Any:
        return kw

    try:
        return g(**{key: 1, "a": 2})
    except TypeError as e:
        return str(e)


def str_keywords_still_pass(n: int) -> Any:
    def g(**kw: Any) -> Any:
        return sorted(kw.items())

    names = {"a": n, "b": n + 1}
    return g(**names), dict(**names)


@pytest.mark.parametrize("kind", [0, 1])
def test_dict_and_update_reject_non_str_keys(kind: int) -> None:
    check(dict_of_int_keywords, kind)


@pytest.mark.parametrize("key", [1, (1, 2), None])
def test_python_function_rejects_non_str_keys(key: Any) -> None:
    check(python_function_of_int_keywords, key)


def test_str_keywords_still_pass() -> None:
    check(str_keywords_still_pass, 3)


def update_merges_first(n: int) -> Any:
    target: dict[Any, Any] = {}
    try:
        target.update({"a": n}, **{1: 2})
    except TypeError as e:
        return str(e), target
    return None, target


def max_counts_first(n: int) -> Any:
    try:
        max(**{1: n})
    except TypeError as e:
        return str(e)
    return None


@pytest.mark.parametrize("fn", [update_merges_first, max_counts_first])
def test_other_callees_same_as_eager(fn: Any) -> None:
    assert_same_behavior(fn, 1)


def g_of_keywords(**kw: Any) -> Any:
    return kw


def merged_twice(case: int) -> Any:
    """DICT_MERGE's errors name the callee as CPython does ("mod.f()", "dict()", "print()")
    (the name was missing); a list after ** is not a mapping (it was merged as pairs)."""

    def h(**kw: Any) -> Any:
        return kw

    first: Any = {"a": 1}
    second: Any = {"a": 2}
    try:
        if case == 0:
            return g_of_keywords(**first, **second)
        if case == 1:
            return h(a=1, **second)
        if case == 2:
            return dict(**first, **second)
        if case == 3:
            return print(**first, **second)
        if case == 4:
            return h(**{1: 1}, **{1: 2})
        pairs: Any = [("a", 1)]
        return h(**pairs)
    except TypeError as e:
        return str(e)


@pytest.mark.parametrize("case", range(6))
def test_merge_errors_name_the_callee(case: int) -> None:
    check(merged_twice, case)
