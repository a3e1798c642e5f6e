# The two commands of the README. Both work on a fresh machine with Python 3.11+ and pip.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
OUT    ?= ragauge-report

.PHONY: demo test venv bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Installs ragauge with the offline judge and the test tools; re-runs only when pyproject changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[offline,dev]'
	touch $@

venv: $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/ragauge eval demo --out $(OUT) --format table

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/ranking.py

clean:
	rm -rf $(VENV) $(OUT) build dist src/*.egg-info
