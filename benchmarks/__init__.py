"""modetrace's benchmarks: `python -m benchmarks` (or `make bench`) runs them all.

- `workloads`: the functions, written once against the torch API.
- `compile_time`: per-call and compile-time figures, medians over interleaved rounds, side by side
  with Dynamo when torch is installed.
- `instruction_count`: the deterministic count of bytecode instructions the tracer executes to
  compile each workload; `check_instruction_counts` compares it with the checked-in expectation.
"""
