"""A rollout's seat lanes (simcore/engine/lanes.py): the kernel against a plain-Python twin on
random walls and orders of turns, the alignment they exist for, and the exactness they rely on
(a draw is uniform among the tiles left whatever the order of turns)."""

from __future__ import annotations

import collections
import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from simcore.engine.lanes import next_in_lane, open_lanes
from simcore.engine.state import P_IN_PLAY, S_CUR, S_POS, S_WALL_END, new_state

BASE = 60  # the decision's next draw (wall position)


def reference_draws(wall: list[int], base: int, in_play: list[bool], first: int,
                    drawers: list[int]) -> list[int]:
    """What each draw takes, written plainly: seat s owns the slots base + rank(s) + stride * k
    (ranks counted from ``first`` over the seats in play); a draw takes the drawer's first slot
    not yet taken, or, past its lane (or without one), the first tile not yet taken in the
    order of the wall as the earlier draws have rearranged it."""
    players = len(in_play)
    order = [(first + i) % players for i in range(players)]
    ranks = {s: r for r, s in enumerate(s for s in order if in_play[s])}
    stride = max(len(ranks), 1)
    front = list(range(base, len(wall)))  # the slots not yet taken, in wall order
    taken_by_lane = {s: 0 for s in range(players)}
    out = []
    for seat in drawers:
        slot = None
        if seat in ranks:
            while True:
                candidate = base + ranks[seat] + stride * taken_by_lane[seat]
                if candidate >= len(wall):
                    break
                taken_by_lane[seat] += 1
                if candidate in front:
                    slot = candidate
                    break
        if slot is None:
            slot = front[0]
        else:  # the tile comes to the front; the front tile takes its place
            i = front.index(slot)
            front[0], front[i] = front[i], front[0]
        front.pop(0)
        out.append(wall[slot])
    return out


def kernel_draws(wall: list[int], base: int, in_play: list[bool], first: int,
                 drawers: list[int]) -> tuple[list[int], np.ndarray]:
    s = new_state()
    s.wall[: len(wall)] = wall
    s.sc[S_POS] = base
    s.sc[S_WALL_END] = len(wall)
    for seat, playing in enumerate(in_play):
        s.pl[seat, P_IN_PLAY] = 1 if playing else 0
    open_lanes(s, len(in_play), first)
    out = []
    for seat in drawers:
        next_in_lane(s, seat)
        out.append(int(s.wall[s.sc[S_POS]]))
        s.sc[S_POS] += 1
    return out, s.wall[base: len(wall)].copy()


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 4), st.lists(st.booleans(), min_size=4, max_size=4),
       st.integers(0, 3), st.integers(0, 2**32 - 1), st.integers(0, 48))
def test_the_kernel_draws_what_the_plain_rule_says(players, in_play, first, seed, n_draws):
    rng = np.random.default_rng(seed)
    wall = [int(t) for t in rng.integers(0, 27, BASE + 48)]
    first %= players
    drawers = [int(x) for x in rng.integers(0, players, n_draws)]
    got, rest = kernel_draws(wall, BASE, in_play[:players], first, drawers)
    assert got == reference_draws(wall, BASE, in_play[:players], first, drawers)
    # the wall is only rearranged: what is drawn and what is left are the tiles laid
    assert sorted(got + [int(t) for t in rest[n_draws:]]) == sorted(wall[BASE:])


def test_without_claims_the_wall_is_drawn_in_order():
    wall = list(range(BASE)) + [t % 27 for t in range(48)]
    order = [(2 + k) % 4 for k in range(48)]
    got, _ = kernel_draws(wall, BASE, [True] * 4, 2, order)
    assert got == wall[BASE:]


def test_a_seat_keeps_its_draws_when_the_order_of_turns_changes():
    # seat 1 pungs under one action and so skips seat 0's... every seat's k-th draw is the same
    wall = list(range(BASE)) + [t % 27 for t in range(48)]
    plain = [0, 1, 2, 3] * 6
    punged = [0, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 2, 3, 0, 1, 2, 3, 0, 1, 2]  # skips and repeats
    by_seat = collections.defaultdict(list)
    for seat, tile in zip(plain, kernel_draws(wall, BASE, [True] * 4, 0, plain)[0],
                          strict=True):
        by_seat[seat].append(tile)
    for seat, tile in zip(punged, kernel_draws(wall, BASE, [True] * 4, 0, punged)[0],
                          strict=True):
        assert tile == by_seat[seat].pop(0)


def test_a_draw_is_uniform_among_the_tiles_left_whatever_the_turns():
    # five distinct tiles, shuffled; who draws next depends on the tiles drawn so far (an even
    # tile: the same seat again, as after a claim; an odd one: the next seat), seat 2 is out of
    # play. Every order of the five tiles must be equally likely (chi-square, 120 cells).
    rng = np.random.default_rng(7)
    tiles = [0, 1, 2, 3, 4]
    counts: collections.Counter = collections.Counter()
    n = 12_000
    for _ in range(n):
        wall = [0] * BASE + list(rng.permutation(tiles))
        s = new_state()
        s.wall[: len(wall)] = wall
        s.sc[S_POS], s.sc[S_WALL_END], s.sc[S_CUR] = BASE, len(wall), 3
        for seat in range(4):
            s.pl[seat, P_IN_PLAY] = 0 if seat == 2 else 1
        open_lanes(s, 4, 0)
        seat, drawn = 0, []
        for _k in range(5):
            next_in_lane(s, seat)
            t = int(s.wall[s.sc[S_POS]])
            s.sc[S_POS] += 1
            drawn.append(t)
            seat = seat if t % 2 == 0 else (seat + 1) % 4
        counts[tuple(drawn)] += 1
    observed = [counts[p] for p in itertools.permutations(tiles)]
    assert sum(observed) == n
    assert stats.chisquare(observed).pvalue > 1e-3
