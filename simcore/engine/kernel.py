"""The engine's one cached entry kernel, and the one Python door to it.

Every way of playing deals goes through :func:`play_deals`: batch chunks (``play``/``run``),
duplicate walls, one logged deal (``replay``, scripted walls) and what-if deals on conditional
walls. One entry point means the engine is compiled once per machine, not once per command:
each cached kernel embeds its own copy of the whole engine, and three of them cost three full
compiles on a cold cache (issue 12: 347 + 244 + 231 s).

:func:`call` is how Python calls it: the first call of a process compiles (or loads) the
kernel under a file lock, so that processes starting together on a cold cache wait for one
compile instead of each compiling, and says on stderr that it is compiling (or loading, when
numba's disk cache holds the kernel) when that takes more than a moment.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import threading
import time
import zlib
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from numba import njit, typeof

from simcore._files import write_atomic
from simcore.engine.compile import prewarm
from simcore.engine.compile.fingerprint import engine_fingerprint
from simcore.engine.compile.jit import deal_ir_inline
from simcore.engine.conditional import PURPOSE_WHATIF, lay_conditional_wall, whatif_dealer
from simcore.engine.core import play_deal, write_records, write_wins
from simcore.engine.invariants import check_deal
from simcore.engine.policies.expert_options import POLICY_EXPERT
from simcore.engine.rng import stream_key
from simcore.records import WALL_SIZE, WIN_DTYPE

# How the deals of one call are laid out (the ``layout`` argument).
# (``players`` = R.players: 4, or 3 in the three-player variant)
LAYOUT_DEALS = 0  # deals start .. start+count-1, deal d on wall d with dealer d % players
LAYOUT_DUPLICATE = 1  # walls start .., each in ``players`` rotations (deal players * wall + r)
LAYOUT_ONE = 2  # one deal: one = (deal, wall id, dealer, fixed wall, rotation)
LAYOUT_CONDITIONAL = 3  # what-if: seat 0 is dealt ``hand``; one[0] = seat 0 deals; every plan
N_ONE = 5

# seconds: a cache load is faster than this (1-2 s on a busy machine), a compile is not
COMPILE_NOTICE_AFTER = 2.0
# cold `simcore run --deals 100000`, benchmarks/bench_compile.py: 75.6 s wall with speed
# seats, the compile split over two processes (prewarm.py)
COMPILE_ESTIMATE = "about a minute on 2 cores"
# the kernel that also seats the expert family is a second compile, the first time it is used
# (a cold `simcore run --policies expert --deals 2000`: 86 s)
COMPILE_ESTIMATE_EXPERT = "about a minute and a half on 2 cores, with the expert family"


@deal_ir_inline
def _play_plans(st, R, T, plan_pid, plan_params, plan_policy, with_expert, seed, start, count,
                layout, one, hand, out, wins, debug, errors, pid, P, pol, wall, rest, state):
    """The loop of :func:`play_deals` (inlined into it); ``pid``, ``P``, ``pol``, ``wall``,
    ``rest`` and ``state`` are work space (this code is compiled without reference counting and
    may not allocate)."""
    n_plans = plan_pid.shape[0]
    players = R.players
    rotations = players if layout == LAYOUT_DUPLICATE else 1
    row = 0
    n_wins = 0
    for j in range(count):
        deal = start + j
        wall_id = deal
        dealer = deal % players
        if layout == LAYOUT_CONDITIONAL:
            dealer = whatif_dealer(deal, one[0] != 0)
            state[0] = stream_key(seed, deal, PURPOSE_WHATIF)
            lay_conditional_wall(hand, dealer, state, wall, rest)
        for p in range(n_plans):
            for rot in range(rotations):
                for s in range(4):
                    # seat 3 of a three-player table is never in play: it keeps plan seat 3
                    k = (s + rot) % players if s < players else s
                    pid[s] = plan_pid[p, k]
                    for o in range(P.shape[1]):  # not P[s] = ...: an array copy needs the runtime
                        P[s, o] = plan_params[p, k, o]
                    pol[s] = plan_policy[p, k]
                fixed = False
                rotation = rot
                if layout == LAYOUT_DUPLICATE:
                    wall_id = start + j
                    deal = players * wall_id + rot
                    dealer = wall_id % players
                elif layout == LAYOUT_ONE:
                    deal, wall_id, dealer = one[0], one[1], one[2]
                    fixed = one[3] != 0
                    rotation = one[4]
                elif layout == LAYOUT_CONDITIONAL:
                    for k in range(WALL_SIZE):
                        st.wall[k] = wall[k]
                    fixed = True
                    row = players * (p * count + j)  # plan-major: plan p, deal j
                play_deal(st, R, T, pid, P, with_expert, seed, deal, wall_id, dealer, fixed)
                if debug:
                    code = check_deal(st)
                    if code != 0:
                        errors[0] = code
                        errors[1] = deal
                        errors[2] = p
                        return
                write_records(st, out, row, deal, wall_id, rotation, pol)
                n_wins = write_wins(st, wins, n_wins, deal, wall_id, rotation, pol)
                errors[3] = n_wins
                row += players


def _build_entry_kernel(fingerprint: int):
    """The cached entry kernel; ``fingerprint`` (a closure cell) keys its cache (fingerprint.py)."""

    # Without reference counting, like the engine below it (jit.py): then the loop of deals
    # can be inlined here instead of being compiled (and the engine optimised) once more.
    # So it allocates nothing: :func:`call` passes the work space.
    @njit(cache=True, _nrt=False)
    def play_deals(st, R, T, plan_pid, plan_params, plan_policy, with_expert, seed, start, count,
                   layout, one, hand, out, wins, debug, errors, pid, P, pol, wall, rest, state):
        """Play ``count`` deals (walls, in a duplicate layout) of ``seed`` from ``start``, once
        per plan, into ``out`` (``R.players`` rows per deal) and every win into ``wins``
        (``WIN_DTYPE``, in play order; ``errors[3]`` = the rows the wins need, more than
        ``len(wins)`` when it was too small: those past its end are not written).

        ``plan_pid`` (int64[n_plans, 4]), ``plan_params`` (float64[n_plans, 4, N_PARAMS]) and
        ``plan_policy`` (int64[n_plans, 4], indices into the run's list of specs) give the four
        seats' policies of each plan; only the what-if layout has more than one plan.
        ``with_expert`` is ``None`` when no plan seats the expert family (which is then not
        compiled in: a kernel per case, each cached), else any array. With
        ``debug`` every deal is checked (:func:`.invariants.check_deal`); the first failure
        stops with ``errors[:3] = [code, deal, plan]``. The last six arguments are work space
        (:func:`work_space`).
        """
        if fingerprint < 0:  # never: it only keys the cache
            return
        _play_plans(st, R, T, plan_pid, plan_params, plan_policy, with_expert, seed, start,
                    count, layout, one, hand, out, wins, debug, errors, pid, P, pol, wall, rest,
                    state)

    return play_deals


play_deals = _build_entry_kernel(engine_fingerprint())

NO_HAND = np.zeros(27, np.int8)
NO_WINS = np.zeros(0, WIN_DTYPE)  # callers that do not keep the win table
_ready: set[tuple] = set()  # the kernel signatures this process has compiled or loaded


def call(st, R, T, plan_pid, plan_params, plan_policy, seed: int, start: int, count: int,
         layout: int, one: np.ndarray | None = None, hand: np.ndarray | None = None, *,
         out: np.ndarray, debug: bool = False, wins: np.ndarray | None = None) -> np.ndarray:
    """Call :func:`play_deals`; returns ``errors`` (``[code, deal, plan, win rows]``, code 0
    when every checked deal was sound; the wins go to ``wins``, a ``WIN_DTYPE`` array, when
    given: see :func:`play_deals` for one too small). The first call of a process compiles or
    loads the kernel first, under the compile lock."""
    if one is None:
        one = np.zeros(N_ONE, np.int64)
    if hand is None:
        hand = NO_HAND
    if wins is None:
        wins = NO_WINS
    errors = np.zeros(4, np.int64)
    with_expert = NO_HAND if (np.asarray(plan_pid) == POLICY_EXPERT).any() else None
    args = (st, R, T, plan_pid, plan_params, plan_policy, with_expert, np.int64(seed),
            np.int64(start), np.int64(count), np.int64(layout), one, hand, out, wins,
            bool(debug), errors, *work_space(plan_params.shape[2]))
    ensure_compiled(args, with_expert is not None)
    play_deals(*args)
    return errors


def work_space(n_params: int) -> tuple[np.ndarray, ...]:
    """The work arrays of :func:`play_deals`: the seats' policy ids, parameters and indices, a
    what-if wall and the tiles left for it, a random state."""
    return (np.zeros(4, np.int64), np.zeros((4, n_params), np.float64), np.zeros(4, np.int64),
            np.zeros(WALL_SIZE, np.int8), np.zeros(WALL_SIZE, np.int8), np.zeros(1, np.uint64))


def ensure_compiled(args: tuple, with_expert: bool = False) -> None:
    """Compile (or load from the disk cache) the kernel for these arguments' types, once per
    process, holding the machine-wide compile lock (``with_expert``: the kernel that seats the
    expert family, for the estimate the notice gives)."""
    signature = tuple(typeof(a) for a in args)
    if signature in _ready:
        return
    estimate = COMPILE_ESTIMATE_EXPERT if with_expert else COMPILE_ESTIMATE
    with compile_lock(with_expert):
        prewarm.drop_unreadable_index(play_deals)
        # asked under the lock: a process that held it may just have compiled the kernel
        cached = prewarm.is_cached(play_deals, signature)
        with compile_notice(estimate=estimate, loading=cached):
            if prewarm.wanted() and not cached:
                report = prewarm.compile_in_parallel(play_deals, signature)
                report["fingerprint"] = engine_fingerprint()
                write_report(report_path(with_expert), report)
            else:
                play_deals.compile(signature)
    _ready.add(signature)


def lock_path(with_expert: bool = False) -> Path:
    """The machine-wide lock file of one kernel's compile (beside the lookup-table cache).

    One file per kernel and per numba cache folder: a process whose kernel is cached must not
    wait while another process compiles the other kernel, or the same one into another cache.
    """
    return _compile_file(with_expert, ".lock")


def report_path(with_expert: bool = False) -> Path:
    """Where the last cold compile of one kernel into this numba cache says how it went
    (JSON: :func:`.prewarm.compile_in_parallel`'s report and the engine fingerprint)."""
    return _compile_file(with_expert, ".json")


def _compile_file(with_expert: bool, suffix: str) -> Path:
    from numba.core.config import CACHE_DIR

    from simcore.hand.tables import cache_dir

    kind = "expert" if with_expert else "greedy"
    where = zlib.crc32(os.path.abspath(CACHE_DIR).encode()) if CACHE_DIR else 0
    return cache_dir() / f"engine-compile-{kind}-{where:08x}{suffix}"


def write_report(path: Path, report: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(report, indent=1).encode())


@contextmanager
def compile_lock(with_expert: bool = False):
    """Hold an exclusive lock on :func:`lock_path` (other processes wait for it)."""
    path = lock_path(with_expert)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def compile_notice(after: float | None = None, stream=None,
                   estimate: str = COMPILE_ESTIMATE, loading: bool = False):
    """Say on stderr that the engine is compiling (``loading``: loading from numba's disk cache)
    when the block takes longer than ``after`` (default :data:`COMPILE_NOTICE_AFTER`)."""
    after = COMPILE_NOTICE_AFTER if after is None else after
    stream = stream or sys.stderr
    done = threading.Event()
    t0 = time.perf_counter()
    said = []

    def notice() -> None:
        if not done.wait(after):
            said.append(True)
            if loading:
                text = f"loading the compiled engine from the disk cache (pid {os.getpid()})"
            else:
                text = (f"compiling the engine once for this machine ({estimate}; cached "
                        f"afterwards, pid {os.getpid()})")
            print(f"simcore: {text} ...", file=stream, flush=True)

    thread = threading.Thread(target=notice, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if said:
            print(f"simcore: engine ready ({time.perf_counter() - t0:.0f} s)", file=stream,
                  flush=True)
