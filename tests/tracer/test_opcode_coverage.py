"""Every opcode of the running CPython (3.11, 3.12 or 3.13) has a handler or an explicit,
named unsupported entry; the opcodes `dis` never shows in a function's code (pseudo,
instrumented and cache entries) aside."""

import dis

import pytest

from tracer.bytecode_versions import KNOWN_OPNAMES, NOT_IN_BYTECODE
from tracer.translator import InstructionTranslator
from tracer.translator.base import EXPLICITLY_UNSUPPORTED, TranslatorBase, _missing_opcode


def test_every_opcode_is_handled_or_explicitly_unsupported() -> None:
    unhandled = [
        name
        for name, opcode in dis.opmap.items()
        if InstructionTranslator.dispatch_table[opcode] is _missing_opcode
        and name not in EXPLICITLY_UNSUPPORTED
        and name not in NOT_IN_BYTECODE
    ]
    assert unhandled == []


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
