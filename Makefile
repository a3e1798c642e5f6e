# The two commands of the README. Both work on a fresh machine with Python 3.11+ and pip.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
OUT    ?= ragauge-report

.PHONY: demo test venv bench bench-judge bench-guard clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Installs ragauge with the offline judge and the test tools; re-runs only when pyproject changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[offline,dev]'
	touch $@

venv: $(VENV)/.installed

# The LLM judge's integration tests talk to a real llama.cpp server (built once, then cached).
# Skip it with `make test LLM_SERVER=0`; those tests then skip with the reason.
LLM_SERVER ?= 1
$(VENV)/.llm-server: scripts/install_llm_server.sh | $(VENV)/.installed
	scripts/install_llm_server.sh $(BIN)/python
	touch $@
ifeq ($(LLM_SERVER),1)
TEST_DEPS := $(VENV)/.installed $(VENV)/.llm-server
else
TEST_DEPS := $(VENV)/.installed
endif

# A failed gate (exit 1) is the demo's story, not an error; bad input or a crash (exit >= 2) still fails.
# Part 1: the firm's assistant as it is today (hand-labelled answers). Part 2: the golden set that
# `ragauge generate` made from the same documents, answered by the reference RAG behind the guard
# (thresholds calibrated on the demo: score >= 0.29, support >= 0.5; see docs/guard.md "Measured effect").
GUARD_ARGS ?= --guard --score-threshold 0.29 --support 0.5
demo: $(VENV)/.installed
	@$(BIN)/ragauge eval demo --out $(OUT) --format table; code=$$?; \
	if [ $$code -gt 1 ]; then exit $$code; fi; \
	echo; echo "== Part 2: the generated golden set, answered by the reference RAG behind the guard =="; \
	$(BIN)/ragauge rag run demo --questions demo $(GUARD_ARGS) --out $(OUT)/golden/answers.jsonl || exit $$?; \
	$(BIN)/ragauge eval $(OUT)/golden/answers.jsonl --out $(OUT)/golden --format table; code=$$?; \
	if [ $$code -gt 1 ]; then exit $$code; fi; \
	echo; echo "Open $(OUT)/report.html (the assistant) and $(OUT)/golden/report.html (the guarded reference RAG) in a browser."

# A plain `pip install ragauge` (no extras) into a fresh venv must run a retrieval-only eval and the Python API
# (it catches an import that is not declared). Skip it with `make test BARE_INSTALL=0`.
BARE_INSTALL ?= 1
# Lint (real errors only) and the type check of the pure layers run first: they take seconds.
test: $(TEST_DEPS)
	$(BIN)/ruff check src tests scripts benchmarks
	$(BIN)/mypy
	@if [ "$(BARE_INSTALL)" = 1 ]; then scripts/check_bare_install.sh $(PYTHON); fi
	$(BIN)/python -m pytest -q

# Benchmarks are separate commands, not tests (docs/benchmarks.md has their numbers and caveats).
bench: $(VENV)/.installed
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/ranking.py

# The offline judge on the demo (correctness, faithfulness) and the guard (overhead, effect); no network.
bench-judge: $(VENV)/.installed
	$(BIN)/python benchmarks/correctness.py
	$(BIN)/python benchmarks/demo_judge.py

bench-guard: $(VENV)/.installed
	$(BIN)/python benchmarks/guard_overhead.py
	$(BIN)/python benchmarks/guard_effect.py --out-dir $(OUT)/guard-effect

clean:
	rm -rf $(VENV) $(OUT) build dist src/*.egg-info
