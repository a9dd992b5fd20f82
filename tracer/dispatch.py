"""The hot path of a compiled function: one generated dispatcher with fn's exact signature.

`build_dispatch` turns a CompiledFunction's cache entries (newest first) into one function,
`def f(x, y): ...`, that binds the arguments the way Python binds them for fn (so a bad call
raises fn's own TypeError), runs the entries' guards inline with `L['x']` rendered as the local
`x`, and calls the first entry whose guards pass, else the miss handler. A hit costs one Python
call for dispatch plus the compiled function's own call. No dict of locals is built on a hit.

With several entries, a discriminating key picks the candidates in O(1) (see
NOTE [dispatch key] and notes/guards.md): the key is computed once per call from root sources
(arguments, globals, the mode stack), mapped to a bucket index, and a small decision tree of
integer compares jumps to that bucket's inlined guard blocks. The key is only a prefilter:
every candidate still runs its complete guard set, so dispatch is exactly as sound as the
per-entry checks, and among passing entries the newest runs, as with a linear scan.

NOTE [dispatch key]: for a root source s, an entry's *component* is what its guards pin about s
(its exact type, plus a tensor's dtype/shape, a constant's value, a container's length or an
object's identity, whichever varies among the entries of that type). The live component is
computed by code that reads only what those guards read, after the same exact-type test, so it
runs no user code: `type(v)`, slots of the runtime's Tensor, `len` of an exact list/tuple/dict,
the value of an exact int/str/bytes/bool/None/float, `id`. Invariant: if an entry's guards pass,
the live component equals the entry's component. Entries that pin nothing about a key source
are *wildcards* and are tried in every bucket. If computing the key raises, every entry is tried.
"""

from __future__ import annotations

import builtins
import dataclasses
import itertools
import linecache
import math
import operator
import re
import types
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from guards.builder import GuardBuilder, guard_lines
from guards.constants import type_label
from guards.guard import Guard, GuardKind, TensorSpec
from guards.sources import (
    MODE_STACK_FN,
    GlobalSource,
    LocalSource,
    ModeStackListSource,
    Source,
)
from tracer.dispatch_emit import DispatchEmitter, Unsupported
from tracer.exc import InternalError
from tracer.lazy_lines import LazyLines

if TYPE_CHECKING:
    from tracer.cache import CacheEntry

MissHandler = Callable[[dict[str, Any], tuple[Any, ...], dict[str, Any]], Any]

_VALUE_TYPES: tuple[type, ...] = (int, bool, str, bytes, float, type(None))
"""Exact types whose value is hashed and compared by CPython itself: safe as key components."""
_LEN_TYPES: tuple[type, ...] = (list, tuple, dict)
"""Exact types whose `len` is CPython's own."""
_MAX_KEY_SOURCES = 3
_serial = itertools.count()


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


_ABSENT: Any = _Absent()


@dataclasses.dataclass(frozen=True)
class Facts:
    """What one entry's guards pin about one root source (`_ABSENT`/None: not pinned)."""

    type: type | None = None
    value: Any = _ABSENT
    tensor: tuple[object, tuple[int, ...]] | None = None
    length: int | None = None
    ident: Any = _ABSENT


def entry_facts(guards: Sequence[Guard]) -> dict[Source, Facts]:
    """The facts an entry's planned guards pin about each root source."""
    found: dict[Source, dict[str, Any]] = {}
    for guard in guards:
        source = guard.source
        if not isinstance(source, LocalSource | GlobalSource | ModeStackListSource):
            continue
        facts = found.setdefault(source, {})
        for name, value in _facts_of(guard):
            facts.setdefault(name, value)
    return {source: Facts(**facts) for source, facts in found.items()}


