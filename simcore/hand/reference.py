"""Slow, obviously correct pure-Python oracles: win shape, shanten, waits, fan (docs/rules 5-7).

This module is the independent reference against which the numba kernels (``_hand_kernels``,
``_scoring``, ``tables``) are tested, so it is written straight from the definitions and shares
no code with them: explicit recursion over decompositions, explicit enumeration of target
shapes, explicit enumeration of readings and patterns. Speed is not a goal (a few
milliseconds per hand).

Inputs everywhere: ``counts`` is a length-27 integer sequence of the **concealed** tiles (type
``t``: suit ``t // 9``, rank ``t % 9 + 1``); ``melds`` is a sequence of ``(kind, tile)`` pairs
such as :class:`simcore.tiles.Meld`, kind ``"P"`` (pung), ``"K"`` (exposed kong) or ``"C"``
(concealed kong); ``void`` is ``-1`` or ``None`` for none, else the suit 0..2. Bad input raises
ValueError naming the bad value.

>>> from simcore.tiles import parse
>>> counts, melds = parse("111m444m456p789m77p")
>>> is_complete(counts, melds), shanten(counts)
(True, -1)
>>> counts, melds = parse("1112345678999m")
>>> [t + 1 for t in waits(counts, melds)]
[1, 2, 3, 4, 5, 6, 7, 8, 9]
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:  # only for annotations: the oracle reads plain attributes of the record
    from simcore.rules import Rules

N_TYPES = 27
N_COPIES = 4
SUIT_LETTERS = "mps"
MELD_KINDS = ("P", "K", "C")

NO_SHAPE = 99
"""Shanten returned when a shape is impossible (seven pairs with exposed melds)."""

BONUS_NAMES = ("kong_flower", "kong_discard", "robbed_kong", "last_tile")
PATTERNS = ("plain", "all_pungs", "seven_pairs", "golden_hook", "pungs_258")
# tie-break among equal totals and equal pattern fan: earlier in this tuple wins
_PATTERN_PREFERENCE = ("golden_hook", "pungs_258", "seven_pairs", "all_pungs", "plain")


class Reading(NamedTuple):
    """One standard decomposition of the concealed tiles: melds and the pair (eyes).

    ``melds`` is sorted by ``(tile, kind)``; each is ``("pung", t)`` (triplet of ``t``) or
    ``("chow", t)`` (run ``t, t+1, t+2`` within one suit).
    """

    melds: tuple[tuple[str, int], ...]
    pair: int


@dataclass(frozen=True)
class ScoreResult:
    """Score of a winning hand (docs/rules section 7).

    ``fan`` is after the cap, ``fan_uncapped`` before it; ``units`` is what each payer pays:
    ``2**fan`` plus the self-draw base unit when it applies.
    """

    fan: int
    fan_uncapped: int
    pattern: str
    flush: bool
    terminals: bool
    roots: int
    bonuses: tuple[str, ...]
    units: int


# --------------------------------------------------------------------------------------------
# input checks


def _tile_name(t: int) -> str:
    return f"{t % 9 + 1}{SUIT_LETTERS[t // 9]}"


def _check_counts(counts: Any, what: str = "counts") -> list[int]:
    """``counts`` as a list of 27 Python ints in 0..4, or ValueError naming the problem."""
    arr = np.asarray(counts)
    if arr.shape != (N_TYPES,) or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise ValueError(f"{what} must be 27 integers, got shape {arr.shape} of dtype {arr.dtype}")
    out = [int(x) for x in arr]
    for t, c in enumerate(out):
        if not 0 <= c <= N_COPIES:
            raise ValueError(f"{what}: count of {_tile_name(t)} must be 0..4, got {c}")
    return out


def check_tile(t: Any) -> int:
    if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < N_TYPES:
        raise ValueError(f"tile type must be an integer 0..26, got {t!r}")
    return int(t)


def _check_melds(melds: Iterable[Any]) -> list[tuple[str, int]]:
    """Melds as ``(kind, tile)`` pairs; accepts :class:`simcore.tiles.Meld` or plain pairs."""
    out = []
    for m in melds:
        if hasattr(m, "kind") and hasattr(m, "tile"):
            kind, tile = m.kind, m.tile
        else:
            try:
                kind, tile = m
            except (TypeError, ValueError):
                raise ValueError(f"not a meld (kind, tile): {m!r}") from None
        if kind not in MELD_KINDS:
            raise ValueError(f"meld kind {kind!r} is not one of 'P', 'K', 'C'")
        out.append((kind, check_tile(tile)))
    if len(out) > 4:
        raise ValueError(f"a hand has at most 4 melds, got {len(out)}")
    return out


def _check_n_melds(n_melds: Any) -> int:
    if isinstance(n_melds, bool) or not isinstance(n_melds, int | np.integer):
        raise ValueError(f"n_melds must be an integer 0..4, got {n_melds!r}")
    if not 0 <= n_melds <= 4:
        raise ValueError(f"n_melds must be 0..4, got {n_melds}")
    return int(n_melds)


def _check_void(void: Any) -> int:
    """``void`` as -1 (none) or a suit 0..2."""
    if void is None:
        return -1
    if isinstance(void, bool) or not isinstance(void, int | np.integer) or not -1 <= void <= 2:
        raise ValueError(f"void must be -1, None or a suit 0..2, got {void!r}")
    return int(void)


def _check_size(c: list[int], n_melds: int) -> int:
    """Number of concealed tiles; more than ``14 - 3 * n_melds`` is an error."""
    n = sum(c)
    if n > 14 - 3 * n_melds:
        raise ValueError(
            f"{n} concealed tiles with {n_melds} melds; at most {14 - 3 * n_melds} allowed"
        )
    return n


def _meld_size(kind: str) -> int:
    return 3 if kind == "P" else 4


def _all_tiles(c: list[int], melds: list[tuple[str, int]]) -> list[int]:
    """Counts of hand + melds (a kong counts 4); a fifth copy is an error."""
    total = list(c)
    for kind, t in melds:
        total[t] += _meld_size(kind)
    for t, n in enumerate(total):
        if n > N_COPIES:
            raise ValueError(f"{n} copies of {_tile_name(t)} counting melds; only 4 exist")
    return total


# --------------------------------------------------------------------------------------------
# shapes


def standard_readings(counts: Sequence[int] | np.ndarray, n_melds: int = 0) -> list[Reading]:
    """Every distinct decomposition of the concealed tiles into ``4 - n_melds`` melds + a pair.

    Recursion on the lowest remaining tile, which must be the pair, start a triplet or start a
    run; a set removes the duplicates that different orders of the same groups produce.

    >>> readings = standard_readings([3, 3, 3, 0, 0, 0, 0, 0, 2] + [0] * 18, n_melds=1)
    >>> [r.melds for r in readings]
    [(('chow', 0), ('chow', 0), ('chow', 0)), (('pung', 0), ('pung', 1), ('pung', 2))]
    >>> readings[0].pair
    8
    """
    c = _check_counts(counts)
    n_melds = _check_n_melds(n_melds)
    if sum(c) != 14 - 3 * n_melds:
        return []
    found: set[Reading] = set()

    def walk(melds: list[tuple[str, int]], pair: int) -> None:
        t = next((i for i in range(N_TYPES) if c[i] > 0), -1)
        if t < 0:  # every tile used: sizes guarantee 4 - n_melds melds and one pair
            found.add(Reading(tuple(sorted(melds, key=lambda m: (m[1], m[0]))), pair))
            return
        if pair < 0 and c[t] >= 2:
            c[t] -= 2
            walk(melds, t)
            c[t] += 2
        if c[t] >= 3:
            c[t] -= 3
            walk([*melds, ("pung", t)], pair)
            c[t] += 3
        if t % 9 <= 6 and c[t + 1] > 0 and c[t + 2] > 0:
            for i in (t, t + 1, t + 2):
                c[i] -= 1
            walk([*melds, ("chow", t)], pair)
            for i in (t, t + 1, t + 2):
                c[i] += 1

    walk([], -1)
    return sorted(found)


def is_seven_pairs(counts: Sequence[int] | np.ndarray, n_melds: int = 0) -> bool:
    """14 concealed tiles, no melds, every count even (four identical tiles are two pairs)."""
    c = _check_counts(counts)
    n_melds = _check_n_melds(n_melds)
    return n_melds == 0 and sum(c) == 14 and all(x % 2 == 0 for x in c)


def is_complete(
    counts: Sequence[int] | np.ndarray, melds: Sequence[Any] = (), void: int | None = -1
) -> bool:
    """A Sichuan win shape (docs/rules section 5).

    No void-suit tile in hand or melds, at most two suits across hand and melds, and the
    concealed tiles (``14 - 3k`` of them; any other number is simply not complete) form the
    standard shape or seven pairs.
    """
    c = _check_counts(counts)
    ms = _check_melds(melds)
    void = _check_void(void)
    _check_size(c, len(ms))
    total = _all_tiles(c, ms)
    if sum(c) != 14 - 3 * len(ms):
        return False
    suits = {t // 9 for t in range(N_TYPES) if total[t] > 0}
    if void in suits or len(suits) > 2:
        return False
    return is_seven_pairs(c, len(ms)) or bool(standard_readings(c, len(ms)))


# --------------------------------------------------------------------------------------------
# shanten


@functools.cache
def _suit_targets() -> tuple[np.ndarray, list[list[np.ndarray]]]:
    """Every target within one suit: multisets of up to 4 melds plus up to 1 pair, <= 4 copies.

    Returns the targets as an ``(n, 9)`` array and, for each class ``(melds m, pairs p)``, the
    row indices of that class.
    """
    groups = [(r, r, r) for r in range(9)] + [(r, r + 1, r + 2) for r in range(7)]
    rows: list[list[int]] = []
    classes: list[tuple[int, int]] = []
    for m in range(5):
        for combo in itertools.combinations_with_replacement(groups, m):
            base = [0] * 9
            for g in combo:
                for r in g:
                    base[r] += 1
            for pair in [None, *range(9)]:
                row = list(base)
                if pair is not None:
                    row[pair] += 2
                if max(row) <= N_COPIES:
                    rows.append(row)
                    classes.append((m, 0 if pair is None else 1))
    targets = np.array(rows, dtype=np.int16)
    cls = np.array(classes)
    index = [
        [np.flatnonzero((cls[:, 0] == m) & (cls[:, 1] == p)) for p in range(2)] for m in range(5)
    ]
    return targets, index


def _suit_costs(suit_counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``cost[m][p]``: fewest tiles to add to one suit's counts to contain m melds + p pairs."""
    return _suit_costs_of(tuple(int(c) for c in suit_counts))


