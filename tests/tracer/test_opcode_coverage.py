"""Every opcode of the running CPython (3.11, 3.12 or 3.13) has a handler or an explicit,
named unsupported entry; the opcodes `dis` never shows in a function's code (pseudo,
instrumented and cache entries) aside. CI runs this file on each supported version (.ci/run),
so each is checked against its own `dis.opmap`: an opcode a new version (or release) adds
fails here until it is handled or named as unsupported."""

import dis
import sys
from collections.abc import Mapping

import pytest

from tracer.bytecode_versions import (
    ADDED_IN_312,
    ADDED_IN_313,
    KNOWN_OPNAMES,
    NOT_IN_BYTECODE,
    ONLY_IN_311,
)
from tracer.translator import InstructionTranslator
from tracer.translator.base import EXPLICITLY_UNSUPPORTED, TranslatorBase, _missing_opcode
from tracer.translator.instructions import instructions_of


def _has_handler(opcode: int) -> bool:
    table = InstructionTranslator.dispatch_table
    return opcode < len(table) and table[opcode] is not _missing_opcode


def unhandled(opmap: Mapping[str, int]) -> list[str]:
    """The opcodes of `opmap` with neither a handler nor an unsupported entry."""
    return [
        name
        for name, opcode in opmap.items()
        if not _has_handler(opcode)
        and name not in EXPLICITLY_UNSUPPORTED
        and name not in NOT_IN_BYTECODE
    ]


def test_every_opcode_is_handled_or_explicitly_unsupported() -> None:
    assert unhandled(dis.opmap) == []


def test_an_opcode_a_new_version_adds_is_reported() -> None:
    """What the check above does when CPython adds an opcode: it is reported by name."""
    new = {"BINARY_WHATEVER": max(dis.opmap.values()) + 1, "LOAD_LOCALS_TWICE": 255}
    assert unhandled({**dis.opmap, **new}) == ["BINARY_WHATEVER", "LOAD_LOCALS_TWICE"]


# The opcodes of each version that the check above leaves aside (besides the INSTRUMENTED_
# copies): `dis` never shows them in a function's code. Pinned, so that an opcode a release
# adds to this group is looked at rather than skipped unseen.
NEVER_IN_CODE = {
    (3, 11): {"CACHE"},
    (3, 12): {
        "CACHE", "INTERPRETER_EXIT", "RESERVED",
        # pseudo-instructions (the compiler's own; dis.opmap has them from 3.12 on)
        "JUMP", "JUMP_NO_INTERRUPT", "LOAD_METHOD", "LOAD_SUPER_METHOD", "LOAD_ZERO_SUPER_ATTR",
        "LOAD_ZERO_SUPER_METHOD", "POP_BLOCK", "SETUP_CLEANUP", "SETUP_FINALLY", "SETUP_WITH",
        "STORE_FAST_MAYBE_NULL",
    },
    (3, 13): {
        "CACHE", "ENTER_EXECUTOR", "EXIT_INIT_CHECK", "INTERPRETER_EXIT", "RESERVED",
        "JUMP", "JUMP_NO_INTERRUPT", "LOAD_CLOSURE", "LOAD_METHOD", "LOAD_SUPER_METHOD",
        "LOAD_ZERO_SUPER_ATTR", "LOAD_ZERO_SUPER_METHOD", "POP_BLOCK", "SETUP_CLEANUP",
        "SETUP_FINALLY", "SETUP_WITH", "STORE_FAST_MAYBE_NULL",
    },
}  # fmt: skip


def test_the_opcodes_left_aside_are_the_known_ones() -> None:
    left_aside = {name for name in NOT_IN_BYTECODE if not name.startswith("INSTRUMENTED_")}
    assert left_aside == NEVER_IN_CODE[sys.version_info[:2]]
    instrumented = {name for name in NOT_IN_BYTECODE if name.startswith("INSTRUMENTED_")}
    # each is an instrumented copy of an opcode the check covers, or one of the two events
    assert {
        name for name in instrumented if name.removeprefix("INSTRUMENTED_") not in dis.opmap
    } <= {"INSTRUMENTED_LINE", "INSTRUMENTED_INSTRUCTION"}


def test_version_tables_match_the_running_dis() -> None:
    """`bytecode_versions`' lists of which version added or removed which opcode agree with
    this version's `dis.opmap`."""
    version = sys.version_info[:2]
    opnames = set(dis.opmap)
    facts = [
        (ONLY_IN_311, version == (3, 11)),
        (ADDED_IN_312, version >= (3, 12)),
        (ADDED_IN_313, version >= (3, 13)),
        (frozenset({"FORMAT_VALUE", "KW_NAMES"}), version < (3, 13)),  # removed in 3.13
    ]
    for names, present in facts:
        if present:
            assert sorted(names - opnames) == []
        else:
            assert sorted(names & opnames) == []
    assert opnames <= KNOWN_OPNAMES


class _Base:
    def method(self) -> int:
        return 1


class _Derived(_Base):
    def method(self) -> int:
        return super().method() + 1


def _closure(x: int) -> object:
    def inner() -> int:
        return x

    return inner, "a".upper()


def test_what_the_decode_step_makes_is_handled() -> None:
    """The decode step turns some instructions into pseudo-instructions (LOAD_METHOD,
    LOAD_SUPER_METHOD, LOAD_CLOSURE), which the check above leaves aside: each one it makes
    from code using them has a handler too."""
    decoded = {
        (inst.opcode, inst.opname)
        for fn in (_Derived.method, _closure)
        for inst in instructions_of(fn.__code__)
    }
    assert [name for opcode, name in sorted(decoded) if not _has_handler(opcode)] == []
    assert "LOAD_METHOD" in {name for _, name in decoded}


def test_unsupported_entries_are_not_also_handled() -> None:
    both = [
        name
        for name in EXPLICITLY_UNSUPPORTED
        if name in dis.opmap
        and InstructionTranslator.dispatch_table[dis.opmap[name]] is not _missing_opcode
    ]
    assert both == []


def test_unsupported_entries_are_opcodes_of_a_supported_version() -> None:
    assert sorted(set(EXPLICITLY_UNSUPPORTED) - KNOWN_OPNAMES) == []


def test_handler_names_must_be_real_opcodes() -> None:
    with pytest.raises(Exception, match="LOAD_FASTT is not a CPython opcode"):

        class Typo(TranslatorBase):
            def LOAD_FASTT(self, inst: object) -> None:
                pass
