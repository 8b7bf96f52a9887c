"""One deal, phase by phase: the setup (:mod:`.dealing`), the turns (:mod:`.turns`), the
settlement (:mod:`.drawn_end`; wins and kongs are paid as they happen, :mod:`.wins`,
:mod:`.kongs`), with every record field left in the state for :mod:`.recording` to write.

``play_deal = setup_deal + start_turns + run_turns + finish_deal``: the turn loop starts from
whatever decision point the state holds (``st.sc[S_PHASE]`` and the turn's scalars), so a deal
can also be continued from a state stopped part-way (``resume``; the entry kernel's
``LAYOUT_RESUME``), the door for rollouts from a mid-game position.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_ir_inline, deal_njit
from simcore.engine.dealing import setup_deal
from simcore.engine.drawn_end import settle_drawn_end
from simcore.engine.recording import log_event, net
from simcore.engine.state import EV_END, S_LOG, S_N_WINNERS, S_PLAYERS, S_ROLLOUT_SEAT
from simcore.engine.turns import run_turns, start_turns
from simcore.engine.wall import wall_left


@deal_ir_inline
def play_deal(st, R, T, pid, P, families, seed, deal, wall_id, dealer, fixed_wall, resume,
              max_steps):
    """Play deal ``deal`` (wall ``wall_id``) to its end; results are left in ``st``.

    With ``fixed_wall`` the wall already in ``st.wall`` is played (scripted deals, what-if).
    ``families`` says which optional policy families are compiled in: passed on unchanged to
    :mod:`.policies.dispatch`, the only code that reads it. With ``resume`` the deal already in
    ``st`` (stopped at a decision point) is played on instead of a new one being dealt. With
    ``max_steps`` >= 0 the deal stops after that many phases (unsettled, when it has not ended).
    """
    if not resume:
        setup_deal(st, R, T, pid, P, families, seed, deal, wall_id, dealer, fixed_wall)
        start_turns(st)
    return resume_deal(st, R, T, pid, P, families, max_steps)


@deal_njit
def resume_deal(st, R, T, pid, P, families, max_steps):
    """:func:`play_deal` with ``resume``: the deal in ``st`` played on from its decision point.
    The rollout kernel calls it rather than play_deal, so that nothing of the deal's setup
    (dealing, exchange, void: 23 s of a cold compile in one process) is reachable from it.

    A function of its own, not inlined, and cached on disk with the engine's fingerprint
    (:data:`.compile.prewarm.SHARED_ROOTS`): both entry kernels call it with the same types,
    so the rollout kernel loads the turn loop the first batch run compiled instead of
    optimising it once more (once per deal, the call costs nothing measurable)."""
    if run_turns(st, R, T, pid, P, families, max_steps):
        finish_deal(st, R, T)
        return True
    return False


@deal_ir_inline
def finish_deal(st, R, T):
    """The end of a deal: a drawn end is settled (every deal under blood river; not a rollout
    cut short, whose deciding seat it would not touch), and the log says every net."""
    if st.sc[S_ROLLOUT_SEAT] < 0:
        return
    if st.sc[S_N_WINNERS] < st.sc[S_PLAYERS] - 1 or R.blood_river != 0:
        settle_drawn_end(st, R, T)
    if st.sc[S_LOG] != 0:
        log_event(st, EV_END, net(st, 0), net(st, 1), net(st, 2), net(st, 3), wall_left(st))