def _facts_of(guard: Guard) -> list[tuple[str, Any]]:
    kind, expected = guard.kind, guard.expected
    if kind is GuardKind.TYPE_MATCH:
        return [("type", expected)]
    if kind is GuardKind.TENSOR_MATCH:
        spec: TensorSpec = expected
        return [("type", spec.cls), ("tensor", (spec.dtype, spec.shape))]
    if kind is GuardKind.EQUALS_MATCH:
        facts: list[tuple[str, Any]] = [("type", type(expected))]
        if type(expected) in _VALUE_TYPES and not (
            type(expected) is float and math.isnan(expected)
        ):
            facts.append(("value", expected))
        if type(expected) is tuple:
            facts.append(("length", len(expected)))
        return facts
    if kind is GuardKind.ID_MATCH:
        if expected is None:
            return [("type", type(None)), ("value", None)]
        return [("type", type(expected)), ("ident", expected)]
    if kind is GuardKind.LENGTH_CHECK:
        return [("length", expected)]
    if kind is GuardKind.DICT_KEYS_MATCH:
        return [("length", len(expected))]
    if kind is GuardKind.MODE_STACK:
        return [("type", list), ("length", len(expected))]
    return []


@dataclasses.dataclass(frozen=True)
class Facet:
    """How the key reads one exact type at one source: `tensor` (dtype and/or shape), `value`,
    `length`, `ident`, or None (the type's identity is the whole component)."""

    kind: str | None
    dtype: bool = False
    shape: bool = False

    def component(self, facts: Facts) -> Hashable:
        assert facts.type is not None
        if self.kind == "tensor":
            assert facts.tensor is not None
            dtype, shape = facts.tensor
            if self.dtype and self.shape:
                return (dtype, shape)
            part: Hashable = shape if self.shape else dtype
            return part
        if self.kind == "value":
            value: Hashable = facts.value
            return value
        if self.kind == "length":
            return facts.length
        if self.kind == "ident":
            return id(facts.ident)
        return id(facts.type)


def _facet(kind: type, group: list[Facts], tensor_type: type | None) -> Facet:
    """The richest facet every entry with this exact type supports, if it varies among them."""
    if kind is tensor_type and all(f.tensor is not None for f in group):
        dtypes = {id(f.tensor[0]) for f in group if f.tensor is not None}
        shapes = {f.tensor[1] for f in group if f.tensor is not None}
        if len(dtypes) > 1 or len(shapes) > 1:
            return Facet("tensor", dtype=len(dtypes) > 1, shape=len(shapes) > 1)
        return Facet(None)
    values = [f.value for f in group]
    if kind in _VALUE_TYPES and _ABSENT not in values and len({repr(v) for v in values}) > 1:
        return Facet("value")
    lengths = [f.length for f in group]
    if kind in _LEN_TYPES and None not in lengths and len(set(lengths)) > 1:
        return Facet("length")
    if all(f.ident is not _ABSENT for f in group) and len({id(f.ident) for f in group}) > 1:
        return Facet("ident")
    return Facet(None)


@dataclasses.dataclass
class KeySource:
    """One source of the key and the facet chosen for each exact type seen there."""

    source: Source
    facets: dict[type, Facet]

    def component(self, facts: Facts | None) -> Hashable:
        """The entry's component, or `_ABSENT` when the entry is a wildcard for this source."""
        absent: Hashable = _ABSENT
        if facts is None or facts.type is None:
            return absent
        if isinstance(self.source, ModeStackListSource):
            return facts.length if facts.length is not None else absent
        part: Hashable = self.facets[facts.type].component(facts)
        return part

    def describe(self) -> str:
        if isinstance(self.source, ModeStackListSource):
            return f"len({self.source.name})"
        shown = [
            f"{type_label(t)}:{f.kind}" + (f"({_tensor_parts(f)})" if f.kind == "tensor" else "")
            for t, f in self.facets.items()
            if f.kind is not None
        ]
        return f"{self.source.name} [{', '.join(shown) or 'type'}]"


def _tensor_parts(facet: Facet) -> str:
    return "+".join(p for p, on in (("dtype", facet.dtype), ("shape", facet.shape)) if on)


