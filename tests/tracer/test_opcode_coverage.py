"""Every CPython 3.11 opcode has a handler or an explicit, named unsupported entry."""

import dis

import pytest

from tracer.translator import InstructionTranslator
from tracer.translator.base import EXPLICITLY_UNSUPPORTED, TranslatorBase, _missing_opcode


def test_every_opcode_is_handled_or_explicitly_unsupported() -> None:
    unhandled = [
        name
        for name, opcode in dis.opmap.items()
        if InstructionTranslator.dispatch_table[opcode] is _missing_opcode
        and name not in EXPLICITLY_UNSUPPORTED
    ]
    assert unhandled == []


def test_unsupported_entries_are_not_also_handled() -> None:
    both = [
        name
        for name in EXPLICITLY_UNSUPPORTED
        if InstructionTranslator.dispatch_table[dis.opmap[name]] is not _missing_opcode
    ]
    assert both == []


def test_handler_names_must_be_real_opcodes() -> None:
    with pytest.raises(Exception, match="LOAD_FASTT is not a CPython 3.11 opcode"):

        class Typo(TranslatorBase):
            def LOAD_FASTT(self, inst: object) -> None:
                pass
