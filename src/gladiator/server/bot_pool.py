"""Where a server's bots think: a bounded pool of worker processes, and the server's limits on
what a bot seat may ask (docs/web.md, "Bot seats"; rulings HF2-HF4).

A bot's decision is CPU-bound Python: in a thread of the server it would hold the GIL against
the event loop, and every human's order would wait behind it. So each decision goes, with the
bot itself, to a worker process (at most `BotPolicy.workers` of them, at a lower CPU priority),
and comes back with the bot as it is after the decision, so that what a bot learns in a match
(the search bot's opponent model) lives on. A decision that does not come back (a worker
killed, a bot that never stops) costs that decision, never the match: the caller plays a random
legal order instead and the pool is started anew.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import os
import pickle
import random
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import Any

from gladiator.bots.base import Bot
from gladiator.bots.search_config import config_for
from gladiator.bots.smmcts import SearchBot
from gladiator.core.decisions import Decision
from gladiator.core.protocol import Ruleset

__all__ = [
    "MAX_BUDGET",
    "BotPolicy",
    "BotPool",
    "Job",
    "Thought",
    "bot_policy",
    "capped_budget",
    "default_workers",
]

log = logging.getLogger("gladiator.server")

MAX_BUDGET = 2.0  # CPU seconds a decision, the most a seat may ask of this server (HF2)
GRACE = 30.0  # wall seconds past ten budgets before a decision is given up and its worker killed
NICE = 10  # how much lower the workers' CPU priority is than the server's


def default_workers() -> int:
    """One core fewer than the machine has (at least one): the event loop keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class BotPolicy:
    """A server's bot seats: the most a decision may think (`max_budget`, CPU seconds), how many
    worker processes think at once (`workers`; 0: in threads of the server process, for tests
    of in-process bots only), after how many seconds with no connection a match's bots pause
    (`pause_after`; None: the abandonment clock's `abandon_after`; 0: never, HF4) and how long
    past ten budgets a decision may run before its worker is killed (`grace`)."""

    max_budget: float = MAX_BUDGET
    workers: int = field(default_factory=default_workers)
    pause_after: float | None = None
    grace: float = GRACE

    def __post_init__(self) -> None:
        if not (math.isfinite(self.max_budget) and self.max_budget > 0):
            raise ValueError(f"the bot budget cap must be a positive number, not {self.max_budget}")
        if self.workers < 0:
            raise ValueError(f"bot workers must be 0 or more, not {self.workers}")

    def give_up_after(self, budget: float | None) -> float:
        """Wall seconds a decision of `budget` may take in a worker. Ten budgets and a grace:
        the budget is CPU time, and a worker niced below a busy server gets less than a core."""
        return self.grace + 10 * (self.max_budget if budget is None else budget)


def bot_policy(max_budget: float, workers: float) -> BotPolicy:
    """The policy for `serve --bot-budget-cap --bot-workers`; ValueError with one line."""
    if not (math.isfinite(max_budget) and max_budget > 0):
        raise ValueError(
            f"--bot-budget-cap must be a positive number of seconds, not {max_budget:g}"
        )
    if workers != int(workers) or not 1 <= workers <= 256:
        raise ValueError(f"--bot-workers must be a whole number from 1 to 256, not {workers:g}")
    return BotPolicy(max_budget=float(max_budget), workers=int(workers))


def default_budget(bot: Bot, ruleset_name: str) -> float | None:
    """The budget a bot thinks for when given none, where this program knows it (the search
    bot's, per ruleset); None for a bot that does not say (the others do not search)."""
    if isinstance(bot, SearchBot) and bot.iterations is None:
        if bot.budget is not None:
            return bot.budget
        return (bot.config or config_for(ruleset_name)).with_options(**bot.options).budget
    return None


def capped_budget(bot: Bot, ruleset_name: str, asked: float | None, cap: float) -> float | None:
    """What `choose` is given (HF2): the seat's budget, or the bot's own default, at most
    `cap`; None (the bot's default) where that default is known to be under the cap or is not
    known at all."""
    if asked is not None:
        return min(asked, cap)
    own = default_budget(bot, ruleset_name)
    return cap if own is not None and own > cap else None


@dataclass
class Job:
    """One decision of one bot: everything `Bot.choose` is given, the bot itself included."""

    bot: Bot
    ruleset: Ruleset[Any]
    state: Any  # what the seat may know: `Ruleset.determinize` of the match's state
    seat: str
    decision: Decision
    rng: random.Random
    budget: float | None

    def run(self) -> Thought:
        """Think here (a worker, or a thread where the job does not pickle)."""
        try:
            order = self.bot.choose(
                self.ruleset, self.state, self.seat, self.decision, self.rng, budget=self.budget
            )
        except Exception:  # any bot's bug: the caller logs it and plays at random
            return Thought(None, None, self.rng, traceback.format_exc(limit=8).strip())
        return Thought(order, self.bot, self.rng)


@dataclass
class Thought:
    """A decision thought: the order (None: none came, `error` says why: the bot's own
    traceback, or with `lost` the worker's end), the bot as it is after it (None: keep the one
    sent), and the bot's generator as the bot left it (a random order instead draws on from it,
    as it did when bots thought in threads)."""

    order: str | None
    bot: Bot | None
    rng: random.Random
    error: str | None = None
    lost: bool = False  # no answer came back from the worker (the pool logged why, once)


def _start_worker(server: int) -> None:
    # Lower priority: when a human's order and a bot's search want the same core, the order wins.
    if hasattr(os, "nice"):
        os.nice(NICE)
    _leave_with(server)


