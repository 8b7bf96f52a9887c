"""A rollout's seat lanes: common random numbers that survive a change in the order of turns.

The advisor plays every action of a position on the same hidden wall (rollout.py). Drawn from
the front, that wall stays shared only while the turns do: one action's pung, or a win that takes
a seat out of play, shifts every later draw to another seat, and from there the actions' deals
are as unrelated as two deals on different walls (issue 28 measured a paired spread of the nets
only 15-20% below that of independent deals). With lanes, the wall laid at the decision is dealt
out in advance: the seat that draws next owns slots 0, s, 2s, ... of it (``s`` the seats in
play), the one after it slots 1, s + 1, ..., and each draw brings the drawer's next slot to the
front of the wall. A seat's k-th draw is then the same tile under every action as long as its
lane lasts; a seat whose lane is used up (or was not in play at the decision) draws the front
tile as it is.

Why it is exact: the hidden wall is uniformly shuffled given everything the deal has shown, and
which undrawn position a draw takes depends only on what has happened, never on the tiles not
yet drawn; so each draw is still uniform among the tiles left, and a deal's distribution is the
same as with draws from the front (tests/engine/test_lanes.py checks it too).
"""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline
from simcore.engine.state import (
    LANE_POS_OF,
    LANE_SLOT_AT,
    P_IN_PLAY,
    S_CUR,
    S_LANE_BASE,
    S_LANE_DRAWS,
    S_LANE_RANK,
    S_LANE_STRIDE,
    S_LANES,
    S_POS,
    S_WALL_END,
)


@deal_inline
def open_lanes(st, players, first):
    """Deal the wall from its next draw on into the lanes of the seats in play, ``first``
    (the seat expected to draw next) owning slot 0."""
    base = st.sc[S_POS]
    for k in range(base, st.sc[S_WALL_END]):
        st.lanes[LANE_SLOT_AT, k] = k
        st.lanes[LANE_POS_OF, k] = k
    rank = 0
    for i in range(players):
        s = (first + i) % players
        st.sc[S_LANE_DRAWS + s] = 0
        if st.pl[s, P_IN_PLAY] != 0:
            st.sc[S_LANE_RANK + s] = rank
            rank += 1
        else:
            st.sc[S_LANE_RANK + s] = -1
    for s in range(players, 4):
        st.sc[S_LANE_RANK + s] = -1
    st.sc[S_LANE_BASE] = base
    st.sc[S_LANE_STRIDE] = max(rank, 1)
    st.sc[S_LANES] = 1


@deal_inline
def next_in_lane(st, seat):
    """Bring ``seat``'s next lane tile to the front of the wall (``S_POS``), if it has one."""
    rank = st.sc[S_LANE_RANK + seat]
    if rank < 0:
        return
    front = st.sc[S_POS]
    while True:
        slot = st.sc[S_LANE_BASE] + rank + st.sc[S_LANE_STRIDE] * st.sc[S_LANE_DRAWS + seat]
        if slot >= st.sc[S_WALL_END]:
            return  # the lane is used up: the front tile as it is
        st.sc[S_LANE_DRAWS + seat] += 1
        at = st.lanes[LANE_POS_OF, slot]
        if at >= front:  # not drawn yet (another seat's draw past its lane may have taken it)
            break
    if at != front:
        moved = st.lanes[LANE_SLOT_AT, front]
        tile = st.wall[front]
        st.wall[front] = st.wall[at]
        st.wall[at] = tile
        st.lanes[LANE_SLOT_AT, front] = slot
        st.lanes[LANE_SLOT_AT, at] = moved
        st.lanes[LANE_POS_OF, slot] = front
        st.lanes[LANE_POS_OF, moved] = at


@deal_inline
def lanes_first_drawer(st, players):
    """The seat expected to draw next at the decision: the one after the current seat."""
    cur = st.sc[S_CUR]
    for k in range(1, players + 1):
        s = (cur + k) % players
        if st.pl[s, P_IN_PLAY] != 0:
            return s
    return cur
