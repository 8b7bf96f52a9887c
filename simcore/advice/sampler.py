"""Hidden states drawn exactly: the opponents' concealed tiles and the wall order.

The seat sees some tiles; the others (the *unseen* tiles, ``u[t]`` copies of type ``t``) lie in
the other seats' concealed hands (sizes known: 13 - 3 per meld) and in the wall. Every physical
arrangement of the unseen tiles consistent with what the seat sees is equally likely, so a
*type assignment* (``x[j, t]`` copies of ``t`` in seat ``j``'s hand, the rest in the wall) has
probability proportional to ``prod_t u[t]! / (prod_j x[j, t]! * wall[t]!)`` (the product of
binomial counts of copies: which physical copies go where), and the wall order is then a
uniform shuffle. The constraints (:func:`hidden_constraints`):

- sizes: each other seat holds ``13 - 3 * melds`` concealed tiles, the wall ``position.wall``;
- voids: under ``void_first`` a seat that has discarded a tile outside its void suit holds no
  tile of that suit: it held none then, and a void tile drawn since was thrown at once (a
  discard marked ``d``); a seat that has made a concealed or added kong, or whose added kong
  was robbed, may have kept a void tile drawn before it, so for it only a latest discard
  outside the suit tells
  (:func:`simcore.advice.position.holds_no_void`). One case is not modelled: the maker of an
  added kong being robbed (an ``on-kong`` decision) may hold a void tile drawn this turn; it
  is treated like the others;
- the exchange: the receiver of the three tiles the seat passed still holds each of them that
  it has not shown since (``passed[t]`` minus its discards, meld tiles from its hand, robbed and
  added-kong tiles of ``t``);
- winners: a blood-battle winner's hidden tiles with its winning tile form a winning hand (its
  melds, its void); a blood-river winner's locked hand wins on every tile it has won on.

Two exact methods, sharing nothing but the constraints (and the tile set's shapes):

- :func:`enumerate_hidden` lists every consistent assignment with its probability as a
  :class:`fractions.Fraction` (plain recursion; small positions only);
- :class:`HiddenSampler` draws samples: each winner's candidate hidden hands are enumerated
  (winning hands built from melds and a pair, or seven pairs, within the unseen tiles); for a
  choice of the winners' hands ``H`` the number of arrangements of what is left ``r`` among
  the other seats and the wall, ``W(r) = sum prod_t r[t]! / (prod_j x[j, t]! wall[t]!)``, is
  counted exactly, and a winners' choice is drawn with probability proportional to
  ``prod_t u[t]! / (prod_w H_w[t]! r[t]!) * W(r)``. The rest is then drawn from exact
  conditional counts, by one of two methods that count the same ``W``:

  - ``"types"``: a dynamic programme over the tile types whose state is the seats' remaining
    capacities (voids and the passed-three lower bounds are limits on each step); the
    assignment is drawn type by type from its conditional counts;
  - ``"suits"`` (when no non-winner has a lower bound): voids are per suit, so ``W`` depends on
    ``r`` only through its suit totals ``R``; each seat's suit totals ``n[j, s]`` are drawn
    seat by seat from a programme over the remaining suit totals (weight
    ``prod_s R_s! / (prod_j n[j, s]! wall_s!)``, Vandermonde's identity summed over the types),
    then each suit's physical tiles are shuffled uniformly and dealt in those numbers.

  ``"auto"`` (the default) takes ``"suits"`` when it applies, else ``"types"``.

  A single winner with a single winning tile (``winners="auto"`` under ``"suits"``) is not
  listed hand by hand (an early winner has up to ~10^5 hands): its complete hand is standard
  iff one suit's part is sets and a pair and the others' are sets, and seven pairs iff every
  part is even, so its weight factors over the suits given their sizes
  (:class:`_FactoredWinner`): a size-and-shape combination, then each suit's part, is drawn
  exactly; a hand both standard and seven pairs, proposed twice, is kept with probability 1/2.
  Two such winners are drawn the same way jointly (:class:`_FactoredPair`: within a suit the
  pairs of parts that fit the unseen tiles together are listed). Three winners, or a
  blood-river winner that has won on different tiles, are listed
  (``winners="enumerate"``; at most ``max_candidates`` joint hands). The wall order
  is a uniform shuffle of the wall's tiles. Every step draws from an exact conditional
  distribution, so the samples are exactly uniform (up to float64 rounding of the counts);
  the tests check both methods against :func:`enumerate_hidden` by chi-square.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from simcore.advice.position import HiddenConstraints, Position, hidden_constraints
from simcore.hand import reference as ref

N_TYPES = 27


class SamplerLimitError(ValueError):
    """The position's hidden states are too many to enumerate within the sampler's limits (a
    winner whose hand is hidden, with few melds, early in a deal): not a wrong position."""


class HiddenSamples(NamedTuple):
    """``hands`` int8[n, players, 27]: every seat's concealed tiles (the deciding seat's own,
    its drawn tile included, in every row); ``wall`` int8[n, wall]: the wall in draw order."""

    hands: np.ndarray
    wall: np.ndarray




def _constraints(source: Position | HiddenConstraints) -> HiddenConstraints:
    return source if isinstance(source, HiddenConstraints) else hidden_constraints(source)


def _wins_ok(c: HiddenConstraints, j: int, hand: Sequence[int]) -> bool:
    for t in c.wins[j]:
        if hand[t] >= 4:
            return False
        h = list(hand)
        h[t] += 1
        if not ref.is_complete(h, c.melds[j], c.voids[j]):
            return False
    return True


# --------------------------------------------------------------------------------------------
# (a) the plain exact enumerator


def enumerate_hidden(source: Position | HiddenConstraints, limit: int = 200_000
                     ) -> list[tuple[tuple[tuple[int, ...], ...], Fraction]]:
    """Every consistent type assignment of the hidden hands with its exact probability.

    Each item is ``(hands, probability)``: ``hands[j]`` the 27 counts of seat
    ``constraints.seats[j]`` (the wall holds the rest). Plain recursion over the tile types;
    ValueError when more than ``limit`` assignments exist or none does.
    """
    c = _constraints(source)
    m = len(c.seats)
    u = [int(x) for x in c.unseen]
    out: list[tuple[tuple[tuple[int, ...], ...], int]] = []
    hands = [[0] * N_TYPES for _ in range(m)]

    def rec(t: int, caps: list[int], wall_left: int, weight: int) -> None:
        if t == N_TYPES:
            if any(caps) or wall_left:
                return
            if all(_wins_ok(c, j, hands[j]) for j in range(m) if c.wins[j]):
                if len(out) >= limit:
                    raise SamplerLimitError(f"more than {limit} hidden assignments; too many "
                                            "to list")
                out.append((tuple(tuple(h) for h in hands), weight))
            return
        n = u[t]
        for split in _splits(n, m):
            rest = n - sum(split)
            if rest > wall_left:
                continue
            if any(split[j] > caps[j] or (split[j] and not c.allowed[j, t])
                   or split[j] < c.lower[j, t] for j in range(m)):
                continue
            for j in range(m):
                hands[j][t] = split[j]
            w = math.factorial(n) // math.prod(math.factorial(x) for x in (*split, rest))
            rec(t + 1, [caps[j] - split[j] for j in range(m)], wall_left - rest, weight * w)
        for j in range(m):
            hands[j][t] = 0

    rec(0, list(c.sizes), c.wall, 1)
    total = sum(w for _, w in out)
    if not total:
        raise ValueError("no hidden state is consistent with the position")
    return [(h, Fraction(w, total)) for h, w in out]


def _splits(n: int, m: int) -> list[tuple[int, ...]]:
    """Every ``(x_0, ..., x_{m-1})`` with ``x_j >= 0`` and sum at most ``n``."""
    return [s for s in itertools.product(range(n + 1), repeat=m) if sum(s) <= n]


# --------------------------------------------------------------------------------------------
# (b) the exact sampler


def _winning_candidates(c: HiddenConstraints, j: int, avail: np.ndarray,
                        limit: int = 2_000_000, exact: bool = False) -> list[tuple[int, ...]]:
    """Every hidden hand of winner ``j`` (``c.sizes[j]`` tiles within ``avail``, allowed and
    lower bounds respected) that wins on each of ``c.wins[j]``.

    The hands are built as a pair and sets (or seven pairs) holding the first winning tile, so
    on that tile only the two-suit limit with the melds is left to check; the other winning
    tiles (a seat that won more than once) go through the reference check. ``exact``: every
    candidate through the reference check (the tests' oracle of the shortcut)."""
    size = c.sizes[j]
    void = c.voids[j]
    n_sets = 4 - len(c.melds[j])
    w0 = c.wins[j][0]
    ok_type = [bool(c.allowed[j, t]) and t // 9 != void for t in range(N_TYPES)]
    cap = [int(avail[t]) if ok_type[t] else 0 for t in range(N_TYPES)]
    cap[w0] += 1  # the complete hand holds the winning tile on top of the hidden ones
    groups: list[tuple[int, ...]] = []  # pungs and runs as the types they use
    for t in range(N_TYPES):
        if ok_type[t]:
            groups.append((t, t, t))
            if t % 9 <= 6 and ok_type[t + 1] and ok_type[t + 2]:
                groups.append((t, t + 1, t + 2))
    found: set[tuple[int, ...]] = set()
    counts = [0] * N_TYPES

    def add_sets(start: int, left: int) -> None:
        if left == 0:
            if counts[w0] >= 1:
                found.add(tuple(counts))
                if len(found) > limit:
                    raise SamplerLimitError(f"more than {limit} candidate hands for a winner")
            return
        for g in range(start, len(groups)):
            grp = groups[g]
            for t in grp:
                counts[t] += 1
            if all(counts[t] <= cap[t] for t in grp):
                add_sets(g, left - 1)
            for t in grp:
                counts[t] -= 1

    for pair in range(N_TYPES):
        if ok_type[pair] and cap[pair] >= 2:
            counts[pair] += 2
            add_sets(0, n_sets)
            counts[pair] -= 2
    if n_sets == 4:  # seven pairs: seven pair types, a type at most twice
        types = [t for t in range(N_TYPES) if ok_type[t] and cap[t] >= 2]
        for combo in itertools.combinations_with_replacement(types, 7):
            cnt = [0] * N_TYPES
            for t in combo:
                cnt[t] += 2
            if all(cnt[t] <= cap[t] for t in combo) and cnt[w0] >= 1:
                found.add(tuple(cnt))
    out = []
    meld_suits = {t // 9 for _, t in c.melds[j]}
    for full in found:
        hidden = list(full)
        hidden[w0] -= 1
        if sum(hidden) != size:
            continue
        if any(hidden[t] < c.lower[j, t] for t in range(N_TYPES)):
            continue
        if exact or len(c.wins[j]) > 1:
            if _wins_ok(c, j, hidden):
                out.append(tuple(hidden))
        elif hidden[w0] < 4 and len(meld_suits | {t // 9 for t in range(N_TYPES)
                                                  if full[t]}) <= 2:
            out.append(tuple(hidden))
    return sorted(out)


class _RestProgramme:
    """The exact count of arrangements of ``r`` unseen tiles into the non-winners' hands
    (capacities ``caps``, ``allowed``, ``lower``) and the wall, by tile type; and draws."""

    def __init__(self, r: np.ndarray, caps: Sequence[int], allowed: np.ndarray,
                 lower: np.ndarray) -> None:
        self.m = m = len(caps)
        self.caps = tuple(int(x) for x in caps)
        dims = [h + 1 for h in self.caps]
        self.S = S = int(np.prod(dims)) if m else 1
        strides = np.ones(m, dtype=np.int64)
        for j in range(m - 2, -1, -1):
            strides[j] = strides[j + 1] * dims[j + 1]
        comps = np.array(list(itertools.product(*[range(d) for d in dims])),
                         dtype=np.int64).reshape(S, m)
        self.start = int(np.dot(self.caps, strides)) if m else 0
        self.steps: list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]] = []
        for t in range(N_TYPES):
            n = int(r[t])
            if n == 0 and not (lower[:, t] > 0).any():
                continue
            xs, ws = [], []
            for split in _splits(n, m):
                if any((split[j] and not allowed[j, t]) or split[j] < lower[j, t]
                       for j in range(m)):
                    continue
                xs.append(split)
                rest = n - sum(split)
                ws.append(math.factorial(n) / math.prod(math.factorial(x)
                                                        for x in (*split, rest)))
            X = np.array(xs, dtype=np.int64).reshape(len(xs), m)
            W = np.array(ws, dtype=np.float64)
            # target state of each (option, state); S is a sentinel of count 0
            if len(xs):
                after = comps[None, :, :] - X[:, None, :]
                tgt = np.where((after >= 0).all(axis=2), after @ strides, S)
            else:
                tgt = np.zeros((0, S), dtype=np.int64)
            self.steps.append((t, n, X, W, np.concatenate(
                [tgt, np.full((len(xs), 1), S, dtype=np.int64)], axis=1)))
        # backward: N[i][s] = arrangements of the types of steps i.. into capacities s
        end = np.zeros(S + 1)
        end[0] = 1.0
        self.N = [end]
        for _, _, _, W, tgt in reversed(self.steps):
            nxt = self.N[0]
            cur = (W[:, None] * nxt[tgt]).sum(axis=0) if len(W) else np.zeros(S + 1)
            cur[S] = 0.0
            self.N.insert(0, cur)

    @property
    def total(self) -> float:
        return float(self.N[0][self.start])

    def sample(self, n: int, rng: np.random.Generator, r: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """``(hands int8[n, m, 27], wall counts int8[n, 27])``."""
        hands = np.zeros((n, self.m, N_TYPES), dtype=np.int8)
        wall = np.zeros((n, N_TYPES), dtype=np.int8)
        wall[:] = r.astype(np.int8)
        state = np.full(n, self.start, dtype=np.int64)
        for i, (t, _, X, W, tgt) in enumerate(self.steps):
            nxt = self.N[i + 1]
            probs = W[:, None] * nxt[tgt[:, state]]  # (options, n)
            cum = np.cumsum(probs, axis=0)
            u = rng.random(n) * cum[-1]
            o = np.minimum((cum <= u[None, :]).sum(axis=0), len(W) - 1)
            x = X[o]  # (n, m)
            hands[:, :, t] = x
            wall[:, t] -= x.sum(axis=1).astype(np.int8)
            state = tgt[o, state]
        return hands, wall


class _SuitProgramme:
    """The same count as :class:`_RestProgramme` when no non-winner has a lower bound: voids
    are per suit, so the count depends on the unseen tiles only through their suit totals
    ``R``, and the non-winners' suit totals ``n[j, s]`` are drawn first, seat by seat, with
    weight ``prod_s R_s! / (prod_j n[j, s]! * wall_s!)``; the tiles of each suit are then a
    uniform shuffle of its physical tiles dealt in those numbers (:meth:`deal`)."""

    def __init__(self, bounds: Sequence[int], caps: Sequence[int], allowed: np.ndarray,
                 total: int | None = None) -> None:
        # one programme counts every suit-total vector R' <= bounds with sum(R') = total
        self.R = tuple(int(x) for x in bounds)
        self.m = m = len(caps)
        self.sum = sum(self.R) if total is None else int(total)
        # before seat j the tiles left number T_j = total - caps[0] - ... - caps[j-1], so a
        # state is (R0', R1') with R2' = T_j - R0' - R1' (a state out of range counts 0)
        self.d1 = d1 = self.R[1] + 1
        grid = np.indices((self.R[0] + 1, d1)).reshape(2, -1).T
        inv_fact = np.array([1.0 / math.factorial(k) for k in range(max(self.R) + 1)])
        left = [self.sum - sum(caps[:j]) for j in range(m + 1)]

        def third(j: int) -> np.ndarray:
            return left[j] - grid[:, 0] - grid[:, 1]

        c = third(m)
        ok = (c >= 0) & (c <= self.R[2])
        end = np.where(ok, inv_fact[grid[:, 0]] * inv_fact[grid[:, 1]]
                       * inv_fact[np.clip(c, 0, self.R[2])], 0.0)  # the rest go to the wall
        self.V = [end]
        self.options: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        size = len(grid)
        for j in reversed(range(m)):
            h = int(caps[j])
            opts = [(a, b, h - a - b) for a in range(h + 1) for b in range(h + 1 - a)]
            opts = [o for o in opts if all(o[x] == 0 or allowed[j, x] for x in range(3))
                    and all(o[x] <= self.R[x] for x in range(3))]
            X = np.array(opts, dtype=np.int64).reshape(-1, 3)
            W = inv_fact[X].prod(axis=1) if len(X) else np.zeros(0)
            a = grid[None, :, 0] - X[:, 0:1]
            b = grid[None, :, 1] - X[:, 1:2]
            tgt = np.where((a >= 0) & (b >= 0), a * d1 + b, size)
            nxt = np.append(self.V[0], 0.0)
            c = third(j)
            valid = (c >= 0) & (c <= self.R[2])
            cur = (W[:, None] * nxt[tgt]).sum(axis=0) if len(X) else np.zeros(size)
            self.V.insert(0, np.where(valid, cur, 0.0))
            self.options.insert(0, (X, W, tgt))

    def _index(self, left: Sequence[int]) -> int:
        if sum(left) != self.sum or any(x < 0 or x > b for x, b in zip(left, self.R,
                                                                        strict=True)):
            raise ValueError(f"suit totals {tuple(left)} are outside this programme")
        return int(left[0]) * self.d1 + int(left[1])

    def weight(self, left: Sequence[int]) -> float:
        """``W`` for unseen tiles with suit totals ``left``."""
        return float(self.V[0][self._index(left)]) * math.prod(math.factorial(int(x))
                                                                for x in left)

    def weights(self, left: np.ndarray) -> np.ndarray:
        """``W`` for each row of suit totals ``left`` (int[n, 3]); 0 outside the programme."""
        fact = np.array([float(math.factorial(k)) for k in range(max(self.R) + 1)])
        ok = (left.sum(axis=1) == self.sum) & (left >= 0).all(axis=1) & (
            left <= np.array(self.R)).all(axis=1)
        lc = np.clip(left, 0, np.array(self.R))
        return np.where(ok, self.V[0][lc[:, 0] * self.d1 + lc[:, 1]]
                        * fact[lc].prod(axis=1), 0.0)

    @property
    def total(self) -> float:
        return self.weight(self.R)

    def totals(self, n: int, rng: np.random.Generator, left: Sequence[int] | None = None
               ) -> np.ndarray:
        """``int64[n, m, 3]``: each non-winner's tiles of each suit, from suit totals
        ``left`` (default: the bounds)."""
        out = np.zeros((n, self.m, 3), dtype=np.int64)
        state = np.full(n, self._index(self.R if left is None else left), dtype=np.int64)
        for j, (X, W, tgt) in enumerate(self.options):
            nxt = np.append(self.V[j + 1], 0.0)
            probs = W[:, None] * nxt[tgt[:, state]]
            cum = np.cumsum(probs, axis=0)
            u = rng.random(n) * cum[-1]
            o = np.minimum((cum <= u[None, :]).sum(axis=0), len(W) - 1)
            out[:, j] = X[o]
            state = tgt[o, state]
        return out

    def deal(self, r: np.ndarray, totals: np.ndarray, rng: np.random.Generator
             ) -> tuple[np.ndarray, np.ndarray]:
        """Deal each row's unseen tiles ``r`` (int[n, 27], the same suit totals in every row) by
        the suit totals:
        ``(hands int8[n, m, 27], wall counts int8[n, 27])``."""
        n, m = r.shape[0], self.m
        flat = np.zeros(n * (m + 1) * N_TYPES, dtype=np.int64)
        rows = np.arange(n)[:, None]
        for suit in range(3):
            size = int(r[0, 9 * suit: 9 * suit + 9].sum()) if n else 0
            if size == 0:
                continue
            cum = np.cumsum(r[:, 9 * suit: 9 * suit + 9], axis=1)
            k = np.arange(size)
            tiles = 9 * suit + (cum[:, None, :] <= k[None, :, None]).sum(axis=2)  # (n, size)
            order = np.argsort(rng.random((n, size)), axis=1)
            tiles = np.take_along_axis(tiles, order, axis=1)
            bounds = np.cumsum(totals[:, :, suit], axis=1)  # (n, m)
            bins = (k[None, :, None] >= bounds[:, None, :]).sum(axis=2)  # 0..m (m: the wall)
            idx = ((rows * (m + 1) + bins) * N_TYPES + tiles).ravel()
            flat += np.bincount(idx, minlength=flat.size)
        counts = flat.reshape(n, m + 1, N_TYPES).astype(np.int8)
        return counts[:, :m], counts[:, m]


@functools.cache
def _suit_shapes() -> dict[str, frozenset[tuple[int, ...]]]:
    """The count vectors of one suit (9 ranks, at most 4 copies, at most 14 tiles) that are
    ``"sets"`` (pungs and runs only, 0 to 4 of them), ``"pair"`` (sets and one pair) or
    ``"even"`` (every count even: seven pairs' part of the suit)."""
    groups = [tuple(3 if i == r else 0 for i in range(9)) for r in range(9)]
    groups += [tuple(1 if r <= i <= r + 2 else 0 for i in range(9)) for r in range(7)]
    sets: set[tuple[int, ...]] = {(0,) * 9}
    frontier = set(sets)
    for _ in range(4):
        nxt = set()
        for v in frontier:
            for g in groups:
                w = tuple(a + b for a, b in zip(v, g, strict=True))
                if max(w) <= 4 and w not in sets:
                    nxt.add(w)
        sets |= nxt
        frontier = nxt
    pair = set()
    for v in sets:
        if sum(v) <= 12:
            for r in range(9):
                if v[r] <= 2:
                    pair.add(v[:r] + (v[r] + 2,) + v[r + 1:])
    even = {v for v in itertools.product((0, 2, 4), repeat=9) if sum(v) <= 14}
    return {"sets": frozenset(sets), "pair": frozenset(pair), "even": frozenset(even)}


@functools.cache
def _suit_shape_arrays() -> dict[str, np.ndarray]:
    """:func:`_suit_shapes` as sorted ``int64[k, 9]`` arrays."""
    return {k: np.array(sorted(v), dtype=np.int64).reshape(-1, 9)
            for k, v in _suit_shapes().items()}


class _FactoredWinner:
    """One winner with one winning tile ``w``, drawn exactly without listing its hands.

    Its complete hand ``C = H + w`` is standard iff one suit's part is sets and a pair and the
    others' are sets (the sizes say which: 2 or 0 mod 3), and seven pairs iff every part is
    even; so the weight of ``H``, ``prod_t C(u[t], H[t]) * W(R - |H| by suit)``, factors over
    the suits given the suit sizes. A suit-size and shape combination is drawn, then each suit's
    part; a hand both standard and seven pairs is proposed twice as often and kept with
    probability 1/2, so the result is exact. ``W`` by suit totals: the rest is sampled by
    :class:`_SuitProgramme`.
    """

    def __init__(self, c: HiddenConstraints, j: int, w_of: Callable[[np.ndarray], float]
                 ) -> None:
        self.size = c.sizes[j]
        w = c.wins[j][0]
        u = c.unseen
        n_melds = len(c.melds[j])
        comb = np.array([[math.comb(a, b) for b in range(5)] for a in range(5)], dtype=float)
        self.parts: dict[tuple[int, str], dict[int, tuple[np.ndarray, np.ndarray]]] = {}
        for (suit, kind), held in _winner_parts(c, j).items():
            types = np.arange(9 * suit, 9 * suit + 9)
            weight = comb[u[types][None, :], np.clip(held, 0, 4)].prod(axis=1)
            sizes = held.sum(axis=1)
            self.parts[suit, kind] = {int(k): (held[sizes == k], weight[sizes == k])
                                      for k in np.unique(sizes)}
        self.w = w
        R = [int(u[9 * s: 9 * s + 9].sum()) for s in range(3)]
        combos, weights = [], []
        modes = [tuple("pair" if s == p else "sets" for s in range(3)) for p in range(3)]
        if n_melds == 0:
            modes.append(("even", "even", "even"))
        for kinds in modes:
            tables = [self.parts[s, kinds[s]] for s in range(3)]
            for h0 in tables[0]:
                for h1 in tables[1]:
                    h2 = self.size - h0 - h1
                    if h2 not in tables[2]:
                        continue
                    sizes = (h0, h1, h2)
                    left = [R[s] - sizes[s] for s in range(3)]
                    if min(left) < 0:
                        continue
                    f = math.prod(float(tables[s][sizes[s]][1].sum()) for s in range(3))
                    wt = f * w_of(np.array(left))
                    if wt > 0:
                        combos.append((kinds, sizes))
                        weights.append(wt)
        if not combos:
            raise ValueError("no hidden state is consistent with the position")
        self.combos = combos
        p = np.array(weights)
        self.probs = p / p.sum()

    def _both(self, hand: np.ndarray) -> bool:
        """Whether the complete hand (hidden + w) is both standard and seven pairs."""
        return _is_both(hand, self.w)

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``int64[n, 27]`` hidden hands of the winner."""
        out = np.zeros((n, N_TYPES), dtype=np.int64)
        filled = 0
        while filled < n:
            need = n - filled
            pick = rng.choice(len(self.combos), size=need, p=self.probs)
            hands = np.zeros((need, N_TYPES), dtype=np.int64)
            for i in np.unique(pick):
                rows = np.flatnonzero(pick == i)
                kinds, sizes = self.combos[int(i)]
                for s in range(3):
                    parts, weights = self.parts[s, kinds[s]][sizes[s]]
                    k = rng.choice(len(parts), size=len(rows), p=weights / weights.sum())
                    hands[rows, 9 * s: 9 * s + 9] = parts[k]
            keep = np.ones(need, dtype=bool)
            if len(self.combos) and any(kd[0] == "even" for kd, _ in self.combos):
                both = np.array([self._both(h) for h in hands])
                keep &= ~both | (rng.random(need) < 0.5)
            kept = hands[keep]
            out[filled: filled + len(kept)] = kept
            filled += len(kept)
        return out


def _is_both(hand: np.ndarray, w: int) -> bool:
    """Whether ``hand`` (hidden tiles) with ``w`` is both a standard hand and seven pairs."""
    full = hand.copy()
    full[w] += 1
    parts = [tuple(int(x) for x in full[9 * s: 9 * s + 9]) for s in range(3)]
    shapes = _suit_shapes()
    flags = [(pt in shapes["sets"], pt in shapes["pair"], pt in shapes["even"]) for pt in parts]
    if not all(f[2] for f in flags):
        return False
    sizes = [sum(pt) % 3 for pt in parts]
    if sorted(sizes) != [0, 0, 2]:
        return False
    return all(f[1] if sz == 2 else f[0] for f, sz in zip(flags, sizes, strict=True))


def _winner_parts(c: HiddenConstraints, j: int) -> dict[tuple[int, str], np.ndarray]:
    """Winner ``j``'s possible hidden parts of each suit (``int64[k, 9]``) by the shape of the
    complete part (``"sets"``, ``"pair"``, ``"even"``), each alone within the unseen tiles."""
    arrays = _suit_shape_arrays()
    u = c.unseen
    w = c.wins[j][0]
    out = {}
    for suit in range(3):
        types = np.arange(9 * suit, 9 * suit + 9)
        ok = suit != c.voids[j] and bool(c.allowed[j, types].any())
        cap = u[types] + (types == w)
        for kind in ("sets", "pair", "even"):
            full = arrays[kind]
            keep = (full <= cap).all(axis=1)
            if not ok:
                keep &= full.sum(axis=1) == 0
            held = full.copy()
            if w // 9 == suit:
                keep &= full[:, w % 9] >= 1
                held[:, w % 9] -= 1
            keep &= (held >= c.lower[j, types]).all(axis=1)
            keep &= ((held == 0) | c.allowed[j, types]).all(axis=1)
            out[suit, kind] = held[keep]
    return out


def _modes(c: HiddenConstraints, j: int) -> list[tuple[str, str, str]]:
    """The shapes of winner ``j``'s complete hand by suit: a pair in one suit (standard), or
    every suit even (seven pairs, without melds)."""
    modes = [tuple("pair" if s == p else "sets" for s in range(3)) for p in range(3)]
    if not c.melds[j]:
        modes.append(("even", "even", "even"))
    return modes  # type: ignore[return-value]


_LOG_FACT = np.log([1.0, 1.0, 2.0, 6.0, 24.0])
_MAX = 15  # sizes of a hidden part: 0..14


class _FactoredPair:
    """Two winners, one winning tile each, drawn exactly without listing their joint hands.

    The weight ``prod_t u[t]! / (H0[t]! H1[t]! r[t]!) * W(R - |H0| - |H1| by suit)`` factors
    over the suits given each winner's shape by suit and its suit sizes; within a suit the pairs
    of parts that fit the unseen tiles together are listed (a few thousand at most). A shape and
    size combination is drawn, then each suit's pair of parts; a hand both standard and seven
    pairs is proposed twice as often, so each winner's is kept with probability 1/2.
    """

    def __init__(self, c: HiddenConstraints, js: Sequence[int], prog: _SuitProgramme) -> None:
        u = c.unseen
        self.w = [c.wins[j][0] for j in js]
        sizes = [c.sizes[j] for j in js]
        parts = [_winner_parts(c, j) for j in js]
        modes = [_modes(c, j) for j in js]
        self.parts = parts
        self.cells: dict[tuple[int, str, str], dict[tuple[int, int], tuple[np.ndarray,
                                                                               np.ndarray,
                                                                               np.ndarray]]] = {}
        dense: dict[tuple[int, str, str], np.ndarray] = {}
        for s in range(3):
            us = u[9 * s: 9 * s + 9]
            for k0 in {m[s] for m in modes[0]}:
                for k1 in {m[s] for m in modes[1]}:
                    A, B = parts[0][s, k0], parts[1][s, k1]
                    ia_l, ib_l = [], []
                    step = max(1, 2_000_000 // max(1, len(B) * 9))
                    for a in range(0, len(A), step):
                        fits = ((A[a:a + step, None, :] + B[None, :, :]) <= us).all(axis=2)
                        i, k = np.nonzero(fits)
                        ia_l.append(i + a)
                        ib_l.append(k)
                    ia = np.concatenate(ia_l) if ia_l else np.zeros(0, dtype=np.int64)
                    ib = np.concatenate(ib_l) if ib_l else np.zeros(0, dtype=np.int64)
                    a_, b_ = A[ia], B[ib]
                    logw = (_LOG_FACT[us].sum() - _LOG_FACT[a_].sum(axis=1)
                            - _LOG_FACT[b_].sum(axis=1) - _LOG_FACT[us - a_ - b_].sum(axis=1))
                    wts = np.exp(logw)
                    h0, h1 = a_.sum(axis=1), b_.sum(axis=1)
                    table = np.zeros((_MAX, _MAX))
                    np.add.at(table, (h0, h1), wts)
                    dense[s, k0, k1] = table
                    cell = {}
                    key = h0 * _MAX + h1
                    order = np.argsort(key, kind="stable")
                    bounds = np.searchsorted(key[order], np.arange(_MAX * _MAX + 1))
                    for kk in np.flatnonzero(np.diff(bounds)):
                        sel = order[bounds[kk]: bounds[kk + 1]]
                        cell[int(kk) // _MAX, int(kk) % _MAX] = (ia[sel], ib[sel], wts[sel])
                    self.cells[s, k0, k1] = cell
        R = np.array([int(u[9 * s: 9 * s + 9].sum()) for s in range(3)])
        g = np.indices((_MAX,) * 4).reshape(4, -1)
        a0, b0, a1, b1 = g
        a2, b2 = sizes[0] - a0 - a1, sizes[1] - b0 - b1
        ok = (a2 >= 0) & (a2 < _MAX) & (b2 >= 0) & (b2 < _MAX)
        a2c, b2c = np.clip(a2, 0, _MAX - 1), np.clip(b2, 0, _MAX - 1)
        left = R[None, :] - np.stack([a0 + b0, a1 + b1, a2 + b2], axis=1)
        w_rest = prog.weights(left)
        combos, weights = [], []
        for m0 in modes[0]:
            for m1 in modes[1]:
                F = [dense[s, m0[s], m1[s]] for s in range(3)]
                f = F[0][a0, b0] * F[1][a1, b1] * F[2][a2c, b2c] * ok * w_rest
                for ix in np.flatnonzero(f > 0):
                    combos.append((m0, m1, ((int(a0[ix]), int(b0[ix])),
                                            (int(a1[ix]), int(b1[ix])),
                                            (int(a2[ix]), int(b2[ix])))))
                    weights.append(float(f[ix]))
        if not combos:
            raise ValueError("no hidden state is consistent with the position")
        self.combos = combos
        p = np.array(weights)
        self.probs = p / p.sum()
        self.seven = [any(m[0] == "even" for m in ms) for ms in modes]

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``int64[n, 2, 27]`` hidden hands of the two winners."""
        out = np.zeros((n, 2, N_TYPES), dtype=np.int64)
        filled = 0
        while filled < n:
            need = n - filled
            pick = rng.choice(len(self.combos), size=need, p=self.probs)
            hands = np.zeros((need, 2, N_TYPES), dtype=np.int64)
            for i in np.unique(pick):
                rows = np.flatnonzero(pick == i)
                m0, m1, keys = self.combos[int(i)]
                for s in range(3):
                    ia, ib, wts = self.cells[s, m0[s], m1[s]][keys[s]]
                    k = rng.choice(len(wts), size=len(rows), p=wts / wts.sum())
                    hands[rows, 0, 9 * s: 9 * s + 9] = self.parts[0][s, m0[s]][ia[k]]
                    hands[rows, 1, 9 * s: 9 * s + 9] = self.parts[1][s, m1[s]][ib[k]]
            keep = np.ones(need, dtype=bool)
            for x in range(2):
                if self.seven[x]:
                    both = np.array([_is_both(h, self.w[x]) for h in hands[:, x]])
                    keep &= ~both | (rng.random(need) < 0.5)
            kept = hands[keep]
            out[filled: filled + len(kept)] = kept
            filled += len(kept)
        return out


class HiddenSampler:
    """Exact sampler of a position's hidden state (module docstring); build once, draw often.

    >>> from simcore.advice.examples import random_position
    >>> p, truth = random_position(3, "classic", wall=6, melds=(0, 4, 4, 4))
    >>> s = HiddenSampler(p).sample(1000, seed=1)
    >>> s.hands.shape, s.wall.shape, bool((s.hands.sum(axis=2)[:, 1:] == 1).all())
    ((1000, 4, 27), (1000, 6), True)
    """

    def __init__(self, source: Position | HiddenConstraints, *, max_candidates: int = 200_000,
                 method: str = "auto", winners: str = "auto") -> None:
        if method not in ("auto", "types", "suits"):
            raise ValueError(f"method: {method!r} is not one of 'auto', 'types', 'suits'")
        self.constraints = c = _constraints(source)
        self.own: np.ndarray | None = None
        self.players = len(c.seats) + 1
        self.seat = 0
        if not isinstance(source, HiddenConstraints):
            self.own = source.concealed.astype(np.int8)
            self.seat = source.seat
        self.winners = [j for j in range(len(c.seats)) if c.wins[j]]
        self.rest = [j for j in range(len(c.seats)) if not c.wins[j]]
        lower_types = [t for t in range(N_TYPES) if (c.lower[self.rest, t] > 0).any()] \
            if self.rest else []
        if method == "suits" and lower_types:
            raise ValueError("method 'suits' needs no lower bound on the non-winners (the passed "
                             "three are in a non-winner's hand); use 'types' or 'auto'")
        self.method = "types" if method == "types" or lower_types else "suits"
        self._suit_programmes: dict[tuple[int, ...], _SuitProgramme] = {}
        self._programmes: dict[tuple[int, ...], _RestProgramme] = {}
        if winners not in ("auto", "enumerate", "factored"):
            raise ValueError(f"winners: {winners!r} is not one of 'auto', 'enumerate', "
                             "'factored'")
        factored_ok = (self.method == "suits" and len(self.winners) == 1
                       and len(c.wins[self.winners[0]]) == 1)
        if winners == "factored" and not (factored_ok or (
                self.method == "suits" and len(self.winners) == 2
                and all(len(c.wins[j]) == 1 for j in self.winners))):
            raise ValueError("winners 'factored' needs one or two winners with one winning tile "
                             "each and the 'suits' method")
        self.factored: _FactoredWinner | None = None
        self.pair: _FactoredPair | None = None
        pair_ok = (self.method == "suits" and len(self.winners) == 2
                   and all(len(c.wins[j]) == 1 for j in self.winners))
        if pair_ok and winners != "enumerate":
            tiles_left = int(c.unseen.sum()) - sum(c.sizes[j] for j in self.winners)
            prog = self._suit_programme_of((tiles_left, 0, 0))
            self.pair = _FactoredPair(c, self.winners, prog)
            self.joint = np.zeros((0, 2, N_TYPES), dtype=np.int64)
            self.probs = np.zeros(0)
            return
        if factored_ok and winners != "enumerate":
            self.factored = _FactoredWinner(
                c, self.winners[0],
                lambda left: self._suit_programme_of(tuple(int(x) for x in left)).weight(
                    tuple(int(x) for x in left)))
            self.joint = np.zeros((0, 1, N_TYPES), dtype=np.int64)
            self.probs = np.zeros(0)
            return
        u = c.unseen
        # the winners' joint candidates: int64[n_joint, n_winners, 27], built winner by winner
        joint = np.zeros((1, 0, N_TYPES), dtype=np.int64)
        for j in self.winners:
            cands = np.array(_winning_candidates(c, j, u), dtype=np.int64).reshape(-1, N_TYPES)
            used = joint.sum(axis=1)
            parts = []
            n_joint = 0
            step = max(1, 4_000_000 // max(1, len(cands) * N_TYPES))
            for a in range(0, len(joint), step):  # in chunks: n_joint x n_cands x 27 booleans
                fits = ((used[a:a + step, None, :] + cands[None, :, :]) <= u).all(axis=2)
                i, k = np.nonzero(fits)
                n_joint += len(i)
                if n_joint > max_candidates:
                    raise SamplerLimitError(
                        f"more than {max_candidates} joint candidate hands for the winners (a "
                        "winner with few melds early in a deal)")
                parts.append(np.concatenate([joint[a + i], cands[k][:, None, :]], axis=1))
            joint = np.concatenate(parts) if parts else np.zeros(
                (0, joint.shape[1] + 1, N_TYPES), dtype=np.int64)
        self.joint = joint
        if not len(joint):
            raise ValueError("no hidden state is consistent with the position")
        r_all = u[None, :] - joint.sum(axis=1)
        # log of prod_t u[t]! / (prod_w H_w[t]! r[t]!): counts are 0..4
        log_fact = np.log([1.0, 1.0, 2.0, 6.0, 24.0])
        log_binom = (log_fact[u].sum() - log_fact[joint].sum(axis=(1, 2))
                     - log_fact[r_all].sum(axis=1))
        # W depends on r only through its suit totals and its counts of lower-bounded types
        keys = np.concatenate([r_all.reshape(-1, 3, 9).sum(axis=2), r_all[:, lower_types]],
                              axis=1)
        uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
        log_w = np.empty(len(uniq))
        for g in range(len(uniq)):
            r = r_all[int(np.flatnonzero(inverse.ravel() == g)[0])]
            total = (self._programme(r).total if self.method == "types"
                     else self._suit_programme(r).weight(_suit_totals(r)))
            log_w[g] = np.log(total) if total > 0 else -np.inf
        logp = log_binom + log_w[inverse.ravel()]
        if not np.isfinite(logp).any():
            raise ValueError("no hidden state is consistent with the position")
        weights = np.exp(logp - logp.max())
        self.probs = weights / weights.sum()

    def _programme(self, r: np.ndarray) -> _RestProgramme:
        key = tuple(int(x) for x in r)
        prog = self._programmes.get(key)
        if prog is None:
            c = self.constraints
            prog = _RestProgramme(r, [c.sizes[j] for j in self.rest], c.allowed[self.rest],
                                  c.lower[self.rest])
            if len(self._programmes) < 4096:
                self._programmes[key] = prog
        return prog

    def _suit_programme(self, r: np.ndarray) -> _SuitProgramme:
        return self._suit_programme_of(_suit_totals(r))

    def _suit_programme_of(self, key: tuple[int, ...]) -> _SuitProgramme:
        """The programme for the rest when the unseen tiles left have suit totals ``key``:
        one per total, bounded by the unseen tiles' suit totals."""
        total = sum(key)
        prog = self._suit_programmes.get((total,))
        if prog is None:
            c = self.constraints
            allowed = np.array([[bool(c.allowed[j, 9 * s: 9 * s + 9].any()) for s in range(3)]
                                for j in self.rest], dtype=bool).reshape(len(self.rest), 3)
            # a void suit is all or nothing: the tile set's absent suit has no unseen tiles
            prog = _SuitProgramme(_suit_totals(c.unseen), [c.sizes[j] for j in self.rest],
                                  allowed, total)
            self._suit_programmes[(total,)] = prog
        return prog

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> HiddenSamples:
        """``n`` hidden states: :class:`HiddenSamples` (hands int8[n, players, 27], wall
        int8[n, wall] in draw order). ``seed``: an int or a numpy Generator (reproducible)."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise ValueError(f"n must be an integer >= 0, got {n!r}")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        c = self.constraints
        hands = np.zeros((n, self.players, N_TYPES), dtype=np.int8)
        if self.own is not None:
            hands[:, self.seat] = self.own
        wall_counts = np.zeros((n, N_TYPES), dtype=np.int8)
        seat_of = list(c.seats)
        if self.factored is not None:
            held = self.factored.sample(n, rng)
            hands[:, seat_of[self.winners[0]]] = held
            r_all = c.unseen[None, :] - held
            choice = np.zeros(n, dtype=np.int64)
        elif self.pair is not None:
            both = self.pair.sample(n, rng)
            for x, j in enumerate(self.winners):
                hands[:, seat_of[j]] = both[:, x]
            r_all = c.unseen[None, :] - both.sum(axis=1)
            choice = np.zeros(n, dtype=np.int64)
        else:
            choice = rng.choice(len(self.joint), size=n, p=self.probs) \
                if len(self.joint) > 1 else np.zeros(n, dtype=np.int64)
            joint = self.joint
            for jj, j in enumerate(self.winners):
                hands[:, seat_of[j]] = joint[choice, jj]
            r_all = c.unseen[None, :] - joint[choice].sum(axis=1)  # (n, 27) left for the rest
        if self.method == "types":
            for i in np.unique(choice):
                rows = np.flatnonzero(choice == i)
                r = r_all[rows[0]]
                rest_hands, rest_wall = self._programme(r).sample(len(rows), rng, r)
                hands[rows[:, None], np.array(seat_of)[self.rest][None, :]] = rest_hands
                wall_counts[rows] = rest_wall
        else:
            suit_totals = np.stack([r_all[:, 9 * s: 9 * s + 9].sum(axis=1) for s in range(3)],
                                   axis=1)
            keys, group = np.unique(suit_totals, axis=0, return_inverse=True)
            for g in range(len(keys)):
                rows = np.flatnonzero(group.ravel() == g)
                prog = self._suit_programme(r_all[rows[0]])
                totals = prog.totals(len(rows), rng, _suit_totals(r_all[rows[0]]))
                rest_hands, rest_wall = prog.deal(r_all[rows], totals, rng)
                hands[rows[:, None], np.array(seat_of)[self.rest][None, :]] = rest_hands
                wall_counts[rows] = rest_wall
        return HiddenSamples(hands, _shuffled_walls(wall_counts, c.wall, rng))


def _suit_totals(r: np.ndarray) -> tuple[int, ...]:
    return tuple(int(r[9 * s: 9 * s + 9].sum()) for s in range(3))


def _shuffled_walls(counts: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """Each row's tiles (``counts[i]``) in a uniformly random order: ``int8[n, size]``."""
    n = counts.shape[0]
    cum = np.cumsum(counts, axis=1)  # (n, 27)
    k = np.arange(size)
    sorted_tiles = (cum[:, None, :] <= k[None, :, None]).sum(axis=2)  # (n, size)
    order = np.argsort(rng.random((n, size)), axis=1)
    return np.take_along_axis(sorted_tiles, order, axis=1).astype(np.int8)


def sample_hidden(position: Position, n: int, seed: int | np.random.Generator | None = None
                  ) -> HiddenSamples:
    """``n`` exact samples of ``position``'s hidden state (:class:`HiddenSampler`)."""
    return HiddenSampler(position).sample(n, seed)



def stratify_first_draws(walls: np.ndarray, depth: int, rng: np.random.Generator) -> np.ndarray:
    """The walls of a batch with their first ``depth`` tiles re-drawn by Latin hypercube
    sampling (issue 28's variance reduction, after backgammon's quasi-random first rolls).

    For wall position ``d`` the batch's uniforms ``u[i] = (pi_d(i) + U_i) / n`` (``pi_d`` a
    random permutation, ``U_i`` uniform) cover ``[0, 1)`` evenly; the tile at ``d`` is the
    ``u``-quantile of the tiles still left in that wall (in type order); the rest are shuffled
    uniformly again. Each ``u[i]`` is uniform and independent of the hidden hands and
    of the other positions, so every wall is still exactly a uniform shuffle of its tiles;
    across the batch the first draws are spread like the tile counts instead of clumping.
    """
    n, size = walls.shape
    depth = min(depth, size)
    if n == 0 or depth == 0:
        return walls
    out = walls.copy()
    counts = np.zeros((n, N_TYPES), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(n), size), walls.ravel().astype(np.int64)), 1)
    for d in range(depth):
        u = (rng.permutation(n) + rng.random(n)) / n
        left = size - d
        cum = np.cumsum(counts, axis=1)
        tiles = (cum <= np.floor(u * left)[:, None]).sum(axis=1)
        counts[np.arange(n), tiles] -= 1
        out[:, d] = tiles
    out[:, depth:] = _shuffled_walls(counts, size - depth, rng)
    return out
