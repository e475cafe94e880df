# Two entry points: `make play` (set up the runtime, then the web arena on
# http://127.0.0.1:8000/) and `make test` (set up everything, Chromium and PostgreSQL included,
# then lint, type-check and run every test). scripts/setup-system.sh installs what is missing.
#
# One .venv serves both. `make play` syncs without the dev group and --inexact, so it neither
# installs the dev tools nor removes them when `make test` put them there; `uv run --no-dev`
# keeps uv from adding them back. The test targets' `uv run` syncs the dev group (a no-op after
# `make setup`). --frozen everywhere: uv.lock is used as it is, never rewritten.
export UV_PYTHON_DOWNLOADS := never
UV := $(shell command -v uv 2>/dev/null || echo "python3 -m uv")

.PHONY: setup setup-play play play-terminal test lint typecheck pytest bench bench-compare clean

setup:
	@bash scripts/setup-system.sh --test
	$(UV) sync --frozen

setup-play:
	@bash scripts/setup-system.sh
	$(UV) sync --frozen --no-dev --inexact

play: setup-play
	$(UV) run --frozen --no-dev gladiator serve

play-terminal: setup-play
	$(UV) run --frozen --no-dev gladiator play quick

test: setup lint typecheck pytest

lint:
	$(UV) run --frozen ruff check src tests
	$(UV) run --frozen ruff format --check src tests

typecheck:
	$(UV) run --frozen mypy

# Browser tests run in a process of their own: once Playwright's sync API has run, asyncio.run()
# in a later test of the same process fails. One after the other: side by side they saved a few
# minutes but made the timing-sensitive server tests flaky (a restart's close frames).
pytest:
	$(UV) run --frozen pytest
	$(UV) run --frozen pytest -m browser

bench: setup-play
	$(UV) run --frozen --no-dev gladiator bench quick --matches 1000 --out bench/quick.json
	$(UV) run --frozen --no-dev gladiator bench skirmish --matches 200 --out bench/skirmish.json
	$(UV) run --frozen --no-dev gladiator bench colosseum --matches 20 --out bench/colosseum.json
	$(UV) run --frozen --no-dev gladiator bench colosseum --shape all --matches 10 --out bench/colosseum-shapes.json

# The Colosseum's shapes (sim/shapes.py) as SHAPE:MATCHES, each shape's matches sized to run
# for about as long as the others (a 6 v 6 match costs some twenty hunts).
COLOSSEUM_SHAPES := basic:80 advanced-duel:32 advanced-2v2:20 advanced-6v6:8 hunt:120 pack:100

# Old build against this one, same workload, alternating subprocesses, each build's own Python:
# `make bench-compare BASELINE=DIR`, DIR an old checkout (with its own .venv, or uv to make one).
bench-compare: setup-play
	@test -n "$(BASELINE)" || { echo "bench-compare: give BASELINE=DIR, an old checkout" >&2; exit 2; }
	$(UV) run --frozen --no-dev gladiator bench-compare quick --baseline $(BASELINE) --matches 300 --out bench/compare-quick.json
	$(UV) run --frozen --no-dev gladiator bench-compare skirmish --baseline $(BASELINE) --matches 200 --out bench/compare-skirmish.json
	$(UV) run --frozen --no-dev gladiator bench-compare colosseum --baseline $(BASELINE) --matches 30 --out bench/compare-colosseum.json
	for sm in $(COLOSSEUM_SHAPES); do \
	  $(UV) run --frozen --no-dev gladiator bench-compare colosseum --baseline $(BASELINE) \
	    --shape $${sm%:*} --matches $${sm#*:} --reps 5 --out bench/compare-colosseum-$${sm%:*}.json || exit 1; \
	done

clean:
	rm -rf .venv .mypy_cache .pytest_cache .ruff_cache .hypothesis
