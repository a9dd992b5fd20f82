"""Exceptions raised and handled inside the traced frame (issue 22, point 2): `try`/`except`/
`else`/`finally`, nested `try`, `raise ... from ...`, bare `raise`, exceptions as values, and
`with` blocks whose body raises, traced through CPython 3.11's exception table.

Each test first asserts that the construct is really in the bytecode (a non-empty exception
table and the handler opcodes), then that compiled == eager (`assert_same_behavior`: return
value or exception type and message, arguments afterwards), traced whole with fullgraph=True
where the point is that it traces."""

# The forms under test are the point: an unused `as b`, a handler that only re-raises, `raise 42`,
# `except 3:`, a context manager's plain signatures, a lazy map (a generator is no iterator
# yet), a for loop, a raise in a handler without `from`
# ruff: noqa: F841, TRY203, B016, B030, PYI034, PYI036, C417, PERF401, B904

from __future__ import annotations

import dis
import sys
from typing import Any

import pytest

import tracer
from tests.differential.helpers import check
from tracer.runtime.overrides import TorchFunctionMode
from tracer.testing import assert_same_behavior


def assert_handles(fn: Any, *opnames: str) -> None:
    """`fn` has an exception table and uses the handler opcodes `opnames` (PUSH_EXC_INFO too)."""
    assert fn.__code__.co_exceptiontable, f"{fn.__name__} has no exception table"
    used = {inst.opname for inst in dis.get_instructions(fn)}
    missing = {"PUSH_EXC_INFO", *opnames} - used
    assert not missing, f"{fn.__name__} does not use {missing}"


def break_reason(fn: Any, *args: Any) -> str:
    """Why `fn` does not trace whole (fullgraph=True raises the break)."""
    with pytest.raises(tracer.Unsupported) as info:
        tracer.compile(fn, fullgraph=True)(*args)
    return str(info.value)


# -- try / except / else / finally -------------------------------------------------------------
def lookup(d: dict[str, int], k: str, log: list[Any]) -> Any:
    try:
        v = d[k]
    except KeyError as e:
        v = ("missing", e.args, str(e), repr(e), type(e) is KeyError, isinstance(e, LookupError))
    else:
        v = ("found", v)
    finally:
        log.append("finally")
    return v


@pytest.mark.parametrize("k", ["a", "b"])
def test_except_else_finally(k: str) -> None:
    assert_handles(lookup, "CHECK_EXC_MATCH", "POP_EXCEPT", "RERAISE")
    check(lookup, {"a": 1}, k, [])


def name_is_deleted(xs: list[int]) -> Any:
    try:
        xs[10]
    except IndexError as e:
        message = str(e)
    try:
        e  # noqa: B018 - `except ... as e` deleted the name
    except NameError as n:
        return message, str(n)
    return message


def test_except_as_unbinds_the_name() -> None:
    assert_handles(name_is_deleted, "CHECK_EXC_MATCH", "DELETE_FAST")
    check(name_is_deleted, [1, 2])


def finally_on_the_way_out(d: dict[str, int], log: list[str]) -> Any:
    try:
        return d["missing"]
    except ValueError:
        return "not this one"
    finally:
        log.append("cleanup")


def test_unmatched_exception_runs_finally_and_leaves_the_frame() -> None:
    assert_handles(finally_on_the_way_out, "CHECK_EXC_MATCH", "RERAISE")
    check(finally_on_the_way_out, {"a": 1}, [])


def divide_all(xs: list[float]) -> Any:
    out = []
    for x in xs:
        try:
            out.append(1 / x)
        except ZeroDivisionError as e:
            out.append(str(e))
            continue
        finally:
            out.append("after")
        out.append("next")
    return out


def test_handler_inside_a_loop() -> None:
    assert_handles(divide_all, "CHECK_EXC_MATCH", "POP_EXCEPT")
    check(divide_all, [1.0, 0.0, 2.0, 0])


def nested(xs: list[int], d: dict[str, int]) -> Any:
    try:
        try:
            return d[str(xs[5])]
        except KeyError:
            return "inner"
    except (TypeError, IndexError) as e:
        return ("outer", type(e).__name__, e.args)


@pytest.mark.parametrize("xs", [[1, 2], [1, 2, 3, 4, 5, 6]])
def test_nested_try_inner_does_not_match(xs: list[int]) -> None:
    assert_handles(nested, "CHECK_EXC_MATCH")
    check(nested, xs, {})


def next_or_default(xs: list[int]) -> Any:
    it = iter(xs)
    taken = []
    while True:
        try:
            taken.append(next(it))
        except StopIteration as e:
            return taken, e.args
    return None


def test_stop_iteration_from_next_is_caught() -> None:
    assert_handles(next_or_default, "CHECK_EXC_MATCH")
    check(next_or_default, [3, 4])


# -- raising: user functions, user classes, raise from, bare raise -------------------------
class AppError(ValueError):
    pass


def validate(x: int) -> int:
    if x > 1:
        raise AppError("too big", x)
    return x


def caller_catches(x: int) -> Any:
    try:
        return validate(x)
    except ValueError as e:
        return ("caught", type(e).__name__, e.args, isinstance(e, AppError))


@pytest.mark.parametrize("x", [0, 5])
def test_exception_from_an_inlined_function(x: int) -> None:
    assert_handles(caller_catches, "CHECK_EXC_MATCH")
    check(caller_catches, x)


def raise_from(x: int) -> Any:
    try:
        try:
            validate(x)
        except ValueError as e:
            raise KeyError("wrapped") from e
    except KeyError as k:
        cause = k.__cause__
        return (k.args, type(cause).__name__, cause.args, k.__suppress_context__,
                k.__context__ is cause)  # fmt: skip
    return "no error"


@pytest.mark.parametrize("x", [0, 5])
def test_raise_from_sets_cause_context_and_suppress(x: int) -> None:
    assert_handles(raise_from, "CHECK_EXC_MATCH", "RAISE_VARARGS")
    check(raise_from, x)


def raise_from_none(d: dict[str, int]) -> Any:
    try:
        try:
            d["k"]
        except KeyError:
            raise ValueError("plain") from None
    except ValueError as v:
        return v.__cause__, v.__suppress_context__, type(v.__context__).__name__


def test_raise_from_none() -> None:
    assert_handles(raise_from_none, "CHECK_EXC_MATCH")
    check(raise_from_none, {})


def implicit_context() -> Any:
    try:
        raise ValueError("a")
    except ValueError:
        try:
            raise TypeError("b")
        except TypeError as t:
            return type(t.__context__).__name__, t.__context__.args, t.__suppress_context__


def test_raise_in_a_handler_sets_context() -> None:
    assert_handles(implicit_context, "CHECK_EXC_MATCH")
    check(implicit_context)


def reraise_cuts_the_cycle() -> Any:
    try:
        try:
            raise ValueError("a")
        except ValueError as a:
            try:
                raise TypeError("b")
            except TypeError as b:
                raise a  # raising `a` while handling `b` (whose context is `a`)
    except ValueError as again:
        ctx = again.__context__
        return type(ctx).__name__, ctx.__context__


def test_raising_an_exception_in_its_own_context_chain() -> None:
    assert_handles(reraise_cuts_the_cycle, "CHECK_EXC_MATCH")
    check(reraise_cuts_the_cycle)


def bare_reraise(d: dict[str, int], log: list[str]) -> Any:
    try:
        try:
            return d["x"]
        except KeyError:
            log.append("seen")
            raise
    except LookupError as e:
        return "outer", e.args


def test_bare_raise_reraises_the_same_exception() -> None:
    assert_handles(bare_reraise, "CHECK_EXC_MATCH", "RAISE_VARARGS")
    check(bare_reraise, {}, [])


def bare_reraise_escapes(x: float) -> Any:
    try:
        return 1 / x
    except ZeroDivisionError:
        raise


@pytest.mark.parametrize("x", [0.0, 2.0])
def test_bare_raise_leaves_the_frame(x: float) -> None:
    assert_handles(bare_reraise_escapes, "RAISE_VARARGS")
    check(bare_reraise_escapes, x)


