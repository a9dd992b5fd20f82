# Two set-up commands (see README): `make demo` runs the sample gallery, `make test` every check.
# Each creates the virtual environment it needs on first use.
#
# The interpreter: PYTHON= when given (`PYTHON=python3.12 make test`), else the first of these
# that runs and is CPython 3.11, 3.12 or 3.13: python3, python3.13, python3.12, python3.11, then
# pyenv's newest of each. (A pyenv shim can exist and still fail to run, so each is run.)
SUPPORTED := 3.11 3.12 3.13
PYENV_ROOT_DIR := $(shell pyenv root 2>/dev/null)
CANDIDATES := python3 python3.13 python3.12 python3.11 \
	$(foreach v,3.13 3.12 3.11,$(lastword $(sort $(wildcard $(PYENV_ROOT_DIR)/versions/$(v).*/bin/python))))
version_of = $(shell $(1) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
ifeq ($(origin PYTHON),undefined)
PYTHON := $(firstword $(foreach c,$(CANDIDATES),$(if $(filter $(SUPPORTED),$(call version_of,$(c))),$(c))))
ifeq ($(PYTHON),)
$(error no supported Python found: modetrace needs CPython $(SUPPORTED); tried $(CANDIDATES) \
	(none ran, or each was another version). Install one, or give it: make test PYTHON=/path/to/python3.12)
endif
endif
PYVERSION := $(call version_of,$(PYTHON))
# `PYTHON=python3.12` where that command does not run (a pyenv shim of a version that is not
# selected): pyenv's own 3.12, if it has one.
ifeq ($(PYVERSION),)
PYENV_SAME := $(lastword $(sort $(wildcard $(patsubst python%,$(PYENV_ROOT_DIR)/versions/%.*/bin/python,$(filter python3.%,$(PYTHON))))))
ifneq ($(PYENV_SAME),)
$(info modetrace: $(PYTHON) does not run here; pyenv has $(PYENV_SAME))
override PYTHON := $(PYENV_SAME)
PYVERSION := $(call version_of,$(PYTHON))
endif
endif
ifeq ($(filter $(SUPPORTED),$(PYVERSION)),)
$(error PYTHON=$(PYTHON) is $(if $(PYVERSION),Python $(PYVERSION),not a Python that runs); modetrace needs CPython $(SUPPORTED))
endif
$(info modetrace: using $(PYTHON) (Python $(PYVERSION)))

# One virtual environment per version, so they do not clobber each other; 3.11's is `.venv`
# (the helpers and scripts that name .venv/bin/python use it).
VENV := $(if $(filter 3.11,$(PYVERSION)),.venv,.venv-$(PYVERSION))
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-without-torch lint typecheck pytest fuzz bench conformance corpus clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# torch 2.13's wheel is for 3.11 only: on 3.12 and 3.13 the torch tests skip (torch is absent).
ifeq ($(PYVERSION),3.11)
TORCH_STAMP := $(VENV)/.installed-torch
REQUIRE_TORCH := 1
else
TORCH_STAMP := $(STAMP)
REQUIRE_TORCH := 0
# mypy checks tracer/torch_adapter against torch's annotations, so only where torch is
MYPY_NO_TORCH := --exclude tracer/torch_adapter --follow-imports=silent
endif

$(VENV)/.installed-torch: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[torch]'
	touch $@

demo: $(STAMP)
	$(BIN)/python -m tracer demo

lint: $(STAMP)
	$(BIN)/ruff check tracer guards variables tests samples benchmarks
	$(BIN)/ruff format --check tracer guards variables tests samples benchmarks

# tracer/torch_adapter is checked against torch's own annotations, so mypy runs with the pinned
# torch installed (modetrace itself imports and runs without it); on 3.12 and 3.13, which
# have no torch here, mypy checks everything else.
typecheck: $(TORCH_STAMP)
	$(BIN)/mypy --python-version $(PYVERSION) $(MYPY_NO_TORCH)

# The oracle tests compare with real torch (pinned in the `torch` extra), so `make test`
# installs it and fails, rather than skips, where it is missing. modetrace itself never needs it.
# The graph cache's tests start redis-server from PATH (tests/redis_server.py); here a missing
# one fails them too (.ci/run installs it).
pytest: $(TORCH_STAMP)
	MODETRACE_REQUIRE_TORCH=$(REQUIRE_TORCH) MODETRACE_REQUIRE_REDIS=1 $(BIN)/python -m pytest

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

# The reports of `make conformance` and `make corpus` are per version: 3.11's in conformance/
# and corpus/, another version's in a directory named after it (conformance/3.12/).
REPORTS_UNDER := $(if $(filter 3.11,$(PYVERSION)),,/$(PYVERSION))

# CPython's own tests, eagerly and compiled (issue 20): writes conformance/report.md and .json.
# `make conformance MODULES="test_heapq test_sort"` runs a few; ARGS passes options (--help).
conformance: $(STAMP)
	nice $(BIN)/python -m tracer.testing.conformance --output conformance$(REPORTS_UNDER) $(MODULES) $(ARGS)

# The corpus of real code (issue 22): every case eagerly and compiled; writes corpus/report.md
# and .json. `make corpus ARGS="-k heapq"` runs a few. `make test` runs a sample of it.
corpus: $(STAMP)
	nice $(BIN)/python -m tests.corpus --output corpus$(REPORTS_UNDER) $(ARGS)

clean:
	rm -rf $(VENV) $(NOTORCH_VENV)
