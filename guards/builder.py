"""Guard set -> the source of one straight-line check function, run on every call.

This is the one place a guard kind becomes Python source: the check of a cache entry
(guards.manager) is this text compiled with `compile()`, and the per-call path calls it.

`GuardBuilder` has one method per GuardKind (named after it) that turns a guard into a Python
expression over the source's value. `build_check` lays those out in the plan's order
(guards.tree) as a condition `<guard> and <guard> ...`, reading each source once: into a local
written as a walrus at its first use (`type(___v3 := ___v1.scale) is float`) when the check
reads the value more than once, else inside the one guard or access that reads it
(`B['len'] is ___c0_len`). It wraps the body in one `try` so an exception (a key or attribute
gone from a changed object) is a failed guard, never a crash. No guard calls user code: types
are compared with `type(v) is T`, constants are compared only after their exact type,
containers are measured only after a TYPE_MATCH to a builtin type, tensors are read through
their slots.

NOTE [one guard a line, few conditions]: the check is `if (<guard> and <guard> ...): return
True`, a long one first cut into `if not (...): return False` conditions (`_CONDITION_CHARS`),
each guard on a line of its own that ends with its kind and source in a comment, so a
traceback or a debugger points at the failing guard's own line. It is conditions rather than a
statement per guard because `compile()`, which every first call pays for, parses and
assembles each statement at about the cost of its expression again; the bytecode is the same
jumps either way.
"""

from __future__ import annotations

import builtins
import dataclasses
import re
import types
from collections.abc import Iterable

from guards.constants import HELPERS, constant_match_expr, is_constant, own_name, type_label
from guards.guard import (
    FactsSpec,
    FunctionSpec,
    GlobalStateSpec,
    Guard,
    GuardKind,
    TensorSpec,
    WeakPin,
    generic_getattribute,
)
from guards.mode_stack import mode_stack_check_expr
from guards.sources import MODE_STACK_FN, MODE_STACK_LEN_FN, ModeStackListSource, Source
from guards.tree import plan_guards

_NON_WORD = re.compile(r"\W")

_HOIST_MARK = "\x00"
"""Brackets a hoisted read's name while its first guard is rendered (`\\x00___v3\\x00`): no
`repr`, bound name or source access contains a NUL, so the first use found in the guard's
text is a real use, never part of a string constant."""

ROOT_NAMES = ("G", "B", "C", MODE_STACK_FN, MODE_STACK_LEN_FN)
"""Globals the caller binds besides `bindings`: globals, builtins, closure, the mode stack's
accessor and its length's."""


_TYPE_GETATTRIBUTE = type.__dict__["__getattribute__"]


def has_instance_attr(obj: object, name: str) -> bool:
    """Whether `obj` itself holds attribute `name`, without `__getattr__`, `__getattribute__`
    overrides or properties: look in the instance `__dict__` (fetched with object's own
    `__getattribute__`), then for a filled `__slots__` member on its type."""
    try:
        instance_dict = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        instance_dict = None
    if type(instance_dict) is dict and name in instance_dict:
        return True
    for klass in type(obj).__mro__:
        member = klass.__dict__.get(name)
        if type(member) is types.MemberDescriptorType:
            try:
                member.__get__(obj, type(obj))
            except AttributeError:
                return False
            return True
    return False


@dataclasses.dataclass(frozen=True)
class CheckFunction:
    """The generated check: its text and the constants it refers to."""

    text: str
    bindings: dict[str, object]
    guards: list[Guard]