@dataclasses.dataclass
class DispatchPlan:
    """Which sources make the key and which entries each bucket tries, newest first.

    Bucket 0 holds the wildcards only (the key matched no entry); bucket 1 holds every entry
    (computing the key raised); buckets 2.. are one per distinct key.
    """

    key_sources: list[KeySource]
    table: dict[Hashable, int]
    buckets: list[list[int]]
    direct: bool = False
    """Set by the generator: the key maps straight to compiled code (NOTE [direct dispatch])."""

    def describe(self) -> str:
        if not self.key_sources:
            return f"linear scan of {len(self.buckets[0])} entries"
        sizes = [len(b) for b in self.buckets[2:]]
        keys = ", ".join(k.describe() for k in self.key_sources)
        how = ", direct" if self.direct else ""
        return f"key {keys}: {len(sizes)} buckets, largest {max(sizes, default=0)}{how}"


def plan_dispatch(
    entry_guards: Sequence[Sequence[Guard]], tensor_type: type | None = None
) -> DispatchPlan:
    """Choose key sources greedily (at most three) while each one shrinks the largest bucket."""
    facts = [entry_facts(guards) for guards in entry_guards]
    everyone = list(range(len(facts)))
    candidates = sorted({s for f in facts for s in f}, key=lambda s: s.name)
    keys = _key_sources(candidates, facts, tensor_type)
    chosen: list[KeySource] = []
    best = _score(chosen, facts)
    while len(chosen) < _MAX_KEY_SOURCES:
        options = [(_score([*chosen, k], facts), k) for k in keys]
        options = [(score, k) for score, k in options if k.source not in _sources(chosen)]
        if not options:
            break
        score, key = min(options, key=lambda o: (o[0], o[1].source.name))
        if score >= best:
            break
        chosen.append(key)
        best = score
    if not chosen:
        return DispatchPlan([], {}, [everyone, everyone])
    table, keyed, wildcards = _group(chosen, facts)
    buckets = [wildcards, everyone, *(sorted([*members, *wildcards]) for members in keyed)]
    return DispatchPlan(chosen, {k: i + 2 for i, k in enumerate(table)}, buckets)


def _sources(keys: list[KeySource]) -> set[Source]:
    return {k.source for k in keys}


def _key_sources(
    candidates: list[Source], facts: list[dict[Source, Facts]], tensor_type: type | None
) -> list[KeySource]:
    keys = []
    for source in candidates:
        by_type: dict[type, list[Facts]] = {}
        for entry in facts:
            found = entry.get(source)
            if found is not None and found.type is not None:
                by_type.setdefault(found.type, []).append(found)
        facets = {t: _facet(t, group, tensor_type) for t, group in by_type.items()}
        keys.append(KeySource(source, facets))
    return keys


def _group(
    keys: list[KeySource], facts: list[dict[Source, Facts]]
) -> tuple[dict[Hashable, list[int]], list[list[int]], list[int]]:
    table: dict[Hashable, list[int]] = {}
    wildcards: list[int] = []
    for index, entry in enumerate(facts):
        parts = [k.component(entry.get(k.source)) for k in keys]
        if any(p is _ABSENT for p in parts):
            wildcards.append(index)
            continue
        key = parts[0] if len(parts) == 1 else tuple(parts)
        table.setdefault(key, []).append(index)
    return table, list(table.values()), wildcards


def _score(keys: list[KeySource], facts: list[dict[Source, Facts]]) -> tuple[int, int]:
    """(largest number of entries one call may try, number of wildcards): lower is better."""
    if not keys:
        return (len(facts), 0)
    _table, keyed, wildcards = _group(keys, facts)
    return (max((len(m) for m in keyed), default=0) + len(wildcards), len(wildcards))


# ---------------------------------------------------------------- code generation


