# `make run` plays stud in the terminal; `make test` runs the whole test suite.
# Both create the local virtual environment .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/stud play

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/evaluate.py
	$(BIN)/python bench/equity.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/rl.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
