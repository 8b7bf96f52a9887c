"""A seat's decision on a hand-built table: :class:`Situation` fills a
:class:`~simcore.engine.state.DealState` in the docs/rules notation and asks the decision
functions of :mod:`simcore.engine.policies.dispatch` directly, exactly as the engine does (the
policy tests: tests/engine/test_policies.py, test_expert.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import numpy as np

from simcore.engine.policies import dispatch as pol
from simcore.engine.policies.greedy_options import MEM_MODE, MEM_TARGET
from simcore.engine.policies.plans import MODE_NAMES, enter_plan
from simcore.engine.spec import parse_spec
from simcore.engine.state import (
    P_DISCARDS,
    P_DRAWN_STREAK,
    P_IN_PLAY,
    P_WINS,
    S_AFTER_KONG,
    S_DEALT,
    S_LAST_DRAWN,
    S_N_WINS,
    S_PLAYERS,
    S_POS,
    S_SUITS,
    S_WALL_END,
    WL_NUMBER,
    WL_SEAT,
    WL_TILE,
    WL_UNITS,
    new_state,
)
from simcore.hand.tables import load_tables
from simcore.records import dealt_tiles, wall_size
from simcore.rules import PRESETS
from simcore.tiles import SUITS, format, parse, tile_index, tile_str

T = load_tables()


def _with_expert(pid: int):
    """What the engine passes the decisions: the optional families that seat plays (dispatch)."""
    return pol.families_for([pid])


class Situation:
    """Seat hands (``"123m45p|P5s"``), voids (suit letters), tiles seen on the table
    (discards), the tiles left in the wall, and each seat's public pace (``discards``: how
    many tiles it has discarded, ``streaks``: its latest discards in a row that were the tile
    just drawn), and under blood river the tiles a seat has won on (``wins``, its hand locked:
    each win is a row of the win log worth ``win_units`` a payer). It is seat 0's turn,
    outside a kong."""

    def __init__(self, hands: Mapping[int, str], voids: Mapping[int, str] | None = None,
                 seen: str = "", wall_left: int = 40, rules: str = "classic",
                 discards: Mapping[int, int] | None = None,
                 streaks: Mapping[int, int] | None = None,
                 wins: Mapping[int, str] | None = None, win_units: int = 4) -> None:
        st = new_state()
        self.st = st
        self.R = PRESETS[rules].encode()
        # the table's sizes, as the engine's _setup sets them from the rules (docs/rules 9)
        table = PRESETS[rules]
        st.sc[S_PLAYERS] = table.players
        st.sc[S_SUITS] = table.suits
        st.sc[S_WALL_END] = wall_size(table.suits)
        st.sc[S_DEALT] = dealt_tiles(table.players)
        voids = voids or {}
        total = np.zeros(27, np.int64)
        for s in range(4):
            st.pl[s, P_IN_PLAY] = 1
            st.void[s] = SUITS.index(voids.get(s, "s"))
            counts, melds = parse(hands.get(s, ""), sizes="any")
            st.hand[s] = counts
            total += counts
            for m, meld in enumerate(melds):
                st.meld_kind[s, m] = meld.code
                st.meld_tile[s, m] = meld.tile
                total[meld.tile] += meld.size
                if meld.kind != "C":
                    st.public[meld.tile] += meld.size
            st.n_melds[s] = len(melds)
        seen_counts, _ = parse(seen, sizes="any")
        st.public[:] += seen_counts
        total += seen_counts
        assert total.max() <= 4, "more than four copies of a tile in the situation"
        self.total = total
        st.sc[S_POS] = st.sc[S_WALL_END] - wall_left
        # seat 0's own turn, as the engine sets it outside a kong: no kong replacement just
        # drawn (a fresh state's 0 would be kong id 0), no tile just drawn (0 would be 1m)
        st.sc[S_AFTER_KONG] = -1
        st.sc[S_LAST_DRAWN] = -1
        # what the table shows of each seat's pace: its discard count, and how many of its
        # latest discards in a row were the tile it had just drawn
        for o, n in (discards or {}).items():
            st.pl[o, P_DISCARDS] = n
        for o, n in (streaks or {}).items():
            st.pl[o, P_DRAWN_STREAK] = n
        for o, tiles in (wins or {}).items():
            won, _ = parse(tiles, sizes="any")
            for t in np.flatnonzero(won):
                for _ in range(int(won[t])):
                    row = st.win_log[st.sc[S_N_WINS]]
                    st.pl[o, P_WINS] += 1
                    row[WL_SEAT], row[WL_NUMBER] = o, st.pl[o, P_WINS]
                    row[WL_TILE], row[WL_UNITS] = t, win_units
                    st.sc[S_N_WINS] += 1

    def _prepare(self, spec: str, seat: int, plan: str | None) -> tuple[int, np.ndarray]:
        ps = parse_spec(spec)
        pid, P = ps.policy.pid, np.array(ps.params)
        if plan is None:
            enter_plan(pid, P, self.st, seat, self.st.void[seat], T)
        else:
            mode, _, target = plan.partition(":")
            self.st.memory[seat, MEM_MODE] = MODE_NAMES.index(mode)
            self.st.memory[seat, MEM_TARGET] = SUITS.index(target) if target else -1
        return pid, P

    def plan(self, spec: str, seat: int = 0) -> str:
        """The plan the seat's policy chooses for this hand (``flush:p`` with its suit)."""
        self._prepare(spec, seat, None)
        return self.mode(seat)

    def mode(self, seat: int = 0) -> str:
        mode = MODE_NAMES[self.st.memory[seat, MEM_MODE]]
        return f"{mode}:{SUITS[self.st.memory[seat, MEM_TARGET]]}" if mode == "flush" else mode

    def discard(self, spec: str, seat: int = 0, plan: str | None = None) -> str:
        pid, P = self._prepare(spec, seat, plan)
        return tile_str(pol.decide_discard(pid, P, _with_expert(pid), self.st, seat, self.R, T))

    def claim(self, spec: str, tile: str, seat: int = 0, plan: str | None = None) -> str:
        """The seat's answer to ``tile`` just discarded: as in the engine, the tile is on the
        table (public) while the seat decides."""
        pid, P = self._prepare(spec, seat, plan)
        t = tile_index(tile)
        can_kong = bool(self.st.hand[seat, t] == 3)
        with self._on_table(tile):
            choice = pol.decide_claim(pid, P, _with_expert(pid), self.st, seat, t, can_kong,
                                      self.R, T)
        return ("pass", "pung", "kong")[int(choice)]

    @contextmanager
    def _on_table(self, tile: str | None) -> Iterator[None]:
        """``tile`` just discarded (public) while a seat decides, as in the engine (None:
        nothing on the table)."""
        if tile is None:
            yield
            return
        t = tile_index(tile)
        assert self.total[t] < 4, f"no {tile} left to discard in the situation"
        self.st.public[t] += 1
        try:
            yield
        finally:
            self.st.public[t] -= 1

    def kong(self, spec: str, seat: int = 0, plan: str | None = None,
             drawn: str | None = None) -> str | None:
        """The tile the seat kongs on its own turn (``drawn``: the tile it just drew)."""
        pid, P = self._prepare(spec, seat, plan)
        last_drawn = -1 if drawn is None else tile_index(drawn)
        self.st.sc[S_LAST_DRAWN] = last_drawn
        t = pol.decide_kong(pid, P, _with_expert(pid), self.st, seat, last_drawn, self.R, T)
        return None if t < 0 else tile_str(t)

    def void(self, spec: str, seat: int = 0) -> str:
        pid, P = parse_spec(spec).policy.pid, np.array(parse_spec(spec).params)
        return SUITS[int(pol.decide_void(pid, P, _with_expert(pid), self.st, seat, self.R, T))]

    def exchange(self, spec: str, seat: int = 0) -> str:
        ps = parse_spec(spec)
        out = np.zeros(3, np.int64)
        pol.decide_exchange(ps.policy.pid, np.array(ps.params), _with_expert(ps.policy.pid),
                            self.st, seat, self.R, T, out)
        return format(np.bincount(out, minlength=27).astype(np.int8))

    def takes_win(self, spec: str, fan: int, wall_left: int, self_drawn: bool = False,
                  tile: str | None = None, claimable: bool = False) -> bool:
        """Whether seat 0 takes a win worth ``fan`` (on ``tile``, if named: a discard is on
        the table while the seat decides, as in :meth:`claim`; ``claimable``: a discard it
        could pung or kong instead)."""
        ps = parse_spec(spec)
        pid, P = ps.policy.pid, np.array(ps.params)
        t = 0 if tile is None else tile_index(tile)
        if self_drawn:
            return bool(pol.decide_self_win(pid, P, _with_expert(pid), self.st, 0, t, fan,
                                            wall_left, self.R))
        with self._on_table(tile):
            return bool(pol.decide_discard_win(pid, P, _with_expert(pid), self.st, 0, t, fan,
                                               wall_left, claimable, self.R, T))