class _Unset:
    """The dispatcher's default for every parameter: "the caller left this argument out"."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unset>"


UNSET = _Unset()


class Signature(NamedTuple):
    """fn's parameters as the generated dispatcher declares and re-passes them (a NamedTuple:
    made once per install, and a frozen dataclass's initializer was most of `of`)."""

    params: list[str]
    """The parameter list as written (`x`, `/`, `*args`, `*`, `k`, `**kw`)."""
    names: list[str]
    positional: list[str]
    kwonly: list[str]
    star: str | None
    starstar: str | None

    @classmethod
    def of(cls, code: types.CodeType) -> Signature:
        pos = list(code.co_varnames[: code.co_argcount])
        if not (code.co_flags & 0x0C or code.co_kwonlyargcount or code.co_posonlyargcount):
            return cls(list(pos), list(pos), pos, [], None, None)  # positional parameters only
        end = code.co_argcount + code.co_kwonlyargcount
        kwonly = list(code.co_varnames[code.co_argcount : end])
        star = code.co_varnames[end] if code.co_flags & 0x04 else None
        end += 1 if star else 0
        starstar = code.co_varnames[end] if code.co_flags & 0x08 else None
        params = list(pos)
        if code.co_posonlyargcount:
            params.insert(code.co_posonlyargcount, "/")
        if star:
            params.append(f"*{star}")
        elif kwonly:
            params.append("*")
        params.extend(kwonly)
        if starstar:
            params.append(f"**{starstar}")
        names = [*pos, *kwonly, *([star] if star else []), *([starstar] if starstar else [])]
        return cls(params, names, pos, kwonly, star, starstar)

    def call_args(self, var: dict[str, str]) -> str:
        """Re-pass the bound arguments held in `var[name]` so fn binds them identically."""
        parts = [var[n] for n in self.positional]
        if self.star:
            parts.append(f"*{var[self.star]}")
        parts += [f"{n}={var[n]}" for n in self.kwonly]
        if self.starstar:
            parts.append(f"**{var[self.starstar]}")
        return ", ".join(parts)

    def locals_dict(self, var: dict[str, str]) -> str:
        return "{" + ", ".join(f"{n!r}: {var[n]}" for n in self.names) + "}"


def build_dispatch(
    fn: types.FunctionType,
    entries: Sequence[CacheEntry],
    miss: MissHandler,
) -> tuple[Callable[..., Any], DispatchPlan]:
    """The dispatcher for `entries` (newest first) of `fn`, and the plan it implements.

    NOTE [emitted dispatcher]: without a key (one entry, or entries that share nothing
    discriminating) the dispatcher is written as bytecode (tracer.dispatch_emit) and its text
    is rendered only when read; with a key, or whatever the emitter does not cover, the text is
    compiled."""
    if len(entries) < 2:  # one entry cannot be narrowed down by a key: plan_dispatch agrees
        everyone = list(range(len(entries)))
        plan = DispatchPlan([], {}, [everyone, everyone])
    else:
        import tracer.runtime  # here, not per call: most installs have one entry

        plan = plan_dispatch([e.guard_manager.guards for e in entries], tracer.runtime.Tensor)
    serial = next(_serial)
    name = f"___dispatch_{serial}"
    filename = f"<modetrace-dispatch {fn.__qualname__} #{serial}>"
    if not plan.key_sources:
        try:
            dispatch = DispatchEmitter(
                fn,
                Signature.of(fn.__code__),
                entries,
                miss,
                _refresh_of(miss),
                _roots(entries),
                _needs_mode_stack(entries),
                UNSET,
            ).function(filename)
        except Unsupported:
            pass
        else:

            def render() -> str:
                return _Generator(fn, entries, plan, miss).source(name)

            # The entry's renderer holds the entries: it goes when the code does (a replaced
            # dispatcher, or the last traceback through it), as graph modules' text does.
            lines = linecache.cache[filename] = LazyLines(filename, render)
            lines.forget_with(dispatch.__code__)
            return dispatch, plan
    dispatch = _Generator(fn, entries, plan, miss).function(name, filename)
    weakref.finalize(dispatch.__code__, linecache.cache.pop, filename, None)
    return dispatch, plan


def _refresh_of(miss: MissHandler) -> Callable[..., Any] | None:
    refresh: Callable[..., Any] | None = getattr(
        getattr(miss, "__self__", None), "function_changed", None
    )
    return refresh


