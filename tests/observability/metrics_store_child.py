"""A writer process for the metrics-store tests: compiles the sample gallery into a database.

    python -m tests.observability.metrics_store_child DB OUT.json BATCH ROUNDS

runs the gallery ROUNDS times (0: until killed), `tracer.reset()` before each round, storing
into DB with BATCH compiles per transaction, then writes what `tracer.get_compilation_metrics()`
says (compile id, duration, phase columns) to OUT.json; the store writes its queue at exit.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import warnings
from typing import Any

import tracer
from samples import SAMPLES
from tracer.observability.metrics.report import PHASE_COLUMNS


def run_gallery_quietly() -> None:
    """Every sample as the gallery calls it (twice where it recompiles), output discarded."""
    for sample in SAMPLES:
        compiled = tracer.compile(sample.fn)
        mode = sample.active_mode() if sample.active_mode else contextlib.nullcontext()
        quiet = contextlib.redirect_stdout(io.StringIO())
        # a sample may raise on purpose; its compile counts all the same
        with quiet, warnings.catch_warnings(), mode, contextlib.suppress(Exception):
            warnings.simplefilter("ignore")
            compiled(*sample.inputs())
            if sample.then_call_with is not None:
                compiled(*sample.then_call_with())


def record_summary() -> list[dict[str, Any]]:
    fields = ("compile_id", "recompile_reason", *PHASE_COLUMNS)
    return [{k: getattr(r, k) for k in fields} for r in tracer.get_compilation_metrics()]


def main(argv: list[str]) -> int:
    db, out, batch, rounds = argv[0], argv[1], int(argv[2]), int(argv[3])
    tracer.metrics_store(db, batch=batch)
    done = 0
    while rounds == 0 or done < rounds:
        tracer.reset()
        run_gallery_quietly()
        done += 1
    with open(out, "w", encoding="utf-8") as f:
        json.dump(record_summary(), f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
