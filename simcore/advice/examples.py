"""Random consistent positions with their true hidden state, for tests and benchmarks.

:func:`random_position` lays out a physical table (every tile placed: hands, melds, discards,
wins, the wall) and returns the position one seat sees with the truth it cannot see. It is not a
game: the discards and melds are placed, not played, but every count the rules constrain holds
(tile totals, hand sizes, draws per seat, voids under ``void_first``, claimed and won-on
discards, a winner's winning hand, the passed three in the receiver's hand).

>>> p, truth = random_position(3, "classic", wall=6, melds=(0, 4, 4, 4))
>>> p.wall, [p.hidden_size(k) for k in (1, 2, 3)], truth.wall.size
(6, [1, 1, 1], 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from simcore.advice.position import Decision, Discard, Exchange, Position, SeatView, Win
from simcore.records import dealt_tiles, first_tile_type, wall_size
from simcore.rules import Rules, resolve_rules
from simcore.tiles import Meld, tile_index


class Truth(NamedTuple):
    """The hidden state of a :func:`random_position`: ``hands`` int8[players, 27] (the
    concealed tiles of every seat, the deciding seat's too) and ``wall`` (tile types in draw
    order)."""

    hands: np.ndarray
    wall: np.ndarray


def random_position(seed: int, rules: str | Rules = "classic", *, wall: int = 20,
                    melds: Sequence[int] | None = None, winners: Sequence[int] = (),
                    win_kind: str = "discard", decision: str = "turn",
                    void_holders: Sequence[int] = (), own: str | None = None,
                    own_void: int | None = None, react_to: str | None = None,
                    own_win: str | None = None, exchange_to: int | None = None,
                    win_shape: str = "standard") -> tuple[Position, Truth]:
    """A random consistent position of seat 0 and its truth.

    ``melds[k]``: the number of melds of seat ``k`` (default random 0..2); ``winners``: other
    seats that have won once (blood battle or blood river), ``win_kind`` ``"discard"`` or
    ``"self_draw"``; ``decision``: ``"turn"`` (seat 0 has drawn) or ``"on-discard"`` (the last
    discard of seat ``players - 1``); ``void_holders``: other seats that still hold tiles of
    their void suit (their discards are then all of that suit); ``own``: seat 0's concealed
    tiles in notation (the drawn tile last at a turn) and ``own_void`` its void; ``react_to``:
    the tile seat ``players - 1`` just discarded (``decision="on-discard"``); ``own_win``: a
    tile seat 0 has won on from seat 1 (blood river: ``own`` must wait on it); ``win_shape``:
    ``"standard"``, ``"seven_pairs"`` or ``"both"`` (seven pairs that are also standard, like
    112233m 445566m 77m) for the winners without melds. ValueError
    when the tiles do not suffice for the layout (try another seed).
    """
    r = resolve_rules(rules)
    rng = np.random.default_rng(seed)
    players, suits = r.players, r.suits
    first = first_tile_type(suits)
    pool = np.zeros(27, dtype=np.int64)
    pool[first:] = 4
    given = melds is not None
    melds = list(melds) if melds is not None else [int(x) for x in rng.integers(0, 3, players)]
    if own is not None and not given:
        melds[0] = 0
    voids = [int(rng.integers(0, 3)) if suits == 3 else None for _ in range(players)]
    if own_void is not None:
        voids[0] = own_void
    react = tile_index(react_to) if react_to is not None else None
    if react is not None:
        pool[react] -= 1
    won = tile_index(own_win) if own_win is not None else None
    if won is not None:
        pool[won] -= 1
        win_discards_own = [(1, won)]
    else:
        win_discards_own = []
    own_tiles: list[int] = []
    if own is not None:
        own_tiles = [tile_index(own[i:i + 2]) for i in range(0, len(own), 2)]
        for t in own_tiles:
            pool[t] -= 1

    def ok(t: int, k: int) -> bool:
        return t >= first and (voids[k] is None or t // 9 != voids[k])

    def take(t: int, n: int = 1) -> None:
        if pool[t] < n:
            raise ValueError("not enough tiles for this layout")
        pool[t] -= n

    def draw_from(k: int | None, n: int, void_too: bool = False) -> list[int]:
        out = []
        for _ in range(n):
            cand = [t for t in range(27) if pool[t] > 0 and (
                k is None or (ok(t, k) if not void_too else t >= first))]
            if not cand:
                raise ValueError("not enough tiles for this layout")
            w = pool[cand].astype(float)
            t = int(rng.choice(cand, p=w / w.sum()))
            take(t)
            out.append(t)
        return out

    # melds (a concealed kong sometimes, an exposed kong sometimes)
    seat_melds: list[list[Meld]] = [[] for _ in range(players)]
    for k in range(players):
        for _ in range(melds[k]):
            cand = [t for t in range(27) if ok(t, k) and pool[t] >= 3]
            if not cand:
                raise ValueError("not enough tiles for this layout")
            t = int(rng.choice(cand))
            kind = "P" if pool[t] < 4 or rng.random() < 0.7 else str(rng.choice(["K", "C"]))
            take(t, 3 if kind == "P" else 4)
            seat_melds[k].append(Meld(kind, t))
    # winners: a winning hand, its tile aside
    wins: list[list[Win]] = [[] for _ in range(players)]
    hidden = np.zeros((players, 27), dtype=np.int64)
    win_discards: list[tuple[int, int]] = list(win_discards_own)  # (feeder, tile)
    if won is not None:
        wins[0].append(Win(won, "discard", 1, wall + 2))
    for k in winners:
        if win_shape != "standard" and not seat_melds[k]:
            hand = _pairs_hand(rng, pool, lambda t, k=k: ok(t, k), win_shape == "both")
        else:
            hand = _winning_hand(rng, pool, lambda t, k=k: ok(t, k), 4 - len(seat_melds[k]))
        tiles = [t for t in range(27) for _ in range(hand[t])]
        wt = int(rng.choice(tiles))
        hand[wt] -= 1
        hidden[k] = hand
        feeder = None
        if win_kind == "discard":
            feeder = int(rng.choice([s for s in range(players) if s != k and (
                s not in void_holders or wt // 9 == voids[s])]))
            win_discards.append((feeder, wt))
        wins[k].append(Win(wt, win_kind, feeder, wall + int(rng.integers(1, 4))))
    # hidden hands (the deciding seat's too) and the wall
    for k in range(players):
        if k in winners:
            continue
        size = 13 - 3 * len(seat_melds[k]) + (1 if k == 0 and decision == "turn" else 0)
        n_void = 0
        if k == 0 and own_tiles:
            for t in own_tiles:
                hidden[0, t] += 1
            continue
        vk = voids[k]
        if k in void_holders and vk is not None:
            n_void = 1
            cand = [t for t in range(9 * vk, 9 * vk + 9) if pool[t] > 0]
            t = int(rng.choice(cand))
            take(t)
            hidden[k, t] += 1
        for t in draw_from(k, size - n_void):
            hidden[k, t] += 1
    wall_tiles = draw_from(None, wall, void_too=True)
    # the rest are discards; each claimed meld takes one of its tiles as a claimed discard
    rest = [t for t in range(27) for _ in range(pool[t])]
    rng.shuffle(rest)
    disc: list[list[Discard]] = [[] for _ in range(players)]
    for f, t in win_discards:
        disc[f].append(Discard(t, won=True))
    for k in range(players):
        for m in seat_melds[k]:
            if m.kind in "PK":
                f = int(rng.choice([s for s in range(players) if s != k and (
                    s not in void_holders or m.tile // 9 == voids[s])]))
                disc[f].append(Discard(m.tile, claimed=True))
    # enough discards per seat for its draws to cover its exposed melds (and the dealer's 14th)
    dealer = int(rng.integers(0, players))
    for t in rest:
        need = [len(disc[k]) - sum(m.kind in "PK" for m in seat_melds[k]) - (k == dealer)
                for k in range(players)]
        k = int(np.argmin(need)) if min(need) < 1 else int(rng.integers(0, players))
        if k in void_holders and voids[k] is not None and t // 9 != voids[k]:
            k = int(np.argmin([x if s not in void_holders else 99 for s, x in enumerate(need)]))
        disc[k].append(Discard(t))
    for k in range(players):
        rng.shuffle(disc[k])  # type: ignore[arg-type]
        v = voids[k]
        if r.void_first and v is not None:  # void-suit discards first
            disc[k].sort(key=lambda x, v=v: x.tile // 9 != v)  # type: ignore[misc]
    if decision == "on-discard" and react is not None:
        v = voids[players - 1]
        disc[players - 1].append(Discard(react, drawn=v is not None and react // 9 == v))
    elif decision == "on-discard":
        k = players - 1
        plain = [i for i, x in enumerate(disc[k]) if not (x.claimed or x.won)]
        v = voids[k]
        # the last discard must be an unclaimed one and keep the void order
        pick = [i for i in plain if v is None or disc[k][i].tile // 9 != v] or plain
        if not pick:
            raise ValueError("no discard to react to")
        x = disc[k].pop(pick[-1])
        disc[k].append(x)
    drawn = None
    mine = hidden[0].copy()
    if decision == "turn":
        drawn = own_tiles[-1] if own_tiles else int(rng.choice([t for t in range(27) if mine[t]]))
        mine[drawn] -= 1
    seats = tuple(SeatView(voids[k], tuple(seat_melds[k]), tuple(disc[k]), tuple(wins[k]))
                  for k in range(players))
    exchange = None
    if r.exchange_three:
        to = exchange_to if exchange_to is not None else int(rng.choice(range(1, players)))
        exchange = _exchange(rng, hidden[to], disc[to], to, mine)
    dec = Decision("turn") if decision == "turn" else Decision(
        "on-discard", disc[players - 1][-1].tile, players - 1)
    total = wall_size(suits) - dealt_tiles(players)
    assert 0 <= wall <= total
    p = Position(rules=r, seat=0, dealer=dealer, wall=wall,
                 hand=tuple(int(x) for x in mine), seats=seats, decision=dec, drawn=drawn,
                 exchange=exchange)
    hidden[0] = p.concealed
    return p, Truth(hidden.astype(np.int8), np.array(wall_tiles, dtype=np.int8))


def _winning_hand(rng: np.random.Generator, pool: np.ndarray, ok, sets: int) -> np.ndarray:
    """A standard winning shape (``sets`` melds and a pair) taken from ``pool``."""
    for _ in range(200):
        trial = pool.copy()
        hand = np.zeros(27, dtype=np.int64)
        cand = [t for t in range(27) if ok(t) and trial[t] >= 2]
        if not cand:
            break
        t = int(rng.choice(cand))
        trial[t] -= 2
        hand[t] += 2
        good = True
        for _ in range(sets):
            opts = [(t, t, t) for t in range(27) if ok(t) and trial[t] >= 3]
            opts += [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6
                     and all(ok(x) and trial[x] >= 1 for x in (t, t + 1, t + 2))]
            if not opts:
                good = False
                break
            g = opts[int(rng.integers(len(opts)))]
            for x in g:
                trial[x] -= 1
                hand[x] += 1
        if good:
            pool[:] = trial
            return hand
    raise ValueError("no winning hand fits the tiles left")


def _pairs_hand(rng: np.random.Generator, pool: np.ndarray, ok, standard_too: bool
                ) -> np.ndarray:
    """Seven pairs taken from ``pool``; with ``standard_too``, two double runs and a pair."""
    hand = np.zeros(27, dtype=np.int64)
    if standard_too:
        starts = [t for t in range(27) if t % 9 <= 6 and all(ok(x) and pool[x] >= 2
                                                               for x in (t, t + 1, t + 2))]
        for _ in range(2):
            starts = [t for t in starts if all(pool[x] - hand[x] >= 2 for x in (t, t + 1, t + 2))]
            if not starts:
                raise ValueError("no winning hand fits the tiles left")
            t = int(rng.choice(starts))
            hand[t: t + 3] += 2
        left = [t for t in range(27) if ok(t) and pool[t] - hand[t] >= 2]
    else:
        left = [t for t in range(27) if ok(t) and pool[t] >= 2]
    need = 7 - int(hand.sum()) // 2
    if len(left) < need:
        raise ValueError("no winning hand fits the tiles left")
    for t in rng.choice(left, need, replace=False):
        hand[int(t)] += 2
    pool -= hand
    return hand


def _exchange(rng: np.random.Generator, hidden: np.ndarray, disc: list[Discard], to: int,
              own: np.ndarray) -> Exchange:
    """Three tiles of one suit the receiver holds (first) or has thrown, and three received."""
    shown = np.zeros(27, dtype=np.int64)
    for x in disc:
        if not (x.claimed or x.won):
            shown[x.tile] += 1
    passed: tuple[int, ...] = ()
    # a suit with most tiles still in the receiver's hand first, then its discards
    for s in sorted(rng.permutation(3), key=lambda s: -int(hidden[9 * s: 9 * s + 9].sum())):
        held = [t for t in range(9 * s, 9 * s + 9) for _ in range(int(hidden[t]))]
        thrown = [t for t in range(9 * s, 9 * s + 9) for _ in range(int(shown[t]))]
        if len(held) + len(thrown) >= 3:
            rng.shuffle(held)
            rng.shuffle(thrown)
            passed = tuple(sorted(int(t) for t in (held + thrown)[:3]))
            break
    else:
        raise ValueError("the receiver holds no three tiles of one suit")
    for s in rng.permutation(3):
        mine = [t for t in range(9 * s, 9 * s + 9) for _ in range(int(own[t]))]
        if len(mine) >= 3:
            return Exchange(passed, to, tuple(sorted(int(t) for t in mine[:3])))
    return Exchange(passed, to, passed)
