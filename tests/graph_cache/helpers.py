"""Running tests/graph_cache/child.py in another process, and reading entries."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def child_command(name: str) -> list[str]:
    return [sys.executable, "-m", "tests.graph_cache.child", name]


def child_env(cache_dir: Path, remote: str = "") -> dict[str, str]:
    return {
        **os.environ,
        "MODETRACE_CACHE_DIR": str(cache_dir.parent),
        "MODETRACE_REMOTE_CACHE": remote,
        "MODETRACE_GRAPH_CACHE": "1",
    }


def run_child(name: str, cache_dir: Path, remote: str = "") -> dict[str, Any]:
    """Compile workload `name` in a new process sharing `cache_dir` (the `fxgraph` folder)."""
    done = subprocess.run(
        child_command(name),
        cwd=ROOT,
        env=child_env(cache_dir, remote),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def entries(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("*.json"))


def read_entry(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data
