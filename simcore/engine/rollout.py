"""Rollouts: a position's deal played on from one decision, once per candidate action, on each
of many hidden states (the entry kernel's ``LAYOUT_ROLLOUT``, a kernel of its own; issue 28).

The caller (:mod:`simcore.advice.loading`) loads everything the deciding seat can see into a
*base* state, stopped at the decision point (``S_PHASE`` and the turn's scalars), and draws the
hidden states: every seat's concealed tiles and the wall. For hidden state ``i`` and action
``a`` the kernel copies the base, lays in the hidden state, gives every seat its random streams
of ``(seed, i)`` and its plan for the hand it holds, forces the decision (policies/forced.py)
and plays the deal to its end, or until the deciding seat's net is final (``S_ROLLOUT_SEAT``:
:func:`.drawn_end.owes_and_is_owed_nothing`; the other seats' records are then cut short).
Every action of one hidden state is played on the same wall with the same streams (common
random numbers): their difference is the actions' and the luck that follows from them, not the
draw of the hidden state.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_ir_inline, deal_njit
from simcore.engine.evaluate import update_wait
from simcore.engine.lanes import lanes_first_drawer, open_lanes
from simcore.engine.policies import forced
from simcore.engine.policies.dispatch import decide_plan
from simcore.engine.rng import PURPOSE_ENGINE, PURPOSE_SEAT0, stream_key
from simcore.engine.state import (
    N_FORCE_SLOTS,
    P_IN_PLAY,
    S_CUR,
    S_DEAL,
    S_FORCE_SLOTS,
    S_FORCE_WIDTH,
    S_FORCED,
    S_LANES,
    S_LAST_DRAWN,
    S_N_KONG_PAY,
    S_N_WINS,
    S_POS,
    S_SEED,
    S_WALL_END,
    S_WALL_ID,
)

# A row of the forced actions (Run.forces): how many phases the decision lasts (2 for a turn
# that may end in a discard, else 1), then N_FORCE_SLOTS slots of seat, kind, tile (seat -1:
# unused)
FORCE_STEPS = 0
FORCE_FIELDS = 1 + S_FORCE_WIDTH * N_FORCE_SLOTS
# An entry of the behaviour model's ``observed`` (behaviour.py): the tile, and these flags
OBSERVED_HELD = 1 << 8  # the tile is in the seat's hand already (the discard being decided on)
OBSERVED_DRAWN = 1 << 9  # the seat threw the tile it had just drawn
OBSERVED_TILE = 0xFF


@deal_ir_inline
def copy_base(st, base):
    """``st`` = ``base``, the parts a deal reads and writes (not the work space)."""
    for k in range(st.wall.shape[0]):
        st.wall[k] = base.wall[k]
    for s in range(4):
        for t in range(27):
            st.hand[s, t] = base.hand[s, t]
        for m in range(4):
            st.meld_kind[s, m] = base.meld_kind[s, m]
            st.meld_tile[s, m] = base.meld_tile[s, m]
            st.meld_from[s, m] = base.meld_from[s, m]
        st.n_melds[s] = base.n_melds[s]
        st.void[s] = base.void[s]
        for f in range(st.pl.shape[1]):
            st.pl[s, f] = base.pl[s, f]
        for f in range(st.pay.shape[1]):
            st.pay[s, f] = base.pay[s, f]
        for f in range(st.memory.shape[1]):
            st.memory[s, f] = base.memory[s, f]
    for t in range(27):
        st.public[t] = base.public[t]
    for k in range(st.sc.shape[0]):
        st.sc[k] = base.sc[k]
    for e in range(base.sc[S_N_KONG_PAY]):
        for f in range(4):
            st.kong_pay[e, f] = base.kong_pay[e, f]
    for w in range(base.sc[S_N_WINS]):
        for f in range(st.win_log.shape[1]):
            st.win_log[w, f] = base.win_log[w, f]
    for k in range(st.rng.shape[0]):
        st.rng[k] = base.rng[k]


@deal_njit
def lay_hidden(st, hidden, wall, j, players, seed, sample):
    """Lay hidden state ``j`` into ``st`` (a copy of the base): every seat's concealed tiles,
    the wall from the next draw on, and the streams of sample ``sample`` of ``seed``."""
    for s in range(players):
        for t in range(27):
            st.hand[s, t] = hidden[j, s, t]
    for k in range(st.sc[S_POS], st.sc[S_WALL_END]):
        st.wall[k] = wall[j, k]
    st.sc[S_SEED] = seed
    st.sc[S_DEAL] = sample
    st.sc[S_WALL_ID] = sample
    st.rng[1] = stream_key(seed, sample, PURPOSE_ENGINE)
    for s in range(4):
        st.rng[2 + s] = stream_key(seed, sample, PURPOSE_SEAT0 + s)


@deal_ir_inline
def ready_seats(st, R, T, pid, P, families):
    """Every seat's wait mask and plan for the hand it now holds. The seat on its turn holds a
    drawn tile: its wait is its hand's without it (as the engine keeps it); after a pung or on
    the dealer's first turn it has none to keep (the discard computes it). A family with a plan
    chooses it for the hand and void the seat holds."""
    cur = st.sc[S_CUR]
    drawn = st.sc[S_LAST_DRAWN]
    for s in range(R.players):
        if st.pl[s, P_IN_PLAY] == 0 and R.blood_river == 0:
            continue
        if s != cur:
            update_wait(st, s, T)
        elif drawn >= 0:
            st.hand[s, drawn] -= 1
            update_wait(st, s, T)
            st.hand[s, drawn] += 1
        decide_plan(pid[s], P[s], families, st, s, R, T)


@deal_ir_inline
def force(st, pid, forces, a):
    """Put action row ``a``'s forced decisions in the state and seat the forced pseudo-family
    (policies/forced.py) in their seats; returns how many phases they last (exactly: the
    seats' own policies are seated again after them, :func:`end_forcing`)."""
    n = 0
    for k in range(N_FORCE_SLOTS):
        src = 1 + S_FORCE_WIDTH * k
        if forces[a, src] < 0:
            continue
        dst = S_FORCE_SLOTS + S_FORCE_WIDTH * n
        for f in range(S_FORCE_WIDTH):
            st.sc[dst + f] = forces[a, src + f]
        pid[forces[a, src]] = forced.POLICY_FORCED
        n += 1
    st.sc[S_FORCED] = n
    return forces[a, FORCE_STEPS]


@deal_ir_inline
def start_rollout(st, R, T, pid, P, families, seed, start, rollouts, j, a):
    """Put hidden state ``j`` of ``rollouts`` (kernel.Rollouts; sample ``start + j`` of
    ``seed``) into ``st`` at the decision point, with action ``a``'s decisions forced: the
    phases they last."""
    copy_base(st, rollouts.base)
    lay_hidden(st, rollouts.hidden, rollouts.walls, j, R.players, seed, start + j)
    if rollouts.base.sc[S_LANES] != 0:  # the caller's switch (advice/playing.py)
        open_lanes(st, R.players, lanes_first_drawer(st, R.players))
    ready_seats(st, R, T, pid, P, families)
    return force(st, pid, rollouts.forces, a)


@deal_ir_inline
def end_forcing(st):
    """The forced decision's phases are over (a ``pass`` may never have been asked); the
    caller seats the seats' own policies again."""
    forced.clear(st)
