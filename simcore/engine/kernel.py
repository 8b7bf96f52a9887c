"""The engine's cached entry kernels (the deals', the rollouts'), and the one Python door to them.

Every way of playing deals goes through :func:`play_deals`: batch chunks (``play``/``run``),
duplicate walls, one logged deal (``replay``, scripted walls), what-if deals on conditional
walls. One entry point means the engine is compiled once per machine, not once per command:
each cached kernel embeds its own copy of the whole engine, and three of them cost three full
compiles on a cold cache (issue 12: 347 + 244 + 231 s). The advice's rollouts are the
exception, by design: :func:`play_rollouts`, compiled only on a machine that asks for advice,
so that every first batch run does not pay for it (issue 27: 53 s instead of 85 s cold), and
holding only what a deal played on from a decision needs (no batch loop, no setup).

:func:`call` is how Python calls it: the first call of a process compiles (or loads) the
kernel under a file lock (:func:`.compile.ensure.ensure_compiled`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from simcore.engine.compile.ensure import COMPILE_ESTIMATE_ROLLOUTS, ensure_compiled
from simcore.engine.compile.fingerprint import engine_fingerprint
from simcore.engine.compile.jit import deal_ir_inline
from simcore.engine.conditional import PURPOSE_WHATIF, lay_conditional_wall, whatif_dealer
from simcore.engine.deal import play_deal, resume_deal
from simcore.engine.policies.dispatch import compiled_families, families_for
from simcore.engine.recording import record_deal
from simcore.engine.rng import stream_key
from simcore.engine.rollout import end_forcing, start_rollout
from simcore.records import WALL_SIZE, WIN_DTYPE

# How the deals of one call are laid out (the ``layout`` argument).
# (``players`` = R.players: 4, or 3 in the three-player variant)
LAYOUT_DEALS = 0  # deals start .. start+count-1, deal d on wall d with dealer d % players
LAYOUT_DUPLICATE = 1  # walls start .., each in ``players`` rotations (deal players * wall + r)
LAYOUT_ONE = 2  # one deal: one = (deal, wall id, dealer, fixed wall, rotation, steps)
# what-if: seat 0 is dealt ``hand``; one[0] = the dealer code (conditional.py), one[1:5] = a
# receiving seat (0: none) and the three tiles seat 0 gave it; every plan on the same walls
LAYOUT_CONDITIONAL = 3
# the deal left in the state (stopped at a decision point by a LAYOUT_ONE call with steps, or
# loaded there), played on from it: ``one`` as for LAYOUT_ONE (wall and dealer are the state's)
LAYOUT_RESUME = 4
# rollouts (rollout.py): ``deals`` hidden states (``hidden``, ``walls``; hidden state j is
# sample start + j) laid into ``base``, each played once per action row of ``forces``
LAYOUT_ROLLOUT = 5
# one[5], steps: with LAYOUT_ONE or LAYOUT_RESUME, stop the deal after that many phases of its
# turn loop, unsettled and unrecorded, when it has not ended by then (0: play it to its end)
N_ONE = 6


class Plans(NamedTuple):
    """The seats' policies of each plan of a call (only the what-if layout has more than one)."""

    pid: np.ndarray  # int64[n_plans, 4] policy ids
    params: np.ndarray  # float64[n_plans, 4, N_PARAMS] the seats' parameter vectors
    policy: np.ndarray  # int64[n_plans, 4] indices into the run's list of specs (records)
    # the optional policy families compiled in: an opaque value made and read only by
    # policies/dispatch.py (families_for), passed down unchanged (a kernel per value type)
    families: tuple


class Run(NamedTuple):
    """Which deals a call plays, and how."""

    seed: np.int64
    start: np.int64
    deals: np.int64  # how many (walls, in a duplicate layout)
    layout: np.int64  # LAYOUT_*
    debug: bool  # check every deal (invariants.check_deal)
    one: np.ndarray  # int64[N_ONE]: the one deal of LAYOUT_ONE / LAYOUT_RESUME, or what-if's
    hand: np.ndarray  # int8[27]: what-if's hand of seat 0


