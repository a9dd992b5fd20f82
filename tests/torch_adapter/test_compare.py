"""`python -m tracer compare FILE.py:FUNC --args EXPR` and `tracer.compare(fn)(*args)`: both
explains side by side, one-line errors for bad input, a clear message without torch, and
`import tracer` never importing torch."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tracer
from tests.cli.conftest import ROOT, run_cli
from tests.real_torch import real_torch
from tests.resume.test_release import deleted_then_collected
from tracer import side_by_side
from tracer.testing import assert_same_behavior

USER_FILE = textwrap.dedent(
    """
    import torch

    def f(x, n):
        y = torch.sin(x) * n
        print("midway")
        return y.relu() + 1

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc(x).relu()

    class Scaler:
        def scale(self, x):
            return x * 3

    torch.manual_seed(0)
    net = Net()
    scaler = Scaler()
    """
)


@pytest.fixture
def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "user.py"
    path.write_text(USER_FILE.lstrip())
    return path


def test_compare_prints_both_explains_side_by_side(user_file: Path) -> None:
    real_torch()
    done = run_cli("compare", f"{user_file}:f", "--args", "torch.ones(3), 2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "modetrace" in out and "dynamo" in out
    assert "ops, graph 1     sin, mul" in out and "ops, graph 2     relu, add" in out
    assert "user.py:5 in f: call to builtin print is not supported" in out
    assert "TENSOR_MATCH L['x']" in out and "GLOBAL_STATE ___global_state" in out
    assert "same graphs: yes" in out
    assert "results agree with eager: yes" in out


@pytest.mark.parametrize(
    ("target", "ops"), [("net", "linear, relu"), ("scaler.scale", "mul")], ids=["module", "method"]
)
def test_compare_takes_what_tracer_compile_takes(user_file: Path, target: str, ops: str) -> None:
    """An nn.Module instance or a bound method named in the file, as `tracer.compile` takes
    them (the module's forward compiled with `self` an input)."""
    real_torch()
    done = run_cli("compare", f"{user_file}:{target}", "--args", "torch.ones(3)")
    assert done.returncode == 0, done.stderr
    assert f"ops, graph 1     {ops}" in done.stdout
    assert "same graphs: yes" in done.stdout
    assert "results agree with eager: yes" in done.stdout


def test_explain_evaluates_args_with_the_files_own_torch(user_file: Path) -> None:
    """`explain` binds `torch` to the runtime only where the file binds none: this file's
    module is real torch's, so `torch.ones(3)` must be a real tensor for it."""
    real_torch()
    done = run_cli("explain", f"{user_file}:net", "--args", "torch.ones(3)")
    assert done.returncode == 0, done.stderr
    assert "linear" in done.stdout and "relu" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("{file}:g", "--args", "1"), "no function 'g' in this file"),
        (("{file}:Net", "--args", "1"), "'Net' is a type, not a Python function"),
        (("{file}:torch", "--args", "1"), "'torch' is a module, not a Python function"),
        (("{file}:f", "--args", "torch.ones(3"), "is not an expression"),
        (("{dir}/nope.py:f",), "nope.py: no such file"),
        (("{file}",), "expected FILE.py:FUNC"),
        (("{file}:f", "--args", "undefined_name"), "NameError"),
    ],
)
def test_bad_input_is_one_line_on_stderr(
    user_file: Path, args: tuple[str, ...], message: str
) -> None:
    real_torch()
    filled = [a.format(file=user_file, dir=user_file.parent) for a in args]
    done = run_cli("compare", *filled)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("python -m tracer compare: error:"), lines
    assert message in lines[0]