class GuardBuilder:
    """Turns one guard into an expression over `v`, the local holding its source's value.

    Objects the expression needs (types, identity-matched objects, dtypes) are bound into the
    function's globals under stable names (`___c2_Config`), numbered in first-use order.
    """

    def __init__(self) -> None:
        self.bindings: dict[str, object] = {**HELPERS, "___has_attr": has_instance_attr}
        self._names_by_id: dict[int, str] = {}
        self._count = 0

    def bind(self, obj: object, hint: str = "") -> str:
        """Make `obj` a global of the check function (strong reference); return its name."""
        if issubclass(type(obj), type):  # (its type, not `__class__`: a user's may lie)
            builtin_name: str = obj.__name__  # type: ignore[attr-defined]
            if getattr(builtins, builtin_name, None) is obj:
                return builtin_name
        name = self._names_by_id.get(id(obj))
        if name is None:
            suffix = _NON_WORD.sub("_", hint)[:30]
            name = f"___c{self._count}_{suffix}" if suffix else f"___c{self._count}"
            self._count += 1
            self._names_by_id[id(obj)] = name
            self.bindings[name] = obj
        return name

    def code_for(self, guard: Guard, v: str) -> str:
        method = getattr(self, _KIND_NAME[guard.kind])
        code: str = method(guard, v)
        return code

    def TYPE_MATCH(self, guard: Guard, v: str) -> str:
        kind: type = guard.expected
        name = self.bind(kind, type_label(kind))
        return f"type({v}) is {name}{self._still_generic(guard, name)}"

    def ID_MATCH(self, guard: Guard, v: str) -> str:
        expected = guard.expected
        if expected is None:
            return f"{v} is None"
        test = self.is_pinned(v, expected)
        if guard.pins_generic_reads:  # a class, pinned strongly: `bind` gives its name again
            test += self._still_generic(guard, self.bind(expected, _hint(expected)))
        return test

    def is_pinned(self, v: str, pinned: object) -> str:
        """`v is obj` for an object an identity guard holds, or `v is ref() is not None` for a
        WeakPin (NOTE [weak pins]): the weak reference called once, and a dead one returns
        None, which must not pass a None at the source."""
        if type(pinned) is not WeakPin:
            return f"{v} is {self.bind(pinned, _hint(pinned))}"
        obj = pinned.get()
        ref = self.bind(pinned.ref, _hint(obj) if obj is not None else pinned.cls.__name__)
        return f"{v} is {ref}() is not None"

    def _still_generic(self, guard: Guard, name: str) -> str:
        """NOTE [generic attribute reads]: what a trace read from an object of a class (pinned
        by a TYPE_MATCH on the object, or by an ID_MATCH on the class for one made in the
        frame) it read as `object.__getattribute__` finds it. A `__getattribute__` set later
        on the class or a base takes every read, so the pin also checks that the class still
        finds `object`'s: `and <cls>.__getattribute__ is <object's>`, one attribute read the
        type's lookup cache answers, in the guard that pins the class anyway (a guard of its
        own would cost every trace that reads an attribute a guard to plan, render and
        compile). Added when the class read attributes generically and could change as the
        guard was made (`Guard.pins_generic_reads`), whether or not this trace read one: a
        class gaining the hook without it only misses. Through a metaclass other than
        `type`, read with `type.__getattribute__`, which runs no `__getattribute__` of the
        metaclass's; empty for any other guard."""
        if not guard.pins_generic_reads:
            return ""
        generic = generic_getattribute(guard.expected)  # (a module subclass: module's)
        hook = self.bind(generic, f"{generic.__objclass__.__name__}_getattribute")
        if type(guard.expected) is type:
            return f" and {name}.__getattribute__ is {hook}"
        lookup = self.bind(_TYPE_GETATTRIBUTE, "type_getattribute")
        return f" and {lookup}({name}, '__getattribute__') is {hook}"

    def FUNCTION_MATCH(self, guard: Guard, v: str) -> str:
        spec: FunctionSpec = guard.expected
        test = self.is_pinned(v, spec.fn)
        return f"{test} and {v}.__code__ is {self.bind(spec.code, _hint(spec.code))}"

    def EQUALS_MATCH(self, guard: Guard, v: str) -> str:
        return constant_match_expr(v, guard.expected, self.bind)

    def CLOSURE_MATCH(self, guard: Guard, v: str) -> str:
        if is_constant(guard.expected):
            return self.EQUALS_MATCH(guard, v)
        return self.ID_MATCH(guard, v)

    def LENGTH_CHECK(self, guard: Guard, v: str) -> str:
        return f"len({v}) == {guard.expected!r}"

    def DICT_NOT_CONTAINS(self, guard: Guard, v: str) -> str:
        """`'a' not in v and 'b' not in v`: for the few keys of a dict's guard a chain of `in`
        tests runs faster than `v.keys().isdisjoint(...)` (a method call and a view)."""
        return " and ".join(f"{key!r} not in {v}" for key in guard.expected)

    def DICT_CONTAINS(self, guard: Guard, v: str) -> str:
        return " and ".join(f"{key!r} in {v}" for key in guard.expected)

    def HASATTR(self, guard: Guard, v: str) -> str:

        return f"___has_attr({v}, {guard.expected!r})"

    def NO_HASATTR(self, guard: Guard, v: str) -> str:
        return f"not ___has_attr({v}, {guard.expected!r})"

    def DICT_KEYS_MATCH(self, guard: Guard, v: str) -> str:
        """Keys in order, each compared exactly; `tuple(d)` and `list(d)` of an exact dict run
        no user code. Keys that are all str, int, bytes, None or bool: every key's exact type
        first (`type(k[0]) is str`, `k[1] is None`), then the values in one comparison with
        the constant tuple (`k == ('a', 'b')`), which then compares only str with str, int with
        int, bytes with bytes. Other keys (floats: `-0.0` and nan; tuples) one by one with
        `constant_match_expr`."""
        keys: tuple[object, ...] = guard.expected
        if not keys:
            return f"len({v}) == 0"
        k = f"{v.strip(_HOIST_MARK)}_keys"  # a local of this guard alone: `___v0_keys`
        if all(type(key) in _KEY_TYPES_EXACT_EQ for key in keys):
            types = [
                f"{k}[{i}] is {key!r}" if key is None or type(key) is bool
                else f"type({k}[{i}]) is {type(key).__name__}"
                for i, key in enumerate(keys)
            ]  # fmt: skip
            return " and ".join(
                [f"len({k} := tuple({v})) == {len(keys)}", *types, f"{k} == {keys!r}"]
            )
        matches = [constant_match_expr(f"{k}[{i}]", key, self.bind) for i, key in enumerate(keys)]
        return " and ".join([f"len({k} := list({v})) == {len(keys)}", *matches])

    def TENSOR_MATCH(self, guard: Guard, v: str) -> str:
        spec: TensorSpec = guard.expected
        assert spec.cls is not None, "plan_guards fills in the tensor type"
        if spec.check is not None:  # a world's tensor, whose own test reads every fact
            return f"{self.bind(spec.check, 'tensor_match')}({v})"
        return (
            f"type({v}) is {self.bind(spec.cls, type_label(spec.cls))}"
            f" and {v}._dtype is {self.bind(spec.dtype, _hint(spec.dtype))}"
            f" and {v}._shape == {spec.shape!r}"
            f" and {v}.requires_grad is {spec.requires_grad!r}"
        )

    def GLOBAL_STATE(self, guard: Guard, v: str) -> str:
        """One test per part: `is` for a part expected True, False or None, else `==` with
        the value traced (bound, as a dtype has no literal)."""
        spec: GlobalStateSpec = guard.expected
        tests = []
        for value, reader in zip(spec.values, spec.readers, strict=True):
            read = f"{self.bind(reader, _hint(reader))}()"
            if value is None or type(value) is bool:
                tests.append(f"{read} is {value!r}")
            else:
                tests.append(f"{read} == {self.bind(value, str(value))}")
        return " and ".join(tests)

    def FACTS_MATCH(self, guard: Guard, v: str) -> str:
        spec: FactsSpec = guard.expected
        return f"{self.bind(spec.reader, 'facts')}({v}) == {spec.values!r}"

    def MODE_STACK(self, guard: Guard, v: str) -> str:
        return mode_stack_check_expr(v, guard.expected, self.bind)

    def OBJECT_ALIASING(self, guard: Guard, v: str) -> str:
        """Relational guards read the other source in full; they run last (highest cost),
        after every guard that makes reading it meaningful."""
        other: Source = guard.expected
        return f"{v} is {other.expr()}"

    def NO_ALIASING(self, guard: Guard, v: str) -> str:
        others: tuple[Source, ...] = guard.expected
        return " and ".join(f"{v} is not {other.expr()}" for other in others)