class Outputs(NamedTuple):
    """What a call writes: records, win table, and ``errors``: [code, deal, plan, win rows]."""

    out: np.ndarray  # RECORD_DTYPE, R.players rows per deal
    wins: np.ndarray  # WIN_DTYPE
    errors: np.ndarray  # int64[4]


class Work(NamedTuple):
    """Work space of the loop of deals (compiled without reference counting, it may not
    allocate): the seats' policy ids, parameters and indices, a what-if wall and the tiles left
    for it, a random state."""

    pid: np.ndarray  # int64[4]
    P: np.ndarray  # float64[4, N_PARAMS]
    pol: np.ndarray  # int64[4]
    wall: np.ndarray  # int8[WALL_SIZE]
    rest: np.ndarray  # int8[WALL_SIZE]
    state: np.ndarray  # uint64[1]


@deal_ir_inline
def _seat_plan(plans, work, p, rot, players):
    """The seats' policies of plan ``p`` in rotation ``rot`` into the work space."""
    plan_pid, plan_params, plan_policy, _families = plans
    pid, P, pol = work.pid, work.P, work.pol
    for s in range(4):
        # seat 3 of a three-player table is never in play: it keeps plan seat 3
        k = (s + rot) % players if s < players else s
        pid[s] = plan_pid[p, k]
        for o in range(P.shape[1]):  # not P[s] = ...: an array copy needs the runtime
            P[s, o] = plan_params[p, k, o]
        pol[s] = plan_policy[p, k]


@deal_ir_inline
def _place(st, layout, start, j, rot, players, one, wall):
    """Which deal the loop plays next and how: ``deal, wall_id, dealer, fixed wall, rotation
    (the records' column), steps`` (-1: to its end) for deal ``j`` in rotation ``rot``."""
    deal = start + j
    wall_id = deal
    dealer = deal % players
    fixed = False
    rotation = rot
    max_steps = -1
    if layout == LAYOUT_DUPLICATE:
        wall_id = start + j
        deal = players * wall_id + rot
        dealer = wall_id % players
    elif layout == LAYOUT_ONE or layout == LAYOUT_RESUME:  # noqa: SIM109 (numba: plain ints)
        deal, wall_id, dealer = one[0], one[1], one[2]
        fixed = one[3] != 0
        rotation = one[4]
        if one[5] > 0:
            max_steps = one[5]
    elif layout == LAYOUT_CONDITIONAL:
        dealer = whatif_dealer(deal, one[0])
        for k in range(WALL_SIZE):
            st.wall[k] = wall[k]
        fixed = True
    return deal, wall_id, dealer, fixed, rotation, max_steps


@deal_ir_inline
def _play_plans(st, R, T, plans, run, outputs, work):
    """The loop of :func:`play_deals` for every layout but rollouts (inlined into it): the only
    call site of the deal in that kernel (each call site costs the compile of a copy of the
    whole engine)."""
    plan_pid = plans[0]
    families = plans[3]
    seed, start, count, layout, debug = run[0], run[1], run[2], run[3], run[4]
    one, hand = run[5], run[6]
    pid, P, pol, wall, rest, state = work
    players = R.players
    rotations = players if layout == LAYOUT_DUPLICATE else 1
    row = 0
    n_wins = 0
    for j in range(count):
        if layout == LAYOUT_CONDITIONAL:
            state[0] = stream_key(seed, start + j, PURPOSE_WHATIF)
            lay_conditional_wall(hand, whatif_dealer(start + j, one[0]), state, wall, rest,
                                 one[1], one[2], one[3], one[4])
        for p in range(plan_pid.shape[0]):
            for rot in range(rotations):
                _seat_plan(plans, work, p, rot, players)
                deal, wall_id, dealer, fixed, rotation, max_steps = _place(
                    st, layout, start, j, rot, players, one, wall)
                if layout == LAYOUT_CONDITIONAL:
                    row = players * (p * count + j)  # plan-major: plan p, deal j
                if not play_deal(st, R, T, pid, P, families, seed, deal, wall_id, dealer,
                                 fixed, layout == LAYOUT_RESUME, max_steps):
                    return  # stopped at one[5] steps: one deal, left in ``st``
                n_wins = record_deal(st, outputs, row, n_wins, deal, wall_id, rotation, pol,
                                     debug, p)
                if n_wins < 0:
                    return
                row += players


