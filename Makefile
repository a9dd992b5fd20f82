# Two set-up commands (see README): `make demo` runs the sample gallery, `make test` every check.
# Each creates the virtual environment it needs on first use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-without-torch lint typecheck pytest fuzz bench conformance corpus clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

TORCH_STAMP := $(VENV)/.installed-torch

$(TORCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[torch]'
	touch $(TORCH_STAMP)

demo: $(STAMP)
	$(BIN)/python -m tracer demo

lint: $(STAMP)
	$(BIN)/ruff check tracer guards variables tests samples benchmarks
	$(BIN)/ruff format --check tracer guards variables tests samples benchmarks

# tracer/torch_adapter is checked against torch's own annotations, so mypy runs with the pinned
# torch installed (modetrace itself imports and runs without it).
typecheck: $(TORCH_STAMP)
	$(BIN)/mypy

# The oracle tests compare with real torch (pinned in the `torch` extra), so `make test`
# installs it and fails, rather than skips, where it is missing. modetrace itself never needs it.
# The graph cache's tests start redis-server from PATH (tests/redis_server.py); here a missing
# one fails them too (.ci/run installs it).
pytest: $(TORCH_STAMP)
	MODETRACE_REQUIRE_TORCH=1 MODETRACE_REQUIRE_REDIS=1 $(BIN)/python -m pytest

test: lint typecheck pytest

# The suite in a virtual environment of its own with no torch in it (issue 24: modetrace never
# needs torch). Tests that need torch skip there, with the reason, only because it is absent
# (tests/real_torch.py); everything else must pass. `make test` stays strict.
NOTORCH_VENV := .venv-notorch
NOTORCH_STAMP := $(NOTORCH_VENV)/.installed

$(NOTORCH_STAMP): pyproject.toml
	$(PYTHON) -m venv $(NOTORCH_VENV)
	$(NOTORCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(NOTORCH_VENV)/bin/python -m pip install --quiet -e '.[test]'
	@! $(NOTORCH_VENV)/bin/python -c 'import torch' 2>/dev/null || \
		{ echo "$(NOTORCH_VENV) has torch: remove it and run again"; exit 1; }
	touch $(NOTORCH_STAMP)

test-without-torch: $(NOTORCH_STAMP)
	MODETRACE_REQUIRE_REDIS=1 $(NOTORCH_VENV)/bin/python -m pytest $(NOTORCH_TESTS)

# 10,000 generated programs, eager against compiled; prints how many traced whole or fell back.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/fuzz/test_programs.py -s -q -k behave_as_in_python

bench: $(TORCH_STAMP)
	$(BIN)/python -m benchmarks

# CPython's own tests, eagerly and compiled (issue 20): writes conformance/report.md and .json.
# `make conformance MODULES="test_heapq test_sort"` runs a few; ARGS passes options (--help).
conformance: $(STAMP)
	nice $(BIN)/python -m tracer.testing.conformance $(MODULES) $(ARGS)

# The corpus of real code (issue 22): every case eagerly and compiled; writes corpus/report.md
# and .json. `make corpus ARGS="-k heapq"` runs a few. `make test` runs a sample of it.
corpus: $(STAMP)
	nice $(BIN)/python -m tests.corpus $(ARGS)

clean:
	rm -rf $(VENV) $(NOTORCH_VENV)
