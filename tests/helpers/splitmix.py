"""A slow, obvious pure-Python copy of the engine's random streams (simcore/engine/rng.py), for
known-answer tests: Python integers masked to 64 bits, no numpy, no numba.

- :func:`splitmix64` is Vigna's ``splitmix64.c`` ``next()`` (Steele, Lea & Flood 2014);
- :func:`stream_key` keys stream ``purpose`` of deal (or wall) ``deal`` under ``seed``;
- :class:`Stream` advances one state word; :meth:`Stream.below` is Lemire's multiply-shift on
  the high 32 bits; :func:`shuffle_wall` is the engine's Fisher-Yates over the 108 tiles.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
PURPOSE_WALL, PURPOSE_ENGINE, PURPOSE_SEAT0 = 0, 1, 2


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * MIX1) & MASK
    z = ((z ^ (z >> 27)) * MIX2) & MASK
    return z ^ (z >> 31)


def splitmix64(state: int, n: int) -> list[int]:
    """The first ``n`` outputs of splitmix64 started at ``state``."""
    out = []
    for _ in range(n):
        state = (state + GOLDEN) & MASK
        out.append(mix64(state))
    return out


def stream_key(seed: int, deal: int, purpose: int) -> int:
    k = mix64((seed ^ GOLDEN) & MASK)
    k = mix64(k ^ ((deal * GOLDEN + 1) & MASK))
    return mix64(k ^ ((purpose * MIX2 + 7) & MASK))


class Stream:
    def __init__(self, state: int) -> None:
        self.state = state

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return mix64(self.state)

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32


def shuffle_wall(stream: Stream) -> list[int]:
    wall = [k // 4 for k in range(108)]
    for k in range(107, 0, -1):
        j = stream.below(k + 1)
        wall[k], wall[j] = wall[j], wall[k]
    return wall


def wall(seed: int, wall_id: int) -> list[int]:
    """The wall the engine plays as wall ``wall_id`` of ``seed``."""
    return shuffle_wall(Stream(stream_key(seed, wall_id, PURPOSE_WALL)))


EXCHANGE_NAMES = ("none", "next", "previous", "across")


def exchange_direction(seed: int, wall_id: int) -> str:
    """The exchange-three direction of wall ``wall_id``: the first draw of its engine stream."""
    return EXCHANGE_NAMES[1 + Stream(stream_key(seed, wall_id, PURPOSE_ENGINE)).below(3)]
