VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: install run test lint proto proto-check bench selfplay clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/tarok serve --store sqlite:///tarok.db --port 50051

test: install
	$(VENV)/bin/pytest

lint: install
	$(VENV)/bin/ruff check tarok_service clients tests bench
	$(VENV)/bin/mypy tarok_service
	$(VENV)/bin/mypy --strict tests/eventlog
	$(VENV)/bin/buf lint

proto: install
	$(PY) -m tarok_service.protogen

proto-check: install
	$(PY) -m tarok_service.protogen --check

bench: install
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
