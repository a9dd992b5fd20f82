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


def test_an_unknown_topic_in_the_environment_is_warned_about_not_raised() -> None:
    """`MODETRACE_LOGS=bogus` stopped `import tracer` with a traceback: the unknown topic is
    warned about in one line and left out; the known ones are on."""
    import os
    import subprocess
    import sys

    code = "import tracer; from tracer.observability import logs; print(logs.enabled('guards'))"
    env = dict(os.environ, MODETRACE_LOGS="bogus,guards")
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr

    assert done.stdout.strip() == "True"
    assert "unknown MODETRACE_LOGS topic(s) 'bogus'" in done.stderr
    assert "Traceback" not in done.stderr
