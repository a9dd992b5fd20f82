"""The dispatcher written as bytecode (tracer.dispatch_emit) against the compiled text.

Differential properties: for generated guard sets over generated values, the emitted
dispatcher and the compiled text pick the same entry (or miss) on the same inputs, pass the same
arguments on, and raise the same exceptions on bad calls. Plus the shape of the emitted code:
its lines are the text's lines, its text is rendered only when read.
"""

from __future__ import annotations

import copy
import dis
import linecache
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracer
import tracer.runtime as torch
from guards import CompiledGuards, Guard, GuardKind, LocalSource
from guards.sources import (
    AttrSource,
    BuiltinSource,
    ClosureSource,
    GlobalsDictSource,
    GlobalSource,
    ModeStackListSource,
    Source,
)
from tests.guards.helpers import make_tensor
from tests.guards.test_properties import guard_everything, paths, perturbed, values
from tracer.dispatch import UNSET, DispatchPlan, Signature, _Generator, build_dispatch
from tracer.dispatch_emit import DispatchEmitter, Unsupported
from tracer.lazy_lines import LazyLines

K = GuardKind


class Entry:
    """What a dispatcher reads of a CacheEntry: its guards, its runner, its id."""

    def __init__(self, guards: CompiledGuards, index: int) -> None:
        self.guard_manager = guards
        self.compile_id = f"0/{index}"
        self.index = index

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return ("hit", self.index, args, kwargs)

    def __repr__(self) -> str:
        return f"Entry({self.index})"


def miss(frame_locals: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return ("miss", frame_locals, args, kwargs)


class Owner:
    """Stands in for the CompiledFunction a dispatcher belongs to (`function_changed`)."""

    def function_changed(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return ("refresh", args, kwargs)

    def miss(self, frame_locals: dict[str, Any], args: tuple[Any, ...], kwargs: Any) -> Any:
        return miss(frame_locals, args, kwargs)

    def __repr__(self) -> str:
        return "Owner()"


STACK: list[object] = []
G: dict[str, Any] = {"k": 1, "cfg": make_tensor((2,))}
B: dict[str, Any] = {"len": len}


def mode_stack() -> list[object]:
    return STACK


def entries_for(fn: types.FunctionType, guard_sets: Sequence[list[Guard]]) -> list[Entry]:
    return [
        Entry(
            CompiledGuards(
                guards,
                f_globals=G,
                builtins=B,
                closure=fn.__closure__ or (),
                mode_stack_fn=mode_stack,
            ),
            i,
        )
        for i, guards in enumerate(guard_sets)
    ]


def pair(
    fn: types.FunctionType, entries: Sequence[Entry]
) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """(emitted, compiled text) linear dispatchers for the same entries, newest first."""
    everyone = list(range(len(entries)))
    plan = DispatchPlan([], {}, [everyone, everyone])
    owner = Owner()
    generator = _Generator(fn, entries, plan, owner.miss)  # type: ignore[arg-type]
    emitted = DispatchEmitter(
        fn,
        Signature.of(fn.__code__),
        entries,  # type: ignore[arg-type]
        owner.miss,
        owner.function_changed,
        {**entries[0].guard_manager.roots, "___mode_stack": mode_stack},
        generator.needs_mode_stack,
        UNSET,
    ).function("<test-emitted>")
    text = generator.function("___dispatch_test", "<test-text>")
    return emitted, text


def outcome(call: Callable[[], Any]) -> Any:
    try:
        return ("returned", call())
    except Exception as error:  # noqa: BLE001 - the exception is the outcome
        return ("raised", type(error), str(error))


def same(value: Any, copied: Any) -> bool:
    """Equal up to identity of the tensors and the exact types of constants."""
    return repr(value) == repr(copied)


# ------------------------------------------------------------------ which entry, or a miss


def one_arg(v: Any) -> Any:
    return v


@given(st.lists(values, min_size=1, max_size=3), st.data())
def test_emitted_and_text_pick_the_same_entry(found: list[Any], data: st.DataObject) -> None:
    guard_sets = [guard_everything(value, LocalSource("v")) for value in found]
    entries = entries_for(one_arg, guard_sets)  # type: ignore[arg-type]
    emitted, text = pair(one_arg, entries)  # type: ignore[arg-type]
    value = data.draw(st.sampled_from(found))
    inputs = [value, copy.deepcopy(value)]
    inputs += [perturbed(value, path) for path in paths(value)]
    for given_value in inputs:
        got = outcome(lambda v=given_value: emitted(v))
        assert got == outcome(lambda v=given_value: text(v))
        # soundness and precision: the newest entry whose check passes, else a miss
        passing = [e.index for e in entries if e.guard_manager.check({"v": given_value})]
        expected = ("hit", passing[0]) if passing else ("miss",)
        assert got[1][: len(expected)] == expected


@given(values, st.data())
def test_one_entry_passes_on_copies_and_misses_on_one_change(
    value: Any, data: st.DataObject
) -> None:
    """tests/guards/test_properties.py through a dispatcher built by `build_dispatch`."""
    entries = entries_for(one_arg, [guard_everything(value, LocalSource("v"))])  # type: ignore[arg-type]
    dispatch, _plan = build_dispatch(one_arg, entries, miss)  # type: ignore[arg-type]
    assert isinstance(linecache.cache[dispatch.__code__.co_filename], LazyLines)
    assert dispatch(value)[:2] == ("hit", 0)
    assert dispatch(copy.deepcopy(value))[:2] == ("hit", 0)
    changed = perturbed(value, data.draw(st.sampled_from(paths(value))))
    assert dispatch(changed)[0] == "miss"


# ------------------------------------------------------------------ arguments and bad calls


def many(a, b=2, *args, c, d=4, **kw):  # type: ignore[no-untyped-def]
    return a


def posonly(a, /, b, *, c=3):  # type: ignore[no-untyped-def]
    return a


def star_only(*args):  # type: ignore[no-untyped-def]
    return args


def nothing():  # type: ignore[no-untyped-def]
    return 0


SIGNED = [many, posonly, star_only, nothing, one_arg]
arguments = st.lists(st.integers(0, 3), max_size=4)
keywords = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d", "e", "args"]), st.integers(), max_size=3
)


@given(st.sampled_from(SIGNED), arguments, keywords, st.booleans())
def test_emitted_and_text_bind_arguments_alike(
    fn: types.FunctionType, args: list[int], kwargs: dict[str, int], hit: bool
) -> None:
    """Same entry or miss, the same arguments passed on, fn's own TypeError on a bad call."""
    guards = [Guard(K.TYPE_MATCH, GlobalsDictSource(), dict)] if hit else []
    guards.append(Guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), "nope" if hit else "k"))
    emitted, text = pair(fn, entries_for(fn, [guards]))
    got = outcome(lambda: emitted(*args, **kwargs))
    assert got == outcome(lambda: text(*args, **kwargs))
    eager = outcome(lambda: fn(*args, **kwargs))
    if eager[0] == "raised":
        assert got == eager
    else:
        assert got[1][0] == ("hit" if hit else "miss")


