"""Public hand evaluation: shanten, completeness, waits and useful tiles (ukeire).

A thin validated layer over :mod:`simcore.hand.kernels` and the per-suit tables of
:mod:`simcore.hand.tables`. Hands are concealed counts, ``int[27]`` (tile type ``t``: suit
``t // 9``, rank ``t % 9 + 1``) or a batch ``int[n, 27]``, or a hand in notation
(docs/rules section 1), whose melds then count. ``void`` is None (no void suit), a suit 0..2 or
its letter ``"m"``, ``"p"``, ``"s"``.

Definitions: standard shanten is the fewest tiles to add so that the concealed tiles contain
``4 - n_melds`` melds + a pair of non-void suits (at most 4 copies of a type), minus one;
seven pairs needs 7 pairs of non-void types (four copies are two pairs) and no melds
(:data:`NO_SHAPE` otherwise); ``"any"`` is the smaller. -1 means complete, 0 ready. Shanten is
about shape only; :func:`is_complete` and :func:`waits` apply the Sichuan win rules as well: no
void-suit tile and at most two suits (counting the melds' suits when they are known).

>>> shanten("111m444m456p789m77p"), shanten("111m444m456p789m7p")
(-1, 0)
>>> pairs = "11m22m99m44p66p88p9p"
>>> shanten(pairs, kind="seven_pairs"), shanten(pairs, kind="standard"), shanten(pairs)
(0, 3, 0)
>>> is_complete("111m444m456p789m77p"), is_complete("123m456p789s11m222m")
(True, False)
>>> [tile_str(t) for t in waits("1112345678999m")]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> tiles, n = useful_tiles("123m456p789m11p58s")
>>> [tile_str(t) for t in tiles], n
(['1p', '3s', '4s', '5s', '6s', '7s', '8s', '9s'], 28)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcore.hand import kernels as _k
from simcore.hand.tables import load_tables
from simcore.tiles import SUITS, Hand, Meld, parse, tile_str

NO_SHAPE = _k.NO_SHAPE
__all__ = ["NO_SHAPE", "is_complete", "shanten", "useful_tiles", "waits"]


def shanten(
    counts: Any, kind: str = "any", void: int | str | None = None, n_melds: int = 0
) -> int | np.ndarray:
    """Shanten of concealed counts ``(27,)`` (an int) or a batch ``(n, 27)`` (``int8[n]``).

    ``kind`` is ``"any"``, ``"standard"`` or ``"seven_pairs"``; a hand may hold
    ``13 - 3 * n_melds`` or ``14 - 3 * n_melds`` concealed tiles. A notation string or a
    :class:`~simcore.tiles.Hand` brings its own melds.

    >>> shanten("123m456p789s11m23m"), shanten("123m456p1s|P5sK9m"), shanten("123m459p14s|P5sK9m")
    (0, 0, 1)
    >>> shanten(np.zeros(27, dtype=np.int8))
    Traceback (most recent call last):
    ...
    ValueError: 0 concealed tiles with 0 melds; expected 13 or 14
    """
    if kind not in _k.KIND_CODES:
        raise ValueError(f"kind must be 'any', 'standard' or 'seven_pairs', got {kind!r}")
    arr, k, _ = _hand_input(counts, n_melds)
    v = _check_void(void)
    batch = _as_batch(arr, k, (13 - 3 * k, 14 - 3 * k))
    t = load_tables()
    out = np.empty(batch.shape[0], dtype=np.int8)
    n = batch.shape[0]
    _k.calc_shanten_batch(
        batch, np.full(n, k, np.int8), np.full(n, v, np.int8), _k.KIND_CODES[kind], t.packed, out
    )
    return int(out[0]) if arr.ndim == 1 else out


def is_complete(counts: Any, void: int | str | None = None, n_melds: int = 0) -> bool | np.ndarray:
    """Whether ``14 - 3 * n_melds`` concealed tiles make a Sichuan win.

    Standard shape or seven pairs, no void-suit tile, at most two suits (the melds' suits count
    when the hand is given in notation). Accepts ``(27,)`` (a bool) or ``(n, 27)`` (``bool[n]``).

    >>> is_complete("11m22m99m44p66p88p99p"), is_complete("11m22m99m44p66p88p99p", void="p")
    (True, False)
    >>> is_complete("111m456m77m|P5sK9m"), is_complete("111p456p77p|P5sK9m")
    (True, False)
    """
    arr, k, meld_suits = _hand_input(counts, n_melds)
    v = _check_void(void)
    batch = _as_batch(arr, k, (14 - 3 * k,))
    t = load_tables()
    n = batch.shape[0]
    out = np.empty(n, dtype=np.bool_)
    ks = np.full(n, k, np.int8)
    voids = np.full(n, v, np.int8)
    _k.check_win_batch(batch, ks, voids, np.full(n, meld_suits, np.int8), t.packed, out)
    return bool(out[0]) if arr.ndim == 1 else out


def waits(hand: str | Hand, void: int | str | None = None) -> list[int]:
    """Tile types that complete a waiting hand (``13 - 3k`` concealed tiles) as a Sichuan win.

    Never a fifth copy (the hand's own tiles and melds count), never a void-suit tile, and the
    win may hold at most two suits counting the melds.

    >>> [tile_str(t) for t in waits("123m456m789m5p|P1p")], waits("123m456m789m5p|P1s")
    (['5p'], [])
    """
    counts, melds = _as_hand(hand)
    k = len(melds)
    if int(counts.sum()) != 13 - 3 * k:
        raise ValueError(
            f"a waiting hand with {k} melds has {13 - 3 * k} concealed tiles, "
            f"got {int(counts.sum())}"
        )
    v = _check_void(void)
    held = _held(counts, melds)
    t = load_tables()
    mask = _k.find_waits(counts, held, k, v, _meld_suits(melds), t.packed, t.masks)
    return _mask_tiles(int(mask))


def useful_tiles(
    hand: str | Hand, visible: Any = None, void: int | str | None = None
) -> tuple[list[int], int]:
    """Tile types whose draw lowers the shanten ("any" kind), and how many of them are unseen.

    ``visible`` (27 counts, notation or a Hand) is everything the player can see: own
    concealed tiles and melds, discards, the others' melds. It defaults to the hand's own
    tiles. The count is ``sum(4 - visible[t])`` over the useful types. A type of which the
    player already holds four (concealed or melded) is never useful.

    >>> tiles, n = useful_tiles("123m456p789m1p5s|P9s")
    >>> [tile_str(t) for t in tiles], n
    (['1p', '5s'], 6)
    """
    counts, melds = _as_hand(hand)
    k = len(melds)
    if int(counts.sum()) not in (13 - 3 * k, 14 - 3 * k):
        raise ValueError(
            f"{int(counts.sum())} concealed tiles with {k} melds; "
            f"expected {13 - 3 * k} or {14 - 3 * k}"
        )
    v = _check_void(void)
    held = _held(counts, melds)
    if visible is None:
        seen = held
    else:
        if isinstance(visible, str | Hand):
            vis_counts, vis_melds = (
                parse(visible, sizes="any") if isinstance(visible, str) else visible
            )
            seen = _held(_check_counts_1d(vis_counts, "visible"), tuple(vis_melds))
        else:
            seen = _check_counts_1d(visible, "visible")
        short = np.flatnonzero(seen < held)
        if short.size:
            t = int(short[0])
            raise ValueError(
                f"visible shows {int(seen[t])} of {tile_str(t)} but the hand holds "
                f"{int(held[t])}; visible must include the player's own tiles"
            )
    tab = load_tables()
    _, mask = _k.find_improvers(counts, k, v, _k.KIND_ANY, tab.packed, tab.masks)
    tiles = [t for t in _mask_tiles(int(mask)) if held[t] < 4]
    return tiles, int(sum(4 - int(seen[t]) for t in tiles))


# --------------------------------------------------------------------------------------------
# validation


def _check_void(void: object) -> int:
    """``void`` as -1 (none) or 0..2."""
    if void is None:
        return -1
    if isinstance(void, str) and len(void) == 1 and void in SUITS:
        return SUITS.index(void)
    if not isinstance(void, bool) and isinstance(void, int | np.integer) and -1 <= void <= 2:
        return int(void)
    raise ValueError(f"void must be None, 0..2 or 'm', 'p', 's', got {void!r}")


def _check_n_melds(n_melds: object) -> int:
    if isinstance(n_melds, bool) or not isinstance(n_melds, int | np.integer):
        raise ValueError(f"n_melds must be an integer 0..4, got {n_melds!r}")
    if not 0 <= n_melds <= 4:
        raise ValueError(f"n_melds must be 0..4, got {n_melds}")
    return int(n_melds)


def _hand_input(counts: Any, n_melds: object) -> tuple[np.ndarray, int, int]:
    """(counts array (27,) or (n, 27), number of melds, suit bit set of the melds)."""
    k = _check_n_melds(n_melds)
    if isinstance(counts, str | Hand):
        arr, melds = _as_hand(counts)
        if k not in (0, len(melds)):
            raise ValueError(f"n_melds={k} but the hand has {len(melds)} melds")
        return arr, len(melds), _meld_suits(melds)
    arr = np.asarray(counts)
    if arr.ndim not in (1, 2) or arr.shape[-1] != 27:
        raise ValueError(f"counts must have shape (27,) or (n, 27), got {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"counts must be integers, got dtype {arr.dtype}")
    return arr, k, 0


def _as_batch(arr: np.ndarray, k: int, sizes: tuple[int, ...]) -> np.ndarray:
    """Validated C-contiguous ``int8[n, 27]`` (counts 0..4, tile totals in ``sizes``)."""
    batch = arr.reshape(-1, 27)
    bad = (batch < 0) | (batch > 4)
    if bad.any():
        i, t = (int(x) for x in np.argwhere(bad)[0])
        where = f"hand {i}: " if arr.ndim == 2 else ""
        raise ValueError(f"{where}count of {tile_str(t)} must be 0..4, got {int(batch[i, t])}")
    totals = batch.sum(axis=1, dtype=np.int64)
    wrong = np.flatnonzero(~np.isin(totals, sizes))
    if wrong.size:
        i = int(wrong[0])
        where = f"hand {i}: " if arr.ndim == 2 else ""
        expected = " or ".join(str(s) for s in sizes)
        raise ValueError(
            f"{where}{int(totals[i])} concealed tiles with {k} melds; expected {expected}"
        )
    return np.ascontiguousarray(batch, dtype=np.int8)


def _check_counts_1d(counts: Any, what: str) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.shape != (27,) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{what} must be 27 integers, got shape {arr.shape} of dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr > 4))
    if bad.size:
        t = int(bad[0])
        raise ValueError(f"{what}: count of {tile_str(t)} must be 0..4, got {int(arr[t])}")
    return arr.astype(np.int8)


def _as_hand(hand: object) -> tuple[np.ndarray, tuple[Meld, ...]]:
    """(concealed ``int8[27]``, melds) of a notation string or a :class:`Hand`."""
    if isinstance(hand, str):
        counts, melds = parse(hand)
        return counts, tuple(melds)
    if isinstance(hand, Hand):
        counts = _check_counts_1d(hand.counts, "hand counts")
        melds = tuple(Meld(*m) for m in hand.melds)
        if len(melds) > 4:
            raise ValueError(f"a hand has at most 4 melds, got {len(melds)}")
        for m in melds:
            m.code  # noqa: B018 - validates the kind
            tile_str(m.tile)  # validates the tile
        _held(counts, melds)
        return counts, melds
    raise ValueError(f"hand must be notation like '123m456p|P5s' or a Hand, got {hand!r}")


def _held(counts: np.ndarray, melds: tuple[Meld, ...]) -> np.ndarray:
    """Concealed + meld tiles (a kong is 4); a fifth copy is an error."""
    total = counts.astype(np.int8).copy()
    for m in melds:
        total[m.tile] += m.size
    over = np.flatnonzero(total > 4)
    if over.size:
        t = int(over[0])
        raise ValueError(f"{int(total[t])} copies of {tile_str(t)} counting melds; only 4 exist")
    return total


def _meld_suits(melds: tuple[Meld, ...]) -> int:
    s = 0
    for m in melds:
        s |= 1 << (m.tile // 9)
    return s


def _mask_tiles(mask: int) -> list[int]:
    return [t for t in range(27) if mask >> t & 1]