_KIND_NAME = {kind: kind.name for kind in GuardKind}
"""A kind's name, the name of its GuardBuilder method (read once: an enum's `name` is a
property, a Python call each time it is read)."""


_KEY_TYPES_EXACT_EQ = frozenset({str, int, bytes, bool, type(None)})
"""Key types whose `==` between two values of the exact type is exact equality (None and bool
are tested by identity before it)."""


def _hint(obj: object) -> str:
    """A readable suffix for a bound name: the type's or function's name, else the type name."""
    if issubclass(type(obj), type):
        return type_label(obj)  # type: ignore[arg-type]
    return own_name(obj) or type_label(type(obj))


def reads_value_once(guard: Guard) -> bool:
    """Whether the guard's expression names its value at most once (`v is obj`, `len(v) == 3`;
    the empty mode stack's `___mode_stack_len() == 0` not at all), so a value no other guard or
    source needs can be read right inside it."""
    kind, expected = guard.kind, guard.expected
    if kind in _ONE_READ_KINDS:
        return True
    if kind is GuardKind.EQUALS_MATCH or kind is GuardKind.CLOSURE_MATCH:
        return expected is None or type(expected) is bool or not is_constant(expected)
    if kind is GuardKind.DICT_NOT_CONTAINS or kind is GuardKind.DICT_CONTAINS:
        return len(expected) == 1
    if kind is GuardKind.DICT_KEYS_MATCH or kind is GuardKind.MODE_STACK:
        return not expected  # `len(v) == 0`, `___mode_stack_len() == 0`
    if kind is GuardKind.TENSOR_MATCH:
        return expected.check is not None  # a world's own tensor check: `check(v)`
    return False


