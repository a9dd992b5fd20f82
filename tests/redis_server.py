"""A Redis server for the graph cache's tests: `RedisServer.start()` runs `redis-server` from
PATH on 127.0.0.1 on a free port, with no persistence, and `stop()` ends it. Where
redis-server is not on PATH the test skips, except under MODETRACE_REQUIRE_REDIS=1 (`make
test` sets it; `.ci/run` installs Debian's redis-server), where it fails: CI must really run
these tests, as with MODETRACE_REQUIRE_TORCH in tests/real_torch.py."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest


def redis_server_path() -> str:
    found = shutil.which("redis-server")
    if found is None:
        if os.environ.get("MODETRACE_REQUIRE_REDIS") == "1":
            pytest.fail("MODETRACE_REQUIRE_REDIS=1 but redis-server is not on PATH")
        pytest.skip("redis-server is not on PATH (apt-get install redis-server)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    def __init__(self, process: subprocess.Popen[bytes], port: int, directory: str) -> None:
        self.process = process
        self.port = port
        self.directory = directory

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    @classmethod
    def start(cls) -> RedisServer:
        server = redis_server_path()
        directory = tempfile.mkdtemp(prefix="modetrace-redis-")
        port = free_port()
        process = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", directory, "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        started = cls(process, port, directory)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return started
            except OSError:
                time.sleep(0.05)
        started.stop()
        raise RuntimeError(f"redis-server did not listen on 127.0.0.1:{port} within 10 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)