@deal_ir_inline
def _play_rollouts(st, R, T, plans, run, rollouts, outputs, work):
    """The loop of :func:`play_rollouts` (inlined into it): each hidden state of
    ``rollouts`` (sample ``run.start + j``) played once per action, with the call's one plan.
    The only call site of the deal in the rollout kernel."""
    families = plans[3]
    seed, start, count, debug = run[0], run[1], run[2], run[4]
    pid, P, pol = work.pid, work.P, work.pol
    players = R.players
    row = 0
    n_wins = 0
    for j in range(count):
        for a in range(rollouts.forces.shape[0]):
            _seat_plan(plans, work, 0, 0, players)
            max_steps = start_rollout(st, R, T, pid, P, families, seed, start, rollouts, j, a)
            deal = start + j
            while not resume_deal(st, R, T, pid, P, families, max_steps):
                end_forcing(st)  # the decision is played: the seats' policies go on
                _seat_plan(plans, work, 0, 0, players)
                max_steps = -1
            n_wins = record_deal(st, outputs, row, n_wins, deal, deal, a, pol, debug, a)
            if n_wins < 0:
                return
            row += players


def _build_entry_kernels(fingerprint: int):
    """The cached entry kernels; ``fingerprint`` (a closure cell) keys their cache
    (fingerprint.py)."""

    # Without reference counting, like the engine below it (jit.py): then the loop of deals
    # can be inlined here instead of being compiled (and the engine optimised) once more.
    # So it allocates nothing: :func:`call` passes the work space. Without the GIL: the
    # advisor plays a position's batches in threads (one process, no start-up, one sampler).
    @njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private
    def play_deals(st, R, T, plans, run, outputs, work, rollouts):
        """Play ``run.deals`` deals (walls, in a duplicate layout) of ``run.seed`` from
        ``run.start``, once per plan of ``plans`` (:class:`Plans`), into ``outputs.out``
        (``R.players`` rows per deal) and every win into ``outputs.wins`` (``WIN_DTYPE``, in
        play order; ``errors[3]`` = the rows the wins need, more than ``len(wins)`` when it
        was too small: those past its end are not written).

        ``plans.families`` says which optional policy families are compiled in (a kernel per
        case, each cached: :func:`.policies.dispatch.families_for`). With ``run.debug`` every
        deal is checked (:func:`.invariants.check_deal`); the first failure stops with
        ``errors[:3] = [code, deal, plan]``. ``work`` is work space (:func:`work_space`).
        ``rollouts`` is None: rollouts are :func:`play_rollouts`'.
        """
        if fingerprint < 0:  # never: it only keys the cache
            return
        _play_plans(st, R, T, plans, run, outputs, work)

    # A kernel of its own rather than a branch of play_deals on ``rollouts is None``: numba
    # prunes that branch when the argument is None, not when it is a tuple, so the rollout
    # specialization compiled the batch loop and the deal's setup too (twice the compile).
    @njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: private
    def play_rollouts(st, R, T, plans, run, outputs, work, rollouts):
        """:func:`play_deals`' arguments, ``rollouts`` a :class:`Rollouts`: its hidden states
        each played once per action (``LAYOUT_ROLLOUT``), compiled the first time a position
        is advised."""
        if fingerprint < 0:  # never: it only keys the cache
            return
        _play_rollouts(st, R, T, plans, run, rollouts, outputs, work)

    return play_deals, play_rollouts


play_deals, play_rollouts = _build_entry_kernels(engine_fingerprint())


