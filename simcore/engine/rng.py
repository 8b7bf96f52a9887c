"""Counter-based random streams: every number of deal ``i`` is a function of (seed, i, purpose).

A stream is one uint64 state word advanced by the splitmix64 step (Steele, Lea & Flood 2014):
cheap (a few ns), statistically strong for this use, and trivially keyed, so that splitting a run
into chunks, threads, processes or machines can never change a deal.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from simcore._jit import kernel
from simcore.records import WALL_SIZE, first_tile_type, wall_size

GOLDEN = uint64(0x9E3779B97F4A7C15)
MIX1 = uint64(0xBF58476D1CE4E5B9)
MIX2 = uint64(0x94D049BB133111EB)

# Stream purposes of one deal: the wall, the engine's own choices, then one stream per seat.
PURPOSE_WALL = 0
PURPOSE_ENGINE = 1
PURPOSE_SEAT0 = 2


@njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> uint64(30))) * MIX1
    z = (z ^ (z >> uint64(27))) * MIX2
    return z ^ (z >> uint64(31))


@kernel
def stream_key(seed: int, deal: int, purpose: int) -> np.uint64:
    """The initial state of stream ``purpose`` of deal ``deal`` under master ``seed``."""
    k = mix64(uint64(seed) ^ GOLDEN)
    k = mix64(k ^ (uint64(deal) * GOLDEN + uint64(1)))
    return mix64(k ^ (uint64(purpose) * MIX2 + uint64(7)))


@njit(cache=True, inline="always")
def next_u64(state: np.ndarray, i: int) -> np.uint64:
    """Advance stream ``state[i]`` and return 64 random bits."""
    s = state[i] + GOLDEN
    state[i] = s
    return mix64(s)


@njit(cache=True, inline="always")
def below(state: np.ndarray, i: int, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` (Lemire's multiply-shift; bias < n / 2**32, negligible)."""
    r = next_u64(state, i) >> uint64(32)
    return int((r * uint64(n)) >> uint64(32))


@kernel
def shuffle_wall(wall: np.ndarray, state: np.ndarray, i: int) -> None:
    """Fill ``wall`` with a uniform random permutation of the 108 tiles (Fisher-Yates)."""
    shuffle_tiles(wall, state, i, 0, WALL_SIZE)


@kernel
def shuffle_tiles(wall: np.ndarray, state: np.ndarray, i: int, first_type: int,
                  n_tiles: int) -> None:
    """Fill ``wall[:n_tiles]`` with a uniform random permutation of four copies of the tile
    types ``first_type ..`` (Fisher-Yates): the 108 tiles from type 0, or the 72 of two suits
    from type 9. The 108-tile case draws exactly the numbers :func:`shuffle_wall` always drew."""
    for k in range(n_tiles):
        wall[k] = first_type + k // 4
    for k in range(n_tiles - 1, 0, -1):
        j = below(state, i, k + 1)
        t = wall[k]
        wall[k] = wall[j]
        wall[j] = t


@kernel
def _fill_walls(seed, start, out, first_type):
    state = np.zeros(1, np.uint64)
    for j in range(out.shape[0]):
        state[0] = stream_key(seed, start + j, PURPOSE_WALL)
        shuffle_tiles(out[j], state, 0, first_type, out.shape[1])


def deal_walls(seed: int, start: int, count: int, suits: int = 3) -> np.ndarray:
    """The walls (``int8[count, wall_size(suits)]``) of walls ``start .. start+count-1`` of
    ``seed``.

    Exactly the walls the engine plays (wall id = deal number outside duplicate runs): tiles
    0..51 are dealt 13 at a time to the dealer and the next seats, tile 52 is the dealer's 14th
    (with three players: tiles 0..38, and 39). With ``suits = 2`` the wall holds the 72 tiles of
    types 9..26 (``p`` and ``s``).
    """
    if seed < 0 or start < 0 or count < 0:
        raise ValueError(f"seed, start and count must be >= 0, got {seed}, {start}, {count}")
    if suits not in (3, 2):
        raise ValueError(f"suits must be 3 or 2, got {suits!r}")
    out = np.empty((count, wall_size(suits)), np.int8)
    _fill_walls(seed, start, out, first_tile_type(suits))
    return out
