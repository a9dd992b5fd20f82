"""`match` statements (3.11): MATCH_CLASS, MATCH_MAPPING, MATCH_SEQUENCE, MATCH_KEYS, GET_LEN.

The checks follow CPython's `match_class` and `match_keys` step by step on trackers: the class
must be a constant, `isinstance` is decided from the subject's type, the attributes a class
pattern extracts are read with the tracker's own `getattr` (a missing attribute makes the
pattern fail, as in CPython), and the errors are CPython's own messages. The `**rest` of a
mapping pattern needs no opcode of its own in 3.11 (BUILD_MAP, DICT_UPDATE, DELETE_SUBSCR).
"""

from __future__ import annotations

from typing import Any

from guards.guard import IMMUTABLE_TYPE
from tracer.exc import Unsupported, unimplemented
from tracer.translator.base import TranslatorBase
from tracer.translator.instructions import Instruction
from variables.base import NotConstantError, VariableTracker
from variables.builtin import BuiltinVariable
from variables.constant import ConstantVariable
from variables.dicts import key_of
from variables.instance_checks import guard_abc_registrations, object_instance_of
from variables.lists import TupleVariable


def _match_class(cls: Any) -> None:
    match 0:
        case cls():
            pass


def _not_a_class_message() -> str:
    """CPython's own words for a class pattern whose class is not a class (3.12 reworded)."""
    try:
        _match_class(1)
    except TypeError as e:
        return str(e)
    raise AssertionError("a class pattern of 1 matched")


_NOT_A_CLASS_MESSAGE = _not_a_class_message()

_TPFLAGS_SEQUENCE = 1 << 5
_TPFLAGS_MAPPING = 1 << 6
"""Py_TPFLAGS_SEQUENCE and Py_TPFLAGS_MAPPING: what MATCH_SEQUENCE and MATCH_MAPPING test
(`type.__flags__` shows them; collections.abc registration sets them too)."""

_TPFLAGS_HEAPTYPE = 1 << 9
"""Clear on static (C) types, whose attributes can't be set."""

_MATCH_SELF = (bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple)
"""Builtin types (and their subclasses) whose one positional sub-pattern is the subject itself
(`case int(n)`), CPython's _Py_TPFLAGS_MATCH_SELF."""

_MISSING: Any = object()