_ONE_READ_KINDS = frozenset(
    {
        GuardKind.TYPE_MATCH,
        GuardKind.ID_MATCH,
        GuardKind.LENGTH_CHECK,
        GuardKind.HASATTR,
        GuardKind.NO_HASATTR,
        GuardKind.FACTS_MATCH,
    }
)


_ALIASING_KINDS = frozenset({GuardKind.OBJECT_ALIASING, GuardKind.NO_ALIASING})
"""Relational kinds: their guards read other sources too (`_other_sources`)."""


def _other_sources(guard: Guard) -> tuple[Source, ...]:
    """The sources besides its own that a guard of an aliasing kind reads."""
    if guard.kind is GuardKind.OBJECT_ALIASING:
        return (guard.expected,)
    others: tuple[Source, ...] = guard.expected  # NO_ALIASING's
    return others


def _read_counts(ordered: list[Guard]) -> dict[Source, int]:
    """How often the check reads each source's value: once per guard on it (twice for a guard
    that names it more than once), once per aliasing guard that names it, and once per source
    read from it (each source read, the ancestors of those read included, reads its base)."""
    counts: dict[Source, int] = {}
    for guard in ordered:
        kind, source = guard.kind, guard.source
        counts[source] = counts.get(source, 0) + (1 if reads_value_once(guard) else 2)
        if kind in _ALIASING_KINDS:
            for other in _other_sources(guard):
                counts[other] = counts.get(other, 0) + 1
    read = list(counts)  # every source read, each once: grows by the bases it reaches
    for step in read:
        base = step.base
        if base is not None:
            count = counts.get(base)
            if count is None:
                read.append(base)
            counts[base] = 1 if count is None else count + 1
    return counts


def _is_loose(code: str) -> bool:
    """Whether guard text holds a construct that binds more loosely than `and` or evaluates a
    part of an expression conditionally, out of its left-to-right order or in a scope of its
    own (`or`, a conditional expression, a lambda, a comprehension). Every GuardBuilder method
    writes such a keyword between spaces (a test tokenizes each kind's text to hold them to
    it). Text holding one, anywhere, even inside a string constant (a false alarm only costs
    what follows), is put in parentheses in the chain and reads a hoisted value with a
    statement instead of a walrus."""
    return " or " in code or " if " in code or "lambda" in code or " for " in code


