"""The graph cache across processes: a second process compiling the same function loads the
first one's plan from the local cache, and two processes writing the same key at once both
succeed and leave one valid entry."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.graph_cache.helpers import ROOT, child_command, child_env, entries, read_entry, run_child


def test_a_second_process_hits_the_local_cache_with_the_same_key_and_result(
    cache_dir: Path,
) -> None:
    first = run_child("softmax", cache_dir)
    assert (
        first["inductor_fx_cache_miss_count"] == 1 and first["inductor_fx_cache_hit_count"] is None
    )
    (key,) = first["inductor_fx_cache_miss_keys"]
    (path,) = entries(cache_dir)
    assert path.name == f"{key}.json"
    stored = read_entry(path)

    second = run_child("softmax", cache_dir)
    assert second["inductor_fx_cache_hit_count"] == 1
    assert second["inductor_fx_cache_miss_count"] is None
    assert second["inductor_fx_cache_hit_keys"] == [key]
    assert second["inductor_fx_cache_backend_type"] == "local"
    assert second["result"] == first["result"]
    # the time the hit saved is the compile time the first process recorded with the entry
    assert second["remote_cache_time_saved_us"] == stored["compile_time_us"] > 0
    assert first["warnings"] == second["warnings"] == []


def test_two_processes_writing_the_same_key_at_once_both_succeed(cache_dir: Path) -> None:
    processes = [
        subprocess.Popen(
            child_command("chain"),
            cwd=ROOT,
            env=child_env(cache_dir),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    assert all(o["result"] == outputs[0]["result"] for o in outputs)
    assert all(o["warnings"] == [] for o in outputs)
    keys = {k for o in outputs for k in (o["inductor_fx_cache_miss_keys"] or [])}
    keys |= {k for o in outputs for k in (o["inductor_fx_cache_hit_keys"] or [])}
    (key,) = keys
    # one complete entry, no temporary file left behind
    assert [p.name for p in cache_dir.iterdir()] == [f"{key}.json"]
    assert run_child("chain", cache_dir)["inductor_fx_cache_hit_keys"] == [key]


def test_concurrent_writers_never_leave_a_partial_entry(cache_dir: Path) -> None:
    """Writers in other processes replace one key's file over and over while this process
    reads it: every read is a complete entry (os.replace is atomic)."""
    key = "fx" + "0" * 32
    big = "x" * 200_000  # large enough that a non-atomic write would be seen half done
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from tracer.graph_cache.entry import encode\n"
        "from tracer.graph_cache.local import LocalCache\n"
        "cache = LocalCache(Path(sys.argv[1]))\n"
        f"big = 'x' * {len(big)}\n"
        f"for i in range(150): cache.put({key!r}, encode({key!r}, 'fused', i, {{'pad': big}}))\n"
    )
    from tracer.graph_cache.entry import decode
    from tracer.graph_cache.local import LocalCache

    cache = LocalCache(cache_dir)
    writers = [
        subprocess.Popen([sys.executable, "-c", script, str(cache_dir)], cwd=ROOT) for _ in range(2)
    ]
    reads = 0
    while any(w.poll() is None for w in writers):
        text = cache.get(key)
        if text is not None:
            payload, _ = decode(text, key, "fused")  # raises on a partial file
            assert payload == {"pad": big}
            reads += 1
    assert all(w.returncode == 0 for w in writers)
    assert reads > 0
    assert [p.name for p in cache_dir.iterdir()] == [f"{key}.json"]
