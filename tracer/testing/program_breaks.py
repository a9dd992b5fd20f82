"""Programs with a graph break deep inside an expression (feature `breaks_inside`).

A break (a print, a warning, a tensor's value read into Python) in the middle of an expression
leaves what the expression has half built on the value stack: a container being displayed, a
bound method or a callable under its arguments, NULLs, keyword names, an iterator, a
with-block's exit. All of it becomes the inputs of the resume function. `BreakingWriter` adds to
`ProgramWriter` a production of every kind that breaks while it is evaluated (so any
sub-expression may break), and statements that put one at the positions expressions alone
rarely reach: `*` and `**` arguments, keyword arguments, method calls on lists, dicts, user
objects and tensors, displays that unpack, slices, f-string format specs, `with` and `for`
headers, assert messages, raise arguments, augmented assignments to items and attributes,
unpacking assignments.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from tracer.testing.program_grammar import (
    BOOL,
    DICT,
    FLOAT,
    INT,
    LIST,
    OBJ,
    STR,
    TENSOR,
    Option,
    ProgramWriter,
)  # fmt: skip


class BreakingWriter(ProgramWriter):
    """A ProgramWriter whose programs may break the graph inside expressions."""

    def more_expressions(self, kind: str, d: int) -> list[Option]:
        if kind == OBJ:
            return []
        e, lit = self.expr, self.literal
        callees: list[Callable[[], str]] = {  # the break in a comprehension, lambda or iterator
            INT: [
                lambda: f"sum((print(end='') or v) for v in {e(LIST, d)})",
                lambda: f"(lambda v: print(end='') or v * {lit(INT)})({e(INT, d)})",
                lambda: f"{e(LIST, d)}.count(next(iter([print(end='') or {e(INT, d)}])))",
            ],
            LIST: [
                lambda: f"[(print(end='') or v) + {e(INT, d)} for v in {e(LIST, d)}]",
                lambda: f"[v for v in {e(LIST, d)} if print(end='') or v > {e(INT, d)}]",
                lambda: f"list(map(lambda v: print(end='') or -v, {e(LIST, d)}))",
            ],
            DICT: [lambda: f"{{k: print(end='') or v for k, v in {e(DICT, d)}.items()}}"],
            STR: [lambda: f"''.join((print(end='') or c) for c in {e(STR, d)})"],
            BOOL: [lambda: f"any(print(end='') or v > 2 for v in {e(LIST, d)})"],
        }.get(kind, [])
        options: list[Option] = [("breaks_inside", lambda: self.broken(kind, d))]
        if callees:  # one option among them: a break in a callee sends 3.11's frame to Python
            options.append(("breaks_inside", lambda: self.pick_call(callees)))
        return options

    def pick_call(self, writers: list[Callable[[], str]]) -> str:
        return writers[self.draw(st.integers(0, len(writers) - 1))]()

    def more_statements(self) -> list[tuple[str, Callable[[], None]]]:
        return [("breaks_inside", self.break_inside)]

    def broken(self, kind: str, d: int) -> str:
        """An expression of `kind` that breaks the graph while it is evaluated (a print, a
        warning, a tensor's value read into Python), so the break happens with whatever the
        enclosing expression has half built still on the stack (feature `breaks_inside`)."""
        e, lit = self.expr, self.literal
        options: list[Callable[[], str]] = [
            lambda: f"(print(end='') or {e(kind, d)})",
            lambda: f"(print({lit(self.any_kind())}, end='') or {e(kind, d)})",
            lambda: f"(warnings.warn('w', UserWarning, stacklevel=1) or {e(kind, d)})",
        ]
        if self.on("tensors"):
            options += {
                INT: [lambda: f"int({e(TENSOR, d)}.sum().item())",
                      lambda: f"len({e(TENSOR, d)}.tolist())"],
                FLOAT: [lambda: f"{e(TENSOR, d)}.sum().item()"],
                BOOL: [lambda: f"bool({e(TENSOR, d)}.sum().item())"],
                LIST: [lambda: f"[int(v) for v in {e(TENSOR, d)}.tolist()]"],
                STR: [lambda: f"str({e(TENSOR, d)}.tolist())"],
                TENSOR: [lambda: f"{e(TENSOR, d)}.add({self.broken(INT, d + 1)})"],
            }.get(kind, [])  # fmt: skip
        return options[self.draw(st.integers(0, len(options) - 1))]()

    def fstring_spec(self) -> str:
        """An f-string whose format spec is computed by an expression that breaks."""
        self.in_fstring = True
        try:
            return f'f"{{{self.expr(FLOAT, 1)}:>{{abs({self.broken(INT, 1)}) % 6}}}}|"'
        finally:
            self.in_fstring = False

    def break_inside(self) -> None:
        """A statement with a graph break deep inside it: in a call's positional, keyword,
        `*` or `**` arguments, a method call's (on a list, a dict, a user object, a tensor),
        a display that unpacks, a subscript or slice, an f-string's format spec, a `with` or
        `for` header, an assert's message, a raise's argument, an augmented assignment to an
        item or attribute, an unpacking assignment (feature `breaks_inside`)."""
        e, b, lit = self.expr, self.broken, self.literal
        xs, dd = self.pick(self.scope[LIST]), self.pick(self.scope[DICT])
        ok_list = LIST not in self.frozen
        ok_dict = DICT not in self.frozen
        options: list[Callable[[], str]] = [
            lambda: f"out.append({b(INT, 1)})",
            lambda: f"out.append(max({e(INT, 1)}, {b(INT, 1)}, *{e(LIST, 1)}))",
            lambda: f"out.append(min(*{e(LIST, 1)}, {b(INT, 1)}))",
            lambda: f"out.append(sorted({e(LIST, 1)}, reverse={b(BOOL, 1)}))",
            lambda: f"out.append(sorted({b(LIST, 1)}, key=lambda v: -v))",
            lambda: f"out.append(round({e(FLOAT, 1)}, ndigits={b(INT, 1)} % 3))",
            lambda: f"out.append(dict({e(DICT, 1)}, z={b(INT, 1)}))",
            lambda: f"out.append(dict(**{e(DICT, 1)}, z={b(INT, 1)}))",
            lambda: f"out.append(dict(**{b(DICT, 1)}))",
            lambda: f"out.append(divmod(*[{e(INT, 1)}, {b(INT, 1)}]))",
            lambda: f"out.append(str(abs({b(INT, 1)})).zfill({e(INT, 1)}))",
            lambda: f"out.append([{e(INT, 1)}, *{e(LIST, 1)}, {b(INT, 1)}])",
            lambda: f"out.append((*{e(LIST, 1)}, {b(STR, 1)}))",
            lambda: f"out.append({{{e(INT, 1)}, *{e(LIST, 1)}, {b(INT, 1)}}} == set())",
            lambda: f"out.append({{**{e(DICT, 1)}, {e(STR, 1)}: {b(INT, 1)}, **{e(DICT, 1)}}})",
            lambda: f"out.append({e(LIST, 1)}[{b(INT, 1)}:{e(INT, 1)}])",
            lambda: f"out.append({e(DICT, 1)}[{b(STR, 1)}])",
            lambda: f"out.append({self.fstring_spec()})",
            lambda: f"out.append(({e(INT, 1)} < {b(INT, 1)} <= {e(INT, 1)}))",
            lambda: f"out.append(({e(INT, 1)} if {b(BOOL, 1)} else {e(STR, 1)}))",
            lambda: f"out.append(({e(BOOL, 1)} or {b(INT, 1)}))",
            lambda: f"out.append(-{b(INT, 1)})",
            lambda: f"out.append(not {b(LIST, 1)})",
            lambda: f"out.append({e(STR, 1)}.replace({b(STR, 1)}, {e(STR, 1)}))",
            lambda: f"out.append({e(DICT, 1)}.get({e(STR, 1)}, {b(INT, 1)}))",
            lambda: f"out.append(({dd}.{self.pick(['keys', 'values', 'items'])}(), {b(INT, 1)}))",
            lambda: (
                f"a, *rest = {e(INT, 1)}, {b(STR, 1)}, {e(INT, 1)}\n"
                f"{self.pad(0)}out.append((a, rest))"
            ),
            lambda: (
                f"(a, b), c = ({b(INT, 1)}, {e(INT, 1)}), {e(LIST, 1)}\n"
                f"{self.pad(0)}out.append((a, b, c))"
            ),
            lambda: f"for k in ({e(INT, 1)}, {b(INT, 1)}):\n{self.pad(1)}out.append(k)",
            lambda: f"for k in {b(LIST, 1)}:\n{self.pad(1)}out.append(k)",
            lambda: f"assert {e(BOOL, 1)}, ({e(STR, 1)}, {b(STR, 1)})",
            lambda: f"if {e(BOOL, 1)}:\n{self.pad(1)}raise ValueError({e(INT, 1)}, {b(STR, 1)})",
            lambda: f"if {e(BOOL, 1)}:\n{self.pad(1)}raise KeyError({b(INT, 1)}) from None",
        ]
        if ok_list:
            options += [
                lambda: f"{xs}.append({b(INT, 1)})",
                lambda: f"{xs}.insert({e(INT, 1)}, {b(INT, 1)})",
                lambda: f"{xs}[{e(INT, 1)}] += {b(INT, 1)}",
                lambda: f"{xs}[{b(INT, 1)}:{lit(INT)}] = [{b(INT, 1)}]",
                lambda: f"out.append({xs}.pop({b(INT, 1)}))",
            ]
        if ok_dict:
            options += [
                lambda: f"{dd}[{e(STR, 1)}] = {b(INT, 1)}",
                lambda: f"{dd}[{e(STR, 1)}] += {b(INT, 1)}",
                lambda: f"{dd}.update(z={b(INT, 1)})",
                lambda: f"out.append({dd}.setdefault({b(STR, 1)}, {e(INT, 1)}))",
            ]
        if self.on("classes"):
            options += [
                lambda: f"out.append({e(OBJ, 1)}.m({e(INT, 1)}, {b(INT, 1)}, k={e(STR, 1)}))",
                lambda: f"out.append({e(OBJ, 1)}.m(*{e(LIST, 1)}, k={b(INT, 1)}))",
                lambda: f"out.append({e(OBJ, 1)}.m(**{{'a': {b(INT, 1)}}}))",
                lambda: (
                    f"o = {e(OBJ, 1)}\n{self.pad(0)}o.v += {b(INT, 1)}\n{self.pad(0)}out.append(o)"
                ),
            ]
        if self.on("tensors"):
            options += [
                lambda: f"out.append({e(TENSOR, 1)}.add({b(INT, 1)}))",
                lambda: f"out.append({e(TENSOR, 1)}.add({e(TENSOR, 1)}, alpha={b(INT, 1)}))",
                lambda: f"out.append(torch.cat([{e(TENSOR, 1)}, {b(TENSOR, 1)}]))",
                lambda: f"out.append({e(TENSOR, 1)}.tolist() + [{b(FLOAT, 1)}])",
            ]
        if self.on("modes"):
            options += [
                lambda: (
                    f"with (print(end='') or Rec()) as m:\n"
                    f"{self.pad(1)}out.append({e(TENSOR, 1) if self.on('tensors') else 't + 1'})\n"
                    f"{self.pad(0)}out.append(m.log)"
                ),
                lambda: (
                    f"with Rec() as m:\n{self.pad(1)}out.append(t.add({b(INT, 1)}))\n"
                    f"{self.pad(0)}out.append(m.log)"
                ),
            ]
        self.emit(options[self.draw(st.integers(0, len(options) - 1))]())
