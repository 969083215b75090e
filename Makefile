# The two Quickstart commands. Both create .venv on first use and (re)install
# whenever pyproject.toml changes, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.memvet-installed
export ORT_DISABLE_TELEMETRY := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: demo test install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,langchain,llamaindex,notebooks,mcp]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/memvet demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache
