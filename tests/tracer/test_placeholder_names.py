"""`_placeholder_name` answers a plain local's name without the regex; every answer must be the
regex's own."""

import re

from hypothesis import given
from hypothesis import strategies as st

from tracer.output_graph import _placeholder_name


def general(source_name: str) -> str:
    name = re.sub(r"\W+", "_", source_name.replace("L[", "").replace("G[", "")).strip("_")
    return name or "input"


NAMES = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True),
    st.text(max_size=6),
    st.sampled_from(["_", "__", "_x_", "x']['y", "é", "if", "L", "a b", "0x"]),
)


@given(NAMES, st.sampled_from(["L['{}']", "G['{}']", "L['{}'][0]", "{}", "L['{}'].w"]))
def test_placeholder_names_are_the_regex_answer(name: str, template: str) -> None:
    source_name = template.format(name)
    assert _placeholder_name(source_name) == general(source_name)


def test_plain_locals() -> None:
    assert [_placeholder_name(n) for n in ("L['x']", "L['_y_']", "L['__']", "L['ws'][1]")] == [
        "x", "y", "input", "ws_1"
    ]  # fmt: skip
