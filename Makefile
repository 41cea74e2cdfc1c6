# Two commands do all the set-up on a fresh machine:
#   make app   - create .venv if needed, install the app (no test tools), serve it with Voilà on 127.0.0.1
#   make test  - the same set-up plus the test tools, then ruff, mypy, doctests, pytest (browser tests included) and nbval
#   make check - the quick loop while working: ruff, mypy and the tests that need no browser and are not slow
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# one stamp per install, so each runs once: the app alone, then the test tools on top of it
STAMP := $(VENV)/.installed-spades-tutor
TEST_STAMP := $(VENV)/.installed-spades-tutor-test
# the hub's proxy, configurable-http-proxy from npm, installed into node_modules/ from package-lock.json
NODE_STAMP := node_modules/.package-lock.json
PORT ?= 8866
CLASS_SIZE ?= 30
CLASS_IP ?= 0.0.0.0
# pytest-xdist workers for the tests that need no browser (auto: one per core), handed out by work stealing so
# a worker left with the long statistical runs gives some away; the browser tests run on BROWSER_JOBS workers,
# each with its own servers and Chromium, a test file to a worker (a file shares its servers and its timings)
JOBS ?= auto
XDIST = -n $(JOBS) --dist worksteal
BROWSER_JOBS ?= 3
TIMED_JOBS ?= 1

.PHONY: app class hub lab test check lint typecheck pytest bench clean install install-test

install: $(STAMP)

install-test: $(TEST_STAMP) $(NODE_STAMP)

# what the app needs to run, and nothing else
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	$(PY) -c "from spades_tutor.solver import ready; ready()"  # the solver's compiled search, kept on disk
	$(PY) -c "from spades_tutor.lab.heuristic_play import warm; warm()"  # the simulator's compiled bots, too
	touch $(STAMP)

# the test and benchmark tools (pytest, ruff, mypy, Playwright, OpenSpiel), on top of the app,
# and JupyterHub with its idle culler (the [hub] extra), which tests/browser/test_hub.py runs
$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --only-binary=open-spiel -e '.[test,hub]'
	touch $(TEST_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund

app: $(STAMP)
	$(VENV)/bin/spades-tutor app --port $(PORT)

# a class on one machine: CLASS_SIZE kernels warmed before the learners arrive, open to the room's network
# behind a class code (a new one each start; CLASS_CODE=K7M2QX to choose it) printed in the links to hand out
# (one per address of this machine on a network) and in the first link's QR code (console and SVG file);
# ALLOW_HOST=tutor.school.lan if the room reaches this machine by a name it does not know itself; the teacher
# view's link, with its own code (TEACHER_CODE=H4TR9W to choose it), printed in this console only; the class's
# answers kept in ./class-data/class.db (CLASS_DB=postgresql://... for another database)
class: $(STAMP)
	$(VENV)/bin/spades-tutor app --port $(PORT) --class-size $(CLASS_SIZE) --ip $(CLASS_IP) --no-browser \
		$(if $(CLASS_CODE),--class-code $(CLASS_CODE)) $(if $(ALLOW_HOST),--allow-host $(ALLOW_HOST)) \
		$(if $(TEACHER_CODE),--teacher-code $(TEACHER_CODE)) $(if $(CLASS_DB),--class-db $(CLASS_DB))

# many classes: JupyterHub with jupyterhub_config.py, a server per learner (see the README's "many classes");
# to try it on one machine: SPADES_HUB_AUTHENTICATOR=dummy SPADES_HUB_SPAWNER=simple make hub
hub: $(TEST_STAMP) $(NODE_STAMP)
	$(VENV)/bin/jupyterhub -f jupyterhub_config.py

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 notebooks

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check spades_tutor tests bench
	$(VENV)/bin/ruff format --check spades_tutor tests bench

typecheck: $(TEST_STAMP)
	$(VENV)/bin/mypy

# four runs, each reported whole even when one before it failed: the tests that need no browser on every
# core; the browser tests a file to a worker, more workers than cores (they wait on servers and Chromium
# about half the time); the browser tests whose outcome depends on time (a server timed under attack, the
# solver judging within its seconds), one file at a time: on two cores a second timed file beside it (the
# solver's analysis, a crowd of kernels) doubled a bystander's p95 past its budget in CI, which measured the
# tests' own load and not the server's guard; the notebooks. A browser test that fails is run once more
# (BROWSER_RERUNS), as Playwright's own runner retries in CI: on two shared cores a page can miss a 20 s wait
# that it meets alone; the rerun is listed in the summary ("RERUN", with the first try's traceback) so it is chased, and a
# test that fails twice fails the run
BROWSER_RERUNS ?= 1
RERUN = --reruns $(BROWSER_RERUNS) --reruns-delay 5 --rerun-show-tracebacks -r fER
pytest: $(TEST_STAMP) $(NODE_STAMP)
	@status=0; \
	$(PY) -m pytest $(XDIST) -m "not browser" --durations=40 || status=1; \
	$(PY) -m pytest -n $(BROWSER_JOBS) --dist loadfile -m "browser and not timed" --durations=20 $(RERUN) || status=1; \
	$(PY) -m pytest -n $(TIMED_JOBS) --dist loadfile -m "browser and timed" --durations=10 $(RERUN) || status=1; \
	$(PY) -m pytest -p no:cacheprovider --nbval-lax --nbval-current-env notebooks || status=1; \
	exit $$status

# mypy reads its cache (.mypy_cache) and checks again only the modules changed since; slow marks the long
# statistical, differential and sweep runs, which make test still runs
check: lint typecheck
	$(PY) -m pytest -q $(XDIST) -m "not browser and not slow" --hypothesis-profile=quick

test: lint typecheck pytest

bench: $(TEST_STAMP) $(NODE_STAMP)
	$(PY) bench/engine.py
	$(PY) bench/simulate.py
	$(PY) bench/hand_odds.py
	$(PY) bench/lab_page.py
	$(PY) bench/app.py
	$(PY) bench/session_memory.py
	$(PY) bench/classroom.py
	$(PY) bench/analysis.py
	$(PY) bench/hub.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache test-artifacts node_modules
