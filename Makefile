VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
TS := clients/typescript
TS_DEPS := $(TS)/node_modules/.package-lock.json
WEB := clients/web
WEB_DEPS := $(WEB)/node_modules/.package-lock.json

.PHONY: install run test test-fast lint proto proto-check bench bench-deps bench-service selfplay clean web

$(STAMP): pyproject.toml setup.py tarok_service/bots/solver/_dds.c
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The TypeScript client's packages, exactly as its lockfile says (protoc-gen-es for `make proto`).
$(TS_DEPS): $(TS)/package-lock.json
	cd $(TS) && npm ci --no-audit --no-fund

$(WEB_DEPS): $(WEB)/package-lock.json
	cd $(WEB) && npm ci --no-audit --no-fund

# The reference web table, built into clients/web/dist (served by `tarok serve --http-port`).
web: $(WEB_DEPS)
	cd $(WEB) && npm run build

run: install web
	$(VENV)/bin/tarok serve --store sqlite:///tarok.db --port 50051 --secret-file .tarok-secret \
		--http-port 8080 \
		--cors-origin http://localhost:5173 --cors-origin http://127.0.0.1:5173 \
		--cors-origin http://localhost:8080 --cors-origin http://127.0.0.1:8080

test: install $(TS_DEPS) $(WEB_DEPS)
	$(VENV)/bin/pytest
	cd $(TS) && npm test
	cd $(WEB) && npm test

# Everything but the tests marked slow (conformance runs, playouts, multi-process and
# cluster tests, tournament runs): the quick loop while editing. CI runs `make test`.
test-fast: install
	$(VENV)/bin/pytest -m "not slow"

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
	rm -rf $(VENV) build *.egg-info
