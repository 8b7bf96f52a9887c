"""Decisions forced on a seat: the first action of a rollout (issue 28), played whatever the
seat's policy would choose, after which the policy plays on.

A rollout from a position forces at most two decisions (``st.sc[S_FORCED]`` slots of
``seat, kind, tile`` from ``S_FORCE_SLOTS``): the deciding seat's action, and for a decision on
another seat's discard or added kong, that seat's discard or kong (the position starts just
before it, so that the claims on it are played by the engine). The ``decide_*`` doors of
:mod:`.dispatch` ask :func:`forced_kind` first; a slot is consumed by the decision that
carries its action out (a ``pass`` on a discard may never be asked: the rollout driver clears
the slots once the decision's phase is over, :func:`clear`). Every other deal has no slot
(``S_FORCED`` is 0), so the doors cost one test of it.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline
from simcore.engine.state import S_FORCE_SLOTS, S_FORCE_WIDTH, S_FORCED

# The forced actions (a slot's kind; 0: consumed)
FORCE_NONE = 0
FORCE_DISCARD = 1  # its turn: no self-drawn win, no kong, discard ``tile``
FORCE_SELF_WIN = 2  # its turn: the self-drawn win
FORCE_KONG = 3  # its turn: no self-drawn win, the concealed or added kong of ``tile``
FORCE_WIN = 4  # on a discard or a robbed kong: the win
FORCE_PUNG = 5  # on a discard: no win, the pung
FORCE_CLAIM_KONG = 6  # on a discard: no win, the direct kong
FORCE_PASS = 7  # on a discard or a kong: neither win nor claim
FORCE_NAMES = ("none", "discard", "self_win", "kong", "win", "pung", "claim_kong", "pass")


@deal_inline
def forced_slot(st, seat):
    """The column of ``seat``'s pending forced decision in ``st.sc``, or -1."""
    for k in range(st.sc[S_FORCED]):
        c = S_FORCE_SLOTS + S_FORCE_WIDTH * k
        if st.sc[c] == seat and st.sc[c + 1] != FORCE_NONE:
            return c
    return -1


@deal_inline
def forced_kind(st, seat):
    """The kind of ``seat``'s pending forced decision (FORCE_NONE: its policy decides)."""
    if st.sc[S_FORCED] == 0:
        return FORCE_NONE
    c = forced_slot(st, seat)
    return FORCE_NONE if c < 0 else st.sc[c + 1]


@deal_inline
def take_forced(st, seat):
    """Consume ``seat``'s pending forced decision: its tile."""
    c = forced_slot(st, seat)
    st.sc[c + 1] = FORCE_NONE
    return st.sc[c + 2]


@deal_inline
def clear(st):
    """No decision is forced any more."""
    st.sc[S_FORCED] = 0
