"""Several processes and one metrics database: two writers compiling the gallery at once each
find every compile stored exactly once, and a writer killed with SIGKILL mid-run leaves a
database that opens and answers `summary`."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tracer.observability.metrics import report

ROOT = Path(__file__).resolve().parents[2]
CHILD = "tests.observability.metrics_store_child"


def start_writer(db: Path, out: Path, batch: int, rounds: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", CHILD, str(db), str(out), str(batch), str(rounds)], cwd=ROOT
    )


def test_two_processes_store_every_compile_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    # one transaction per compile in one writer, batches of 4 in the other: many interleavings
    writers = [start_writer(db, outs[0], 1, 3), start_writer(db, outs[1], 4, 3)]
    assert [w.wait(timeout=300) for w in writers] == [0, 0]
    con = sqlite3.connect(db)
    runs = dict(con.execute("SELECT pid, run_id FROM dynamo_compile GROUP BY pid").fetchall())
    assert set(runs) == {w.pid for w in writers}
    for writer, out in zip(writers, outs, strict=True):
        records = json.loads(out.read_text())
        stored = con.execute(
            "SELECT seq, compile_id, recompile_reason, duration_us FROM dynamo_compile "
            "WHERE run_id = ? ORDER BY seq",
            (runs[writer.pid],),
        ).fetchall()
        assert len(records) > 40
        assert [s[0] for s in stored] == list(range(len(records)))  # each once, none lost
        assert [s[1:] for s in stored] == [
            (r["compile_id"], r["recompile_reason"], r["duration_us"]) for r in records
        ]
        phases = con.execute(
            "SELECT seq, phase, SUM(duration_us) FROM pt2_compile_events WHERE run_id = ? "
            "GROUP BY seq, phase",
            (runs[writer.pid],),
        ).fetchall()
        assert {seq for seq, _, _ in phases} == set(range(len(records)))
        for seq, phase, total in phases:
            assert total == records[seq][f"{phase}_time_us"], (seq, phase)
    con.close()
    assert report.report(db, "summary")["processes"] == 2


def test_a_killed_writer_leaves_a_readable_database(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    writer = start_writer(db, tmp_path / "never.json", 1, 0)  # compiles until killed
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while stored < 30 and time.monotonic() < deadline:
            time.sleep(0.05)
            if db.exists():
                try:
                    con = sqlite3.connect(db, timeout=5)
                    stored = con.execute("SELECT COUNT(*) FROM dynamo_compile").fetchone()[0]
                    con.close()
                except sqlite3.OperationalError:  # created but no tables yet
                    stored = 0
        assert stored >= 30
        os.kill(writer.pid, signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait()
    assert writer.returncode == -signal.SIGKILL
    summary = report.report(db, "summary")
    assert summary["compiles"] >= stored
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    orphans = con.execute(
        "SELECT COUNT(*) FROM pt2_compile_events e LEFT JOIN dynamo_compile d "
        "ON d.run_id = e.run_id AND d.seq = e.seq WHERE d.seq IS NULL"
    ).fetchone()
    assert orphans == (0,)  # every compile is whole: no phase rows without their record
    con.close()
    result = subprocess.run(
        [sys.executable, "-m", "tracer", "metrics", "--db", str(db), "summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"compiles {summary['compiles']}, "), result.stdout