class Rollouts(NamedTuple):
    """The inputs of LAYOUT_ROLLOUT: ``Run.deals`` hidden states (hidden state j is sample
    ``Run.start + j``) laid into ``base``, each played once per action row of ``forces``."""

    hidden: np.ndarray  # int8[deals, 4, 27]: every seat's concealed tiles
    walls: np.ndarray  # int8[deals, WALL_SIZE]: the walls (from base's next draw on)
    forces: np.ndarray  # int64[actions, rollout.FORCE_FIELDS]: the forced decisions
    base: tuple  # the DealState at the decision point


NO_HAND = np.zeros(27, np.int8)
NO_WINS = np.zeros(0, WIN_DTYPE)  # callers that do not keep the win table


def call(st, R, T, plan_pid, plan_params, plan_policy, seed: int, start: int, count: int,
         layout: int, one: np.ndarray | None = None, hand: np.ndarray | None = None, *,
         out: np.ndarray, debug: bool = False, wins: np.ndarray | None = None,
         rollouts: Rollouts | None = None) -> np.ndarray:
    """Call :func:`play_deals`; returns ``errors`` (``[code, deal, plan, win rows]``, code 0
    when every checked deal was sound; the wins go to ``wins``, a ``WIN_DTYPE`` array, when
    given: see :func:`play_deals` for one too small). The first call of a process compiles or
    loads the kernel first, under the compile lock."""
    full = np.zeros(N_ONE, np.int64)
    if one is not None:  # callers may leave out the trailing fields (steps)
        full[: len(one)] = one
    if hand is None:
        hand = NO_HAND
    if wins is None:
        wins = NO_WINS
    if (rollouts is None) != (layout != LAYOUT_ROLLOUT):
        raise ValueError(f"layout {layout}: rollouts are given exactly with LAYOUT_ROLLOUT")
    errors = np.zeros(4, np.int64)
    st.memo.fill(0.0)  # answers under one call's rules (state.py): a caller may change them
    families = families_for(plan_pid)
    args = (st, R, T, Plans(plan_pid, plan_params, plan_policy, families),
            Run(np.int64(seed), np.int64(start), np.int64(count), np.int64(layout), bool(debug),
                full, hand),
            Outputs(out, wins, errors), work_space(plan_params.shape[2]), rollouts)
    if rollouts is None:
        ensure_compiled(play_deals, args, compiled_families(families))
        play_deals(*args)
    else:
        ensure_compiled(play_rollouts, args, (*compiled_families(families), "rollouts"),
                        estimate=COMPILE_ESTIMATE_ROLLOUTS)
        play_rollouts(*args)
    return errors


def work_space(n_params: int) -> Work:
    """The work space of :func:`play_deals`."""
    return Work(np.zeros(4, np.int64), np.zeros((4, n_params), np.float64),
                np.zeros(4, np.int64), np.zeros(WALL_SIZE, np.int8),
                np.zeros(WALL_SIZE, np.int8), np.zeros(1, np.uint64))


def load_rollout_kernel(seat_policies) -> None:
    """Compile or load the rollout kernel for seats playing ``seat_policies`` (a worker that
    will play rollouts then does not pay the load in its first batch)."""
    from simcore.engine.rollout import FORCE_FIELDS
    from simcore.engine.spec import policy_arrays
    from simcore.engine.state import new_state
    from simcore.hand.tables import load_tables
    from simcore.records import RECORD_DTYPE
    from simcore.rules import get_rules

    pid, params, index = policy_arrays(seat_policies)
    st = new_state()
    empty = Rollouts(np.zeros((0, 4, 27), np.int8), np.zeros((0, WALL_SIZE), np.int8),
                     np.zeros((0, FORCE_FIELDS), np.int64), st)  # no sample: base not read
    call(st, get_rules("classic").encode(), load_tables(), pid[None], params[None], index[None],
         0, 0, 0, LAYOUT_ROLLOUT, out=np.zeros(0, RECORD_DTYPE), rollouts=empty)
