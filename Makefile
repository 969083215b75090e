# The two Quickstart commands (demo, test) and the developer loop (test-fast,
# lint). All create .venv on first use and (re)install whenever pyproject.toml
# changes, so a fresh clone needs nothing else.
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

.PHONY: demo test test-fast lint install bench clean dist docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,docs,langchain,llamaindex,notebooks,mcp]'
	touch $(STAMP)

$(MCP_CLIENT_STAMP):
	$(PYTHON) -m venv $(MCP_CLIENT)
	$(MCP_CLIENT)/bin/python -m pip install --quiet 'langchain-mcp-adapters>=0.3,<0.4' 'mcp>=1.24,<2'
	touch $(MCP_CLIENT_STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/memvet demo

# Everything: unit, integration (a real `chroma run` behind nginx), notebooks
# and the benchmark scripts. What CI runs. Both parts run on two workers
# (13.6 min serial for the whole suite on a quiet 2-core machine; the
# servers each worker starts listen on free ports). The unit tests come
# first: a broken core fails fast, before servers and notebooks start.
test: $(STAMP) $(MCP_CLIENT_STAMP)
	$(BIN)/python -m pytest -q -n 2 tests/unit
	$(BIN)/python -m pytest -q -n 2 tests --ignore=tests/unit

# The unit tests without those marked slow (processes, thread stress, whole
# repository parses), on two workers: the loop to run while editing. See
# docs/developing.md. Their temporary folders (hundreds of local
# Chroma ledgers, each fsync'ed by SQLite) go to memory when /dev/shm is
# there, and only a failed test's are kept; the notebook and LangSmith pytest
# plugins (6 s of imports in each of the three processes) are left out, as no
# unit test uses them; and pytest may keep its rewritten test modules in
# __pycache__ even where PYTHONDONTWRITEBYTECODE is set (rewriting them all
# again took 12 s of CPU in each worker).
FAST_TMPDIR ?= $(if $(wildcard /dev/shm),/dev/shm,$(or $(TMPDIR),/tmp))
test-fast: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE TMPDIR=$(FAST_TMPDIR) $(BIN)/python -m pytest -q -n 2 \
		-p no:nbmake -p no:langsmith_plugin -o tmp_path_retention_policy=failed tests/unit -m "not slow"

# ruff over the whole tree, mypy --strict over the core package (both
# configured in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The sdist and wheel in dist/ (version from the git tag, by hatch-vcs),
# their metadata checked by twine, then the wheel installed with every extra
# into a clean venv in a temporary folder (dependencies from the registry),
# where every package must import and ship py.typed (tools/check_dist.py).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*
	$(BIN)/python tools/check_dist.py dist/memvet-*.whl

# The documentation site in site/: README.md as its front page (a build hook,
# tools/mkdocs_hooks.py) and docs/*.md; any warning (a broken link or anchor,
# a page left out of the nav) fails the build.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) $(MCP_CLIENT) .pytest_cache dist site
