VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
TS := clients/typescript
TS_DEPS := $(TS)/node_modules/.package-lock.json
WEB := clients/web
WEB_DEPS := $(WEB)/node_modules/.package-lock.json

.PHONY: install dist run test test-fast test-ha ha-tools lint proto proto-check bench bench-deps bench-service selfplay clean web

# setuptools' note that an editable install reads the working tree is expected here: hidden.
$(STAMP): pyproject.toml setup.py tarok_service/bots/solver/_dds.c
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(PIP) install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Wheels into dist/: tarok-proto (the generated protocol), tarok-rules (engine, rule sets,
# brains), tarok-client (SDK, bots, `tarok` CLI), tarok-openspiel, and tarok (the server, with
# the client and protocol inside: install it instead of the split wheels, not beside them).
# The client alone: pip install --find-links dist tarok-client  (see clients/python/README.md)
DIST ?= dist
dist: install
	rm -rf $(DIST) && mkdir -p $(DIST)
	$(PIP) wheel -q --no-deps -w $(DIST) deploy/packages/proto deploy/packages/rules \
		clients/python clients/openspiel .

# The TypeScript client's packages, exactly as its lockfile says (protoc-gen-es for `make proto`).
$(TS_DEPS): $(TS)/package-lock.json
	cd $(TS) && npm ci --no-audit --no-fund

$(WEB_DEPS): $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund

# The reference web table, built into clients/web/dist (served by `tarok serve --http-port`).
# It compiles the SDK's sources in clients/typescript, so that package's modules come first.
web: $(WEB_DEPS) $(TS_DEPS)
	cd $(WEB) && npm run build

# `make run`: the server on GRPC_PORT, the web table and browser protocols on HTTP_PORT.
# Tokens are signed with the key kept in tarok.db (created on first start). Tournaments
# take the organiser key in .tarok-organiser-key (created here on first run).
GRPC_PORT ?= 50051
HTTP_PORT ?= 8080
ORGANISER_KEY_FILE := .tarok-organiser-key

$(ORGANISER_KEY_FILE):
	umask 077 && python3 -c "import secrets; print(secrets.token_hex(16))" > $@

run: install web $(ORGANISER_KEY_FILE)
	TAROK_ORGANISER_KEY="$$(cat $(ORGANISER_KEY_FILE))" \
	$(VENV)/bin/tarok serve --store sqlite:///tarok.db --port $(GRPC_PORT) \
		--http-port $(HTTP_PORT) \
		--cors-origin http://localhost:5173 --cors-origin http://127.0.0.1:5173 \
		--cors-origin http://localhost:$(HTTP_PORT) --cors-origin http://127.0.0.1:$(HTTP_PORT)

test: install $(TS_DEPS) $(WEB_DEPS)
	$(VENV)/bin/pytest
	cd $(TS) && npm test
	cd $(WEB) && npm test

# Everything but the tests marked slow (conformance runs, playouts, multi-process and
# cluster tests, tournament runs): the quick loop while editing. CI runs `make test`.
test-fast: install
	$(VENV)/bin/pytest -m "not slow"

# The HA store's and the cross-node bus's tools: etcd and nats-server from Debian's packages
# (installed only when missing), and Patroni from PyPI, pinned, in .venv-ha with the system
# Python (PostgreSQL's nodes run it as the `postgres` user; deploy/patroni/requirements.txt
# says why not Debian's patroni). CI calls it before the failover test. As root the venv goes
# to /opt (the `postgres` user runs it and may not be able to enter the checkout's directory).
HA_VENV ?= $(if $(filter 0,$(shell id -u)),/opt/tarok-patroni,.venv-ha)
PATRONI := $(HA_VENV)/bin/patroni

$(PATRONI): deploy/patroni/requirements.txt
	command -v etcd >/dev/null && command -v nats-server >/dev/null && test -x /usr/bin/python3 \
		&& /usr/bin/python3 -c "import ensurepip" 2>/dev/null \
		|| (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			etcd-server nats-server python3 python3-venv)
	rm -rf $(HA_VENV) && /usr/bin/python3 -m venv $(HA_VENV)
	$(HA_VENV)/bin/pip install -q --no-deps -r deploy/patroni/requirements.txt
	$(PATRONI) --version

ha-tools: $(PATRONI)

# The failover test: 3 PostgreSQL nodes under Patroni, 3 NATS nodes, 3 replicas, faults
# under load (docs/scaling.md). A few minutes.
test-ha: install ha-tools
	TAROK_HA=1 TAROK_PATRONI=$(abspath $(PATRONI)) \
		$(VENV)/bin/pytest tests/ha/test_failover.py -q -s -p no:cacheprovider

lint: install
	$(VENV)/bin/ruff check tarok_service clients tests bench
	$(VENV)/bin/mypy tarok_service
	$(VENV)/bin/mypy tests clients/python/tarok_client clients/openspiel/tarok_openspiel
	$(VENV)/bin/lint-imports
	$(VENV)/bin/buf lint

proto: install $(TS_DEPS)
	$(PY) -m tarok_service.protogen

proto-check: install $(TS_DEPS)
	$(PY) -m tarok_service.protogen --check

bench: install
	$(PY) bench/engine.py

bench-deps: install
	$(PIP) install -q -e '.[dev,bench]'

# SubmitMove vs a bare echo server (SQLite full/normal; PostgreSQL when
# TAROK_BENCH_POSTGRES_DSN is set), then the plot in docs/img/performance.png.
bench-service: bench-deps
	$(PY) bench/service.py --json bench/results/service.json
	$(PY) bench/plot.py bench/results/service.json docs/img/performance.png

clean:
	rm -rf $(VENV) $(HA_VENV) build dist *.egg-info