class MatchOps(TranslatorBase):
    def MATCH_CLASS(self, inst: Instruction) -> None:
        """MATCH_CLASS(count): pop the keyword names, the class and the subject; push the tuple
        of extracted attributes (count positional, then the keywords), or None if no match."""
        assert inst.arg is not None
        names = self.pop().realize().as_python_constant()
        cls_vt = self.pop()
        cls = self._constant(cls_vt, "the class of a class pattern")
        subject = self.pop().realize()
        if not isinstance(cls, type):
            self.raise_user_error(TypeError(_NOT_A_CLASS_MESSAGE))
        if not object_instance_of(self, subject, cls, cls_vt):
            self.push(ConstantVariable(None))
            return
        wanted = [*self._positional_names(cls, inst.arg), *names]
        attrs: list[VariableTracker] = []
        if wanted[:1] == [_MISSING]:  # a builtin type matched against itself: `case int(n)`
            attrs.append(subject)
            wanted = wanted[1:]
        seen: set[str] = set()
        for name in wanted:
            if name in seen:
                self.raise_user_error(
                    TypeError(f"{cls.__name__}() got multiple sub-patterns for attribute {name!r}")
                )
            seen.add(name)
            attr = self._attribute_or_none(subject, name)
            if attr is None:
                self.push(ConstantVariable(None))
                return
            attrs.append(attr)
        self.push(TupleVariable(attrs))

    def _positional_names(self, cls: type, count: int) -> list[Any]:
        """The names of `count` positional sub-patterns from `cls.__match_args__` (CPython's
        errors when there are too few or they are not strings); `[_MISSING]` for the one
        positional sub-pattern of a builtin type that matches itself."""
        if not count:
            return []
        match_args = self._class_attribute(cls, "__match_args__")
        if match_args is _MISSING:
            match_self = issubclass(cls, _MATCH_SELF)
            match_args = ()
        elif type(match_args) is not tuple:
            self.raise_user_error(
                TypeError(
                    f"{cls.__name__}.__match_args__ must be a tuple "
                    f"(got {type(match_args).__name__})"
                )
            )
        else:
            match_self = False
        allowed = 1 if match_self else len(match_args)
        if allowed < count:
            plural = "" if allowed == 1 else "s"
            self.raise_user_error(
                TypeError(
                    f"{cls.__name__}() accepts {allowed} positional sub-pattern{plural} "
                    f"({count} given)"
                )
            )
        if match_self:
            return [_MISSING]
        names = list(match_args[:count])
        for name in names:
            if type(name) is not str:
                self.raise_user_error(
                    TypeError(
                        f"__match_args__ elements must be strings (got {type(name).__name__})"
                    )
                )
        return names

    def _class_attribute(self, cls: type, name: str) -> Any:
        """`getattr(cls, name)`, or _MISSING: a static (C) type's attributes can't change, so
        CPython reads them; a user class's are read through its tracker (and so guarded where
        they were found)."""
        from variables.builder import wrap_class

        if not cls.__flags__ & _TPFLAGS_HEAPTYPE:
            return getattr(cls, name, _MISSING)
        found = self._attribute_or_none(wrap_class(cls), name)
        if found is None:
            return _MISSING
        return self._constant(found, f"{cls.__name__}.{name}")

    def _attribute_or_none(self, obj: VariableTracker, name: str) -> VariableTracker | None:
        """`getattr(obj, name)`, or None where it raises AttributeError (other errors are the
        user's, as in CPython)."""
        try:
            return obj.realize().var_getattr(self, name)
        except Unsupported as e:
            if isinstance(e.user_exception, AttributeError):
                return None
            raise

    def _constant(self, vt: VariableTracker, what: str) -> Any:
        try:
            return vt.realize().as_python_constant()
        except NotConstantError:
            unimplemented("match", f"{what} is not a constant while tracing")

    def MATCH_MAPPING(self, inst: Instruction) -> None:
        """Push whether the subject (left on the stack) is a mapping for `case {...}`."""
        self.push(ConstantVariable(self._subject_flag(_TPFLAGS_MAPPING)))

    def MATCH_SEQUENCE(self, inst: Instruction) -> None:
        """Push whether the subject (left on the stack) is a sequence for `case [...]`."""
        self.push(ConstantVariable(self._subject_flag(_TPFLAGS_SEQUENCE)))

    def _subject_flag(self, flag: int) -> bool:
        """Does the subject's type have `flag`? A class that can change gains it when it is
        registered with `collections.abc.Sequence` or `Mapping`: abc's cache token, which
        that bumps, is guarded."""
        kind = self.peek(1).realize().python_type()
        if not kind.__flags__ & IMMUTABLE_TYPE:
            guard_abc_registrations(self)
        return bool(kind.__flags__ & flag)

    def GET_LEN(self, inst: Instruction) -> None:
        """Push `len(subject)`, the subject left on the stack."""
        self.push(BuiltinVariable(len).call_function(self, [self.peek(1)], {}))

    def MATCH_KEYS(self, inst: Instruction) -> None:
        """Push the tuple of the subject's values for the keys (both left on the stack), or
        None if one is missing (CPython asks `subject.get(key, dummy)`: for a dict, membership
        then the item)."""
        keys_vt = self.peek(1)
        subject = self.peek(2).realize()
        keys = keys_vt.realize().unpack(self)
        if subject.python_type() is not dict:
            unimplemented(
                "match", f"a mapping pattern on a {subject.type_name()} (its get may be user code)"
            )
        values: list[VariableTracker] = []
        seen: list[Any] = []
        for key_vt in keys:
            key = key_of(key_vt)
            if key in seen:
                self.raise_user_error(ValueError(f"mapping pattern checks duplicate key ({key!r})"))
            seen.append(key)
            present = subject.call_method(self, "__contains__", [key_vt], {})
            if not present.realize().as_python_constant():
                self.push(ConstantVariable(None))
                return
            values.append(subject.call_method(self, "__getitem__", [key_vt], {}))
        self.push(TupleVariable(values))
