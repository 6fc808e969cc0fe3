# `make run` serves the web table (http://localhost:8000/); `make test` runs the whole test suite
# (pytest in two processes, pytest-xdist: most tests wait on servers and browsers).
# Both create the local virtual environment .venv on first use; `make test` (ruff, mypy, then
# pytest with the doctests of src/stud) also installs Debian's
# chromium for the browser tests when it is missing (as root, or through sudo).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium

.PHONY: run play test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/stud serve

play: $(STAMP)
	$(BIN)/stud play

# The browser tests drive Debian's chromium; never a browser downloaded by a test tool.
$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests"
	@if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium \
	|| echo "Could not install chromium: the browser tests will be skipped, saying why"

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy

test: lint $(CHROMIUM)
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/fast_agree.py
	$(BIN)/python bench/evaluate.py
	$(BIN)/python bench/equity.py
	$(BIN)/python bench/simulate.py
	$(BIN)/python bench/rl.py
	$(BIN)/python bench/web_load.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
