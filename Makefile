# Two entry points: `make play` (set up, then the web arena on http://127.0.0.1:8000/)
# and `make test` (set up, then lint, type-check and run every test).
export UV_PYTHON_DOWNLOADS := never
UV := $(shell command -v uv 2>/dev/null || echo "python3 -m uv")

.PHONY: setup play play-terminal test lint typecheck pytest bench bench-compare sim clean

setup:
	@python3 -m uv --version >/dev/null 2>&1 || command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen

play: setup
	$(UV) run gladiator serve

play-terminal: setup
	$(UV) run gladiator play quick

test: setup lint typecheck pytest

lint:
	$(UV) run ruff check src tests
	$(UV) run ruff format --check src tests

typecheck:
	$(UV) run mypy

# Browser tests run in a process of their own: once Playwright's sync API has run, asyncio.run()
# in a later test of the same process fails.
pytest:
	$(UV) run pytest
	$(UV) run pytest -m browser

bench: setup
	$(UV) run gladiator bench quick --matches 1000 --out bench/quick.json
	$(UV) run gladiator bench skirmish --matches 200 --out bench/skirmish.json
	$(UV) run gladiator bench colosseum --matches 20 --out bench/colosseum.json

# Old build against this one, same workload, alternating subprocesses, each build's own Python:
# `make bench-compare BASELINE=/path/to/old/checkout` (it needs its own .venv, or uv).
BASELINE ?= /work/baseline
bench-compare: setup
	$(UV) run gladiator bench-compare quick --baseline $(BASELINE) --matches 300 --out bench/compare-quick.json
	$(UV) run gladiator bench-compare skirmish --baseline $(BASELINE) --matches 200 --out bench/compare-skirmish.json
	$(UV) run gladiator bench-compare colosseum --baseline $(BASELINE) --matches 30 --out bench/compare-colosseum.json

clean:
	rm -rf .venv .mypy_cache .pytest_cache .ruff_cache .hypothesis