def test_reassigned_defaults_start_over() -> None:
    def f(x, y=1):  # type: ignore[no-untyped-def]
        return x

    emitted, text = pair(f, entries_for(f, [[Guard(K.TYPE_MATCH, LocalSource("x"), int)]]))
    assert emitted(1) == text(1) == ("hit", 0, (1, 1), {})
    f.__defaults__ = (2,)
    assert emitted(1) == text(1) == ("refresh", (1, UNSET), {})


# ------------------------------------------------------------------ sources and guard kinds


class Config:
    def __init__(self) -> None:
        self.scale = 1.5
        self.items = (1, "a", None)


class Interrupting:
    @property
    def scale(self) -> float:
        raise KeyboardInterrupt


def test_every_source_and_kind_agrees() -> None:
    cell_value = make_tensor((3,))

    def f(x, cfg, xs):  # type: ignore[no-untyped-def]
        return cell_value, x, cfg, xs

    x = make_tensor((2,))
    cfg = Config()
    shared = [1]
    local = LocalSource
    guard_sets = [
        [
            Guard(K.TENSOR_MATCH, local("x"), _spec(x)),
            Guard(K.TYPE_MATCH, local("cfg"), Config),
            Guard(K.HASATTR, local("cfg"), "scale"),
            Guard(K.NO_HASATTR, local("cfg"), "missing"),
            Guard(K.EQUALS_MATCH, AttrSource(local("cfg"), "scale"), 1.5),
            Guard(K.EQUALS_MATCH, AttrSource(local("cfg"), "items"), (1, "a", None)),
            Guard(K.TYPE_MATCH, local("xs"), list),
            Guard(K.LENGTH_CHECK, local("xs"), 2),
            Guard(K.ID_MATCH, BuiltinSource("len"), len),
            Guard(K.EQUALS_MATCH, GlobalSource("k"), 1),
            Guard(K.DICT_NOT_CONTAINS, GlobalsDictSource(), "len"),
            Guard(K.ID_MATCH, ClosureSource("cell_value", 0), cell_value),
            Guard(K.MODE_STACK, _mode_stack_source(), ()),
            Guard(K.NO_ALIASING, local("xs"), (local("cfg"),)),
        ],
        [Guard(K.TYPE_MATCH, local("cfg"), Config), Guard(K.EQUALS_MATCH, local("x"), -0.0)],
        [Guard(K.TYPE_MATCH, local("cfg"), Interrupting), _attr_float("cfg", "scale", 2.0)],
    ]
    emitted, text = pair(f, entries_for(f, guard_sets))
    cases = [
        (x, cfg, [shared, shared]),
        (make_tensor((3,)), cfg, [1, 2]),
        (-0.0, cfg, []),
        (0.0, cfg, []),
        (x, Config(), [cfg, 2]),
    ]
    for args in cases:
        assert outcome(lambda a=args: emitted(*a)) == outcome(lambda a=args: text(*a))
    assert emitted(*cases[0])[:2] == ("hit", 0)
    assert emitted(*cases[2])[:2] == ("hit", 1)
    with pytest.raises(KeyboardInterrupt):  # not an Exception: no guard swallows it
        emitted(x, Interrupting(), [])
    with pytest.raises(KeyboardInterrupt):
        text(x, Interrupting(), [])
    assert sys.exc_info() == (None, None, None)


