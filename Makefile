# The two Quickstart commands. Both create .venv on first use and (re)install
# whenever pyproject.toml changes, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.memvet-installed
# langchain-mcp-adapters 0.3 needs the MCP SDK 1.x; MemVet's server is on 2.x.
# The example that connects them runs its client from this second environment.
MCP_CLIENT := .venv-mcp-client
MCP_CLIENT_STAMP := $(MCP_CLIENT)/.installed
export ORT_DISABLE_TELEMETRY := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: demo test install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,langchain,llamaindex,notebooks,mcp]'
	touch $(STAMP)

$(MCP_CLIENT_STAMP):
	$(PYTHON) -m venv $(MCP_CLIENT)
	$(MCP_CLIENT)/bin/python -m pip install --quiet 'langchain-mcp-adapters>=0.3,<0.4' 'mcp>=1.24,<2'
	touch $(MCP_CLIENT_STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/memvet demo

test: $(STAMP) $(MCP_CLIENT_STAMP)
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) $(MCP_CLIENT) .pytest_cache