def raise_class_and_bad_values(kind: str) -> Any:
    try:
        if kind == "class":
            raise IndexError
        raise 42  # type: ignore[misc]
    except (IndexError, TypeError) as e:
        return type(e).__name__, e.args, str(e)


@pytest.mark.parametrize("kind", ["class", "int"])
def test_raise_a_class_or_a_non_exception(kind: str) -> None:
    assert_handles(raise_class_and_bad_values, "CHECK_EXC_MATCH")
    check(raise_class_and_bad_values, kind)


def catch_a_non_class(d: dict[str, int]) -> Any:
    try:
        return d["x"]
    except 3:  # type: ignore[misc]
        return "never"


def test_except_on_a_non_class_is_a_type_error() -> None:
    """CPython's TypeError, raised while handling the KeyError (and chained to it)."""
    assert_handles(catch_a_non_class, "CHECK_EXC_MATCH")
    check(catch_a_non_class, {})


# -- with blocks whose body raises -----------------------------------------------------------
class Recorder:
    def __init__(self, log: list[Any], suppress: bool) -> None:
        self.log = log
        self.suppress = suppress

    def __enter__(self) -> Recorder:
        self.log.append("enter")
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        self.log.append(("exit", exc_type, None if exc is None else exc.args))
        return self.suppress


def with_block(log: list[Any], suppress: bool, x: int) -> Any:
    with Recorder(log, suppress):
        log.append(validate(x))
    return log


@pytest.mark.parametrize(("suppress", "x"), [(True, 0), (True, 5), (False, 5)])
def test_with_on_a_user_context_manager(suppress: bool, x: int) -> None:
    assert_handles(with_block, "WITH_EXCEPT_START", "RERAISE")
    check(with_block, [], suppress, x)


class Quiet(TorchFunctionMode):
    pass


def mode_block_raises(d: dict[str, int]) -> Any:
    with Quiet():
        return d["missing"]


def test_with_a_mode_when_the_block_raises_pops_it_once() -> None:
    assert_handles(mode_block_raises, "WITH_EXCEPT_START")
    check(mode_block_raises, {})


def mode_block_caught(d: dict[str, int]) -> Any:
    try:
        with Quiet():
            d["missing"]
    except KeyError as e:
        return e.args


def test_with_a_mode_inside_try() -> None:
    assert_handles(mode_block_caught, "WITH_EXCEPT_START", "CHECK_EXC_MATCH")
    check(mode_block_caught, {})


# -- what falls back, with a reason ----------------------------------------------------------
def chained_escape(d: dict[str, int]) -> Any:
    try:
        return d["k"]
    except KeyError as e:
        raise ValueError("no k") from e


def chain_of(error: BaseException | None) -> list[Any]:
    chain = []
    while error is not None:
        cause = error.__cause__
        chain.append((type(error), error.args, cause and cause.args, error.__suppress_context__))
        error = error.__context__
    return chain


def raised_chain(fn: Any, handling: bool) -> list[Any]:
    """The chain of what `fn({})` raises, called plainly or while handling an OSError."""
    try:
        if not handling:
            return fn({})
        try:
            raise OSError("caller")
        except OSError:
            return fn({})
    except Exception as e:  # noqa: BLE001 - the exception is the value under test
        return chain_of(e)


def chained_from_a_fresh_one(d: dict[str, int]) -> Any:
    try:
        try:
            return d["k"]
        except KeyError:
            raise TypeError("t")
    except TypeError:
        raise ValueError("v") from IndexError("i")


@pytest.mark.parametrize("fn", [chained_escape, chained_from_a_fresh_one, catch_a_non_class])
@pytest.mark.parametrize("handling", [False, True])
def test_an_escaping_chained_exception_keeps_its_chain(fn: Any, handling: bool) -> None:
    """The compiled code raises the chain again, so each __context__ is what eager code sets,
    the innermost one included (the exception the caller is handling)."""
    assert_handles(fn, "CHECK_EXC_MATCH")
    compiled = tracer.compile(fn, fullgraph=True)
    eager = raised_chain(fn, handling)
    assert len(eager) >= 2
    assert raised_chain(compiled, handling) == eager
    assert raised_chain(compiled, handling) == eager
    check(fn, {})


