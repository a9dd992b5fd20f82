"""Where a process pays for the `redis` client (tracer/graph_cache/remote.py): without a remote
cache, never; with MODETRACE_REMOTE_CACHE set, at `import tracer` (the package imported and
the client made), and it connects on its first get, inside the first compile. A missing
or broken package is reported by that first use, not by the import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.graph_cache.helpers import ROOT
from tests.redis_server import RedisServer, free_port

PREAMBLE = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as at_import:
    import tracer
    import tracer.runtime as torch
out = {"redis_at_import": "redis" in sys.modules, "import_warnings": len(at_import)}

def compile_once():
    with warnings.catch_warnings(record=True) as caught:
        x = torch.arange(12.0).reshape(3, 4)
        result = tracer.compile(lambda x: (x * 2.0 + 1.0).relu(), backend="fused")(x)
    record = tracer.get_compilation_metrics()[-1]
    out["result"] = result.tolist()
    out["miss"] = record.inductor_fx_cache_miss_count
    out["warnings"] = [str(w.message) for w in caught]
"""


def run(script: str, cache: Path, remote: str, before: str = "") -> dict[str, Any]:
    """Run PREAMBLE then `script` in a new process (`before` runs first); its `out`."""
    env = {"MODETRACE_CACHE_DIR": str(cache), "MODETRACE_REMOTE_CACHE": remote, "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-c", before + PREAMBLE + script + "\nprint(json.dumps(out))"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_without_a_remote_cache_the_redis_package_is_never_imported(tmp_path: Path) -> None:
    out = run('compile_once()\nout["redis_after"] = "redis" in sys.modules', tmp_path, "")
    assert out["redis_at_import"] is False and out["redis_after"] is False
    assert out["miss"] == 1 and out["warnings"] == []


def test_a_configured_remote_cache_loads_the_client_at_import_and_connects_on_first_use(
    tmp_path: Path, own_redis_server: RedisServer
) -> None:
    script = """
import redis
from tracer.graph_cache.remote import load_client
watcher = redis.Redis.from_url(URL)
out["clients_before"] = len(watcher.client_list())
out["import_us"] = load_client().import_us
compile_once()
out["clients_after"] = len(watcher.client_list())
""".replace("URL", repr(own_redis_server.url))
    out = run(script, tmp_path, own_redis_server.url)
    assert out["redis_at_import"] is True and out["import_warnings"] == 0
    assert out["import_us"] > 0
    assert out["clients_before"] == 1  # the watcher itself: importing tracer did not connect
    assert out["clients_after"] == 2  # the compile's lookup connected
    assert out["miss"] == 1 and out["warnings"] == []


BROKEN = {
    "missing": (
        'import sys\nsys.modules["redis"] = None  # `import redis` raises ImportError\n',
        "the redis package is not installed",
    ),
    "broken": (  # a package whose import raises something else than ImportError
        "import sys\nsys.path.insert(0, PACKAGES)\n",
        "importing the redis package failed (RuntimeError: half installed)",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_an_unusable_redis_package_is_one_warning_at_the_first_compile_not_at_import(
    tmp_path: Path, case: str
) -> None:
    packages = tmp_path / "packages"
    (packages / "redis").mkdir(parents=True)
    (packages / "redis" / "__init__.py").write_text('raise RuntimeError("half installed")\n')
    before, said = BROKEN[case]
    url = f"redis://127.0.0.1:{free_port()}"
    script = 'compile_once()\nfirst = out["warnings"]\ncompile_once()\nout["first"] = first'
    out = run(script, tmp_path, url, before=before.replace("PACKAGES", repr(str(packages))))
    assert out["import_warnings"] == 0
    (warning,) = out["first"]
    assert said in warning and "compiled locally" in warning
    assert out["warnings"] == []  # said once; the second compile hits the local cache
    assert out["result"] == [[2.0 * i + 1.0 for i in range(j, j + 4)] for j in (0, 4, 8)]
