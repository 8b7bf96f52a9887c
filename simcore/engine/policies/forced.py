"""Decisions forced on a seat: the first action of a rollout (issue 28), played whatever the
seat's policy would choose, after which the policy plays on.

A pseudo-family, not in the registry: a rollout seats :data:`POLICY_FORCED` for the phases of
the decision (:mod:`simcore.engine.rollout`) and the seat's own policy again after them. At
most two decisions are forced (``st.sc[S_FORCED]`` slots of ``seat, kind, tile`` from
``S_FORCE_SLOTS``): the deciding seat's action, and for a decision on another seat's discard
or added kong, that seat's discard or kong (the position starts just before it, so that the
claims on it are played by the engine). :mod:`.dispatch` sends the forced seat's decisions
here like any family's: a deal that forces nothing pays one comparison of policy ids, as for
a family, and the doors of the engine are untouched.
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline
from simcore.engine.policies.common import CLAIM_KONG, CLAIM_PASS, CLAIM_PUNG
from simcore.engine.state import S_FORCE_SLOTS, S_FORCE_WIDTH, S_FORCED

POLICY_FORCED = 1000  # no registered policy has this id

# The forced actions (a slot's kind; 0: consumed)
FORCE_NONE = 0
FORCE_DISCARD = 1  # its turn: no self-drawn win, no kong, discard ``tile``
FORCE_SELF_WIN = 2  # its turn: the self-drawn win
FORCE_KONG = 3  # its turn: no self-drawn win, the concealed or added kong of ``tile``
FORCE_WIN = 4  # on a discard or a robbed kong: the win
FORCE_PUNG = 5  # on a discard: no win, the pung
FORCE_CLAIM_KONG = 6  # on a discard: no win, the direct kong
FORCE_PASS = 7  # on a discard or a kong: neither win nor claim


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


# ----------------------------------------------------------------------------- the decisions
# (the seat's forced action carried out; any other question of its turn declined)
@deal_inline
def choose_discard(st, seat):
    return take_forced(st, seat)


@deal_inline
def take_win(st, seat, kind):
    """Whether the seat's forced action is the win ``kind`` (FORCE_SELF_WIN on its turn,
    FORCE_WIN on a discard or a kong); any other forced action declines it."""
    if forced_kind(st, seat) == kind:
        take_forced(st, seat)
        return True
    return False


@deal_inline
def choose_claim(st, seat):
    kind = forced_kind(st, seat)
    take_forced(st, seat)
    if kind == FORCE_PUNG:
        return CLAIM_PUNG
    return CLAIM_KONG if kind == FORCE_CLAIM_KONG else CLAIM_PASS


@deal_inline
def choose_kong(st, seat):
    if forced_kind(st, seat) == FORCE_KONG:
        return take_forced(st, seat)
    return -1