def reads_traceback(d: dict[str, int]) -> Any:
    try:
        return d["k"]
    except KeyError as e:
        return e.__traceback__ is None


def reads_exc_info(d: dict[str, int]) -> Any:
    try:
        return d["k"]
    except KeyError:
        return sys.exc_info()[0]


@pytest.mark.parametrize(
    ("fn", "word"), [(reads_traceback, "traceback"), (reads_exc_info, "exc_info")]
)
def test_tracebacks_fall_back_with_a_reason(fn: Any, word: str) -> None:
    assert_handles(fn, "CHECK_EXC_MATCH")
    assert word in break_reason(fn, {})
    assert_same_behavior(fn, {})


# -- what a consumer stored before the exception stays stored, as in CPython --------------------
def reciprocal(x: int) -> int:
    return 10 // x


def extend_part_way(xs: list[int], out: list[int]) -> Any:
    try:
        out.extend(map(reciprocal, xs))
    except ZeroDivisionError as e:
        return out, str(e)
    return out


def iadd_part_way(xs: list[int]) -> Any:
    out: list[int] = []
    try:
        out += map(reciprocal, xs)
    except ZeroDivisionError:
        return out
    return None


def update_part_way(xs: list[int], d: dict[int, int]) -> Any:
    try:
        d.update(map(lambda x: (x, reciprocal(x)), xs))
    except ZeroDivisionError:
        return d
    return None


@pytest.mark.parametrize("fn", [extend_part_way, iadd_part_way, update_part_way])
def test_items_before_the_exception_stay(fn: Any) -> None:
    assert_handles(fn, "CHECK_EXC_MATCH")
    args = {extend_part_way: ([], []), update_part_way: ({},)}.get(fn, ())
    check(fn, [1, 2, 0, 5], *args)


def set_update_part_way(xs: list[int]) -> Any:
    s: set[int] = set()
    try:
        s.update(map(reciprocal, xs))
    except ZeroDivisionError:
        return sorted(s)
    return None


def test_a_set_changed_part_way_falls_back() -> None:
    assert_handles(set_update_part_way, "CHECK_EXC_MATCH")
    assert "part-way" in break_reason(set_update_part_way, [1, 2, 0, 5])
    assert_same_behavior(set_update_part_way, [1, 2, 0, 5])


# -- StopIteration from a user __next__ ends a loop; next() lets it reach the handler ---------
class Count:
    def __init__(self, n: int) -> None:
        self.i = 0
        self.n = n

    def __iter__(self) -> Count:
        return self

    def __next__(self) -> int:
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i


class Bag:
    def __init__(self, xs: list[int]) -> None:
        self.xs = xs

    def __iter__(self) -> Any:
        return iter(self.xs)


def loop_over_a_user_iterator(n: int) -> Any:
    out = [v * 2 for v in Count(n)]
    for v in Bag([3, 1]):
        out.append(v + 1)
    c = Count(n)
    return out, iter(c) is c, list(c), next(c, "done"), sorted(Bag([2, 1]))


def next_until_stop(n: int) -> Any:
    it = Count(n)
    try:
        while True:
            next(it)
    except StopIteration as e:
        return it.i, e.args


def test_a_user_iterator_ends_a_loop() -> None:
    assert "RAISE_VARARGS" in {i.opname for i in dis.get_instructions(Count.__next__)}
    check(loop_over_a_user_iterator, 2)


def test_stop_iteration_from_a_user_next_reaches_the_handler() -> None:
    assert_handles(next_until_stop, "CHECK_EXC_MATCH")
    check(next_until_stop, 3)


def exception_values(d: dict[str, int]) -> Any:
    try:
        d["k"]
    except LookupError as e:
        text = f"{e}|{e!r}|{e.__class__.__name__}|{type(e).__name__}"
        same = e
        return text, e.args[0], e == same, e != same, e == 3, e == KeyError("k"), bool(e)


def test_exceptions_as_values_compare_and_print_as_in_cpython() -> None:
    assert_handles(exception_values, "CHECK_EXC_MATCH")
    check(exception_values, {})
