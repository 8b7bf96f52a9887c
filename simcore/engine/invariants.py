"""Invariants every deal must satisfy, checked inside the kernel (debug) and on records.

In the kernel (:func:`check_deal`, after each deal when ``debug``): every tile type of the set is
accounted for four times (wall rest + hands + concealed kongs + public tiles; with two suits no
``m`` tile anywhere: 72 tiles, else 108), counts stay in 0..4, payments are zero-sum, at most
``players - 1`` winners (blood river: all players, who stay in play), no winner holds a
void-suit tile, no pig won (and no pig at all with two suits), a three-player table's fourth
seat holds nothing and never pays, no state log overflowed, and the win log agrees with the
state: its rows per seat are the seat's wins, numbered 1, 2, ..., and its payments are the
players' net_win parts.
On records (:func:`check_records`): zero-sum per deal, the net parts sum to ``net``, at most
``players - 1`` winners, the ``winners`` column agrees with the win orders, a pig never won.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine.state import (
    P_IN_PLAY,
    P_PIG,
    P_WIN_ORDER,
    P_WINS,
    PAY_WIN,
    S_N_WINNERS,
    S_N_WINS,
    S_PLAYERS,
    S_POS,
    S_RIVER,
    S_STATE_OVERFLOW,
    S_SUITS,
    S_WALL_END,
    WL_NUMBER,
    WL_PAID,
    WL_SEAT,
)
from simcore.records import MELD_CONCEALED_KONG, NET_PARTS

OK = 0
ERR_TILES = 1
ERR_COUNTS = 2
ERR_ZERO_SUM = 3
ERR_WINNERS = 4
ERR_WINNER_VOID = 5
ERR_PIG_WON = 6
ERR_PIG_TWO_SUITS = 7
ERR_ABSENT_SEAT = 8
ERR_OVERFLOW = 9
ERR_WIN_LOG = 10
ERROR_TEXT = {
    ERR_TILES: "tiles not accounted for (a type of the set is not present exactly four times, "
               "or a type outside it is present)",
    ERR_COUNTS: "a tile count outside 0..4 in a hand",
    ERR_ZERO_SUM: "payments do not sum to zero",
    ERR_WINNERS: "more than players - 1 winners",
    ERR_WINNER_VOID: "a winner holds a void-suit tile",
    ERR_PIG_WON: "a flower pig is also a winner",
    ERR_PIG_TWO_SUITS: "a flower pig with two suits",
    ERR_ABSENT_SEAT: "the fourth seat of a three-player table holds tiles, played or paid",
    ERR_OVERFLOW: "the kong-payment or win log of the deal state overflowed",
    ERR_WIN_LOG: "the win log disagrees with the players' wins or net_win",
}


@njit
def check_deal(st):
    """0 if the finished deal in ``st`` satisfies every invariant, else an ``ERR_*`` code."""
    code = _tile_error(st)
    if code == OK:
        code = _table_error(st)
    river = st.sc[S_RIVER] != 0
    for s in range(4):
        if code == OK:
            code = _seat_win_error(st, s, river)
    return code


# The parts of check_deal, inlined into it (one compile: it is a root of the engine's compile).
_part = njit(inline="always")


@_part
def _tile_error(st):
    """Every tile type 4 times (0 for the absent suit) in the wall, hands, kongs and public."""
    total = st.visible  # work space: compiled into the engine, this code may not allocate
    for t in range(27):
        total[t] = 0
    first_type = 0 if st.sc[S_SUITS] == 3 else 9
    for k in range(st.sc[S_POS], st.sc[S_WALL_END]):
        total[st.wall[k]] += 1
    for s in range(4):
        for t in range(27):
            c = st.hand[s, t]
            if c < 0 or c > 4:
                return ERR_COUNTS
            total[t] += c
        for m in range(st.n_melds[s]):
            if st.meld_kind[s, m] == MELD_CONCEALED_KONG:
                total[st.meld_tile[s, m]] += 4
    for t in range(27):
        if total[t] + st.public[t] != (4 if t >= first_type else 0):
            return ERR_TILES
    return OK


@_part
def _table_error(st):
    """Zero-sum payments, no full log, the number of winners, the absent seat, no pig with two
    suits."""
    net = 0
    for s in range(4):
        for k in range(5):
            net += st.pay[s, k]
    if net != 0:
        return ERR_ZERO_SUM
    if st.sc[S_STATE_OVERFLOW] != 0:
        return ERR_OVERFLOW
    players = st.sc[S_PLAYERS]
    if st.sc[S_N_WINNERS] > (players if st.sc[S_RIVER] != 0 else players - 1):
        return ERR_WINNERS
    for s in range(players, 4):
        held = st.n_melds[s] + st.pl[s, P_IN_PLAY] + st.pl[s, P_WIN_ORDER]
        for t in range(27):
            held += st.hand[s, t]
        for k in range(5):
            held += st.pay[s, k] != 0
        if held != 0:
            return ERR_ABSENT_SEAT
    if st.sc[S_SUITS] != 3:
        for s in range(4):
            if st.pl[s, P_PIG] != 0:
                return ERR_PIG_TWO_SUITS
    return OK


@_part
def _seat_win_error(st, s, river):
    """Seat ``s``'s rows of the win log are numbered 1..wins and their payments make its
    net_win; a winner is out of play (not under blood river), no pig, without void tiles."""
    number = 0
    received = 0
    for w in range(st.sc[S_N_WINS]):
        row = st.win_log[w]
        if row[WL_SEAT] == s:
            number += 1
            if row[WL_NUMBER] != number:
                return ERR_WIN_LOG
            for q in range(4):
                received += row[WL_PAID + q]
        received -= row[WL_PAID + s]
    if number != st.pl[s, P_WINS] or received != st.pay[s, PAY_WIN]:
        return ERR_WIN_LOG
    if (number > 0) != (st.pl[s, P_WIN_ORDER] > 0) or (number > 1 and not river):
        return ERR_WIN_LOG
    if st.pl[s, P_WIN_ORDER] > 0:
        if (st.pl[s, P_IN_PLAY] != 0) != river:  # blood river: winners stay in play
            return ERR_WINNERS
        if st.pl[s, P_PIG] != 0:
            return ERR_PIG_WON
        v = st.void[s]
        for r in range(9):
            if st.hand[s, 9 * v + r] > 0:
                return ERR_WINNER_VOID
        for m in range(st.n_melds[s]):
            if st.meld_tile[s, m] // 9 == v:
                return ERR_WINNER_VOID
    return OK


def check_records(records: np.ndarray, players: int = 4, suits: int = 3,
                  blood_river: bool = False) -> None:
    """Raise AssertionError naming the first deal that breaks a record invariant (``players``
    rows per deal; with ``suits = 2`` also: no void suit, no pig; under ``blood_river`` every
    player may win, any number of times)."""
    if len(records) % players:
        raise AssertionError(f"{len(records)} rows is not {players} rows per deal")
    deals = records["deal"].reshape(-1, players)
    if (deals != deals[:, :1]).any():
        raise AssertionError("the rows of a deal do not share its deal number")
    if (records["seat"].reshape(-1, players) != np.arange(players)).any():
        raise AssertionError(f"the rows of a deal are not seats 0..{players - 1}")
    net = records["net"].reshape(-1, players).astype(np.int64)
    parts = np.add.reduce([records[p].astype(np.int64) for p in NET_PARTS])

    def first_bad(bad: np.ndarray | np.bool_, what: str) -> None:
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise AssertionError(f"deal {int(deals[i, 0])}: {what}")

    first_bad(net.sum(axis=1) != 0, "payments do not sum to zero")
    first_bad((parts != records["net"]).reshape(-1, players).any(axis=1),
              "net parts do not sum to net")
    order = records["win_order"].reshape(-1, players)
    won = (order > 0).sum(axis=1)
    if blood_river:
        first_bad(won > players, f"more than {players} winners")
    else:
        first_bad(won > players - 1, f"more than {players - 1} winners")
        first_bad((records["wins"] > 1).reshape(-1, players).any(axis=1),
                  "a player won twice outside blood river")
    first_bad(((records["wins"] > 0) != (records["win_order"] > 0)).reshape(-1, players)
              .any(axis=1), "the wins column disagrees with win_order")
    first_bad(won != records["winners"].reshape(-1, players)[:, 0], "winners column disagrees")
    first_bad(np.logical_and(records["pig"], records["win_order"] > 0).reshape(-1, players)
              .any(axis=1),
              "a flower pig is also a winner")
    first_bad(((records["win_order"] > 0) != (records["pattern"] >= 0))
              .reshape(-1, players).any(1),
              "a winner without a pattern (or a pattern without a win)")
    if suits == 2:
        first_bad(records["pig"].reshape(-1, players).any(axis=1), "a flower pig with two suits")
        first_bad((records["void_suit"] != -1).reshape(-1, players).any(axis=1),
                  "a void suit with two suits")