_CONDITION_CHARS = 350
"""At most this many characters of guard text in one condition (a longer guard alone): every
failed guard jumps to the `return False` after its condition, and CPython prefixes a jump of
more than 255 code units with an EXTENDED_ARG instruction, which runs on every call. Guard
text compiles to about 0.6 code units a character (3.11 to 3.13), so a condition of 350
characters keeps every jump within one byte, with a margin."""


def guard_lines(ordered: list[Guard], builder: GuardBuilder) -> list[str]:
    """The body that runs `ordered` (already planned) as conditions `<guard> and <guard> ...`,
    one guard a line (a guard with `or`, `if` or a lambda in its text in parentheses, so
    that nothing in it binds with the chain's `and`). A source's value that the check reads
    more than once is read once into a hoisted local, written as a walrus at its first use
    (`type(___v3 := ___v1.scale) is float and ___v3 == 0.5`), so later guards read `___v3`; a
    value read once is read where it is used (`B['len'] is ___c0_len`). Roots are read with
    their own expression (`L['x']`, `G['k']`, `C[0].cell_contents`). Where a walrus would not
    surely be evaluated first (the guard's text holds `or`, `if`, a lambda or a comprehension,
    or does not name the value), the read is a statement before the guard, which then ends one
    condition and starts the next; so does a condition's length (`_CONDITION_CHARS`)."""
    condition: list[str] = []  # the guards of the condition being written, one per line
    # each condition: the statements before it (reads a walrus cannot make) and its guards
    conditions: list[tuple[list[str], list[str]]] = [([], condition)]
    local_of: dict[Source, str] = {}
    reads = _read_counts(ordered)
    hoisted = 0
    new: list[tuple[str, str, Source]] = []  # this guard's hoisted reads: (name, access, source)
    length = 0  # characters of guard text in the last condition

    def read(source: Source) -> str:
        """The expression for `source`'s value, reading first whatever of its chain that is
        read more than once and not read yet, root first (as a marked name, made a walrus or
        a statement once the guard's text is known). Loops, not recursion: a closure that
        calls itself is a reference cycle, left for the garbage collector after every
        compile."""
        nonlocal hoisted
        unread: list[Source] = []  # `source` and its ancestors not read yet, nearest first
        step: Source | None = source
        while step is not None and step not in local_of:  # (a read source's base is read)
            unread.append(step)
            step = step.base
        expr = "" if step is None else local_of[step]  # the nearest read one's, or none
        for step in reversed(unread):
            access = step.access(expr)
            if access.isidentifier() or reads.get(step, 0) <= 1:
                expr = access  # a name already (`G`), or read only here: nothing to hoist
            else:
                var = f"___v{hoisted}"
                hoisted += 1
                new.append((var, access, step))
                expr = f"{_HOIST_MARK}{var}{_HOIST_MARK}"
            local_of[step] = expr
        return expr

    for guard in ordered:
        v = read(guard.source)
        kind = guard.kind
        if kind in _ALIASING_KINDS:
            # the other sources are read (and hoisted) like any source
            op = "is" if kind is GuardKind.OBJECT_ALIASING else "is not"
            code = " and ".join(f"{v} {op} {read(other)}" for other in _other_sources(guard))
        else:
            code = builder.code_for(guard, v)
        loose = _is_loose(code)
        if new:
            placed = None if loose else _place_reads(code, new)
            if placed is None:  # the reads as statements, then a new condition
                statements = [f"{var} = {_unmark(access)}" for var, access, _ in new]
                condition, length = [], 0
                conditions.append((statements, condition))
                placed = _unmark(code)
            code = placed
            local_of.update({source: var for var, _, source in new})
            new.clear()
        if loose:
            code = f"({code})"  # so that its `or` cannot take in the guards around it
        if condition and length + len(code) > _CONDITION_CHARS:  # a failed guard's jump
            condition, length = [], 0  # to its `return False` stays short
            conditions.append(([], condition))
        length += len(code)
        condition.append(f"{code}  # {_KIND_NAME[kind]} {guard.source.name}")
    return _condition_lines(conditions)


