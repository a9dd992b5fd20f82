"""The grammar of `tracer.testing.programs`: `ProgramWriter` writes one random program's source
from hypothesis draws, production by production.

Every expression has a kind (int, float, str, bool, list of ints, dict of str to int, set,
tensor, user object, or "anything"); `ProgramWriter.OPTIONS[kind]` lists its productions, each
tagged with the feature it belongs to (see `programs.FEATURES`), simplest first, so hypothesis
shrinks towards names and literals. Statements append to `out`, bind new names, or change
state; the names in scope are tracked by kind, and names bound inside a block are forgotten
after it. Two rules keep programs terminating and small: loops are bounded (ranges of at most
4, while loops with a counter), and inside a loop nothing is grown by itself (`xs.extend(xs)`,
`s += s`, `n *= n`), only by literals.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from typing import ClassVar

from hypothesis import strategies as st

INT, FLOAT, STR, BOOL, LIST, DICT, SET, TENSOR, OBJ, ITER, ANY = (
    "int", "float", "str", "bool", "list", "dict", "set", "tensor", "obj", "iter", "any",
)  # fmt: skip
MAX_DEPTH = 3
"""Expressions nest at most this deep; statements nest two blocks deep."""

_FLOAT_LITERALS = ("0.5", "-1.25", "2.0", "-0.0", "1e16", "1e308", "float('nan')", "float('inf')",
                   "-float('inf')")  # fmt: skip
_STR_LITERALS = ("''", "'a'", "'ab'", "'b c'", "'xyz'", "'A1'")
_KEYS = ("'a'", "'b'", "'x'", "'ab'")
_FLOAT_TEXTS = ("'1.5'", "'nan'", "'-inf'", "'x'", "' 2 '")
_FORMATS = ("'.3g'", "'.1f'", "'e'")
_SEPARATORS = ("", "'a'", "' '")
_EXCEPTIONS = "(ValueError, TypeError, ZeroDivisionError, IndexError, KeyError, AttributeError)"

Option = tuple[str, Callable[[], str]]
"""A production: the feature it belongs to and a function that writes its text."""


class ProgramWriter:
    """Writes one program: draws productions, keeps the typed names in scope."""

    def __init__(self, draw: st.DrawFn, features: frozenset[str]) -> None:
        self.draw = draw
        self.features = features
        self.used: set[str] = set()
        self.lines: list[str] = []
        self.indent = 1
        self.loops = 0
        self.ids = itertools.count(1)
        self.in_fstring = False
        self.scope: dict[str, list[str]] = {
            INT: ["i", "j"], FLOAT: ["x"], STR: ["s"], LIST: ["xs"], DICT: ["d"],
            TENSOR: ["t"] if "tensors" in features else [],
        }  # fmt: skip
        self.frozen: set[str] = set()
        """Kinds of container (LIST, DICT) iterated by an enclosing loop: not mutated."""
        if "globals" in features:
            self.scope[INT].append("G")
            self.scope[LIST].append("GL")

    # -- helpers

    def on(self, feature: str) -> bool:
        return feature in self.features

    def choose(self, options: list[Option]) -> str:
        """Draw one production (shrinking goes to the first, the simplest)."""
        options = [o for o in options if self.on(o[0])]
        feature, write = options[self.draw(st.integers(0, len(options) - 1))]
        self.used.add(feature)
        return write()

    def coin(self) -> bool:
        return self.draw(st.booleans())

    def pick(self, values: Iterable[str]) -> str:
        return self.draw(st.sampled_from(list(values)))

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.ids)}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    # -- the module

    def module(self, statements: int) -> str:
        """The module text: what the body uses of the classes, the mode and the globals,
        then `f`."""
        for _ in range(statements):
            self.statement(0)
        body = "\n".join(self.lines)
        prelude = []
        if re.search(r"\b[PQ]\(", body):
            prelude.append(self.classes_text())
        if "Rec()" in body:
            prelude.append(_RECORDING_MODE)
        if "warnings.warn(" in body:
            prelude.append("import warnings\n")
        head = ["def f(i, j, x, s, xs, d, t):", "    out = []"]
        if re.search(r"\bG\b", body):
            head.append("    global G")
        if re.search(r"\bGL?\b", body):
            prelude.append(f"G = {self.pick(['0', '3'])}\nGL = []\n")
        return "\n".join([*prelude, "\n".join([*head, body, "    return out"]) + "\n"])

    def classes_text(self) -> str:
        """`class P` with a drawn set of dunder methods, and `class Q(P)`."""
        methods = []
        required = {"__hash__"} if self.on("len_without_dunder") else {"__hash__", "__len__"}
        drawn = {name for name, _, _ in _DUNDERS if name in required or self.coin()}
        if "__radd__" in drawn and "__add__" not in drawn:
            if self.on("reflected_priority"):  # P() + P() must not try P.__radd__
                self.used.add("reflected_priority")
            else:
                drawn.add("__add__")
        for name, parameters, bodies in _DUNDERS:
            if name in drawn:
                body = self.pick(bodies)
                if self.on("breaks_inside") and self.coin():  # the break is in a callee
                    self.used.add("breaks_inside")
                    body = f"print(end='')\n        {body}"
                methods.append(f"    def {name}({parameters}):\n        {body}\n\n")
            elif name == "__len__":
                self.used.add("len_without_dunder")
        if ".m(" in "\n".join(self.lines):  # (only breaks_inside calls it)
            value = self.pick(["self.v", "print(end='') or self.v"])
            methods.append(
                f"    def m(self, *a, **k):\n        return ({value}, a, sorted(k.items()))\n\n"
            )
        sub = ["class Q(P):\n", "    def __repr__(self):\n        return f'Q({self.v!r})'\n"]
        if self.on("reflected_priority") and self.coin():
            self.used.add("reflected_priority")
            sub.append("    def __radd__(self, o):\n        return 'Q.__radd__'\n")
            sub.append("    def __gt__(self, o):\n        return 'Q.__gt__'\n")
        return "".join([_CLASS_P, *methods]).rstrip() + "\n\n\n" + "".join(sub)

    # -- expressions

    def expr(self, kind: str, depth: int = 0) -> str:
        if depth >= MAX_DEPTH:
            return self.leaf(kind)
        options = self.OPTIONS[kind](self, depth + 1)
        options += self.more_expressions(kind, depth + 1)
        return self.choose([("core", lambda: self.leaf(kind)), *options])

    def more_expressions(self, kind: str, d: int) -> list[Option]:
        """Productions a subclass adds to every kind (`program_breaks.BreakingWriter`)."""
        return []

    def more_statements(self) -> list[tuple[str, Callable[[], None]]]:
        """Statements a subclass adds (`program_breaks.BreakingWriter`)."""
        return []

    def leaf(self, kind: str) -> str:
        names = self.scope.get(kind, [])
        if names and self.coin():
            return self.pick(names)
        return self.literal(kind)

    def literal(self, kind: str) -> str:
        if kind == INT:
            n = self.draw(st.integers(-3, 9))
            return f"({n})" if n < 0 else str(n)
        if kind == FLOAT:
            return f"({self.pick(_FLOAT_LITERALS)})"
        if kind == STR:
            return self.pick(_STR_LITERALS)
        if kind == BOOL:
            return self.pick(["True", "False"])
        if kind == LIST:
            return self.pick(["[]", "[1, 2]", "[3, -1, 3]", "[0]"])
        if kind == DICT:
            return self.pick(["{}", "{'a': 1}", "{'b': 2, 'a': 0}"])
        if kind == SET:
            return self.pick(["set()", "{1, 2}", "{3, -1}"])
        if kind == TENSOR:
            return self.pick(["t", "torch.ones_like(t)", "(t * 2)"])
        if kind == OBJ:
            return f"{self.pick(['P', 'Q'])}({self.literal(INT)})"
        return self.literal(self.any_kind())

    def any_kind(self) -> str:
        kinds = [INT, FLOAT, STR, BOOL, LIST, DICT]
        kinds += [TENSOR] if self.on("tensors") else []
        return self.pick(kinds)

    def ints(self, d: int) -> list[Option]:
        e, lit = self.expr, self.literal
        return [
            ("core", lambda: f"({e(INT, d)} + {e(INT, d)})"),
            ("core", lambda: f"({e(INT, d)} - {e(INT, d)})"),
            ("core", lambda: f"({e(INT, d)} * {lit(INT)})"),
            ("core", lambda: f"({e(INT, d)} // {e(INT, d)})"),
            ("core", lambda: f"({e(INT, d)} % {e(INT, d)})"),
            ("core", lambda: f"({e(INT, d)} {self.pick(['&', '|', '^'])} {e(INT, d)})"),
            ("core", lambda: f"(-{e(INT, d)})"),
            ("core", lambda: f"{self.pick(['abs', 'int'])}({e(INT, d)})"),
            ("core", lambda: f"{self.pick(['min', 'max'])}({e(INT, d)}, {e(INT, d)})"),
            ("core", lambda: f"len({e(self.pick([STR, LIST, DICT]), d)})"),
            ("core", lambda: f"{e(LIST, d)}[{e(INT, d)}]"),
            ("core", lambda: f"({e(INT, d)} if {e(BOOL, d)} else {e(INT, d)})"),
            ("core", lambda: f"{self.pick(['int', 'round'])}({e(FLOAT, d)})"),
            ("core", lambda: f"sum({e(LIST, d)})"),
            ("core", lambda: f"{e(LIST, d)}.{self.pick(['count', 'index'])}({e(INT, d)})"),
            ("core", lambda: f"{e(STR, d)}.{self.pick(['find', 'count'])}({e(STR, d)})"),
            ("core", lambda: f"{e(DICT, d)}.get({e(STR, d)}, {e(INT, d)})"),
            ("core", lambda: f"{e(DICT, d)}[{e(STR, d)}]"),
            ("core", lambda: f"(lambda v: v * {lit(INT)})({e(INT, d)})"),
            ("sets", lambda: f"len({e(SET, d)})"),
            ("tensors", lambda: f"len({e(TENSOR, d)})"),
            ("classes", lambda: f"{e(OBJ, d)}.v"),
        ]

    def floats(self, d: int) -> list[Option]:
        e = self.expr

        def num() -> str:
            return e(self.pick([INT, FLOAT]), d)

        return [
            ("core", lambda: f"({e(FLOAT, d)} {self.pick(['+', '-', '*'])} {num()})"),
            ("core", lambda: f"({num()} / {e(FLOAT, d)})"),
            ("core", lambda: f"float({e(INT, d)})"),
            ("core", lambda: f"float({self.pick(_FLOAT_TEXTS)})"),
            ("core", lambda: f"abs({e(FLOAT, d)})"),
            ("core", lambda: f"{self.pick(['min', 'max'])}({e(FLOAT, d)}, {num()})"),
            ("core", lambda: f"round({e(FLOAT, d)}, {self.pick(['1', '0', '-1'])})"),
            ("core", lambda: f"({e(FLOAT, d)} ** 2)"),
            ("tensors", lambda: f"{e(TENSOR, d)}.sum().item()"),
        ]

    def strs(self, d: int) -> list[Option]:
        e, lit = self.expr, self.literal
        options: list[Option] = [
            ("core", lambda: f"({e(STR, d)} + {e(STR, d)})"),
            ("core", lambda: f"({e(STR, d)} * {self.pick(['0', '2', '-1'])})"),
            ("core", lambda: f"{e(STR, d)}[{lit(INT)}:{lit(INT)}]"),
            ("core", lambda: f"{e(STR, d)}[{e(INT, d)}]"),
            ("core", lambda: f"{e(STR, d)}[::-1]"),
            ("core", lambda: f"{self.pick(['str', 'repr'])}({e(self.any_kind(), d)})"),
            ("core", lambda: f"{e(STR, d)}.{self.pick(['upper()', 'strip()', 'title()'])}"),
            ("core", lambda: f"{e(STR, d)}.replace({e(STR, d)}, {lit(STR)})"),
            ("core", lambda: f"','.join(str(v) for v in {e(LIST, d)})"),
            ("core", lambda: f"format({e(FLOAT, d)}, {self.pick(_FORMATS)})"),
            ("core", lambda: f"('%s/%d' % ({e(STR, d)}, {e(INT, d)}))"),
            ("core", lambda: f"''.join(sorted({e(STR, d)}))"),
        ]
        if not self.in_fstring:
            options.append(("core", lambda: self.fstring(d)))
        return options

    def fstring(self, d: int) -> str:
        self.in_fstring = True
        try:
            spec = self.pick(["", ":.2f", "!r", ":>4", ":g"])
            return f'f"{{({self.expr(FLOAT, d)}){spec}}}-{{({self.expr(INT, d)})}}"'
        finally:
            self.in_fstring = False

    def bools(self, d: int) -> list[Option]:
        e = self.expr
        return [
            ("core", lambda: self.comparison(d)),
            ("core", lambda: f"({e(INT, d)} < {e(FLOAT, d)} <= {e(INT, d)})"),
            ("core", lambda: f"({e(INT, d)} in {e(LIST, d)})"),
            ("core", lambda: f"({e(STR, d)} in {e(self.pick([DICT, STR]), d)})"),
            ("core", lambda: f"(not {e(BOOL, d)})"),
            ("core", lambda: f"({e(BOOL, d)} {self.pick(['and', 'or'])} {e(BOOL, d)})"),
            ("core", lambda: f"bool({e(self.any_kind(), d)})"),
            ("core", lambda: f"{self.pick(['all', 'any'])}({e(LIST, d)})"),
            ("core", lambda: f"isinstance({e(self.any_kind(), d)}, (int, str))"),
            ("core", lambda: f"({e(FLOAT, d)} != {e(FLOAT, d)})"),
            ("sets", lambda: f"({e(INT, d)} in {e(SET, d)})"),
            ("sets", lambda: f"({e(SET, d)} {self.pick(['==', '<=', '<'])} {e(SET, d)})"),
            ("sets", lambda: f"(frozenset({e(LIST, d)}) == set({e(LIST, d)}))"),
            ("classes", lambda: f"bool({e(OBJ, d)})"),
            ("classes", lambda: f"({e(OBJ, d)} == {e(self.pick([OBJ, INT]), d)})"),
        ]

    def comparison(self, d: int) -> str:
        kind = self.pick([INT, FLOAT, STR, LIST])
        compare = self.pick(["<", "<=", "==", "!=", ">", ">="])
        return f"({self.expr(kind, d)} {compare} {self.expr(kind, d)})"

    def lists(self, d: int) -> list[Option]:
        e, lit = self.expr, self.literal
        return [
            ("core", lambda: f"[{e(INT, d)}, {e(INT, d)}]"),
            ("core", lambda: f"({e(LIST, d)} + {e(LIST, d)})"),
            ("core", lambda: f"({e(LIST, d)} * {self.pick(['0', '2'])})"),
            ("core", lambda: f"sorted({e(LIST, d)}{self.pick(['', ', reverse=True'])})"),
            ("core", lambda: f"{e(LIST, d)}[{lit(INT)}:{lit(INT)}]"),
            ("core", lambda: f"list(reversed({e(LIST, d)}))"),
            ("core", lambda: f"[v * {lit(INT)} for v in {e(LIST, d)}]"),
            ("core", lambda: f"[v for v in {e(LIST, d)} if v > {e(INT, d)}]"),
            ("core", lambda: f"list(range({e(INT, d)} % 5))"),
            ("core", lambda: f"list({e(DICT, d)}.values())"),
            ("core", lambda: f"list(map(abs, {e(LIST, d)}))"),
            ("core", lambda: f"list(filter(None, {e(LIST, d)}))"),
            ("core", lambda: f"[len(w) for w in {e(STR, d)}.split()]"),
            ("closures", lambda: f"sorted({e(LIST, d)}, key=lambda v: (v % 3, -v))"),
            ("closures", lambda: f"list(map(lambda v: v + {e(INT, d)}, {e(LIST, d)}))"),
            ("sets", lambda: f"sorted({e(SET, d)})"),
        ]

    def dicts(self, d: int) -> list[Option]:
        e = self.expr
        return [
            ("core", lambda: f"{{{self.pick(_KEYS)}: {e(INT, d)}, {e(STR, d)}: {e(INT, d)}}}"),
            ("core", lambda: f"dict({e(DICT, d)})"),
            ("core", lambda: f"{{k: v + 1 for k, v in {e(DICT, d)}.items()}}"),
            ("core", lambda: f"dict(zip({e(STR, d)}, {e(LIST, d)}))"),
            ("core", lambda: f"{{**{e(DICT, d)}, 'z': {e(INT, d)}}}"),
            ("core", lambda: f"({e(DICT, d)} | {e(DICT, d)})"),
            ("core", lambda: f"dict.fromkeys({e(STR, d)}, {e(INT, d)})"),
        ]

    def sets(self, d: int) -> list[Option]:
        e = self.expr
        return [
            ("sets", lambda: f"set({e(LIST, d)})"),
            ("sets", lambda: f"{{{e(INT, d)}, {e(INT, d)}}}"),
            ("sets", lambda: f"({e(SET, d)} {self.pick(['|', '&', '-', '^'])} {e(SET, d)})"),
            ("sets", lambda: f"frozenset({e(LIST, d)})"),
            ("sets", lambda: f"{{v % 4 for v in {e(LIST, d)}}}"),
            ("sets", lambda: f"set({e(DICT, d)}.values())"),
        ]

    def tensor_exprs(self, d: int) -> list[Option]:
        e = self.expr

        def scalar() -> str:
            return e(self.pick([INT, FLOAT]), d)

        return [
            ("tensors", lambda: f"({e(TENSOR, d)} {self.pick('+-*/')} {e(TENSOR, d)})"),
            ("tensors", lambda: f"({e(TENSOR, d)} {self.pick('+-*/')} {scalar()})"),
            ("tensors", lambda: f"({scalar()} {self.pick('+-*')} {e(TENSOR, d)})"),
            ("tensors", lambda: f"(-{e(TENSOR, d)})"),
            ("tensors", lambda: f"{e(TENSOR, d)}.{self.pick(['sin', 'abs', 'exp', 'relu'])}()"),
            ("tensors", lambda: f"torch.{self.pick(['sin', 'relu', 'tanh'])}({e(TENSOR, d)})"),
            ("tensors", lambda: f"({e(TENSOR, d)} > {scalar()})"),
            ("tensors", lambda: f"{e(TENSOR, d)}.sum()"),
            ("tensors", lambda: f"{e(TENSOR, d)}.reshape(-1).clone()"),
            ("tensor_shapes", lambda: f"torch.ones({self.pick('0123')})"),
            ("tensor_shapes", lambda: f"torch.arange({self.pick('0123')}.0)"),
            ("tensor_shapes", lambda: f"({e(TENSOR, d)} @ {e(TENSOR, d)})"),
            ("tensor_shapes", lambda: f"{e(TENSOR, d)}.reshape({self.pick(['2, -1', '1, -1'])})"),
            ("tensor_shapes", lambda: f"{e(TENSOR, d)}[{e(INT, d)}]"),
        ]

    def objects(self, d: int) -> list[Option]:
        e = self.expr
        return [("classes", lambda: f"{self.pick(['P', 'Q'])}({e(INT, d)})")]

    def anything(self, d: int) -> list[Option]:
        """Values of no fixed type: appended to `out`, never bound to a name."""
        e, lit = self.expr, self.literal
        return [
            ("core", lambda: e(self.any_kind(), d)),
            ("core", lambda: f"({e(self.any_kind(), d)}, {e(self.any_kind(), d)})"),
            ("core", lambda: f"list(zip({e(LIST, d)}, {e(STR, d)}))"),
            ("core", lambda: f"list(enumerate({e(STR, d)}, {lit(INT)}))"),
            ("core", lambda: f"divmod({e(self.pick([INT, FLOAT]), d)}, {e(INT, d)})"),
            ("core", lambda: f"sorted({e(DICT, d)}.items())"),
            ("core", lambda: f"{e(STR, d)}.split({self.pick(_SEPARATORS)})"),
            ("core", lambda: f"{e(self.pick([LIST, STR]), d)}[{lit(INT)}::{self.pick('12')}]"),
            ("core", lambda: f"{e(STR, d)}[{lit(INT)}::{self.pick(['-1', '-2', '0'])}]"),
            *[(feature, lambda f=feature: self.template(f, d)) for feature in TEMPLATES],
        ]

    def template(self, feature: str, d: int) -> str:
        """One of the feature's TEMPLATES, each `<kind>` replaced by an expression of that kind
        (`<obj|int>`: of either kind)."""

        def fill(match: re.Match[str]) -> str:
            return self.expr(self.pick(match.group(1).split("|")), d)

        return _PLACEHOLDER.sub(fill, self.pick(TEMPLATES[feature]))

    OPTIONS: ClassVar[dict[str, Callable[[ProgramWriter, int], list[Option]]]] = {
        INT: ints, FLOAT: floats, STR: strs, BOOL: bools, LIST: lists, DICT: dicts, SET: sets,
        TENSOR: tensor_exprs, OBJ: objects, ANY: anything,
    }  # fmt: skip

    # -- statements

    def statement(self, depth: int) -> None:
        nest = depth < 2
        options: list[tuple[str, Callable[[], None]]] = [
            ("core", lambda: self.emit(f"out.append({self.expr(ANY)})")),
            *[(f, lambda f=f: self.emit(f"out.append({self.template(f, 0)})")) for f in TEMPLATES],
            ("core", self.assign),
            ("core", self.augmented),
            *([("core", lambda: self.if_block(depth))] if nest else []),
            *([("loops", lambda: self.for_loop(depth))] if nest else []),
            *([("loops", lambda: self.while_loop(depth))] if nest else []),
            ("mutation", self.mutate),
            ("mutate_while_iterating", self.mutate_in_loop),
            ("iterators", self.iterator),
            ("shared_iterators", self.shared_iterator),
            ("closures", self.closure),
            ("globals", self.global_state),
            ("exceptions", self.raise_statement),
            *([("try_except", lambda: self.try_block(depth))] if nest else []),
            *([("modes", lambda: self.mode_block(depth))] if nest else []),
            ("set_order", lambda: self.emit(f"out.append(list({self.expr(SET)}))")),
            ("output", self.output),
            *self.more_statements(),
        ]
        options = [o for o in options if self.on(o[0])]
        feature, write = options[self.draw(st.integers(0, len(options) - 1))]
        self.used.add(feature)
        write()

    def block(self, depth: int, header: str, statements: int | None = None) -> None:
        """`header:` and 1-2 statements (or `statements`) one level in; names bound inside
        are not used after it."""
        self.emit(header)
        saved = {kind: list(names) for kind, names in self.scope.items()}
        self.indent += 1
        for _ in range(statements or self.draw(st.integers(1, 2))):
            self.statement(depth + 1)
        self.indent -= 1
        self.scope = saved

    def bind(self, kind: str, value: str, prefix: str = "n") -> str:
        name = self.fresh(prefix)
        self.emit(f"{name} = {value}")
        self.scope.setdefault(kind, []).append(name)
        return name

    def assign(self) -> None:
        kind = self.pick([INT, FLOAT, STR, BOOL, LIST, DICT, *self.optional_kinds()])
        names = self.scope.get(kind, [])
        if names and kind not in (LIST, DICT) and not self.loops and self.coin():
            self.emit(f"{self.pick(names)} = {self.expr(kind)}")  # rebinding: not in loops
        else:
            self.bind(kind, self.expr(kind))

    def optional_kinds(self) -> list[str]:
        kinds = [SET] if self.on("sets") else []
        kinds += [TENSOR] if self.on("tensors") else []
        return kinds + ([OBJ] if self.on("classes") else [])

    def augmented(self) -> None:
        """`n += ...`; inside a loop only by a literal, so nothing doubles per iteration."""
        kind = self.pick([INT, FLOAT, STR])
        value = self.literal(kind) if self.loops else self.expr(kind)
        op = self.pick(["+=", "-=", "*="]) if kind == INT else "+="
        if kind == INT and op == "*=":
            value = self.literal(INT)
        self.emit(f"{self.pick(self.scope[kind])} {op} {value}")

    def if_block(self, depth: int) -> None:
        self.block(depth, f"if {self.expr(BOOL)}:")
        if self.coin():
            self.block(depth, "else:")

    def for_loop(self, depth: int) -> None:
        kind = self.pick([LIST, DICT, STR, "range"])
        if kind == "range":
            iterable = f"range({self.pick('01234')})"
        elif kind == STR:
            iterable = self.expr(STR, 1)
        else:
            iterable = self.pick(self.scope[kind]) if self.coin() else self.expr(kind)
        var = self.fresh("k")
        frozen = set(self.frozen)
        if kind in (LIST, DICT):
            self.frozen.add(kind)
        self.loops += 1
        var_kind = STR if kind in (DICT, STR) else INT
        self.scope[var_kind].append(var)
        self.block(depth, f"for {var} in {iterable}:")
        self.scope[var_kind].remove(var)  # in scope inside the loop only: it may run 0 times
        self.loops -= 1
        self.frozen = frozen

    def while_loop(self, depth: int) -> None:
        counter = self.fresh("w")
        self.emit(f"{counter} = 0")
        self.loops += 1
        self.emit(f"while {counter} < {self.pick('123')} and {self.expr(BOOL)}:")
        self.indent += 1
        self.emit(f"{counter} += 1")
        self.indent -= 1
        self.block(depth, "if True:")
        self.loops -= 1

    def mutate(self) -> None:
        kind = self.pick([k for k in (LIST, DICT) if k not in self.frozen] or [INT])
        if kind == INT:
            self.augmented()
            return
        name = self.pick(self.scope[kind])
        e, lit = self.expr, self.literal
        extend = f"[{e(INT)}]" if self.loops else e(LIST)
        changes = {
            LIST: [
                lambda: f"{name}.append({e(INT)})",
                lambda: f"out.append({name}.pop())",
                lambda: f"{name}.pop({e(INT)})",
                lambda: f"{name}.insert({e(INT)}, {e(INT)})",
                lambda: f"{name}.extend({extend})",
                lambda: f"{name}.remove({e(INT)})",
                lambda: f"{name}.sort()",
                lambda: f"{name}.reverse()",
                lambda: f"{name}[{e(INT)}] = {e(INT)}",
                lambda: f"del {name}[{e(INT)}]",
                lambda: f"{name}[{lit(INT)}:{lit(INT)}] = [{e(INT)}]",
                lambda: f"{name}.clear()",
            ],
            DICT: [
                lambda: f"{name}[{e(STR)}] = {e(INT)}",
                lambda: f"del {name}[{e(STR)}]",
                lambda: f"out.append({name}.pop({e(STR)}, {e(INT)}))",
                lambda: f"out.append({name}.setdefault({e(STR)}, {e(INT)}))",
                lambda: f"{name}.update({e(DICT)})",
                lambda: f"out.append({name}.popitem())",
                lambda: f"{name}.clear()",
            ],
        }[kind]
        self.emit(changes[self.draw(st.integers(0, len(changes) - 1))]())

    def mutate_in_loop(self) -> None:
        """A loop over a list or dict that changes it (bounded: a list grows to 6 at most)."""
        var = self.fresh("k")
        if self.coin():
            d = self.pick(self.scope[DICT])
            self.emit(f"for {var} in {d}:")
            self.emit("    " + self.pick([f"{d}[{var} + 'x'] = 0", f"del {d}[{var}]"]))
            return
        xs = self.pick(self.scope[LIST])
        self.emit(f"for {var} in {xs}:")
        self.emit(
            "    "
            + self.pick([
                f"if len({xs}) < 6:\n{self.pad(2)}{xs}.append({var} + 1)",
                f"{xs}.remove({var})",
                f"out.append({var})\n{self.pad(1)}{xs}.insert(0, {var})\n{self.pad(1)}break",
            ])
        )  # fmt: skip

    def pad(self, extra: int) -> str:
        return "    " * (self.indent + extra)

    def iterator(self) -> None:
        """An iterator over a private copy, partly consumed, then drained."""
        it = self.bind(ITER, f"iter(list({self.expr(self.pick([LIST, STR]))}))", "it")
        for _ in range(self.draw(st.integers(0, 2))):
            self.emit(f"out.append(next({it}{self.pick(['', ', None'])}))")
        self.emit(
            self.pick([
                f"out.append(list({it}))",
                f"out.append({self.expr(INT)} in {it})",
                f"out.append(sorted({it}))",
                f"out.append([v for v in {it}])",
                f"out.append({it})",  # left as it is: compared by what remains in it
            ])
        )  # fmt: skip

    def output(self) -> None:
        """A print or a warning: compared with eager's, in order, by assert_same_behavior."""
        self.emit(
            self.pick([
                f"print({self.expr(ANY)})",
                f"print({self.expr(ANY)}, {self.expr(ANY)}, sep='|', end=';')",
                f"warnings.warn(str({self.expr(ANY)}), UserWarning, stacklevel=1)",
            ])
        )  # fmt: skip

    def shared_iterator(self) -> None:
        """Iterators read by two consumers, lazy maps, iterators over live lists."""
        xs = self.pick(self.scope[LIST])
        it = self.bind(ITER, f"iter({xs})", "it")
        self.emit(
            self.pick([
                f"out.append(list(zip({it}, {it})))",
                f"out.append(list(zip(range(2), {it})))",
                f"out.append(next(filter(lambda v: v > 2, {it}), None))",
                f"{xs}.append(99)",
                f"seen = []\n{self.pad(0)}_ = map(seen.append, {it})\n{self.pad(0)}out.append(seen)",  # noqa: E501
                f"out.append(list(iter(lambda: next({it}), 3)))",
                f"out.append(list(enumerate({it}, 1.5)))",
                f"out.append(list(reversed({it})))",
            ])
        )  # fmt: skip
        self.emit(f"out.append(list({it}))")

    def closure(self) -> None:
        cell = self.bind(INT, self.expr(INT), "c")
        fn = self.fresh("g")
        self.emit(f"def {fn}(k):")
        self.emit(f"    nonlocal {cell}")
        self.emit(f"    {cell} += k")
        self.emit(f"    return {cell} * {self.literal(INT)}")
        self.emit(f"out.append({fn}({self.literal(INT)}))")
        self.emit(f"out.append(({fn}({self.expr(INT)}), {cell}))")

    def global_state(self) -> None:
        self.emit(
            self.pick([
                f"G += {self.literal(INT)}",
                f"GL.append({self.expr(INT)})",
                f"G = {self.expr(INT) if not self.loops else self.literal(INT)}",
                "out.append((G, list(GL)))",
            ])
        )  # fmt: skip

    def raise_statement(self) -> None:
        self.emit(
            self.pick([
                f"if {self.expr(BOOL)}:\n{self.pad(1)}raise ValueError({self.expr(STR)})",
                f"assert {self.expr(BOOL)}, {self.expr(STR)}",
                f"if {self.expr(BOOL)}:\n{self.pad(1)}raise KeyError({self.expr(INT)})",
            ])
        )  # fmt: skip

    def try_block(self, depth: int) -> None:
        self.block(depth, "try:")
        error = self.fresh("e")
        handler = self.pick([f"except {_EXCEPTIONS} as {error}:", f"except Exception as {error}:"])
        self.emit(handler)
        self.emit(f"    out.append((type({error}).__name__, str({error})))")
        if self.coin():
            self.block(depth, self.pick(["else:", "finally:"]), 1)

    def mode_block(self, depth: int) -> None:
        """A recording mode around statements; its log is appended afterwards."""
        mode = self.fresh("m")
        self.emit(f"with Rec() as {mode}:")
        self.indent += 1
        self.emit(f"out.append({self.expr(TENSOR) if self.on('tensors') else 't + 1'})")
        self.indent -= 1
        if self.coin():
            self.block(depth, "if True:")
        self.emit(f"out.append({mode}.log)")