def _leave_with(server: int) -> None:
    """A worker whose server was killed (SIGKILL leaves it no time to stop the pool) would wait
    on the pool's queue for ever, and keep the forkserver alive with it (each child holds its
    alive pipe): it leaves as soon as the server is gone."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # alive, another user's
                continue

    threading.Thread(target=watch, name="leave-with-server", daemon=True).start()


def _ready() -> None:
    """A worker's first task when the pool is started ahead (`BotPool.warm`): nothing."""


def _work(payload: bytes) -> bytes:
    """In a worker: unpickle the job, think, send back the thought (the bot without its
    state if that no longer pickles: the order still counts)."""
    job: Job = pickle.loads(payload)
    thought = job.run()
    try:
        return pickle.dumps(thought, pickle.HIGHEST_PROTOCOL)
    except Exception:  # the bot's state after the decision does not pickle: keep the old one
        return pickle.dumps(Thought(thought.order, None, thought.rng, thought.error))


_CONTEXT: BaseContext | None = None


def _context() -> BaseContext:
    """forkserver where there is one: forking this process (an event loop, threads, a database
    pool) is unsafe; the fork server is a clean process that has imported the bots once, so a
    new worker starts at once. spawn elsewhere."""
    global _CONTEXT
    if _CONTEXT is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload([__name__])
            _CONTEXT = ctx
        else:
            _CONTEXT = multiprocessing.get_context("spawn")
    return _CONTEXT


def _kill_workers(executor: ProcessPoolExecutor) -> None:
    """Kill every worker now (a runaway decision never returns its worker otherwise)."""
    kill = getattr(executor, "kill_workers", None)  # Python 3.14
    if callable(kill):
        kill()
        return
    for process in list(executor._processes.values()):
        process.kill()


class BotPool:
    """One server's bot workers, started at the first decision; `close` at shutdown."""

    def __init__(self, policy: BotPolicy, clock: Callable[[], float]) -> None:
        self.policy = policy
        self.clock = clock  # the abandonment clock's, for the pause (HF4)
        self.pause_after = policy.pause_after or 0.0
        # At most `workers` decisions are handed out at once: one waiting here has not started
        # thinking, so its time limit does not run, and a match paused or moved on meanwhile
        # never reaches a worker (`think`'s `wanted`).
        self._slots = asyncio.Semaphore(max(1, policy.workers))
        self._executor: ProcessPoolExecutor | None = None
        self._warming: asyncio.Task[Any] | None = None
        self._threaded: set[tuple[str, str]] = set()  # (bot, ruleset) that cannot go to one

    @property
    def in_threads(self) -> bool:
        return self.policy.workers == 0

    async def think(self, job: Job, wanted: Callable[[], bool]) -> Thought | None:
        """The job's thought, in a worker (in a thread where it cannot go to one, logged once
        per bot and ruleset); None if `wanted()` says no once it is its turn."""
        payload = None if self.in_threads else self._payload(job)
        async with self._slots:
            if not wanted():
                return None
            if payload is None:
                return await asyncio.to_thread(job.run)
            return await self._in_worker(payload, job)

    def _payload(self, job: Job) -> bytes | None:
        """The job pickled for a worker; None where it cannot go to one."""
        kind = (job.bot.name, job.ruleset.name)
        if kind in self._threaded:
            return None
        try:
            return pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # PicklingError, TypeError, AttributeError: made at run time
            self._thread_from_now(kind, f"{type(exc).__name__}: {exc}")
            return None

    def _thread_from_now(self, kind: tuple[str, str], why: str) -> None:
        self._threaded.add(kind)
        log.warning("bot %s (%s) thinks in a thread of the server: %s", kind[0], kind[1], why)

    async def _in_worker(self, payload: bytes, job: Job) -> Thought:
        executor = self._running()
        limit = self.policy.give_up_after(job.budget)
        try:
            # In a thread: a submit may start a worker, and the first one waits for the fork
            # server to import the bots (seconds the event loop must not be held for).
            future = await asyncio.to_thread(executor.submit, _work, payload)
            raw = await asyncio.wait_for(asyncio.wrap_future(future), limit)
        except TimeoutError:
            why = f"bot {job.bot.name} gave no order in {limit:g} s"
            self._restart(executor, why)
            return Thought(None, None, job.rng, why, lost=True)
        except RuntimeError as exc:  # BrokenProcessPool, or a submit to a pool just broken
            self._restart(executor, f"a worker died ({type(exc).__name__})")
            return Thought(None, None, job.rng, f"its worker died: {exc}", lost=True)
        except Exception as exc:  # the worker could not unpickle it (a class it cannot import)
            self._thread_from_now((job.bot.name, job.ruleset.name), f"{type(exc).__name__}: {exc}")
            return Thought(None, None, job.rng, f"it could not go to a worker: {exc}", lost=True)
        thought: Thought = pickle.loads(raw)
        return thought

    def warm(self) -> None:
        """Start the workers now, not at the first decision: their fork server imports the
        bots first (seconds, twenty on a busy machine), which a stand-in due soon after a
        start or a takeover must not wait for (CP2). Returns at once."""
        if self.in_threads or self._executor is not None:
            return
        executor = self._running()
        task = asyncio.get_running_loop().create_task(asyncio.to_thread(executor.submit, _ready))
        self._warming = task  # held, so the task is not collected before it runs

    def _running(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.policy.workers,
                mp_context=_context(),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    def _restart(self, executor: ProcessPoolExecutor, why: str) -> None:
        """Kill a broken or stuck pool; the next decision starts a new one. Logged once per
        pool: every decision it held fails with it."""
        if self._executor is not executor:
            return
        log.error("the bot workers are started anew: %s", why)
        self._executor = None
        _kill_workers(executor)
        executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """At shutdown: no decision is waited for."""
        executor, self._executor = self._executor, None
        if executor is not None:
            _kill_workers(executor)
            executor.shutdown(wait=False, cancel_futures=True)