@functools.lru_cache(maxsize=1 << 16)  # a pure function of the nine counts: replays repeat them
def _suit_costs_of(suit_counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    targets, index = _suit_targets()
    need = np.maximum(targets - np.asarray(suit_counts, dtype=np.int16), 0).sum(axis=1)
    return tuple(tuple(int(need[index[m][p]].min()) for p in range(2)) for m in range(5))


def shanten_standard(
    counts: Sequence[int] | np.ndarray, n_melds: int = 0, void: int | None = -1
) -> int:
    """Standard-shape shanten: (fewest tiles to add so the hand contains a target) - 1.

    A target is ``4 - n_melds`` melds + one pair drawn from non-void suits with at most four
    copies of any tile type **in the target**. The tiles of the exposed melds are not looked
    at (the per-suit kernel tables cannot see them), so a target may use a copy that sits in an
    exposed meld. Void-suit tiles never help; the three-suit rule is not part of shanten.
    A complete shape gives -1, a ready one 0.
    """
    c = _check_counts(counts)
    n_melds = _check_n_melds(n_melds)
    void = _check_void(void)
    _check_size(c, n_melds)
    need_melds = 4 - n_melds
    suits = [s for s in range(3) if s != void]
    costs = {s: _suit_costs(c[9 * s : 9 * s + 9]) for s in suits}
    best = None
    # every split of the melds over the usable suits, and every suit for the pair
    for split in itertools.product(range(need_melds + 1), repeat=len(suits)):
        if sum(split) != need_melds:
            continue
        for pair_suit in suits:
            cost = sum(
                costs[s][m][1 if s == pair_suit else 0] for s, m in zip(suits, split, strict=True)
            )
            best = cost if best is None else min(best, cost)
    assert best is not None  # there is always at least one non-void suit
    return best - 1


def shanten_seven_pairs(
    counts: Sequence[int] | np.ndarray, void: int | None = -1, n_melds: int = 0
) -> int:
    """Seven-pairs shanten: (fewest tiles to add to contain 7 pairs of non-void types) - 1.

    A type may supply two pairs (its four copies). With exposed melds seven pairs is impossible
    and the result is :data:`NO_SHAPE` (99).
    """
    c = _check_counts(counts)
    void = _check_void(void)
    n_melds = _check_n_melds(n_melds)
    _check_size(c, n_melds)
    if n_melds > 0:
        return NO_SHAPE
    # knapsack over tile types: best[k] = fewest additions for k pairs among the types seen so far
    inf = 10**6
    best = [0] + [inf] * 7
    for t in range(N_TYPES):
        if t // 9 == void:
            continue
        new = list(best)
        for k in range(8):
            for pairs in (1, 2):
                if k >= pairs and best[k - pairs] < inf:
                    new[k] = min(new[k], best[k - pairs] + max(2 * pairs - c[t], 0))
        best = new
    return best[7] - 1


def shanten(
    counts: Sequence[int] | np.ndarray,
    n_melds: int = 0,
    void: int | None = -1,
    kind: str = "any",
) -> int:
    """Shanten of ``kind`` ``"standard"``, ``"seven_pairs"`` or ``"any"`` (the smaller)."""
    if kind == "standard":
        return shanten_standard(counts, n_melds, void)
    if kind == "seven_pairs":
        return shanten_seven_pairs(counts, void, n_melds)
    if kind == "any":
        return min(
            shanten_standard(counts, n_melds, void),
            shanten_seven_pairs(counts, void, n_melds),
        )
    raise ValueError(f"kind must be 'any', 'standard' or 'seven_pairs', got {kind!r}")


# --------------------------------------------------------------------------------------------
# waits


def _check_waiting(c: list[int], ms: list[tuple[str, int]]) -> None:
    if sum(c) != 13 - 3 * len(ms):
        raise ValueError(
            f"a waiting hand with {len(ms)} melds has {13 - 3 * len(ms)} concealed tiles, "
            f"got {sum(c)}"
        )


def waits(
    counts: Sequence[int] | np.ndarray, melds: Sequence[Any] = (), void: int | None = -1
) -> list[int]:
    """Tile types that complete a ``13 - 3k`` tile hand (never a fifth copy), ascending."""
    c = _check_counts(counts)
    ms = _check_melds(melds)
    void = _check_void(void)
    _check_waiting(c, ms)
    total = _all_tiles(c, ms)
    out = []
    for t in range(N_TYPES):
        if total[t] == N_COPIES:  # all four already held: no fifth copy to win on
            continue
        c[t] += 1
        if is_complete(c, ms, void):
            out.append(t)
        c[t] -= 1
    return out


# --------------------------------------------------------------------------------------------
# scoring


def _pattern_fan(rules: Rules, pattern: str) -> int | None:
    """Fan of a pattern under ``rules``; None when the pattern is off."""
    return {
        "plain": rules.fan_plain,
        "all_pungs": rules.fan_all_pungs,
        "seven_pairs": rules.fan_seven_pairs,
        "golden_hook": rules.fan_golden_hook,
        "pungs_258": rules.fan_pungs_258,
    }[pattern]


def _check_bonuses(bonuses: Iterable[str]) -> tuple[str, ...]:
    out = tuple(bonuses)
    for b in out:
        if b not in BONUS_NAMES:
            raise ValueError(f"unknown bonus {b!r}; expected one of {', '.join(BONUS_NAMES)}")
    for b in set(out):
        if out.count(b) > 1:
            raise ValueError(f"bonus {b!r} given more than once")
    return out


def score(
    counts: Sequence[int] | np.ndarray,
    melds: Sequence[Any] = (),
    *,
    rules: Rules,
    void: int | None = -1,
    self_draw: bool = False,
    bonuses: Iterable[str] = (),
    heaven_earth: bool = False,
) -> ScoreResult | None:
    """Score a ``14 - 3k`` tile hand per docs/rules section 7; None when it does not win.

    Every reading (each standard decomposition, and seven pairs) with every pattern it allows
    is scored with its own modifiers, roots and bonuses; the best total before the cap wins.
    Ties go to the higher pattern fan, then golden_hook, pungs_258, seven_pairs, all_pungs,
    plain, then a reading with terminals. ``bonuses`` are not checked against ``self_draw``:
    under ``direct_kong_flower = discard`` a kong flower is legitimately not self-drawn.
    """
    c = _check_counts(counts)
    ms = _check_melds(melds)
    void = _check_void(void)
    bonus_names = _check_bonuses(bonuses)
    if sum(c) != 14 - 3 * len(ms):
        raise ValueError(
            f"a complete hand with {len(ms)} melds has {14 - 3 * len(ms)} concealed tiles, "
            f"got {sum(c)}"
        )
    if rules.self_draw_bonus not in ("base", "fan", "none"):
        raise ValueError(f"self_draw_bonus {rules.self_draw_bonus!r} is not base, fan or none")
    if not is_complete(c, ms, void):
        return None
    total = _all_tiles(c, ms)

    held = [t for t in range(N_TYPES) if total[t] > 0]
    flush = len({t // 9 for t in held}) == 1
    roots = sum(1 for t in range(N_TYPES) if total[t] == N_COPIES)
    common = (rules.fan_flush if flush else 0) + roots + len(bonus_names)
    if self_draw and rules.self_draw_bonus == "fan":
        common += 1
    all_258 = all(t % 9 + 1 in (2, 5, 8) for t in held)

    # candidates: (total before cap, pattern fan, pattern, terminals)
    candidates: list[tuple[int, int, str, bool]] = []

    def add(pattern: str, terminals: bool) -> None:
        fan = _pattern_fan(rules, pattern)
        if fan is None:  # pattern off: the hand still scores as all pungs (its own candidate)
            return
        extra = (rules.fan_terminals or 0) if terminals else 0  # terminals: fan_terminals is set
        candidates.append((fan + common + extra, fan, pattern, terminals))

    for reading in standard_readings(c, len(ms)):
        # exposed melds (pungs and kongs) are triplets; a triplet holds a terminal iff rank 1/9,
        # a run iff it starts at rank 1 or 7
        groups_terminal = [t % 9 in (0, 8) for _, t in ms]
        groups_terminal += [
            (t % 9 in (0, 8)) if k == "pung" else (t % 9 in (0, 6)) for k, t in reading.melds
        ]
        groups_terminal.append(reading.pair % 9 in (0, 8))
        terminals = rules.fan_terminals is not None and all(groups_terminal)
        add("plain", terminals)
        if all(k == "pung" for k, _ in reading.melds):
            add("all_pungs", terminals)
            if len(ms) == 4:
                add("golden_hook", terminals)
            if all_258:
                add("pungs_258", terminals)
    if is_seven_pairs(c, len(ms)):
        add("seven_pairs", False)
    assert candidates, "a complete hand has a reading and plain / seven pairs are never off"

    def key(cand: tuple[int, int, str, bool]) -> tuple[int, int, int, bool]:
        value, fan, pattern, terminals = cand
        return (value, fan, -_PATTERN_PREFERENCE.index(pattern), terminals)

    uncapped, _, pattern, terminals = max(candidates, key=key)
    if heaven_earth and rules.heaven_earth == "max":
        if rules.max_fan is None:
            raise ValueError("heaven_earth = 'max' needs max_fan, got None")
        fan = uncapped = int(rules.max_fan)  # replaces the hand's fan, not capped further
    else:
        fan = uncapped if rules.fan_cap is None else min(uncapped, rules.fan_cap)
    units = 2**fan + (1 if self_draw and rules.self_draw_bonus == "base" else 0)
    return ScoreResult(
        fan=fan,
        fan_uncapped=uncapped,
        pattern=pattern,
        flush=flush,
        terminals=terminals,
        roots=roots,
        bonuses=bonus_names,
        units=units,
    )


def ready_value(
    counts: Sequence[int] | np.ndarray,
    melds: Sequence[Any] = (),
    *,
    rules: Rules,
    void: int | None = -1,
) -> int:
    """Ready-check value (docs/rules section 6) of a ``13 - 3k`` tile hand; 0 if not ready.

    The units (``2**fan``, capped) of the best (``ready_pay = "max"``) or worst (``"min"``)
    winning tile scored as a win on a discard with no situational bonus. Visibility (dead
    waits) is not considered here: see :func:`is_dead_wait`.
    """
    if rules.ready_pay not in ("max", "min"):
        raise ValueError(f"ready_pay {rules.ready_pay!r} is not 'max' or 'min'")
    c = _check_counts(counts)
    ms = _check_melds(melds)
    values = []
    for t in waits(c, ms, void):
        c[t] += 1
        result = score(c, ms, rules=rules, void=void)
        c[t] -= 1
        assert result is not None  # a wait completes the hand
        values.append(result.units)
    if not values:
        return 0
    return max(values) if rules.ready_pay == "max" else min(values)


def is_dead_wait(
    counts: Sequence[int] | np.ndarray,
    melds: Sequence[Any],
    void: int | None,
    visible: Sequence[int] | np.ndarray,
) -> bool:
    """Ready, and all four copies of every winning tile are visible to the player (死叫).

    ``visible`` counts the tiles the player can see: own hand and melds plus every discard and
    exposed meld of the others; it must include the player's own tiles.
    """
    c = _check_counts(counts)
    ms = _check_melds(melds)
    seen = _check_counts(visible, "visible")
    own = _all_tiles(c, ms)
    for t in range(N_TYPES):
        if seen[t] < own[t]:
            raise ValueError(
                f"visible shows {seen[t]} of {_tile_name(t)} but the player holds {own[t]}"
            )
    w = waits(c, ms, void)
    return bool(w) and all(seen[t] == N_COPIES for t in w)


# --------------------------------------------------------------------------------------------
# the starting hand (the records' shanten_dealt ... pairs)


def start_columns(
    dealt: Sequence[int] | np.ndarray,
    exchanged: Sequence[int] | np.ndarray,
    void: int | None = -1,
) -> dict[str, int]:
    """The five starting-hand record columns of one seat, straight from their definitions.

    ``dealt`` and ``exchanged`` are the counts of the seat's 13 tiles (the dealer's 14) as dealt
    and after the exchange of three (equal without one); ``void`` the suit it declared (-1:
    none). Shanten is :func:`shanten` of any shape, no melds; after the void its tiles count for
    nothing. ``longest_suit`` and ``pairs`` (tile types held two or more times: a triplet or
    four copies count once) look at the exchanged hand outside the void suit.

    >>> from simcore.tiles import parse
    >>> dealt, _ = parse("123456789m1122p9s")
    >>> start_columns(dealt, dealt, void=2)
    {'shanten_dealt': 0, 'shanten_exchanged': 0, 'shanten_void': 0, 'longest_suit': 9, 'pairs': 2}
    """
    d = _check_counts(dealt, "dealt")
    e = _check_counts(exchanged, "exchanged")
    void = _check_void(void)
    if sum(d) not in (13, 14) or sum(e) != sum(d):
        raise ValueError(f"a starting hand has 13 or 14 tiles before and after the exchange, "
                         f"got {sum(d)} and {sum(e)}")
    suits = [s for s in range(3) if s != void]
    return {
        "shanten_dealt": shanten(d),
        "shanten_exchanged": shanten(e),
        "shanten_void": shanten(e, void=void),
        "longest_suit": max(sum(e[9 * s: 9 * s + 9]) for s in suits),
        "pairs": sum(1 for s in suits for r in range(9) if e[9 * s + r] >= 2),
    }
