"""A position loaded into the engine: the base state at the decision point, the hidden states
laid out for the rollout kernel, and each legal action as the decisions it forces.

The base state holds what the deciding seat can see (:func:`base_state`); the kernel lays each
hidden state into a copy of it (:mod:`simcore.engine.rollout`). A decision on another seat's
discard (or added kong) starts *just before* that discard (kong): the discarder (kong maker)
holds the tile again and is forced to throw (add) it, so the claims on it are played by the
engine exactly as in a deal, the deciding seat's included.

What a position does not say is filled in as the engine would most plausibly hold it (each a
small effect, documented in docs/guide/advice.md):

- money already settled is not in the state: a rollout's ``net`` is the money of the rest of
  the deal (refunds of kong money at a drawn end included);
- each kong's payments (for refunds and transfers) are rebuilt from the table as it is now: an
  exposed kong is taken as direct when a discard of its tile was claimed, its payers are the
  seats in play now;
- the policies' memory (a plan) is chosen afresh from the hand each seat holds
  (:func:`simcore.engine.rollout.ready_seats`); the signals policies read off the table (the
  tiles each seat let go since its hand last changed) are taken from each seat's latest
  discards;
- the seat's latest kong is the one a ``turn after-kong`` draw replaces (melds are listed in
  the order they were made).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.advice.position import Action, Position
from simcore.advice.sampler import HiddenSamples
from simcore.engine.policies import forced
from simcore.engine.rollout import FORCE_FIELDS, FORCE_STEPS
from simcore.engine.state import (
    P_DISCARDS,
    P_DRAWN_STREAK,
    P_DRAWS,
    P_FED_BY,
    P_IN_PLAY,
    P_KONGS_CONCEALED,
    P_KONGS_DIRECT,
    P_PASS_FAN,
    P_PASS_TILE,
    P_PASSED_BITS,
    P_PATTERN,
    P_PUNGS,
    P_WIN_DRAW,
    P_WIN_KIND,
    P_WIN_ORDER,
    P_WIN_TILE,
    P_WINS,
    S_AFTER_KONG,
    S_CUR,
    S_DEALER,
    S_DEALER_DISCARDS,
    S_DEALT,
    S_FIRST_TURN,
    S_FIRST_WIN_DONE,
    S_INTERRUPTED,
    S_KONG_FROM,
    S_LAST_DRAWN,
    S_N_KONG_PAY,
    S_N_KONGS,
    S_N_WINNERS,
    S_N_WINS,
    S_NEXT_DEALER,
    S_PHASE,
    S_PLAYERS,
    S_POS,
    S_RIVER,
    S_SUITS,
    S_WALL_END,
    WL_DRAW,
    WL_FED_BY,
    WL_KIND,
    WL_NUMBER,
    WL_ORDER,
    WL_SEAT,
    WL_TILE,
    DealState,
    new_state,
)
from simcore.engine.turns import PHASE_DISCARD, PHASE_OWN_TURN
from simcore.records import (
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_PUNG,
    SUIT_M,
    WALL_SIZE,
    WIN_DISCARD,
    WIN_KONG_FLOWER,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAW,
    dealt_tiles,
    wall_size,
)

WIN_KIND_CODES = {"self_draw": WIN_SELF_DRAW, "discard": WIN_DISCARD,
                  "robbed_kong": WIN_ROBBED_KONG, "kong_flower": WIN_KONG_FLOWER}
TURN_FORCES = {"discard": forced.FORCE_DISCARD, "win": forced.FORCE_SELF_WIN,
               "kong": forced.FORCE_KONG}
CLAIM_FORCES = {"win": forced.FORCE_WIN, "pung": forced.FORCE_PUNG,
                "kong": forced.FORCE_CLAIM_KONG, "pass": forced.FORCE_PASS}


class Loaded(NamedTuple):
    """A position ready for the rollout kernel: the base state, the seat that acts before the
    deciding one (the discarder or kong maker of an ``on-*`` decision, else -1) and the tile it
    holds again."""

    base: DealState
    actor: int
    tile: int


# --------------------------------------------------------------------------------------------
# the base state


def base_state(p: Position) -> Loaded:
    """The engine state at ``p``'s decision point, every hidden tile left out (laid in per
    hidden state by the kernel)."""
    st = new_state()
    players, suits = p.players, p.rules.suits
    wall_end = wall_size(suits)
    sc = st.sc
    sc[S_PLAYERS], sc[S_SUITS], sc[S_WALL_END] = players, suits, wall_end
    sc[S_DEALT] = dealt_tiles(players)
    sc[S_RIVER] = int(p.rules.blood_river)
    sc[S_POS] = wall_end - p.wall
    sc[S_DEALER] = sc[S_NEXT_DEALER] = p.dealer
    st.meld_from[:] = -1
    st.pl[:, P_PASS_TILE] = st.pl[:, P_PASS_FAN] = -1
    st.pl[:, P_WIN_DRAW] = st.pl[:, P_FED_BY] = st.pl[:, P_WIN_TILE] = -1
    st.pl[:, P_PATTERN] = -1
    d = p.decision
    actor = -1 if d.kind == "turn" else int(d.by)  # type: ignore[arg-type]
    for k in range(players):
        _load_seat(st, p, k, actor)
    _load_wins(st, p)
    latest_kong = _load_kongs(st, p)
    st.public[:] = _public(p, actor)
    sc[S_INTERRUPTED] = int(any(s.melds or s.wins for s in p.seats))
    dealer_discards = len(p.seats[p.dealer].discards)
    sc[S_DEALER_DISCARDS] = dealer_discards - (actor == p.dealer)
    sc[S_KONG_FROM] = -1
    sc[S_AFTER_KONG] = -1
    if d.kind == "turn":
        sc[S_CUR] = p.seat
        sc[S_LAST_DRAWN] = -1 if p.drawn is None else p.drawn
        opening = p.drawn is None and not p.me.melds
        sc[S_FIRST_TURN] = int(opening)
        sc[S_PHASE] = PHASE_OWN_TURN if p.drawn is not None or opening else PHASE_DISCARD
        if d.after_kong:  # the drawn tile replaces the seat's latest kong
            sc[S_AFTER_KONG], sc[S_KONG_FROM] = latest_kong[p.seat]
        return Loaded(st, -1, -1)
    tile = int(d.tile)  # type: ignore[arg-type]
    sc[S_CUR] = actor
    if d.kind == "on-discard":
        sc[S_PHASE] = PHASE_DISCARD
        sc[S_LAST_DRAWN] = tile if p.seats[actor].discards[-1].drawn else -1
        if d.after_kong:
            sc[S_AFTER_KONG] = latest_kong[actor][0]
    else:
        sc[S_PHASE] = PHASE_OWN_TURN
        sc[S_LAST_DRAWN] = tile
    return Loaded(st, actor, tile)


def _load_seat(st: DealState, p: Position, k: int, actor: int) -> None:
    view = p.seats[k]
    pl = st.pl[k]
    st.void[k] = SUIT_M if view.void is None else view.void
    for m, meld in enumerate(view.melds):
        st.meld_kind[k, m] = meld.code
        st.meld_tile[k, m] = meld.tile
        if meld.code != MELD_CONCEALED_KONG:
            st.meld_from[k, m] = _claimed_from(p, k, meld.tile)
    st.n_melds[k] = len(view.melds)
    pl[P_IN_PLAY] = int(p.in_play(k))
    discards = view.discards[:-1] if k == actor and p.decision.kind == "on-discard" \
        else view.discards
    pl[P_DISCARDS] = len(discards)
    streak = 0
    for x in reversed(discards):
        if not x.drawn:
            break
        streak += 1
    pl[P_DRAWN_STREAK] = streak
    # the tiles the seat let go since its hand last changed: its streak of drawn-and-thrown
    # tiles and the others' latest discards (the order of discards between seats is not kept)
    bits = 0
    for x in discards[len(discards) - streak:]:
        bits |= 1 << x.tile
    for j, other in enumerate(p.seats):
        if j != k and other.discards:
            bits |= 1 << other.discards[-1].tile
    pl[P_PASSED_BITS] = bits
    kinds = [m.code for m in view.melds]
    pl[P_PUNGS] = kinds.count(MELD_PUNG)
    pl[P_KONGS_DIRECT] = kinds.count(MELD_KONG)
    pl[P_KONGS_CONCEALED] = kinds.count(MELD_CONCEALED_KONG)
    on_turn = p.decision.kind == "turn" and k == p.seat and p.drawn is not None
    draws = len(discards) + on_turn - (k == p.dealer and len(discards) > 0) \
        - pl[P_PUNGS] + pl[P_KONGS_CONCEALED]
    pl[P_DRAWS] = max(draws, 0)
    if k == p.seat and p.declined:
        pl[P_PASS_TILE] = sum({1 << d.tile for d in p.declined})
        pl[P_PASS_FAN] = max(d.fan for d in p.declined)


def _claimed_from(p: Position, k: int, tile: int) -> int:
    """The seat whose discard of ``tile`` seat ``k`` claimed (-1: none found)."""
    for j, other in enumerate(p.seats):
        if j != k and any(x.tile == tile and x.claimed for x in other.discards):
            return j
    return -1


def _load_wins(st: DealState, p: Position) -> None:
    """The wins so far, in the order they happened (the wall then, the seat order on one
    discard): win order, the win log, who has left play. Their money is not in the state."""
    wins = sorted(((w.wall, (k - (w.fed_by if w.fed_by is not None else k)) % 4, k, w)
                   for k, view in enumerate(p.seats) for w in view.wins),
                  key=lambda x: (-x[0], x[1]))
    drawn_total = st.sc[S_WALL_END] - st.sc[S_DEALT]
    number = [0] * 4
    order = 0
    previous: tuple[int, int | None, int, str] | None = None
    players_before = 0
    for row, (_wall, _rank, k, w) in enumerate(wins):
        key = (w.wall, w.fed_by, w.tile, w.kind)
        shared = previous == key and w.kind in ("discard", "robbed_kong")
        if not shared:
            order = row + 1
        previous = key
        number[k] += 1
        log = st.win_log[row]
        log[WL_SEAT], log[WL_NUMBER], log[WL_ORDER] = k, number[k], order
        log[WL_DRAW] = drawn_total - w.wall
        log[WL_KIND] = WIN_KIND_CODES[w.kind]
        log[WL_FED_BY] = -1 if w.fed_by is None else w.fed_by
        log[WL_TILE] = w.tile
        pl = st.pl[k]
        if number[k] == 1:
            if not shared:
                players_before = sum(1 for n in number if n > 0) - 1
            pl[P_WIN_ORDER] = players_before + 1
            pl[P_WIN_DRAW] = drawn_total - w.wall
            pl[P_WIN_KIND] = WIN_KIND_CODES[w.kind]
            pl[P_FED_BY] = log[WL_FED_BY]
            pl[P_WIN_TILE] = w.tile
            pl[P_PATTERN] = 0  # the winner's hand is hidden: some pattern (records need one)
        pl[P_WINS] = number[k]
    st.sc[S_N_WINS] = len(wins)
    st.sc[S_N_WINNERS] = sum(1 for n in number if n > 0)
    if wins:
        st.sc[S_FIRST_WIN_DONE] = 1
        first = [x for x in wins if x[0] == wins[0][0] and x[3].tile == wins[0][3].tile]
        st.sc[S_NEXT_DEALER] = first[0][2] if len(first) == 1 or first[0][3].fed_by is None \
            else first[0][3].fed_by


def _load_kongs(st: DealState, p: Position) -> dict[int, tuple[int, int]]:
    """Each kong's payments as the table now suggests (for refunds and transfers). Returns
    each seat's latest kong (melds are listed in the order they were made): its id and the
    discarder of its tile when it is taken as direct, else -1."""
    latest: dict[int, tuple[int, int]] = {}
    n_kongs = 0
    n_pay = 0
    drizzle = bool(p.rules.drizzle)
    for k, view in enumerate(p.seats):
        for m in view.melds:
            if m.code == MELD_PUNG:
                continue
            payers = [j for j in range(p.players) if j != k and st.pl[j, P_IN_PLAY]]
            source = _claimed_from(p, k, m.tile) if m.code == MELD_KONG else -1
            if m.code == MELD_CONCEALED_KONG:
                entries = [(j, 2) for j in payers]
            elif source >= 0:
                entries = [(source, 2)] + ([(j, 1) for j in payers] if drizzle else [])
            else:
                entries = [(j, 1) for j in payers]
            for j, units in entries:
                st.kong_pay[n_pay] = (j, k, units, n_kongs)
                n_pay += 1
            latest[k] = (n_kongs, source)
            n_kongs += 1
    st.sc[S_N_KONGS] = n_kongs
    st.sc[S_N_KONG_PAY] = n_pay
    return latest


def _public(p: Position, actor: int) -> np.ndarray:
    """Tiles in the engine's ``public``: all the seat sees but its own concealed tiles and
    the concealed kongs; the tile the actor throws (adds) again is back in its hand."""
    public = p.visible_counts() - p.concealed.astype(np.int64)
    for view in p.seats:
        for m in view.melds:
            if m.code == MELD_CONCEALED_KONG:
                public[m.tile] -= 4
    if actor >= 0:
        public[p.decision.tile] -= 1
    return public.astype(np.int8)


# --------------------------------------------------------------------------------------------
# hidden states and actions for the kernel


def hidden_arrays(p: Position, loaded: Loaded, samples: HiddenSamples
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``int8[n, 4, 27]`` every seat's concealed tiles (the actor's tile back in its hand) and
    ``int8[n, WALL_SIZE]`` walls (the samples' walls from the next draw on)."""
    n = len(samples.hands)
    hidden = np.zeros((n, 4, 27), np.int8)
    hidden[:, : p.players] = samples.hands
    if loaded.actor >= 0:
        hidden[:, loaded.actor, loaded.tile] += 1
    walls = np.zeros((n, WALL_SIZE), np.int8)
    pos = int(loaded.base.sc[S_POS])
    walls[:, pos: pos + samples.wall.shape[1]] = samples.wall
    return hidden, walls


def force_rows(p: Position, loaded: Loaded, actions: list[Action]) -> np.ndarray:
    """``int64[len(actions), FORCE_FIELDS]``: the decisions each action forces."""
    rows = np.full((len(actions), FORCE_FIELDS), -1, np.int64)
    turn = p.decision.kind == "turn"
    own_turn = loaded.base.sc[S_PHASE] == PHASE_OWN_TURN
    for i, a in enumerate(actions):
        row = rows[i]
        # the phases the forced decisions last, exactly: a discard on the seat's own turn is
        # the phase after it (the turn asks about a win and a kong first)
        row[FORCE_STEPS] = 2 if turn and a.kind == "discard" and own_turn else 1
        kind = (TURN_FORCES if turn else CLAIM_FORCES)[a.kind]
        row[1:4] = (p.seat, kind, -1 if a.tile is None else a.tile)
        if not turn:
            actor_kind = forced.FORCE_DISCARD if p.decision.kind == "on-discard" \
                else forced.FORCE_KONG
            row[4:7] = (loaded.actor, actor_kind, loaded.tile)
    return rows