def _needs_mode_stack(entries: Sequence[CacheEntry]) -> bool:
    for entry in entries:  # a loop, not `any(<generator>)`: one or two entries, no frame
        if entry.guard_manager.reads_mode_stack:
            return True
    return False


class _Generator:
    """Writes one dispatcher's source; see the module docstring for its shape."""

    def __init__(
        self,
        fn: types.FunctionType,
        entries: Sequence[CacheEntry],
        plan: DispatchPlan,
        miss: MissHandler,
    ) -> None:
        self.fn = fn
        self.entries = entries
        self.plan = plan
        self.sig = Signature.of(fn.__code__)
        self.builder = GuardBuilder()
        self.scope: dict[str, Any] = {
            "__builtins__": builtins.__dict__,
            "___miss": miss,
            "___UNSET": UNSET,
            "___fn": fn,
            "___code": fn.__code__,
            "___defaults": fn.__defaults__,
            "___kwdefaults": fn.__kwdefaults__,
            "___refresh": _refresh_of(miss),
            "___type": type,
            "___id": id,
            "___len": len,
            **_roots(entries),
        }
        for i, entry in enumerate(entries):
            self.scope[f"___run{i}"] = entry.run
        self.needs_mode_stack = _needs_mode_stack(entries)

    def source(self, name: str) -> str:
        """The dispatcher's text: fn's own parameter names, unless one is named like something
        the body reads (then a body with renamed parameters and a wrapper calling it; the
        body's lines keep their numbers either way)."""
        renamed = {n: f"___a{i}" for i, n in enumerate(self.sig.names)}
        inner = self._render(name, renamed, [renamed[n] for n in self.sig.names])
        inner_globals = _names_read(inner)
        clash = any(n.startswith("___") or n in inner_globals for n in self.sig.names)
        if clash:  # a parameter named like something the body reads: keep the body renamed
            outer = f"def {name}({', '.join(self.sig.params)}):\n"
            outer += f"    return {name}_body({', '.join(self.sig.names)})\n"
            return inner.replace(f"def {name}(", f"def {name}_body(", 1) + "\n" + outer
        # the same text with fn's own names: no second render of every guard line
        names = self.sig.names
        body = _ARG_OR_TEXT.sub(
            lambda m: m.group(1) or names[int(m.group(2))], inner.split("\n", 1)[1]
        )
        return f"def {name}({', '.join(self.sig.params)}):\n{body}"

    def function(self, name: str, filename: str) -> Callable[..., Any]:
        """The dispatcher compiled from its text, registered in linecache under `filename`."""
        code = self.fn.__code__
        source = self.source(name)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(_compile(source, filename), self.scope)  # noqa: S102 - our own source
        dispatch: types.FunctionType = self.scope[name]
        dispatch.__qualname__ = code.co_qualname  # fn's own TypeError messages on bad calls
        dispatch.__name__ = code.co_name
        dispatch.__defaults__ = tuple(UNSET for _ in self.fn.__defaults__ or ())
        dispatch.__kwdefaults__ = dict.fromkeys(self.fn.__kwdefaults__ or {}, UNSET) or None
        return dispatch

    def _render(self, name: str, var: dict[str, str], params: list[str]) -> str:
        lines = [f"def {name}({', '.join(params)}):"]
        body: list[str] = []
        if self.needs_mode_stack:
            body.append(f"___ms = {MODE_STACK_FN}()")
        args_expr = (
            f"({''.join(var[n] + ', ' for n in self.sig.positional)}"
            f"{'*' + var[self.sig.star] + ', ' if self.sig.star else ''})"
        )
        kwargs_expr = (
            f"{{{''.join(f'{n!r}: {var[n]}, ' for n in self.sig.kwonly)}"
            f"{'**' + var[self.sig.starstar] if self.sig.starstar else ''}}}"
        )
        miss = f"return ___miss({self.sig.locals_dict(var)}, {args_expr}, {kwargs_expr})"
        # NOTE [live defaults]: the dispatcher's defaults are a sentinel, so it can tell which
        # arguments the caller left out; those get fn's defaults as they are now. If
        # `fn.__defaults__` was reassigned since the dispatcher was made, the call starts over
        # (the cache was built under the old defaults). So it does if `fn.__code__` was: every
        # entry traced the old code.
        body += [
            (
                "if ___fn.__code__ is not ___code or ___fn.__defaults__ is not ___defaults"
                " or ___fn.__kwdefaults__ is not ___kwdefaults:"
            ),
            f"    return ___refresh({args_expr}, {kwargs_expr})",
            *self._fill_defaults(var),
        ]
        if not self.plan.key_sources:
            body += self._bucket(self.plan.buckets[1], var)
            body.append(miss)
        else:
            residual = self._uniform_residual(var)
            self.plan.direct = residual is not None
            if residual is not None:
                body += self._direct(residual, var, miss)
            else:
                body += ["try:", *_indent(self._key(var)), "except Exception:", "    ___i = 1"]
                body += self._tree(0, len(self.plan.buckets), var, miss)
        lines += _indent(body)
        return "\n".join(lines) + "\n"

    def _fill_defaults(self, var: dict[str, str]) -> list[str]:
        lines = []
        defaults = self.fn.__defaults__ or ()
        with_default = self.sig.positional[len(self.sig.positional) - len(defaults) :]
        for i, name in enumerate(with_default):
            self.scope[f"___dv{i}"] = defaults[i]
            lines.append(f"if {var[name]} is ___UNSET: {var[name]} = ___dv{i}")
        for i, name in enumerate(self.fn.__kwdefaults__ or {}):
            self.scope[f"___dk{i}"] = (self.fn.__kwdefaults__ or {})[name]
            lines.append(f"if {var[name]} is ___UNSET: {var[name]} = ___dk{i}")
        return lines

    def _key(self, var: dict[str, str], lookup: str = "___i = ___table_get({}, 0)") -> list[str]:
        """Lines computing the key and looking it up with `lookup` (a format string taking
        the key expression); by default the bucket index, 0 when no entry has that key."""
        self.scope["___table_get"] = self.plan.table.get  # bound once: no method lookup per call
        if len(self.plan.key_sources) == 1:  # look the component up where it is computed
            return self._component(0, self.plan.key_sources[0], var, lookup)
        lines: list[str] = []
        parts = []
        for n, key in enumerate(self.plan.key_sources):
            lines += self._component(n, key, var, f"___k{n} = {{}}")
            parts.append(f"___k{n}")
        lines.append(lookup.format(f"({', '.join(parts)})"))
        return lines

    def _uniform_residual(self, var: dict[str, str]) -> list[str] | None:
        """The guard lines every keyed bucket runs, when they are one and the same.

        NOTE [direct dispatch]: in the common case (one entry per shape, dtype or constant
        value) each key has exactly one entry, there are no wildcards, and once the tests the
        key proves are dropped, every entry's remaining guards read the same: `x._dtype is D
        and x.requires_grad is False`, the mode-stack length. Then the key maps straight to the
        entry's compiled code, the remaining guards are written once, and a hit costs the same
        for 2 entries as for 16: no decision tree. It stays exact: by the key invariant
        (NOTE [dispatch key]) no entry of another key can pass, so when the found entry's
        remaining guards fail, the call is a miss."""
        buckets = self.plan.buckets
        if buckets[0] or any(len(members) != 1 for members in buckets[2:]):
            return None
        lines = [self._guard_lines(members[0], var, self._implied(b, var))
                 for b, members in enumerate(buckets) if b >= 2]  # fmt: skip
        if any(other != lines[0] for other in lines[1:]):
            return None
        return lines[0]

    def _direct(self, residual: list[str], var: dict[str, str], miss: str) -> list[str]:
        """NOTE [direct dispatch]: key -> compiled code, one shared block of remaining guards;
        if computing the key raises, every entry is tried in turn, as in bucket 1."""
        runners = {k: self.entries[self.plan.buckets[i][0]].run for k, i in self.plan.table.items()}
        self.scope["___runner_get"] = runners.get
        self.scope["___KEY_FAILED"] = _KEY_FAILED
        return [
            "try:",
            *_indent(self._key(var, "___r = ___runner_get({})")),
            "except Exception:",
            "    ___r = ___KEY_FAILED",
            "if ___r is None:",
            f"    {miss}",
            "if ___r is not ___KEY_FAILED:",
            "    while True:",
            "        try:",
            *_indent(residual, 3),
            "        except Exception:",
            "            break",
            f"        return ___r({self.sig.call_args(var)})",
            f"    {miss}",
            *self._bucket(self.plan.buckets[1], var),
            miss,
        ]

    def _component(self, n: int, key: KeySource, var: dict[str, str], assign: str) -> list[str]:
        """Lines computing key source `n`'s live component and storing it with `assign` (a
        format string taking the component's expression)."""
        source = key.source
        if isinstance(source, ModeStackListSource):
            return [assign.format("___len(___ms)")]
        if isinstance(source, LocalSource):
            value = var.get(source.local_name, f"L[{source.local_name!r}]")
            lines = []
        else:
            value = f"___g{n}"
            lines = [f"{value} = {source.expr()}"]
        branches: dict[str, list[str]] = {}
        for kind, facet in key.facets.items():
            expr = _facet_expr(facet, value)
            if expr is not None:
                branches.setdefault(expr, []).append(self._bind(kind))
        lines.append(f"___t{n} = ___type({value})")
        word = "if"
        for expr, kinds in branches.items():
            test = " or ".join(f"___t{n} is {k}" for k in kinds)
            lines += [f"{word} {test}:", f"    {assign.format(expr)}"]
            word = "elif"
        default = assign.format(f"___id(___t{n})")
        lines += ["else:", f"    {default}"] if branches else [default]
        return lines

    def _bind(self, obj: object) -> str:
        name = f"___kt{len(self.scope)}"
        self.scope[name] = obj
        return name

    def _tree(self, lo: int, hi: int, var: dict[str, str], miss: str) -> list[str]:
        """A binary decision tree over bucket indices [lo, hi): log2(buckets) compares."""
        if hi - lo == 1:
            return [*self._bucket(self.plan.buckets[lo], var, self._implied(lo, var)), miss]
        mid = (lo + hi) // 2
        return [
            f"if ___i < {mid}:",
            *_indent(self._tree(lo, mid, var, miss)),
            *self._tree(mid, hi, var, miss),
        ]

    def _implied(self, bucket: int, var: dict[str, str]) -> dict[str, tuple[int, ...]]:
        """Tensor shapes that reaching keyed `bucket` already proves: argument local -> shape.

        The key reads `x._shape` only on the branch where `type(x) is Tensor`, and dict lookup
        found this bucket's key, so in it `type(x) is Tensor and x._shape == S` holds. (A key
        of another kind can never equal a shape: ints, type ids and values of other types; a
        tuple value equal to a shape fails the remaining `x._dtype` read and misses.)"""
        if bucket < 2:
            return {}
        import tracer.runtime

        key = next(k for k, i in self.plan.table.items() if i == bucket)
        implied: dict[str, tuple[int, ...]] = {}
        single = len(self.plan.key_sources) == 1
        for n, key_source in enumerate(self.plan.key_sources):
            facet = key_source.facets.get(tracer.runtime.Tensor)
            source = key_source.source
            if facet is None or facet.kind != "tensor" or not facet.shape:
                continue
            if not isinstance(source, LocalSource) or source.local_name not in var:
                continue
            component: Any = key if single else key[n]  # type: ignore[index]
            shape = component[1] if facet.dtype else component
            if isinstance(shape, tuple):
                implied[var[source.local_name]] = shape
        return implied

    def _bucket(
        self,
        members: list[int],
        var: dict[str, str],
        implied: dict[str, tuple[int, ...]] | None = None,
    ) -> list[str]:
        lines: list[str] = []
        for index in members:
            entry = self.entries[index]
            checks = self._guard_lines(index, var, implied or {})
            lines += [
                f"while True:  # entry {entry.compile_id}",
                "    try:",
                *_indent(checks, 2),
                "    except Exception:",
                "        break",
                f"    return ___run{index}({self.sig.call_args(var)})",
            ]
        return lines

    def _guard_lines(
        self, index: int, var: dict[str, str], implied: dict[str, tuple[int, ...]]
    ) -> list[str]:
        """Entry `index`'s guard lines with arguments read as locals, failing with `break`,
        less the tests its bucket's key proves."""
        roots: dict[Source, str] = {LocalSource(n): v for n, v in var.items()}
        if self.needs_mode_stack:
            roots[ModeStackListSource()] = "___ms"
        guards = self.entries[index].guard_manager.guards
        checks = guard_lines(guards, self.builder, roots=roots, fail="break")
        self.scope.update(self.builder.bindings)
        return [_drop_implied(line, implied) for line in checks]