_CLASS_P = """class P:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f'P({self.v!r})'

"""

_OTHER = "(o.v if isinstance(o, P) else o)"
_DUNDERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("__add__", "self, o", (f"return P(self.v + {_OTHER})", "return NotImplemented")),
    ("__radd__", "self, o", (f"return P({_OTHER} + self.v)", "return NotImplemented")),
    ("__eq__", "self, o", ("return isinstance(o, P) and self.v == o.v", "return NotImplemented")),
    ("__lt__", "self, o", (f"return self.v < {_OTHER}", "return NotImplemented")),
    ("__gt__", "self, o", (f"return self.v > {_OTHER}",)),
    ("__len__", "self", ("return abs(self.v) % 4", "return -1", "return True", "return 2.0")),
    ("__bool__", "self", ("return self.v > 0", "return 0")),
    ("__hash__", "self", ("return self.v", "return 2 ** 70", "return -1")),
    ("__iter__", "self", ("return iter(range(abs(self.v) % 4))", "return iter([self.v, -self.v])")),
)
"""Dunder methods `class P` may have: name, parameters, and the bodies it may have."""

_RECORDING_MODE = """class Rec(torch.overrides.TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.log = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.log.append(func.__name__)
        return func(*args, **(kwargs or {}))
"""

_PLACEHOLDER = re.compile(r"<([a-z|]+)>")
TEMPLATES: dict[str, tuple[str, ...]] = {
    "type_errors": (
        "(<int> + <str>)", "(<list> + <str>)", "(<str> < <int>)", "<str>[<float>]",
        "<list>[<str>]", "<dict>[<list>]", "(-<str>)", "(<int> in <int>)",
        "(<dict> + <dict>)", "(<int>)(<int>)", "<list>.push(<int>)",
    ),
    "odd_builtins": (
        "len(<int>)", "abs(<str>)", "int(<str>)", "max()", "min(<list>)", "sorted(<int>)",
        "round(<float>, <str>)", "divmod(<int>)", "chr(<int>)",
        "pow(<int>, <int>, 0)", "sum(<list>, start=<int>)", "float(<list>)",
        "<str>.join(<list>)", "range(<float>)", "ord(<str>)", "dict(<list>)", "min(<int>)",
    ),
    "builtin_arg_checks": (
        "sorted(<list>, None)", "sum(<list>, <str>)", "max(<int>, 2, default=0)",
        "isinstance(<list>, 5)", "sorted([<int>, <str>])", "str(b'ab', 'ascii')",
        "dict([(1, 2, 3)])", "(<list> * 2.0)", "int(<str>, base=37)", "len(<list>, <list>)",
        "<list>.index(<int>, 1)", "(<int>).real.foo", "<dict>.get(<str>, 1).upper()",
        "<list>[::<int>]", "list(<list>, bad=1)", "abs()",
    ),
    "classes": (
        "(<obj> + <obj|int>)", "(<int> + <obj>)", "(<obj> < <obj|int>)", "(<obj> > <obj|int>)",
        "(<obj> == <obj|int>)", "len(<obj>)", "hash(<obj>)", "list(<obj>)", "repr(<obj>)",
        "bool(<obj>)", "len({<obj>, <obj>})",
        "(<obj> if <obj> else <int>)", "[v for v in <obj>]",
    ),
    "sort_objects": (
        "sorted([<obj>, <obj>])", "max(<obj>, <obj>)", "sorted([<int>, <float>, <str>])",
    ),
    "tensors": (
        "<tensor>.tolist()", "tuple(<tensor>.shape)", "bool(<tensor>.sum() > 0)",
        "float(<tensor>.sum())", "<tensor>.dtype", "<tensor>.shape[0]",
    ),
    "contiguous_identity": ("(<tensor>.contiguous() is t)",),
    "objects_in_lists": ("(<obj> in [<obj>, <int>])", "[<obj>, <int>].count(<obj>)"),
}  # fmt: skip
"""Expressions of no fixed kind, by feature, for `ProgramWriter.template`."""