def _spec(tensor: Any) -> Any:
    from guards import TensorSpec

    return TensorSpec.of(tensor)


def _mode_stack_source() -> Source:
    return ModeStackListSource()


def _attr_float(name: str, attr: str, value: float) -> Guard:
    return Guard(K.EQUALS_MATCH, AttrSource(LocalSource(name), attr), value)


def test_a_source_the_emitter_does_not_know_falls_back_to_text() -> None:
    def f(x):  # type: ignore[no-untyped-def]
        return x

    guards = [Guard(K.TYPE_MATCH, LocalSource("not_a_parameter"), int)]
    with pytest.raises(Unsupported):
        pair(f, entries_for(f, [guards]))
    dispatch, _plan = build_dispatch(f, entries_for(f, [guards]), miss)  # type: ignore[arg-type]
    assert not isinstance(linecache.cache[dispatch.__code__.co_filename], LazyLines)
    assert dispatch(1)[0] == "miss"


# ------------------------------------------------------------------ the code itself


def _code_lines(code: types.CodeType) -> set[int]:
    return {line for _start, _end, line in code.co_lines() if line is not None}


@pytest.mark.parametrize("name", ["add", "mlp", "mode_stack", "dict_input", "mutation_heavy"])
def test_emitted_lines_are_the_texts_lines(name: str) -> None:
    from benchmarks.workloads import make_workloads

    workload = next(w for w in make_workloads(torch) if w.name == name)
    compiled = tracer.compile(workload.fn)
    with workload.call_context():
        compiled(*workload.make_args())
    code = type(compiled).__call__.__code__
    entry = linecache.cache[code.co_filename]
    assert isinstance(entry, LazyLines)
    source = "".join(linecache.getlines(code.co_filename))
    assert source.startswith("def ___dispatch_")
    scope: dict[str, Any] = {}
    exec(compile(source, "<text>", "exec"), scope)  # noqa: S102 - the dispatcher's own text
    text_code = next(v for v in scope.values() if isinstance(v, types.FunctionType)).__code__
    lines = source.splitlines()
    structural = {i + 1 for i, line in enumerate(lines) if line.strip() in ("while True:", "try:")}
    structural |= {i + 1 for i, line in enumerate(lines) if line.strip().startswith("while True:")}
    assert _code_lines(code) == _code_lines(text_code) - structural
    # the entry's call and the miss are on their own lines
    calls = [i.positions.lineno for i in dis.get_instructions(code) if i.opname == "CALL"]
    assert "return ___run0(" in lines[calls[-2] - 1]
    assert "return ___miss(" in lines[calls[-1] - 1]


def test_text_is_rendered_only_when_read() -> None:
    def f(x):  # type: ignore[no-untyped-def]
        return x + 1

    compiled = tracer.compile(f)
    compiled(torch.ones(2))
    entry = linecache.cache[type(compiled).__call__.__code__.co_filename]
    assert isinstance(entry, LazyLines)
    assert "not rendered" in repr(entry)
    linecache.checkcache()  # keeps it, unread
    assert "not rendered" in repr(linecache.cache[entry[3]])
    assert linecache.getline(entry[3], 1).startswith("def ___dispatch_")
    assert "not rendered" not in repr(entry)