class _KeyFailed:
    def __repr__(self) -> str:
        return "<computing the dispatch key raised>"


_KEY_FAILED = _KeyFailed()


def _drop_implied(line: str, implied: dict[str, tuple[int, ...]]) -> str:
    """Remove from one TENSOR_MATCH line the type and shape tests the bucket's key proves."""
    if "# TENSOR_MATCH" not in line:
        return line
    for v, shape in implied.items():
        type_test = re.compile(rf"\(type\({re.escape(v)}\) is \w+ and ")
        shape_test = f" and {v}._shape == {shape!r}"
        if type_test.search(line) and shape_test in line:
            line = type_test.sub("(", line, count=1).replace(shape_test, "", 1)
    return line


def _facet_expr(facet: Facet, value: str) -> str | None:
    if facet.kind == "tensor":
        if facet.dtype and facet.shape:
            return f"({value}._dtype, {value}._shape)"
        return f"{value}._shape" if facet.shape else f"{value}._dtype"
    if facet.kind == "value":
        return value
    if facet.kind == "length":
        return f"___len({value})"
    if facet.kind == "ident":
        return f"___id({value})"
    return None


def _roots(entries: Sequence[CacheEntry]) -> dict[str, Any]:
    """G, B, C and the mode-stack accessor: the same objects for every entry of one function."""
    roots: dict[str, Any] = {}
    if entries:  # the first entry's roots but None, with builtins (no frame per root)
        first = entries[0].guard_manager.roots
        kept = map(operator.is_not, first.values(), itertools.repeat(None))
        roots = dict(itertools.compress(first.items(), kept))
    for entry in entries[1:]:
        for name, value in entry.guard_manager.roots.items():
            if value is None:
                continue
            if roots.setdefault(name, value) is not value:
                raise InternalError(f"cache entries of one function disagree on root {name}")
    roots.setdefault(MODE_STACK_FN, None)
    return roots


def _indent(lines: list[str], levels: int = 1) -> list[str]:
    pad = "    " * levels
    return [pad + line for line in lines]


_NOT_CODE = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|#[^\n]*")
"""String literals (as `repr` writes them) and comments: text that never reads a name."""
_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
"""An identifier not preceded by a dot (an attribute name) or by a digit or letter."""


_ARG_OR_TEXT = re.compile(rf"({_NOT_CODE.pattern})|\b___a(\d+)\b")
"""A string literal or comment (group 1, kept as it is: a guarded string may read `___a0`), or
a renamed argument (group 2); no other generated name looks like `___a<n>`."""


def _names_read(source: str) -> set[str]:
    """Every name the generated `source` might read as a global, over-approximated.

    A parameter named like one of these would shadow it if the body used fn's own names, so
    the dispatcher then keeps its body renamed. Scanning our own source text is exact enough
    (keywords and local names only add false clashes, which cost one extra call per dispatch)
    and an order of magnitude cheaper than compiling a probe to read `co_names`."""
    return set(_NAME.findall(_NOT_CODE.sub(" ", source)))


def _compile(source: str, filename: str) -> types.CodeType:
    return builtins.compile(source, filename, "exec")
