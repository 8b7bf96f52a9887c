"""The wall as the turn loop sees it: tiles drawn so far, tiles left, the last four."""

from __future__ import annotations

from simcore.engine.compile.jit import deal_inline
from simcore.engine.state import (
    S_DEALT,
    S_POS,
    S_WALL_END,
)

LAST_FOUR = 4  # the last four tiles of the wall must be won on (must_win_last_four)


@deal_inline
def draws_so_far(st):
    return st.sc[S_POS] - st.sc[S_DEALT]


@deal_inline
def wall_left(st):
    return st.sc[S_WALL_END] - st.sc[S_POS]


@deal_inline
def wall_empty(st):
    return st.sc[S_POS] >= st.sc[S_WALL_END]


@deal_inline
def must_win(st, R):
    """Must-win-last-four (docs/rules 3): once the fourth-last tile has been drawn (three or fewer
    left), every win on a draw, a discard or a robbed kong is forced."""
    return R.must_win_last_four != 0 and wall_left(st) < LAST_FOUR