def test_traceback_points_at_the_texts_line() -> None:
    def f(x):  # type: ignore[no-untyped-def]
        return x + 1

    compiled = tracer.compile(f)
    compiled(torch.ones(2))
    compiled.entries[0].run = _raises  # type: ignore[method-assign]
    compiled._install(compiled.entries)
    import traceback

    with pytest.raises(ValueError) as info:
        compiled(torch.ones(2))
    frames = traceback.extract_tb(info.value.__traceback__)
    dispatcher = next(fr for fr in frames if fr.filename.startswith("<modetrace-dispatch"))
    assert dispatcher.line is not None and dispatcher.line.startswith("return ___run0(")


def _raises(*args: Any) -> Any:
    raise ValueError("from the entry")


def test_far_exits_in_a_long_guard_block() -> None:
    """More guards than 255 code units: exits are re-placed along the way, all still taken."""
    keys = tuple(f"k{i}" for i in range(60))

    def f(d):  # type: ignore[no-untyped-def]
        return d

    guards = [
        Guard(K.TYPE_MATCH, LocalSource("d"), dict),
        Guard(K.DICT_KEYS_MATCH, LocalSource("d"), keys),
    ]
    guards += [Guard(K.EQUALS_MATCH, _item(LocalSource("d"), key), i) for i, key in enumerate(keys)]
    emitted, text = pair(f, entries_for(f, [guards, [Guard(K.TYPE_MATCH, LocalSource("d"), int)]]))
    d = {k: i for i, k in enumerate(keys)}
    assert emitted(d)[:2] == text(d)[:2] == ("hit", 0)
    for key in (keys[0], keys[30], keys[-1]):
        changed = {**d, key: -1}
        assert emitted(changed)[0] == text(changed)[0] == "miss"
    assert emitted(3)[:2] == ("hit", 1)
    jumps = [i for i in dis.get_instructions(emitted) if i.opname == "POP_JUMP_BACKWARD_IF_FALSE"]
    assert jumps and max(i.arg for i in jumps) <= 255


def test_far_exits_inside_tensor_guards() -> None:
    """TENSOR_MATCH guards past 255 code units: an exit is re-placed between two of one guard's
    four tests when needed, and every test of every guard still leaves on a change."""
    from guards.guard import TensorSpec

    tensors = [make_tensor((2, i + 1)) for i in range(14)]

    def f(xs):  # type: ignore[no-untyped-def]
        return xs

    guards = [
        Guard(K.TYPE_MATCH, LocalSource("xs"), list),
        Guard(K.LENGTH_CHECK, LocalSource("xs"), len(tensors)),
    ]
    guards += [
        Guard(K.TENSOR_MATCH, _item(LocalSource("xs"), i), TensorSpec.of(t))
        for i, t in enumerate(tensors)
    ]
    emitted, text = pair(f, entries_for(f, [guards]))
    assert emitted(list(tensors))[:2] == text(list(tensors))[:2] == ("hit", 0)
    for i in (0, 6, 13):
        for change in (
            make_tensor((2, i + 1), dtype=torch.float64),
            make_tensor((2, i + 2)),
            make_tensor((2, i + 1), requires_grad=True),
            object(),
        ):
            changed = [*tensors[:i], change, *tensors[i + 1 :]]
            assert emitted(changed)[0] == text(changed)[0] == "miss", (i, change)
    jumps = [i for i in dis.get_instructions(emitted) if i.opname == "POP_JUMP_BACKWARD_IF_FALSE"]
    assert len(jumps) >= 4 * len(tensors) - 4 and max(i.arg for i in jumps) <= 255
    exits = [i for i in dis.get_instructions(emitted) if i.opname == "JUMP_FORWARD"]
    assert len(exits) >= 3  # the first exit, then re-placed at least twice