def test_without_torch_compare_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(side_by_side.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(tracer.UserError, match="needs PyTorch, which is not installed"):
        tracer.compare(lambda x: x)


def test_without_torch_the_cli_says_so(user_file: Path, tmp_path: Path) -> None:
    """A `torch` that cannot be found: a directory on the path that hides it is not enough
    (find_spec would find the real one after it), so the child is told torch is absent."""
    code = (
        "import importlib.util, sys\n"
        "real = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda n, *a: None if n == 'torch' else real(n, *a)\n"
        "from tracer.cli import main\n"
        f"sys.exit(main(['compare', {str(user_file) + ':f'!r}, '--args', '1']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 2
    assert "needs PyTorch, which is not installed" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_in_an_interpreter_without_torch_the_cli_says_so(user_file: Path) -> None:
    """The real thing, where torch is not installed at all (`make test-without-torch`)."""
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("torch is installed: `make test-without-torch` runs this without it")
    done = subprocess.run(
        [sys.executable, "-m", "tracer", "compare", f"{user_file}:f", "--args", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2
    expected = (
        "python -m tracer compare: error: comparing with Dynamo needs PyTorch, which is not "
        "installed (pip install -e '.[torch]')"
    )
    assert done.stderr.strip().splitlines() == [expected], done.stderr


def test_import_tracer_does_not_import_torch() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, tracer; print('torch' in sys.modules)"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.stdout.strip() == "False", done.stderr


def test_compare_from_python_reports_a_difference() -> None:
    """A function that raises: modetrace raises eager torch's RuntimeError (the fake run's
    error is the user's), Dynamo its own TorchRuntimeError; the comparison says so."""
    torch = real_torch()

    def bad(x: object) -> object:
        return torch.ones(2) + torch.ones(3)

    comparison = tracer.compare(bad)(torch.ones(1))
    assert "RuntimeError" in repr(comparison.eager)
    assert comparison.modetrace_agrees
    assert not comparison.dynamo_agrees
    assert "results agree with eager: NO (modetrace yes, dynamo NO)" in str(comparison)


def test_compare_leaves_a_dynamo_compile_that_raised_without_after_effects() -> None:
    """torch.compile on a function that raises leaves Dynamo's PEP 523 frame-evaluation hook
    installed (torch 2.13), and with it CPython no longer inlines a call of one Python
    function by another: the caller holds the call's arguments until the call returns, so an
    object a resume function was handed and dropped stayed alive (tests/resume/test_release.py
    failed when run after test_compare_from_python_reports_a_difference). compare puts the
    interpreter back as it found it."""
    torch = real_torch()

    def bad(x: object) -> object:
        return torch.ones(2) + torch.ones(3)

    assert not tracer.compare(bad)(torch.ones(1)).dynamo_agrees
    assert_same_behavior(deleted_then_collected)


def test_a_large_result_prints_on_short_lines() -> None:
    """The explains are read side by side: a result's repr (a tensor's runs to thousands of
    characters, over many lines) is cut to the width of the two columns, eager's included."""
    torch = real_torch()

    def double(x: object) -> object:
        return x * 2

    from tracer.torch_adapter.compare import WIDTH

    text = str(tracer.compare(double)(torch.arange(4000.0).reshape(40, 100)))
    eager = next(line for line in text.splitlines() if line.startswith("eager result: "))
    assert eager.endswith("…") and "tensor([[" in eager
    assert max(map(len, text.splitlines())) <= 17 + 2 * WIDTH + 2  # label, two columns


def test_random_ops_draw_the_same_numbers_in_every_run() -> None:
    """Eager, modetrace and Dynamo each start from the generator's state at the call, so a
    function that draws (dropout in training) agrees; the generator is left as eager left it."""
    torch = real_torch()

    def noisy(x: object) -> object:
        return torch.nn.functional.dropout(x, 0.5, training=True) + torch.rand(3)

    torch.manual_seed(3)
    comparison = tracer.compare(noisy)(torch.ones(3))
    assert comparison.results_agree, comparison
    after = torch.rand(1)
    torch.manual_seed(3)
    noisy(torch.ones(3))
    assert torch.equal(after, torch.rand(1))
