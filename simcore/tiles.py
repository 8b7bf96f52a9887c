"""Tiles and the hand notation ``123m456p77s|P5sK3m`` in both directions (docs/rules section 1).

A tile type is an index ``t`` in 0..26: ``suit = t // 9`` (0 = m, 1 = p, 2 = s) and
``rank = t % 9 + 1``. A hand is ``np.int8[27]`` counts of its concealed tiles plus a tuple of
exposed melds (:class:`Meld`); kernels get the melds as small arrays (:func:`melds_to_arrays`).

>>> counts, melds = parse("123m456m77p|P5sK9m")
>>> tiles_from_counts(counts)
[0, 1, 2, 3, 4, 5, 15, 15]
>>> melds
(Meld(kind='P', tile=22), Meld(kind='K', tile=8))
>>> format(counts, melds)
'123456m77p|P5sK9m'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from simcore.records import (  # noqa: F401 (the meld codes, re-exported beside the notation)
    MELD_CONCEALED_KONG,
    MELD_KONG,
    MELD_LETTERS,
    MELD_PUNG,
    SUIT_LETTERS,
)

N_TYPES = 27
SUITS = "".join(SUIT_LETTERS)  # "mps"
N_COPIES = 4  # copies of each tile type in the WALL_SIZE-tile set
MAX_MELDS = 4
_MELD_KIND_BY_CODE = {code: kind for kind, code in MELD_LETTERS.items()}

_SUIT_NAMES = {
    "en": ("characters", "dots", "bamboo"),
    "zh": ("万", "筒", "条"),
}
_ZH_RANKS = "一二三四五六七八九"


class Meld(NamedTuple):
    """An exposed meld (or a concealed kong): kind ``"P"``, ``"K"`` or ``"C"`` and a tile type.

    >>> m = Meld("K", tile_index("3m"))
    >>> m.code, m.size, str(m)
    (2, 4, 'K3m')
    """

    kind: str  # "P" pung | "K" exposed kong | "C" concealed kong
    tile: int  # tile type index 0..26

    @property
    def code(self) -> int:
        """The kernel code: ``MELD_PUNG``, ``MELD_KONG`` or ``MELD_CONCEALED_KONG``."""
        if self.kind not in MELD_LETTERS:
            raise ValueError(f"meld kind {self.kind!r} is not one of 'P', 'K', 'C'")
        return MELD_LETTERS[self.kind]

    @property
    def size(self) -> int:
        """Number of tiles in the meld: 3 for a pung, 4 for a kong."""
        return 3 if self.code == MELD_PUNG else 4

    def __str__(self) -> str:
        kind = _MELD_KIND_BY_CODE[self.code]  # .code raises on an unknown kind
        return f"{kind}{tile_str(self.tile)}"


class Hand(NamedTuple):
    """Concealed tile counts (``int8[27]``) and the exposed melds; unpack as ``counts, melds``.

    Equality compares the counts element-wise. A hand holds a mutable array, so it is not
    hashable.

    >>> parse("11m|P5s", sizes="any") == Hand(counts_from_tiles([0, 0]), (Meld("P", 22),))
    True
    >>> str(parse("11m|P5s", sizes="any"))
    '11m|P5s'
    """

    counts: np.ndarray  # int8[27] concealed tiles
    melds: tuple[Meld, ...]

    def __eq__(self, other: object) -> bool:
        # tuple equality would call bool() on an element-wise array comparison and raise
        if not isinstance(other, tuple) or len(other) != 2:
            return NotImplemented
        counts, melds = other
        return bool(np.array_equal(self.counts, counts)) and tuple(self.melds) == tuple(melds)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __str__(self) -> str:
        return format(self.counts, self.melds)


# unhashable like its counts array (set after the class: a NamedTuple's body holds only fields
# and methods)
Hand.__hash__ = None  # type: ignore[assignment,method-assign]


# --------------------------------------------------------------------------------------------
# single tiles


def check_tile(t: object) -> int:
    """``t`` as a Python int, or ValueError naming it when it is not a tile type 0..26."""
    if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 0 <= t < N_TYPES:
        raise ValueError(f"tile type must be an integer 0..26, got {t!r}")
    return int(t)


def tile_index(text: str) -> int:
    """The tile type of one tile written like ``"5s"``.

    >>> tile_index("1m"), tile_index("9p"), tile_index("5s")
    (0, 17, 22)
    """
    s = "".join(str(text).split()) if isinstance(text, str) else None
    if s is None or len(s) != 2 or s[0] not in "123456789" or s[1] not in SUITS:
        raise ValueError(f"not a tile: {text!r} (expected a rank 1-9 and a suit m, p or s)")
    return SUITS.index(s[1]) * 9 + int(s[0]) - 1


def tile_str(t: int) -> str:
    """One tile in notation.

    >>> tile_str(22)
    '5s'
    """
    t = check_tile(t)
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def _check_lang(lang: str) -> None:
    if lang not in _SUIT_NAMES:
        raise ValueError(f"lang: {lang!r} is not one of 'en', 'zh'")


def suit_name(s: int | str, lang: str = "en") -> str:
    """Name of a suit given as index 0..2 or letter ``m``/``p``/``s``.

    >>> suit_name(0), suit_name("s"), suit_name("p", "zh")
    ('characters', 'bamboo', '筒')
    """
    _check_lang(lang)
    if isinstance(s, str) and len(s) == 1 and s in SUITS:
        index = SUITS.index(s)
    elif not isinstance(s, bool) and isinstance(s, int | np.integer) and 0 <= s < 3:
        index = int(s)
    else:
        raise ValueError(f"not a suit: {s!r} (expected 0, 1, 2 or 'm', 'p', 's')")
    return _SUIT_NAMES[lang][index]


def tile_name(t: int, lang: str = "en") -> str:
    """Readable name of a tile type for logs.

    >>> tile_name(22), tile_name(0), tile_name(17)
    ('5 bamboo', '1 characters', '9 dots')
    >>> tile_name(22, "zh"), tile_name(0, "zh"), tile_name(17, "zh")
    ('五条', '一万', '九筒')
    """
    t = check_tile(t)
    _check_lang(lang)
    rank, suit = t % 9, t // 9
    if lang == "zh":
        return f"{_ZH_RANKS[rank]}{_SUIT_NAMES['zh'][suit]}"
    return f"{rank + 1} {_SUIT_NAMES['en'][suit]}"


# --------------------------------------------------------------------------------------------
# counts and lists


def counts_from_tiles(tiles: Iterable[int]) -> np.ndarray:
    """``int8[27]`` counts of a list of tile types.

    >>> counts_from_tiles([0, 0, 22]).nonzero()[0].tolist()
    [0, 22]
    """
    counts = np.zeros(N_TYPES, dtype=np.int8)
    for t in tiles:
        counts[check_tile(t)] += 1
        if counts[t] > N_COPIES:
            raise ValueError(f"tile {tile_str(t)} appears more than {N_COPIES} times")
    return counts


def _check_counts(counts: object) -> np.ndarray:
    """``counts`` as an integer array of 27 values in 0..4, or ValueError naming the problem."""
    arr = np.asarray(counts)
    if arr.shape != (N_TYPES,) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"counts must be 27 integers, got shape {arr.shape} of dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr > N_COPIES))
    if bad.size:
        t = int(bad[0])
        raise ValueError(f"count of {tile_str(t)} must be 0..4, got {int(arr[t])}")
    return arr


def tiles_from_counts(counts: np.ndarray) -> list[int]:
    """The sorted list of tile types held in ``counts``.

    >>> tiles_from_counts(counts_from_tiles([22, 0, 0]))
    [0, 0, 22]
    """
    arr = _check_counts(counts)
    return [t for t in range(N_TYPES) for _ in range(int(arr[t]))]


def tiles_str(tiles: Iterable[int]) -> str:
    """A list of tile types in compact, sorted notation.

    >>> tiles_str([22, 0, 4, 0])
    '115m5s'
    >>> tiles_str([])
    ''
    """
    return format(counts_from_tiles(tiles))


def all_tiles_counts(hand: Hand) -> np.ndarray:
    """``int8[27]`` counts of all the hand's tiles: concealed plus meld tiles (a kong is 4).

    >>> all_tiles_counts(parse("5s|P5s", sizes="any"))[tile_index("5s")]
    np.int8(4)
    """
    counts, melds = hand
    total = np.array(_check_counts(counts), dtype=np.int8)
    for meld in melds:
        total[check_tile(meld.tile)] += meld.size
    return total


# --------------------------------------------------------------------------------------------
# melds for kernels


def melds_to_arrays(melds: Sequence[Meld]) -> tuple[np.ndarray, np.ndarray, int]:
    """``(meld_kind int8[4], meld_tile int8[4], n_melds)`` for kernels.

    Unused slots have kind 0 and tile -1.

    >>> kind, tile, n = melds_to_arrays([Meld("P", 22), Meld("C", 9)])
    >>> kind.tolist(), tile.tolist(), n
    ([1, 3, 0, 0], [22, 9, -1, -1], 2)
    """
    melds = tuple(melds)
    if len(melds) > MAX_MELDS:
        raise ValueError(f"a hand has at most {MAX_MELDS} melds, got {len(melds)}")
    kind = np.zeros(MAX_MELDS, dtype=np.int8)
    tile = np.full(MAX_MELDS, -1, dtype=np.int8)
    for i, meld in enumerate(melds):
        if not isinstance(meld, tuple) or len(meld) != 2:
            raise ValueError(f"not a meld: {meld!r}")
        meld = Meld(*meld)
        kind[i] = meld.code
        tile[i] = check_tile(meld.tile)
    return kind, tile, len(melds)


def melds_from_arrays(
    meld_kind: np.ndarray, meld_tile: np.ndarray, n_melds: int
) -> tuple[Meld, ...]:
    """The inverse of :func:`melds_to_arrays`.

    >>> melds_from_arrays(*melds_to_arrays([Meld("K", 2)]))
    (Meld(kind='K', tile=2),)
    """
    if not 0 <= n_melds <= min(MAX_MELDS, len(meld_kind), len(meld_tile)):
        raise ValueError(f"n_melds must be 0..{MAX_MELDS} within the arrays, got {n_melds}")
    melds = []
    for i in range(n_melds):
        code = int(meld_kind[i])
        if code not in _MELD_KIND_BY_CODE:
            raise ValueError(f"meld kind code {code} (meld {i}) is not one of 1, 2, 3")
        melds.append(Meld(_MELD_KIND_BY_CODE[code], check_tile(int(meld_tile[i]))))
    return tuple(melds)


# --------------------------------------------------------------------------------------------
# notation


def parse(text: str, *, sizes: str = "hand") -> Hand:
    """Parse hand notation ``GROUPS ['|' MELD+]`` (docs/rules section 1) into a :class:`Hand`.

    ``sizes="hand"`` requires 13 - 3k or 14 - 3k concealed tiles for k melds; ``sizes="any"``
    accepts any number (lists of visible tiles, partial hands; an empty text is no tiles).
    Spaces are ignored. Every error is a ValueError naming the offending part.

    >>> counts, melds = parse("123m 567m 99s|P5s", sizes="any")
    >>> tiles_str(tiles_from_counts(counts)), melds
    ('123567m99s', (Meld(kind='P', tile=22),))
    >>> parse("12x")
    Traceback (most recent call last):
    ...
    ValueError: unknown character 'x' at position 3 in '12x'
    """
    if not isinstance(text, str):
        raise ValueError(f"hand notation must be a string, got {text!r}")
    if sizes not in ("hand", "any"):
        raise ValueError(f"sizes: {sizes!r} is not one of 'hand', 'any'")
    # positions are 1-based and count the spaces, so they point into the text as the user typed it
    chars = [(i + 1, c) for i, c in enumerate(text) if not c.isspace()]
    # int16 while parsing: a long run of one digit must reach the fifth-copy check, not wrap
    counts = np.zeros(N_TYPES, dtype=np.int16)
    pending: list[tuple[int, int]] = []  # (position, rank) of digits waiting for their suit
    k = 0
    while k < len(chars):
        pos, c = chars[k]
        if c == "|":
            break
        k += 1
        if c in "123456789":
            pending.append((pos, int(c)))
        elif c == "0":
            raise ValueError(f"rank 0 at position {pos} in {text!r} (ranks are 1-9)")
        elif c in SUITS:
            if not pending:
                raise ValueError(
                    f"suit letter {c!r} at position {pos} has no digits before it in {text!r}"
                )
            for _, rank in pending:
                counts[SUITS.index(c) * 9 + rank - 1] += 1
            pending = []
        elif c in MELD_LETTERS:
            raise ValueError(f"meld {c!r} at position {pos} in {text!r} must come after a '|'")
        elif c.lower() in SUITS:
            raise ValueError(
                f"unknown character {c!r} at position {pos} in {text!r} (suits are lower case)"
            )
        else:
            raise ValueError(f"unknown character {c!r} at position {pos} in {text!r}")
    if pending:
        digits = "".join(str(rank) for _, rank in pending)
        raise ValueError(
            f"digits {digits!r} at position {pending[0][0]} have no suit letter after them "
            f"in {text!r}"
        )
    melds: list[Meld] = []
    if k < len(chars):  # chars[k] is the '|'
        bar = chars[k][0]
        rest = chars[k + 1 :]
        if not rest:
            raise ValueError(f"'|' at position {bar} has no meld after it in {text!r}")
        for j in range(0, len(rest), 3):
            melds.append(_parse_meld(rest[j : j + 3], text))
    if len(melds) > MAX_MELDS:
        raise ValueError(f"{len(melds)} melds in {text!r}; a hand has at most {MAX_MELDS}")
    total = counts.copy()
    for meld in melds:
        total[meld.tile] += meld.size
    over = np.flatnonzero(total > N_COPIES)
    if over.size:
        t = int(over[0])
        raise ValueError(
            f"{int(total[t])} copies of {tile_str(t)} in {text!r}, counting melds "
            f"(a pung uses 3, a kong 4); only {N_COPIES} exist"
        )
    if sizes == "hand":
        n = int(counts.sum())
        m = len(melds)
        if n not in (13 - 3 * m, 14 - 3 * m):
            raise ValueError(
                f"{n} concealed tiles with {m} meld{'s' if m != 1 else ''} in {text!r}; "
                f"expected {13 - 3 * m} or {14 - 3 * m}"
            )
    return Hand(counts.astype(np.int8), tuple(melds))


def _parse_meld(part: list[tuple[int, str]], text: str) -> Meld:
    """One ``KIND RANK SUIT`` meld from three (position, character) pairs."""
    pos = part[0][0]
    got = "".join(c for _, c in part)
    expected = "expected P, K or C, a rank 1-9 and a suit m, p or s, like 'P5s'"
    if len(part) == 3 and part[1][1] == "0" and part[0][1] in MELD_LETTERS:
        raise ValueError(f"rank 0 at position {part[1][0]} in {text!r} (ranks are 1-9)")
    if (
        len(part) != 3
        or part[0][1] not in MELD_LETTERS
        or part[1][1] not in "123456789"
        or part[2][1] not in SUITS
    ):
        raise ValueError(f"malformed meld {got!r} at position {pos} in {text!r}: {expected}")
    kind, rank, suit = part[0][1], int(part[1][1]), part[2][1]
    return Meld(kind, SUITS.index(suit) * 9 + rank - 1)


def format(counts: np.ndarray | Hand, melds: Sequence[Meld] = ()) -> str:
    """Canonical notation: suits m, p, s, ranks ascending, one group per suit, then the melds.

    Accepts ``format(counts, melds)`` or ``format(hand)``; ``parse(format(h)) == h``.

    >>> format(counts_from_tiles([22, 22, 9, 0, 1, 2]), [Meld("P", 22), Meld("K", 2)])
    '123m1p55s|P5sK3m'
    """
    if isinstance(counts, Hand):
        if melds:
            raise ValueError("format(hand) takes no separate melds")
        counts, melds = counts
    arr = _check_counts(counts)
    groups = []
    for suit in range(3):
        ranks = "".join(str(r + 1) * int(arr[suit * 9 + r]) for r in range(9))
        if ranks:
            groups.append(ranks + SUITS[suit])
    text = "".join(groups)
    melds = tuple(melds)
    if melds:
        for meld in melds:
            if not isinstance(meld, tuple) or len(meld) != 2:
                raise ValueError(f"not a meld: {meld!r}")
        text += "|" + "".join(str(Meld(*meld)) for meld in melds)
    return text


def check_tile_set(tiles: Iterable[int], suits: int, where: str) -> None:
    """ValueError naming the first of ``tiles`` (tile types) that the tile set of ``suits``
    suits lacks: with two suits (docs/rules section 9) only ``p`` and ``s`` exist, so any ``m``
    tile is bad input. ``where`` says what held the tiles (a hand, a visible set, ...).

    >>> check_tile_set([9, 22], 2, "hand '1p5s'")
    >>> check_tile_set([0, 22], 2, "hand '1m5s'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: hand '1m5s' names the tile 1m, which is not in the tile set with suits = 2 ...
    """
    if suits == 3:
        return
    for t in tiles:
        if int(t) // 9 == 0:
            raise ValueError(f"{where} names the tile {tile_str(int(t))}, which is not in the "
                             f"tile set with suits = {suits} (only p and s)")


def hand_tiles(hand: Hand) -> list[int]:
    """Every tile type of ``hand``: its concealed tiles and its melds' tiles."""
    counts, melds = hand
    return [int(t) for t in np.flatnonzero(counts)] + [int(m.tile) for m in melds]