def _place_reads(code: str, new: list[tuple[str, str, Source]]) -> str | None:
    """`code` with each hoisted read of `new` (in read order: a base before what is read from
    it) written as a walrus at its left-most use, the first evaluated (`code` is not loose:
    see `_is_loose`); None when `code` does not name one of them."""
    for var, access, _ in reversed(new):  # the last read's access may name earlier ones
        head, mark, rest = code.partition(f"{_HOIST_MARK}{var}{_HOIST_MARK}")
        if not mark:
            return None  # the guard does not name this value (`___mode_stack_len() == 0`)
        if head[-1:] == "(" and rest[:1] == ")":  # `type(___v0 := L['x'])`
            code = f"{head}{var} := {access}{rest.replace(mark, var)}"
        else:
            code = f"{head}({var} := {access}){rest.replace(mark, var)}"
    return code


def _unmark(text: str) -> str:
    return text.replace(_HOIST_MARK, "")


def _condition_lines(conditions: list[tuple[list[str], list[str]]]) -> list[str]:
    """The check's body: for each condition its statements, then `if not (<condition>): return
    False`, for the last one `if (<condition>): return True` and `return False`. The truth test
    of every guard, the last one's included, runs inside the check's `try`, and the check
    returns exactly True or False."""
    lines: list[str] = []
    for statements, guards in conditions[:-1]:
        lines += statements
        if guards:
            lines += ["if not (", *_chain(guards), "):", "    return False"]
    statements, guards = conditions[-1]
    lines += statements
    if guards:
        return [*lines, "if (", *_chain(guards), "):", "    return True", "return False"]
    return [*lines, "return True"]


def _chain(guards: list[str]) -> list[str]:
    return [f"    {guards[0]}", *[f"    and {line}" for line in guards[1:]]]


def build_check(
    guards: Iterable[Guard], *, name: str = "___check_0", tensor_type: type | None = None
) -> CheckFunction:
    """Plan the guards (dedupe, order) and generate the check function's source."""
    return render_check(plan_guards(guards, tensor_type), name=name)


def render_check(ordered: list[Guard], *, name: str = "___check_0") -> CheckFunction:
    """The check function's source for guards `plan_guards` already ordered. CompiledGuards
    calls it only when the check (or a failure reason) is first needed."""
    builder = GuardBuilder()
    body = guard_lines(ordered, builder)
    text = (
        f"def {name}(L):\n"
        f'    """{len(ordered)} guards, generated by guards.builder."""\n'
        "    try:\n"
        f"        {_BODY_LINE.join(body)}\n"
        "    except Exception:\n"
        "        return False\n"
    )
    return CheckFunction(text, builder.bindings, ordered)


_BODY_LINE = "\n        "
"""Between two lines of the body: each is indented inside the `try` of the function."""


def render_predicates(ordered: list[Guard]) -> tuple[list[str], dict[str, object]]:
    """One predicate per guard, `lambda ___v, L: <expr>` with the same expression as the
    check's line for it, and the constants they refer to: for explaining a miss, so rendered
    only then. `L` is the frame locals: an aliasing guard reads its other sources from there
    (`___v is L['xs'][0]`)."""
    builder = GuardBuilder()
    predicates = [f"lambda ___v, L: {builder.code_for(guard, '___v')}" for guard in ordered]
    return predicates, builder.bindings


def build_check_source(
    guards: Iterable[Guard], *, name: str = "___check_0", tensor_type: type | None = None
) -> tuple[str, dict[str, object]]:
    """`(source_text, bindings)`: exec the text in a dict holding `bindings` plus the roots
    `G`, `B`, `C`, `___mode_stack` and `___mode_stack_len`, then call `<name>(L)`."""
    check = build_check(guards, name=name, tensor_type=tensor_type)
    return check.text, check.bindings


def needs_mode_stack(guards: Iterable[Guard]) -> bool:
    """Whether the check reads the mode stack (then an accessor must be bound): whether some
    guard's source is read from it (the stack is a root source)."""
    return any(type(guard.source.root()) is ModeStackListSource for guard in guards)