def test_arguments_are_read_by_name() -> None:
    """Guards on `L['x']` built as separate source objects load the same argument, and a
    guard on a name that is no argument is not emitted (the text is compiled instead)."""

    def f(x, y):  # type: ignore[no-untyped-def]
        return x

    guards = [Guard(K.TYPE_MATCH, LocalSource("y"), int)]
    guards += [Guard(K.EQUALS_MATCH, LocalSource("x"), v) for v in (3,)]
    emitted, text = pair(f, entries_for(f, [guards]))
    for args in ((3, 1), (3, "1"), (4, 1), (3.0, 1)):
        assert emitted(*args)[:2] == text(*args)[:2], args
    loads = {i.argval for i in dis.get_instructions(emitted) if i.opname == "LOAD_FAST"}
    assert {"x", "y"} <= loads and not any(n.startswith("___v") for n in loads)
    stray = entries_for(f, [[Guard(K.TYPE_MATCH, LocalSource("z"), int)]])
    with pytest.raises(Unsupported):
        DispatchEmitter(
            f,
            Signature.of(f.__code__),
            stray,  # type: ignore[arg-type]
            miss,
            None,
            {**stray[0].guard_manager.roots, "___mode_stack": mode_stack},
            False,
            UNSET,
        ).function("<test-stray>")


def _item(base: Source, key: object) -> Source:
    from guards import ItemSource

    return ItemSource(base, key)


def test_a_replaced_dispatcher_lets_go_of_its_entries() -> None:
    """The lazy text's renderer holds the entries; it leaves linecache with the code."""
    import gc
    import weakref

    def f(x):  # type: ignore[no-untyped-def]
        return x + 1

    compiled = tracer.compile(f)
    compiled(torch.ones(2))
    filename = type(compiled).__call__.__code__.co_filename
    entry = weakref.ref(compiled.entries[0])
    compiled._install(())
    compiled.entries = ()
    gc.collect()
    assert filename not in linecache.cache
    assert entry() is None


def test_closure_guards_read_the_live_cell() -> None:
    """The emitted dispatcher loads a closure cell itself as a constant: a store through
    `nonlocal` changes what the next call sees, and the guard on it misses."""
    import tracer

    def make() -> tuple[Any, Any]:
        scale = 2

        def f(x: Any) -> Any:
            return x * scale

        def set_scale(value: Any) -> None:
            nonlocal scale
            scale = value

        return f, set_scale

    f, set_scale = make()
    compiled = tracer.compile(f)
    assert compiled(3) == 6
    set_scale(5)
    assert compiled(3) == 15
    set_scale(2)
    assert compiled(3) == 6
    set_scale("ab")
    assert compiled(3) == "ababab"
    assert len(compiled.entries) >= 2


def test_a_refresh_block_past_a_short_jump_falls_back_to_text() -> None:
    """The defaults check jumps over the refresh call with a one-byte distance: with enough
    keyword-only parameters it does not fit, and the dispatcher is compiled from its text."""
    scope: dict[str, Any] = {}
    keywords = ", ".join(f"k{i}={i}" for i in range(200))
    exec(f"def f(x, *, {keywords}):\n    return x", scope)  # noqa: S102 - a wide signature
    f = scope["f"]
    guards = [Guard(K.TYPE_MATCH, LocalSource("x"), int)]
    with pytest.raises(Unsupported, match="short jump"):
        pair(f, entries_for(f, [guards]))
    dispatch, _plan = build_dispatch(f, entries_for(f, [guards]), miss)  # type: ignore[arg-type]
    assert not isinstance(linecache.cache[dispatch.__code__.co_filename], LazyLines)
    assert dispatch(1)[:2] == ("hit", 0)
    assert dispatch("1")[0] == "miss"


def test_tensor_guards_of_several_kinds_in_one_entry() -> None:
    """TENSOR_MATCH tests reuse the bytes of an earlier guard with the same class, dtype and
    flag (`DispatchEmitter._tensor`); guards that differ in any of them get their own."""

    def f(a, b, c, d):  # type: ignore[no-untyped-def]
        return a

    tensors = [
        make_tensor((2,)),
        make_tensor((2,), dtype=torch.float64),
        make_tensor((3,), requires_grad=True),
        make_tensor((2,)),
    ]
    guards = [
        Guard(K.TENSOR_MATCH, LocalSource(n), _spec(t))
        for n, t in zip("abcd", tensors, strict=True)
    ]
    emitted, text = pair(f, entries_for(f, [guards]))
    assert emitted(*tensors)[:2] == text(*tensors)[:2] == ("hit", 0)
    for i in range(4):
        for change in (make_tensor((5,)), make_tensor((2,), requires_grad=True)):
            args = [*tensors[:i], change, *tensors[i + 1 :]]
            assert emitted(*args)[0] == text(*args)[0] == "miss", (i, change)
