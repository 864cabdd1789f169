# The commands a newcomer needs. `make run` and `make test` set everything up themselves.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.requirements-installed
HOST ?= 127.0.0.1
PORT ?= 8000

# The hall server (docs/operations.md): HTTPS on the hall's network with the hall's own CA.
HALL_TLS ?= var/hall-tls
HALL_PORT ?= 8443
HALL_NAMES ?=

.PHONY: run hall test lint lock bench fuzz loadtest migrate demo messages clean-broker check-deploy audit-key

# DEBUG is off unless DJANGO_DEBUG=1 (config/settings.py, issue #41): the developer's commands
# here ask for it; `make hall` serves with it off, as production does.
DJANGO_DEBUG ?= 1
export DJANGO_DEBUG
HALL_SECRET := var/hall-secret-key

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# A developer's and CI's environment: requirements/dev.txt, the lock of what requirements/base.in
# (the runtime), requirements/printer.in (the casebook printer) and requirements/dev.in (the
# tools) name, every package pinned with its hashes. requirements.txt is the runtime's lock alone.
$(STAMP): requirements/dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements/dev.txt
	touch $(STAMP)

# The locks, after a change to requirements/*.in: the pins already there are kept unless
# LOCK_ARGS says otherwise (LOCK_ARGS=--upgrade, or --upgrade-package django). One lock a set:
# requirements.txt (the runtime), then printer.txt, dev.txt and bench.txt, each compiled against
# the locks before it, so all hold the same versions.
PIP_COMPILE := CUSTOM_COMPILE_COMMAND="make lock" $(abspath $(BIN))/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
	--no-emit-find-links $(LOCK_ARGS)
lock: $(STAMP)
	$(PIP_COMPILE) --output-file=requirements.txt requirements/base.in
	cd requirements && $(PIP_COMPILE) --output-file=printer.txt printer.in
	cd requirements && $(PIP_COMPILE) --output-file=dev.txt dev.in
	cd requirements && $(PIP_COMPILE) --output-file=bench.txt bench.in

# The load test's and the benchmarks' own packages (locust), on top of the developers' lock.
BENCH_STAMP := $(VENV)/.bench-requirements-installed
$(BENCH_STAMP): requirements/bench.txt $(STAMP)
	$(BIN)/python -m pip install --quiet -r requirements/bench.txt
	touch $(BENCH_STAMP)

# The translations: .po files (in git) compiled to .mo files (generated) in pure Python.
messages: $(STAMP)
	$(BIN)/python manage.py compile_translations

# The audit trail's signing key (docs/operations.md, Audit): every audited write signs with it,
# and only this command makes one. Made once; kept.
audit-key: $(STAMP)
	$(BIN)/python manage.py audit_signing_key >/dev/null 2>&1 || $(BIN)/python manage.py audit_signing_key --generate

migrate: $(STAMP) messages audit-key
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py load_demo --if-empty --past-seasons

# Web server and a real Celery worker (with beat) together (config/procfile.py runs the
# Procfile's processes); Ctrl-C stops them all cleanly and the runner exits 0.
run: demo
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m config.procfile Procfile.dev

# The hall server: gunicorn over HTTPS on every interface (the phones on the hall's Wi-Fi), the
# certificate authority and server certificate made on the first run (HALL_NAMES: the names and
# addresses the phones use; default the laptop's own), allowed hosts = the certificate's names.
$(HALL_TLS)/hall-server.crt: | migrate
	$(BIN)/python manage.py hall_certificates --folder $(HALL_TLS) $(HALL_NAMES)

# The hall's own secret key, made once and readable by its owner only.
$(HALL_SECRET): | $(STAMP)
	umask 077 && $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $@

# As production runs: DEBUG off, the static files collected, the hall's secret key.
hall: demo $(HALL_TLS)/hall-server.crt $(HALL_SECRET)
	DJANGO_DEBUG=0 DJANGO_SECRET_KEY=$$(cat $(HALL_SECRET)) $(BIN)/python manage.py collectstatic --no-input -v 0
	HOST=0.0.0.0 PORT=$(HALL_PORT) HALL_TLS=$(HALL_TLS) DJANGO_DEBUG=0 DJANGO_SECRET_KEY=$$(cat $(HALL_SECRET)) \
	DJANGO_ALLOWED_HOSTS=$$($(BIN)/python manage.py hall_certificates --hosts --folder $(HALL_TLS)) \
	$(BIN)/python -m config.procfile Procfile.hall

# Lint, format, types and the import contract (pyproject.toml), as CI runs them.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# The whole suite with coverage; the 15 slowest tests, the total and the least-covered modules
# are printed last, then the suite's wall time and the load average it ran under. COVERAGE= (empty) runs it without measuring, as CI's second round does.
# It runs in one process per core (pytest-xdist), each with a test database and a var/test/gwN
# folder of its own (tests/conftest.py); each test module runs whole in one process, so records a
# module builds once are not built again in another; the modules go out in the order
# tests/conftest.py gives them (heaviest first), not pytest-xdist's by number of tests, so both
# processes finish together. PYTEST_PROCESSES=0 runs it in one process.
COVERAGE ?= --cov --cov-report=term
PYTEST_PROCESSES ?= auto
test: $(STAMP) messages lint
	@start=$$(date +%s); \
	BRIDGECASES_VAR_DIR=$(CURDIR)/var/test $(BIN)/python -m pytest -n $(PYTEST_PROCESSES) --dist loadfile --no-loadscope-reorder \
		--durations=15 $(COVERAGE) $(PYTEST_ARGS); status=$$?; \
	echo "== make test: the suite took $$(( $$(date +%s) - start )) s of wall time" \
		"(load average at the end: $$(cut -d' ' -f1-3 /proc/loadavg))"; exit $$status

bench: $(BENCH_STAMP)
	$(BIN)/python bench/run.py

# The readers' and the API's dates and numbers' property-based fuzz tests (tests/fuzz.py) with 10 times the examples of make test:
# a few minutes. FUZZ_FACTOR=50 make fuzz tries harder.
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q -p no:cacheprovider \
		tests/bridge/test_readers_fuzz.py tests/bridge/test_interchange_fuzz.py tests/test_api_fuzz.py

# 100 simulated users (Locust) for a minute against gunicorn + PostgreSQL + Redis + a worker, all
# started and stopped here on loopback (bench/loadtest.py); the result goes to docs/performance.md.
loadtest: $(BENCH_STAMP)
	$(BIN)/python bench/loadtest.py

check-deploy: $(STAMP)
	DJANGO_DEBUG=0 DJANGO_SECRET_KEY=check-deploy-$$(date +%s)-a-long-random-string-for-the-check-only \
	DJANGO_ALLOWED_HOSTS=example.org $(BIN)/python manage.py check --deploy --fail-level WARNING
