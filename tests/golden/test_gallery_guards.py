"""Golden guard printouts for a few gallery samples: the tree must stay readable and stable.

Regenerate after an intended change with `MODETRACE_UPDATE_GOLDEN=1 pytest tests/golden`.
"""

import os
import re
from pathlib import Path

import pytest

import tracer
from samples import SAMPLES

GOLDEN = Path(__file__).parent / "guards"
NAMES = ["small MLP", "user class with methods", "closure", "dict of tensors", "loop over a list"]


def _printout(name: str) -> str:
    sample = next(s for s in SAMPLES if s.name == name)
    tracer.reset()
    entry = tracer.trace(sample.fn)(*sample.inputs())
    text = str(entry.entry.guard_manager)
    # file:line of the user code is stable; strip absolute directories only
    return re.sub(r"at [^\s]*/", "at ", text) + "\n"


@pytest.mark.parametrize("name", NAMES)
def test_gallery_guard_printout(name: str) -> None:
    path = GOLDEN / (re.sub(r"\W+", "_", name) + ".txt")
    actual = _printout(name)
    if os.environ.get("MODETRACE_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual)
    assert actual == path.read_text()


def test_printout_is_deterministic() -> None:
    assert _printout("small MLP") == _printout("small MLP")
