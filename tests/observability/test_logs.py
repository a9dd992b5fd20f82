from __future__ import annotations

import pytest

from tracer.observability import logs


def test_parse_topics() -> None:
    assert logs.parse_topics("recompiles, guards,,recompiles") == ("recompiles", "guards")
    assert logs.parse_topics("") == ()
    assert logs.parse_topics("all") == logs.TOPICS


def test_unknown_topic_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match=r"'recompile'.*valid topics: recompiles, graph_breaks"):
        logs.parse_topics("recompile")
    with pytest.raises(ValueError, match="unknown"):
        logs.set_logs("guards", "nope")
    with pytest.raises(ValueError, match="unknown"):
        logs.get_logger("nope")
    with pytest.raises(ValueError, match="unknown"):
        logs.enabled("nope")


def test_set_logs_switches_topics(capsys: pytest.CaptureFixture[str]) -> None:
    logs.set_logs("graph_breaks")
    assert logs.enabled("graph_breaks") and not logs.enabled("guards")
    logs.get_logger("graph_breaks").info("break at %s", "f.py:3")
    logs.get_logger("guards").warning("hidden")
    assert capsys.readouterr().err == "[modetrace.graph_breaks] break at f.py:3\n"
    logs.set_logs()
    assert not logs.enabled("graph_breaks")
    logs.get_logger("graph_breaks").error("hidden too")
    assert capsys.readouterr().err == ""


def test_logger_names() -> None:
    assert {logs.get_logger(t).name for t in logs.TOPICS} == {f"modetrace.{t}" for t in logs.TOPICS}
